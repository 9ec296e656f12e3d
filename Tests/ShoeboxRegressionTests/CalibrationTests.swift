import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement
@testable import ShoeboxRegression

/// The trust model's fit and its cross-validation, on rows whose truth is known by construction.
struct CalibrationTests {
    /// Rows where a total confirmed by the page's arithmetic is right 49 times in 50, and one that is not is right 3
    /// times in 5: the fitted model says so, within the pull of its L2 penalty.
    static func rows() -> [TrustRow] {
        var rows: [TrustRow] = []
        for i in 0..<500 {
            let confirmed = i % 2 == 0
            let right = confirmed ? i % 100 != 0 : i % 10 < 6
            var record = DocumentRecord(source: "d\(i).jpg", folder: "", sha256: "x", status: .review)
            // Rule scores all clear acceptThreshold: the probabilities alone decide.
            record.trust[.total] = TrustFeatures([.arithmetic: confirmed ? 1 : 0, .score: 1, .ocr: 1])
            record.trust[.date] = TrustFeatures([.keyword: 1, .score: 1, .ocr: 1])
            record.trust[.currency] = TrustFeatures([.explicit: 1, .score: 1, .ocr: 1])
            rows.append(
                TrustRow(
                    RegressionCase(document: "d\(i).jpg", expected: [:], format: "sroie"), record: record,
                    right: [.total: right, .date: true, .currency: true], totalAndDateRight: right))
        }
        return rows
    }

    @Test func theFitReadsTheRatesOffTheRows() throws {
        let model = TrustFit.fit(
            CalibrationTests.rows(), fittedOn: "test", gate: RulesGate(requiredFields: [.total, .date, .currency], acceptThreshold: 0.6))
        let confirmed = try #require(model.probability(.total, TrustFeatures([.arithmetic: 1, .score: 1, .ocr: 1])))
        let unconfirmed = try #require(model.probability(.total, TrustFeatures([.arithmetic: 0, .score: 1, .ocr: 1])))
        #expect(abs(confirmed - 0.98) < 0.015)
        #expect(abs(unconfirmed - 0.6) < 0.02)
        // Every date right: high, never 1 (the penalty keeps the weight finite).
        let date = try #require(model.probability(.date, TrustFeatures([.keyword: 1, .score: 1, .ocr: 1])))
        #expect(date > 0.99 && date < 1)
        #expect(model.probability(.merchant, TrustFeatures()) == nil)
    }

