import Foundation
import ShoeboxCore
internal import ShoeboxReading

/// Merchant: the seller's name from the top of the first page (or the seller block of an invoice),
/// preferring names with a legal form and excluding addresses, phone numbers, tax IDs, headers, slogans
/// and the buyer's block. A name printed over two lines ("POPULAR BOOK" / "CO. (M) SDN BHD") is joined.
extension ReceiptParser {
    /// `dateLines`: the lines the date rules found a date on (`ReceiptParser.key`).
    func merchantCandidates(_ lines: [Line], dateLines: Set<Int>) -> [TextCandidate] {
        guard let firstPage = lines.first?.page else { return [] }
        var header = MerchantHeader(top: Array(lines.filter { $0.page == firstPage }.prefix(40)), dateLines: dateLines)
        var out: [TextCandidate] = []
        var previousName: PreviousName?
        for (k, line) in header.top.enumerated() {
            header.enter(line, at: k)
            // A row of the amounts below the header's end ("Naranjas 2 kg 3,98", "Äpfel Elstar 2,49") is no name, whatever
            // its words; nor is an amount's label anywhere ("EUR 21,87 Netto", "Summe 12,50").
            let amountRow = line.amounts.contains(where: { !$0.isRate })
            if amountRow, k > header.headerEnd || (line.role.0 != nil && line.role.0 != .lineItem) {
                previousName = nil
                continue
            }
            guard line.position <= MerchantWeights.searchedDown || k < MerchantWeights.searchedLines || header.inSeller(k) else {
                previousName = nil
                continue
            }
            let lineName = headerNames(line, at: k, &header, previous: previousName, into: &out)
            // A block heading ("Verkäufer", "Bill to") is not the first half of a name.
            let heading = Keywords.sellerBlock.any(in: line.folded) || Keywords.buyerBlock.any(in: line.folded)
            previousName = heading ? nil : lineName
        }
        let greetings = closingLineNames(lines)
        ReceiptParser.confirmNames(&out, greetings: greetings, domains: ReceiptParser.webNames(lines))
        out += greetings
        if let imprint = imprintName(lines, below: searchedUntil(header)) { out.append(imprint) }
        out.sort { $0.score > $1.score }
        mendLikeliestNames(&out, lines)
        return out
    }

    /// The name the line above (or the segment to the left) printed, for a name printed over two lines.
    typealias PreviousName = (name: String, line: Line, joinedScore: Double?)

    /// The top of the first page as the merchant rules walk down it: where the header ends, the buyer's and
    /// the seller's blocks, how many names came before and whether a legal name did.
    struct MerchantHeader {
        /// The first 40 lines of the first page.
        let top: [Line]
        let medianHeight: Double
        /// The name comes before the transaction: the first line with a date or an amount ends the header.
        let headerEnd: Int
        let dateLines: Set<Int>
        var buyerUntil = -1
        var sellerUntil = -1
        /// Lines found to be pieces of an address printed over several lines.
        var addressPieces: Set<Int> = []
        /// Name candidates so far.
        var rank = 0
        var firstLegalSeen = false

        init(top: [Line], dateLines: Set<Int>) {
            self.top = top
            self.dateLines = dateLines
            let heights = top.map { Double($0.line.box.height) }.sorted()
            medianHeight = heights.isEmpty ? 1 : heights[heights.count / 2]
            headerEnd = top.firstIndex { !$0.amounts.isEmpty || dateLines.contains(ReceiptParser.key($0.evidence)) } ?? top.count
        }

        /// A buyer's block heading covers the next five lines, a seller's the next six (and ends the buyer's).
        mutating func enter(_ line: Line, at k: Int) {
            if TextFolding.firstKeyword(in: line.folded, of: Keywords.buyerBlock) != nil { buyerUntil = k + 5 }
            if TextFolding.firstKeyword(in: line.folded, of: Keywords.sellerBlock) != nil {
                sellerUntil = k + 6
                buyerUntil = -1
            }
        }

        func inBuyer(_ k: Int) -> Bool { k <= buyerUntil }
        func inSeller(_ k: Int) -> Bool { k <= sellerUntil }

        /// A line of an address printed over several lines: the line above is a street, a place or such a piece
        /// that goes on ("No.1," over "Jln Puteri 1/6," over "Bandar Puteri"), or the lines above and below are
        /// both streets or places ("Lot 1626, Mukim Kampung Laut" / "Tumpat" / "16200 Palekbang, Kelantan").
        mutating func isAddressPiece(_ k: Int) -> Bool {
            guard k > 0, addressPieces.contains(k - 1) || ReceiptParser.looksLikeStreetOrPlace(top[k - 1].folded) else { return false }
            let piece =
                TextFolding.trim(top[k - 1].text, [" ", "|"]).hasSuffix(",")
                || (k + 1 < top.count && ReceiptParser.looksLikeStreetOrPlace(top[k + 1].folded))
            if piece { addressPieces.insert(k) }
            return piece
        }
    }

