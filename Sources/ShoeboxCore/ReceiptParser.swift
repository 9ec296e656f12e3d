/// The deterministic parser: reads every candidate for every field out of a document's lines,
/// each with its role, a rule score and the evidence it came from. It chooses nothing; the merge does.
public struct ReceiptParser: Sendable {
    /// "Today", so dates after it are rejected. Always a parameter, never read from a clock here.
    public let today: CalendarDay

    public init(today: CalendarDay) { self.today = today }

    struct Line {
        let page: Int
        let index: Int
        let line: OCRLine
        let text: String
        let folded: String
        let evidence: Evidence
        /// 0 at the top of the document, 1 at the bottom of the last page.
        let position: Double
    }

    public func parse(pages: [OCRPage], language: String?) -> Extraction {
        let lines = flatten(pages)
        var extraction = Extraction()
        let currencies = currencyCandidates(lines, language: language)
        extraction.currencies = currencies
        let order: DateReader.NumericOrder = currencies.first?.value == "USD" ? .monthFirst : .dayFirst
        extraction.amounts = amountCandidates(lines)
        scoreTotals(&extraction)
        extraction.taxes = taxReadings(lines)
        extraction.dates = dateCandidates(lines, order: order)
        extraction.merchants = merchantCandidates(lines)
        extraction.references = referenceCandidates(lines)
        extraction.paymentMethods = paymentCandidates(lines)
        extraction.documentKind = documentKind(lines)
        return extraction
    }

    private func flatten(_ pages: [OCRPage]) -> [Line] {
        let pageCount = Double(max(1, pages.count))
        var out: [Line] = []
        for (p, page) in pages.enumerated() {
            for (i, line) in page.lines.enumerated() {
                let text = line.text
                let y = page.height > 0 ? Double(line.box.centerY) / Double(page.height) : 0
                out.append(Line(
                    page: page.pageNumber, index: i, line: line, text: text, folded: TextFolding.fold(text),
                    evidence: Evidence(page: page.pageNumber, line: i, box: line.box, text: text,
                                       source: page.source, ocrConfidence: line.meanConfidence),
                    position: (Double(p) + min(1, max(0, y))) / pageCount))
            }
        }
        return out
    }

    // MARK: amounts

    /// The role of the amounts on a line, from its words. Order matters: the first rule that fits wins.
    static func role(of folded: String) -> (AmountRole, String?) {
        func has(_ list: [String]) -> String? { TextFolding.firstKeyword(in: folded, of: list) }
        let totalWord = has(Keywords.total)
        let inclusive = has(["inkl", "incl", "including", "inclusive", "ttc", "y compris", "iva incluido", "termasuk"])
        if let k = has(Keywords.strongTotal) { return (.total, k) }
        if totalWord != nil, let k = inclusive { return (.total, k) }
        if let k = has(Keywords.change) { return (.change, k) }
        if let k = has(Keywords.tip) { return (.tip, k) }
        if let k = has(Keywords.rounding) { return (.rounding, k) }
        if let k = has(Keywords.discount) { return (.discount, k) }
        if let k = has(Keywords.subtotal) { return (.subtotal, k) }
        if let k = has(Keywords.tax) { return (.tax, k) }
        if let k = has(Keywords.tendered) { return (.tendered, k) }
        if let k = totalWord { return (.total, k) }
        return (.lineItem, nil)
    }

    private func amountCandidates(_ lines: [Line]) -> [Candidate<AmountReading>] {
        var out: [Candidate<AmountReading>] = []
        for line in lines {
            let found = AmountReader.amounts(in: line.text).filter { !$0.isRate }
            guard !found.isEmpty else { continue }
            let (role, keyword) = ReceiptParser.role(of: line.folded)
            // On a keyword line the amount that counts is the right-most one (the column of prices).
            for (k, f) in found.enumerated() {
                let isLast = k == found.count - 1
                let effectiveRole: AmountRole = isLast ? role : (role == .tax ? .subtotal : .lineItem)
                var notes: [String] = []
                if let keyword, isLast { notes.append("keyword '\(keyword)'") }
                out.append(Candidate(value: f.reading, role: effectiveRole.rawValue, score: 0, evidence: line.evidence, notes: notes))
            }
        }
        return out
    }

