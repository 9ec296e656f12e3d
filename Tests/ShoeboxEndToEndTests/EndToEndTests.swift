import Foundation
import Testing
import ShoeboxCore
import ShoeboxTestSupport

/// Runs the built `shoebox` binary (built by `make build` before the tests) as a user would.
/// SHOEBOX_BIN picks another build (`make check-asan` runs these tests on the AddressSanitizer build).
let shoebox = ProcessInfo.processInfo.environment["SHOEBOX_BIN"] ?? packageRoot.appendingPathComponent(".build/debug/shoebox").path
let today = "2026-11-30"

/// Every file under a folder with its sha256 and mode: to prove the scan folder is never modified.
func snapshot(_ dir: URL) throws -> [String: String] {
    let r = try runProgram("/bin/sh", ["-c", "cd '\(dir.path)' && find . -exec stat -c '%n %a %s %Y' {} \\; | sort && find . -type f -exec sha256sum {} \\; | sort"])
    return ["listing": r.out]
}

/// Reads a CSV with Python's csv module (a real CSV reader) and returns the rows as JSON arrays.
func readCSV(_ data: Data) throws -> [[String]] {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("x.csv")
    try data.write(to: path)
    let python = try #require(which("python3"), "python3 is missing: apt-get install -y python3 (make setup)")
    let r = try runProgram(python, ["-c", "import csv,json,sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))))", path.path])
    #expect(r.code == 0, "python csv failed: \(r.err)")
    return try JSONDecoder().decode([[String]].self, from: Data(r.out.utf8))
}

