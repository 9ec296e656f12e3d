import Foundation
import ShoeboxCore
import ShoeboxEInvoice
import ShoeboxJudgement
import ShoeboxTestSupport
import Testing

/// An e-invoice's lines become the record's items exactly: every top-level line, its net amount signed as the record
/// stores amounts, quantity, unit, unit price and rate as the XML writes them; proven when they sum to the stated line
/// total.
@Suite struct EInvoiceItemTests {
    static let files = [
        "einv-cii-creditnote-381.xml", "einv-cii-usd.xml", "einv-ubl-creditnote.xml", "einv-xrechnung-cii.xml",
        "einv-xrechnung-ubl.xml", "einv-zugferd1.xml"
    ]

    @Test(arguments: files) func everyLineIsAnItemAndTheySumToTheLineTotal(file: String) throws {
        let bytes = try [UInt8](Data(contentsOf: fixtures.appendingPathComponent("receipts/\(file)")))
        let invoice = try EInvoiceReader.read(bytes).get()
        let (items, check) = RecordMerger.eInvoiceItems(invoice)
        let lines = invoice.lines.filter { $0.parentID == nil }
        #expect(!lines.isEmpty)
        #expect(items.count == lines.count)
        #expect(check == .lineTotal)
        #expect(LineItem.sum(items) == invoice.recorded(invoice.totals.lineTotal)?.minorUnits)
        for (item, line) in zip(items, lines) {
            #expect(item.description == line.name)
            #expect(item.quantity == line.quantity)
            #expect(item.unitPrice == line.unitPrice)
            #expect(item.taxRate == line.taxRate)
            #expect(item.amount == invoice.recorded(line.net))
            #expect(item.source == .eInvoice)
        }
    }

    /// BASIC WL and MINIMUM state no lines: the record has no items, and no check.
    @Test(arguments: ["einv-cii-basicwl.xml", "einv-cii-minimum.xml"]) func profilesWithoutLinesGiveNoItems(file: String) throws {
        let bytes = try [UInt8](Data(contentsOf: fixtures.appendingPathComponent("receipts/\(file)")))
        let (items, check) = RecordMerger.eInvoiceItems(try EInvoiceReader.read(bytes).get())
        #expect(items.isEmpty && check == nil)
    }

    @Test func aLineTotalTheLinesDoNotMakeLeavesThemUnproven() throws {
        let bytes = try [UInt8](Data(contentsOf: fixtures.appendingPathComponent("receipts/einv-xrechnung-cii.xml")))
        var invoice = try EInvoiceReader.read(bytes).get()
        let stated = try #require(invoice.totals.lineTotal)
        invoice.totals.lineTotal = Money(minorUnits: stated.minorUnits + 1, currency: stated.currency)
        let (items, check) = RecordMerger.eInvoiceItems(invoice)
        #expect(!items.isEmpty)
        #expect(check == .unproven)
        // The mismatch is a reason of its own, named for a person.
        #expect(invoice.problems().contains { $0.rule == "line total = sum of the lines" })
    }
}
