import Foundation
import ShoeboxTestSupport
import Testing

// Issue 15, classes 2, 3, 5 and 13: hostile folder names, concurrent exports, over-long text values and
// socket calls, each run end to end on the built binary with real readers (unzip, zipinfo, Python's zipfile,
// csv and openpyxl, Python's sqlite3 on the real store, strace, unshare).

private let unzipPath = "/usr/bin/unzip"

/// The first 8 hex digits of SHA-256 over each name's UTF-8 bytes, computed by Python's hashlib (not by the
/// code under test). Looked up by exact bytes: a Swift dictionary keyed by String holds "café" composed and
/// decomposed as one key.
private struct Hashes {
    let byBytes: [[UInt8]: String]
    subscript(_ name: String) -> String? { byBytes[Array(name.utf8)] }
}
private func hash8(_ names: [String]) throws -> Hashes {
    let r = try runProgram(
        "/usr/bin/python3",
        [
            "-c", "import hashlib,json,sys; print(json.dumps([hashlib.sha256(n.encode()).hexdigest()[:8] for n in json.loads(sys.argv[1])]))",
            String(decoding: try JSONSerialization.data(withJSONObject: names), as: UTF8.self)
        ])
    #expect(r.code == 0, "\(r.err)")
    let hashes = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String])
    return Hashes(byBytes: Dictionary(zip(names.map { Array($0.utf8) }, hashes), uniquingKeysWith: { a, _ in a }))
}

/// records.jsonl as source → record.
private func records(_ out: String) throws -> [String: [String: Any]] {
    var byPath: [String: [String: Any]] = [:]
    for line in try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8).split(separator: "\n") {
        let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        byPath[o["source"] as! String] = o
    }
    return byPath
}

private func copyFixture(_ name: String, to dir: URL) throws {
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let from = name.contains("/") ? fixtures.appendingPathComponent(name) : fixtures.appendingPathComponent("receipts/\(name)")
    try FileManager.default.copyItem(at: from, to: dir.appendingPathComponent((name as NSString).lastPathComponent))
}

private func zipsIn(_ dir: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".zip") }.sorted()
}

private func unzipTest(_ zip: String) throws -> Bool { try runProgram(unzipPath, ["-tq", zip]).code == 0 }

/// Starts shoebox in the background (stdout discarded), with a pipe for its stderr.
private func startShoebox(_ args: [String]) throws -> (Process, Pipe) {
    let p = Process()
    let err = Pipe()
    p.executableURL = URL(fileURLWithPath: shoebox)
    p.arguments = args
    p.standardOutput = FileHandle.nullDevice
    p.standardError = err
    try p.run()
    return (p, err)
}

/// Runs shoebox with a deadline: a hang is a result (killed after `seconds`), not a test that never ends.
private func runWithin(_ seconds: Double, _ args: [String]) throws -> (code: Int32, err: String, timedOut: Bool) {
    let (p, err) = try startShoebox(args)
    let deadline = Date().addingTimeInterval(seconds)
    while p.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    let timedOut = p.isRunning
    if timedOut { kill(p.processIdentifier, SIGKILL) }
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), timedOut)
}

