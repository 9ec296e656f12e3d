import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxRegression

struct RegressionReportTests {
    @Test func baselineComparisonAtTheWrittenPrecision() throws {
        var report = RegressionReport()
        let record = { (total: String) -> DocumentRecord in
            var r = DocumentRecord(source: "a.jpg", folder: "", sha256: "x", status: .accepted)
            r.currency = .eur
            r.total = Money(decimal: total, currency: .eur)
            return r
        }
        for i in 0..<12 {
            report.add(RegressionCase(document: "\(i).jpg", expected: ["total": "1.00"], format: "fixture"), record: record(i == 0 ? "2.00" : "1.00"))
        }
        // 11/12 = 0.91666…, written as 0.9167: the same run is not below its own baseline.
        let baseline = report.json()
        #expect(report.regressions(against: baseline) == [])
        var worse = RegressionReport()
        for i in 0..<12 {
            worse.add(RegressionCase(document: "\(i).jpg", expected: ["total": "1.00"], format: "fixture"), record: record(i < 2 ? "2.00" : "1.00"))
        }
        // Below the baseline over all documents and within its format (the targets are per set).
        #expect(worse.regressions(against: baseline) == ["total: 83.3% now, baseline 91.7%", "fixture total: 83.3% now, baseline 91.7%"])
        #expect(worse.misses.count == 2)
    }

    /// The share of documents whose line items are proven is held to the baseline per format, as a field is.
    @Test func provenItemsAreHeldToTheBaseline() throws {
        func report(proven: Int) -> RegressionReport {
            var report = RegressionReport()
            for i in 0..<4 {
                var r = DocumentRecord(source: "\(i).jpg", folder: "", sha256: "x", status: .accepted)
                r.currency = .eur
                r.total = Money(decimal: "1.00", currency: .eur)
                r.items = [LineItem(kind: .item, description: "Milk", amount: Money(decimal: "1.00", currency: .eur)!, source: .ocr)]
                r.itemsCheck = i < proven ? .total : .unproven
                report.add(RegressionCase(document: "\(i).jpg", expected: ["total": "1.00"], format: "sroie"), record: r)
            }
            return report
        }
        let baseline = report(proven: 3).json()
        #expect(report(proven: 3).regressions(against: baseline) == [])
        #expect(report(proven: 4).regressions(against: baseline) == [])
        #expect(report(proven: 2).regressions(against: baseline) == ["sroie items proven: 50.0% now, baseline 75.0%"])
    }

    @Test func adaptersReadTheThreeFormats() {
        let sroie = RegressionAdapters.parse(Data(#"{"company": "ABC SDN BHD", "date": "25/12/2018", "total": "RM1,007.50"}"#.utf8), name: "X1.json")
        #expect(sroie?.document == "X1.jpg")
        #expect(sroie?.expected["total"] == "1007.50")
        #expect(sroie?.expected["date"] == "2018-12-25")
        let zf = RegressionAdapters.parse(
            Data(
                #"{"invoice_number": "471102", "total_gross": "3273.00", "issue_date": "2024-11-15", "currency": "EUR", "seller_name": "Handwerker GmbH"}"#
                    .utf8), name: "inv.expected.json")
        #expect(zf?.document == "inv.pdf")
        #expect(zf?.expected["referenceNumber"] == "471102")
        let fixture = RegressionAdapters.parse(Data(#"{"file": "a.png", "total": "1.00"}"#.utf8), name: "a.expected.json")
        #expect(fixture?.format == "fixture")
        #expect(RegressionAdapters.parse(Data("{}".utf8), name: "x.json") == nil)
    }
}
