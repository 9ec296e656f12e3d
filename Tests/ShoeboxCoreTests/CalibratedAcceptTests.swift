import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement
@testable import ShoeboxParsing
@testable import ShoeboxReading

/// Confidence as the calibrated model's probability, the features the record keeps, and the `acceptPrecision` gate.
struct CalibratedAcceptTests {
    let parser = ReceiptParser(today: today)
    let source = SourceFile(path: "/x/a.jpg", relativePath: "a.jpg", folder: "", kind: .jpeg, sha256: "00", size: 1)
    let clean = ["REWE Markt GmbH", "Domstr. 20, 50668 Köln", "Datum 14.03.2026", "Brot 2,49", "Milch 1,19", "SUMME EUR 3,68"]

    /// A model that gives every value of the money fields the probability `p` (and no merchant model).
    static func flat(_ p: Double) -> TrustModel {
        let bias = log(p / (1 - p))
        let m = TrustModel.FieldModel(bias: bias, weights: [:])
        return TrustModel(fittedOn: "test", fields: ["total": m, "date": m, "currency": m])
    }

    func record(precision: Double, model: TrustModel = .committed, other: OtherSources = OtherSources()) -> DocumentRecord {
        let merger = RecordMerger(
            acceptThreshold: 0.6, requiredFields: [.merchant, .date, .total, .currency], acceptPrecision: precision, model: model)
        return merger.merge(
            parser.parse(pages: [page(clean)], language: "deu"), source: source, language: LanguageGuess(language: "deu", confidence: 0.9), pages: 1,
            other: other)
    }

    @Test func theConfidenceIsTheModelsProbabilityOfTheRecordedFeatures() throws {
        let r = record(precision: 0)
        let features = try #require(r.trust[.total])
        #expect(features[.arithmetic] == 1 && features[.keyword] == 1)
        #expect(r.confidence[.total] == TrustModel.committed.probability(.total, features))
        #expect(r.trust[.date]?[.transaction] == 1)
        #expect(r.trust[.currency]?[.explicit] == 1)
        // The features travel with the record (records.jsonl, the store), rounded to three places.
        let back = try JSONDecoder().decode(DocumentRecord.self, from: Data(r.jsonLine().utf8))
        #expect(back.trust[.total]?[.arithmetic] == 1)
        #expect(back.trust.keys.sorted { $0.rawValue < $1.rawValue } == r.trust.keys.sorted { $0.rawValue < $1.rawValue })
        // A field the model does not know keeps the rule confidence.
        let ruleOnly = record(precision: 0, model: CalibratedAcceptTests.flat(0.9))
        #expect(abs(ruleOnly.confidence[.total]! - 0.9) < 1e-9)
        #expect(ruleOnly.confidence[.merchant] == ruleOnly.trust[.merchant]?.ruleConfidence)
    }

    @Test func thePrecisionGateAsksForTheJointProbabilityOfTotalDateAndCurrency() {
        // 0.999³ ≈ 0.997 clears 0.99; 0.995³ ≈ 0.985 does not, and no field falls short alone: the least sure is named.
        #expect(record(precision: 0.99, model: CalibratedAcceptTests.flat(0.999)).status == .accepted)
        let short = record(precision: 0.99, model: CalibratedAcceptTests.flat(0.995))
        #expect(short.status == .review)
        #expect(short.reasons.count == 1 && short.reasons.first?.field != nil && short.reasons.first?.code.hasSuffix("-low-confidence") == true)
        // Each field below the precision is named.
        let low = record(precision: 0.99, model: CalibratedAcceptTests.flat(0.9))
        #expect(Set(low.reasons) == [.lowConfidence(.total), .lowConfidence(.date), .lowConfidence(.currency)])
        // Off (0): the rules alone decide.
        #expect(record(precision: 0, model: CalibratedAcceptTests.flat(0.5)).status == .accepted)
    }

