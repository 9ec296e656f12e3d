import Foundation
import ShoeboxCore
import ShoeboxJudgement
import ShoeboxTestSupport
import Testing

@testable import ShoeboxStore

/// Issue 33, class 3: the whole store travels. Every table a store really has (read back from SQLite's own catalogue)
/// is named in `StoreJSON.tables` with where it travels in the JSON export or why it need not, so a table added later
/// cannot be left out of the export without a word; and a series marked cancelled comes back from an import.
struct StoreTablesTests {
    @Test func everyTableOfTheStoreIsAccountedForAndCancellationsTravel() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try Store(directory: dir.path)
        try store.cancel("Netflix", on: CalendarDay(year: 2026, month: 11, day: 1)!, at: "2026-11-02T09:00:00Z")
        let listed = try runProgram(
            "/usr/bin/python3",
            [
                "-c",
                "import sqlite3, sys; print('\\n'.join(r[0] for r in sqlite3.connect(sys.argv[1]).execute("
                    + "\"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name\")))",
                dir.appendingPathComponent("store.sqlite").path
            ])
        #expect(listed.code == 0, "\(listed.err)")
        let tables = Set(listed.out.split(separator: "\n").map(String.init))
        #expect(tables.contains("cancellations") && tables.contains("sources"), "\(tables)")
        #expect(tables == Set(StoreJSON.tables.keys), "tables the export does not account for: \(tables.subtracting(StoreJSON.tables.keys).sorted())")

        let exported = try StoreJSON.export(store)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(exported)) as? [String: Any])
        #expect(object["cancellations"] as? [[String: String]] == [["merchant": "Netflix", "on": "2026-11-01", "at": "2026-11-02T09:00:00Z"]])
        let other = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: other) }
        let imported = try Store(directory: other.path)
        _ = try StoreJSON.importInto(
            imported, data: Data(exported), file: "store.json", today: CalendarDay(year: 2026, month: 12, day: 3)!, learn: MerchantMemory.relearned)
        #expect(try imported.cancellations() == [Cancellation(merchant: "Netflix", day: CalendarDay(year: 2026, month: 11, day: 1)!)])
        #expect(try StoreJSON.export(imported) == exported)
        // A mark made later in the importing store stands; an earlier one gives way to the import's.
        try imported.cancel("Netflix", on: CalendarDay(year: 2026, month: 11, day: 20)!, at: "2026-11-25T09:00:00Z")
        _ = try StoreJSON.importInto(
            imported, data: Data(exported), file: "store.json", today: CalendarDay(year: 2026, month: 12, day: 3)!, learn: MerchantMemory.relearned)
        #expect(try imported.cancellations().first?.day == CalendarDay(year: 2026, month: 11, day: 20))
    }

    /// Migration 10: a store written before keeps every source's state, now read from its record alone; the copies
    /// (sources.state, records.status, review_items) are gone, and what waited for review still does.
    @Test func aStoreOfSchemaNineKeepsEveryStateWithTheStatusStoredOnce() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.sqlite").path
        var review = DocumentRecord(source: "trip/a.jpg", folder: "trip", sha256: String(repeating: "a", count: 64), status: .review)
        review.reasons = [.missing(.total)]
        let accepted = DocumentRecord(source: "trip/b.jpg", folder: "trip", sha256: String(repeating: "b", count: 64), status: .accepted)
        var duplicate = DocumentRecord(source: "trip/c.jpg", folder: "trip", sha256: String(repeating: "b", count: 64), status: .duplicate)
        duplicate.duplicateOf = "trip/b.jpg"
        func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
        var sql = Store.migrations[0..<9].joined(separator: "\n") + "\nPRAGMA user_version = 9;\n"
        for (id, r) in [review, accepted, duplicate].enumerated() {
            sql += """
                INSERT INTO sources(id, path, root, folder, sha256, size, kind, state) VALUES (\(id + 1), \(quoted(r.source)), '/scans', 'trip',
                    \(quoted(r.sha256)), 10, 'jpeg', \(quoted(r.status.rawValue)));
                INSERT INTO records(source_id, status, json) VALUES (\(id + 1), \(quoted(r.status.rawValue)), \(quoted(r.jsonLine())));

                """
        }
        sql += "INSERT INTO review_items(source_id, reasons) VALUES (1, 'missing-total');\n"
        let sqlite3 = try #require(which("sqlite3"), "sqlite3 is missing: apt-get install -y sqlite3 (make setup)")
        let made = try runProgram(sqlite3, [file, sql])
        #expect(made.code == 0, "\(made.err)")

        let store = try Store(directory: dir.path)
        let held = try store.held()
        #expect(held["trip/a.jpg"]?.state == .review && held["trip/b.jpg"]?.state == .accepted && held["trip/c.jpg"]?.state == .duplicate)
        #expect(held["trip/c.jpg"]?.duplicateOf == "trip/b.jpg")
        #expect(try store.originalPaths(sha256: accepted.sha256, excluding: "trip/x.jpg") == ["trip/b.jpg"])
        #expect(try store.effectiveRecords().filter { $0.record.status == .review }.map(\.record.source) == ["trip/a.jpg"])
        let schema = try runProgram(
            sqlite3,
            [
                file,
                "PRAGMA user_version; SELECT name FROM pragma_table_info('sources') WHERE name = 'state';"
                    + " SELECT name FROM pragma_table_info('records') WHERE name = 'status'; SELECT name FROM sqlite_master WHERE name = 'review_items';"
            ])
        #expect(schema.out == "10\n", "\(schema.out) \(schema.err)")
        // A state judged again is written once, in the record.
        try store.rewrite([
            RecordUpdate(path: "trip/a.jpg", record: DocumentRecord(source: "trip/a.jpg", folder: "trip", sha256: review.sha256, status: .accepted))
        ])
        #expect(try store.held()["trip/a.jpg"]?.state == .accepted)
    }
}
