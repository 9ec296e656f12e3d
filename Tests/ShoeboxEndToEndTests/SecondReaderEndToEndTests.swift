import Foundation
import ShoeboxTestSupport
import Testing

/// A whole receipt read with the second reader (installed by make setup), without its parts, and with the
/// pipeline turning it off: the same fields, and only the first run shows the second reader's lines.
struct SecondReaderEndToEndTests {
    static func extract(_ file: String, environment extra: [String: String] = [:], arguments: [String] = []) throws -> (
        record: [String: Any], text: String, code: Int32
    ) {
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in extra { environment[k] = v }
        let r = try runProgram(
            shoebox, ["extract", fixtures.path + "/receipts/" + file, "--json", "--text", "--today", "2026-12-02"] + arguments,
            environment: environment)
        let first = try #require(r.out.split(separator: "\n").first, "no output: \(r.err)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        return (record, r.out, r.code)
    }

    /// `extract --explain` shows both readers' readings of each scored line: the readings of one line, paired by their
    /// boxes (the second reading's page holds the detector's lines in its head, so its line numbers are not
    /// tesseract's; pairing by number showed another line's reading beside each).
    @Test(.tags(.ocr)) func explainPairsTheReadingsOfOneLine() throws {
        let r = try runProgram(shoebox, ["extract", fixtures.path + "/receipts/eng-gb-grocer.png", "--explain", "--today", "2026-12-02"])
        #expect(r.code == 0, "\(r.err)")
        let rows = r.out.split(separator: "\n").drop { !$0.hasPrefix("lines scored") }.dropFirst()
        let total = try #require(rows.first { $0.contains("13.90") }, "no row of the total's line: \(r.out)")
        let readings = total.components(separatedBy: "  ·  ")
        #expect(readings.count == 2 && readings.allSatisfy { $0.contains("13.90") }, "\(total)")
    }

    @Test(.tags(.ocr)) func aReceiptReadsTheSameWithAndWithoutTheSecondReader() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        // The rules alone decide (`acceptPrecision` 0): with one reader fewer the calibrated probability is lower, and
        // this test is about the values read.
        let pipeline = work.appendingPathComponent("tesseract-alone.json")
        try Data(#"{"version": 1, "secondReader": false, "acceptPrecision": 0}"#.utf8).write(to: pipeline)
        let rules = try rulesOnlyPipeline(in: work)

        let both = try Self.extract("eng-gb-grocer.png", arguments: ["--pipeline", rules])
        let missing = try Self.extract(
            "eng-gb-grocer.png", environment: ["SHOEBOX_READERS": work.path + "/no-readers-here"], arguments: ["--pipeline", rules])
        let off = try Self.extract("eng-gb-grocer.png", arguments: ["--pipeline", pipeline.path])
        for run in [both, missing, off] {
            #expect(run.code == 0)
            #expect(run.record["status"] as? String == "accepted")
            #expect(run.record["total"] as? String == "13.90")
            #expect(run.record["date"] as? String == "2026-03-14")
            #expect(run.record["merchant"] as? String == "Harbour Lane Grocers Ltd")
        }
        // With the second reader: its lines are shown, and the total it read alike confirms tesseract's.
        #expect(both.text.contains("(ocr-ppocr, "))
        let evidence = try #require(both.record["evidence"] as? [String: Any])
        let total = try #require(evidence["total"] as? [String: Any])
        #expect((total["confirmedBy"] as? [String])?.contains("ocr-ppocr") == true)
        // Without its parts, or turned off: tesseract alone, nothing confirmed by the second reader.
        for run in [missing, off] {
            #expect(!run.text.contains("ocr-ppocr"))
        }
        let version = try runProgram(
            shoebox, ["--version"], environment: ProcessInfo.processInfo.environment.merging(["SHOEBOX_READERS": work.path]) { $1 })
        #expect(
            version.out.contains(
                "second reader: none, tesseract reads alone (its parts are not installed: \(work.path)/libonnxruntime.so.1.32.0 is missing"))
        let installed = try runProgram(shoebox, ["--version"])
        #expect(installed.out.contains("second reader: PP-OCRv6 small rec, ONNX Runtime 1.32.0"))
        // SHOEBOX_READER_MODEL names another installed model, or a name that is none: said, never read past.
        func versionNaming(_ model: String) throws -> String {
            try runProgram(shoebox, ["--version"], environment: ProcessInfo.processInfo.environment.merging(["SHOEBOX_READER_MODEL": model]) { $1 })
                .out
        }
        #expect(try versionNaming("ch_PP-OCRv4_rec_folded.onnx").contains("second reader: PP-OCRv4 rec folded, ONNX Runtime 1.32.0"))
        let misnamed = try versionNaming("PP-OCRv6_smal_rec.onnx")
        #expect(
            misnamed.contains(
                "second reader: none, tesseract reads alone (SHOEBOX_READER_MODEL names \"PP-OCRv6_smal_rec.onnx\", which is none of the models"),
            "\(misnamed)")
    }

    @Test func aPipelineSettingThatIsNotTrueOrFalseIsRefusedByName() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let pipeline = work.appendingPathComponent("bad.json")
        try Data(#"{"version": 1, "secondReader": 1}"#.utf8).write(to: pipeline)
        let r = try runProgram(shoebox, ["extract", fixtures.path + "/receipts/eng-gb-grocer.png", "--pipeline", pipeline.path])
        #expect(r.code == 6)
        #expect(r.err.contains(#"key "secondReader" must be true or false"#))
    }
}
