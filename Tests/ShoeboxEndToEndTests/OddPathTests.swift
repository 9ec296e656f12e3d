import Foundation
import ShoeboxTestSupport
import Testing

/// Issue 53, part 1: every path a person gives (the scan folder, `--out`, `--log-json`, `--pipeline`, `import FILE`,
/// `review --export/--apply FILE`, `extract FILE`, `regress DIR` with `--folders`/`--errata`, `SHOEBOX_READERS`) is
/// handled by Shoebox's own path code. Each command is run on the real binary with odd paths, from the folder they
/// are relative to: it works, or it stops with its exit code and one sentence, never a signal or a Swift trap.
/// The documents are XML e-invoices (read without OCR), so the many commands stay quick.
@Suite(.serialized) struct OddPathTests {
    /// One odd way of naming things: the scan folder, two output folders and a stem for files, all relative to the
    /// test's work folder (`setUp` makes what must exist before).
    struct Names: CustomTestStringConvertible, Sendable {
        let label: String
        let scans: String
        let out: String
        let out2: String
        let file: String
        var setUp: @Sendable (URL) throws -> Void = { _ in }
        var testDescription: String { label }
    }

    static let long = String(repeating: "b", count: 255)
    /// 19 parts of 200 bytes under "d/": a scan folder path of 3,821 bytes, its files past 3,850.
    static let deep = "d/" + Array(repeating: String(repeating: "p", count: 200), count: 19).joined(separator: "/")

    static let variants: [Names] = [
        Names(label: "one character", scans: "s", out: "o", out2: "i", file: "f"),
        Names(label: "trailing slash", scans: "s/", out: "o/", out2: "i/", file: "f"),
        Names(label: "dot and dot-dot", scans: "./s/.", out: "s/../o", out2: "./i/./", file: "./s/../f"),
        Names(label: "leading dash, behind ./", scans: "./-s", out: "./-o", out2: "./-i", file: "./-f"),
        Names(label: "spaces", scans: "my scans", out: "my out", out2: "my import", file: "my file"),
        Names(label: "non-ASCII", scans: "Belege März", out: "Ausgabe ü", out2: "importé", file: "Datei ß"),
        Names(label: "a line break", scans: "new\nscans", out: "new\nout", out2: "new\nimport", file: "new\nfile"),
        Names(label: "255-byte parts", scans: "s/" + long, out: "o/" + long, out2: "i/" + long, file: String(repeating: "b", count: 230)),
        // SQLite opens a store by a path of at most 504 bytes: the output folders stay short here (a long one gets
        // its sentence below); the scan folder and every file a command reads or writes are 4,000 bytes deep.
        Names(label: "4,000-byte paths", scans: deep + "/s", out: "o", out2: "i", file: deep + "/f"),
        Names(
            label: "through a symbolic link", scans: "link/s", out: "link/o", out2: "link/i", file: "link/f",
            setUp: { work in
                try FileManager.default.createDirectory(at: work.appendingPathComponent("real"), withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(atPath: work.appendingPathComponent("link").path, withDestinationPath: "real")
            }),
        Names(label: "missing parents", scans: "s", out: "m1/m2/o", out2: "n1/n2/i", file: "f")
    ]

    @Test(.tags(.ocr), arguments: variants) func everyCommandTakesOddPaths(names: Names) throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        try names.setUp(work)
        // Made by the shell's mkdir and cp: Foundation's own file calls fail on the 4,000-byte paths.
        let fixtureDir = "\(names.scans)/fixtures"
        let made = try runProgram(
            "/bin/sh",
            [
                "-c",
                """
                cd "$1" && mkdir -p "$2/invoices" "$3" && cp "$4/einv-xrechnung-cii.xml" "$4/einv-cii-usd.xml" "$2/invoices/" \
                  && cp "$4/einv-xrechnung-cii.xml" "$3/" && printf '{"version": 1, "jobs": 1}\\n' > "$5.pipeline.json"
                """, "sh", work.path, names.scans, fixtureDir, fixtures.path + "/receipts", names.file
            ])
        try #require(made.code == 0, "\(names.label): setting up failed: \(made.err)")
        let before = try snapshot(work.appendingPathComponent(names.scans))

        func run(_ args: [String], environment: [String: String] = [:], expect codes: Set<Int32> = [0]) throws -> String {
            // The paths are relative to the work folder: the command runs there, as a person would type it.
            let r = try runProgram(
                "/usr/bin/env", ["-C", work.path] + environment.map { "\($0.key)=\($0.value)" } + [shoebox] + args)
            let shown = args.map { $0.replacingOccurrences(of: "\n", with: "\\n").prefix(60) }.joined(separator: " ")
            #expect(codes.contains(r.code), "\(names.label): shoebox \(shown) exited \(r.code): \(r.err.suffix(600))")
            #expect(!r.err.contains("Illegal instruction") && !r.err.contains("Fatal error"), "\(names.label): \(shown): \(r.err.suffix(600))")
            return r.out + r.err
        }

        _ = try run(["run", names.scans, "--out", names.out, "--today", "2026-12-06", "--jobs", "1", "--log-json", names.file + ".log.jsonl"])
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent(names.out + "/records.jsonl").path), "\(names.label)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent(names.file + ".log.jsonl").path), "\(names.label)")
        _ = try run(["run", names.scans, "--out", names.out, "--today", "2026-12-06", "--pipeline", names.file + ".pipeline.json"])
        #expect(try run(["status", "--out", names.out]).contains("accepted"), "\(names.label)")
        _ = try run(["export", "--out", names.out])
        let zip = work.appendingPathComponent(names.out + "/exports/invoices.zip").path
        #expect(FileManager.default.fileExists(atPath: zip), "\(names.label): no zip")
        let said = try run(["export", "--out", names.out, "--format", "json", "--file", names.file + ".json"])
        // A line break in a path is shown as <U+000A>: a message stays one line.
        if names.file.contains("\n") { #expect(said.contains("new<U+000A>file.json"), "\(said)") }
        _ = try run(["import", names.file + ".json", "--out", names.out2, "--today", "2026-12-06"])
        _ = try run(["review", "--out", names.out, "--export", names.file + ".review.jsonl"])
        _ = try run(["review", "--out", names.out, "--apply", names.file + ".review.jsonl", "--today", "2026-12-06"])
        for command in [["memory", "list"], ["deadlines"], ["recurring"], ["rescore"], ["manifest", "--json"]] {
            _ = try run(command + ["--out", names.out])
        }
        _ = try run(["extract", names.scans + "/invoices/einv-cii-usd.xml", "--json", "--today", "2026-12-06"])
        _ = try run(["regress", fixtureDir, "--today", "2026-12-06", "--report", names.file + ".report.json"], expect: [0, 7])
        // A readers' folder that is not there: the run reads with tesseract alone and says why.
        _ = try run(["--version"], environment: ["SHOEBOX_READERS": names.out + "/no readers"])
        #expect(try snapshot(work.appendingPathComponent(names.scans)) == before, "\(names.label): the scan folder changed")
    }

