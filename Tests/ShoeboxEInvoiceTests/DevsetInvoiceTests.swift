import Foundation
import ShoeboxCore
import ShoeboxEInvoice
import ShoeboxJudgement
import ShoeboxTestSupport
import Testing

/// The devset's ZUGFeRD / Factur-X invoices (`../shared/devset/zugferd` next to the package), when present: each
/// `*.embedded.xml` against its `*.expected.json`, values read mechanically from the same XML.
let devsetInvoices = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/devset/zugferd")

private func devsetXMLFiles() -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: devsetInvoices.path)) ?? []
    return names.filter { $0.hasSuffix(".embedded.xml") }.sorted().map { devsetInvoices.appendingPathComponent($0) }
}

/// A rate as the reader writes it: "19.00" → "19", "0.00" → "0".
private func normalisedRate(_ text: String?) -> String? {
    guard let text, text.contains(".") else { return text }
    var t = Substring(text)
    while t.last == "0" { t = t.dropLast() }
    if t.last == "." { t = t.dropLast() }
    return String(t)
}

@Suite(.enabled(if: !devsetXMLFiles().isEmpty, "../shared/devset/zugferd is absent"))
struct DevsetInvoiceTests {
    @Test func everyDevsetInvoiceMatchesItsExpectation() throws {
        let files = devsetXMLFiles()
        #expect(files.count == 24)
        for xml in files {
            let stem = xml.lastPathComponent.replacingOccurrences(of: ".embedded.xml", with: "")
            let jsonURL = devsetInvoices.appendingPathComponent(stem + ".expected.json")
            let expected = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: jsonURL)) as? [String: Any])
            let bytes = [UInt8](try Data(contentsOf: xml))
            #expect(EInvoiceReader.isInvoice(bytes), "\(stem)")
            switch EInvoiceReader.read(bytes) {
            case .success(let inv): compare(inv, expected, stem)
            case .failure(let f): Issue.record("\(stem): \(f)")
            }
        }
    }

    private func compare(_ inv: EInvoice, _ e: [String: Any], _ stem: String) {
        func text(_ key: String) -> String? { e[key] as? String }
        #expect(inv.profile == text("profile"), "\(stem)")
        #expect(inv.number == text("invoice_number"), "\(stem)")
        #expect(inv.typeCode == text("type_code"), "\(stem)")
        #expect(inv.issueDate?.iso == text("issue_date"), "\(stem)")
        #expect(inv.seller.name == text("seller_name"), "\(stem)")
        #expect(inv.buyer.name == text("buyer_name"), "\(stem)")
        let ids = Set([inv.seller.taxNumber, inv.seller.vatID].compactMap { $0 })
        #expect(ids == Set(e["seller_tax_ids"] as? [String] ?? []), "\(stem)")
        #expect(inv.currency?.code == text("currency"), "\(stem)")
        #expect(inv.totals.taxBasis?.decimalString == amount(text("total_net")), "\(stem) net")
        #expect(inv.totals.tax?.decimalString == amount(text("total_tax")), "\(stem) tax")
        #expect(inv.totals.grand?.decimalString == amount(text("total_gross")), "\(stem) gross")
        #expect(inv.totals.due?.decimalString == amount(text("amount_due")), "\(stem) due")
        let rows = e["tax_breakdown"] as? [[String: Any]] ?? []
        #expect(inv.taxes.map(\.category) == rows.map { $0["category"] as? String }, "\(stem) categories")
        #expect(inv.taxes.map(\.rate) == rows.map { normalisedRate($0["rate"] as? String) }, "\(stem) rates")
        #expect(inv.taxes.map(\.basis?.decimalString) == rows.map { amount($0["basis"] as? String) }, "\(stem) bases")
        #expect(inv.taxes.map(\.amount?.decimalString) == rows.map { amount($0["tax"] as? String) }, "\(stem) tax rows")
        #expect(inv.readingProblems.isEmpty, "\(stem): \(inv.readingProblems)")
        #expect(inv.problems().isEmpty, "\(stem): \(inv.problems())")
    }

    /// An expected amount in the form `Money.decimalString` gives (the devset writes "20000" for 20000.00).
    private func amount(_ text: String?) -> String? {
        guard let text, let eur = CurrencyCode("EUR") else { return nil }
        return Money(decimal: text, currency: eur)?.decimalString
    }

    @Test func largestDevsetInvoiceReadsQuickly() throws {
        let largest = try #require(
            devsetXMLFiles().max {
                (try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) ?? 0 < (try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0)
                    ?? 0
            })
        let bytes = [UInt8](try Data(contentsOf: largest))
        var result: Result<EInvoice, DocumentFailure>?
        let t = seconds { for _ in 0..<10 { result = EInvoiceReader.read(bytes) } } / 10
        print("read() of \(largest.lastPathComponent) (\(bytes.count) bytes): \(String(format: "%.2f", t * 1000)) ms")
        guard case .success? = result else {
            Issue.record("largest devset invoice refused")
            return
        }
    }
}
