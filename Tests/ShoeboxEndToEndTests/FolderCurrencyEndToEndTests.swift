import Foundation
import ShoeboxCore
import ShoeboxTestSupport
import Testing

/// Issue 34, decision 2, through the built binary on a receipt read by real OCR: a folder says what its currency is
/// (`.shoebox.json`, else the pipeline file's `currency`). A receipt that prints no currency and is inferred to be in the
/// folder's is not held for it; one inferred otherwise is, with the folder's first among the alternates; saying
/// another currency has the record judged again; a settings file that cannot be used is named and says nothing.
struct FolderCurrencyEndToEndTests {
    @Test(.tags(.ocr)) func aFolderSaysWhatItsCurrencyIs() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let trip = work.appendingPathComponent("scans/trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        // A German receipt with no currency printed anywhere and nothing that places it (no legal form): EUR is inferred
        // from its language and its postcode alone.
        _ = try imageMagick(
            [
                "-size", "1000x1100", "xc:white", "-font", "DejaVu-Sans-Mono", "-pointsize", "34", "-fill", "black", "-annotate", "+60+90",
                "BÄCKEREI MÜLLER\nHauptstr. 5, 10115 Berlin\nDatum: 14.03.2026  Bon 4711\n\nBrot              2,49\n"
                    + "Milch             1,19\nSUMME             3,68\nBAR               5,00\nRÜCKGELD          1,32\n\nVielen Dank"
            ], output: trip.appendingPathComponent("bon.png"))
        let out = work.appendingPathComponent("out").path
        let settings = trip.appendingPathComponent(".shoebox.json")
        func run(_ extra: [String] = []) throws -> (out: String, record: DocumentRecord) {
            let r = try runProgram(shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today] + extra)
            #expect(r.code == 0 || r.code == 1, "\(r.out) \(r.err)")
            let line = try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8).split(separator: "\n")
            return (r.out + r.err, try JSONDecoder().decode(DocumentRecord.self, from: Data(try #require(line.first).utf8)))
        }

        let none = try run().record
        #expect(none.currency?.code == "EUR" && none.reasons.contains(.currencyInferred), "\(none.reasons)")

        // The folder says EUR: the record is judged again (its OCR from the cache) and its currency is no reason.
        try Data(#"{"currency": "EUR"}"#.utf8).write(to: settings)
        let same = try run().record
        #expect(same.currency?.code == "EUR" && !same.reasons.contains(.currencyInferred), "\(same.reasons)")
        #expect(same.evidence[.currency]?.confirmedBy.contains(.folder) == true)

        // The folder says CHF: inferred otherwise, a reason again, CHF offered first.
        try Data(#"{"currency": "CHF"}"#.utf8).write(to: settings)
        let other = try run().record
        #expect(other.reasons.contains(.currencyInferred), "\(other.reasons)")
        #expect(other.alternates[.currency]?.first?.value == "CHF" && other.alternates[.currency]?.first?.source == .folder)

        // No file, the pipeline says EUR: the same as the folder saying it.
        try FileManager.default.removeItem(at: settings)
        let pipeline = work.appendingPathComponent("eur.json")
        try Data(#"{"version": 1, "currency": "EUR"}"#.utf8).write(to: pipeline)
        let byPipeline = try run(["--pipeline", pipeline.path]).record
        #expect(!byPipeline.reasons.contains(.currencyInferred), "\(byPipeline.reasons)")
        #expect(byPipeline.evidence[.currency]?.confirmedBy.contains(.folder) == true)

        // A settings file that cannot be used: named on the run, its currency not used, nothing lost.
        try Data(#"{"currency": "euro"}"#.utf8).write(to: settings)
        let (said, broken) = try run()
        #expect(said.contains("trip/.shoebox.json") && said.contains("key \"currency\" must be a three-letter ISO 4217 code"), "\(said)")
        #expect(broken.reasons.contains(.currencyInferred), "\(broken.reasons)")
    }

    /// `regress --folders FILE` is read as a pipeline file is: a FIFO is refused by name (not waited on), and a file that is
    /// not an object of folders' settings, or a folder whose settings do not parse, is named (exit 6).
    @Test func regressFoldersRefusesWhatIsNoSettings() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let fifo = work.appendingPathComponent("folders.fifo")
        let mkfifo = try #require(which("mkfifo"))
        try runProgram(mkfifo, [fifo.path])
        func refused(_ file: URL) throws -> String {
            let r = try runProgram(shoebox, ["regress", work.path, "--folders", file.path, "--quiet"])
            #expect(r.code == 6, "\(r)")
            return r.err
        }
        #expect(try refused(fifo).contains("is not a regular file"))
        let list = work.appendingPathComponent("list.json")
        try Data("[1]".utf8).write(to: list)
        #expect(try refused(list).contains("not a JSON object of folders"))
        let bad = work.appendingPathComponent("bad.json")
        try Data(#"{"sroie": {"currency": "ringgit"}}"#.utf8).write(to: bad)
        #expect(try refused(bad).contains(#"folder "sroie": key "currency" must be a three-letter ISO 4217 code"#))
    }
}
