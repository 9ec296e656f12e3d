import Foundation
public import ShoeboxCore
public import ShoeboxJudgement

/// Recurring series a person marked cancelled (`shoebox recurring --cancel`), and the charges that came after.
extension Store {
    public func cancellations() throws(StoreError) -> [Cancellation] {
        let rows = try wrap { () throws(DatabaseError) in try db.query("SELECT merchant, day FROM cancellations ORDER BY merchant") }
        return rows.compactMap { r in
            guard let m = r[0].text, let d = r[1].text.flatMap(CalendarDay.init(iso:)) else { return nil }
            return Cancellation(merchant: m, day: d)
        }
    }

    /// The recurring series among the records as they stand, with the cancellations people marked.
    public func recurringSeries(today: CalendarDay) throws(StoreError) -> [Series] {
        RecurringCharges.find(try effectiveRecords().compactMap { Charge($0.record) }, cancellations: try cancellations(), today: today)
    }

    /// The series `record` is a charge of, or took a charge of after it was cancelled; nil for any other record. Only an
    /// accepted record or one flagged `charged-after-cancellation` can be one, so no other record costs a look at
    /// the whole store (the review desks ask this for every record they open).
    public func series(of record: DocumentRecord, today: CalendarDay) throws(StoreError) -> Series? {
        guard record.status == .accepted || record.reasons.contains(.chargedAfterCancellation) else { return nil }
        return try recurringSeries(today: today).first { s in
            s.history.contains { $0.source == record.source } || s.chargesAfterCancellation.contains(record.source)
        }
    }

    /// What marking a series cancelled did: the series' name, and the charges after the day now waiting in review.
    public struct SeriesCancelled: Sendable {
        public let merchant: String
        public let flagged: [(source: String, merchant: String, cancelledOn: CalendarDay)]
    }

    /// How `recurring --cancel` and the browser mark a series cancelled (a `review --apply` line is checked the same
    /// way, `RecurringCharges.cancellation`, before its file is applied): the name a person typed, resolved among the
    /// series (an unknown one fails naming the closest), on a day it can have been cancelled on (from 1900 to
    /// `today`, not before its first charge), marked from that day, and every charge it took after it sent to
    /// review. A refused one changes nothing.
    public func cancelSeries(named typed: String, on day: CalendarDay, today: CalendarDay, at: String) throws(StoreError) -> Result<
        SeriesCancelled, CancellationRefused
    > {
        switch RecurringCharges.cancellation(of: typed, on: day, among: try recurringSeries(today: today), today: today) {
        case .failure(let e): return .failure(e)
        case .success(let c):
            try cancel(c.merchant, on: c.day, at: at)
            return .success(SeriesCancelled(merchant: c.merchant, flagged: try flagChargesAfterCancellation(today: today)))
        }
    }

    /// Marks the series of `merchant` cancelled from `day` (a later mark replaces an earlier one), unchecked: a day a
    /// person typed goes through `cancelSeries` or `RecurringCharges.cancellation` first.
    public func cancel(_ merchant: String, on day: CalendarDay, at: String) throws(StoreError) {
        try wrap { () throws(DatabaseError) in
            try db.query("INSERT OR REPLACE INTO cancellations(merchant, day, at) VALUES (?, ?, ?)", [.text(merchant), .text(day.iso), .text(at)])
        }
    }

    /// Sends each charge a cancelled series took after its cancellation to review (`charged-after-cancellation`), when
    /// the pipeline accepted it and no person decided on it; returns them with their series' merchant and day.
    public func flagChargesAfterCancellation(today: CalendarDay) throws(StoreError) -> [(source: String, merchant: String, cancelledOn: CalendarDay)]
    {
        let cancelled = try cancellations()
        guard !cancelled.isEmpty else { return [] }
        let decided = try decisions()
        let pairs = try effectiveRecords()
        let series = RecurringCharges.find(pairs.compactMap { Charge($0.record) }, cancellations: cancelled, today: today)
        let suggestions = Dictionary(pairs.map { ($0.suggestion.source, $0.suggestion) }, uniquingKeysWith: { a, _ in a })
        var flagged: [(String, String, CalendarDay)] = []
        try wrap { () throws(DatabaseError) in
            try db.transaction { () throws(DatabaseError) in
                for s in series {
                    guard let day = s.cancelledOn else { continue }
                    for source in s.chargesAfterCancellation {
                        guard var r = suggestions[source], r.status == .accepted, (decided[source] ?? []).isEmpty else { continue }
                        r.status = .review
                        r.reviewedBy = nil
                        r.reasons = RecordMerger.addingReason(.chargedAfterCancellation, to: r.reasons)
                        try db.query(
                            "UPDATE records SET status = 'review', json = ? WHERE source_id = (SELECT id FROM sources WHERE path = ?)",
                            [.text(r.jsonLine()), .text(source)])
                        try db.query("UPDATE sources SET state = 'review' WHERE path = ?", [.text(source)])
                        try db.query(
                            "INSERT INTO review_items(source_id, reasons) SELECT id, ? FROM sources WHERE path = ?",
                            [.text(r.reasons.map(\.code).joined(separator: ",")), .text(source)])
                        flagged.append((source, s.merchant, day))
                    }
                }
            }
        }
        return flagged
    }
}
