import Foundation

/// Dates: every date on the page; the transaction or issue date is preferred over due, delivery, order,
/// validity and print dates by the words on its line, and over later dates by its place near the top.
extension ReceiptParser {
    func dateCandidates(_ lines: [Line], order: DateReader.NumericOrder) -> [Candidate<CalendarDay>] {
        var out: [Candidate<CalendarDay>] = []
        for line in lines {
            let other = TextFolding.firstKeyword(in: line.folded, of: Keywords.otherDate)
            let issue = TextFolding.firstKeyword(in: line.folded, of: Keywords.issueDate)
            for f in DateReader.dates(in: ReceiptParser.mendDate(line.text), order: order, today: today) {
                var score = 0.85 - 0.2 * line.position
                var notes: [String] = []
                if f.orderAmbiguous { score -= 0.1; notes.append("day/month order from locale") }
                if let other {
                    score -= 0.4; notes.append("'\(other)': not the transaction date")
                } else if let issue {
                    score += 0.1; notes.append("keyword '\(issue)'")
                }
                out.append(Candidate(value: f.day, role: other == nil ? "transaction" : "other", score: max(0.05, min(0.99, score)),
                                     evidence: line.evidence, notes: notes))
            }
        }
        // The same day read on several lines (a header and a footer) is surer.
        let counts = Dictionary(grouping: out, by: \.value).mapValues(\.count)
        for i in out.indices where (counts[out[i].value] ?? 0) > 1 && out[i].role == "transaction" {
            out[i].score = min(0.99, out[i].score + 0.05)
            out[i].notes.append("printed \(counts[out[i].value]!)×")
        }
        return out
    }

    /// Mends OCR's spaces inside dates: "18-10- 17" → "18-10-17", "2018 -03-18" → "2018-03-18".
    static func mendDate(_ text: String) -> String {
        guard text.contains(where: { $0 == "-" || $0 == "/" || $0 == "." }) else { return text }
        let s = text as NSString
        return dateMend.stringByReplacingMatches(in: text, range: NSRange(location: 0, length: s.length), withTemplate: "$1")
    }

    nonisolated(unsafe) static let dateMend = try! NSRegularExpression(pattern: #"(?<=\d)\s*([-/.])\s*(?=\d)"#)
}
