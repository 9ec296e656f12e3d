import Foundation
import ShoeboxCore

/// The series a person marked cancelled (`shoebox recurring --cancel`) in the store's JSON: written by export,
/// checked and merged by import, so a store imported elsewhere still flags a charge after the cancellation.
extension StoreJSON {
    /// At most this many cancellations in one export (far more than the series any one store can hold).
    static let maxCancellations = 100_000

    static func cancellationRows(_ store: Store) throws(StoreError) -> [[String: Any]] {
        let rows = try wrap(store) { () throws(DatabaseError) in
            try store.db.query("SELECT merchant, day, at FROM cancellations ORDER BY merchant \(store.db.dialect.bytewise)")
        }
        return rows.map { r in ["merchant": r[0].text ?? "", "on": r[1].text ?? "", "at": r[2].text ?? ""] }
    }

    /// The export's cancellations, every item checked; the first problem is thrown (nothing is imported then).
    static func parseCancellations(_ items: Any, file: String, latest: CalendarDay) throws -> [(merchant: String, day: CalendarDay, at: String)] {
        guard let list = items as? [Any], list.count <= maxCancellations else {
            throw ImportError.invalid(file: file, document: 0, problem: "\"cancellations\" must be an array of at most \(maxCancellations) items")
        }
        var seen = Set<String>()
        return try list.enumerated().map { i, item throws -> (String, CalendarDay, String) in
            func refuse(_ field: String, _ problem: String) -> ImportError {
                ImportError.invalid(file: file, document: 0, problem: "cancellation \(i + 1): \"\(field)\" \(problem)")
            }
            guard let c = item as? [String: Any] else { throw refuse("item", "must be an object") }
            if let p = textProblem(c["merchant"], limit: TextLimits.maximumLength["merchant"] ?? maxText, optional: false) {
                throw refuse("merchant", p)
            }
            let merchant = c["merchant"] as? String ?? ""
            guard !merchant.isEmpty else { throw refuse("merchant", "is empty") }
            guard seen.insert(merchant).inserted else { throw refuse("merchant", "is the merchant of an earlier cancellation too") }
            guard let day = (c["on"] as? String).flatMap(CalendarDay.init(iso:)), day.year >= FieldInput.earliestYear, day <= latest else {
                throw refuse("on", "must be a day from \(FieldInput.earliestYear) up to today, as YYYY-MM-DD")
            }
            if let p = timestampProblem(c["at"]) { throw refuse("at", p) }
            return (merchant, day, c["at"] as? String ?? "")
        }
    }

    /// Merges one cancellation: a series the store already holds as cancelled keeps the mark made last.
    static func insertCancellation(_ c: (merchant: String, day: CalendarDay, at: String), db: any SQLConnection) throws(DatabaseError) {
        let existing = try db.query("SELECT at FROM cancellations WHERE merchant = ?", [.text(c.merchant)]).first?.first?.text
        if let existing, existing >= c.at { return }
        try Store.upsertCancellation(c.merchant, day: c.day.iso, at: c.at, db: db)
    }

    /// When something was decided, as Shoebox writes it (`2026-12-03T08:55:00Z`, UTC, from the clock): a real moment
    /// from 1900 on, never free text. (Not bounded by --today: that is the day documents are judged against, and a
    /// person's decision is stamped with the clock.)
    static func timestampProblem(_ value: Any?) -> String? {
        guard let s = value as? String else { return "is missing or not a string" }
        let shape = "must be a time as Shoebox writes it (YYYY-MM-DDTHH:MM:SSZ)"
        guard s.utf8.count == 20, s.hasSuffix("Z"), let parsed = ISO8601DateFormatter().date(from: s) else { return shape }
        // The formatter accepts what it can roll over (a 31 April); the time must come back as it was written.
        guard ISO8601DateFormatter().string(from: parsed) == s, let day = CalendarDay(iso: String(s.prefix(10))) else { return shape }
        if day.year < FieldInput.earliestYear { return "\(s) is before \(FieldInput.earliestYear)" }
        return nil
    }
}