    /// The names the segments of header line `k` print, scored, appended to `out` (with a name joined to the
    /// line above, or to the segment on its left); returns the line's name when the line is one segment, and the
    /// line it starts on. A name joined to the line above is returned whole, so a name printed over three lines
    /// ("AIK HUAT HARDWARE" / "ENTERPRISE (SETIA" / "ALAM) SDN BHD") is joined whole, up to
    /// `MerchantWeights.joinedWords` words.
    func headerNames(_ line: Line, at k: Int, _ header: inout MerchantHeader, previous: PreviousName?, into out: inout [TextCandidate])
        -> PreviousName?
    {
        let inBuyer = header.inBuyer(k)
        let inSeller = header.inSeller(k)
        let nextIsCompanyNumber = k + 1 < header.top.count && ReceiptParser.looksLikeCompanyNumber(header.top[k + 1].text)
        let addressPiece = header.isAddressPiece(k)
        // A notice or opening hours printed in columns ("For feedback or | complaint, please call") is none in any column.
        // A greeting that names the shop is read by `closingLineNames`, not as a name itself.
        let notice =
            (ReceiptParser.isNoticeOrHours(line.folded) || Keywords.greetingBeforeName.any(in: line.folded))
            && ReceiptParser.legalForm(in: line.folded) == nil
            || Keywords.servedBy.any(in: line.folded)
        var lineName: PreviousName?
        var leftSegment: PreviousName?
        for (s, segment) in line.segments.enumerated() {
            let wholeLine = line.segments.count == 1
            guard !(inBuyer && !inSeller), !notice,
                let read = ReceiptParser.merchantName(
                    segment, today: today, mayHoldDate: !wholeLine || header.dateLines.contains(ReceiptParser.key(line.evidence)),
                    mayHoldAmount: !wholeLine || !line.amounts.isEmpty)
            else { continue }
            let (mended, legalFormRead) = LegalFormMender.mend(read)
            let name = ReceiptParser.withoutAddressParts(mended)
            let fs = TextFolding.fold(name)
            let legal = ReceiptParser.legalForm(in: fs)
            if ReceiptParser.isNoName(fs, legal: legal) { continue }
            // A street or place name on a line of an address, or to the right of one on the same line ("LOT P, 211 | JALAN ANGSA").
            if legal == nil,
                addressPiece || (s > 0 && ReceiptParser.looksLikeStreetOrPlace(TextFolding.fold(line.segments[..<s].joined(separator: " "))))
            {
                continue
            }
            let business = TextFolding.firstKeyword(in: fs, of: Keywords.businessWords)
            var score =
                MerchantWeights.first - MerchantWeights.perEarlierCandidate * Double(min(header.rank, MerchantWeights.earlierCandidatesCounted))
            var notes = ["line \(line.index + 1) of the page"]
            let numbered = ReceiptParser.cutCompanyNumber(segment).count < segment.count
            let place = NamePlace(k: k, segment: s, inSeller: inSeller, nextIsCompanyNumber: nextIsCompanyNumber, numberOnLine: numbered)
            ReceiptParser.scoreNamePlace(place, legal: legal, business: business, line: line, &header, &score, &notes)
            let words = name.split(separator: " ")
            ReceiptParser.scoreNameWords(name, words: words, legal: legal, &score, &notes)
            if let legalFormRead { notes.append(legalFormRead) }
            let candidate = TextCandidate(
                value: name, role: .merchant, score: max(MerchantWeights.floor, score), evidence: line.evidence, notes: notes)
            out.append(candidate)
            var thisName: PreviousName = (name, line, nil)
            // The name goes on from the line above, or from the segment on its left ("THE STORE (MALAYSIA | SDN BHD").
            let above = wholeLine ? previous : nil
            if let prev = leftSegment ?? above,
                ReceiptParser.continues(prev.name, with: name, printed: segment, folded: fs, words: words, legal: legal, business: business),
                leftSegment != nil || ReceiptParser.similarHeight(prev.line, line),
                prev.name.split(separator: " ").count + words.count <= MerchantWeights.joinedWords
            {
                // A lower half that is only a legal form or trade words is not penalised as a name of its own once
                // joined; a third line scores at least what the two above it joined did. Segments of one line joined
                // score as the line read whole would (no bonus over a reading that kept the line in one piece).
                let lower =
                    candidate.score + (ReceiptParser.isOnlyLegalForm(words, legal: legal) ? MerchantWeights.onlyLegalForm : 0)
                    + (legal == nil && ReceiptParser.isOnlyTradeWords(words) ? MerchantWeights.onlyTradeWords : 0)
                let base = max(lower, prev.joinedScore ?? 0)
                let joined = TextCandidate(
                    value: prev.name + " " + name, role: .merchant,
                    score: base + (leftSegment != nil ? 0 : MerchantWeights.joinedWithLineAbove),
                    evidence: prev.line.evidence, checks: candidate.checks,
                    notes: candidate.notes.filter { $0 != "only a legal form" && $0 != "only trade words" } + [
                        leftSegment != nil ? "joined with the segment on its left" : "joined with the line above"
                    ])
                out.append(joined)
                thisName = (joined.value, prev.line, joined.score)
            }
            if wholeLine { lineName = thisName }
            leftSegment = thisName
            header.rank += 1
        }
        return lineName
    }

    /// Whether `name` (folded `folded`, printed `printed`) is the second half of `previous`: it starts with a legal
    /// form or a company word, or is short and holds a legal form or business word, or closes a "(" the first half
    /// left open (or that OCR lost). A line printed in brackets ("(TONYMOLY SHOP (95874))") is a note under the
    /// name, not its second half.
    static func continues(
        _ previous: String, with name: String, printed: String, folded: String, words: [Substring], legal: String?, business: String?
    ) -> Bool {
        let open = previous.filter { $0 == "(" }.count > previous.filter { $0 == ")" }.count
        if TextFolding.trim(printed, [" ", "|", ".", ",", "'", "\""]).hasPrefix("(") && !open { return false }
        // "ALAM) SDN BHD": a bracket closed that this line never opened (OCR may have lost the "(" above).
        let closesEarlier = name.firstIndex(of: ")").map { close in !name[..<close].contains("(") } ?? false
        return continuesName(folded) || (words.count <= 2 && (legal != nil || business != nil))
            || (((open && name.contains(")")) || closesEarlier) && words.count <= 4)
    }

    /// Where a name stands: header line `k`, segment `segment` of it.
    struct NamePlace {
        let k: Int
        let segment: Int
        let inSeller: Bool
        let nextIsCompanyNumber: Bool
        /// A registration number printed after the name on its line ("… SDN BHD (728515-M)").
        let numberOnLine: Bool
    }

