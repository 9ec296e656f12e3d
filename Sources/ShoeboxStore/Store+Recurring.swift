import Foundation
public import ShoeboxCore

/// Recurring series a person marked cancelled (`shoebox recurring --cancel`).
extension Store {
    public func cancellations() throws(StoreError) -> [Cancellation] {
        let rows = try wrap { () throws(DatabaseError) in try db.query("SELECT merchant, day FROM cancellations ORDER BY merchant") }
        return rows.compactMap { r in
            guard let m = r[0].text, let d = r[1].text.flatMap(CalendarDay.init(iso:)) else { return nil }
            return Cancellation(merchant: m, day: d)
        }
    }

    /// Marks the series of `merchant` cancelled from `day` (a later mark replaces an earlier one), unchecked: a day a
    /// person typed goes through `cancelSeries` or `RecurringCharges.cancellation` first.
    public func cancel(_ merchant: String, on day: CalendarDay, at: String) throws(StoreError) {
        try wrap { () throws(DatabaseError) in
            try db.query("INSERT OR REPLACE INTO cancellations(merchant, day, at) VALUES (?, ?, ?)", [.text(merchant), .text(day.iso), .text(at)])
        }
    }
}