    /// Scores total candidates: keyword strength, position, size, and the arithmetic cross-checks
    /// (subtotal + tax = total; tendered − change = total).
    private func scoreTotals(_ e: inout Extraction) {
        let subtotals = e.amounts(withRole: .subtotal).map(\.value.minorUnits)
        let taxes = e.amounts(withRole: .tax).map(\.value.minorUnits)
        let tendered = e.amounts(withRole: .tendered).map(\.value.minorUnits)
        let changes = e.amounts(withRole: .change).map(\.value.minorUnits)
        let largest = e.amounts.filter { $0.role != AmountRole.tendered.rawValue && $0.role != AmountRole.change.rawValue }
            .map(\.value.minorUnits).max() ?? 0

        for i in e.amounts.indices {
            var c = e.amounts[i]
            let units = c.value.minorUnits
            switch c.role {
            case AmountRole.total.rawValue:
                let strong = c.notes.contains { note in Keywords.strongTotal.contains { note.contains("'\($0)'") } }
                c.score = strong ? 0.8 : 0.7
                if units == largest { c.score += 0.1; c.notes.append("largest amount") }
            case AmountRole.lineItem.rawValue:
                c.score = units == largest ? 0.35 : 0.05
            default:
                c.score = 0.0
            }
            if c.score > 0 {
                if subtotals.contains(where: { s in taxes.contains { s + $0 == units } }) {
                    c.score += 0.15; c.notes.append("subtotal + tax = total")
                } else if subtotals.contains(units) && c.role == AmountRole.total.rawValue {
                    c.score += 0.05; c.notes.append("equals subtotal")
                }
                if tendered.contains(where: { t in changes.contains { t - $0 == units } }) {
                    c.score += 0.1; c.notes.append("tendered − change = total")
                }
                if let p = c.evidence.map({ $0.box.bottom }), p > 0 { c.score += 0 }
            }
            c.score = min(1, c.score)
            e.amounts[i] = c
        }
    }

    private func taxReadings(_ lines: [Line]) -> [TaxReading] {
        var out: [TaxReading] = []
        for line in lines {
            let (role, _) = ReceiptParser.role(of: line.folded)
            guard role == .tax else { continue }
            let all = AmountReader.amounts(in: line.text)
            guard let amount = all.last(where: { !$0.isRate }) else { continue }
            let rate = all.first(where: \.isRate).map { Money.decimalString(minorUnits: $0.reading.minorUnits, digits: 2) }
                ?? ReceiptParser.integerPercent(in: line.text)
            out.append(TaxReading(rate: rate.map(ReceiptParser.trimRate), amount: amount.reading))
        }
        return out
    }

    static func integerPercent(in text: String) -> String? {
        let chars = Array(text)
        guard let pct = chars.firstIndex(of: "%") else { return nil }
        var j = pct
        while j > 0 && chars[j - 1] == " " { j -= 1 }
        var s = j
        while s > 0 && chars[s - 1].isASCII && chars[s - 1].isNumber { s -= 1 }
        return s < j ? String(chars[s..<j]) : nil
    }

    static func trimRate(_ rate: String) -> String {
        guard rate.contains(".") else { return rate }
        var r = rate
        while r.hasSuffix("0") { r.removeLast() }
        if r.hasSuffix(".") { r.removeLast() }
        return r
    }

    // MARK: dates

    private func dateCandidates(_ lines: [Line], order: DateReader.NumericOrder) -> [Candidate<CalendarDay>] {
        var out: [Candidate<CalendarDay>] = []
        for line in lines {
            let isDue = TextFolding.firstKeyword(in: line.folded, of: Keywords.dueDate) != nil
            for f in DateReader.dates(in: line.text, order: order, today: today) {
                var score = 0.9 - 0.2 * line.position
                var notes: [String] = []
                if f.orderAmbiguous { score -= 0.1; notes.append("day/month order from locale") }
                if isDue { score -= 0.4; notes.append("due or validity date") }
                out.append(Candidate(value: f.day, role: isDue ? "due" : "transaction", score: max(0.05, score),
                                     evidence: line.evidence, notes: notes))
            }
        }
        return out
    }

    // MARK: merchant

    private func merchantCandidates(_ lines: [Line]) -> [Candidate<String>] {
        guard let firstPage = lines.first?.page else { return [] }
        let top = lines.filter { $0.page == firstPage }.prefix(10)
        let heights = top.map { Double($0.line.box.height) }.sorted()
        let medianHeight = heights.isEmpty ? 1 : heights[heights.count / 2]
        var out: [Candidate<String>] = []
        var rank = 0
        for line in top {
            let text = line.text.trimmingCharacters(in: .whitespaces)
            let letters = text.filter(\.isLetter).count
            guard letters >= 3, Double(letters) >= Double(text.count) * 0.5 else { continue }
            let f = line.folded
            if TextFolding.firstKeyword(in: f, of: Keywords.phone) != nil { continue }
            if TextFolding.firstKeyword(in: f, of: Keywords.taxID) != nil { continue }
            if !DateReader.dates(in: text, order: .dayFirst, today: today).isEmpty { continue }
            if !AmountReader.amounts(in: text).isEmpty { continue }
            let legal = TextFolding.firstKeyword(in: f, of: Keywords.legalForms)
            if legal == nil, TextFolding.firstKeyword(in: f, of: Keywords.notMerchant) != nil { continue }
            if legal == nil, ReceiptParser.looksLikeAddress(f) { continue }
            var score = 0.75 - 0.1 * Double(rank)
            var notes = ["line \(line.index + 1) of the page"]
            if let legal { score += 0.2; notes.append("legal form '\(legal)'") }
            if Double(line.line.box.height) >= medianHeight * 1.2 { score += 0.05; notes.append("larger text") }
            out.append(Candidate(value: text, role: "merchant", score: min(0.98, max(0.05, score)), evidence: line.evidence, notes: notes))
            rank += 1
        }
        return out.sorted { $0.score > $1.score }
    }