    /// Not a name though it reads as one: a label, an address, a slogan, a document header (unless it holds a legal form).
    static func isNoName(_ fs: String, legal: String?) -> Bool {
        if legal == nil, TextFolding.firstKeyword(in: fs, of: Keywords.notMerchant) != nil { return true }
        if isTillNumber(fs) || isCurrencyAlone(fs) { return true }
        // "Ihr EDEKA Team": the sign-off names the shop (`closingLineNames`), but is no name itself.
        if signOffName(fs) != nil { return true }
        if legal == nil, ReceiptParser.looksLikeAddress(fs) { return true }
        if TextFolding.firstKeyword(in: fs, of: Keywords.slogan) != nil { return true }
        if legal == nil, fs.utf8.count <= 30, ReceiptParser.isMisreadHeader(fs) { return true }
        if legal == nil, isNoticeOrHours(fs) { return true }
        return false
    }

    /// "Elektro Schäfer GmbH - Gewerbering 12 - 35396 Gießen", the sender's line above an envelope window: the name is
    /// what comes before the first part that is a street or a place.
    static func withoutAddressParts(_ name: String) -> String {
        for separator in [" - ", " – ", " · ", " • ", " | "] where name.contains(separator) {
            let parts = name.components(separatedBy: separator)
            let isAddress = { (part: String) in
                let f = TextFolding.fold(part)
                return looksLikeStreetOrPlace(f) || looksLikeAddress(f)
            }
            guard !isAddress(parts[0]), let cut = parts.indices.dropFirst().first(where: { isAddress(parts[$0]) }) else { continue }
            return parts[..<cut].joined(separator: separator)
        }
        return name
    }

    /// "Till 2", "Caisse 2", "Caja 3", "Kasse 04", "Register #1": the till a receipt was printed at.
    static func isTillNumber(_ fs: String) -> Bool {
        tillNumber.firstMatch(in: fs, range: NSRange(location: 0, length: (fs as NSString).length)) != nil
    }

