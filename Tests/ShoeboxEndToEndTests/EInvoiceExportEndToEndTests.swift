import Foundation
import ShoeboxTestSupport
import Testing

@testable import ShoeboxCore

/// Issue 17, items 4 and 5, on the built binary: a store holding e-invoice records (brought in with
/// `shoebox import`, as a run will write them) exported to a zip read back by real tools (unzip, zipinfo, Python's
/// zipfile, csv and openpyxl). A standalone XML goes in byte for byte with Shoebox's HTML page beside it; a
/// credit note is negative in the CSV, the XLSX, summary.json, totals.csv, the ledger and the store as JSON.
@Suite(.serialized) struct EInvoiceExportEndToEndTests {
    static let eur = CurrencyCode("EUR")!
    static func money(_ text: String) -> Money { Money(decimal: text, currency: eur)! }

    static let creditXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2" \
        xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
          <cbc:ID>CN-2026-7</cbc:ID>
          <cbc:IssueDate>2026-11-02</cbc:IssueDate>
          <cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>
          <!-- the seller's name holds markup: Evil &lt;script&gt; &amp; Co -->
          <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
        </CreditNote>

        """
    static let invoiceCII = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">
          <rsm:ExchangedDocument><ram:ID xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100">RE-1</ram:ID></rsm:ExchangedDocument>
        </rsm:CrossIndustryInvoice>

        """

    /// An e-invoice as the reader makes one: `credit` a UBL credit note stating positive amounts.
    static func eInvoice(number: String, seller: String, credit: Bool) -> EInvoice {
        var e = EInvoice(syntax: credit ? .ubl : .cii)
        e.number = number
        e.typeCode = credit ? "381" : "380"
        e.issueDate = CalendarDay(iso: "2026-11-02")
        e.dueDate = CalendarDay(iso: "2026-11-30")
        e.currency = eur
        e.seller.name = seller
        e.seller.vatID = "DE123456789"
        e.buyer.name = "Käufer GmbH"
        var line = EInvoice.Line()
        line.id = "1"
        line.name = "Chairs"
        line.net = money("100.00")
        var sub = EInvoice.Line()
        sub.id = "1.1"
        sub.parentID = "1"
        sub.name = "Chair legs"
        sub.net = money("40.00")
        e.lines = [line, sub]
        var row = EInvoice.TaxRow()
        row.category = "S"
        row.rate = "19"
        row.basis = money("100.00")
        row.amount = money("19.00")
        e.taxes = [row]
        e.totals.lineTotal = money("100.00")
        e.totals.taxBasis = money("100.00")
        e.totals.tax = money("19.00")
        e.totals.grand = money("119.00")
        e.totals.due = money("119.00")
        var means = EInvoice.PaymentMeans()
        means.code = "58"
        means.iban = "DE02120300000000202051"
        e.paymentMeans = [means]
        return e
    }

    /// The record of an e-invoice as the merge makes it: a credit note's amounts negated.
    static func record(_ source: String, bytes: [UInt8], seller: String, number: String, credit: Bool) -> DocumentRecord {
        let e = eInvoice(number: number, seller: seller, credit: credit)
        let sign = credit ? "-" : ""
        var r = DocumentRecord(source: source, folder: "inv", sha256: SHA256.hex(of: bytes), status: .accepted)
        r.documentKind = credit ? .creditNote : .invoice
        r.merchant = seller
        r.date = e.issueDate
        r.dueDate = e.dueDate
        r.total = money(sign + "119.00")
        r.subtotal = money(sign + "100.00")
        r.currency = eur
        r.tax = [TaxLine(rate: "19", amount: money(sign + "19.00"), basis: money(sign + "100.00"), category: "S")]
        r.referenceNumber = number
        r.sellerTaxID = "DE123456789"
        r.eInvoice = e
        r.reviewedBy = "pipeline"
        r.confidence = [.merchant: 1, .date: 1, .total: 1, .currency: 1]
        return r
    }