    /// Paths that cannot work get their code and one sentence: a scan folder whose parents are missing, a
    /// scan folder that is a file, an output folder under a file, a bare leading dash (an option to the parser).
    @Test func pathsThatCannotWorkGetTheirSentence() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        try Data("x".utf8).write(to: work.appendingPathComponent("plain"))
        try FileManager.default.createDirectory(at: work.appendingPathComponent("s"), withIntermediateDirectories: true)
        let cases: [([String], Int32)] = [
            (["run", "n1/n2/s", "--out", "o"], 3),
            (["run", "plain", "--out", "o"], 3),
            (["run", "s", "--out", "plain/o"], 4),
            (["run", "-s", "--out", "o"], 2),
            (["import", "n1/n2/f.json", "--out", "o"], 2),
            (["review", "--out", "o", "--apply", "n1/n2/f.jsonl"], 2),
            (["run", "s", "--out", "o", "--log-json", "n1/n2/f.jsonl"], 4),
            (["run", "s", "--out", "o", "--pipeline", "n1/n2/p.json"], 6),
            (["run", "s", "--out", Self.deep + "/o"], 4),
            (["status", "--out", Self.deep + "/o"], 4),
            (["manifest", "--out", Self.deep + "/o"], 4)
        ]
        for (args, code) in cases {
            let r = try runProgram("/usr/bin/env", ["-C", work.path, shoebox] + args)
            #expect(r.code == code, "shoebox \(args.joined(separator: " ")): exit \(r.code), want \(code): \(r.err)")
            let lines = r.err.split(separator: "\n").filter { $0.hasPrefix("shoebox") }
            #expect(!lines.isEmpty, "shoebox \(args.joined(separator: " ")): no sentence on stderr: \(r.err)")
            #expect(!r.err.contains("Illegal instruction") && !r.err.contains("Fatal error"), "\(r.err)")
        }
    }
}
