/// Merchant: the seller's name from the top of the first page (or the seller block of an invoice),
/// preferring names with a legal form and excluding addresses, phone numbers, tax IDs, headers, slogans
/// and the buyer's block.
extension ReceiptParser {
    func merchantCandidates(_ lines: [Line]) -> [Candidate<String>] {
        guard let firstPage = lines.first?.page else { return [] }
        let top = Array(lines.filter { $0.page == firstPage }.prefix(30))
        let heights = top.map { Double($0.line.box.height) }.sorted()
        let medianHeight = heights.isEmpty ? 1 : heights[heights.count / 2]
        var out: [Candidate<String>] = []
        var rank = 0
        var buyerUntil = -1, sellerUntil = -1
        for (k, line) in top.enumerated() {
            let f = line.folded
            if TextFolding.firstKeyword(in: f, of: Keywords.buyerBlock) != nil { buyerUntil = k + 5 }
            if TextFolding.firstKeyword(in: f, of: Keywords.sellerBlock) != nil { sellerUntil = k + 6; buyerUntil = -1 }
            let inBuyer = k <= buyerUntil && k > buyerUntil - 5
            let inSeller = k <= sellerUntil
            let nextIsCompanyNumber = k + 1 < top.count && ReceiptParser.looksLikeCompanyNumber(top[k + 1].text)
            for (s, segment) in line.segments.enumerated() {
                guard let name = ReceiptParser.merchantName(segment, today: today) else { continue }
                let fs = TextFolding.fold(name)
                let legal = TextFolding.firstKeyword(in: fs, of: Keywords.legalForms)
                if inBuyer && !inSeller { continue }
                if legal == nil, TextFolding.firstKeyword(in: fs, of: Keywords.notMerchant) != nil { continue }
                if legal == nil, ReceiptParser.looksLikeAddress(fs) { continue }
                if TextFolding.firstKeyword(in: fs, of: Keywords.slogan) != nil { continue }
                var score = (line.page == firstPage && k < 12 ? 0.72 : 0.55) - 0.04 * Double(min(rank, 8))
                var notes = ["line \(line.index + 1) of the page"]
                if let legal {
                    score += 0.2; notes.append("legal form '\(legal)'")
                } else if let word = TextFolding.firstKeyword(in: fs, of: Keywords.businessWords) {
                    score += 0.1; notes.append("business word '\(word)'")
                }
                if inSeller { score += 0.1; notes.append("seller block") }
                if nextIsCompanyNumber && s == 0 { score += 0.1; notes.append("company number below") }
                if Double(line.line.box.height) >= medianHeight * 1.3 { score += 0.05; notes.append("larger text") }
                if line.line.meanConfidence < 50 { score -= 0.25; notes.append("low OCR confidence") }
                let words = name.split(separator: " ")
                if words.count >= 2 && words.allSatisfy({ $0.count <= 2 }) { score -= 0.3; notes.append("fragments") }
                if name == name.lowercased() && legal == nil { score -= 0.1; notes.append("all lower case") }
                out.append(Candidate(value: name, role: "merchant", score: min(0.98, max(0.05, score)), evidence: line.evidence, notes: notes))
                rank += 1
            }
        }
        return out.sorted { $0.score > $1.score }
    }

    /// The name a segment prints, without labels ("Name: …") and stray OCR marks at its ends;
    /// nil when it cannot be a name (too few letters, a phone, a tax ID, a date, an amount).
    static func merchantName(_ segment: String, today: CalendarDay) -> String? {
        var text = segment
        for label in ["name:", "firma:", "company:", "nom:", "raison sociale:", "empresa:", "nama:"] {
            if TextFolding.fold(text).hasPrefix(label) { text = String(text.dropFirst(label.count)) }
        }
        // Stray OCR marks at the ends; a final "." stays ("S.L.", "Inc.").
        let junk = CharacterSet(charactersIn: " |“”\"'‘’«»:;,_-*~=+#§()[]{}<>!?¡¿")
        text = text.trimmingCharacters(in: junk)
        while text.hasPrefix(".") { text.removeFirst() }
        let letters = text.filter(\.isLetter).count
        guard letters >= 3, Double(letters) >= Double(text.count) * 0.5 else { return nil }
        let f = TextFolding.fold(text)
        if TextFolding.firstKeyword(in: f, of: Keywords.phone) != nil { return nil }
        if TextFolding.firstKeyword(in: f, of: Keywords.taxID) != nil { return nil }
        if !DateReader.dates(in: text, order: .dayFirst, today: today).isEmpty { return nil }
        if !AmountReader.amounts(in: text).isEmpty { return nil }
        if f.contains("@") || f.contains("www") || f.contains("http") { return nil }
        return text
    }

    static func looksLikeAddress(_ folded: String) -> Bool {
        if TextFolding.firstKeyword(in: folded, of: Keywords.address) != nil { return true }
        // A postcode (4–6 digits) with a place name, or numbers with a comma ("12, Main").
        let digitRuns = folded.split(whereSeparator: { !$0.isNumber })
        return digitRuns.contains { (4...6).contains($0.count) } || (digitRuns.count >= 1 && folded.contains(","))
    }

    /// "(789417-W)", "965857-A", "Co. Reg. No. 123456-K": the registration number printed under a company name.
    static func looksLikeCompanyNumber(_ text: String) -> Bool {
        let t = text.trimmingCharacters(in: CharacterSet(charactersIn: " ()[]."))
        let f = TextFolding.fold(t)
        if f.hasPrefix("co reg") || f.hasPrefix("co. reg") || f.hasPrefix("company no") || f.hasPrefix("roc") { return true }
        let parts = t.split(separator: "-")
        guard parts.count == 2, let digits = parts.first, let suffix = parts.last else { return false }
        let d = digits.filter(\.isNumber)
        return d.count >= 5 && Double(d.count) >= Double(digits.count) * 0.8 && suffix.count <= 2 && suffix.allSatisfy(\.isLetter)
    }
}

import Foundation
