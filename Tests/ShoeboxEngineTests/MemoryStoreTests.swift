import Foundation
import ShoeboxCore
import ShoeboxJudgement
import ShoeboxStore
import ShoeboxTestSupport
import Testing

/// The merchant memory in a real SQLite store: learned from a person's decisions only, taken back by undo and reject,
/// forgotten by key, carried by the JSON export, and applied to the records in review by `rescore`.
struct MemoryStoreTests {
    static let tax = MerchantKey(.taxID, "001531760640")
    static let phone = MerchantKey(.phone, "62827311")
    let merger = RecordMerger(acceptThreshold: 0.6, requiredFields: [.merchant, .date, .total, .currency], acceptPrecision: 0)

    /// A record as a run would store it: read fields, its keys, in review for `reasons` (accepted without).
    static func record(_ path: String, merchant: String, keys: [MerchantKey], reasons: [ReviewReason] = [.lowConfidence(.merchant)])
        -> DocumentRecord
    {
        var r = DocumentRecord(source: path, folder: "books", sha256: SHA256.hex(of: Array(path.utf8)), status: .review)
        r.merchant = merchant
        r.confidence[.merchant] = 0.4
        r.evidence[.merchant] = FieldEvidence(source: .ocr)
        r.date = CalendarDay(year: 2026, month: 3, day: 14)
        r.confidence[.date] = 0.99
        r.total = Money(decimal: "12.50", currency: CurrencyCode("MYR")!)
        r.currency = CurrencyCode("MYR")
        r.confidence[.total] = 0.99
        r.confidence[.currency] = 0.99
        r.merchantKeys = keys
        r.reasons = reasons
        r.status = reasons.isEmpty ? .accepted : .review
        return r
    }

    func store(_ records: [DocumentRecord]) throws -> (Store, URL) {
        let dir = try temporaryDirectory()
        let store = try Store(directory: dir.path)
        let run = try store.beginRun(root: "/scans", pipeline: "default", started: "2026-11-30T00:00:00Z")
        for r in records { try store.save(DocumentOutcome(record: r, size: 10, kind: .jpeg, pages: []), root: "/scans", runID: run) }
        return (store, dir)
    }

    @Test func aPersonsDecisionTeachesAndUndoOrRejectTakesItBack() throws {
        let a = Self.record("books/a.jpg", merchant: "Address line 3", keys: [Self.tax, Self.phone])
        let auto = Self.record("books/auto.jpg", merchant: "Kedai Auto", keys: [MerchantKey(.taxID, "777")], reasons: [])
        let (store, dir) = try store([a, auto])
        defer { try? FileManager.default.removeItem(at: dir) }
        // Accepted by the pipeline alone: nothing learned.
        #expect(try store.memory().isEmpty)

        try store.decide(
            [(a, .edit(.merchant, .text("Kedai Buku Cahaya"))), (a, ReviewDecision(action: .accept))],
            at: "2026-12-01T09:00:00Z", by: .terminal)
        let learned = try store.memory()
        #expect(Set(learned.sightings.map(\.key)) == [Self.tax, Self.phone])
        #expect(learned.sightings.allSatisfy { $0.merchant == "Kedai Buku Cahaya" && $0.currency == "MYR" && $0.source == "books/a.jpg" })
        #expect(learned.recall([Self.tax])?.merchant == "Kedai Buku Cahaya")

        // Undo the accept: in review again, it teaches nothing; undo the edit too, then reject: still nothing.
        _ = try store.undoLastDecision()
        #expect(try store.memory().isEmpty)
        try store.decide([(a, ReviewDecision(action: .accept))], at: "2026-12-01T09:05:00Z", by: .browser)
        #expect(try store.memory().recall([Self.tax])?.merchant == "Kedai Buku Cahaya")
        let now = try #require(try store.effectiveRecord(path: "books/a.jpg")?.record)
        try store.decide([(now, ReviewDecision(action: .reject))], at: "2026-12-01T09:06:00Z", by: .browser)
        #expect(try store.memory().isEmpty)
    }

    @Test func aKeyIsForgottenUntilARecordTeachesItAgain() throws {
        let a = Self.record("books/a.jpg", merchant: "Kedai Buku Cahaya", keys: [Self.tax, Self.phone])
        let b = Self.record("books/b.jpg", merchant: "Kedai Buku Cahaya", keys: [Self.tax])
        let (store, dir) = try store([a, b])
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.decide([(a, ReviewDecision(action: .accept))], at: "2026-12-01T09:00:00Z", by: .apply)
        #expect(try store.forget(Self.tax) == 1)
        #expect(try store.forget(Self.tax) == 0)
        #expect(try store.memory().sightings.map(\.key) == [Self.phone])
        try store.decide([(b, ReviewDecision(action: .accept))], at: "2026-12-01T09:01:00Z", by: .apply)
        #expect(try store.memory().sightings.map(\.key).sorted() == [Self.phone, Self.tax])
    }

