import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxExport

/// What exports make of e-invoices: the finance columns (net per rate, due date, seller VAT ID, amount due),
/// credit notes' negative amounts in every summary, and the HTML page rendered from the XML.
struct EInvoiceExportTests {
    static let eur = CurrencyCode("EUR")!

    static func money(_ text: String) -> Money { Money(decimal: text, currency: eur)! }

    /// A credit note of 100.00 net at 19 % and 20.00 net at 7 %, as the XML states it (positive amounts).
    static func creditNote(seller: String = "Evil <script>alert(1)</script> & Co") -> EInvoice {
        var e = EInvoice(syntax: .ubl)
        e.number = "CN-2026-7"
        e.typeCode = "381"
        e.issueDate = CalendarDay(iso: "2026-11-02")
        e.dueDate = CalendarDay(iso: "2026-11-30")
        e.currency = eur
        e.paymentTerms = ["Refund within 28 days <net>"]
        e.seller.name = seller
        e.seller.vatID = "DE123456789"
        e.seller.taxNumber = "201/113/40209"
        e.seller.addressLines = ["Lieferstraße 1"]
        e.seller.postcode = "10115"
        e.seller.city = "Berlin"
        e.seller.country = "DE"
        e.buyer.name = "Käufer GmbH"
        var line = EInvoice.Line()
        line.id = "1"
        line.name = "Returned chairs"
        line.quantity = "2"
        line.unitCode = "C62"
        line.unitPrice = "50.00"
        line.net = money("100.00")
        line.taxCategory = "S"
        line.taxRate = "19"
        var sub = EInvoice.Line()
        sub.id = "1.1"
        sub.parentID = "1"
        sub.name = "Chair legs"
        sub.net = money("40.00")
        var books = EInvoice.Line()
        books.id = "2"
        books.name = "Returned book"
        books.net = money("20.00")
        books.taxCategory = "S"
        books.taxRate = "7"
        e.lines = [line, sub, books]
        var standard = EInvoice.TaxRow()
        standard.category = "S"
        standard.rate = "19"
        standard.basis = money("100.00")
        standard.amount = money("19.00")
        var reduced = EInvoice.TaxRow()
        reduced.category = "S"
        reduced.rate = "7"
        reduced.basis = money("20.00")
        reduced.amount = money("1.40")
        e.taxes = [standard, reduced]
        e.totals.lineTotal = money("120.00")
        e.totals.taxBasis = money("120.00")
        e.totals.tax = money("20.40")
        e.totals.grand = money("140.40")
        e.totals.due = money("140.40")
        var means = EInvoice.PaymentMeans()
        means.code = "58"
        means.iban = "DE02120300000000202051"
        e.paymentMeans = [means]
        return e
    }

    /// The record of that credit note as the merge makes it: every amount negated.
    static func creditRecord(_ source: String = "inv/credit.xml") -> DocumentRecord {
        let e = creditNote()
        var r = DocumentRecord(source: source, folder: "inv", sha256: String(repeating: "b", count: 64), status: .accepted)
        r.documentKind = .creditNote
        r.merchant = e.seller.name
        r.date = e.issueDate
        r.dueDate = e.dueDate
        r.total = money("-140.40")
        r.subtotal = money("-120.00")
        r.currency = eur
        r.tax = [
            TaxLine(rate: "19", amount: money("-19.00"), basis: money("-100.00"), category: "S"),
            TaxLine(rate: "7", amount: money("-1.40"), basis: money("-20.00"), category: "S")
        ]
        r.referenceNumber = e.number
        r.sellerTaxID = e.seller.vatID
        r.eInvoice = e
        r.reviewedBy = "pipeline"
        return r
    }

    static func receipt(_ source: String, total: String, tax: [(String, String)]) -> DocumentRecord {
        var r = DocumentRecord(source: source, folder: "inv", sha256: String(repeating: "a", count: 64), status: .accepted)
        r.merchant = "REWE"
        r.date = CalendarDay(iso: "2026-11-01")
        r.total = money(total)
        r.currency = eur
        r.tax = tax.map { TaxLine(rate: $0.0, amount: money($0.1)) }
        r.reviewedBy = "pipeline"
        return r
    }

