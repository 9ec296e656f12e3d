import Foundation
import ShoeboxTestSupport
import Testing

@testable import ShoeboxCore

/// Runs the built `shoebox` binary (built by `make build` before the tests) as a user would.
/// SHOEBOX_BIN picks another build (`make check-asan` runs these tests on the AddressSanitizer build).
let shoebox = ProcessInfo.processInfo.environment["SHOEBOX_BIN"] ?? packageRoot.appendingPathComponent(".build/debug/shoebox").path
let today = "2026-11-30"

/// Every file under a folder with its sha256 and mode: to prove the scan folder is never modified.
func snapshot(_ dir: URL) throws -> [String: String] {
    let r = try runProgram(
        "/bin/sh", ["-c", "cd '\(dir.path)' && find . -exec stat -c '%n %a %s %Y' {} \\; | sort && find . -type f -exec sha256sum {} \\; | sort"])
    return ["listing": r.out]
}

/// Reads a CSV with Python's csv module (a real CSV reader) and returns the rows as JSON arrays.
func readCSV(_ data: Data) throws -> [[String]] {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("x.csv")
    try data.write(to: path)
    let python = try #require(which("python3"), "python3 is missing: apt-get install -y python3 (make setup)")
    let r = try runProgram(
        python, ["-c", "import csv,json,sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))))", path.path])
    #expect(r.code == 0, "python csv failed: \(r.err)")
    return try JSONDecoder().decode([[String]].self, from: Data(r.out.utf8))
}

