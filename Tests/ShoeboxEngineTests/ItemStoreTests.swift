import Foundation
import ShoeboxCore
import ShoeboxJudgement
import ShoeboxTestSupport
import Testing

@testable import ShoeboxStore

/// A record's line items travel with it: stored, corrected by a person through the one decision path, exported as the
/// store's JSON and imported into another store unchanged.
struct ItemStoreTests {
    @Test func itemsAndAPersonsCorrectionTravelThroughExportAndImport() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try Store(directory: dir.path)
        let eur = CurrencyCode("EUR")!
        var r = DocumentRecord(source: "trip/bon.jpg", folder: "trip", sha256: String(repeating: "b", count: 64), status: .review)
        r.currency = eur
        r.total = Money(minorUnits: 263, currency: eur)
        r.reasons = [.lowConfidence(.date)]
        r.items = [
            LineItem(
                description: "Milch", quantity: "2", unitPrice: "1.19", amount: Money(minorUnits: 238, currency: eur), taxCode: "B", source: .ocr),
            LineItem(kind: .deposit, description: "Pfand", amount: Money(minorUnits: 25, currency: eur), source: .ocr)
        ]
        r.itemsCheck = .total
        let run = try store.beginRun(root: "/scans", pipeline: "default", started: "2026-12-05T00:00:00Z")
        try store.save(DocumentOutcome(record: r, size: 10, kind: .jpeg, pages: []), root: "/scans", runID: run)
        let edit = try Review.edit(field: "item", value: "1 description=Vollmilch", record: r, today: CalendarDay(year: 2026, month: 12, day: 5)!)
            .get()
        try store.decide([(r, edit)], at: "2026-12-05T10:00:00Z", by: .browser)
        let corrected = try #require(try store.effectiveRecords().first { $0.record.source == r.source })
        #expect(corrected.suggestion.items == r.items)
        #expect(corrected.record.items.map(\.description) == ["Vollmilch", "Pfand"] && corrected.record.itemsCheck == .person)

        let exported = try StoreJSON.export(store)
        let other = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: other) }
        let imported = try Store(directory: other.path)
        _ = try StoreJSON.importInto(
            imported, data: Data(exported), file: "store.json", today: CalendarDay(year: 2026, month: 12, day: 5)!, learn: MerchantMemory.relearned)
        #expect(try StoreJSON.export(imported) == exported)
        let back = try #require(try imported.effectiveRecords().first { $0.record.source == r.source })
        #expect(back.record.items == corrected.record.items && back.suggestion.items == r.items)
    }
}
