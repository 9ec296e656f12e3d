/// Suspected duplicates: a record that may stand for a purchase already in the store. A suspect is never
/// dropped: it goes to review as `possible-duplicate`, naming the other record, and a person confirms or
/// denies it. (Identical bytes are found earlier, at intake: those are known duplicates, not suspects.)
///
/// The rules, in order:
/// 1. **the same paper scanned again, by its image**: the first pages' fingerprints are within
///    `PageFingerprint.sameThreshold` and the dates read do not contradict it, or within `looseImageDistance`
///    when the date and total read are the same too (the image alone puts some same-shop slips as close as
///    re-scans; date plus total tell those apart). Two pages that print
///    almost none of the same numbers are not the same paper, however alike they look;
/// 2. **the same paper, by its printed numbers**: the numbers on the first pages (amounts, times, receipt
///    and phone numbers) overlap by `sameNumbersShare` or more and the dates read do not contradict it. A
///    crop or a tilt that changes the image leaves the numbers; another purchase in the same shop prints
///    the same phone and tax numbers but another time, receipt number and date;
/// 3. **the same receipt or invoice number from the same merchant**;
/// 4. **the same merchant and total within the date window** (`duplicateWindowHours`, default 48 h).
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

        public init(_ r: DocumentRecord, fingerprint: PageFingerprint? = nil, firstPageText: String? = nil) {
            numbers = firstPageText.map(DuplicateRules.printedNumbers) ?? []
            source = r.source
            merchant = r.merchantNormalized.map { $0.replacingOccurrences(of: " ", with: "") }.flatMap { $0.isEmpty ? nil : $0 }
            reference = r.referenceNumber.map { String($0.uppercased().filter { $0.isLetter || $0.isNumber }) }.flatMap { $0.count >= 3 ? $0 : nil }
            total = r.total
            date = r.date
            self.fingerprint = fingerprint
        }
    }

    /// Image distance up to which the same date and total make a re-scan.
    static let looseImageDistance = 300
    /// Share of printed numbers (Jaccard: common / all) from which two first pages are the same paper: low
    /// enough for a crop or a tilt, and two different receipts that share this much differ in their dates.
    static let sameNumbersShare = 0.2
    /// Below this share two pages print different numbers: not the same paper, however alike the images.
    static let differentNumbersShare = 0.05
    /// Fewer printed numbers than this on a page say nothing either way.
    static let fewestNumbers = 5

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

    /// Jaccard share of the two entries' printed numbers; nil when either page prints too few to tell.
    static func numbersShare(_ a: Entry, _ b: Entry) -> Double? {
        guard a.numbers.count >= fewestNumbers, b.numbers.count >= fewestNumbers else { return nil }
        return Double(a.numbers.intersection(b.numbers).count) / Double(a.numbers.union(b.numbers).count)
    }

    /// The first earlier record `entry` may duplicate, and why.

    public func match(_ entry: Entry, in earlier: [Entry]) -> (source: String, why: String)? {
        if let a = entry.fingerprint {
            for other in earlier where other.source != entry.source {
                guard let b = other.fingerprint else { continue }
                if let share = DuplicateRules.numbersShare(entry, other), share < DuplicateRules.differentNumbersShare { continue }
                let d = a.distance(to: b)
                // Receipts of one shop share their layout: a close image alone is not enough when the dates read
                // differ. Totals are not asked to agree: OCR reads a re-scan's total differently more often than
                // its date, so that would miss re-scans (`shoebox-bench duplicates` measures the trade).
                let contradicted = entry.date != nil && other.date != nil && entry.date != other.date
                if d <= PageFingerprint.sameThreshold && !contradicted { return (other.source, "the same page image") }
                if d <= DuplicateRules.looseImageDistance, entry.date != nil, entry.date == other.date, entry.total != nil, entry.total == other.total
                {
                    return (other.source, "a similar page image with the same date and total")
                }
            }
        }
        for other in earlier where other.source != entry.source {
            guard let share = DuplicateRules.numbersShare(entry, other), share >= DuplicateRules.sameNumbersShare else { continue }
            let contradicted = entry.date != nil && other.date != nil && entry.date != other.date
            if !contradicted { return (other.source, "the same printed numbers") }
        }
        guard let merchant = entry.merchant else { return nil }
        for other in earlier where other.source != entry.source && other.merchant == merchant {
            if let r = entry.reference, r == other.reference { return (other.source, "the same reference number from the same merchant") }
        }
        for other in earlier where other.source != entry.source && other.merchant == merchant {
            guard let t = entry.total, t == other.total, let d = entry.date, let e = other.date else { continue }
            if abs(d.daysSince(e)) <= windowDays {
                return (other.source, "the same merchant and total within \(windowDays) day\(windowDays == 1 ? "" : "s")")
            }
        }
        return nil
    }
}
