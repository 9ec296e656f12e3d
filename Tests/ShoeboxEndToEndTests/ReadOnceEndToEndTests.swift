import Foundation
import ShoeboxCore
import ShoeboxTestSupport
import Testing

/// Issue 36, deliver 1: a document's file is read once at intake (sniffed and hashed) and once on its worker
/// (`DocumentContext`: the bytes checked against intake's hash, a PDF opened once by poppler for its attached invoice and
/// its pages alike), and its sidecar once, at intake. Counted with strace: every open of each file by a real run.
struct ReadOnceEndToEndTests {
    @Test(.tags(.ocr)) func aScanIsReadOnceOnItsWorkerAndItsSidecarOnce() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = work.appendingPathComponent("scans/f")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["eng-invoice-textpdf.pdf", "spa-ferreteria.pdf", "eng-gb-grocer.png"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("receipts/\(name)"), to: folder.appendingPathComponent(name))
        }
        try Data(#"{"note": "parking"}"#.utf8).write(to: folder.appendingPathComponent("eng-gb-grocer.png.json"))
        let strace = try #require(which("strace"), "strace is missing: apt-get install -y strace (make setup)")
        let trace = work.appendingPathComponent("trace.txt").path
        let out = work.appendingPathComponent("out").path
        let r = try runProgram(
            strace,
            ["-f", "-e", "trace=openat", "-o", trace, shoebox, "run", work.appendingPathComponent("scans").path, "--out", out, "--today", today])
        #expect(r.code == 0, "\(r.out) \(r.err)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        func opens(_ name: String) -> Int { lines.count { $0.contains("/f/\(name)\"") } }
        // Intake once (its kind and hash), the worker once: a born-digital PDF, a scanned PDF and an image alike.
        #expect(opens("eng-invoice-textpdf.pdf") == 2, "\(lines.filter { $0.contains(".pdf\"") })")
        #expect(opens("spa-ferreteria.pdf") == 2)
        #expect(opens("eng-gb-grocer.png") == 2)
        #expect(opens("eng-gb-grocer.png.json") == 1)
        // And what was read is used: the sidecar's note is on the record.
        let records = try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8)
        #expect(records.contains("\"note\":\"parking\""), "\(records)")
    }
}