    @Test func crossValidationScoresEachRowOnce() {
        let cv = CrossValidation(
            rows: CalibrationTests.rows(), folds: 5, requiredFields: [.total, .date, .currency], acceptThreshold: 0.6, acceptPrecision: 0.9)
        #expect(cv.documents == 500)
        #expect(cv.scored[.total]?.count == 500)
        #expect(cv.scored[.total]?.right == 245 + 150)
        // Calibrated on held-out folds: the observed rate of each bin is near what it predicted.
        #expect((cv.calibrationError(.total) ?? 1) < 0.03)
        // At 0.9 only the confirmed totals are accepted (P ≈ 0.98 × the date's and currency's), and 98 % of them are right.
        let at = cv.atSetting
        #expect(at?.accepted == 250)
        #expect(at?.right == 245)
        #expect(cv.text.contains("expected calibration error"))
        // The product of the per-field models reads the same rows: the totals decide it here, and at 0.9 it accepts the same.
        #expect(cv.productCurve.first { $0.cut == 0.9 }?.accepted == 250)
        #expect(cv.productCurve.first { $0.cut == 0.9 }?.right == 245)
        let features = TrustModel.jointFeatures(CalibrationTests.rows()[0].features)
        #expect(
            features?.value(named: "total.arithmetic") == 1 && features?.value(named: "currency.explicit") == 1
                && features?.value(named: "date.keyword") == 1)
    }

    /// The rules' floor as the pipeline asks it: a value another source states alike (here the folder's currency) is not
    /// held by its rule score, so the curve counts the record the pipeline would accept.
    @Test func aValueConfirmedElsewhereIsNotHeldByTheRulesFloor() {
        var record = DocumentRecord(source: "a.jpg", folder: "", sha256: "x", status: .review)
        record.trust[.total] = TrustFeatures([.score: 1, .ocr: 1])
        record.trust[.date] = TrustFeatures([.score: 1, .ocr: 1])
        record.trust[.currency] = TrustFeatures([.score: 0.4, .ocr: 1])
        record.evidence[.currency] = FieldEvidence(source: .document)
        let gate = RulesGate(requiredFields: [.total, .date, .currency], acceptThreshold: 0.6)
        func row() -> TrustRow {
            TrustRow(
                RegressionCase(document: "a.jpg", expected: [:], format: "sroie"), record: record,
                right: [.total: true, .date: true, .currency: true], totalAndDateRight: true)
        }
        #expect(!gate.passes(row()))
        record.evidence[.currency]?.confirmedBy = [.folder]
        #expect(gate.passes(row()))
        // The second reader is part of reading the page, not another source.
        record.evidence[.currency]?.confirmedBy = [.secondReader]
        #expect(!gate.passes(row()))
    }

    /// The baseline is compared at the cut its gate chose: the same figures pass, a share that fell there is named.
    @Test func theBaselineIsComparedAtItsOwnCut() throws {
        var report = RegressionReport()
        report.crossValidation = CrossValidation(
            rows: CalibrationTests.rows(), folds: 5, requiredFields: [.total, .date, .currency], acceptThreshold: 0.6, acceptPrecision: 0.9)
        let same = try #require(report.regressions(against: report.json()))
        #expect(same.isEmpty, "\(same)")
        var o = try #require(try JSONSerialization.jsonObject(with: report.json()) as? [String: Any])
        var cv = try #require(o["crossValidated"] as? [String: Any])
        var gate = try #require(cv["gate"] as? [String: Any])
        gate["accepted"] = (gate["accepted"] as! Int) + 50
        gate["right"] = (gate["right"] as! Int) + 50
        cv["gate"] = gate
        o["crossValidated"] = cv
        let worse = try #require(report.regressions(against: try JSONSerialization.data(withJSONObject: o)))
        #expect(worse.contains { $0.hasPrefix("cross-validated auto-accept share at P ≥") }, "\(worse)")
    }

    @Test func foldsAreFixedByThePath() {
        #expect(TrustRow.fold(of: "sroie/X51005200931.jpg", folds: 5) == TrustRow.fold(of: "sroie/X51005200931.jpg", folds: 5))
        let counts = Dictionary(grouping: (0..<1000).map { TrustRow.fold(of: "doc\($0).jpg", folds: 5) }, by: { $0 }).mapValues(\.count)
        #expect(counts.count == 5)
        #expect(counts.values.allSatisfy { $0 > 150 })
    }

    @Test func theCommittedModelCalibratesTheFourFields() {
        let model = TrustModel.committed
        for field in TrustFit.fields { #expect(model.fields[field.rawValue] != nil, "no model for \(field)") }
        #expect(model.joint != nil, "no joint model")
        #expect(TrustModel.committedDigest.count == 12)
    }

    @Test func solveAndAcceptance() throws {
        let s = try #require(TrustFit.solve([[2, 1], [1, 3]], [3, 5]))
        #expect(abs(s[0] - 0.8) < 1e-12 && abs(s[1] - 1.4) < 1e-12)
        #expect(TrustFit.solve([[1, 2], [2, 4]], [1, 2]) == nil)
    }

    @Test func aModelFileNamingNoTrustFeatureIsRefusedAndTheCommittedOneNamesOnlyKnownOnes() throws {
        let good = #"{"bias": 0.5, "weights": {"score": 1.0, "total.arithmetic": 2.0}}"#
        #expect(try JSONDecoder().decode(TrustModel.FieldModel.self, from: Data(good.utf8)).weights.count == 2)
        // "arithmetik" would read as 0 on every record.
        let typo = #"{"bias": 0.5, "weights": {"arithmetik": 1.0}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TrustModel.FieldModel.self, from: Data(typo.utf8)) }
        #expect(TrustModel.committed.fittedOn != "nothing", "the committed calibration.json is refused")
        #expect(TrustModel.committed.joint != nil && !TrustModel.committed.fields.isEmpty)
    }
}