@Suite(.serialized) struct EndToEndTests {
    @Test func runExportStatusOnTheSampleFolderWithBadInputs() throws {
        #expect(FileManager.default.isExecutableFile(atPath: shoebox), "build first: make build")
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("sample-scans"), to: scans)
        let bad = scans.appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: bad, withIntermediateDirectories: true)
        // The five kinds of bad input of the issue.
        FileManager.default.createFile(atPath: bad.appendingPathComponent("empty.jpg").path, contents: Data())
        let jpeg = try fixtureBytes("deu-baeckerei.jpg")
        FileManager.default.createFile(atPath: bad.appendingPathComponent("truncated.jpg").path, contents: Data(jpeg.prefix(jpeg.count / 3)))
        FileManager.default.createFile(atPath: bad.appendingPathComponent("notes.pdf").path, contents: Data("shopping list: milk, bread\n".utf8))
        let qpdf = try #require(which("qpdf"), "qpdf is missing: apt-get install -y qpdf (make setup)")
        try runProgram(qpdf, ["--encrypt", "secret", "owner", "256", "--", fixtures.path + "/receipts/eng-invoice-textpdf.pdf", bad.appendingPathComponent("locked.pdf").path])
        let secret = bad.appendingPathComponent("secret.png")
        try FileManager.default.copyItem(atPath: fixtures.path + "/receipts/eng-gb-grocer.png", toPath: secret.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: secret.path)

        // Root reads any file: run as an unprivileged user so the unreadable file really is unreadable.
        let out = work.appendingPathComponent("out")
        var command = [shoebox, "run", scans.path, "--out", out.path, "--today", today, "--jobs", "2"]
        if getuid() == 0, let setpriv = which("setpriv") {
            try runProgram("/bin/chmod", ["-R", "a+rwX", work.path])
            try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: secret.path)
            // A copy of the binary in the work folder, so that the unprivileged user can run it wherever the
            // checkout lives (its runpath to the Swift runtime is absolute).
            let copy = work.appendingPathComponent("shoebox").path
            try FileManager.default.copyItem(atPath: shoebox, toPath: copy)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy)
            command[0] = copy
            command = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] + command
        }
        let unreadableTested = command[0].hasSuffix("setpriv") || getuid() != 0
        let before = try snapshot(scans)
        let run = try runProgram(command[0], Array(command.dropFirst()), environment: ["PATH": "/usr/bin:/bin", "HOME": work.path])
        #expect(run.code == 1, "exit 1 = finished with failures; stderr: \(run.err)")
        #expect(run.out.contains("12 files found, 12 processed"))
        #expect(try snapshot(scans) == before, "the scan folder must not change")

        // records.jsonl: one line per input document, every state.
        let lines = try String(contentsOf: out.appendingPathComponent("records.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 12)
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
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent(
            "sample-expected/2026-03-berlin-trip/IMG_0427.png.expected.json"))) as? [String: Any])
        for key in ["merchant", "date", "total", "currency"] { #expect(berlin[key] as? String == expected[key] as? String, "\(key)") }

        // A second run does nothing new and creates no record twice; only the unreadable file is tried again
        // (its permissions may have been fixed since).
        let again = try runProgram(command[0], Array(command.dropFirst()), environment: ["PATH": "/usr/bin:/bin", "HOME": work.path])
        let expectedAgain = unreadableTested ? "12 files found, 1 processed, 11 already done" : "12 files found, 0 processed, 12 already done"
        #expect(again.out.contains(expectedAgain), "\(again.out)")
        #expect(try String(contentsOf: out.appendingPathComponent("records.jsonl"), encoding: .utf8).split(separator: "\n").count == 12)

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
        for row in rows.dropFirst() {
            let record = try #require(accepted.first { $0["sha256"] as? String == row[11] })
            #expect(row[2] == record["total"] as? String)
            #expect(row[1] == record["merchant"] as? String)
        }
        // Failed documents never reach an export.
        let badZip = out.appendingPathComponent("exports/bad.zip").path
        let badListing = try runProgram(unzip, ["-Z1", badZip]).out
        #expect(FileManager.default.fileExists(atPath: badZip))
        #expect(badListing == "summary.csv\n")

        // The same store exports byte-identical zips.
        let first = try Data(contentsOf: URL(fileURLWithPath: zip))
        #expect(try runProgram(shoebox, ["export", "--out", out.path]).code == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: zip)) == first)

        let status = try runProgram(shoebox, ["status", "--out", out.path])
        #expect(status.code == 0)
        #expect(status.out.contains("failed  bad/locked.pdf: encrypted-pdf"))
    }

    @Test func aKilledRunResumesWithoutRecordingAnythingTwice() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans/receipts")
        try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
        let source = fixtures.appendingPathComponent("receipts")
        let files = try FileManager.default.contentsOfDirectory(atPath: source.path).filter { !$0.hasSuffix(".json") }
        for f in files { try FileManager.default.copyItem(at: source.appendingPathComponent(f), to: scans.appendingPathComponent(f)) }
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

    @Test func oneRunAtATimePerOutputFolder() throws {
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
        for _ in 0..<100 where (try? String(contentsOfFile: out + "/run.lock", encoding: .utf8))?.isEmpty ?? true { Thread.sleep(forTimeInterval: 0.05) }
        let second = try runProgram(shoebox, args)
        #expect(second.code == 8)
        #expect(second.err.contains("another shoebox run (process \(first.processIdentifier))"))
        let waiting = try runProgram(shoebox, args + ["--wait"])
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        #expect(waiting.code == 0)
        #expect(waiting.out.contains("4 files found, 0 processed, 4 already done"), "\(waiting.out)")
    }

    @Test func extractJSONReadsEverySyntheticFixture() throws {
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
            let expected = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("\(stem).expected.json"))) as? [String: Any])
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
    @Test func aReviewSessionThroughPipedInputThenApplyWithABadLine() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let office = work.appendingPathComponent("scans/office")
        try FileManager.default.createDirectory(at: office, withIntermediateDirectories: true)
        for f in ["IMG_2201.jpg", "scan_0007.png", "scan_2026-02-03_001.pdf"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("sample-scans/office-supplies/\(f)"), to: office.appendingPathComponent(f))
        }
        // Sidecars: one disagrees with the printed total (97.52), one does not validate.
        try Data(#"{"total": "79.52"}"#.utf8).write(to: office.appendingPathComponent("IMG_2201.jpg.json"))
        try Data(#"{"date": "2026-13-01"}"#.utf8).write(to: office.appendingPathComponent("scan_0007.png.json"))
        let out = work.appendingPathComponent("out").path
        let run = try runProgram(shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today])
        #expect(run.code == 0, "\(run.err)")
        #expect(run.out.contains("3 files found"), "sidecars are not documents: \(run.out)")
        let status = try runProgram(shoebox, ["status", "--out", out])
        #expect(status.out.contains("review  office/IMG_2201.jpg: sources-disagree"), "\(status.out)")
        #expect(status.out.contains("review  office/scan_0007.png: sidecar-invalid"), "\(status.out)")

        // A person: a bad amount is refused and asked again, the edit is undone, set again, accepted; then quit.
        let session = try runProgram(shoebox, ["review", "--out", out, "--today", today], input: "e total 12,3x\n97.52\nu\ne total 97,52\na\nq\n")
        #expect(session.code == 0, "\(session.err)")
        #expect(session.out.contains("[1/2] office/IMG_2201.jpg"), "\(session.out)")
        #expect(session.out.contains(") total 79.52   0.70  sidecar: the sidecar says 79.52"), "the sidecar's value is the first total alternate: \(session.out)")
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
        try Data("""
            {"source": "office/scan_0007.png", "action": "accept", "fields": {"date": "2026-01-05"}}
            {"source": "office/scan_0007.png", "action": "explode"}

            """.utf8).write(to: URL(fileURLWithPath: decisions))
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
    @Test func theSamePaperAgainIsSuspectedAndTheSameBytesAreKnown() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        let a = scans.appendingPathComponent("a"), b = scans.appendingPathComponent("b")
        try FileManager.default.createDirectory(at: a, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: b, withIntermediateDirectories: true)
        let original = fixtures.appendingPathComponent("sample-scans/office-supplies/IMG_2201.jpg")
        try FileManager.default.copyItem(at: original, to: a.appendingPathComponent("IMG_2201.jpg"))
        try FileManager.default.copyItem(at: original, to: b.appendingPathComponent("same-bytes.jpg"))
        // The same paper again: scaled to 90 %, turned 2°, re-encoded at quality 80 (ImageMagick, installed by make setup).
        let convert = try #require(which("convert"), "ImageMagick is missing: make setup")
        let made = try runProgram(convert, [original.path, "-resize", "90%", "-background", "white", "-rotate", "2", "-quality", "80",
                                            b.appendingPathComponent("rescan.jpg").path])
        #expect(made.code == 0, "\(made.err)")
        let out = work.appendingPathComponent("out").path
        let run = try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today])
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