    @Test func rescoreJudgesTheQueueAgainWithWhatWasLearned() throws {
        let a = Self.record("books/a.jpg", merchant: "Address line 3", keys: [Self.tax])
        // An item line the parser only might have meant as a name (a logo it cannot read above it).
        let b = Self.record("books/b.jpg", merchant: "3 x Pensel", keys: [Self.tax])
        let c = Self.record("books/c.jpg", merchant: "Other Shop", keys: [MerchantKey(.taxID, "999")])
        // A name the page prints clearly, and another than the one people confirmed for this tax ID.
        var d = Self.record("books/d.jpg", merchant: "Popular Book Co", keys: [Self.tax])
        d.confidence[.merchant] = 0.9
        let (store, dir) = try store([a, b, c, d])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try Rejudging.withMemory(in: store, merger: merger) == Rescored(looked: 4, changed: [], accepted: []))
        try store.decide(
            [(a, .edit(.merchant, .text("Kedai Buku Cahaya"))), (a, ReviewDecision(action: .accept))],
            at: "2026-12-01T09:00:00Z", by: .browser)
        let done = try Rejudging.withMemory(in: store, merger: merger)
        #expect(done == Rescored(looked: 3, changed: ["books/b.jpg", "books/d.jpg"], accepted: ["books/b.jpg"]))
        let judged = try #require(try store.effectiveRecord(path: "books/b.jpg")?.record)
        #expect(judged.merchant == "Kedai Buku Cahaya" && judged.evidence[.merchant]?.source == .memory && judged.status == .accepted)
        #expect(judged.alternates[.merchant]?.first?.value == "3 x Pensel")
        let shown = try #require(try store.effectiveRecord(path: "books/d.jpg")?.record)
        #expect(shown.reasons.contains(.memoryDisagrees(.merchant)) && shown.status == .review)
        #expect(shown.merchant == "Kedai Buku Cahaya" && shown.alternates[.merchant]?.first?.value == "Popular Book Co")
        // Again: nothing more to change; the page's record is kept beneath, so rescoring never compounds.
        #expect(try Rejudging.withMemory(in: store, merger: merger).changed.isEmpty)

        // The memory and the page's record travel with the JSON export.
        let json = try StoreJSON.export(store)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""key":"tax-id:001531760640""#) && text.contains(#""pageSuggestion""#))
        let other = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: other) }
        let imported = try Store(directory: other.path)
        _ = try StoreJSON.importInto(
            imported, data: Data(json), file: "s.json", today: CalendarDay(year: 2026, month: 12, day: 2)!, learn: MerchantMemory.relearned)
        #expect(try imported.memory() == store.memory())
        #expect(try StoreJSON.export(imported) == json)
        #expect(try Rejudging.withMemory(in: imported, merger: merger).changed.isEmpty)
    }

    @Test func anExportFromBeforeTheMemoryLearnsAgainFromItsDecisions() throws {
        let a = Self.record("books/a.jpg", merchant: "Kedai Buku Cahaya", keys: [Self.tax])
        let (store, dir) = try store([a])
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.decide([(a, ReviewDecision(action: .accept))], at: "2026-12-01T09:00:00Z", by: .terminal)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(StoreJSON.export(store))) as? [String: Any])
        object["memory"] = nil
        let other = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: other) }
        let imported = try Store(directory: other.path)
        _ = try StoreJSON.importInto(
            imported, data: try JSONSerialization.data(withJSONObject: object), file: "old.json", today: CalendarDay(year: 2026, month: 12, day: 2)!,
            learn: MerchantMemory.relearned)
        #expect(try imported.memory().recall([Self.tax])?.merchant == "Kedai Buku Cahaya")

        // A memory item that is no key is refused, and nothing is imported.
        object["memory"] = [["key": "fax:123", "merchant": "X", "source": "books/a.jpg", "at": "t"]]
        let third = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: third) }
        #expect {
            _ = try StoreJSON.importInto(
                try Store(directory: third.path), data: try JSONSerialization.data(withJSONObject: object), file: "bad.json",
                today: CalendarDay(year: 2026, month: 12, day: 2)!, learn: MerchantMemory.relearned)
        } throws: { "\($0)".contains("memory item 1: \"key\" must be kind:value") }
    }
}
