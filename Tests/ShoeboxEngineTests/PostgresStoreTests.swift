import Foundation
import ShoeboxCore
import ShoeboxJudgement
import ShoeboxTestSupport
import Testing

@testable import ShoeboxStore

/// Issue 37, the store on PostgreSQL: the same store (`Store`, one SQL over two connections) on a real PostgreSQL server
/// the test starts, given the same writes as a SQLite store, reads back the same and exports the same JSON, byte for
/// byte; paths are ordered by their bytes whatever the database's collation; the schema is versioned and a newer one is
/// refused; a password in the URL is refused by name.
@Suite(.tags(.slow)) struct PostgresStoreTests {
    static let today = CalendarDay(year: 2026, month: 12, day: 4)!

    /// A record as a run stores it, with its keys, accepted or in review.
    static func record(_ path: String, merchant: String, total: String, reasons: [ReviewReason] = []) -> DocumentRecord {
        var r = DocumentRecord(
            source: path, folder: String(path.split(separator: "/").first ?? ""), sha256: SHA256.hex(of: Array(path.utf8)), status: .review)
        r.merchant = merchant
        r.date = CalendarDay(year: 2026, month: 3, day: 14)
        r.total = Money(decimal: total, currency: CurrencyCode("EUR")!)
        r.currency = CurrencyCode("EUR")
        r.merchantKeys = [MerchantKey(.phone, "030\(path.utf8.count)4711")]
        r.reasons = reasons
        r.status = reasons.isEmpty ? .accepted : .review
        return r
    }

    /// The same writes on any store, and what it reads back, as text: every read a desk, a run or an export makes.
    static func exercise(_ store: Store) throws -> [String] {
        let run = try store.beginRun(root: "/scans", pipeline: "default", started: "2026-12-04T08:00:00Z")
        let line = OCRLine(words: [OCRWord(text: "Bäckerei", box: BoundingBox(left: 10, top: 20, right: 210, bottom: 50), confidence: 91.5)])
        let page = OCRPage(pageNumber: 1, width: 1000, height: 1400, dpi: 300, source: .ocr, lines: [line])
        // Paths whose byte order is not a collation's: upper case before lower, an umlaut last.
        let records = [
            record("trip/b.jpg", merchant: "Bäckerei Müller", total: "3.68"),
            record("trip/B.jpg", merchant: "Kiosk", total: "2.10", reasons: [.lowConfidence(.merchant)]),
            record("trip/ä.jpg", merchant: "Café", total: "4.20", reasons: [.missing(.date)]),
            record("Z/a.jpg", merchant: "Netflix", total: "12.99")
        ]
        for r in records { try store.save(DocumentOutcome(record: r, size: 10, kind: .jpeg, pages: [page]), root: "/scans", runID: run) }
        try store.save(
            DocumentOutcome(
                record: .failed("trip/x.pdf", folder: "trip", sha256: String(repeating: "f", count: 64), failure: .encryptedPDF), size: 5, kind: .pdf,
                pages: []),
            root: "/scans", runID: run)
        try store.finishRun(run, finished: "2026-12-04T08:01:00Z")
        try store.decide(
            [(records[1], .edit(.merchant, .text("Kiosk am Tor"))), (records[1], ReviewDecision(action: .accept))],
            at: "2026-12-04T09:00:00Z", by: .terminal)
        try store.decide([(records[2], ReviewDecision(action: .reject))], at: "2026-12-04T09:01:00Z", by: .browser)
        _ = try store.undoLastDecision()
        try store.cancel("Netflix", on: CalendarDay(year: 2026, month: 1, day: 1)!, at: "2026-12-04T09:02:00Z")
        var out: [String] = []
        out.append("records " + (try store.records().map { $0.jsonLine() }.joined(separator: "\n")))
        out.append(
            "held " + (try store.held().sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.state) \($0.value.sha256)" }.joined(separator: ",")))
        out.append("effective " + (try store.effectiveRecords().map { $0.record.jsonLine() }.joined(separator: "\n")))
        out.append(
            "memory " + (try store.memory().sightings.map { "\($0.key.kind) \($0.key.value) \($0.merchant) \($0.source)" }.joined(separator: ",")))
        out.append(
            "log "
                + (try store.decisionLog().map { "\($0.path) \($0.decision.action) \($0.undone) \($0.before ?? "-") \($0.after ?? "-")" }.joined(
                    separator: ",")))
        out.append("pages " + (try store.pages(path: "trip/b.jpg").map { "\($0.pageNumber) \($0.width) \($0.text)" }.joined(separator: ",")))
        out.append("originals " + (try store.originalPaths(sha256: records[0].sha256, excluding: "other.jpg")).joined(separator: ","))
        out.append("cancellations " + (try store.cancellations().map { "\($0.merchant) \($0.day.iso)" }.joined(separator: ",")))
        out.append(
            "rescore \(try Rejudging.withMemory(in: store, merger: RecordMerger(acceptThreshold: 0.6, requiredFields: [.merchant], acceptPrecision: 0)))"
        )
        out.append("flagged " + (try Rejudging.chargesAfterCancellation(in: store, today: today)).map(\.source).joined(separator: ","))
        out.append("fingerprints \(try store.fingerprints().count) first pages \(try store.firstPageTexts().sorted { $0.key < $1.key }.map(\.value))")
        out.append("roots \(try store.roots().sorted { $0.key < $1.key }.map(\.key)) folder root \(try store.root(ofFolder: "trip") ?? "-")")
        return out
    }

    @Test func theSameWritesReadTheSameAndExportTheSameJSONOnSQLiteAndPostgreSQL() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sqlite = try Store(directory: dir.path)
        let postgres = try Store(postgresURL: try server.database("shoebox"))
        let a = try Self.exercise(sqlite)
        let b = try Self.exercise(postgres)
        for (x, y) in zip(a, b) { #expect(x == y) }
        #expect(a.count == b.count)
        #expect(a.first?.contains("\"source\":\"Z/a.jpg\"") == true)
        let json = try StoreJSON.export(sqlite)
        #expect(try StoreJSON.export(postgres) == json)

        // An export imported into a fresh PostgreSQL store exports the same again.
        let imported = try Store(postgresURL: try server.database("imported"))
        _ = try StoreJSON.importInto(imported, data: Data(json), file: "store.json", today: Self.today, learn: MerchantMemory.relearned)
        #expect(try StoreJSON.export(imported) == json)

        // Opening the store again finds its schema made; a schema from a newer Shoebox is refused, naming both versions.
        let url = try server.database("newer")
        _ = try Store(postgresURL: url)
        let again = try PostgresConnection(url: url)
        try again.execute("INSERT INTO shoebox_schema(version) VALUES (99)")
        #expect(throws: StoreError.self) { try Store(postgresURL: url) }
        do { _ = try Store(postgresURL: url) } catch {
            #expect(error.message.contains("schema version 99, newer than this Shoebox understands (\(Store.postgresMigrations.count))"))
        }
    }

    @Test func aURLWithAPasswordOrNoServerIsRefusedByName() throws {
        for url in ["postgresql://shoebox:secret@db.example/receipts", "postgresql:///receipts?host=/tmp&password=secret"] {
            do {
                _ = try Store(postgresURL: url)
                Issue.record("\(url) was taken")
            } catch { #expect(error.message.contains("holds a password"), "\(error.message)") }
        }
        #expect(!PostgresURL.hasPassword("postgresql://shoebox@db.example:5432/receipts?sslmode=require"))
        do {
            _ = try Store(postgresURL: "postgresql:///receipts?host=/nonexistent-shoebox-socket&user=postgres")
            Issue.record("a server that is not there was taken")
        } catch {
            #expect(error.message.hasPrefix("cannot reach the store postgresql:///receipts"), "\(error.message)")
            #expect(error.kind == .unreachable && !error.message.contains("\n") && !error.message.contains("?."), "\(error.message)")
        }
    }
}