    func row(_ r: DocumentRecord, category: String? = nil) -> ExportRow {
        ExportRow(record: r, category: category, fileInZip: "receipts/\(r.source.split(separator: "/").last!)", originalPath: "/scans/" + r.source)
    }

    func cell(_ table: ExportTable, _ r: DocumentRecord, _ column: String) -> ExportCell? {
        guard let i = table.header.firstIndex(of: column) else { return nil }
        return table.cells(row(r))[i]
    }

    @Test func receiptsKeepTheirColumnsAndGainTheEmptyFinanceOnes() {
        let table = ExportTable(rows: [row(Self.receipt("inv/a.jpg", total: "11.90", tax: [("19", "1.90")]))])
        #expect(!table.header.contains { $0.hasPrefix("net_") }, "no basis anywhere: no net_<rate> column: \(table.header)")
        #expect(table.header.filter { $0.hasPrefix("tax_") } == ["tax_19"])
        for column in ["due_date", "seller_tax_id", "amount_due"] {
            #expect(cell(table, table.rows[0].record, column) == .empty, "\(column)")
        }
        #expect(cell(table, table.rows[0].record, "net") == .amount(Self.money("10.00")), "total − tax, as before")
        #expect(!table.header.contains("invoice_number"), "the invoice number is reference_number: one column")
    }