@Suite(.serialized) struct EndToEndTests {
    /// Issue 53: a relative output folder whose first part is one character and does not exist yet (`--out o`,
    /// `a/b`, `y/`) stopped every command with "Illegal instruction" in Foundation's path code. Run, export and status
    /// each work from the folder the paths are relative to.
    @Test(.tags(.ocr), arguments: ["o", "a/b", "y/"]) func aOneCharacterOutputFolderWorksForEveryCommand(out: String) throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("receipts/eng-gb-grocer.png"), to: scans.appendingPathComponent("grocer.png"))
        let script = """
            cd "$1" && "$2" run scans --out "$3" --today 2026-12-06 --jobs 1 >/dev/null; r=$?; [ $r -le 1 ] || exit $r
            "$2" export --out "$3" >/dev/null || exit 20
            "$2" status --out "$3" >/dev/null || exit 21
            """
        let r = try runProgram("/bin/sh", ["-c", script, "sh", work.path, shoebox, out])
        #expect(r.code == 0, "exit \(r.code): \(r.err.suffix(400))")
        let folder = work.appendingPathComponent(out).path
        #expect(FileManager.default.fileExists(atPath: folder + "/records.jsonl"))
        #expect(FileManager.default.fileExists(atPath: folder + "/exports/unsorted.zip"))
    }

    @Test(.tags(.ocr)) func runExportStatusOnTheSampleFolderWithBadInputs() throws {
        #expect(FileManager.default.isExecutableFile(atPath: shoebox), "build first: make build")
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("sample-scans"), to: scans)
        let bad = scans.appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: bad, withIntermediateDirectories: true)
        // The five kinds of bad input of the issue.
        _ = FileManager.default.createFile(atPath: bad.appendingPathComponent("empty.jpg").path, contents: Data())
        let jpeg = try fixtureBytes("deu-baeckerei.jpg")
        _ = FileManager.default.createFile(atPath: bad.appendingPathComponent("truncated.jpg").path, contents: Data(jpeg.prefix(jpeg.count / 3)))
        _ = FileManager.default.createFile(atPath: bad.appendingPathComponent("notes.pdf").path, contents: Data("shopping list: milk, bread\n".utf8))
        let qpdf = try #require(which("qpdf"), "qpdf is missing: apt-get install -y qpdf (make setup)")
        try runProgram(
            qpdf,
            [
                "--encrypt", "secret", "owner", "256", "--", fixtures.path + "/receipts/eng-invoice-textpdf.pdf",
                bad.appendingPathComponent("locked.pdf").path
            ])
        let secret = bad.appendingPathComponent("secret.png")
        try FileManager.default.copyItem(atPath: fixtures.path + "/receipts/eng-gb-grocer.png", toPath: secret.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: secret.path)

        // Root reads any file: run as an unprivileged user so the unreadable file really is unreadable.
        let out = work.appendingPathComponent("out")
        let asUser = try unprivilegedCommand(shoebox, in: work)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: secret.path)
        let command = (asUser ?? [shoebox]) + ["run", scans.path, "--out", out.path, "--today", today, "--jobs", "2"]
        let unreadableTested = asUser != nil
        let before = try snapshot(scans)
        let run = try runProgram(command[0], Array(command.dropFirst()), environment: ["PATH": "/usr/bin:/bin", "HOME": work.path])
        #expect(run.code == 1, "exit 1 = finished with failures; stderr: \(run.err)")
        #expect(run.out.contains("14 files found, 14 processed"))
        #expect(try snapshot(scans) == before, "the scan folder must not change")

        // records.jsonl: one line per input document, every state.
        let lines = try String(contentsOf: out.appendingPathComponent("records.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 14)
        var bySource: [String: [String: Any]] = [:]
        for line in lines {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            bySource[o["source"] as! String] = o
        }
        func failureCode(_ name: String) -> String? { (bySource["bad/\(name)"]?["failure"] as? [String: Any])?["code"] as? String }
        #expect(failureCode("empty.jpg") == "empty-file")
        #expect(failureCode("truncated.jpg") == "truncated-image")
        #expect(failureCode("notes.pdf") == "unsupported-type")
        #expect(failureCode("locked.pdf") == "encrypted-pdf")
        if unreadableTested { #expect(failureCode("secret.png") == "unreadable-file") }
        for name in ["empty.jpg", "truncated.jpg", "notes.pdf", "locked.pdf"] {
            #expect(bySource["bad/\(name)"]?["status"] as? String == "failed")
        }
        // The sample receipts are read right.
        let berlin = try #require(bySource["2026-03-berlin-trip/IMG_0427.png"])
        let expected = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    contentsOf: fixtures.appendingPathComponent(
                        "sample-expected/2026-03-berlin-trip/IMG_0427.png.expected.json"))) as? [String: Any])
        for key in ["merchant", "date", "total", "currency"] { #expect(berlin[key] as? String == expected[key] as? String, "\(key)") }

        // A second run does nothing new and creates no record twice; only the unreadable file is tried again
        // (its permissions may have been fixed since).
        let again = try runProgram(command[0], Array(command.dropFirst()), environment: ["PATH": "/usr/bin:/bin", "HOME": work.path])
        let expectedAgain = unreadableTested ? "14 files found, 1 processed, 13 already done" : "14 files found, 0 processed, 14 already done"
        #expect(again.out.contains(expectedAgain), "\(again.out)")
        #expect(try String(contentsOf: out.appendingPathComponent("records.jsonl"), encoding: .utf8).split(separator: "\n").count == 14)

        // Export: per-folder zips, read back with unzip and Python's csv module.
        let export = try runProgram(shoebox, ["export", "--out", out.path])
        #expect(export.code == 0, "\(export.err)")
        let unzip = try #require(which("unzip"), "unzip is missing: apt-get install -y unzip (make setup)")
        let zip = out.appendingPathComponent("exports/2026-03-berlin-trip.zip").path
        #expect(try runProgram(unzip, ["-t", zip]).code == 0)
        let names = try runProgram(unzip, ["-Z1", zip]).out.split(separator: "\n").map(String.init)
        #expect(names.contains("summary.csv"))
        #expect(names.contains("receipts/2026-03-14_Café-Einstein-Stammhaus-GmbH_14.80-EUR.jpg") || names.contains { $0.hasPrefix("receipts/2026-") })
        let csvData = Data(try runProgram(unzip, ["-p", zip, "summary.csv"]).out.utf8)
        #expect(String(decoding: csvData, as: UTF8.self).contains("\r\n"))
        let rows = try readCSV(csvData)
        #expect(rows.first?.first == "date")
        #expect(rows.allSatisfy { $0.count == rows[0].count })
        let accepted = bySource.values.filter { ($0["folder"] as? String) == "2026-03-berlin-trip" && ($0["status"] as? String) == "accepted" }
        #expect(rows.count - 1 == accepted.count)
        #expect(names.filter { $0.hasPrefix("receipts/") }.count == accepted.count)
        let column = Dictionary(uniqueKeysWithValues: rows[0].enumerated().map { ($1, $0) })
        for row in rows.dropFirst() {
            let record = try #require(accepted.first { $0["sha256"] as? String == row[column["sha256"]!] })
            #expect(row[column["total"]!] == record["total"] as? String)
            #expect(row[column["merchant"]!] == record["merchant"] as? String)
        }
        // Failed documents never reach an export.
        let badZip = out.appendingPathComponent("exports/bad.zip").path
        let badListing = try runProgram(unzip, ["-Z1", badZip]).out
        #expect(FileManager.default.fileExists(atPath: badZip))
        #expect(!badListing.contains("receipts/"), "\(badListing)")
        #expect(try readCSV(Data(try runProgram(unzip, ["-p", badZip, "summary.csv"]).out.utf8)).count == 1, "a header and no rows")

        // The same store exports byte-identical zips.
        let first = try Data(contentsOf: URL(fileURLWithPath: zip))
        #expect(try runProgram(shoebox, ["export", "--out", out.path]).code == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: zip)) == first)

        let status = try runProgram(shoebox, ["status", "--out", out.path])
        #expect(status.code == 0)
        #expect(status.out.contains("failed  bad/locked.pdf: encrypted-pdf"))
    }

    @Test(.tags(.ocr)) func aKilledRunResumesWithoutRecordingAnythingTwice() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let files = try fixtureReceiptsFolder(in: work).files
        let out = work.appendingPathComponent("out").path
        let args = ["run", work.appendingPathComponent("scans").path, "--out", out, "--jobs", "1", "--today", today]

        // Kill -9 part-way through: as soon as the store holds a first document (asked with the sqlite3 tool,
        // which reads beside the writer in WAL mode), not after a fixed time that a slow machine would miss.
        let p = try startProgram(shoebox, args)
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            let count = try? runProgram(try #require(which("sqlite3")), [out + "/store.sqlite", "SELECT count(*) FROM sources"])
            if let n = count.flatMap({ Int($0.out.trimmingCharacters(in: .whitespacesAndNewlines)) }), n >= 1 { break }
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal)

        let resumed = try runProgram(shoebox, args)
        #expect(resumed.code == 0, "\(resumed.err)")
        #expect(resumed.out.contains("\(files.count) files found"))
        #expect(!resumed.out.contains("0 already done"), "the killed run stored nothing: \(resumed.out)")
        let lines = try String(contentsOf: URL(fileURLWithPath: out + "/records.jsonl"), encoding: .utf8).split(separator: "\n")
        let sources = try lines.map { line -> String in
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(o["source"] as? String)
        }
        #expect(sources.count == files.count)
        #expect(Set(sources).count == files.count)
    }

    @Test(.tags(.ocr)) func oneRunAtATimePerOutputFolder() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans/r")
        try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
        for f in ["deu-supermarkt.png", "eng-gb-grocer.png", "fra-boulangerie.png", "spa-supermercado.png"] {
            try FileManager.default.copyItem(atPath: fixtures.path + "/receipts/" + f, toPath: scans.appendingPathComponent(f).path)
        }
        let out = work.appendingPathComponent("out").path
        let args = ["run", work.appendingPathComponent("scans").path, "--out", out, "--jobs", "1", "--today", today]
        let first = try startProgram(shoebox, args)
        // Wait until the first run holds the lock (it writes its pid into run.lock).
        for _ in 0..<100 where (try? String(contentsOfFile: out + "/run.lock", encoding: .utf8))?.isEmpty ?? true {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let second = try runProgram(shoebox, args)
        #expect(second.code == 8)
        #expect(second.err.contains("another shoebox run (process \(first.processIdentifier))"))
        let waiting = try runProgram(shoebox, args + ["--wait"])
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        #expect(waiting.code == 0)
        #expect(waiting.out.contains("4 files found, 0 processed, 4 already done"), "\(waiting.out)")
    }

    @Test(.tags(.ocr)) func extractJSONReadsEverySyntheticFixture() throws {
        let dir = fixtures.appendingPathComponent("receipts")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 15)
        let r = try runProgram(shoebox, ["extract", "--json", "--today", today] + files.map { dir.appendingPathComponent($0).path })
        #expect(r.code == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == files.count)
        for (file, line) in zip(files, lines) {
            let found = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let stem = (file as NSString).deletingPathExtension
            // A standalone XML e-invoice is its own expectation (EInvoiceEndToEndTests scores it with `regress`).
            if file.hasSuffix(".xml") {
                #expect(found["status"] as? String == "accepted", "\(file)")
                continue
            }
            let expected = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("\(stem).expected.json"))) as? [String: Any])
            for key in ["merchant", "date", "total", "currency"] {
                #expect(found[key] as? String == expected[key] as? String, "\(file) \(key)")
            }
        }
    }

    @Test func usageErrorsAreOneLineAndExitTwo() throws {
        let unknown = try runProgram(shoebox, ["run", "x", "--frobnicate"])
        #expect(unknown.code == 2)
        #expect(unknown.err == "shoebox run: unknown option '--frobnicate'. See 'shoebox run --help'.\n")
        let missing = try runProgram(shoebox, ["run", "x", "--out"])
        #expect(missing.code == 2)
        #expect(missing.err == "shoebox run: option '--out' needs a value. See 'shoebox run --help'.\n")
        let badJobs = try runProgram(shoebox, ["run", "x", "--jobs", "zero"])
        #expect(badJobs.code == 2)
        #expect(try runProgram(shoebox, ["frob"]).code == 2)
        let noScans = try runProgram(shoebox, ["run", "/nonexistent/scans", "--out", NSTemporaryDirectory() + "/sb-\(UUID())"])
        #expect(noScans.code == 3)
        #expect(noScans.err.contains("does not exist"))
    }

    @Test func helpOnEveryVerbAndVersions() throws {
        for verb in ["run", "extract", "status", "export", "regress"] {
            let r = try runProgram(shoebox, [verb, "--help"])
            #expect(r.code == 0)
            #expect(r.out.hasPrefix("usage: shoebox \(verb)"))
        }
        let v = try runProgram(shoebox, ["--version"])
        #expect(v.code == 0)
        for lib in ["shoebox 0.", "tesseract 5.", "leptonica-1.", "poppler 22.", "libarchive 3.", "sqlite 3."] {
            #expect(v.out.contains(lib), "\(lib) in \(v.out)")
        }
    }

    @Test func aBadPipelineFileNamesTheKeyAndTheFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.json").path
        try Data(#"{"version": 1, "dpi": "high"}"#.utf8).write(to: URL(fileURLWithPath: file))
        let r = try runProgram(shoebox, ["extract", fixtures.path + "/receipts/eng-gb-grocer.png", "--pipeline", file])
        #expect(r.code == 6)
        #expect(r.err.contains(file) && r.err.contains("\"dpi\""))
    }

    @Test func theOMPLimitIsInForce() throws {
        // libgomp reads OMP_THREAD_LIMIT when it loads: the binary re-executes itself with it set when unset.
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "OMP_THREAD_LIMIT")
        let r = try runProgram(shoebox, ["--version"], environment: env)
        #expect(r.code == 0)
        #expect(r.out.contains("OMP_THREAD_LIMIT=1\n"))
        // A value the user set is kept.
        env["OMP_THREAD_LIMIT"] = "2"
        #expect(try runProgram(shoebox, ["--version"], environment: env).out.contains("OMP_THREAD_LIMIT=2\n"))
    }
}

