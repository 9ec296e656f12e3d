/// Dates: every date on the page; the transaction or issue date is preferred over due, delivery, order,
/// validity and print dates by the words on its line, and over later dates by its place near the top.
extension ReceiptParser {
    func dateCandidates(_ lines: [Line], order: DateReader.NumericOrder) -> [DateCandidate] {
        var out: [DateCandidate] = []
        for line in lines {
            let other = TextFolding.firstKeyword(in: line.folded, of: Keywords.otherDate)
            let issue = TextFolding.firstKeyword(in: line.folded, of: Keywords.issueDate)
            for f in DateReader.dates(in: ReceiptParser.mendDate(line.text), folded: line.folded, order: order, today: today) {
                var score = DateWeights.top - DateWeights.perPageHeight * line.position
                var notes: [String] = []
                var checks: Set<Check> = []
                if f.orderAmbiguous {
                    score -= DateWeights.orderAmbiguous
                    notes.append("day/month order from locale")
                }
                if let other {
                    score -= DateWeights.otherDate
                    notes.append("'\(other)': not the transaction date")
                } else if let issue {
                    score += DateWeights.issueKeyword
                    notes.append("keyword '\(issue)'")
                    checks.insert(.keyword(issue))
                }
                out.append(
                    Candidate(
                        value: f.day, role: other == nil ? .transaction : .other, score: max(DateWeights.floor, min(DateWeights.cap, score)),
                        evidence: line.evidence, checks: checks, notes: notes))
            }
        }
        // The same day read on several lines (a header and a footer) is surer.
        let counts = Dictionary(grouping: out, by: \.value).mapValues(\.count)
        for i in out.indices where (counts[out[i].value] ?? 0) > 1 && out[i].role == .transaction {
            out[i].score = min(DateWeights.cap, out[i].score + DateWeights.printedAgain)
            out[i].checks.insert(.printed(times: counts[out[i].value]!))
            out[i].notes.append("printed \(counts[out[i].value]!)×")
        }
        return out
    }

    /// Lines whose date shape reads as no plausible date, outside lines about other dates (due, valid until).
    func unreadDates(_ lines: [Line], order: DateReader.NumericOrder) -> [Evidence] {
        lines.filter { line in
            TextFolding.firstKeyword(in: line.folded, of: Keywords.otherDate) == nil
                && !DateReader.unreadableDateShapes(in: ReceiptParser.mendDate(line.text), order: order, today: today).isEmpty
        }.map(\.evidence)
    }

    /// Mends OCR's spaces inside dates: "18-10- 17" → "18-10-17", "2018 -03-18" → "2018-03-18".
    static func mendDate(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x2D || $0 == 0x2F || $0 == 0x2E }), text.utf8.contains(0x20) else { return text }
        let c = Array(text)
        var out: [Character] = []
        out.reserveCapacity(c.count)
        var changed = false
        for (i, ch) in c.enumerated() {
            if ch == " " {
                // Drop a space that sits between a digit and a separator that leads to a digit, either way round.
                var l = i - 1
                while l >= 0 && c[l] == " " { l -= 1 }
                var r = i + 1
                while r < c.count && c[r] == " " { r += 1 }
                if l >= 0 && r < c.count {
                    let leftSep = "-/.".contains(c[l]) && l > 0 && c[l - 1].isDigitASCII && c[r].isDigitASCII
                    let rightSep = "-/.".contains(c[r]) && r + 1 < c.count && c[r + 1].isDigitASCII && c[l].isDigitASCII
                    if leftSep || rightSep {
                        changed = true
                        continue
                    }
                }
            }
            out.append(ch)
        }
        return changed ? String(out) : text
    }
}