    /// A store export (`shoebox export --format json`'s format) holding these records as accepted documents.
    static func storeJSON(root: URL, _ documents: [(DocumentRecord, [UInt8])]) throws -> Data {
        let docs: [[String: Any]] = try documents.map { r, bytes in
            [
                "path": r.source, "root": root.path, "folder": r.folder, "sha256": r.sha256, "size": bytes.count,
                "kind": FileKind.sniff(bytes)?.rawValue ?? NSNull(), "state": "accepted", "failure": NSNull(), "fingerprint": NSNull(),
                "settings": NSNull(), "suggestion": try JSONSerialization.jsonObject(with: Data(r.jsonLine().utf8)), "pages": [],
                "decisions": []
            ]
        }
        return try JSONSerialization.data(withJSONObject: ["format": "shoebox-store", "version": 1, "documents": docs])
    }

    @Test func aStandaloneXMLGoesInAsItIsWithItsPageAndACreditNoteKeepsItsSign() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        let inv = scans.appendingPathComponent("inv")
        try FileManager.default.createDirectory(at: inv, withIntermediateDirectories: true)
        let evil = "Evil <script>alert(1)</script> & Co"
        let pdf = Array("%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n".utf8)
        // A credit note, an invoice in a file without an extension (XML by content), and a Factur-X PDF.
        let files: [(String, [UInt8], String, String, Bool)] = [
            ("inv/credit.xml", Array(Self.creditXML.utf8), evil, "CN-2026-7", true),
            ("inv/xrechnung", Array(Self.invoiceCII.utf8), "Lieferant GmbH", "RE-1", false),
            ("inv/facturx.pdf", pdf, "PDF Seller", "RE-2", false)
        ]
        var documents: [(DocumentRecord, [UInt8])] = []
        for (path, bytes, seller, number, credit) in files {
            try Data(bytes).write(to: scans.appendingPathComponent(path))
            documents.append((Self.record(path, bytes: bytes, seller: seller, number: number, credit: credit), bytes))
        }
        let store = work.appendingPathComponent("store.json")
        try Self.storeJSON(root: scans, documents).write(to: store)
        let out = work.appendingPathComponent("out").path
        let imported = try runProgram(shoebox, ["import", store.path, "--out", out, "--today", today])
        #expect(imported.code == 0, "\(imported.out)\(imported.err)")
        let export = try runProgram(shoebox, ["export", "--out", out])
        #expect(export.code == 0, "\(export.out)\(export.err)")
        let zip = out + "/exports/inv.zip"