/// `shoebox review` as a person and as a script would use it.
@Suite(.serialized) struct ReviewEndToEndTests {
    @Test(.tags(.ocr)) func aReviewSessionThroughPipedInputThenApplyWithABadLine() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let office = work.appendingPathComponent("scans/office")
        try FileManager.default.createDirectory(at: office, withIntermediateDirectories: true)
        for f in ["IMG_2201.jpg", "scan_0007.png", "scan_2026-02-03_001.pdf"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("sample-scans/office-supplies/\(f)"), to: office.appendingPathComponent(f))
        }
        // Sidecars: one disagrees with the printed total (97.52), one does not validate.
        try Data(#"{"total": "79.52"}"#.utf8).write(to: office.appendingPathComponent("IMG_2201.jpg.json"))
        try Data(#"{"date": "2026-13-01"}"#.utf8).write(to: office.appendingPathComponent("scan_0007.png.json"))
        let out = work.appendingPathComponent("out").path
        let run = try runProgram(
            shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today, "--pipeline", try rulesOnlyPipeline(in: work)]
        )
        #expect(run.code == 0, "\(run.err)")
        #expect(run.out.contains("3 files found"), "sidecars are not documents: \(run.out)")
        let status = try runProgram(shoebox, ["status", "--out", out])
        #expect(status.out.contains("review  office/IMG_2201.jpg: sources-disagree"), "\(status.out)")
        #expect(status.out.contains("review  office/scan_0007.png: sidecar-invalid"), "\(status.out)")

        // A person: a bad amount is refused and asked again, the edit is undone, set again, accepted; then quit.
        let session = try runProgram(shoebox, ["review", "--out", out, "--today", today], input: "e total 12,3x\n97.52\nu\ne total 97,52\na\nq\n")
        #expect(session.code == 0, "\(session.err)")
        #expect(session.out.contains("[1/2] office/IMG_2201.jpg"), "\(session.out)")
        #expect(
            session.out.contains(") total 79.52   0.70  sidecar: the sidecar says 79.52"),
            "the sidecar's value is the first total alternate: \(session.out)")
        #expect(session.out.contains("refused: '12,3x' is not an amount"), "\(session.out)")
        #expect(session.out.contains("undone: edit total on office/IMG_2201.jpg"), "\(session.out)")
        #expect(session.out.contains("accepted."), "\(session.out)")
        #expect(session.out.contains("[1/1] office/scan_0007.png"), "\(session.out)")

        // The queue, for a script: only the record left.
        let queueFile = work.appendingPathComponent("queue.jsonl").path
        #expect(try runProgram(shoebox, ["review", "--out", out, "--export", queueFile]).code == 0)
        let queue = try String(contentsOfFile: queueFile, encoding: .utf8).split(separator: "\n")
        #expect(queue.count == 1)
        #expect(queue.first?.contains(#""source":"office/scan_0007.png""#) == true)
        #expect(queue.first?.contains(#""evidence":"#) == true)

        // A decisions file with one bad line: reported with its number, nothing applied.
        let decisions = work.appendingPathComponent("decisions.jsonl").path
        try Data(
            """
            {"source": "office/scan_0007.png", "action": "accept", "fields": {"date": "2026-01-05"}}
            {"source": "office/scan_0007.png", "action": "explode"}

            """.utf8
        ).write(to: URL(fileURLWithPath: decisions))
        let bad = try runProgram(shoebox, ["review", "--out", out, "--apply", decisions, "--today", today])
        #expect(bad.code == 2)
        #expect(bad.err.contains("decisions.jsonl:2: \"action\" must be one of"), "\(bad.err)")
        #expect(bad.err.contains("nothing was applied"), "\(bad.err)")
        #expect(try runProgram(shoebox, ["status", "--out", out]).out.contains("review  office/scan_0007.png"))
        try Data(#"{"source": "office/scan_0007.png", "action": "accept", "fields": {"date": "2026-01-05"}}"#.utf8 + Data("\n".utf8))
            .write(to: URL(fileURLWithPath: decisions))
        let good = try runProgram(shoebox, ["review", "--out", out, "--apply", decisions, "--today", today])
        #expect(good.code == 0, "\(good.err)")

        // Confirmed records reach the export; the accuracy report compares suggestions with confirmations.
        let accuracy = try runProgram(shoebox, ["status", "--out", out, "--accuracy"])
        #expect(accuracy.out.contains("0 review"), "\(accuracy.out)")
        #expect(accuracy.out.contains("2 records confirmed by a person"), "\(accuracy.out)")
        let export = try runProgram(shoebox, ["export", "--out", out])
        #expect(export.code == 0, "\(export.err)")
        #expect(export.out.contains("3 accepted records"), "\(export.out)")
        let zip = out + "/exports/office.zip"
        let csv = try runProgram(try #require(which("unzip")), ["-p", zip, "summary.csv"])
        let rows = try readCSV(Data(csv.out.utf8))
        #expect(rows.contains { $0.contains("97.52") && $0.contains { $0.hasSuffix("IMG_2201.jpg") } }, "\(rows)")
    }
}

