import Foundation
public import ShoeboxCore

/// A folder's deadlines as files for its zip: `deadlines.ics` (a calendar: one all-day event per open deadline, alarms
/// a week, three days and a day before) and `deadlines.csv` (one row per open deadline). A deadline a person settled
/// (paid, answered, returned) is left out, so it leaves a subscribed calendar on the next export.
public enum DeadlineFiles {
    /// The open deadlines of `records`, by day then document.
    public static func open(_ records: [DocumentRecord]) -> [(record: DocumentRecord, deadline: Deadline)] {
        records.flatMap { r in r.deadlines.filter { !r.settledDeadlines.contains($0.kind) }.map { (r, $0) } }
            .sorted {
                ($0.deadline.day, $0.record.source, $0.deadline.kind.rawValue) < ($1.deadline.day, $1.record.source, $1.deadline.kind.rawValue)
            }
    }

    /// Stable across exports: the deadline's kind and the document's content (not its path, which may be renamed).
    static func uid(_ r: DocumentRecord, _ d: Deadline) -> String { "\(d.kind.rawValue)-\(r.sha256.prefix(24))@shoebox" }

    public static func ics(_ records: [DocumentRecord], folder: String) -> String {
        let events = open(records).map { r, d in
            ICalendar.Event(
                uid: uid(r, d), day: d.day, summary: summary(r, d),
                description: d.explanation + " " + (r.source.isEmpty ? "" : "Document: \(r.source).") + " " + disclaimer,
                // The day the deadline counts from: a calendar updates the event when that changes.
                stamp: Date(timeIntervalSince1970: TimeInterval(d.anchor.day.daysSinceEpoch) * 86_400))
        }
        return ICalendar.write(events, name: folder.isEmpty ? "Shoebox deadlines" : "Shoebox deadlines: \(folder)")
    }

    public static let disclaimer = "The day is counted by Shoebox from the document, not legal advice."

    static func summary(_ r: DocumentRecord, _ d: Deadline) -> String {
        let who = r.merchant ?? "document"
        let amount = r.total.map { " \($0.decimalString) \($0.currency.code)" } ?? ""
        switch d.kind {
        case .payment: return "Pay \(who)\(amount)"
        case .returnWindow: return "Last day to return: \(who)"
        case .warranty: return "Warranty ends: \(who)"
        case .payReduced: return "Last day to pay the reduced fine: \(who)"
        case .objection: return "Last day to object: \(who)"
        case .cancellation: return "Last day to give notice: \(who)"
        }
    }

    public static let csvHeader = ["day", "kind", "merchant", "total", "currency", "anchor", "anchor_day", "explanation", "original_path", "uid"]

    public static func csv(_ records: [DocumentRecord], profile: CSVWriter.Profile) -> String {
        var writer = CSVWriter(header: csvHeader, profile: profile)
        for (r, d) in open(records) {
            let row = [
                d.day.iso, d.kind.rawValue, SpreadsheetText.neutralised(r.merchant ?? ""),
                r.total.map { CSVWriter.decimal($0.decimalString, profile) } ?? "", r.currency?.code ?? "", d.anchor.kind.rawValue, d.anchor.day.iso,
                SpreadsheetText.neutralised(d.explanation), SpreadsheetText.neutralised(r.source), uid(r, d)
            ]
            try? writer.append(row)
        }
        return writer.text
    }
}
