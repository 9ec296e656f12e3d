public import ShoeboxCore

/// Suspected duplicates: a record that may stand for a purchase already in the store. A suspect is never
/// dropped: it goes to review naming the other record, and a person confirms or denies it. (Identical bytes are
/// found earlier, at intake: those are known duplicates, not suspects.)
///
/// A possible duplicate (`possible-duplicate`) is a claim about the same purchase, so two records are one only
/// when they can be: the same total (when both read one), the same day (when both read one) and the same seller
/// (when both read one). Another total, another day or another seller is another purchase, whatever else the two
/// share: a reference number, a date or a sample number alone never makes a duplicate. The one exception is the
/// paper itself: when the page image *and* the printed numbers both say it is the same paper, the readings of
/// one of the two are wrong, and that is its own reason (`same-paper-reads-differently`).
///
/// The rules, in order (the first that holds for any earlier record names it):
/// 1. **the same e-invoice**: both records' values come from invoice XML, and the seller (tax ID, else name),
///    the invoice number and the total agree. Two e-invoices of different sellers are never duplicates, and
///    two of one seller with different numbers never either (exact values leave nothing to misread);
/// 2. **the same paper scanned again, by its image**: the first pages' fingerprints are within
///    `PageFingerprint.sameThreshold`, or within `looseImageDistance` when the date and total read are the same
///    too (the image alone puts some same-shop slips as close as re-scans). Two pages that print almost none of
///    the same numbers are not the same paper, however alike they look;
/// 3. **the same paper, by its printed numbers**: the numbers on the first pages (amounts, times, receipt
///    and phone numbers) overlap by `sameNumbersShare` or more. A crop or a tilt that changes the image leaves
///    the numbers; another purchase in the same shop prints the same phone and tax numbers but another time,
///    receipt number and date;
/// 4. **the same receipt or invoice number from the same merchant**, with no other total and within the window;
/// 5. **the same merchant and total within the date window** (`duplicateWindowHours`, default 48 h);
/// 6. **an e-invoice reissued** (`e-invoice-reissued`): the same seller and invoice number with another total,
///    a correction or a reissue: a person keeps one;
/// 7. **the same paper read otherwise** (`same-paper-reads-differently`): the image firmly (within
///    `readOtherwiseDistance`, or `looseImageDistance` with the same date and total) and the printed numbers
///    (`sameNumbersShare`) both say the same paper, but one of the total, day, seller or time of day read differs
///    (a total or day by one digit), and the pages print no clearly other times. Two values read otherwise on a
///    slip of the same layout are more often another purchase (a canteen's same meal on another day).
/// Two phone payment screens are judged by their reference and amount alone, or else by the same payee and amount on
/// the same day at times within `screenMinutes`: all screens of an app share their look and their status bar, whatever
/// was paid. A screen and a paper receipt are one purchase only by rule 5 (the same merchant and total within the
/// window): one is no image or print of the other.
/// Rules 2 and 3 ask the day read to be the same (a re-scan reads the same date), rules 4 and 5 within the
/// window; all of 2–5 ask the total (its amount: a currency is often inferred) and the seller not to differ.
public struct DuplicateRules: Sendable {
    /// The date window in whole days either way.
    let windowDays: Int

    public init(windowHours: Int) { windowDays = (windowHours + 23) / 24 }

    /// What the index keeps of each record.
    public struct Entry: Sendable {
        public let source: String
        public let merchant: String?
        let reference: String?
        public let total: Money?
        public let date: CalendarDay?
        public let fingerprint: PageFingerprint?
        /// The first page's printed numbers (`DuplicateRules.printedNumbers`).
        let numbers: Set<String>
        /// The times of day the first page prints (`DuplicateRules.printedTimes`).
        let times: Set<String>
        /// The values come from an invoice XML (ZUGFeRD, Factur-X, XRechnung, UBL): exact, compared exactly.
        let isEInvoice: Bool
        /// The seller's tax ID or VAT ID, capitals and digits only.
        let sellerTaxID: String?
        /// A phone's payment screen: every screen of an app looks alike and prints the same status bar, so neither
        /// its image nor its numbers say the same paper; its reference number says the same payment.
        let isScreen: Bool