@Suite(.serialized) struct DuplicateEndToEndTests {
    @Test(.tags(.ocr)) func theSamePaperAgainIsSuspectedAndTheSameBytesAreKnown() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        let a = scans.appendingPathComponent("a")
        let b = scans.appendingPathComponent("b")
        try FileManager.default.createDirectory(at: a, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: b, withIntermediateDirectories: true)
        let original = fixtures.appendingPathComponent("sample-scans/office-supplies/IMG_2201.jpg")
        try FileManager.default.copyItem(at: original, to: a.appendingPathComponent("IMG_2201.jpg"))
        try FileManager.default.copyItem(at: original, to: b.appendingPathComponent("same-bytes.jpg"))
        // The same paper again: scaled to 90 %, turned 2°, re-encoded at quality 80 (ImageMagick, installed by make setup).
        let convert = try #require(which("convert"), "ImageMagick is missing: make setup")
        let made = try runProgram(
            convert,
            [
                original.path, "-resize", "90%", "-background", "white", "-rotate", "2", "-quality", "80",
                b.appendingPathComponent("rescan.jpg").path
            ])
        #expect(made.code == 0, "\(made.err)")
        let out = work.appendingPathComponent("out").path
        // The rules alone decide acceptance: the test is about duplicates, and expects the original accepted.
        let run = try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today, "--pipeline", try rulesOnlyPipeline(in: work)])
        #expect(run.code == 0, "\(run.err)")
        let status = try runProgram(shoebox, ["status", "--out", out]).out
        #expect(status.contains("duplicate  b/same-bytes.jpg of a/IMG_2201.jpg"), "\(status)")
        #expect(status.contains("review  b/rescan.jpg: possible-duplicate"), "\(status)")
        let records = try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8)
        #expect(records.contains(#""duplicateOf":"a/IMG_2201.jpg""#), "the suspect names the other record")
        // A person denies it: the record stays, without the reason.
        _ = try runProgram(shoebox, ["review", "--out", out, "--today", today], input: "n\na\nq\n")
        let after = try runProgram(shoebox, ["status", "--out", out]).out
        #expect(after.contains("3 documents: 2 accepted, 0 review, 1 duplicate"), "\(after)")
    }
}

@Suite(.serialized, .tags(.ocr)) struct PrivacyEndToEndTests {
    /// No network, by construction: a run without any network (a fresh network namespace) gives the same
    /// records as a run with it, and a run traced with strace makes no network call at all, not even a
    /// local socket.
    @Test func aRunOpensNoSocketAndNeedsNoNetwork() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("sample-scans"), to: scans)
        let unshare = try #require(which("unshare"), "unshare is missing: apt-get install -y util-linux (make setup)")
        let strace = try #require(which("strace"), "strace is missing: apt-get install -y strace (make setup)")
        let offline = work.appendingPathComponent("offline").path
        let traced = work.appendingPathComponent("traced").path
        let a = try runProgram(unshare, ["-n", shoebox, "run", scans.path, "--out", offline, "--today", today])
        #expect(a.code == 0, "shoebox under unshare -n (needs root or user namespaces): \(a.err)")
        let trace = work.appendingPathComponent("trace.txt").path
        let b = try runProgram(strace, ["-f", "-e", "trace=network", "-o", trace, shoebox, "run", scans.path, "--out", traced, "--today", today])
        #expect(b.code == 0, "\(b.err)")
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter {
            !$0.contains("+++ exited") && !$0.contains("--- SIG")
        }
        #expect(calls.isEmpty, "network calls: \(calls.prefix(5))")
        let offlineRecords = try String(contentsOfFile: offline + "/records.jsonl", encoding: .utf8)
        let tracedRecords = try String(contentsOfFile: traced + "/records.jsonl", encoding: .utf8)
        #expect(offlineRecords == tracedRecords)
        #expect(offlineRecords.split(separator: "\n").count == 9)
    }
}

@Suite(.serialized) struct FileNameEndToEndTests {
    /// Issue 33, class 1: one rule decides which names a store holds. A name that is not UTF-8 (bad-file-name) or holds
    /// a control character (control-character-in-name: a line break, a tab, in the file's name or a folder's) is listed
    /// with U+FFFD and refused by that name; a symbolic link gets a record, never followed. Nothing of it blocks an
    /// export (of the whole store or of another folder), splits a line of the summary, or stops the JSON round trip.
    @Test func namesAStoreCannotHoldAreRefusedByNameAndBlockNothing() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        for folder in ["a", "ok"] {
            try FileManager.default.createDirectory(at: scans.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let png = fixtures.appendingPathComponent("sample-scans/office-supplies/scan_0007.png").path
        let jpg = fixtures.appendingPathComponent("sample-scans/office-supplies/IMG_2201.jpg").path
        // Latin-1 "café.png" (byte 0xE9), a newline and a tab in file names, a tab in a folder's name: made by the shell.
        let a = scans.appendingPathComponent("a").path
        let made = try runProgram(
            "/bin/sh",
            [
                "-c",
                "cp '\(png)' \"$(printf '\(a)/caf\\351.png')\" && cp '\(jpg)' \"$(printf '\(a)/two\\nlines.jpg')\" && "
                    + "cp '\(png)' \"$(printf '\(a)/tab\\there.png')\" && mkdir \"$(printf '\(scans.path)/b\\tc')\" && "
                    + "cp '\(png)' \"$(printf '\(scans.path)/b\\tc/x.png')\" && cp '\(jpg)' '\(scans.path)/ok/good.jpg'"
            ])
        #expect(made.code == 0, "\(made.err)")
        try FileManager.default.createSymbolicLink(atPath: scans.appendingPathComponent("ok/link.jpg").path, withDestinationPath: "good.jpg")
        let out = work.appendingPathComponent("out").path
        // The rules alone decide acceptance: the test is about names.
        let pipeline = try rulesOnlyPipeline(in: work)
        let run = try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today, "--pipeline", pipeline])
        #expect(run.code == 1, "the refused names are failed documents: \(run.out) \(run.err)")
        #expect(run.out.contains("6 files found"), "\(run.out)")
        #expect(run.out.contains("1 bad-file-name, 3 control-character-in-name, 1 not-a-regular-file"), "\(run.out)")
        // No control character reaches the summary: each document's line is one line.
        #expect(!run.out.unicodeScalars.contains { $0 == "\t" || ($0.properties.generalCategory == .control && $0 != "\n") }, "\(run.out)")
        #expect(run.out.split(separator: "\n").filter { $0.hasPrefix("  failed  ") }.count == 5, "\(run.out)")
        let lines = try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8).split(separator: "\n")
        var bySource: [String: [String: Any]] = [:]
        for line in lines {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            bySource[try #require(o["source"] as? String)] = o
        }
        func code(_ source: String) -> String? { (bySource[source]?["failure"] as? [String: Any])?["code"] as? String }
        #expect(code("a/caf\u{FFFD}.png") == "bad-file-name", "\(bySource.keys.sorted())")
        #expect(code("a/two\u{FFFD}lines.jpg") == "control-character-in-name")
        #expect(code("a/tab\u{FFFD}here.png") == "control-character-in-name")
        #expect(code("b\u{FFFD}c/x.png") == "control-character-in-name")
        #expect(code("ok/link.jpg") == "not-a-regular-file")
        #expect(bySource["ok/good.jpg"]?["status"] as? String == "accepted", "\(bySource["ok/good.jpg"] ?? [:])")
        #expect(bySource.keys.allSatisfy { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } })

        // Every export works: the whole store, and one folder beside the ones with refused names.
        let whole = try runProgram(shoebox, ["export", "--out", out])
        #expect(whole.code == 0, "\(whole.out) \(whole.err)")
        #expect(whole.out.contains("ok.zip: 1 accepted record"), "\(whole.out)")
        let one = try runProgram(shoebox, ["export", "--out", out, "--folder", "ok"])
        #expect(one.code == 0, "\(one.out) \(one.err)")
        let listing = try runProgram("/usr/bin/unzip", ["-Z1", out + "/exports/ok.zip"])
        #expect(listing.code == 0 && listing.out.contains("receipts/"), "\(listing.out) \(listing.err)")

        // What the run wrote, import takes, and the store travels whole.
        let first = work.appendingPathComponent("first.json").path
        let second = work.appendingPathComponent("second.json").path
        #expect(try runProgram(shoebox, ["export", "--out", out, "--format", "json", "--file", first]).code == 0)
        let other = work.appendingPathComponent("other").path
        let imported = try runProgram(shoebox, ["import", first, "--out", other, "--today", today])
        #expect(imported.code == 0 && imported.out.contains("6 documents added"), "\(imported.out) \(imported.err)")
        #expect(try runProgram(shoebox, ["export", "--out", other, "--format", "json", "--file", second]).code == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))

        // A refused name stays refused for the same reason, and is not done again on the next run.
        let again = try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today, "--pipeline", pipeline])
        #expect(again.out.contains("6 files found, 1 processed, 5 already done"), "only the link is looked at again: \(again.out)")
    }
}