@Suite(.serialized) struct PrivacyEndToEndTests {
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
        let offline = work.appendingPathComponent("offline").path, traced = work.appendingPathComponent("traced").path
        let a = try runProgram(unshare, ["-n", shoebox, "run", scans.path, "--out", offline, "--today", today])
        #expect(a.code == 0, "shoebox under unshare -n (needs root or user namespaces): \(a.err)")
        let trace = work.appendingPathComponent("trace.txt").path
        let b = try runProgram(strace, ["-f", "-e", "trace=network", "-o", trace, shoebox, "run", scans.path, "--out", traced, "--today", today])
        #expect(b.code == 0, "\(b.err)")
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { !$0.contains("+++ exited") && !$0.contains("--- SIG") }
        #expect(calls.isEmpty, "network calls: \(calls.prefix(5))")
        let offlineRecords = try String(contentsOfFile: offline + "/records.jsonl", encoding: .utf8)
        let tracedRecords = try String(contentsOfFile: traced + "/records.jsonl", encoding: .utf8)
        #expect(offlineRecords == tracedRecords)
        #expect(offlineRecords.split(separator: "\n").count == 7)
    }
}

@Suite(.serialized) struct FileNameEndToEndTests {
    /// Names with a newline are read like any other; a name that is not UTF-8 is not lost: it fails with its
    /// own reason.
    @Test func oddFileNamesEndInANamedState() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = work.appendingPathComponent("scans/a")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let png = fixtures.appendingPathComponent("sample-scans/office-supplies/scan_0007.png").path
        let jpg = fixtures.appendingPathComponent("sample-scans/office-supplies/IMG_2201.jpg").path
        // Latin-1 "café.png" (byte 0xE9) and a name with a newline, made by the shell.
        let made = try runProgram("/bin/sh", ["-c", "cp '\(png)' \"$(printf '\(folder.path)/caf\\351.png')\" && cp '\(jpg)' \"$(printf '\(folder.path)/two\\nlines.jpg')\""])
        #expect(made.code == 0, "\(made.err)")
        let out = work.appendingPathComponent("out").path
        let run = try runProgram(shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today])
        #expect(run.code == 1, "one document failed: \(run.out)")
        #expect(run.out.contains("2 files found"), "\(run.out)")
        #expect(run.out.contains("1 bad-file-name"), "\(run.out)")
        let records = try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8)
        #expect(records.contains(#""source":"a/two\nlines.jpg""#), "\(records)")
        #expect(records.contains(#""status":"accepted""#))
    }
}

@Suite(.serialized) struct BrokenFilesEndToEndTests {
    /// Truncated and bit-flipped PDFs, JPEGs, PNGs and TIFFs, a zero-page PDF, a symlink loop: every file
    /// ends in a named state, the run neither crashes nor hangs.
    @Test func brokenFilesEndInNamedStates() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = work.appendingPathComponent("scans/broken")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var generator = SplitMix64(seed: 20261130)  // fixed: the same broken files on every run
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
                for _ in 0..<8 { let i = Int.random(in: 0..<b.count, using: &generator); b[i] ^= UInt8.random(in: 1...255, using: &generator) }
                try Data(b).write(to: folder.appendingPathComponent("\(name)-flip\(flip).\(ext)"))
                expected += 1
            }
        }
        // A TIFF header with nothing after it, and a PDF whose page tree is empty.
        try Data([0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]).write(to: folder.appendingPathComponent("header-only.tif"))
        let emptyPDF = "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
        try Data(emptyPDF.utf8).write(to: folder.appendingPathComponent("no-pages.pdf"))
        expected += 2
        // A symbolic link loop is not followed (and not a document).
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop").path, withDestinationPath: folder.path)
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
        #expect(try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8).contains(#""code":"no-pages""#))
    }
}

@Suite(.serialized) struct PageTimeoutEndToEndTests {
    @Test func aPageOverItsTimeIsAbandonedWithAReason() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let pipeline = work.appendingPathComponent("tiny.json")
        try Data(#"{"version": 1, "pageTimeoutSeconds": 0.001}"#.utf8).write(to: pipeline)
        let r = try runProgram(shoebox, ["extract", fixtures.appendingPathComponent("receipts/eng-us-hardware.png").path,
                                         "--pipeline", pipeline.path, "--json", "--today", today])
        #expect(r.code == 1, "\(r.err)")
        #expect(r.out.contains(#""code":"page-timeout""#), "\(r.out)")
        let bad = try runProgram(shoebox, ["extract", "x.png", "--pipeline", { try? Data(#"{"version": 1, "pageTimeoutSeconds": 0}"#.utf8).write(to: pipeline); return pipeline.path }()])
        #expect(bad.code == 6)
        #expect(bad.err.contains("pageTimeoutSeconds"), "\(bad.err)")
    }
}
