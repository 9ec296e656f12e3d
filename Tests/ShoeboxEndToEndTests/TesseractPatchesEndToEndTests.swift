import Foundation
import ShoeboxTestSupport
import Testing

/// The fixtures read with the tesseract patches (Sources/TesseractPatches) and with them switched off
/// (SHOEBOX_TESSERACT_PATCHES=off, tesseract's own code throughout) give the same records, byte for byte; the
/// run's JSON log and `--version` say which it was.
@Suite(.tags(.ocr)) struct TesseractPatchesEndToEndTests {
    @Test func theFixturesReadTheSameWithAndWithoutThePatches() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let files = try fixtureReceiptsFolder(in: work).files

        var environment = ProcessInfo.processInfo.environment
        environment["SHOEBOX_TESSERACT_PATCHES"] = nil
        var unpatched = environment
        unpatched["SHOEBOX_TESSERACT_PATCHES"] = "off"
        var records: [String: Data] = [:]
        for (name, env) in [("patched", environment), ("unpatched", unpatched)] {
            let out = work.appendingPathComponent(name).path
            let log = work.appendingPathComponent("\(name).jsonl").path
            let run = try runProgram(
                shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today, "--jobs", "2", "--log-json", log],
                environment: env)
            #expect(run.code == 0, "\(name): \(run.err)")
            #expect(run.out.contains("\(files.count) files found"), "\(name): \(run.out)")
            records[name] = try Data(contentsOf: URL(fileURLWithPath: out + "/records.jsonl"))

            let finished = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }.first { $0["event"] as? String == "finished" }
            let patches = try #require(finished?["tesseractPatches"] as? [String: String], "\(name): \(String(describing: finished))")
            let expected = name == "patched" ? "on" : "off: SHOEBOX_TESSERACT_PATCHES=off"
            #expect(patches == ["line-images": expected, "page-hand-off": expected, "ambiguity-table": expected], "\(name)")

            let version = try runProgram(shoebox, ["--version"], environment: env)
            let line = name == "patched" ? "line-images on, page-hand-off on, ambiguity-table on" : "off (SHOEBOX_TESSERACT_PATCHES=off)"
            #expect(version.out.contains("tesseract patches: \(line)\n"), "\(name): \(version.out)")
        }
        let patched = try #require(records["patched"])
        #expect(String(decoding: patched, as: UTF8.self).split(separator: "\n").count == files.count)
        #expect(patched == records["unpatched"], "the records differ with and without the patches")
    }
}