    /// The joint model of the three fields decides when the document gave them, whatever the product says; a sidecar's
    /// confirmation raises it by the field's own rise.
    @Test func theJointModelDecidesWhenTheDocumentGaveTheFields() {
        func joint(_ p: Double) -> TrustModel {
            var m = CalibratedAcceptTests.flat(0.995)
            m.joint = TrustModel.FieldModel(bias: log(p / (1 - p)), weights: [:])
            return m
        }
        // Product 0.985, joint 0.995: accepted; product 0.985, joint 0.95: not.
        #expect(record(precision: 0.99, model: joint(0.995)).status == .accepted)
        let low = record(precision: 0.99, model: joint(0.95))
        #expect(low.status == .review && low.reasons.count == 1)
        // The joint model weighs the three fields' features, each under its field's name.
        let r = record(precision: 0)
        let features = TrustModel.jointFeatures(r.trust)
        #expect(
            features?.value(named: "total.arithmetic") == 1 && features?.value(named: "currency.explicit") == 1
                && features?.value(named: "date.transaction") == 1)
        let m = joint(0.95)
        var alone: [Field: Double] = [:]
        for f in TrustModel.jointFields { alone[f] = m.probability(f, r.trust[f]!) }
        #expect(abs(RecordMerger.allRight(required: [.total, .date, .currency], trust: r.trust, confidence: alone, model: m) - 0.95) < 1e-9)
        alone[.date] = RecordMerger.confirmed(alone[.date]!)
        // A confirmed field's factor is swapped for its raised probability: 0.95 / 0.995 × 0.9995.
        let raised = RecordMerger.allRight(required: [.total, .date, .currency], trust: r.trust, confidence: alone, model: m)
        #expect(abs(raised - 0.95 / 0.995 * 0.9995) < 1e-9)
        // A sidecar agreeing on the total raises it, never lowers it: 0.988 alone is held back, 0.988 / 0.995 × 0.9995 ≈ 0.9925
        // is not.
        var agree = Sidecar()
        agree.total = FieldInput.amount("3.68")
        #expect(record(precision: 0.99, model: joint(0.988)).status == .review)
        #expect(record(precision: 0.99, model: joint(0.988), other: OtherSources(sidecar: agree)).status == .accepted)
        // A pipeline that does not require all three asks the product of those it requires.
        let two = CalibratedAcceptTests.flat(0.995)
        let p = RecordMerger.allRight(required: [.total, .date], trust: r.trust, confidence: [.total: 0.995, .date: 0.995], model: joint(0.5))
        #expect(abs(p - 0.995 * 0.995) < 1e-12 && two.joint == nil)
    }

    /// Two dates close in score (a printed date and a date-shaped code, or a reprint misread): a runner-up with
    /// another day within 0.1 sends the record to review, where a total's runner-up needs to be within 0.05.
    @Test func twoDatesCloseInScoreAreAmbiguous() {
        func date(_ iso: String, _ score: Double, line: Int) -> DateCandidate {
            let e = Evidence(
                page: 1, line: line, box: BoundingBox(left: 0, top: line * 40, right: 300, bottom: line * 40 + 30), text: iso, source: .ocr,
                ocrConfidence: 95)
            return DateCandidate(value: CalendarDay(iso: iso)!, role: .transaction, score: score, evidence: e)
        }
        let merger = RecordMerger(acceptThreshold: 0.6, requiredFields: [.date])
        func reasons(_ second: Double) -> [ReviewReason] {
            var e = Extraction()
            e.dates = [date("2026-03-14", 0.85, line: 2), date("2026-02-12", second, line: 5)]
            return merger.merge(e, source: source, language: .unknown, pages: 1).reasons
        }
        #expect(reasons(0.78).contains(.ambiguous(.date)), "0.07 apart")
        #expect(!reasons(0.70).contains(.ambiguous(.date)), "0.15 apart")
        #expect(RecordMerger.dateAmbiguityMargin > 0.05)
    }

    @Test func aSidecarThatAgreesRaisesTheProbability() {
        var agree = Sidecar()
        agree.total = FieldInput.amount("3.68")
        let r = record(precision: 0.99, model: CalibratedAcceptTests.flat(0.99), other: OtherSources(sidecar: agree))
        #expect(abs(r.confidence[.total]! - 0.999) < 1e-9)
        #expect(r.confidence[.date]! == 0.99)
    }
}
