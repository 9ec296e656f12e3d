import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxRegression

/// Labels the page contradicts: read strictly, refused when stale, applied to what the model is measured against only.
struct LabelErrataTests {
    static func entry(_ o: [String: Any] = [:]) -> [String: Any] {
        var e: [String: Any] = [
            "document": "X1.jpg", "field": "total", "label": "60.60", "corrected": "33.00", "class": "sub-total before a coupon",
            "evidence": "Sub-Total : 60.60 / Coupon Discount : 27.60 / Grand Total : 33.00"
        ]
        for (k, v) in o { e[k] = v }
        return e
    }

    static func parse(_ array: Any) throws(LabelErrata.Invalid) -> LabelErrata {
        try LabelErrata.parse((try? JSONSerialization.data(withJSONObject: array)) ?? Data(), file: "errata.json")
    }

    @Test func aWellFormedFileIsRead() throws {
        let errata = try LabelErrataTests.parse([LabelErrataTests.entry()])
        #expect(errata.entries.count == 1)
        #expect(errata.entries[0].corrected == "33.00")
        #expect(errata.entries[0].labelClass == "sub-total before a coupon")
    }

    @Test func whatIsNoCorrectionIsRefusedByName() {
        let cases: [(Any, String)] = [
            (["document": "X1.jpg"], "not a JSON array"),
            ([5], "entry 1: not an object"),
            ([LabelErrataTests.entry(["extra": "x"])], "unknown key \"extra\""),
            ([LabelErrataTests.entry(["label": 60.6])], "\"label\" must be a non-empty string"),
            ([LabelErrataTests.entry(["evidence": " "])], "\"evidence\" must be a non-empty string"),
            ([LabelErrataTests.entry(["field": "merchant"])], "field \"merchant\" cannot be corrected"),
            ([LabelErrataTests.entry(["corrected": "60.60"])], "the corrected value is the label itself"),
            ([LabelErrataTests.entry(), LabelErrataTests.entry()], "entry 2: X1.jpg total is corrected twice")
        ]
        for (value, words) in cases {
            #expect {
                _ = try LabelErrataTests.parse(value)
            } throws: { error in
                "\(error)".contains(words)
            }
        }
        #expect(throws: LabelErrata.Invalid.self) { try LabelErrata.parse(Data("not json".utf8), file: "errata.json") }
    }

    @Test func anEntryTheSuiteNoLongerLabelsSoIsStale() throws {
        let errata = try LabelErrataTests.parse([LabelErrataTests.entry(), LabelErrataTests.entry(["document": "X2.jpg"])])
        let cases = [
            RegressionCase(document: "X1.jpg", expected: ["total": "60.60"], format: "sroie"),
            RegressionCase(document: "X3.jpg", expected: ["total": "1.00"], format: "sroie")
        ]
        #expect(errata.stale(against: cases) == ["X2.jpg is not a document of the suite"])
        let relabelled = [RegressionCase(document: "X1.jpg", expected: ["total": "61.60"], format: "sroie")]
        #expect(errata.stale(against: relabelled).first?.contains("the label is \"61.60\", not \"60.60\"") == true)
    }

    /// The field scores and misses stay as labelled; the trust row, which the model is fitted and its curve measured on,
    /// takes the page's value.
    @Test func theScoresStayAsLabelledAndTheModelSeesTheCorrection() throws {
        var report = RegressionReport()
        report.errata = try LabelErrataTests.parse([LabelErrataTests.entry()])
        var record = DocumentRecord(source: "X1.jpg", folder: "", sha256: "x", status: .accepted)
        record.currency = .myr
        record.total = Money(decimal: "33.00", currency: .myr)
        report.add(RegressionCase(document: "X1.jpg", expected: ["total": "60.60"], format: "sroie"), record: record)
        report.add(RegressionCase(document: "X2.jpg", expected: ["total": "33.00"], format: "sroie"), record: record)
        #expect(report.scores["total"]?.normalised == 1)
        #expect(report.misses.map(\.document) == ["X1.jpg"])
        #expect(report.acceptedWrong == ["X1.jpg"])
        #expect(report.correctedLabels == 1)
        #expect(report.trustRows.map(\.totalAndDateRight) == [true, true])
        #expect(report.trustRows.map(\.rightAsLabelled) == [false, true])
        #expect(report.trustRows[0].right[.total] == true)
        #expect(report.text.contains("labels corrected for the trust model and its accept curve: 1"))
    }
}