        public init(_ r: DocumentRecord, fingerprint: PageFingerprint? = nil, firstPageText: String? = nil) {
            numbers = firstPageText.map(DuplicateRules.printedNumbers) ?? []
            times = firstPageText.map(DuplicateRules.printedTimes) ?? []
            source = r.source
            merchant = r.merchantNormalized.map { $0.replacingOccurrences(of: " ", with: "") }.flatMap { $0.isEmpty ? nil : $0 }
            reference = r.referenceNumber.map { String($0.uppercased().filter { $0.isLetter || $0.isNumber }) }.flatMap { $0.count >= 3 ? $0 : nil }
            total = r.total
            date = r.date
            self.fingerprint = fingerprint
            isEInvoice = r.eInvoice != nil
            isScreen = r.payment != nil
            sellerTaxID = r.sellerTaxID.map { String($0.uppercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }) }
                .flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// What a rule found: the earlier record, why (for people), and the reason the record goes to review with.
    public struct Suspect: Sendable, Equatable {
        public let source: String
        public let why: String
        /// `possibleDuplicate`, `samePaperReadsDifferently` or `eInvoiceReissued`.
        public let reason: ReviewReason

        /// The sentence a run prints for the record at `path` (`shoebox run`'s notes).
        public func sentence(for path: String) -> String {
            switch reason {
            case .samePaperReadsDifferently:
                "\(path) may be \(source) scanned again, read otherwise: \(why); check which reading is right"
            case .eInvoiceReissued:
                "\(path) has the same seller and invoice number as \(source) with another total: a correction or reissue; check which one to keep"
            default: "\(path) may duplicate \(source): \(why)"
            }
        }
    }

    /// How review names the other record of a record in review for `reasons` ("possible duplicate of a/1.jpg").
    public static func naming(_ other: String, reasons: [ReviewReason]) -> String {
        if reasons.contains(.eInvoiceReissued) { return "the same seller and invoice number as \(other), another total" }
        if reasons.contains(.samePaperReadsDifferently) { return "the same paper as \(other), read otherwise" }
        return "possible duplicate of \(other)"
    }

    /// Image distance up to which the same date and total make a re-scan.
    static let looseImageDistance = 300
    /// Share of printed numbers (Jaccard: common / all) from which two first pages are the same paper: low
    /// enough for a crop or a tilt, and two different receipts that share this much differ in their dates.
    static let sameNumbersShare = 0.2
    /// Image distance up to which the image (with the printed numbers) outweighs one value read otherwise.
    static let readOtherwiseDistance = PageFingerprint.sameThreshold / 2
    /// Below this share two pages print different numbers: not the same paper, however alike the images.
    static let differentNumbersShare = 0.05
    /// Fewer printed numbers than this on a page say nothing either way.
    static let fewestNumbers = 5
    /// Below this share of letter pairs (Dice) two merchant names read by OCR are two sellers.
    static let sameNameShare = 0.5

    /// The words of a page that hold two digits or more, upper-cased, with everything but letters and digits
    /// taken out: "13:18:48" → "131848", "RM9.90" → "RM990", "001-3246" → "0013246".
    static func printedNumbers(in text: String) -> Set<String> {
        var out: Set<String> = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            let kept = word.uppercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
            if kept.filter(\.isNumber).count >= 2 { out.insert(kept) }
        }
        return out
    }

    /// The times of day a page prints, as "HHMM": "13:18:48" → "1318", "9:05" → "0905"; a number read with a dot
    /// ("13.25") is an amount, not a time.
    static func printedTimes(in text: String) -> Set<String> {
        let c = Array(text.utf8)
        func digit(_ i: Int) -> Int? { c.indices.contains(i) && (48...57).contains(c[i]) ? Int(c[i]) - 48 : nil }
        var out: Set<String> = []
        for i in c.indices where c[i] == UInt8(ascii: ":") {
            // H:MM or HH:MM, not the seconds of a time before it nor part of a longer number.
            guard let h2 = digit(i - 1), let m1 = digit(i + 1), let m2 = digit(i + 2), digit(i + 3) == nil else { continue }
            let h1 = digit(i - 2)
            let before = h1 == nil ? i - 2 : i - 3
            guard digit(before) == nil, !(c.indices.contains(before) && c[before] == UInt8(ascii: ":")) else { continue }
            let hour = (h1 ?? 0) * 10 + h2
            guard hour < 24, m1 < 6 else { continue }
            out.insert("\(hour / 10)\(hour % 10)\(m1)\(m2)")
        }
        return out
    }

    /// Jaccard share of the two entries' printed numbers; nil when either page prints too few to tell.
    static func numbersShare(_ a: Entry, _ b: Entry) -> Double? {
        guard a.numbers.count >= fewestNumbers, b.numbers.count >= fewestNumbers else { return nil }
        return Double(a.numbers.intersection(b.numbers).count) / Double(a.numbers.union(b.numbers).count)
    }