@Suite(.serialized) struct HostileExportEndToEndTests {
    /// Class 2. Before: `trip1` and `trip:1` both went to trip1.zip, the top level and a folder named
    /// `unsorted` both to unsorted.zip, two names alike in their first 80 characters to one zip: each pair
    /// overwrote one zip with the other, receipts missing, exit 0.
    @Test(.tags(.ocr)) func foldersWhoseNamesSanitiseAlikeEachGetTheirOwnStableZip() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        let long = String(repeating: "a", count: 80)
        let layout: [(folder: String, file: String)] = [
            ("trip1", "deu-supermarkt.png"), ("trip:1", "eng-gb-grocer.png"), ("unsorted", "fra-boulangerie.png"), ("", "spa-supermercado.png"),
            (long + "-x", "msa-kedai-runcit.png"), (long + "-y", "eng-us-hardware.png"), ("Case", "deu-ch-elektro.png"),
            ("case", "spa-cafeteria.jpg"),
            // "café" composed and decomposed: two folders here, one name on a Mac (Swift's == holds them equal).
            ("caf\u{E9}", "msa-restoran.jpg"), ("cafe\u{301}", "deu-baeckerei.jpg")
        ]
        for (folder, file) in layout { try copyFixture(file, to: folder.isEmpty ? scans : scans.appendingPathComponent(folder)) }
        let out = work.appendingPathComponent("out").path
        let run = try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today, "--pipeline", try rulesOnlyPipeline(in: work)])
        #expect(run.code == 0, "\(run.out)\(run.err)")
        let stored = try records(out)
        #expect(stored.count == layout.count, "\(stored.keys.sorted())")
        let accepted = stored.filter { $0.value["status"] as? String == "accepted" }.map(\.key)
        // The test can only fail on a lost receipt if the colliding folders have receipts to lose.
        func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }
        for pair in [["trip1", "trip:1"], ["unsorted", ""], [long + "-x", long + "-y"], ["caf\u{E9}", "cafe\u{301}"]] {
            for folder in pair {
                #expect(
                    accepted.contains { bytes(($0 as NSString).deletingLastPathComponent) == bytes(folder) },
                    "no accepted record in '\(folder)': \(stored)")
            }
        }

        let export = try runProgram(shoebox, ["export", "--out", out])
        #expect(export.code == 0, "\(export.err)")
        let exports = out + "/exports"
        let zips = try zipsIn(exports)
        let h = try hash8(layout.map(\.folder))
        let expected = [
            "trip1.zip", "trip1_\(h["trip:1"]!).zip", "unsorted.zip", "unsorted_\(h["unsorted"]!).zip",
            "\(long)_\(h[long + "-x"]!).zip", "\(long)_\(h[long + "-y"]!).zip", "Case_\(h["Case"]!).zip", "case_\(h["case"]!).zip",
            "caf\u{E9}_\(h["caf\u{E9}"]!).zip", "cafe\u{301}_\(h["cafe\u{301}"]!).zip"
        ].sorted()
        #expect(zips == expected, "one zip per folder, named by the documented rule: \(zips)")
        #expect(Set(zips.map(bytes)) == Set(expected.map(bytes)), "the same bytes too")
        #expect(Set(zips.map { $0.lowercased() }).count == zips.count, "unique on a case-insensitive file system too")

        // Every accepted record is in exactly one zip, the zip of its own folder.
        var seen: [String: [String]] = [:]
        for zip in zips {
            let path = exports + "/" + zip
            #expect(try unzipTest(path), "unzip -t \(zip)")
            let z = try readExportZip(path)
            let json = try #require(z["json"] as? [String: Any])
            let folder = try #require(json["folder"] as? String)
            let summary = try #require(z["summary"] as? [[String]])
            let col = try #require(summary.first?.firstIndex(of: "original_path"))
            for row in summary.dropFirst() {
                seen[row[col], default: []].append(zip)
                #expect(bytes((row[col] as NSString).deletingLastPathComponent) == bytes(folder), "\(row[col]) in the zip of '\(folder)'")
            }
            let receipts = (z["names"] as? [String] ?? []).filter { $0.hasPrefix("receipts/") }
            #expect(receipts.count == summary.count - 1)
        }
        #expect(Set(seen.keys.map(bytes)) == Set(accepted.map(bytes)), "exported \(seen.keys.sorted()), accepted \(accepted.sorted())")
        #expect(seen.values.allSatisfy { $0.count == 1 })

        // Stable: one folder alone gets the name and the bytes the whole export gave it.
        let tripColon = exports + "/trip1_\(h["trip:1"]!).zip"
        let before = try Data(contentsOf: URL(fileURLWithPath: tripColon))
        try FileManager.default.removeItem(atPath: tripColon)
        let alone = try runProgram(shoebox, ["export", "--out", out, "--folder", "trip:1"])
        #expect(alone.code == 0, "\(alone.err)")
        #expect(alone.out.contains("trip1_\(h["trip:1"]!).zip: 1 accepted record"), "\(alone.out)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: tripColon)) == before)
        #expect(try zipsIn(exports) == expected)
    }

    /// Class 2, the last guard. These two folder names both sanitise to `trip` and their SHA-256 agree in the
    /// first 8 hex digits (4dcb2dbb, found by a birthday search): both would be `trip_4dcb2dbb.zip`. Before:
    /// both went to trip.zip, one replacing the other, exit 0. After: exit 13 names both, nothing is written.
    @Test(.tags(.ocr)) func twoFoldersThatWouldStillShareAZipNameAreRefusedNotOverwritten() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        let (a, b) = ("trip:*??<<?", "trip:<>*>*|")
        let h = try hash8([a, b])
        #expect(h[a] == h[b], "the test needs two names whose hashes agree: \(h)")
        try copyFixture("deu-supermarkt.png", to: scans.appendingPathComponent(a))
        try copyFixture("eng-gb-grocer.png", to: scans.appendingPathComponent(b))
        let out = work.appendingPathComponent("out").path
        #expect(try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today]).code == 0)
        let export = try runProgram(shoebox, ["export", "--out", out])
        #expect(export.code == 13, "\(export.out)\(export.err)")
        #expect(export.err.contains("the folders '\(a)' and '\(b)' would both be exported as trip_\(h[a]!).zip"), "\(export.err)")
        #expect(export.err.contains("Rename one of the folders"), "\(export.err)")
        #expect(((try? zipsIn(out + "/exports")) ?? []).isEmpty, "nothing written")
    }

    /// Class 3. Before: both exports wrote `<zip>.partial`; one renamed it away under the other, which then
    /// failed with exit 4 ("cannot rename … .partial: No such file or directory", 15 of 15 pairs here), and a
    /// reader could meet a half-written zip under the final name. After: an export takes the store's lock
    /// (exit 8 naming the holder, or --wait) and writes a temporary file of its own.
    @Test(.tags(.ocr)) func exportsAtOnceOrDuringARunNeverLeaveACorruptZip() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        for f in ["IMG_2201.jpg", "scan_0007.png", "scan_2026-02-03_001.pdf"] {
            try copyFixture("sample-scans/office-supplies/\(f)", to: scans.appendingPathComponent("office"))
        }
        try copyFixture("sample-scans/2026-03-berlin-trip/IMG_0433.jpg", to: scans.appendingPathComponent("trip"))
        let out = work.appendingPathComponent("out").path
        #expect(try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today]).code == 0)
        let exports = out + "/exports"
        #expect(try runProgram(shoebox, ["export", "--out", out]).code == 0)
        let reference = try Dictionary(
            uniqueKeysWithValues: zipsIn(exports).map { ($0, try Data(contentsOf: URL(fileURLWithPath: exports + "/" + $0))) })
        #expect(reference.keys.sorted() == ["office.zip", "trip.zip"])

        func both(_ args: [String]) throws -> [(code: Int32, err: String)] {
            let ps = try (0..<2).map { _ in try startShoebox(args) }
            return ps.map { p, err in
                let e = err.fileHandleForReading.readDataToEndOfFile()
                p.waitUntilExit()
                return (p.terminationStatus, String(decoding: e, as: UTF8.self))
            }
        }
        func checkExports(_ round: String) throws {
            #expect(try zipsIn(exports) == reference.keys.sorted(), "\(round)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: exports).filter { !$0.hasSuffix(".zip") && !$0.hasSuffix(".json") }
            #expect(leftovers.isEmpty, "\(round): temporary files left: \(leftovers)")
            for (name, bytes) in reference {
                #expect(try unzipTest(exports + "/" + name), "\(round): unzip -t \(name)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: exports + "/" + name)) == bytes, "\(round): \(name) not the same bytes")
            }
        }
        for round in 1...10 {
            let results = try both(["export", "--out", out])
            for r in results {
                #expect(r.code == 0 || r.code == 8, "round \(round): exit \(r.code): \(r.err)")
                if r.code == 8 { #expect(r.err.contains("another shoebox export (process "), "\(r.err)") }
            }
            #expect(results.contains { $0.code == 0 }, "round \(round)")
            try checkExports("round \(round)")
        }
        for round in 1...4 {
            let results = try both(["export", "--out", out, "--wait"])
            #expect(results.allSatisfy { $0.code == 0 }, "--wait, round \(round): \(results)")
            try checkExports("--wait round \(round)")
        }
        let json = work.appendingPathComponent("store.json").path
        let jsonResults = try both(["export", "--out", out, "--format", "json", "--file", json, "--wait"])
        #expect(jsonResults.allSatisfy { $0.code == 0 }, "\(jsonResults)")
        #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) is [String: Any])
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.contains(".partial") }.isEmpty)
        // A bare file name is a file in the current folder (before: exit 4 with raw NSError text).
        let bare = try runProgram(
            "/bin/sh", ["-c", "cd \"$1\" && exec \"$2\" export --out \"$3\" --format json --file bare.json", "sh", work.path, shoebox, out])
        #expect(bare.code == 0, "\(bare.err)")
        #expect(FileManager.default.fileExists(atPath: work.path + "/bare.json"))

        // An export while a run works: refused with the run named, or with --wait, done after it (with its records).
        for f in ["deu-supermarkt.png", "eng-gb-grocer.png"] { try copyFixture(f, to: scans.appendingPathComponent("office")) }
        let running = try startProgram(
            shoebox, ["run", scans.path, "--out", out, "--today", today, "--jobs", "1", "--pipeline", try rulesOnlyPipeline(in: work)])
        for _ in 0..<200 where !((try? String(contentsOfFile: out + "/run.lock", encoding: .utf8)) ?? "").contains("run") {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let during = try runProgram(shoebox, ["export", "--out", out])
        #expect(during.code == 8, "\(during.err)")
        #expect(during.err.contains("another shoebox run (process \(running.processIdentifier)) is working"), "\(during.err)")
        let waited = try runProgram(shoebox, ["export", "--out", out, "--wait"])
        running.waitUntilExit()
        #expect(running.terminationStatus == 0)
        #expect(waited.code == 0, "\(waited.err)")
        let officeAccepted = try records(out).filter { $0.key.hasPrefix("office/") && $0.value["status"] as? String == "accepted" }.count
        #expect(officeAccepted >= 4)
        #expect(waited.out.contains("office.zip: \(officeAccepted) accepted records"), "the export waited for the run: \(waited.out)")
        #expect(try unzipTest(exports + "/office.zip"))

        // An export that fails half-way (an original changed) leaves the last whole zip and no temporary file.
        let lastWhole = try Data(contentsOf: URL(fileURLWithPath: exports + "/office.zip"))
        let handle = try FileHandle(forWritingTo: scans.appendingPathComponent("office/scan_0007.png"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        let failed = try runProgram(shoebox, ["export", "--out", out])
        #expect(failed.code == 10, "\(failed.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: exports + "/office.zip")) == lastWhole)
        #expect(try FileManager.default.contentsOfDirectory(atPath: exports).filter { $0.contains(".partial") }.isEmpty)

        // An original replaced by a FIFO: refused (exit 10), not waited on for ever (before: the export hung).
        let original = scans.appendingPathComponent("office/scan_0007.png").path
        try FileManager.default.removeItem(atPath: original)
        #expect(mkfifo(original, 0o644) == 0)
        let fifo = try runWithin(30, ["export", "--out", out])
        #expect(!fifo.timedOut, "the export waited on a FIFO")
        #expect(fifo.code == 10, "\(fifo.err)")
        #expect(fifo.err.contains("no longer a regular file"), "\(fifo.err)")
        try FileManager.default.removeItem(atPath: original)
        try copyFixture("sample-scans/office-supplies/scan_0007.png", to: scans.appendingPathComponent("office"))

        // Exports killed at any moment: the final name holds a whole zip; the next export clears what they left.
        for delay in [0.05, 0.1, 0.15, 0.2, 0.3] {
            let p = try startProgram(shoebox, ["export", "--out", out])
            Thread.sleep(forTimeInterval: delay)
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            #expect(try unzipTest(exports + "/office.zip"), "after a kill -9 at \(delay) s")
        }
        try Data("mine".utf8).write(to: URL(fileURLWithPath: exports + "/notes.txt"))
        try Data().write(to: URL(fileURLWithPath: exports + "/office.zip.partial-AbC123"))
        let clean = try runProgram(shoebox, ["export", "--out", out])
        #expect(clean.code == 0, "\(clean.err)")
        let left = try FileManager.default.contentsOfDirectory(atPath: exports).sorted()
        #expect(left == ["notes.txt", "office.zip", "trip.zip"], "\(left)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: exports + "/office.zip")) == lastWhole)
    }

    /// Class 5. Before: a 40,000-character `referenceNumber` in a sidecar was taken as it was, the record was
    /// accepted, and every export of its folder failed with exit 4 ("String exceeds Excel's limit of 32,767
    /// characters"); `review --apply` took a 101-character reference. After: sidecar, review and import refuse
    /// over-long values with a sentence, and an over-long value already in a store is cut with a marker in
    /// the CSV, the XLSX and the JSON while the rest of the folder exports.
    @Test(.tags(.ocr)) func anOverLongTextValueNeverBlocksAFoldersExport() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        let trip = scans.appendingPathComponent("trip")
        for f in ["IMG_0412.jpg", "IMG_0433.jpg"] { try copyFixture("sample-scans/2026-03-berlin-trip/\(f)", to: trip) }
        let huge = String(repeating: "R", count: 40_000)
        try JSONSerialization.data(withJSONObject: ["referenceNumber": huge]).write(to: trip.appendingPathComponent("IMG_0412.jpg.json"))
        let out = work.appendingPathComponent("out").path
        // The rules alone decide acceptance: the test exports the folder's other, accepted record.
        let run = try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today, "--pipeline", try rulesOnlyPipeline(in: work)])
        #expect(run.code == 0, "\(run.err)")
        let first = try records(out)
        let sidecarRecord = try #require(first["trip/IMG_0412.jpg"])
        #expect(sidecarRecord["status"] as? String == "review", "\(sidecarRecord["status"] ?? "")")
        #expect((sidecarRecord["reasons"] as? [String] ?? []).contains("sidecar-invalid"), "\(sidecarRecord["reasons"] ?? "")")
        #expect((sidecarRecord["referenceNumber"] as? String)?.count ?? 0 <= 100)
        #expect(run.out.contains("review  trip/IMG_0412.jpg:") && run.out.contains("sidecar-invalid"), "\(run.out)")

        // review --apply: a reference over 100 characters is refused with the limit named; nothing applied.
        let decisions = work.appendingPathComponent("d.jsonl")
        try
            (JSONSerialization.data(withJSONObject: [
                "source": "trip/IMG_0412.jpg", "action": "accept", "fields": ["referenceNumber": String(repeating: "7", count: 101)]
            ])
            + Data("\n".utf8)).write(to: decisions)
        let tooLong = try runProgram(shoebox, ["review", "--out", out, "--apply", decisions.path, "--today", today])
        #expect(tooLong.code == 2, "\(tooLong.err)")
        #expect(tooLong.err.contains("a referenceNumber is at most 100 characters; this one has 101"), "\(tooLong.err)")
        try
            (JSONSerialization.data(withJSONObject: ["source": "trip/IMG_0412.jpg", "action": "accept", "fields": ["referenceNumber": "4711"]])
            + Data("\n".utf8)).write(to: decisions)
        let accepted = try runProgram(shoebox, ["review", "--out", out, "--apply", decisions.path, "--today", today])
        #expect(accepted.code == 0, "\(accepted.err)")
        let export = try runProgram(shoebox, ["export", "--out", out])
        #expect(export.code == 0, "\(export.err)")
        #expect(export.out.contains("trip.zip: 2 accepted records"), "\(export.out)")

        // A store written before the limits: a 40,000-character reference and merchant (one a would-be formula)
        // put straight into the record by SQLite. The export cuts those cells and exports the whole folder.
        let edit = try runProgram(
            "/usr/bin/python3",
            [
                "-c",
                """
                import json, sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                (sid, text), = db.execute("SELECT r.source_id, r.json FROM records r JOIN sources s ON s.id = r.source_id WHERE s.path = 'trip/IMG_0433.jpg'")
                o = json.loads(text); o['referenceNumber'] = 'Q' * 40000; o['merchant'] = '=' + 'M' * 39999
                db.execute("UPDATE records SET json = ? WHERE source_id = ?", (json.dumps(o), sid)); db.commit()
                """, out + "/store.sqlite"
            ])
        #expect(edit.code == 0, "\(edit.err)")
        let again = try runProgram(shoebox, ["export", "--out", out])
        #expect(again.code == 0, "\(again.err)")
        #expect(again.out.contains("trip.zip: 2 accepted records"), "\(again.out)")
        let zip = out + "/exports/trip.zip"
        #expect(try unzipTest(zip))
        let z = try readExportZip(zip)
        let summary = try #require(z["summary"] as? [[String]])
        #expect(summary.count == 3)
        let header = summary[0]
        let ref = try #require(header.firstIndex(of: "reference_number"))
        let merchant = try #require(header.firstIndex(of: "merchant"))
        let source = try #require(header.firstIndex(of: "original_path"))
        let row = try #require(summary.firstIndex { $0[source] == "trip/IMG_0433.jpg" })
        let marker = "…[truncated]"
        for (c, letter) in [(ref, "Q"), (merchant, "M")] {
            let csvCell = summary[row][c]
            #expect(csvCell.unicodeScalars.count <= 32_767 && csvCell.hasSuffix(marker), "CSV: \(csvCell.count) characters")
            #expect(csvCell.contains(String(repeating: letter, count: 32_000)))
            let xlsx = try #require(z["xlsx"] as? [[[String: Any]]])
            let xlsxCell = try #require(xlsx[row][c]["v"] as? String)
            #expect(xlsxCell == csvCell, "XLSX and CSV cut alike (\(xlsxCell.count) and \(csvCell.count) characters)")
        }
        #expect(summary[row][merchant].hasPrefix("'="), "still neutralised")
        let json = try #require(z["json"] as? [String: Any])
        let jsonRows = try #require(json["records"] as? [[String: Any]])
        let jsonRef = try #require(jsonRows.first { $0["original_path"] as? String == "trip/IMG_0433.jpg" }?["reference_number"] as? String)
        #expect(jsonRef.hasSuffix(marker) && jsonRef.unicodeScalars.count <= 32_767)
        #expect(summary.contains { $0[source] == "trip/IMG_0412.jpg" && $0[ref] == "4711" })

        // import: a document with an over-long value is named, and nothing is imported.
        let storeFile = work.appendingPathComponent("store.json").path
        #expect(try runProgram(shoebox, ["export", "--out", out, "--format", "json", "--file", storeFile]).code == 0)
        let other = work.appendingPathComponent("other").path
        let imported = try runProgram(shoebox, ["import", storeFile, "--out", other])
        #expect(imported.code != 0, "\(imported.out)")
        #expect(imported.err.contains("(trip/IMG_0433.jpg): \"suggestion.merchant\" is 40000 characters long; at most 1000"), "\(imported.err)")
        #expect(imported.err.contains("Nothing was imported"), "\(imported.err)")
    }

    /// Class 13. Before: `export` looked up the owner's user name of every original (FileManager's
    /// attributes), which opened sockets to nscd (8 socket/connect calls for one export here). After: no verb
    /// makes a network call, traced with strace, and each does its work in a namespace without a network.
    @Test(.tags(.ocr)) func everyVerbOpensNoSocketAndNeedsNoNetwork() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let strace = try #require(which("strace"), "strace is missing: apt-get install -y strace (make setup)")
        let unshare = try #require(which("unshare"), "unshare is missing: apt-get install -y util-linux (make setup)")
        let scans = work.appendingPathComponent("scans")
        for f in ["IMG_0412.jpg", "IMG_0427.png"] {
            try copyFixture("sample-scans/2026-03-berlin-trip/\(f)", to: scans.appendingPathComponent("trip"))
        }
        try copyFixture("sample-scans/office-supplies/scan_0007.png", to: scans.appendingPathComponent("office"))
        // A disagreeing sidecar puts one record in review, for review --export and --apply.
        try JSONSerialization.data(withJSONObject: ["merchant": "Somewhere Else GmbH"]).write(
            to: scans.appendingPathComponent("trip/IMG_0412.jpg.json"))
        let decisions = work.appendingPathComponent("d.jsonl")
        try (JSONSerialization.data(withJSONObject: ["source": "trip/IMG_0412.jpg", "action": "accept"]) + Data("\n".utf8)).write(to: decisions)

        // Each verb twice, into its own output folder: traced, and without any network (unshare -n).
        func verbs(_ out: String, _ tag: String) -> [(String, [String], Set<Int32>, String?)] {
            [
                ("run", ["run", scans.path, "--out", out, "--today", today], [0], nil),
                ("extract", ["extract", scans.path + "/office/scan_0007.png", "--json", "--text", "--today", today], [0], nil),
                ("status", ["status", "--out", out, "--accuracy"], [0], nil),
                ("review (a session: skip, quit)", ["review", "--out", out, "--today", today], [0], "s\nq\n"),
                ("review --export", ["review", "--out", out, "--export", work.path + "/queue-\(tag).jsonl"], [0], nil),
                ("review --apply", ["review", "--out", out, "--apply", decisions.path, "--today", today], [0], nil),
                ("export", ["export", "--out", out], [0], nil),
                ("export --format json", ["export", "--out", out, "--format", "json", "--file", work.path + "/store-\(tag).json"], [0], nil),
                ("import", ["import", work.path + "/store-\(tag).json", "--out", out + "-imported"], [0], nil),
                ("--help", ["--help"], [0], nil),
                ("--version", ["--version"], [0], nil),
                ("export --help", ["export", "--help"], [0], nil)
            ]
        }
        for (name, args, codes, input) in verbs(work.path + "/traced", "traced") {
            let trace = work.appendingPathComponent("trace.txt").path
            let r = try runProgram(strace, ["-f", "-e", "trace=network", "-o", trace] + [shoebox] + args, input: input)
            #expect(codes.contains(r.code), "\(name): exit \(r.code): \(r.err)")
            let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter {
                !$0.contains("+++ exited") && !$0.contains("--- SIG")
            }
            #expect(calls.isEmpty, "\(name): network calls: \(calls.prefix(4))")
            // The second reader (installed by make setup) read lines in this run: it is covered too.
            if name == "extract" { #expect(r.out.contains("(ocr-ppocr, "), "the second reader read no line: \(r.out.suffix(300))") }
        }
        for (name, args, codes, input) in verbs(work.path + "/offline", "offline") {
            let r = try runProgram(unshare, ["-n", shoebox] + args, input: input)
            #expect(codes.contains(r.code), "\(name) under unshare -n (needs root or user namespaces): exit \(r.code): \(r.err)")
        }
        #expect(
            try String(contentsOfFile: work.path + "/traced/records.jsonl", encoding: .utf8)
                == String(contentsOfFile: work.path + "/offline/records.jsonl", encoding: .utf8))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: work.path + "/traced/exports/trip.zip"))
                == Data(contentsOf: URL(fileURLWithPath: work.path + "/offline/exports/trip.zip")))

        // regress on the committed sample fixtures (the slowest verb: traced only).
        let trace = work.appendingPathComponent("trace-regress.txt").path
        let r = try runProgram(
            strace,
            [
                "-f", "-e", "trace=network", "-o", trace, shoebox, "regress", fixtures.path + "/sample-expected",
                "--scans", fixtures.path + "/sample-scans", "--today", today, "--quiet"
            ])
        #expect(r.code == 0 || r.code == 7, "regress: exit \(r.code): \(r.err)")
        #expect(r.out.contains("shoebox regress: 9 documents"), "\(r.out)")
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter {
            !$0.contains("+++ exited") && !$0.contains("--- SIG")
        }
        #expect(calls.isEmpty, "regress: network calls: \(calls.prefix(4))")
    }
}