@Suite(.serialized) struct BrokenFilesEndToEndTests {
    /// Truncated and bit-flipped PDFs, JPEGs, PNGs and TIFFs, a zero-page PDF, a symlink loop: every file
    /// ends in a named state, the run neither crashes nor hangs.
    @Test(.tags(.ocr)) func brokenFilesEndInNamedStates() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = work.appendingPathComponent("scans/broken")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var generator = SplitMix64(seed: 20_261_130) // fixed: the same broken files on every run
        var expected = 0
        for name in ["deu-baeckerei.jpg", "eng-us-hardware.png", "fra-mobilier.pdf", "eng-invoice-textpdf.pdf"] {
            let bytes = [UInt8](try fixtureBytes(name))
            let ext = (name as NSString).pathExtension
            for cut in [1, 2, 3] {
                try Data(bytes.prefix(bytes.count * cut / 4)).write(to: folder.appendingPathComponent("\(name)-cut\(cut).\(ext)"))
                expected += 1
            }
            for flip in 0..<4 {
                var b = bytes
                for _ in 0..<8 {
                    let i = Int.random(in: 0..<b.count, using: &generator)
                    b[i] ^= UInt8.random(in: 1...255, using: &generator)
                }
                try Data(b).write(to: folder.appendingPathComponent("\(name)-flip\(flip).\(ext)"))
                expected += 1
            }
        }
        // A three-page TIFF, whole, truncated and bit-flipped (made with ImageMagick from the fixtures).
        let convert = try #require(which("convert"), "ImageMagick is missing: apt-get install -y imagemagick (make setup)")
        let tiff = work.appendingPathComponent("three.tif").path
        let made = try runProgram(
            convert,
            ["eng-gb-grocer.png", "deu-supermarkt.png", "msa-kedai-runcit.png", "-compress", "lzw", tiff].map {
                $0.hasSuffix(".png") ? fixtures.path + "/receipts/" + $0 : $0
            })
        #expect(made.code == 0, "\(made.err)")
        let tiffBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: tiff)))
        try Data(tiffBytes).write(to: folder.appendingPathComponent("three.tif"))
        try Data(tiffBytes.prefix(tiffBytes.count / 2)).write(to: folder.appendingPathComponent("three-cut.tif"))
        for flip in 0..<3 {
            var b = tiffBytes
            for _ in 0..<8 {
                let i = Int.random(in: 0..<b.count, using: &generator)
                b[i] ^= UInt8.random(in: 1...255, using: &generator)
            }
            try Data(b).write(to: folder.appendingPathComponent("three-flip\(flip).tif"))
        }
        expected += 5
        // A PDF of 2,000 pages (the text-layer fixture again and again): read in bounded time and memory,
        // sent to review because only its first and last pages were parsed.
        let qpdf = try #require(which("qpdf"), "qpdf is missing (make setup)")
        let invoice = fixtures.path + "/receipts/eng-invoice-textpdf.pdf"
        let long = try runProgram(
            qpdf, ["--empty", "--pages"] + Array(repeating: invoice, count: 2000) + ["--", folder.appendingPathComponent("thousands.pdf").path])
        #expect(long.code == 0, "\(long.err)")
        expected += 1
        // A TIFF header with nothing after it, and a PDF whose page tree is empty.
        try Data([0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]).write(to: folder.appendingPathComponent("header-only.tif"))
        let emptyPDF =
            "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
        try Data(emptyPDF.utf8).write(to: folder.appendingPathComponent("no-pages.pdf"))
        expected += 2
        // A PDF page drawing an image that says it is 20000 × 20000 pixels (its data a few bytes): refused from
        // its stored size (poppler would make surfaces of 1.6 GB to decode it).
        try onePageImagePDF(
            pointsWide: 1440, pointsHigh: 1440, width: 20000, height: 20000, filter: "ASCIIHexDecode",
            data: Array("FF>".utf8)
        ).write(to: folder.appendingPathComponent("huge-image.pdf"))
        expected += 1
        // A black-and-white scan stored as CCITT fax data (decoded by leptonica, not poppler), whole and bit-flipped.
        let fax = try faxData("eng-gb-grocer.png", in: work)
        let faxPDF = [UInt8](
            onePageImagePDF(
                pointsWide: 216, pointsHigh: 325, width: fax.width, height: fax.height, bitsPerComponent: 1,
                filter: "CCITTFaxDecode", decodeParms: "<</K -1/Columns \(fax.width)>>", data: fax.data))
        try Data(faxPDF).write(to: folder.appendingPathComponent("fax.pdf"))
        let faxStart = try #require(faxPDF.firstRange(of: fax.data.prefix(64))).lowerBound
        for flip in 0..<3 {
            var b = faxPDF
            for _ in 0..<8 {
                let i = Int.random(in: faxStart..<faxStart + fax.data.count, using: &generator)
                b[i] ^= UInt8.random(in: 1...255, using: &generator)
            }
            try Data(b).write(to: folder.appendingPathComponent("fax-flip\(flip).pdf"))
        }
        expected += 4
        // A symbolic link loop is not followed: a record of its own, not-a-regular-file.
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop").path, withDestinationPath: folder.path)
        expected += 1
        let out = work.appendingPathComponent("out").path
        let start = Date()
        let run = try runProgram(shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today])
        #expect(run.code == 0 || run.code == 1, "exit \(run.code): \(run.err)")
        #expect(Date().timeIntervalSince(start) < 600)
        let lines = try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == expected, "every file has a record: \(lines.count) of \(expected)")
        for line in lines {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let status = try #require(o["status"] as? String)
            #expect(["accepted", "review", "failed", "duplicate"].contains(status))
            if status == "failed" {
                let failure = try #require(o["failure"] as? [String: Any])
                #expect((failure["code"] as? String)?.isEmpty == false)
                #expect(((failure["message"] as? String) ?? "").count > 20)
            }
        }
        let records = try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8)
        #expect(records.contains(#""code":"no-pages""#))
        func record(_ name: String) throws -> [String: Any] {
            let line = try #require(lines.first { $0.contains(#""source":"broken/\#(name)""#) }, "\(name) has no record")
            return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let huge = try record("huge-image.pdf")
        #expect((huge["failure"] as? [String: Any])?["code"] as? String == "image-too-large", "\(huge)")
        let faxRecord = try record("fax.pdf")
        #expect(faxRecord["merchant"] as? String == "Harbour Lane Grocers Ltd", "\(faxRecord)")
        let three = try record("three.tif")
        #expect(three["pages"] as? Int == 3, "every page of a TIFF is read: \(three)")
        let thousands = try record("thousands.pdf")
        #expect(thousands["pages"] as? Int == 2000)
        #expect(thousands["status"] as? String == "review")
        #expect((thousands["reasons"] as? [String])?.contains("long-document") == true, "\(thousands)")
    }

    /// An output folder inside the scan folder is not read as scans (nor is its store a "document").
    @Test func anOutputFolderInsideTheScansIsNotRead() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        try FileManager.default.createDirectory(at: scans.appendingPathComponent("f"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixtures.path + "/receipts/eng-gb-grocer.png", toPath: scans.appendingPathComponent("f/a.png").path)
        for _ in 0..<2 {
            let run = try runProgram(shoebox, ["run", scans.path, "--out", scans.appendingPathComponent("out").path, "--today", today])
            #expect(run.code == 0, "\(run.err)")
            #expect(run.out.hasPrefix("shoebox run: 1 files found"), "\(run.out)")
        }
    }
}