    static let tillNumber = try! NSRegularExpression(
        pattern: #"^(?:till|caisse|caja|kasse|kassa|register|kaunter|counter|pos|terminal|kiosk)\s*(?:no\.?|nr\.?|n°|#)?\s*\d{1,4}$"#)

    /// A currency's code or sign on its own ("EUR" over a price column).
    static func isCurrencyAlone(_ fs: String) -> Bool {
        let mark = TextFolding.trim(fs, [" ", ":"])
        return currencyMarks.contains(mark) || currencyMarks.contains(TextFolding.trim(mark, ["."]))
    }

    /// The currency marks the amount reader knows (`AmountReader.currencyMarks`), folded.
    static let currencyMarks = Set(AmountReader.currencyMarks.map { TextFolding.fold($0.0) })

    /// Whether a chosen merchant reads as something else the page prints near the name: a heading or a screen's title,
    /// an address, a slogan or notice, a phone number, a registration or tax number. A misspelt name is a name: this
    /// asks what the text is, not how well it is read. The merger holds such a record (`merchant-not-a-name`).
    public static func isNotAName(_ merchant: String) -> Bool {
        let fs = TextFolding.fold(merchant)
        let legal = legalForm(in: fs)
        return isNoName(fs, legal: legal) || isNumberNotName(merchant) || legal == nil && looksLikeStreetOrPlace(fs)
    }

    /// A registration, tax, company or phone number: what no label makes a name.
    static func isNumberNotName(_ merchant: String) -> Bool {
        let fs = TextFolding.fold(merchant)
        if Keywords.registration.any(in: fs) || Keywords.taxID.any(in: fs) || looksLikeCompanyNumber(merchant) { return true }
        return Keywords.phone.any(in: fs) || looksLikePhoneNumber(merchant)
    }

    /// What a label saying "this is the payee" still cannot make a name: a word no name holds, a slogan, a notice, a
    /// number. A place in it stays ("Gerai Cendol Durian Melaka", "Mamak Corner SS2"), as does what reads like an
    /// address: the label says whose it is.
    public static func isNotAPayee(_ merchant: String) -> Bool {
        let fs = TextFolding.fold(merchant)
        let legal = legalForm(in: fs)
        if legal == nil, TextFolding.firstKeyword(in: fs, of: Keywords.notMerchant) != nil { return true }
        if TextFolding.firstKeyword(in: fs, of: Keywords.slogan) != nil || legal == nil && isNoticeOrHours(fs) { return true }
        return isNumberNotName(merchant)
    }

    /// Opening hours, a notice or slogan, a sentence, a registration line: printed near the name, never the name.
    static func isNoticeOrHours(_ fs: String) -> Bool {
        Keywords.openingHours.any(in: fs) || Keywords.notices.any(in: fs) || Keywords.registration.any(in: fs)
            || looksLikeOpeningHours(fs) || isSentence(fs)
    }

    /// "Goods sold are not returnable", "Your satisfaction is our priority": three words or more, two of them
    /// the verbs, negations and pronouns of a sentence.
    static func isSentence(_ fs: String) -> Bool {
        fs.split(separator: " ").count >= 3 && Keywords.sentenceWords.all(in: fs).count >= 2
    }

    /// "Mo-Sa 8-20 Uhr", "10AM-10PM", "9:00 - 22:00", "Lun-Sam": a range of weekdays or of times of day.
    static func looksLikeOpeningHours(_ fs: String) -> Bool {
        guard
            fs.contains(where: { $0 == "-" || $0 == "–" }) || TextFolding.containsSubstring(fs, " to ") || TextFolding.containsSubstring(fs, " bis ")
        else { return false }
        let range = NSRange(location: 0, length: (fs as NSString).length)
        return timeRange.firstMatch(in: fs, range: range) != nil || weekdayRange.firstMatch(in: fs, range: range) != nil
    }

    static let timeRange = try! NSRegularExpression(
        pattern:
            #"\b\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|h|uhr)?\s*(?:-|–|to|bis)\s*\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|h|uhr)\b|\b\d{1,2}:\d{2}\s*(?:-|–|to|bis)\s*\d{1,2}:\d{2}\b"#
    )
    static let weekdayRange: NSRegularExpression = {
        let day =
            "(?:mon|tue|wed|thu|fri|sat|sun|mo|di|mi|do|fr|sa|so|lun|mar|mer|jeu|ven|sam|dim|lu|ma|me|je|ve|mie|jue|vie|sab|dom|isnin|selasa|rabu|khamis|jumaat|sabtu|ahad)"
        return try! NSRegularExpression(pattern: #"\b"# + day + #"\.?\s*(?:-|–|to|bis)\s*"# + day + #"\b"#)
    }()

    /// The legal form a name prints (one of `Keywords.legalForms`); a form of two letters ("SA", "KG", "Co.",
    /// "S/B") only at the end of the name, where legal forms stand: in "SERI SA, OFF JLN KLANG" or "UNI AB NOTE
    /// BOOK" the letters are a word, not a form.
    static func legalForm(in fs: String) -> String? {
        let found = Keywords.legalForms.all(in: fs)
        guard !found.isEmpty else { return nil }
        // The name without what may follow a legal form: brackets ("(M)", a branch), marks.
        var end = TextFolding.trim(fs, [" ", ",", ";", ":", "-", "|"])
        while end.hasSuffix(")"), let open = end.lastIndex(of: "(") {
            end = TextFolding.trim(String(end[..<open]), [" ", ",", ";", ":", "-", "|"])
        }
        // Compared without a final dot: "e.K." ends in the form "e.k".
        while end.hasSuffix(".") { end.removeLast() }
        return found.first { form in
            guard form.filter(\.isLetter).count <= 2 else { return true }
            let bare = form.hasSuffix(".") ? String(form.dropLast()) : form
            guard end.hasSuffix(bare) else { return false }
            let rest = end.dropLast(bare.count)
            // "Naranjas 2 kg", "Reis 1kg": a weight, no Kommanditgesellschaft.
            if bare == "kg", rest.trimmingCharacters(in: .whitespaces).last?.isNumber == true { return false }
            return rest.last.map { !$0.isLetter } ?? true
        }
    }

    /// A name's score from its place: near the top, above the header's end, a legal form or business word, the
    /// seller block, a company number below, large print, OCR confidence. Weights from `MerchantWeights`.
    static func scoreNamePlace(
        _ p: NamePlace, legal: String?, business: String?, line: Line, _ header: inout MerchantHeader, _ score: inout Double, _ notes: inout [String]
    ) {
        typealias W = MerchantWeights
        if p.k < 2 {
            score += W.topTwoLines
            notes.append("top of the page")
        } else if p.k < 4 {
            score += W.topFourLines
        }
        if p.k > header.headerEnd {
            score -= W.belowHeader
            notes.append("below the first date or amount")
        }
        if let legal {
            // Near the top a legal name is the merchant; far below the brand printed on top it is the
            // operating company, and counts less.
            let near = p.k < 6 || p.inSeller
            score += near ? W.legalFormNear : W.legalFormFar
            notes.append("legal form '\(legal)'" + (near ? "" : ", far from the top"))
            // The first legal name on the page is the seller's; later ones are customers or suppliers.
            if !header.firstLegalSeen && near {
                score += W.firstLegalName
                notes.append("first legal name")
            }
            header.firstLegalSeen = true
        } else if let business {
            score += W.businessWord
            notes.append("business word '\(business)'")
        }
        if p.inSeller {
            score += W.sellerBlock
            notes.append("seller block")
        }
        if p.nextIsCompanyNumber && p.segment == 0 {
            score += W.companyNumberBelow
            notes.append("company number below")
        } else if p.numberOnLine && legal == nil {
            // The number marks a name without a printed legal form as the registered one.
            score += W.companyNumberOnLine
            notes.append("company number with it")
        }
        if Double(line.line.box.height) >= header.medianHeight * W.largerTextRatio {
            score += W.largerText
            notes.append("larger text")
        }
        if line.line.meanConfidence < W.confidenceFloor {
            score -= (W.confidenceFloor - line.line.meanConfidence) / W.confidenceScale
            notes.append("OCR confidence \(Int(line.line.meanConfidence))")
        }
    }

    /// A name's score from its words: fragments, a sentence, only a legal form, all lower case, too short.
    static func scoreNameWords(_ name: String, words: [Substring], legal: String?, _ score: inout Double, _ notes: inout [String]) {
        typealias W = MerchantWeights
        if words.count >= 2 && words.allSatisfy({ $0.count <= 2 }) {
            score -= W.fragments
            notes.append("fragments")
        }
        if words.count > 5 && legal == nil {
            score -= W.sentence
            notes.append("a sentence, not a name")
        }
        if isOnlyLegalForm(words, legal: legal) {
            score -= W.onlyLegalForm
            notes.append("only a legal form")
        }
        if legal == nil, isOnlyTradeWords(words) {
            score -= W.onlyTradeWords
            notes.append("only trade words")
        }
        if name == name.lowercased() && legal == nil {
            score -= W.allLowerCase
            notes.append("all lower case")
        }
        if name.filter(\.isLetterFast).count <= 3 && legal == nil {
            score -= W.tooShort
            notes.append("too short for a name")
        }
    }

    /// "BISTRO & CAFE", "SUPERMARKET": what kind of shop, printed under or over its name, not the name.
    static func isOnlyTradeWords(_ words: [Substring]) -> Bool {
        !words.isEmpty
            && words.allSatisfy { w in
                let f = TextFolding.fold(String(w))
                return ["&", "and", "und", "et", "y", "dan", "+"].contains(f)
                    || Keywords.businessWords.first(in: TextFolding.trim(f, [".", ",", ":", ";"])) == TextFolding.trim(f, [".", ",", ":", ";"])
            }
    }

    /// "SDN BHD", "CO. (M) SDN BHD": nothing but a legal form and joining words (five words at most).
    static func isOnlyLegalForm(_ words: [Substring], legal: String?) -> Bool {
        legal != nil && words.count <= 5
            && words.allSatisfy {
                ReceiptParser.continuesName(TextFolding.fold(String($0))) || Keywords.legalForms.first(in: TextFolding.fold(String($0))) != nil
            }
    }

    /// Misread letters in the likeliest names, mended from the page's other printings and the trade vocabulary.
    func mendLikeliestNames(_ out: inout [TextCandidate], _ lines: [Line]) {
        var mender = NameMender(lines: lines)
        var dropped = false
        for k in out.indices.prefix(5) {
            let line = out[k].evidence.flatMap { e in lines.first { $0.page == e.page && $0.index == e.line } }?.line
            let (mended, notes) = mender.mend(out[k].value, line: line)
            guard !notes.isEmpty else { continue }
            // Mended, it may read as what it is: "Handar Baru Kawang" was "Bandar Baru Kawang", an address.
            let folded = TextFolding.fold(mended)
            let noName = ReceiptParser.isNoName(folded, legal: ReceiptParser.legalForm(in: folded))
            dropped = dropped || noName
            out[k] = Candidate(
                value: mended, role: out[k].role, score: noName ? MerchantWeights.floor : out[k].score, evidence: out[k].evidence,
                checks: out[k].checks, notes: out[k].notes + notes + (noName ? ["no name once mended"] : []))
        }
        if dropped { out.sort { $0.score > $1.score } }
    }

    /// "Thank you for shopping at FUYI MINI MARKET", "Welcome to Café Central", "Danke für Ihren Einkauf bei
    /// REWE": the name a receipt repeats in its greeting, wherever the greeting stands.
    func closingLineNames(_ lines: [Line]) -> [TextCandidate] {
        var out: [TextCandidate] = []
        for line in lines {
            if let name = ReceiptParser.signOffName(line.text), let clean = ReceiptParser.merchantName(name, today: today) {
                out.append(
                    Candidate(
                        value: clean, role: .merchant, score: MerchantWeights.afterGreeting, evidence: line.evidence,
                        notes: ["signed off as '\(line.text)'"]))
            }
        }
        for (k, line) in lines.enumerated() {
            guard let phrase = Keywords.greetingBeforeName.first(in: line.folded),
                let range = line.folded.range(of: phrase)
            else { continue }
            let offset = line.folded.distance(from: line.folded.startIndex, to: range.upperBound)
            guard offset < line.text.count else { continue }
            var name = String(line.text.dropFirst(offset))
            // The name may run on to the next line ("… shopping at FUYI MINI" / "MARKET").
            // Not a phone or notice line under it ("Customer Service 1-300-22-2828").
            if k + 1 < lines.count, lines[k + 1].page == line.page, lines[k + 1].line.words.count <= 3, lines[k + 1].amounts.isEmpty,
                !Keywords.slogan.any(in: lines[k + 1].folded), !lines[k + 1].text.contains(where: \.isDigitASCII),
                !ReceiptParser.isNoticeOrHours(lines[k + 1].folded), !Keywords.notMerchant.any(in: lines[k + 1].folded)
            {
                name += " " + lines[k + 1].text
            }
            guard let clean = ReceiptParser.merchantName(name, today: today), clean.split(separator: " ").count <= 6 else { continue }
            out.append(
                Candidate(value: clean, role: .merchant, score: MerchantWeights.afterGreeting, evidence: line.evidence, notes: ["after '\(phrase)'"])
            )
        }
        return out
    }

    /// The first line of the first page the header search did not reach (`MerchantWeights.searchedDown`,
    /// `searchedLines`).
    func searchedUntil(_ header: MerchantHeader) -> Int {
        header.top.firstIndex { $0.position > MerchantWeights.searchedDown && $0.index >= MerchantWeights.searchedLines }
            .map { header.top[$0].index } ?? header.top.count
    }

    /// The imprint's legal name below the header ("REWE Markt GmbH", "Lidl Vertriebs GmbH & Co. KG" in a German
    /// receipt's footer, under a logo no reader reads as a name): a line of the first page that is a name with a legal
    /// form of a company and nothing else. Scored below a name in the header, so it stands only where the header
    /// printed none.
    func imprintName(_ lines: [Line], below start: Int) -> TextCandidate? {
        guard let firstPage = lines.first?.page else { return nil }
        for line in lines where line.page == firstPage && line.index >= start && line.segments.count == 1 && line.amounts.isEmpty {
            // A legal form of a company, none of what `isNoName` finds in a line without one (a greeting, a notice, an
            // address), and nothing `isNotAName` finds (a registration, tax or phone number).
            guard let legal = TextFolding.firstKeyword(in: line.folded, of: Keywords.companyForms),
                !ReceiptParser.isNoName(line.folded, legal: nil), !ReceiptParser.isNotAName(line.text),
                let name = ReceiptParser.merchantName(line.text, today: today, mayHoldDate: false, mayHoldAmount: false),
                (2...8).contains(name.split(separator: " ").count)
            else { continue }
            return Candidate(
                value: name, role: .merchant, score: MerchantWeights.imprint, evidence: line.evidence,
                notes: ["line \(line.index + 1) of the page: a legal name ('\(legal)') below the header"])
        }
        return nil
    }

    /// The shop a sign-off names: "Ihr EDEKA Team" and "Ihr REWE-Team" name "EDEKA" and "REWE", "Your Tesco team"
    /// "Tesco"; nil for any other line. One to three words between the pronoun and "Team".
    static func signOffName(_ text: String) -> String? {
        var words = text.split(separator: " ").map(String.init)
        guard (2...5).contains(words.count), ["ihr", "ihre", "your"].contains(TextFolding.fold(words[0])) else { return nil }
        var last = words.removeLast()
        while let end = last.last, "!.,".contains(end) { last.removeLast() }
        let folded = TextFolding.fold(last)
        if folded == "team" {
            words = Array(words.dropFirst())
        } else if folded.hasSuffix("-team"), last.count > 5 {
            words = Array(words.dropFirst()) + [String(last.dropLast(5))]
        } else {
            return nil
        }
        return (1...3).contains(words.count) ? words.joined(separator: " ") : nil
    }

    /// "TAXINVOIGE", "0FFICIAL RECEIPT": a document header as OCR misreads it (two edits at most).
    static func isMisreadHeader(_ folded: String) -> Bool {
        let squeezed = folded.utf8.filter { NameMender.isLetter($0) }
        guard squeezed.count >= 6, squeezed.count <= 22 else { return false }
        return misreadHeaders.contains { abs($0.count - squeezed.count) <= 2 && NameMender.editDistance(squeezed, $0, atMost: 2) }
    }

    static let misreadHeaders: [[UInt8]] = [
        "taxinvoice", "invoice", "receipt", "cashbill", "officialreceipt", "simplifiedtaxinvoice",
        "cashsales", "rechnung", "quittung", "facture", "factura"
    ].map { Array($0.utf8) }

    /// A line that continues a name from the line above: it starts with a legal form or a company word.
    static func continuesName(_ folded: String) -> Bool {
        let first = folded.split(separator: " ").first.map(String.init) ?? ""
        return [
            "co", "co.", "sdn", "sdn.", "bhd", "bhd.", "gmbh", "ltd", "ltd.", "inc", "inc.", "s.l.", "s.a.", "sarl", "ag",
            "trading", "enterprise", "restaurant", "holdings", "(m)", "&", "and", "und", "et", "y"
        ].contains(first)
    }

    static func similarHeight(_ a: Line, _ b: Line) -> Bool {
        let ha = Double(max(1, a.line.box.height))
        let hb = Double(max(1, b.line.box.height))
        return ha / hb > 0.6 && ha / hb < 1.7
    }

    /// The name a segment prints, without labels ("Name: …"), a trailing company number ("(728515-M)") and
    /// stray OCR marks at its ends, with OCR's usual misreadings of "SDN BHD" mended;
    /// nil when it cannot be a name (too few letters, a phone, a tax ID, a date, an amount, a web address).
    static func merchantName(_ segment: String, today: CalendarDay, mayHoldDate: Bool = true, mayHoldAmount: Bool = true) -> String? {
        var text = segment
        let foldedSegment = TextFolding.fold(segment)
        if let label = ReceiptParser.nameLabels.first(where: { foldedSegment.hasPrefix($0) }) {
            text = String(text.dropFirst(label.count))
        }
        text = ReceiptParser.cutCompanyNumber(text)
        text = ReceiptParser.mendDigitsInWords(text)
        let lowered = TextFolding.fold(text)
        if TextFolding.containsSubstring(lowered, "hd") || TextFolding.containsSubstring(lowered, "bnd") {
            text = sdnBhd.stringByReplacingMatches(in: text, range: NSRange(location: 0, length: (text as NSString).length), withTemplate: "SDN BHD")
        }
        if text.contains("/") {
            text = sSlashB.stringByReplacingMatches(in: text, range: NSRange(location: 0, length: (text as NSString).length), withTemplate: "S/B")
        }
        // Stray OCR marks at the ends; a final "." stays ("S.L.", "Inc.").
        text = TextFolding.trim(text, ReceiptParser.nameJunk)
        while text.hasPrefix(".") { text.removeFirst() }
        if text.hasSuffix("(M") || text.hasSuffix("(KL") { text += ")" }
        let letters = text.reduce(0) { $0 + ($1.isLetterFast ? 1 : 0) }
        guard letters >= 3, Double(letters) >= Double(text.count) * 0.5 else { return nil }
        let f = TextFolding.fold(text)
        if TextFolding.firstKeyword(in: f, of: Keywords.phone) != nil { return nil }
        if TextFolding.firstKeyword(in: f, of: Keywords.taxID) != nil { return nil }
        if text.contains(where: \.isDigitASCII) {
            if mayHoldDate && !DateReader.dates(in: text, folded: f, order: .dayFirst, today: today).isEmpty { return nil }
            if mayHoldAmount && !AmountReader.amounts(in: AmountReader.mend(text)).isEmpty { return nil }
        }
        if ["@", "www", "http", ".com"].contains(where: { TextFolding.containsSubstring(f, $0) })
            || f.split(separator: " ").contains(where: { host(in: $0) != nil })
        {
            return nil
        }
        if looksLikePhoneNumber(text) { return nil }
        return text
    }

    /// Labels before a name ("Name: …"), and before the legal owner's ("Dimiliki oleh: …", "Owned by …").
    static let nameLabels = ["name:", "firma:", "company:", "nom:", "raison sociale:", "empresa:", "nama:"] + Keywords.ownerLabels

    /// "1-300-22-2828", "+6012-918 7937", "03 8079 0255": eight digits or more in one run of digits, spaces,
    /// dashes and brackets. (A registration number after a name is cut before this is asked.)
    static func looksLikePhoneNumber(_ text: String) -> Bool {
        var digits = 0
        for ch in text {
            if ch.isDigitASCII {
                digits += 1
                if digits >= 8 { return true }
            } else if !(ch == " " || ch == "-" || ch == "+" || ch == "(" || ch == ")" || ch == "/" || ch == ".") {
                digits = 0
            }
        }
        return false
    }

    /// The host a token names, lower case ("www.example.com.my", "info@example.de", "example.com"); nil when the
    /// token is no web or mail address. A host needs a known ending ("com", "my", "de" …) after a dot.
    static func host(in token: Substring) -> String? {
        var t = Substring(TextFolding.trim(String(token), [" ", ",", ";", ":", "(", ")", "<", ">", "/"]))
        if let at = t.lastIndex(of: "@") { t = t[t.index(after: at)...] }
        for prefix in ["https://", "http://", "www."] where t.hasPrefix(prefix) { t = t.dropFirst(prefix.count) }
        if let slash = t.firstIndex(of: "/") { t = t[..<slash] }
        while t.hasSuffix(".") { t = t.dropLast() }
        let labels = t.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let last = labels.last, Keywords.hostEndings.contains(String(last)),
            labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } }),
            labels.dropLast().contains(where: { $0.count >= 2 && !Keywords.hostEndings.contains(String($0)) })
        else { return nil }
        return String(t)
    }

    /// The shops the page's web and mail addresses name: the label before the host's ending, squeezed to its
    /// letters ("www.mr-diy.com.my" → "mrdiy", "info@muster-hof.de" → "musterhof"); not mail or social hosts,
    /// not shorter than four letters.
    static func webNames(_ lines: [Line]) -> Set<String> {
        var out = Set<String>()
        for line in lines where line.folded.contains(".") {
            for token in line.folded.split(separator: " ") {
                guard let host = host(in: token) else { continue }
                var labels = host.split(separator: ".").map(String.init)
                while let last = labels.last, labels.count > 1, Keywords.hostEndings.contains(last) { labels.removeLast() }
                guard let label = labels.last, !Keywords.sharedHosts.contains(label) else { continue }
                let squeezed = String(label.filter(\.isLetter))
                if squeezed.count >= 4 { out.insert(squeezed) }
            }
        }
        return out
    }

    /// Evidence for a name from elsewhere on the page: a web or mail address whose name it holds ("MR. D.I.Y. (M)
    /// SDN BHD" and "www.mrdiy.com"), a closing greeting that names it ("Thank you for shopping at MR. D.I.Y.").
    /// Each raises the name by its weight once; a greeting that names a longer name printed above adds to it.
    static func confirmNames(_ out: inout [TextCandidate], greetings: [TextCandidate], domains: Set<String>) {
        let greeted = Set(greetings.map { squeezedLetters($0.value) }.filter { $0.count >= 4 }).sorted()
        let domains = domains.sorted()
        guard !greeted.isEmpty || !domains.isEmpty else { return }
        for i in out.indices {
            let letters = squeezedLetters(out[i].value)
            var notes: [String] = []
            var score = out[i].score
            if let domain = domains.first(where: { TextFolding.containsSubstring(letters, $0) }) {
                score += MerchantWeights.namedByWebAddress
                notes.append("the web or mail address names '\(domain)'")
            }
            if let greeting = greeted.first(where: { TextFolding.containsSubstring(letters, $0) }) {
                score += MerchantWeights.namedByGreeting
                notes.append("the closing greeting names '\(greeting)'")
            }
            guard !notes.isEmpty else { continue }
            out[i] = Candidate(
                value: out[i].value, role: out[i].role, score: score, evidence: out[i].evidence, checks: out[i].checks, notes: out[i].notes + notes)
        }
    }

    /// Lower-case letters only: "MR. D.I.Y. (M)" → "mrdiym".
    static func squeezedLetters(_ text: String) -> String { String(TextFolding.fold(text).filter { $0.isLetter }) }

    static let nameJunk: Set<Character> = Set(" |“”\"'‘’«»:;,_-–—*~=+#§()[]{}<>!?¡¿")

    /// Cuts a registration number and what follows it: "TRI SHAAS SDN BHD (728515-M)", "… (Co, No:20154-T",
    /// "MYNEWS RETAIL SB(306295-X) FKA BISON STORES SB", "… {139386 X". A bracket counts when the dozen
    /// characters after it hold four digits or more.
    static func cutCompanyNumber(_ text: String) -> String {
        let chars = Array(text)
        for (i, ch) in chars.enumerated() where ch == "(" || ch == "[" || ch == "{" {
            guard chars[..<i].filter(\.isLetterFast).count >= 3 else { continue }
            // After the bracket: perhaps "Co. No." or "Reg", then the number itself ("(M)" and "(KL)" are not numbers).
            var rest = TextFolding.fold(String(chars[(i + 1)...])).drop { $0 == " " }
            for prefix in ["co", ".", ",", " ", "no", "reg", ":", ".", " "] where rest.hasPrefix(prefix) { rest = rest.dropFirst(prefix.count) }
            let head = rest.prefix(5)
            guard head.filter(\.isDigitASCII).count >= 3 else { continue }
            return String(chars[..<i])
        }
        // Printed without brackets after the name, at the end or before a branch's code: "banh mi cafe sdn bhd
        // 1110644-W", "KING'S CONFECTIONERY S/B 273500-U (KSB)".
        let words = text.split(separator: " ")
        for word in words.dropFirst() {
            let core = TextFolding.trim(String(word), [".", ",", ";", ":"])
            let parts = core.split(separator: "-", omittingEmptySubsequences: false)
            let digits = parts.first?.filter(\.isDigitASCII).count ?? 0
            let suffix = parts.count == 2 ? parts[1] : core.drop { $0.isDigitASCII }
            if digits >= 5, parts.count == 2 ? parts[0].allSatisfy(\.isDigitASCII) : true, (1...2).contains(suffix.count),
                suffix.allSatisfy(\.isLetter)
            {
                return TextFolding.trim(String(text[..<word.startIndex]), [" "])
            }
        }
        return text
    }

    /// OCR reads I as 1 and O as 0 inside words: "MR. D.1.Y." → "MR. D.I.Y.", "F00DICIOUS" → "FOODICIOUS". Only in
    /// tokens with two letters or more and a single digit, or in words that start with a letter and hold more than
    /// twice as many letters as 0s and 1s (and no other digit), so numbers ("99 SPEED MART", "100PLUS") stay.
    static func mendDigitsInWords(_ text: String) -> String {
        guard text.contains(where: \.isDigitASCII) else { return text }
        return text.split(separator: " ", omittingEmptySubsequences: false).map { token -> String in
            let digits = token.filter(\.isDigitASCII)
            let letters = token.filter(\.isLetterFast).count
            let word = token.first?.isLetterFast == true && letters >= 4 && letters > 2 * digits.count && digits.allSatisfy { $0 == "0" || $0 == "1" }
            guard (digits.count == 1 && letters >= 2) || word else { return String(token) }
            return String(
                token.map { ch -> Character in
                    switch ch {
                    case "1": return "I"
                    case "0": return "O"
                    default: return ch
                    }
                })
        }.joined(separator: " ")
    }

    /// OCR reads "SDN BHD" as "SON BHD", "S0N BHD", "SDN 8HD", and "S/B" as "5/B" or "8/B".
    static let sdnBhd = try! NSRegularExpression(pattern: #"\b(?:S[O0D]N|5DN)\.?\s+(?:B[HN]D|8HD)\b"#, options: [.caseInsensitive])
    static let sSlashB = try! NSRegularExpression(pattern: #"(?<=\s)[58S]/[B8R]\s*$"#)

    static func looksLikeAddress(_ given: String) -> Bool {
        let folded = withoutPartnershipForm(given)
        if hasAddressWord(folded) || looksLikeStreetAndNumber(folded) || looksLikeUKPostcode(folded) { return true }
        // A postcode (4–6 digits) with a place name, or numbers with a comma ("12, Main").
        let digitRuns = folded.split(whereSeparator: { !$0.isNumber })
        return digitRuns.contains { (4...6).contains($0.count) } || (digitRuns.count >= 1 && TextFolding.containsSubstring(folded, ","))
    }

    /// A street or a place, stricter than `looksLikeAddress` (which takes any number with a comma): an address
    /// word ("Jalan", "Lot", "Straße") or a postcode before a place name ("47100 Puchong", "…, 81750 Masai").
    static func looksLikeStreetOrPlace(_ given: String) -> Bool {
        let folded = withoutPartnershipForm(given)
        if hasAddressWord(folded) || looksLikeStreetAndNumber(folded) || looksLikeUKPostcode(folded) { return true }
        return postcodeAndPlace.firstMatch(in: folded, range: NSRange(location: 0, length: (folded as NSString).length)) != nil
    }

    /// An address word in `folded`: a street word, or a town or region's name, except a place name alone beside a
    /// business word and no number ("OBI Markt Hamburg-Harburg", "Hotel Berlin": a branch's name).
    static func hasAddressWord(_ folded: String) -> Bool {
        let words = Keywords.address.all(in: folded)
        guard !words.isEmpty else { return false }
        let placesOnly = words.allSatisfy { Keywords.placeNames.contains($0) }
        let branch = placesOnly && Keywords.businessWords.any(in: folded) && !folded.contains(where: \.isNumber)
        return !branch
    }

    /// "York YO1 8BB", "London SW1A 1AA": a British postcode (an outward code, a space, a digit and two letters; OCR's
    /// "I" for a "1" allowed in the outward code).
    static func looksLikeUKPostcode(_ folded: String) -> Bool {
        ukPostcode.firstMatch(in: folded, range: NSRange(location: 0, length: (folded as NSString).length)) != nil
    }

    static let ukPostcode = try! NSRegularExpression(pattern: #"(?:^|\s)[a-z]{1,2}[0-9il][a-z0-9]?\s+[0-9][abd-hjlnp-uw-z]{2}(?:$|[\s,.])"#)

    /// "musterstr. 5", "hauptstrasse 12a", "am kornmarkt 3" is not, "hohenzollernring 4", "schillerplatz 2": a German,
    /// Austrian or Swiss street (the street word is the end of a compound, which the address keywords cannot match)
    /// followed by its house number.
    static func looksLikeStreetAndNumber(_ folded: String) -> Bool {
        // "Am Hauptbahnhof 3", "An der Alster 12a", "Im Tal 4": a German street named with its preposition.
        if prepositionStreet.firstMatch(in: folded, range: NSRange(location: 0, length: (folded as NSString).length)) != nil { return true }
        let words = folded.split(separator: " ")
        for (a, b) in zip(words, words.dropFirst()) where b.first?.isDigitASCII == true && b.count <= 5 {
            let word = a.hasSuffix(",") ? a.dropLast() : a
            if word.count >= 5, streetEndings.contains(where: { word.hasSuffix($0) }) { return true }
        }
        return false
    }

    /// `folded` without the German limited partnership's form ("gmbh & co. kg", "gmbh + co kg", "co.kg"): its "kg" is
    /// no Malaysian "Kg." (kampung), the address word, and a legal name ending in it ("Markthalle Weber GmbH & Co. KG",
    /// the form most German chains trade under) is no address.
    static func withoutPartnershipForm(_ folded: String) -> String {
        guard TextFolding.containsSubstring(folded, "kg") else { return folded }
        let range = NSRange(location: 0, length: (folded as NSString).length)
        return partnershipForm.stringByReplacingMatches(in: folded, range: range, withTemplate: " ")
    }

    static let partnershipForm = try! NSRegularExpression(pattern: #"(?:&|\+|und)?\s*co\.?\s*kg\b\.?"#)

    static let prepositionStreet = try! NSRegularExpression(
        pattern:
            #"^(?:am|an der|an den|an dem|im|in der|in den|auf der|auf dem|zum|zur|beim|unter den|hinter der|vor dem)\s+[^\d\s][^,]*\s\d{1,4}\s?[a-z]?$"#
    )

    static let streetEndings = ["str.", "str", "strasse", "straße", "weg", "platz", "allee", "gasse", "damm", "ring", "ufer", "chaussee", "steig"]

    static let postcodeAndPlace = try! NSRegularExpression(pattern: #"(?:^|[\s,])\d{4,5}\s+[a-z]{3,}"#)

    /// "(789417-W)", "965857-A", "Co. Reg. No. 123456-K": the registration number printed under a company name.
    static func looksLikeCompanyNumber(_ text: String) -> Bool {
        guard text.count <= 30, text.contains(where: \.isDigitASCII) else { return false }
        let t = TextFolding.trim(text, [" ", "(", ")", "[", "]", "."])
        let f = TextFolding.fold(t)
        if f.hasPrefix("co reg") || f.hasPrefix("co. reg") || f.hasPrefix("co. no") || f.hasPrefix("co no") || f.hasPrefix("company no")
            || f.hasPrefix("roc")
        {
            return true
        }
        let parts = t.split(separator: "-")
        guard parts.count == 2, let digits = parts.first, let suffix = parts.last else { return false }
        let d = digits.filter(\.isNumber)
        return d.count >= 5 && Double(d.count) >= Double(digits.count) * 0.8 && suffix.count <= 2 && suffix.allSatisfy(\.isLetter)
    }
}