    /// Whether two e-invoices name the same seller, by its tax ID when both state one, else by its name; nil when
    /// either states neither.
    static func sameSeller(exactly a: Entry, _ b: Entry) -> Bool? {
        if let x = a.sellerTaxID, let y = b.sellerTaxID { return x == y }
        if let x = a.merchant, let y = b.merchant { return x == y }
        return nil
    }

    /// Whether the sellers read are two: for e-invoices, exactly (`sameSeller(exactly:)`); else a name read by OCR
    /// ("UNIHAKKA" and "UNIHAKKAINTL" are one) is another seller when neither begins the other and they share less
    /// than `sameNameShare` of their letter pairs, unless both pages read the same tax ID.
    static func sellersDiffer(_ a: Entry, _ b: Entry) -> Bool {
        if a.isEInvoice && b.isEInvoice, let same = sameSeller(exactly: a, b) { return !same }
        if let x = a.sellerTaxID, x == b.sellerTaxID { return false }
        guard let x = a.merchant, let y = b.merchant, x != y else { return false }
        let (short, long) = x.count <= y.count ? (x, y) : (y, x)
        if short.count >= 4 && long.hasPrefix(short) { return false }
        func pairs(_ s: String) -> [String: Int] {
            let c = Array(s)
            var out: [String: Int] = [:]
            for i in c.indices.dropLast() { out[String(c[i...i + 1]), default: 0] += 1 }
            return out
        }
        let (p, q) = (pairs(x), pairs(y))
        let common = p.reduce(0) { $0 + min($1.value, q[$1.key] ?? 0) }
        let all = p.values.reduce(0, +) + q.values.reduce(0, +)
        return all == 0 || Double(2 * common) / Double(all) < sameNameShare
    }

    /// The first earlier record `entry` may duplicate, and why: by the rules in order, then by the earlier records
    /// in order.
    public func match(_ entry: Entry, in earlier: [Entry]) -> Suspect? {
        var best: (rank: Int, suspect: Suspect)?
        for other in earlier where other.source != entry.source {
            guard let found = judge(entry, other), found.rank < best?.rank ?? Int.max else { continue }
            best = found
            if found.rank == 1 { break }
        }
        return best?.suspect
    }

