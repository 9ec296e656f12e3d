import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxExport

/// The one column definition and what is derived from it: CSV in both profiles, totals, the ledger, and
/// categories from what the user set.
struct ExportTableTests {
    func record(
        _ source: String, merchant: String?, total: Int64, currency: CurrencyCode = .eur, date: String? = "2026-03-14",
        tax: [(String?, Int64)] = []
    ) -> DocumentRecord {
        var r = DocumentRecord(source: source, folder: "f", sha256: String(repeating: "a", count: 64), status: .accepted)
        r.merchant = merchant
        r.total = Money(minorUnits: total, currency: currency)
        r.currency = currency
        r.date = date.flatMap(CalendarDay.init(iso:))
        r.tax = tax.map { TaxLine(rate: $0.0, amount: Money(minorUnits: $0.1, currency: currency)) }
        r.reviewedBy = "pipeline"
        return r
    }

    func row(_ r: DocumentRecord, category: String? = nil) -> ExportRow {
        ExportRow(record: r, category: category, fileInZip: "receipts/x.jpg", originalPath: "/scans/" + r.source)
    }

    @Test func aTaxColumnPerRateAndTheNetComputedInMinorUnits() {
        let a = record("f/a.jpg", merchant: "REWE Markt GmbH", total: 1190, tax: [("19", 190)])
        let b = record("f/b.jpg", merchant: "Bäckerei", total: 535, tax: [("7", 35), (nil, 0)])
        let table = ExportTable(rows: [row(a), row(b)])
        #expect(table.header.filter { $0.hasPrefix("tax_") } == ["tax_7", "tax_19", "tax_unrated"])
        let cells = table.cells(row(a))
        #expect(cells[table.header.firstIndex(of: "net")!] == .amount(Money(minorUnits: 1000, currency: .eur)))
        #expect(cells[table.header.firstIndex(of: "tax_7")!] == .empty)
        let none = ExportTable(rows: [row(record("f/c.jpg", merchant: "X", total: 100))])
        #expect(none.cells(none.rows[0])[none.header.firstIndex(of: "net")!] == .empty, "no tax read: no net invented")
    }

    @Test func textThatWouldRunAsAFormulaIsNeutralisedAndAmountsStayNumbers() {
        for bad in ["=1+2", "+1", "-1", "@SUM(A1)", "\tx", "\rx"] { #expect(SpreadsheetText.neutralised(bad) == "'" + bad) }
        #expect(SpreadsheetText.neutralised("REWE") == "REWE")
        let refund = record("f/r.jpg", merchant: "=HYPERLINK(\"http://x\",\"y\")", total: -350)
        let csv = CSVWriter.text(of: ExportTable(rows: [row(refund)]), profile: .rfc4180)
        let line = csv.split(separator: "\r\n")[1]
        #expect(line.hasPrefix("2026-03-14,\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",-3.50,EUR,"), "\(line)")
    }

    @Test func theEuropeanProfileHasABOMSemicolonsAndDecimalCommas() {
        let r = record("f/a;b.jpg", merchant: "Müller; Söhne", total: 123456, tax: [("19", 19711)])
        let csv = CSVWriter.text(of: ExportTable(rows: [row(r)]), profile: .excelEU)
        #expect(csv.hasPrefix("\u{FEFF}date;merchant;total;currency;net;tax_19;"))
        let line = String(csv.split(separator: "\r\n")[1])
        #expect(line.hasPrefix("2026-03-14;\"Müller; Söhne\";1234,56;EUR;1037,45;197,11;"), "\(line)")
        #expect(line.contains(";\"f/a;b.jpg\";"))
        #expect(CSVWriter.text(of: ExportTable(rows: [row(r)]), profile: .rfc4180).contains(",\"Müller; Söhne\",") == false)
    }

    @Test func totalsArePerCurrencyAndCategoryAndExact() {
        let rows = [
            row(record("f/1.jpg", merchant: "A", total: 10), category: "medical"),
            row(record("f/2.jpg", merchant: "B", total: 20), category: "medical"),
            row(record("f/3.jpg", merchant: "C", total: 70, currency: .usd), category: "work trip"),
            row(record("f/4.jpg", merchant: "D", total: 1), category: nil)
        ]
        let text = ExportSummaries.totals(ExportTable(rows: rows), profile: .rfc4180)
        #expect(
            text == """
                group,category,currency,records,total,tax,net\r
                currency,,EUR,3,0.31,0.00,\r
                currency,,USD,1,0.70,0.00,\r
                category,,EUR,1,0.01,0.00,\r
                category,medical,EUR,2,0.30,0.00,\r
                category,work trip,USD,1,0.70,0.00,\r

                """)
    }

    @Test func theLedgerFlagsEveryRecordAndPointsAtItsDocument() {
        var r = record("f/1.jpg", merchant: "Café \"Zum Löwen\"", total: 1480)
        r.referenceNumber = "4711"
        r.documentKind = .receipt
        let ledger = ExportSummaries.beancount(
            ExportTable(rows: [row(r, category: "work trip"), row(record("f/2.jpg", merchant: nil, total: 5, date: nil))]))
        #expect(ledger.contains("2026-03-14 open Expenses:WorkTrip\n"))
        #expect(ledger.contains("2026-03-14 ! \"Café \\\"Zum Löwen\\\"\" \"receipt 4711\"\n  document: \"receipts/x.jpg\"\n"))
        #expect(ledger.contains("  Expenses:WorkTrip  14.80 EUR\n  Liabilities:ToReconcile  -14.80 EUR\n"))
        #expect(ledger.contains("; not booked (no date): receipts/x.jpg 0.05 EUR\n"), "an undated record cannot be booked, but is named")
        #expect(ExportSummaries.expenseAccount("médical / santé") == "Expenses:MedicalSante")
        #expect(ExportSummaries.expenseAccount("42") == "Expenses:Uncategorized")
        #expect(ExportSummaries.expenseAccount(nil) == "Expenses:Uncategorized")
    }

    @Test func categoriesComeOnlyFromWhatTheUserSet() throws {
        let rules = [CategoryRule(keyword: "apotheke", category: "medical"), CategoryRule(keyword: "taxi", category: "travel")]
        let settings = try FolderSettings.parse(Data(#"{"defaultCategory": "work trip", "categories": ["work trip", "medical"]}"#.utf8), file: "x")
        #expect(settings.category(for: record("f/1.jpg", merchant: "Löwen-Apotheke", total: 1), rules: rules) == "medical")
        #expect(settings.category(for: record("f/2.jpg", merchant: "Taxi Funk", total: 1), rules: rules) == "work trip", "travel is not allowed here")
        #expect(FolderSettings().category(for: record("f/2.jpg", merchant: "Taxi Funk", total: 1), rules: rules) == "travel")
        #expect(FolderSettings().category(for: record("f/3.jpg", merchant: "REWE", total: 1), rules: rules) == nil, "never invented")
        #expect(throws: FolderSettings.SettingsError.self) {
            try FolderSettings.parse(Data(#"{"defaultCategory": "x", "categories": ["y"]}"#.utf8), file: "x")
        }
        #expect(throws: FolderSettings.SettingsError.self) { try FolderSettings.parse(Data(#"{"categorys": []}"#.utf8), file: "x") }
        #expect(throws: FolderSettings.SettingsError.self) { try FolderSettings.parse(Data("[1]".utf8), file: "x") }
    }
}
