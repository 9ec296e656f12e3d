import Foundation
import ShoeboxTestSupport
import Testing

/// Issue 33, class 2: what a run writes, import takes. For the fixtures and a set of hostile documents (names a store
/// cannot hold, links, FIFOs, broken files, sidecars with bad values, e-invoices whose XML states values no record may
/// hold, a PDF with two invoice attachments that disagree), with review decisions, merchant memory and a series
/// cancellation in the store: `run` → `export --format json` → `import` → `export --format json` is byte-identical,
/// and import refuses nothing the run wrote.
@Suite(.serialized, .tags(.ocr)) struct RoundTripEndToEndTests {
    /// A CII invoice (Factur-X MINIMUM) whose figures add up, with the values a test makes hostile.
    static func cii(number: String = "M-1", issued: String = "20261101", seller: String = "Kiosk am Eck", grand: String = "119.00") -> String {
        ciiMinimumInvoice(number: number, issued: issued, seller: seller, grand: grand)
    }

    /// The fixture's text PDF with `files` attached (name, XML), written by qpdf.
    static func pdf(attaching files: [(String, String)], to target: URL, work: URL) throws {
        let qpdf = try #require(which("qpdf"), "qpdf is missing: make setup")
        var arguments = [fixtures.path + "/receipts/eng-invoice-textpdf.pdf", target.path]
        for (i, (name, xml)) in files.enumerated() {
            let path = work.appendingPathComponent("attachment-\(target.lastPathComponent)-\(i)").path
            try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
            arguments += ["--add-attachment", path, "--key=" + name, "--filename=" + name, "--mimetype=text/xml", "--"]
        }
        let run = try runProgram(qpdf, arguments)
        #expect(run.code == 0, "\(run.err)")
    }

    /// The hostile documents, in `scans/hostile`, and what each must come out as (status or failure code, a reason).
    static func hostileFolder(in scans: URL, work: URL) throws -> [String: (status: String, reason: String?)] {
        let folder = scans.appendingPathComponent("hostile")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        var expected: [String: (String, String?)] = [:]
        // E-invoice XML stating values no record may hold: they go to review, cut or left out, never exported as read.
        try write("future.xml", cii(number: "F-1", issued: "99991231"))
        try write("ancient.xml", cii(number: "A-1", issued: "00010101"))
        try write("long-seller.xml", cii(number: "L-1", seller: String(repeating: "Kiosk ", count: 20_000)))
        try write("long-number.xml", cii(number: String(repeating: "7", count: 5000)))
        for name in ["future.xml", "ancient.xml", "long-seller.xml", "long-number.xml"] {
            expected[name] = ("review", "e-invoice-value-out-of-range")
        }
        try write("fine.xml", cii(number: "OK-1"))
        expected["fine.xml"] = ("accepted", nil)
        // A PDF with two invoice XMLs that state different totals; and one whose two copies agree.
        try pdf(
            attaching: [("factur-x.xml", cii(number: "P-1")), ("xrechnung.xml", cii(number: "P-1", grand: "219.00"))],
            to: folder.appendingPathComponent("two-invoices.pdf"), work: work)
        expected["two-invoices.pdf"] = ("review", "e-invoice-attachments-disagree")
        try pdf(
            attaching: [("factur-x.xml", cii(number: "P-2")), ("xrechnung.xml", cii(number: "P-2"))],
            to: folder.appendingPathComponent("two-copies.pdf"), work: work)
        // Sidecars with values a run refuses, and one over the size limit.
        try Data(try fixtureBytes("deu-baeckerei.jpg")).write(to: folder.appendingPathComponent("sidecar.jpg"))
        try write("sidecar.jpg.json", #"{"total": "abc", "date": "0001-01-01", "merchant": "\#(String(repeating: "M", count: 5000))"}"#)
        expected["sidecar.jpg"] = ("review", "sidecar-invalid")
        try Data(try fixtureBytes("eng-gb-grocer.png")).write(to: folder.appendingPathComponent("big-sidecar.png"))
        try write("big-sidecar.png.json", "{\"note\": \"" + String(repeating: "x", count: 1 << 21) + "\"}")
        expected["big-sidecar.png"] = ("review", "sidecar-invalid")
        // Broken files, and files that are no files.
        try write("empty.jpg", "")
        expected["empty.jpg"] = ("empty-file", nil)
        try Data(try fixtureBytes("spa-cafeteria.jpg").prefix(2000)).write(to: folder.appendingPathComponent("cut.jpg"))
        expected["cut.jpg"] = ("truncated-image", nil)
        try write("notes.pdf", "these are notes, not a PDF")
        expected["notes.pdf"] = ("unsupported-type", nil)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.jpg").path, withDestinationPath: "sidecar.jpg")
        expected["link.jpg"] = ("not-a-regular-file", nil)
        let mkfifo = try #require(which("mkfifo"))
        try runProgram(mkfifo, [folder.appendingPathComponent("pipe.png").path])
        expected["pipe.png"] = ("not-a-regular-file", nil)
        // Names a store cannot hold.
        let png = fixtures.path + "/receipts/msa-kedai-runcit.png"
        let made = try runProgram(
            "/bin/sh", ["-c", "cp '\(png)' \"$(printf '\(folder.path)/new\\nline.png')\" && cp '\(png)' \"$(printf '\(folder.path)/lat\\351n.png')\""]
        )
        #expect(made.code == 0, "\(made.err)")
        expected["new\u{FFFD}line.png"] = ("control-character-in-name", nil)
        expected["lat\u{FFFD}n.png"] = ("bad-file-name", nil)
        return expected.mapValues { (status: $0.0, reason: $0.1) }
    }

    @Test func whatARunWritesImportTakesAndTheStoreTravelsWhole() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let (receipts, _) = try fixtureReceiptsFolder(in: work)
        let scans = receipts.deletingLastPathComponent()
        let hostile = try Self.hostileFolder(in: scans, work: work)
        let out = work.appendingPathComponent("out").path
        let run = try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today])
        #expect(run.code == 1, "the broken files fail: \(run.out) \(run.err)")

        var bySource: [String: [String: Any]] = [:]
        for line in try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8).split(separator: "\n") {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            bySource[try #require(o["source"] as? String)] = o
        }
        for (name, want) in hostile {
            let r = try #require(bySource["hostile/" + name], "hostile/\(name) has no record: \(bySource.keys.sorted())")
            let failure = (r["failure"] as? [String: Any])?["code"] as? String
            #expect(r["status"] as? String == want.status || failure == want.status, "\(name): \(r["status"] ?? "") \(failure ?? "")")
            if let reason = want.reason { #expect((r["reasons"] as? [String])?.contains(reason) == true, "\(name): \(r["reasons"] ?? [])") }
        }
        // The XML's impossible issue date is not the record's, and two copies of one invoice are no disagreement.
        #expect(bySource["hostile/future.xml"]?["date"] is NSNull)
        #expect((bySource["hostile/two-copies.pdf"]?["reasons"] as? [String])?.contains("e-invoice-attachments-disagree") == false)
        #expect(((bySource["hostile/long-seller.xml"]?["merchant"] as? String)?.count ?? 0) <= 1000)

        // Decisions at the review desk (an edit and an acceptance teach the merchant memory), and a series a person
        // marked cancelled (written with Python's sqlite3, as the store keeps it: the fixtures hold no series).
        let inReview = bySource.filter { $0.value["status"] as? String == "review" && $0.key.hasPrefix("receipts/") }.keys.sorted()
        let first = try #require(inReview.first, "a fixture waits in review")
        let decisions = work.appendingPathComponent("decisions.jsonl")
        try Data(
            """
            {"source": "\(first)", "action": "accept", "fields": {"total": "12.34", "note": "checked\\tby hand"}}
            {"source": "hostile/future.xml", "action": "edit", "fields": {"date": "2026-11-30"}}

            """.utf8
        ).write(to: decisions)
        let applied = try runProgram(shoebox, ["review", "--apply", decisions.path, "--out", out, "--today", today])
        #expect(applied.code == 0, "\(applied.out) \(applied.err)")
        let cancel = try runProgram(
            "/usr/bin/python3",
            [
                "-c",
                "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); "
                    + "db.execute(\"INSERT INTO cancellations(merchant, day, at) VALUES ('Netflix', '2026-11-01', '2026-11-02T09:00:00Z')\"); db.commit()",
                out + "/store.sqlite"
            ])
        #expect(cancel.code == 0, "\(cancel.err)")

        let firstJSON = work.appendingPathComponent("first.json").path
        let secondJSON = work.appendingPathComponent("second.json").path
        let exported = try runProgram(shoebox, ["export", "--out", out, "--format", "json", "--file", firstJSON])
        #expect(exported.code == 0, "\(exported.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: firstJSON))) as? [String: Any])
        #expect((object["memory"] as? [Any])?.isEmpty == false, "the acceptance taught the memory")
        #expect((object["cancellations"] as? [[String: Any]])?.first?["merchant"] as? String == "Netflix")
        let other = work.appendingPathComponent("other").path
        let imported = try runProgram(shoebox, ["import", firstJSON, "--out", other, "--today", today])
        #expect(imported.code == 0, "import refuses nothing a run wrote: \(imported.out) \(imported.err)")
        #expect(imported.out.contains("\(bySource.count) documents added"), "\(imported.out)")
        #expect(try runProgram(shoebox, ["export", "--out", other, "--format", "json", "--file", secondJSON]).code == 0)
        let a = try Data(contentsOf: URL(fileURLWithPath: firstJSON))
        let b = try Data(contentsOf: URL(fileURLWithPath: secondJSON))
        let same = a == b
        #expect(same, "the second export differs from the first (\(a.count) against \(b.count) bytes)")
        // And the zips of both stores agree.
        #expect(try runProgram(shoebox, ["export", "--out", out]).code == 0)
        #expect(try runProgram(shoebox, ["export", "--out", other]).code == 0)
        for zip in try FileManager.default.contentsOfDirectory(atPath: out + "/exports") where zip.hasSuffix(".zip") {
            let left = try Data(contentsOf: URL(fileURLWithPath: out + "/exports/" + zip))
            let right = try Data(contentsOf: URL(fileURLWithPath: other + "/exports/" + zip))
            let same = left == right
            #expect(same, "\(zip) differs between the store and its import")
        }
    }
}