    /// The first rule (1…7, as numbered above) by which `a` may be the purchase or paper of `b`.
    func judge(_ a: Entry, _ b: Entry) -> (rank: Int, suspect: Suspect)? {
        func found(_ rank: Int, _ why: String, _ reason: ReviewReason = .possibleDuplicate) -> (Int, Suspect) {
            (rank, Suspect(source: b.source, why: why, reason: reason))
        }
        // Totals are compared by amount: a currency is more often inferred than printed.
        let sameTotal = a.total != nil && a.total?.minorUnits == b.total?.minorUnits
        let totalDiffers = a.total != nil && b.total != nil && !sameTotal
        if a.isEInvoice && b.isEInvoice {
            if DuplicateRules.sameSeller(exactly: a, b) == false { return nil }
            if let x = a.reference, let y = b.reference, DuplicateRules.sameSeller(exactly: a, b) == true {
                guard x == y else { return nil }
                if totalDiffers { return found(6, "the same seller and invoice number with another total", .eInvoiceReissued) }
                return found(1, "the same seller, invoice number and total")
            }
        }
        if a.isScreen != b.isScreen {
            // A payment screen and a paper receipt of one purchase: the same merchant and total within the window, as two
            // receipts (rule 5). The image, the printed numbers and a reference are of two different things (a wallet's
            // reference is no receipt number).
            let withinWindow = a.date.flatMap { d in b.date.map { abs(d.daysSince($0)) <= windowDays } }
            guard let merchant = a.merchant, merchant == b.merchant, sameTotal, withinWindow == true else { return nil }
            return found(5, "the same merchant and total within \(windowDays) day\(windowDays == 1 ? "" : "s") (a payment screen and a receipt)")
        }
        if a.isScreen && b.isScreen {
            // One payment seen twice (the success screen and the wallet's history entry, or the screen shared twice):
            // the same reference and amount; else the same payee and amount on the same day, at times within minutes.
            if let x = a.reference, x == b.reference, !totalDiffers { return found(4, "the same payment reference") }
            guard let merchant = a.merchant, merchant == b.merchant, sameTotal, a.date != nil, a.date == b.date,
                a.times.isEmpty || b.times.isEmpty || DuplicateRules.timesWithin(a.times, b.times, minutes: DuplicateRules.screenMinutes)
            else { return nil }
            return found(5, "the same payee and amount on the same day, within \(DuplicateRules.screenMinutes) minutes")
        }
        let sameDay = a.date != nil && a.date == b.date
        let dayDiffers = a.date != nil && b.date != nil && !sameDay
        let sellerDiffers = DuplicateRules.sellersDiffer(a, b)
        let sameValues = !totalDiffers && !dayDiffers && !sellerDiffers
        let share = DuplicateRules.numbersShare(a, b)
        let sameNumbers = share.map { $0 >= DuplicateRules.sameNumbersShare } ?? false
        // The image says the same paper: within the threshold, or within the loose distance with the same date and total.
        // To outweigh a value read otherwise it must say so more firmly: within half the threshold (same-shop slips
        // come within it), or the loose distance with the same date and total.
        var sameImage = false
        var firmImage = false
        if let x = a.fingerprint, let y = b.fingerprint, share.map({ $0 >= DuplicateRules.differentNumbersShare }) ?? true {
            let d = x.distance(to: y)
            let close = d <= PageFingerprint.sameThreshold
            let loose = d <= DuplicateRules.looseImageDistance && sameDay && sameTotal
            sameImage = close || loose
            firmImage = d <= DuplicateRules.readOtherwiseDistance || loose
            if sameImage && sameValues { return found(2, close ? "the same page image" : "a similar page image with the same date and total") }
        }
        if sameNumbers && sameValues { return found(3, "the same printed numbers") }
        if let merchant = a.merchant, merchant == b.merchant {
            let withinWindow = a.date.flatMap { d in b.date.map { abs(d.daysSince($0)) <= windowDays } }
            if let r = a.reference, r == b.reference, !totalDiffers, withinWindow != false {
                return found(4, "the same reference number from the same merchant")
            }
            if sameTotal, withinWindow == true {
                return found(5, "the same merchant and total within \(windowDays) day\(windowDays == 1 ? "" : "s")")
            }
        }
        // One value read otherwise on the same paper is a misreading; two (another total and day of a slip of the same
        // layout, or another day and time) are more often another purchase. A total or a date misread differs from the
        // other in one digit; more is another purchase (a canteen's same meal on another day). Pages that print other
        // times of day (beyond one digit read otherwise) are two receipts.
        let timeDiffers = !a.times.isEmpty && !b.times.isEmpty && a.times.isDisjoint(with: b.times)
        let differ = [(totalDiffers, "total"), (dayDiffers, "date"), (sellerDiffers, "seller"), (timeDiffers, "time")].filter(\.0).map(\.1)
        let oneDigit =
            (!totalDiffers || DuplicateRules.oneDigitApart(a.total?.decimalString, b.total?.decimalString))
            && (!dayDiffers || DuplicateRules.oneDigitApart(a.date?.iso, b.date?.iso))
        if firmImage && sameNumbers && differ.count == 1 && oneDigit && !DuplicateRules.timesDiffer(a.times, b.times) {
            return found(7, "the same page image and printed numbers, another \(differ[0]) read", .samePaperReadsDifferently)
        }
        return nil
    }

    /// Two screens of one payment without a reference print times this close (the payment's, or the status bar's when
    /// each screenshot was taken).
    static let screenMinutes = 10

    /// Whether some time of `a` and some time of `b` ("HHMM") lie within `minutes` of each other.
    static func timesWithin(_ a: Set<String>, _ b: Set<String>, minutes: Int) -> Bool {
        func m(_ t: String) -> Int? { Int(t).map { $0 / 100 * 60 + $0 % 100 } }
        return a.contains { x in b.contains { y in m(x).flatMap { mx in m(y).map { abs(mx - $0) <= minutes } } ?? false } }
    }

    /// Whether two readings of one length differ in one character: "8.70" and "3.70", "2017-05-22" and "2017-08-22".
    static func oneDigitApart(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b, a.count == b.count else { return false }
        return zip(a, b).filter { $0 != $1 }.count == 1
    }

    /// Whether two pages print times of day and none of one page's is another's, allowing one digit read wrong: two
    /// receipts of one day (a re-scan prints the same time, "21:26" read "21:28" at worst).
    static func timesDiffer(_ a: Set<String>, _ b: Set<String>) -> Bool {
        guard !a.isEmpty, !b.isEmpty else { return false }
        for x in a {
            for y in b where zip(x, y).filter({ $0 != $1 }).count <= 1 { return false }
        }
        return true
    }
}
