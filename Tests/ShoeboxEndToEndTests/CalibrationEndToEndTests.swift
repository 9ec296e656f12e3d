import Foundation
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
        let fitted = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: model)) as? [String: Any])
        let fields = try #require(fitted["fields"] as? [String: [String: Any]])
        #expect(Set(fields.keys) == ["total", "date", "currency", "merchant"])
        #expect((fields["total"]?["weights"] as? [String: Double])?["arithmetic"] != nil)

        let refused = try runProgram(shoebox, ["regress", suite.path, "--today", today, "--fit", work.path + "/no/such/folder/m.json", "--quiet"])
        #expect(refused.code != 0 && refused.err.contains("cannot write the model"), "\(refused.err)")
        let badFolds = try runProgram(shoebox, ["regress", suite.path, "--folds", "1"])
        #expect(badFolds.code == 2 && badFolds.err.contains("from 2 to 20"), "\(badFolds.err)")
    }
}
