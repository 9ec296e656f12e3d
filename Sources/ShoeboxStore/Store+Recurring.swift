import Foundation
public import ShoeboxCore

/// Recurring series a person marked cancelled (`shoebox recurring --cancel`).
extension Store {
    public func cancellations() throws(StoreError) -> [Cancellation] {
        let rows = try wrap { () throws(DatabaseError) in
            try db.query("SELECT merchant, day FROM cancellations ORDER BY merchant \(db.dialect.bytewise)")
        }
        return rows.compactMap { r in
            guard let m = r[0].text, let d = r[1].text.flatMap(CalendarDay.init(iso:)) else { return nil }
            return Cancellation(merchant: m, day: d)
        }
    }

    /// Marks the series of `merchant` cancelled from `day` (a later mark replaces an earlier one), unchecked: a day a
    /// person typed goes through `cancelSeries` or `RecurringCharges.cancellation` first.
    public func cancel(_ merchant: String, on day: CalendarDay, at: String) throws(StoreError) {
        try wrap { () throws(DatabaseError) in
            try Store.upsertCancellation(merchant, day: day.iso, at: at, db: db)
        }
    }

    /// A series marked cancelled (a later mark of the same merchant replaces an earlier one).
    static func upsertCancellation(_ merchant: String, day: String, at: String, db: any SQLConnection) throws(DatabaseError) {
        try db.query(
            "INSERT INTO cancellations(merchant, day, at) VALUES (?, ?, ?) ON CONFLICT (merchant) DO UPDATE SET day = excluded.day, at = excluded.at",
            [.text(merchant), .text(day), .text(at)])
    }
}