    @Test func anEInvoiceBringsNetPerRateDueDateAndSellerVATID() {
        var invoice = Self.creditRecord()
        // The same invoice as an invoice: positive amounts.
        invoice.documentKind = .invoice
        invoice.eInvoice?.typeCode = "380"
        invoice.total = Self.money("140.40")
        invoice.tax = [
            TaxLine(rate: "19", amount: Self.money("19.00"), basis: Self.money("100.00"), category: "S"),
            TaxLine(rate: "7", amount: Self.money("1.40"), basis: Self.money("20.00"), category: "S")
        ]
        // A receipt whose tip would make total − tax wrong for a net: the bases decide for the e-invoice.
        let receipt = Self.receipt("inv/r.jpg", total: "5.35", tax: [("7", "0.35")])
        let table = ExportTable(rows: [row(invoice), row(receipt)])
        #expect(
            table.header.filter { $0.hasPrefix("tax_") || $0.hasPrefix("net_") } == ["tax_7", "tax_19", "net_7", "net_19"],
            "stable and sorted: \(table.header)")
        #expect(cell(table, invoice, "net") == .amount(Self.money("120.00")))
        #expect(cell(table, invoice, "net_19") == .amount(Self.money("100.00")))
        #expect(cell(table, invoice, "net_7") == .amount(Self.money("20.00")))
        #expect(cell(table, invoice, "due_date") == .date(CalendarDay(iso: "2026-11-30")!))
        #expect(cell(table, invoice, "seller_tax_id") == .text("DE123456789"))
        #expect(cell(table, invoice, "reference_number") == .text("CN-2026-7"))
        #expect(cell(table, invoice, "amount_due") == .amount(Self.money("140.40")))
        #expect(cell(table, receipt, "net_7") == .empty, "a receipt's tax line states no basis: no net invented")
        #expect(cell(table, receipt, "net") == .amount(Self.money("5.00")))
        // A basis on one line of a rate but not the other: no partial sum.
        var mixed = invoice
        mixed.tax.append(TaxLine(rate: "19", amount: Self.money("1.00")))
        #expect(cell(ExportTable(rows: [row(mixed)]), mixed, "net_19") == .empty)
        #expect(cell(ExportTable(rows: [row(mixed)]), mixed, "net") == .amount(Self.money("119.00")), "total − tax − tip then")
        // A sum of bases that would overflow leaves the cell empty, never traps.
        var huge = invoice
        let max = Money(minorUnits: .max, currency: Self.eur)
        huge.tax = [TaxLine(rate: "19", amount: Self.money("1.00"), basis: max), TaxLine(rate: "19", amount: Self.money("1.00"), basis: max)]
        #expect(cell(ExportTable(rows: [row(huge)]), huge, "net_19") == .empty)
    }

    @Test func aCreditNoteIsNegativeInTheCSVAndItsTotals() throws {
        let credit = Self.creditRecord()
        let receipt = Self.receipt("inv/a.jpg", total: "11.90", tax: [("19", "1.90")])
        let table = ExportTable(rows: [row(credit), row(receipt)])
        #expect(cell(table, credit, "total") == .amount(Self.money("-140.40")))
        #expect(cell(table, credit, "net") == .amount(Self.money("-120.00")))
        #expect(cell(table, credit, "tax_19") == .amount(Self.money("-19.00")))
        #expect(cell(table, credit, "net_7") == .amount(Self.money("-20.00")))
        #expect(cell(table, credit, "amount_due") == .amount(Self.money("-140.40")), "the XML's positive due, negated as the total is")
        #expect(cell(table, credit, "document_kind") == .text("credit-note"))
        // A credit note whose XML already states negative amounts: the record keeps them, and so does the due amount.
        var stated = credit
        stated.eInvoice?.totals.grand = Self.money("-140.40")
        stated.eInvoice?.totals.due = Self.money("-140.40")
        #expect(cell(table, stated, "amount_due") == .amount(Self.money("-140.40")))
        // A total a person changed is no longer the gross: a credit note's due amount is negated then.
        var edited = credit
        edited.total = Self.money("-100.00")
        #expect(cell(table, edited, "amount_due") == .amount(Self.money("-140.40")))

        let csv = CSVWriter.text(of: table, profile: .rfc4180)
        let lines = csv.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = lines[0]
        let creditLine = try #require(lines.first { $0.contains("inv/credit.xml") })
        func value(_ column: String) -> String { creditLine[header.firstIndex(of: column)!] }
        #expect(value("total") == "-140.40" && value("net") == "-120.00" && value("tax_19") == "-19.00" && value("tax_7") == "-1.40")
        #expect(value("net_19") == "-100.00" && value("amount_due") == "-140.40" && value("due_date") == "2026-11-30")
        #expect(!value("merchant").hasPrefix("'"), "a name is text; only formula starts are neutralised")
        let eu = CSVWriter.text(of: table, profile: .excelEU)
        #expect(eu.contains(";-140,40;EUR;-120,00;"), "decimal comma, the minus kept: \(eu)")

        // Per currency: 11.90 − 140.40, tax 1.90 − 20.40, net 10.00 − 120.00; exact, in minor units.
        let totals = ExportSummaries.totals(table, profile: .rfc4180)
        #expect(totals.contains("currency,,EUR,2,-128.50,-18.50,-110.00\r\n"), "\(totals)")
        // A group with a record without a net (no tax read) leaves its net empty instead of a partial sum.
        let partial = ExportSummaries.totals(
            ExportTable(rows: [row(credit), row(Self.receipt("inv/b.jpg", total: "3.00", tax: []))]), profile: .rfc4180)
        #expect(partial.contains("currency,,EUR,2,-137.40,-20.40,\r\n"), "\(partial)")
    }

    @Test func aCreditNoteCreditsTheExpenseAccountAndEveryTransactionBalances() throws {
        let credit = Self.creditRecord()
        let receipt = Self.receipt("inv/a.jpg", total: "11.90", tax: [("19", "1.90")])
        let ledger = ExportSummaries.beancount(ExportTable(rows: [row(credit, category: "office"), row(receipt, category: "office")]))
        #expect(ledger.contains("2026-11-02 ! \"Evil <script>alert(1)</script> & Co\" \"credit-note CN-2026-7\"\n"), "\(ledger)")
        #expect(ledger.contains("  Expenses:Office  -140.40 EUR\n  Liabilities:ToReconcile  140.40 EUR\n"), "\(ledger)")
        #expect(ledger.contains("  Expenses:Office  11.90 EUR\n  Liabilities:ToReconcile  -11.90 EUR\n"))
        // Beancount requires each transaction's postings to sum to zero per currency (bean-check is not
        // installed): parsed here from the text, in cents.
        let transactions = ledger.components(separatedBy: "\n\n").filter { $0.hasPrefix("2026-") && $0.contains(" ! ") }
        #expect(transactions.count == 2)
        for t in transactions {
            var sums: [String: Int64] = [:]
            for line in t.split(separator: "\n") where line.hasPrefix("  ") && !line.contains(":  \"") && !line.contains(": \"") {
                let parts = line.split(separator: " ")
                let units = try #require(Money.minorUnits(fromDecimal: String(parts[parts.count - 2]), digits: 2), "\(line)")
                sums[String(parts[parts.count - 1]), default: 0] += units
            }
            #expect(sums == ["EUR": 0], "\(t)")
        }
    }

    @Test func theHTMLPageIsSelfContainedEscapedAndComplete() {
        var record = Self.creditRecord()
        record.eInvoiceProblems = ["gross = net + tax: the invoice states 1 < 2"]
        let html = EInvoiceHTML.render(Self.creditNote(), record: record)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.hasSuffix("</html>\n"))
        #expect(!html.lowercased().contains("<script"), "the seller's <script> is text, never markup")
        #expect(html.contains("Evil &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co"))
        #expect(html.contains("Refund within 28 days &lt;net&gt;"))
        #expect(html.contains("1 &lt; 2"), "the problems are shown, escaped")
        for needle in [
            "<h1>Credit note CN-2026-7</h1>", "VAT ID: DE123456789", "Tax number: 201/113/40209", "Lieferstraße 1", "10115 Berlin",
            "Käufer GmbH", "credit note (381)", "2026-11-02", "2026-11-30", "<td>EUR</td>", "Returned chairs",
            "<tr class=\"sub\"><td>1.1</td><td class=\"item\">Chair legs</td>", "<td class=\"num\">19 %</td>",
            "<td class=\"num\">100.00</td><td class=\"num\">19.00</td>", "Gross</th><td class=\"num\">140.40 EUR",
            "Amount due</th><td class=\"num\">140.40 EUR", "credit transfer (58)", "DE02120300000000202051", "Indented lines are sub-lines",
            "Rendered by Shoebox from the XML e-invoice credit.xml (UBL 2.1), which is the legal original"
        ] {
            #expect(html.contains(needle), "\(needle)")
        }
        // Nothing loaded from elsewhere: no link, image, script, frame or URL.
        for bad in ["<link", "<img", "<iframe", "http:", "https:", "src=", "href="] { #expect(!html.contains(bad), "\(bad)") }
        #expect(EInvoiceHTML.render(Self.creditNote(), record: record) == html, "the same invoice gives the same bytes")
        #expect(EInvoiceHTML.escape("a\u{0}b\u{7}c'\"") == "a\u{FFFD}b\u{FFFD}c&#39;&quot;")
        // A parent cycle in the file cannot loop.
        var cyclic = Self.creditNote()
        cyclic.lines[0].parentID = "1.1"
        #expect(EInvoiceHTML.render(cyclic, record: record).contains("Returned chairs"))
    }

    @Test func anXMLAndItsPageStayAPairOfNames() {
        let names = ExportNaming.uniqueNames([
            (base: "x", ext: "html", companion: nil), (base: "x", ext: "xml", companion: "html"), (base: "x", ext: "xml", companion: "html"),
            (base: "x", ext: "jpg", companion: nil)
        ])
        #expect(names.map(\.name) == ["x.html", "x_2.xml", "x_3.xml", "x.jpg"])
        #expect(names.map(\.companion) == [nil, "x_2.html", "x_3.html", nil])
        #expect(ExportNaming.uniqueNames([(base: "a", ext: "jpg"), (base: "a", ext: "JPG")]) == ["a.jpg", "a_2.JPG"])
    }
}
