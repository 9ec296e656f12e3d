import Foundation

/// Merchant: the seller's name from the top of the first page (or the seller block of an invoice),
/// preferring names with a legal form and excluding addresses, phone numbers, tax IDs, headers, slogans
/// and the buyer's block. A name printed over two lines ("POPULAR BOOK" / "CO. (M) SDN BHD") is joined.
extension ReceiptParser {
    /// `dateLines`: the lines the date rules found a date on (`ReceiptParser.key`).
    func merchantCandidates(_ lines: [Line], dateLines: Set<Int>) -> [TextCandidate] {
        guard let firstPage = lines.first?.page else { return [] }
        var header = MerchantHeader(top: Array(lines.filter { $0.page == firstPage }.prefix(40)), dateLines: dateLines)
        var out: [TextCandidate] = []
        var previousName: (name: String, line: Line, joinedScore: Double?)?
        for (k, line) in header.top.enumerated() {
            header.enter(line, at: k)
            guard line.position <= MerchantWeights.searchedDown || k < MerchantWeights.searchedLines || header.inSeller(k) else {
                previousName = nil
                continue
            }
            let lineName = headerNames(line, at: k, &header, previous: previousName, into: &out)
            // A block heading ("Verkäufer", "Bill to") is not the first half of a name.
            let heading = Keywords.sellerBlock.any(in: line.folded) || Keywords.buyerBlock.any(in: line.folded)
            previousName = heading ? nil : lineName
        }
        out += closingLineNames(lines)
        out.sort { $0.score > $1.score }
        mendLikeliestNames(&out, lines)
        return out
    }

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
    }

    /// The names the segments of header line `k` print, scored, appended to `out` (with a name joined to the
    /// line above); returns the line's name when the line is one segment, and the line it starts on. A name joined
    /// to the line above is returned whole, so a name printed over three lines ("AIK HUAT HARDWARE" / "ENTERPRISE
    /// (SETIA" / "ALAM) SDN BHD") is joined whole, up to `MerchantWeights.joinedWords` words.
    func headerNames(
        _ line: Line, at k: Int, _ header: inout MerchantHeader, previous: (name: String, line: Line, joinedScore: Double?)?,
        into out: inout [TextCandidate]
    )
        -> (name: String, line: Line, joinedScore: Double?)?
    {
        let inBuyer = header.inBuyer(k)
        let inSeller = header.inSeller(k)
        let nextIsCompanyNumber = k + 1 < header.top.count && ReceiptParser.looksLikeCompanyNumber(header.top[k + 1].text)
        var lineName: (name: String, line: Line, joinedScore: Double?)?
        for (s, segment) in line.segments.enumerated() {
            let wholeLine = line.segments.count == 1
            guard !(inBuyer && !inSeller),
                let name = ReceiptParser.merchantName(
                    segment, today: today, mayHoldDate: !wholeLine || header.dateLines.contains(ReceiptParser.key(line.evidence)),
                    mayHoldAmount: !wholeLine || !line.amounts.isEmpty)
            else { continue }
            let fs = TextFolding.fold(name)
            let legal = TextFolding.firstKeyword(in: fs, of: Keywords.legalForms)
            if ReceiptParser.isNoName(fs, legal: legal) { continue }
            if line.segments.count == 1 { lineName = (name, line, nil) }
            let business = TextFolding.firstKeyword(in: fs, of: Keywords.businessWords)
            var score =
                MerchantWeights.first - MerchantWeights.perEarlierCandidate * Double(min(header.rank, MerchantWeights.earlierCandidatesCounted))
            var notes = ["line \(line.index + 1) of the page"]
            let place = NamePlace(k: k, segment: s, inSeller: inSeller, nextIsCompanyNumber: nextIsCompanyNumber)
            ReceiptParser.scoreNamePlace(place, legal: legal, business: business, line: line, &header, &score, &notes)
            let words = name.split(separator: " ")
            ReceiptParser.scoreNameWords(name, words: words, legal: legal, &score, &notes)
            out.append(Candidate(value: name, role: .merchant, score: max(MerchantWeights.floor, score), evidence: line.evidence, notes: notes))
            // "POPULAR BOOK" over "CO. (M) SDN BHD": the line above completes a name that starts with a legal form or is short.
            // A name whose "(" the line above left open ("ENTERPRISE (SETIA" / "ALAM) SDN BHD") goes on here too.
            let openParenthesis = previous.map { $0.name.filter { $0 == "(" }.count > $0.name.filter { $0 == ")" }.count } ?? false
            if let prev = previous, line.segments.count == 1,
                ReceiptParser.continuesName(fs) || (words.count <= 2 && (legal != nil || business != nil))
                    || (openParenthesis && name.contains(")") && words.count <= 4),
                ReceiptParser.similarHeight(prev.line, line), prev.name.split(separator: " ").count + words.count <= MerchantWeights.joinedWords
            {
                var joined = out[out.count - 1]
                // A third line scores at least what the two above it joined did.
                let base = max(joined.score, prev.joinedScore ?? 0)
                joined = Candidate(
                    value: prev.name + " " + name, role: .merchant, score: base + MerchantWeights.joinedWithLineAbove,
                    evidence: prev.line.evidence, checks: joined.checks, notes: joined.notes + ["joined with the line above"])
                out.append(joined)
                lineName = (joined.value, prev.line, joined.score)
            }
            header.rank += 1
        }
        return lineName
    }

    /// Where a name stands: header line `k`, segment `segment` of it.
    struct NamePlace {
        let k: Int
        let segment: Int
        let inSeller: Bool
        let nextIsCompanyNumber: Bool
    }

    /// Not a name though it reads as one: a label, an address, a slogan, a document header (unless it holds a legal form).
    static func isNoName(_ fs: String, legal: String?) -> Bool {
        if legal == nil, TextFolding.firstKeyword(in: fs, of: Keywords.notMerchant) != nil { return true }
        if legal == nil, ReceiptParser.looksLikeAddress(fs) { return true }
        if TextFolding.firstKeyword(in: fs, of: Keywords.slogan) != nil { return true }
        if legal == nil, fs.utf8.count <= 30, ReceiptParser.isMisreadHeader(fs) { return true }
        return false
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
        if legal != nil, words.count <= 3,
            words.allSatisfy({
                ReceiptParser.continuesName(TextFolding.fold(String($0)))
                    || Keywords.legalForms.first(in: TextFolding.fold(String($0))) != nil
            })
        {
            score -= W.onlyLegalForm
            notes.append("only a legal form")
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

    /// Misread letters in the likeliest names, mended from the page's other printings and the trade vocabulary.
    func mendLikeliestNames(_ out: inout [TextCandidate], _ lines: [Line]) {
        var mender = NameMender(lines: lines)
        for k in out.indices.prefix(5) {
            let line = out[k].evidence.flatMap { e in lines.first { $0.page == e.page && $0.index == e.line } }?.line
            let (mended, notes) = mender.mend(out[k].value, line: line)
            guard !notes.isEmpty else { continue }
            out[k] = Candidate(
                value: mended, role: out[k].role, score: out[k].score, evidence: out[k].evidence, checks: out[k].checks, notes: out[k].notes + notes)
        }
    }

    /// "Thank you for shopping at FUYI MINI MARKET", "Welcome to Café Central", "Danke für Ihren Einkauf bei
    /// REWE": the name a receipt repeats in its greeting, wherever the greeting stands.
    func closingLineNames(_ lines: [Line]) -> [TextCandidate] {
        var out: [TextCandidate] = []
        for (k, line) in lines.enumerated() {
            guard let phrase = Keywords.greetingBeforeName.first(in: line.folded),
                let range = line.folded.range(of: phrase)
            else { continue }
            let offset = line.folded.distance(from: line.folded.startIndex, to: range.upperBound)
            guard offset < line.text.count else { continue }
            var name = String(line.text.dropFirst(offset))
            // The name may run on to the next line ("… shopping at FUYI MINI" / "MARKET").
            if k + 1 < lines.count, lines[k + 1].page == line.page, lines[k + 1].line.words.count <= 3, lines[k + 1].amounts.isEmpty,
                !Keywords.slogan.any(in: lines[k + 1].folded)
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
        if let label = ["name:", "firma:", "company:", "nom:", "raison sociale:", "empresa:", "nama:"].first(where: { foldedSegment.hasPrefix($0) }) {
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
        if ["@", "www", "http", ".com"].contains(where: { TextFolding.containsSubstring(f, $0) }) { return nil }
        return text
    }

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
        return text
    }

    /// OCR reads I as 1 and O as 0 inside words: "MR. D.1.Y." → "MR. D.I.Y.". Only in tokens with two letters or
    /// more and a single digit, so numbers ("99 SPEED MART") stay.
    static func mendDigitsInWords(_ text: String) -> String {
        guard text.contains(where: \.isDigitASCII) else { return text }
        return text.split(separator: " ", omittingEmptySubsequences: false).map { token -> String in
            let digits = token.filter(\.isDigitASCII)
            guard digits.count == 1, token.filter(\.isLetterFast).count >= 2 else { return String(token) }
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

    static func looksLikeAddress(_ folded: String) -> Bool {
        if TextFolding.firstKeyword(in: folded, of: Keywords.address) != nil { return true }
        // A postcode (4–6 digits) with a place name, or numbers with a comma ("12, Main").
        let digitRuns = folded.split(whereSeparator: { !$0.isNumber })
        return digitRuns.contains { (4...6).contains($0.count) } || (digitRuns.count >= 1 && TextFolding.containsSubstring(folded, ","))
    }

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
