import Foundation
import ShoeboxCore
import ShoeboxJudgement
import ShoeboxStore
import ShoeboxTestSupport
import Testing

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
        _ = try StoreJSON.importInto(imported, data: Data(exported), file: "store.json", today: CalendarDay(year: 2026, month: 12, day: 3)!)
        #expect(try imported.cancellations() == [Cancellation(merchant: "Netflix", day: CalendarDay(year: 2026, month: 11, day: 1)!)])
        #expect(try StoreJSON.export(imported) == exported)
        // A mark made later in the importing store stands; an earlier one gives way to the import's.
        try imported.cancel("Netflix", on: CalendarDay(year: 2026, month: 11, day: 20)!, at: "2026-11-25T09:00:00Z")
        _ = try StoreJSON.importInto(imported, data: Data(exported), file: "store.json", today: CalendarDay(year: 2026, month: 12, day: 3)!)
        #expect(try imported.cancellations().first?.day == CalendarDay(year: 2026, month: 11, day: 20))
    }
}