@Suite(.serialized) struct PageTimeoutEndToEndTests {
    @Test func aPageOverItsTimeIsAbandonedWithAReason() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let pipeline = work.appendingPathComponent("tiny.json")
        try Data(#"{"version": 1, "pageTimeoutSeconds": 0.001}"#.utf8).write(to: pipeline)
        let r = try runProgram(
            shoebox,
            [
                "extract", fixtures.appendingPathComponent("receipts/eng-us-hardware.png").path,
                "--pipeline", pipeline.path, "--json", "--today", today
            ])
        #expect(r.code == 1, "\(r.err)")
        #expect(r.out.contains(#""code":"page-timeout""#), "\(r.out)")
        let bad = try runProgram(
            shoebox,
            [
                "extract", "x.png", "--pipeline",
                {
                    try? Data(#"{"version": 1, "pageTimeoutSeconds": 0}"#.utf8).write(to: pipeline)
                    return pipeline.path
                }()
            ])
        #expect(bad.code == 6)
        #expect(bad.err.contains("pageTimeoutSeconds"), "\(bad.err)")
    }
}

/// Reads an export zip with real readers (Debian's python3: zipfile, csv, openpyxl, hashlib) and returns
/// what they saw, as JSON.
func readExportZip(_ zip: String, delimiter: String = ",") throws -> [String: Any] {
    let script = #"""
        import csv, hashlib, io, json, sys, zipfile, openpyxl
        z = zipfile.ZipFile(sys.argv[1]); delim = sys.argv[2]
        names = z.namelist()
        def rows(name):
            text = z.read(name).decode('utf-8')
            return list(csv.reader(io.StringIO(text.lstrip('\ufeff'), newline=''), delimiter=delim))
        ws = openpyxl.load_workbook(io.BytesIO(z.read('summary.xlsx'))).active
        xlsx = [[{'v': (c.value.date().isoformat() if hasattr(c.value, 'date') else c.value), 't': c.data_type, 'f': c.number_format} for c in r] for r in ws.iter_rows()]
        manifest_ok = all(hashlib.sha256(z.read(n)).hexdigest() == h for h, n in (l.split('  ', 1) for l in z.read('MANIFEST.sha256').decode().splitlines()))
        manifest_names = sorted(l.split('  ', 1)[1] for l in z.read('MANIFEST.sha256').decode().splitlines())
        print(json.dumps({'names': names, 'summary': rows('summary.csv'), 'totals': rows('totals.csv'), 'xlsx': xlsx,
                          'frozen': ws.freeze_panes, 'manifestOK': manifest_ok, 'manifestNames': manifest_names,
                          'ledger': z.read('ledger.beancount').decode(), 'json': json.loads(z.read('summary.json')),
                          'bom': z.read('summary.csv')[:3] == b'\xef\xbb\xbf'}))
        """#
    // Debian's python3 (make setup installs python3-openpyxl for it), whatever python3 PATH finds first.
    let r = try runProgram("/usr/bin/python3", ["-c", script, zip, delimiter])
    #expect(r.code == 0, "reading \(zip) failed: \(r.err)")
    return try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
}

@Suite(.serialized, .tags(.ocr)) struct ExportEndToEndTests {
    @Test func theFinanceZipReadsBackTheSameEverywhere() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        let trip = scans.appendingPathComponent("trip")
        let office = scans.appendingPathComponent("office")
        for dir in [trip, office] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        for f in ["IMG_0412.jpg", "IMG_0427.png", "IMG_0433.jpg"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("sample-scans/2026-03-berlin-trip/\(f)"), to: trip.appendingPathComponent(f))
        }
        for f in ["scan_0007.png", "scan_2026-02-03_001.pdf"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("sample-scans/office-supplies/\(f)"), to: office.appendingPathComponent(f))
        }
        let injection = #"=HYPERLINK("http://x","y")"#
        try JSONSerialization.data(withJSONObject: ["merchant": injection]).write(to: trip.appendingPathComponent("IMG_0412.jpg.json"))
        try Data(#"{"defaultCategory": "work trip", "categories": ["work trip", "medical"]}"#.utf8).write(
            to: trip.appendingPathComponent(".shoebox.json"))
        let pipeline = work.appendingPathComponent("pipeline.json")
        // The rules alone decide what is accepted (`acceptPrecision` 0): the test is about the zip of accepted records.
        try Data(
            #"{"version": 1, "acceptPrecision": 0, "categoryRules": [{"keyword": "museum", "category": "medical"}, {"keyword": "taxi", "category": "travel"}]}"#
                .utf8
        )
        .write(to: pipeline)

        let out = work.appendingPathComponent("out").path
        let run = try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today, "--pipeline", pipeline.path])
        #expect(run.code == 0, "\(run.err)")
        #expect(try runProgram(shoebox, ["status", "--out", out]).out.contains("review  trip/IMG_0412.jpg: sources-disagree"))
        // The person takes the sidecar's merchant: a formula, as far as a spreadsheet is concerned.
        let decisions = work.appendingPathComponent("d.jsonl")
        try
            (JSONSerialization.data(withJSONObject: ["source": "trip/IMG_0412.jpg", "action": "accept", "fields": ["merchant": injection]])
            + Data("\n".utf8))
            .write(to: decisions)
        let applied = try runProgram(shoebox, ["review", "--out", out, "--apply", decisions.path, "--today", today])
        #expect(applied.code == 0, "\(applied.err)")

        let export = try runProgram(shoebox, ["export", "--out", out, "--pipeline", pipeline.path])
        #expect(export.code == 0, "\(export.err)")
        let unzip = try #require(which("unzip"), "unzip is missing (make setup)")
        let tripZip = out + "/exports/trip.zip"
        let officeZip = out + "/exports/office.zip"
        for zip in [tripZip, officeZip] { #expect(try runProgram(unzip, ["-t", zip]).code == 0, "unzip -t \(zip)") }

        // The store's values, as the export must show them.
        var records: [String: [String: Any]] = [:]
        for line in try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8).split(separator: "\n") {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            records[o["source"] as! String] = o
        }
        let z = try readExportZip(tripZip)
        let summary = try #require(z["summary"] as? [[String]])
        let header = summary[0]
        let col = Dictionary(uniqueKeysWithValues: header.enumerated().map { ($1, $0) })
        #expect(Array(header.prefix(5)) == ["date", "merchant", "total", "currency", "net"])
        #expect(
            Array(header.suffix(19)) == [
                "tip", "amount_due", "payment_method", "card_scheme", "card_last4", "provider", "paid_from", "category", "note", "reference_number",
                "seller_tax_id", "document_kind", "due_date", "file",
                "original_path", "sha256", "confidence", "reviewed_by", "record_id"
            ])
        #expect(header.contains("tax_19"), "a tax column per rate: \(header)")
        #expect(summary.count == 4, "three accepted records: \(summary)")
        #expect(summary.allSatisfy { $0.count == header.count })
        let xlsx = try #require(z["xlsx"] as? [[[String: Any]]])
        #expect(xlsx.count == summary.count)
        #expect(z["frozen"] as? String == "A2", "the header row is frozen")
        for (i, row) in summary.enumerated().dropFirst() {
            let source = row[col["original_path"]!]
            let record = try #require(records[source])
            if source == "trip/IMG_0412.jpg" {
                // Neutralised in CSV and XLSX alike; the person's value, not the document's.
                #expect(row[col["merchant"]!] == "'" + injection)
                #expect(xlsx[i][col["merchant"]!]["v"] as? String == "'" + injection)
                #expect(xlsx[i][col["merchant"]!]["t"] as? String == "s")
                #expect(row[col["reviewed_by"]!] == "person")
            } else {
                #expect(row[col["merchant"]!] == record["merchant"] as? String)
                #expect(row[col["reviewed_by"]!] == "pipeline")
            }
            #expect(row[col["total"]!] == record["total"] as? String)
            #expect(row[col["date"]!] == record["date"] as? String)
            #expect(row[col["sha256"]!] == record["sha256"] as? String)
            #expect(
                row[col["category"]!] == (source.contains("0427") ? "medical" : "work trip"), "rules apply only where the folder allows them: \(row)")
            // XLSX: the same values, amounts as numbers with two decimals, the date as a date.
            let total = xlsx[i][col["total"]!]
            #expect(total["t"] as? String == "n")
            #expect(total["f"] as? String == "0.00")
            #expect((total["v"] as? Double).map { String(format: "%.2f", $0) } == row[col["total"]!])
            #expect(xlsx[i][col["date"]!]["t"] as? String == "d")
            #expect(xlsx[i][col["date"]!]["v"] as? String == row[col["date"]!])
            #expect(xlsx[i][col["sha256"]!]["v"] as? String == row[col["sha256"]!])
        }
        // totals.csv adds the rows up exactly (in cents).
        let totals = try #require(z["totals"] as? [[String]])
        let cents = summary.dropFirst().map { Int($0[col["total"]!].replacingOccurrences(of: ".", with: ""))! }.reduce(0, +)
        let eur = try #require(totals.first { $0[0] == "currency" && $0[2] == "EUR" })
        #expect(Int(eur[4].replacingOccurrences(of: ".", with: "")) == cents)
        #expect(eur[3] == "3")
        let perCategory = totals.filter { $0[0] == "category" }.map { Int($0[4].replacingOccurrences(of: ".", with: ""))! }.reduce(0, +)
        #expect(perCategory == cents)
        // The manifest covers every other entry; the ledger books every record with its document.
        #expect(z["manifestOK"] as? Bool == true)
        let names = try #require(z["names"] as? [String])
        #expect(z["manifestNames"] as? [String] == names.filter { $0 != "MANIFEST.sha256" }.sorted())
        #expect(names.allSatisfy { !$0.hasPrefix("/") && !$0.contains("..") })
        let ledger = try #require(z["ledger"] as? String)
        #expect(ledger.split(separator: "\n").filter { $0.count > 13 && $0.dropFirst(10).hasPrefix(" ! \"") }.count == 3, "\(ledger)")
        for row in summary.dropFirst() { #expect(ledger.contains("document: \"\(row[col["file"]!])\"")) }
        #expect(ledger.contains("Expenses:WorkTrip") && ledger.contains("Expenses:Medical"))
        let json = try #require(z["json"] as? [String: Any])
        #expect(json["exported"] as? Int == 3)

        // Byte-identical for the same store.
        let first = try Data(contentsOf: URL(fileURLWithPath: tripZip))
        #expect(try runProgram(shoebox, ["export", "--out", out, "--pipeline", pipeline.path]).code == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: tripZip)) == first)

        // The European spreadsheet profile.
        #expect(try runProgram(shoebox, ["export", "--out", out, "--folder", "office", "--csv-profile", "excel-eu"]).code == 0)
        let eu = try readExportZip(officeZip, delimiter: ";")
        #expect(eu["bom"] as? Bool == true)
        let euRows = try #require(eu["summary"] as? [[String]])
        #expect(euRows.count == 3 && euRows[0][2] == "total")
        #expect(euRows.dropFirst().allSatisfy { $0[2].contains(",") && !$0[2].contains(".") }, "decimal comma: \(euRows)")

        // A date range writes its own zip; a size over the limit is refused with advice.
        let ranged = try runProgram(shoebox, ["export", "--out", out, "--from", "2026-03-16", "--to", "2026-03-31"])
        #expect(ranged.code == 0, "\(ranged.err)")
        #expect(FileManager.default.fileExists(atPath: out + "/exports/trip_2026-03-16_2026-03-31.zip"))
        let small = work.appendingPathComponent("small.json")
        try Data(#"{"version": 1, "maxExportMegabytes": 0.01}"#.utf8).write(to: small)
        let refused = try runProgram(shoebox, ["export", "--out", out, "--pipeline", small.path])
        #expect(refused.code == 9)
        #expect(refused.err.contains("--from YYYY-MM-DD --to YYYY-MM-DD"), "\(refused.err)")

        // An invalid folder settings file is named.
        try Data(#"{"defaultCategory": 3}"#.utf8).write(to: trip.appendingPathComponent(".shoebox.json"))
        let badSettings = try runProgram(shoebox, ["export", "--out", out])
        #expect(badSettings.code == 12)
        #expect(badSettings.err.contains("trip/.shoebox.json: key \"defaultCategory\""), "\(badSettings.err)")
    }

    @Test func theWholeStoreAsJSONRoundTrips() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans/office")
        try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
        for f in ["IMG_2201.jpg", "scan_0007.png"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("sample-scans/office-supplies/\(f)"), to: scans.appendingPathComponent(f))
        }
        try Data(#"{"total": "79.52"}"#.utf8).write(to: scans.appendingPathComponent("IMG_2201.jpg.json"))
        let out = work.appendingPathComponent("out").path
        // The rules alone decide acceptance: one record waits (its sidecar disagrees), the other is accepted.
        let scanned = try runProgram(
            shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today, "--pipeline", try rulesOnlyPipeline(in: work)]
        )
        #expect(scanned.code == 0)
        let session = try runProgram(shoebox, ["review", "--out", out, "--today", today], input: "e total 97.52\na\nq\n")
        #expect(session.code == 0, "\(session.err)")

        let file = work.appendingPathComponent("store.json").path
        #expect(try runProgram(shoebox, ["export", "--out", out, "--format", "json", "--file", file]).code == 0)
        let other = work.appendingPathComponent("other").path
        let imported = try runProgram(shoebox, ["import", file, "--out", other])
        #expect(imported.code == 0, "\(imported.err)")
        #expect(imported.out.contains("2 documents added, 0 already in"), "\(imported.out)")
        #expect(imported.out.contains("2 review decisions added"), "\(imported.out)")
        let again = work.appendingPathComponent("again.json").path
        #expect(try runProgram(shoebox, ["export", "--out", other, "--format", "json", "--file", again]).code == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == Data(contentsOf: URL(fileURLWithPath: file)))
        // Importing twice creates nothing twice; the confirmed record is confirmed in the other store too.
        #expect(try runProgram(shoebox, ["import", file, "--out", other]).out.contains("0 documents added, 2 already in"))
        #expect(try runProgram(shoebox, ["status", "--out", other]).out.contains("2 accepted"))
        // Into a store that holds the same bytes under another path: a known duplicate, not a second record.
        let copy = work.appendingPathComponent("scans2/copy")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: scans.appendingPathComponent("IMG_2201.jpg"), to: copy.appendingPathComponent("IMG_2201.jpg"))
        let third = work.appendingPathComponent("third").path
        #expect(try runProgram(shoebox, ["run", work.appendingPathComponent("scans2").path, "--out", third, "--today", today]).code == 0)
        #expect(try runProgram(shoebox, ["import", file, "--out", third]).code == 0)
        let thirdStatus = try runProgram(shoebox, ["status", "--out", third]).out
        #expect(thirdStatus.contains("3 documents") && thirdStatus.contains(" 1 duplicate"), "\(thirdStatus)")

        // A newer format is refused with a clear message; so is a file that is no export.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try Data(text.replacingOccurrences(of: #""version":1"#, with: #""version":2"#).utf8).write(to: URL(fileURLWithPath: file + ".v2"))
        let newer = try runProgram(shoebox, ["import", file + ".v2", "--out", other])
        #expect(newer.code == 11)
        #expect(newer.err.contains("format version 2; this Shoebox reads up to version 1"), "\(newer.err)")
        try Data(#"{"hello": 1}"#.utf8).write(to: URL(fileURLWithPath: file + ".x"))
        #expect(try runProgram(shoebox, ["import", file + ".x", "--out", other]).code == 11)
    }
}

@Suite(.serialized, .tags(.ocr)) struct WorkSharingEndToEndTests {
    /// One long document and two workers: the worker without a document reads every other page, and the
    /// record and page text are exactly those of a one-worker run.
    @Test func aWorkerWithoutDocumentsReadsPagesOfAnother() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = work.appendingPathComponent("scans/long")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let convert = try #require(which("convert"), "ImageMagick is missing (make setup)")
        let pages = ["eng-gb-grocer.png", "deu-supermarkt.png", "msa-kedai-runcit.png", "spa-supermercado.png"].map {
            fixtures.path + "/receipts/" + $0
        }
        let made = try runProgram(convert, pages + ["-compress", "lzw", folder.appendingPathComponent("four.tif").path])
        #expect(made.code == 0, "\(made.err)")
        var texts: [String] = []
        for jobs in ["1", "2"] {
            let out = work.appendingPathComponent("out\(jobs)").path
            let log = work.appendingPathComponent("log\(jobs).jsonl").path
            let run = try runProgram(
                shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--jobs", jobs, "--today", today, "--log-json", log])
            #expect(run.code == 0, "\(run.err)")
            let finished = try #require(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").last)
            let event = try #require(try JSONSerialization.jsonObject(with: Data(finished.utf8)) as? [String: Any])
            let helped = try #require(event["pagesHelped"] as? Int)
            #expect(jobs == "1" ? helped == 0 : helped >= 1, "jobs \(jobs): \(helped) pages helped")
            let sqlite = try #require(which("sqlite3"), "sqlite3 is missing (make setup)")
            texts.append(
                try runProgram(sqlite, [out + "/store.sqlite", "SELECT page_number, text FROM pages ORDER BY page_number"]).out
                    + (try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8)))
        }
        #expect(texts[0].contains("Harbour Lane Grocers"))
        #expect(texts[0] == texts[1], "the same pages, text and record whoever read them")
    }

    /// One page read pass after pass (a pipeline that trusts nothing, so every further pass runs) and a second
    /// worker with nothing to do: it reads the next pass meanwhile, and the record is the one-worker record.
    @Test func anIdleWorkerReadsTheNextPassOfAOnePageDocument() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = work.appendingPathComponent("scans/one")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: fixtures.path + "/receipts/eng-gb-grocer.png", toPath: folder.appendingPathComponent("grocer.png").path)
        let pipeline = work.appendingPathComponent("doubting.json").path
        let settings = try String(contentsOfFile: packageRoot.path + "/pipelines/default.json", encoding: .utf8)
            .replacingOccurrences(of: "\"acceptThreshold\": 0.6", with: "\"acceptThreshold\": 0.999")
        try settings.write(toFile: pipeline, atomically: true, encoding: .utf8)
        var records: [String] = []
        for jobs in ["1", "2"] {
            let out = work.appendingPathComponent("out\(jobs)").path
            let log = work.appendingPathComponent("log\(jobs).jsonl").path
            let run = try runProgram(
                shoebox,
                [
                    "run", work.appendingPathComponent("scans").path, "--out", out, "--jobs", jobs, "--today", today,
                    "--pipeline", pipeline, "--log-json", log
                ])
            #expect(run.code == 0, "\(run.err)")
            let finished = try #require(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").last)
            let event = try #require(try JSONSerialization.jsonObject(with: Data(finished.utf8)) as? [String: Any])
            let helped = try #require(event["pagesHelped"] as? Int)
            #expect(jobs == "1" ? helped == 0 : helped >= 1, "jobs \(jobs): \(helped) passes helped")
            records.append(try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8))
        }
        #expect(records[0].contains("low-confidence"))
        #expect(records[0] == records[1], "the same record whoever read the passes")
    }
}