    static func looksLikeAddress(_ folded: String) -> Bool {
        if TextFolding.firstKeyword(in: folded, of: Keywords.address) != nil { return true }
        // A postcode (4–6 digits) with a place name, or a house number after a street name.
        let digitRuns = folded.split(whereSeparator: { !$0.isNumber })
        return digitRuns.contains { (4...6).contains($0.count) } || (digitRuns.count >= 1 && folded.contains(","))
    }

    /// Upper case without diacritics and punctuation, single spaces: "REWE Markt GmbH" → "REWE MARKT GMBH".
    public static func normalizedMerchant(_ name: String) -> String {
        let folded = TextFolding.fold(name).uppercased()
        let kept = folded.map { $0.isLetter || $0.isNumber ? $0 : " " }
        return String(kept).split(separator: " ").joined(separator: " ")
    }

    // MARK: currency

    private func currencyCandidates(_ lines: [Line], language: String?) -> [Candidate<String>] {
        var counts: [String: (count: Int, evidence: Evidence)] = [:]
        for line in lines {
            for f in AmountReader.amounts(in: line.text) {
                if let hint = f.reading.currencyHint {
                    counts[hint] = ((counts[hint]?.count ?? 0) + 1, counts[hint]?.evidence ?? line.evidence)
                }
            }
            // A code on its own ("EUR", "Währung: CHF") counts too.
            for (mark, code) in AmountReader.currencyMarks where mark.count == 3 && mark.allSatisfy(\.isLetter) {
                if TextFolding.contains(line.folded, keyword: mark.lowercased()) {
                    counts[code] = ((counts[code]?.count ?? 0) + 1, counts[code]?.evidence ?? line.evidence)
                }
            }
        }
        var out = counts.sorted { ($0.value.count, $0.key) > ($1.value.count, $1.key) }.map { entry in
            Candidate(value: entry.key, role: "explicit", score: min(0.99, 0.8 + 0.05 * Double(entry.value.count)),
                      evidence: entry.value.evidence, notes: ["written \(entry.value.count)×"])
        }
        if out.isEmpty, let inferred = ReceiptParser.currency(forLanguage: language) {
            out.append(Candidate(value: inferred, role: "inferred", score: 0.5, evidence: nil,
                                 notes: ["no currency on the page; inferred from language \(language ?? "?")"]))
        }
        return out
    }

    static func currency(forLanguage language: String?) -> String? {
        switch language {
        case "deu", "fra", "spa": return "EUR"
        case "msa": return "MYR"
        default: return nil
        }
    }

    // MARK: reference, payment, kind

    private func referenceCandidates(_ lines: [Line]) -> [Candidate<String>] {
        var out: [Candidate<String>] = []
        for line in lines {
            guard let keyword = TextFolding.firstKeyword(in: line.folded, of: Keywords.reference),
                  let range = line.folded.range(of: keyword) else { continue }
            let after = line.folded[range.upperBound...]
            let offset = line.folded.distance(from: line.folded.startIndex, to: range.upperBound)
            let original = String(line.text.dropFirst(min(offset, line.text.count)))
            _ = after
            let tokens = original.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "#" || $0 == "." && false })
            if let token = tokens.first(where: { $0.contains(where: \.isNumber) && $0.count >= 2 }) {
                let value = String(token).trimmingCharacters(in: CharacterSet(charactersIn: ".,;:"))
                out.append(Candidate(value: value, role: "reference", score: 0.8, evidence: line.evidence, notes: ["keyword '\(keyword)'"]))
            }
        }
        return out
    }

    private func paymentCandidates(_ lines: [Line]) -> [Candidate<String>] {
        var out: [Candidate<String>] = []
        for line in lines {
            if let k = TextFolding.firstKeyword(in: line.folded, of: Keywords.card) {
                out.append(Candidate(value: "card", role: "payment", score: 0.8, evidence: line.evidence, notes: ["keyword '\(k)'"]))
            } else if let k = TextFolding.firstKeyword(in: line.folded, of: Keywords.cash) {
                out.append(Candidate(value: "cash", role: "payment", score: 0.7, evidence: line.evidence, notes: ["keyword '\(k)'"]))
            }
        }
        return out.sorted { $0.score > $1.score }
    }

    private func documentKind(_ lines: [Line]) -> DocumentKind {
        let head = lines.prefix(15)
        if head.contains(where: { TextFolding.firstKeyword(in: $0.folded, of: Keywords.creditNote) != nil }) { return .creditNote }
        if head.contains(where: { line in
            TextFolding.firstKeyword(in: line.folded, of: Keywords.invoice) != nil && !line.folded.contains("tax invoice")
                && !line.folded.contains("simplified")
        }) { return .invoice }
        return .receipt
    }
}

import Foundation
