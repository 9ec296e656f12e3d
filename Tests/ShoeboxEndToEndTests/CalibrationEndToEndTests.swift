import Foundation
import ShoeboxCore
import ShoeboxJudgement
import ShoeboxTestSupport
import Testing

/// Issue 18: `shoebox regress --folds` and `--fit` through the built binary, on the project's own fixtures read by real
/// OCR: the cross-validated figures are printed and written into the report, the fitted model is a file the build can
/// embed, and a model that cannot be written is a named error.
struct CalibrationEndToEndTests {
    @Test(.tags(.ocr)) func regressCrossValidatesAndFitsTheTrustModel() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let suite = work.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
        let receipts = fixtures.appendingPathComponent("receipts")
        for stem in ["deu-baeckerei", "eng-gb-grocer", "eng-us-hardware", "deu-supermarkt"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: receipts.path) where name.hasPrefix(stem + ".") {
                try FileManager.default.copyItem(at: receipts.appendingPathComponent(name), to: suite.appendingPathComponent(name))
            }
        }
        let report = work.appendingPathComponent("report.json")
        let model = work.appendingPathComponent("model.json")
        let r = try runProgram(
            shoebox, ["regress", suite.path, "--today", today, "--folds", "2", "--fit", model.path, "--report", report.path, "--quiet"])
        #expect(r.code == 0, "\(r.out) \(r.err)")
        #expect(r.out.contains("cross-validated over 2 folds"), "\(r.out)")
        #expect(r.out.contains("expected calibration error"), "\(r.out)")
        #expect(r.out.contains("wrote the trust model fitted on 4 documents"), "\(r.out)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let cv = try #require(o["crossValidated"] as? [String: Any])
        #expect(cv["folds"] as? Int == 2 && cv["documents"] as? Int == 4)
        #expect((cv["curve"] as? [[String: Any]])?.isEmpty == false)
        // The gate the curve gives acceptPrecision is printed, and stored in the model beside the fields.
        #expect(r.out.contains("the gate this curve gives: acceptPrecision 0.99"), "\(r.out)")
        let fitted = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: model)) as? [String: Any])
        let fields = try #require(fitted["fields"] as? [String: [String: Any]])
        #expect(Set(fields.keys) == ["total", "date", "currency", "merchant"])
        #expect((fields["total"]?["weights"] as? [String: Double])?["arithmetic"] != nil)
        let gate = try #require(fitted["gate"] as? [String: Any])
        #expect(gate["folds"] as? Int == 2 && (gate["points"] as? [[String: Any]])?.count == GateCurve.cuts.count)

        // Label errata: the model's figures are measured against the corrected label, the field scores as labelled; an
        // entry whose label the suite does not have is refused by name.
        let errata = work.appendingPathComponent("errata.json")
        func writeErrata(label: String) throws {
            let entry: [String: String] = [
                "document": "deu-supermarkt.png", "field": "total", "label": label, "corrected": "0.01", "class": "test",
                "evidence": "none"
            ]
            try JSONSerialization.data(withJSONObject: [entry]).write(to: errata)
        }
        try writeErrata(label: "16.04")
        let rows = work.appendingPathComponent("rows.json")
        let corrected = try runProgram(
            shoebox, ["regress", suite.path, "--today", today, "--folds", "2", "--errata", errata.path, "--trust-rows", rows.path, "--quiet"])
        #expect(corrected.code == 0, "\(corrected.out) \(corrected.err)")
        #expect(corrected.out.contains("labels corrected for the trust model and its accept curve: 1"), "\(corrected.out)")
        let rowList = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: rows)) as? [[String: Any]])
        let row = try #require(rowList.first { $0["document"] as? String == "deu-supermarkt.png" })
        #expect(row["totalAndDateRight"] as? Bool == false && row["rightAsLabelled"] as? Bool == true, "\(row)")
        try writeErrata(label: "16.05")
        let stale = try runProgram(shoebox, ["regress", suite.path, "--today", today, "--errata", errata.path, "--quiet"])
        #expect(stale.code == 6 && stale.err.contains("deu-supermarkt.png total: the label is \"16.04\", not \"16.05\""), "\(stale.err)")

        let refused = try runProgram(shoebox, ["regress", suite.path, "--today", today, "--fit", work.path + "/no/such/folder/m.json", "--quiet"])
        #expect(refused.code != 0 && refused.err.contains("cannot write the model"), "\(refused.err)")
        let badFolds = try runProgram(shoebox, ["regress", suite.path, "--folds", "1"])
        #expect(badFolds.code == 2 && badFolds.err.contains("from 2 to 20"), "\(badFolds.err)")
    }

    /// The default gate (`acceptPrecision` 0.99, read by the committed model's cross-validated curve as a cut of P) on the
    /// sample folder read by real OCR: every document, read right, is accepted; an accepted record's joint probability
    /// (the committed model on its recorded features) reaches the cut; a record the gate holds back (none with today's
    /// model, whose curve reaches 0.99 at cut 0) waits with `<field>-low-confidence` reasons only, naming
    /// the fields under the cut or the least sure one; run again under the
    /// rules alone (`acceptPrecision` 0, the pages from the OCR cache), those are accepted and nothing accepted is lost.
    @Test(.tags(.ocr)) func theDefaultGateAcceptsTheReadRightSampleAndHoldsOnlyUnderItsCut() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("sample-scans"), to: scans)
        let out = work.appendingPathComponent("out").path
        func records() throws -> [String: DocumentRecord] {
            let lines = try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8).split(separator: "\n")
            let all = try lines.map { try JSONDecoder().decode(DocumentRecord.self, from: Data($0.utf8)) }
            return Dictionary(uniqueKeysWithValues: all.map { ($0.source, $0) })
        }
        let first = try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today])
        #expect(first.code == 0, "\(first.err)")
        let gated = try records()
        let cut = TrustModel.committed.gate(for: 0.99).cut
        #expect(cut >= 0 && cut <= 1, "the committed model's curve gives 0.99 no cut: \(TrustModel.committed.gate(for: 0.99).sentence)")
        #expect(gated.count == 9)
        // Every sample document is read right (make regress checks it field by field): the default gate accepts them all.
        for (source, r) in gated { #expect(r.status == .accepted, "\(source): \(r.reasons) \(r.confidence)") }
        var held: [String] = []
        for (source, r) in gated {
            let lowOnly = !r.reasons.isEmpty && r.reasons.allSatisfy { $0.code.hasSuffix("-low-confidence") }
            guard TrustModel.committed.jointProbability(r.trust) != nil else {
                // Exact values (the e-invoices): nothing for the model to doubt.
                #expect(r.status == .accepted, "\(source): \(r.reasons)")
                continue
            }
            // The features and confidences are stored to three places: the probability recomputed from them is within a
            // hair of the run's. A file-name date that agrees raises it (scan_2026-03-17_001.pdf).
            let p = RecordMerger.allRight(
                required: [.merchant, .date, .total, .currency], trust: r.trust, confidence: r.confidence, model: TrustModel.committed)
            if r.status == .accepted { #expect(p >= cut - 0.003, "\(source): \(p)") }
            if lowOnly {
                #expect(p < cut + 0.003, "\(source): \(p)")
                held.append(source)
                let named = r.reasons.compactMap(\.field)
                let short = TrustModel.jointFields.filter { (r.confidence[$0] ?? 0) < cut }
                #expect(short.isEmpty ? named.count == 1 : Set(named) == Set(short), "\(source): \(r.reasons) \(r.confidence)")
            }
        }
        let rules = try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today, "--pipeline", try rulesOnlyPipeline(in: work)])
        #expect(rules.code == 0, "\(rules.err)")
        let ungated = try records()
        for source in held { #expect(ungated[source]?.status == .accepted, "\(source): \(ungated[source]?.reasons ?? [])") }
        for (source, r) in gated where r.status == .accepted { #expect(ungated[source]?.status == .accepted, "\(source)") }
    }
}