/// Issue 33, class 9: a run whose `--log-json` file cannot be written (a full device) finishes, stores its records,
/// and ends with exit 4 and a sentence; it never loses the log without a word.
@Suite struct RunLogEndToEndTests {
    @Test func aLogThatCannotBeWrittenIsExitFourWithItsSentence() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = work.appendingPathComponent("scans/invoices")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(RoundTripEndToEndTests.cii().utf8).write(to: folder.appendingPathComponent("invoice.xml"))
        let out = work.appendingPathComponent("out").path
        // /dev/full takes the open and refuses every write with ENOSPC, as a full disk does. (A Shoebox that wrote its log
        // to a temporary file and renamed it replaced the device with a regular file: the log is opened in place now.)
        var device = stat()
        try #require(lstat("/dev/full", &device) == 0 && device.st_mode & S_IFMT == S_IFCHR, "/dev/full is not the device")
        let full = try runProgram(
            shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today, "--log-json", "/dev/full"])
        #expect(full.code == 4, "exit \(full.code): \(full.out) \(full.err)")
        #expect(full.err.contains("its log /dev/full could not be written (No space left on device)"), "\(full.err)")
        #expect(full.out.contains("1 accepted"), "the records are stored: \(full.out)")
        #expect(lstat("/dev/full", &device) == 0 && device.st_mode & S_IFMT == S_IFCHR, "/dev/full is still the device")
        // A log that can be written is whole: one event a line, the last one `finished`.
        let log = work.appendingPathComponent("run.jsonl").path
        let fine = try runProgram(
            shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out + "2", "--today", today, "--log-json", log])
        #expect(fine.code == 0, "\(fine.out) \(fine.err)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.last?.contains(#""event":"finished""#) == true, "\(lines)")
    }
}
