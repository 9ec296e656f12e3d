import Foundation
import ShoeboxCore
internal import ShoeboxReading

/// Receipt or invoice number, payment method and document kind.
extension ReceiptParser {
    /// "Rechnung Nr. 4711", "FACTURE N° : F20220024", "Invoice 103767", "INV NO: CS-SA-0079030", "Bon-Nr. 4711":
    /// a document word, perhaps a number marker, then the first token that holds digits.
    func referenceCandidates(_ lines: [Line]) -> [TextCandidate] {
        var out: [TextCandidate] = []
        for line in lines {
            // Cheap test first: most lines name no document.
            guard ReceiptParser.referencePrefilter.any(in: line.folded) else { continue }
            let tokens = line.text.split(whereSeparator: \.isWhitespace).map(String.init)
            let foldedTokens = line.folded.split(whereSeparator: \.isWhitespace).map(String.init)
            let folded = (foldedTokens.count == tokens.count ? foldedTokens : tokens.map { TextFolding.fold($0) })
                .map { TextFolding.trim($0, ReceiptParser.tokenJunk) }
            let otherDocument = TextFolding.firstKeyword(in: line.folded, of: Keywords.otherReference)
            for (i, word) in folded.enumerated() {
                let parts = word.split(whereSeparator: { $0 == "-" || $0 == "." }).map(String.init)
                guard let head = parts.first else { continue }
                // "Rechnungsnr.", "Belegnr": a document word with the number marker glued on.
                let glued = Keywords.documentWords.contains { w in
                    head.hasPrefix(w) && ["nr", "no", "snr", "sno", "nummer"].contains(String(head.dropFirst(w.count)))
                }
                // "Fahrt-Nr. 88213", "Bon-Nr.": any word joined to a number marker, unless it names another document.
                let hyphenated =
                    parts.count == 2 && ["nr", "no"].contains(parts[1])
                    && !Keywords.otherReference.contains { TextFolding.containsSubstring(head, $0) }
                let compound =
                    glued || hyphenated || Keywords.documentWords.contains { head == $0 || (head.count > $0.count + 3 && head.hasSuffix($0)) }
                // "AFFACTURÉE N° …": a long document word inside another word counts when a number marker follows.
                let inside =
                    !compound && Keywords.documentWords.contains { $0.count >= 7 && TextFolding.containsSubstring(head, $0) }
                    && i + 1 < folded.count && Keywords.numberMarkers.contains(folded[i + 1])
                guard compound || inside else { continue }
                let marker0 = glued || parts.dropFirst().contains { Keywords.numberMarkers.contains($0) }
                guard let (found, j, marker) = referenceValue(tokens, folded, after: i, marker: marker0) else { continue }
                var value = found
                // "Nr. 210111 mit LV vom 30.05.2026": an invoice number of several words runs up to "vom"/"du"/"dated".
                if let stop = (j + 1..<min(tokens.count, j + 5)).first(where: { Keywords.datePrepositions.contains(folded[$0]) }),
                    stop + 1 < tokens.count,
                    !DateReader.dates(in: tokens[stop + 1], order: .dayFirst, today: CalendarDay(year: 9999, month: 12, day: 31)!).isEmpty
                {
                    value = ([value] + tokens[(j + 1)..<stop]).joined(separator: " ")
                }
                var score = marker ? ReferenceWeights.withMarker : ReferenceWeights.withoutMarker
                // The invoice's or receipt's own number beats an order or ride number on the same page.
                if Keywords.ownDocumentWords.contains(where: { TextFolding.containsSubstring(head, $0) }) { score += ReferenceWeights.ownDocument }
                var notes = ["after '\(tokens[i])'" + (marker ? " and a number marker" : "")]
                if let otherDocument {
                    score -= ReferenceWeights.otherDocument
                    notes.append("'\(otherDocument)': another document's number")
                }
                out.append(Candidate(value: value, role: .reference, score: score, evidence: line.evidence, notes: notes))
                break
            }
        }
        return out.sorted { $0.score > $1.score }
    }