        // The entries as zipinfo lists them; each XML's bytes as unzip gives them back.
        let listing = try runProgram("/usr/bin/zipinfo", ["-1", zip])
        #expect(listing.code == 0, "\(listing.err)")
        let names = listing.out.split(separator: "\n").map(String.init)
        let originals = names.filter { $0.hasPrefix("receipts/") && !$0.hasSuffix(".html") }
        let pages = names.filter { $0.hasSuffix(".html") }
        #expect(originals.count == 3, "\(names)")
        #expect(originals.filter { $0.hasSuffix(".xml") }.count == 2, "the extension-less XML is named .xml too: \(names)")
        #expect(originals.filter { $0.hasSuffix(".pdf") }.count == 1)
        #expect(
            Set(pages) == Set(originals.filter { $0.hasSuffix(".xml") }.map { String($0.dropLast(4)) + ".html" }),
            "a page beside each XML, none for the PDF (its XML is inside it): \(names)")
        let z = try readExportZip(zip)
        let summary = try #require(z["summary"] as? [[String]])
        let header = summary[0]
        let col = Dictionary(uniqueKeysWithValues: header.enumerated().map { ($1, $0) })
        func row(_ source: String) throws -> [String] { try #require(summary.first { $0[col["original_path"]!] == source }) }
        for (path, bytes, _, _, _) in files {
            let file = try row(path)[col["file"]!]
            let unzipped = try runProgram("/bin/sh", ["-c", "/usr/bin/unzip -p \"$1\" \"$2\" | sha256sum", "sh", zip, file])
            #expect(unzipped.out.hasPrefix(SHA256.hex(of: bytes)), "\(file): the original's bytes, unchanged")
        }
        #expect(try row("inv/credit.xml")[col["file"]!].hasSuffix(".xml"), "the file column points at the XML")
        let creditPage = try #require(pages.first { $0.contains("Evil") })
        let html = try runProgram("/usr/bin/unzip", ["-p", zip, creditPage]).out
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.lowercased().contains("<script"), "\(html)")
        #expect(html.contains("Evil &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co"))
        #expect(html.contains("Rendered by Shoebox from the XML e-invoice credit.xml"))
        #expect(html.contains("<h1>Credit note CN-2026-7</h1>") && html.contains("DE02120300000000202051"))
        #expect(z["manifestOK"] as? Bool == true, "the manifest covers the pages too")
        #expect(z["manifestNames"] as? [String] == names.filter { $0 != "MANIFEST.sha256" }.sorted())

        // The credit note is negative everywhere; the invoice positive.
        let credit = try row("inv/credit.xml")
        for (column, value) in [
            ("total", "-119.00"), ("net", "-100.00"), ("tax_19", "-19.00"), ("net_19", "-100.00"), ("amount_due", "-119.00"),
            ("document_kind", "credit-note"), ("reference_number", "CN-2026-7"), ("seller_tax_id", "DE123456789"), ("due_date", "2026-11-30")
        ] {
            #expect(credit[col[column]!] == value, "\(column): \(credit)")
        }
        #expect(try row("inv/xrechnung")[col["net_19"]!] == "100.00")
        let i = try #require(summary.firstIndex(of: credit))
        let xlsx = try #require(z["xlsx"] as? [[[String: Any]]])
        for (column, value) in [("total", -119.0), ("net", -100.0), ("tax_19", -19.0), ("net_19", -100.0), ("amount_due", -119.0)] {
            #expect(xlsx[i][col[column]!]["t"] as? String == "n", "\(column) is a number cell")
            #expect(xlsx[i][col[column]!]["v"] as? Double == value, "\(column): \(String(describing: xlsx[i][col[column]!]["v"]))")
        }
        #expect(xlsx[i][col["due_date"]!]["t"] as? String == "d")
        let json = try #require(z["json"] as? [String: Any])
        let jsonCredit = try #require((json["records"] as? [[String: Any]])?.first { $0["original_path"] as? String == "inv/credit.xml" })
        #expect(jsonCredit["total"] as? String == "-119.00" && jsonCredit["net_19"] as? String == "-100.00")
        #expect(jsonCredit["amount_due"] as? String == "-119.00" && jsonCredit["due_date"] as? String == "2026-11-30")
        let totals = try #require(z["totals"] as? [[String]])
        #expect(totals[0] == ["group", "category", "currency", "records", "total", "tax", "net"])
        #expect(totals.contains(["currency", "", "EUR", "3", "119.00", "19.00", "100.00"]), "119 + 119 − 119: \(totals)")
        let ledger = try #require(z["ledger"] as? String)
        #expect(ledger.contains("  Expenses:Uncategorized  -119.00 EUR\n  Liabilities:ToReconcile  119.00 EUR\n"), "\(ledger)")
        for t in ledger.components(separatedBy: "\n\n") where t.hasPrefix("2026-") && t.contains(" ! ") {
            let postings = t.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.contains(": \"") }
            #expect(postings.count == 2)
            let sum = postings.compactMap { p in Money.minorUnits(fromDecimal: String(p.split(separator: " ").dropLast().last ?? ""), digits: 2) }
                .reduce(0, +)
            #expect(sum == 0, "each transaction balances: \(t)")
        }

        // The store as JSON keeps the sign, the tax bases and the e-invoice as read.
        let storeOut = work.appendingPathComponent("again.json").path
        #expect(try runProgram(shoebox, ["export", "--out", out, "--format", "json", "--file", storeOut]).code == 0)
        let again = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: storeOut))) as? [String: Any])
        let doc = try #require((again["documents"] as? [[String: Any]])?.first { $0["path"] as? String == "inv/credit.xml" })
        let suggestion = try #require(doc["suggestion"] as? [String: Any])
        #expect(suggestion["total"] as? String == "-119.00" && suggestion["subtotal"] as? String == "-100.00")
        let tax = try #require((suggestion["tax"] as? [[String: Any]])?.first)
        #expect(tax["amount"] as? String == "-19.00" && tax["basis"] as? String == "-100.00")
        #expect((suggestion["eInvoice"] as? [String: Any])?["typeCode"] as? String == "381")

        // Byte-identical for the same store, the pages included.
        let first = try Data(contentsOf: URL(fileURLWithPath: zip))
        #expect(try runProgram(shoebox, ["export", "--out", out]).code == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: zip)) == first)
    }
}