    /// The number after the document word at token `i`: number markers ("Nr.", "N°") and bracketed words are
    /// skipped, and a word or two before the marker; the first token with two digits or more that is neither a
    /// date nor an amount. Returns the value, its token index and whether a marker was seen; nil when none.
    func referenceValue(_ tokens: [String], _ folded: [String], after i: Int, marker: Bool) -> (String, Int, Bool)? {
        var marker = marker
        var j = i + 1
        var value: String?
        var skippedWords = 0
        while j < tokens.count && j <= i + 5 {
            let t = folded[j]
            if Keywords.numberMarkers.contains(t) || t.isEmpty || (tokens[j].hasPrefix("(") && tokens[j].hasSuffix(")")) {
                if Keywords.numberMarkers.contains(t) { marker = true }
                j += 1
                continue
            }
            let raw = TextFolding.trim(tokens[j], ReceiptParser.tokenJunk)
            // "Teilrechnung Bau (875) Nr. 210112": a word or two may stand between the document word and the marker.
            if raw.allSatisfy(\.isLetter), skippedWords < 2, !marker, j + 1 < tokens.count {
                skippedWords += 1
                j += 1
                continue
            }
            if raw.filter(\.isNumber).count >= 2, DateReader.dates(in: raw, order: .dayFirst, today: today).isEmpty,
                AmountReader.amounts(in: raw).isEmpty
            {
                value = raw
            }
            break
        }
        guard let value else { return nil }
        return (value, j, marker)
    }

    /// Cheap first test for a line: a document word anywhere, even inside a compound, or a "-Nr"/"-No".
    static let referencePrefilter = KeywordList(Keywords.documentWords.words + ["-nr", "-no"], wordBoundaries: false)

    static let tokenJunk: Set<Character> = [":", ";", ",", ".", "#", "|", "(", ")", "[", "]"]

    func paymentCandidates(_ lines: [Line]) -> [TextCandidate] {
        var out: [TextCandidate] = []
        for line in lines {
            if let k = TextFolding.firstKeyword(in: line.folded, of: Keywords.card) {
                out.append(Candidate(value: "card", role: .payment, score: PaymentWeights.card, evidence: line.evidence, notes: ["keyword '\(k)'"]))
            } else if let k = TextFolding.firstKeyword(in: line.folded, of: Keywords.cash) {
                out.append(Candidate(value: "cash", role: .payment, score: PaymentWeights.cash, evidence: line.evidence, notes: ["keyword '\(k)'"]))
            }
        }
        return out.sorted { $0.score > $1.score }
    }

    /// "USt-IdNr.: DE123456789", "GST REG NO: 000136577024", "N° TVA : FR 11 123 456 782", "NIF B12345678":
    /// the token(s) after a tax-ID keyword (`SellerTaxID.read`). A number in the buyer's block is not the seller's.
    func sellerTaxIDCandidates(_ lines: [Line]) -> [TextCandidate] {
        var out: [TextCandidate] = []
        let inBuyer = SellerTaxID.inBuyerBlock(lines.map(\.folded))
        for (k, line) in lines.enumerated() {
            guard let (keyword, id) = SellerTaxID.read(line.text, folded: line.folded) else { continue }
            // A VAT number (country letters, then digits) beats a national tax number.
            let vatFormat = id.prefix(2).allSatisfy(\.isLetterFast) && id.dropFirst(2).first?.isDigitASCII == true
            out.append(
                Candidate(
                    value: id, role: .sellerTaxID,
                    score: (inBuyer[k] ? TaxIDWeights.inBuyerBlock : TaxIDWeights.top - TaxIDWeights.perLine * Double(k))
                        + (vatFormat ? TaxIDWeights.vatFormat : 0),
                    evidence: line.evidence,
                    notes: ["keyword '\(keyword)'"] + (inBuyer[k] ? ["in the buyer's block"] : []) + (vatFormat ? ["VAT number format"] : [])))
        }
        return out.sorted { $0.score > $1.score }
    }

    func documentKind(_ lines: [Line]) -> DocumentKind {
        let head = lines.prefix(20)
        // A quote or statement says so in its title: a line near the top that starts with the word
        // (a supermarket's "Angebot" on an item line is a special offer, not a quote).
        if lines.prefix(8).contains(where: { line in
            guard let k = Keywords.notAPurchase.first(in: line.folded) else { return false }
            return line.folded.hasPrefix(k)
        }) {
            return .notAPurchase
        }
        // A fine or a contract carries deadlines, not a purchase; both are told by their titles (DocumentKind+FineContract).
        if let kind = DocumentKind.fineOrContract(folded: lines.map(\.folded)) { return kind }
        if head.contains(where: { TextFolding.firstKeyword(in: $0.folded, of: Keywords.creditNote) != nil }) { return .creditNote }
        if head.contains(where: { line in
            TextFolding.firstKeyword(in: line.folded, of: Keywords.invoice) != nil
                && !Keywords.tillReceiptTitles.contains { TextFolding.containsSubstring(line.folded, $0) }
        }) {
            return .invoice
        }
        return .receipt
    }
}
