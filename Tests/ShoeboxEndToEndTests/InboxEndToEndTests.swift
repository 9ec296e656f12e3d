import Foundation
import ShoeboxCore
import ShoeboxTestSupport
import Testing

/// Issue 55, deliver 2 and 3: the inbox an agent drops pairs into (`OUT/inbox/<folder>/`). Every drop ends taken (a
/// record, its result beside it in `processed/`) or refused by name (in `failed/` with its code); nothing is lost,
/// a move a killed pass began is finished, and the sidecar's values are checked against the page. The documents are
/// XML e-invoices, read without OCR.
@Suite(.serialized) struct InboxEndToEndTests {
    let today = "2026-12-07"
    let invoice = packageRoot.appendingPathComponent("Fixtures/sample-scans/invoices/xrechnung_2026-0117.xml")
    let otherInvoice = packageRoot.appendingPathComponent("Fixtures/receipts/einv-cii-minimum.xml")
    /// Three invoices of other bytes, each read without a problem.
    let distinct = ["einv-xrechnung-cii.xml", "einv-cii-basicwl.xml", "einv-zugferd1.xml"].map {
        packageRoot.appendingPathComponent("Fixtures/receipts/" + $0)
    }

    /// A scan folder with one invoice in `invoices/`, run once into `out`: a store that knows the folder.
    func started() throws -> (work: URL, scans: URL, out: String, inbox: URL) {
        let work = try temporaryDirectory()
        let scans = work.appendingPathComponent("scans")
        try FileManager.default.createDirectory(at: scans.appendingPathComponent("invoices"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: otherInvoice, to: scans.appendingPathComponent("invoices/scan.xml"))
        let out = work.appendingPathComponent("out").path
        #expect(try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today]).code == 0)
        let inbox = URL(fileURLWithPath: out).appendingPathComponent("inbox")
        return (work, scans, out, inbox)
    }

    func drop(_ source: URL, as name: String, sidecar: String?, in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(name))
        if let sidecar { try Data(sidecar.utf8).write(to: folder.appendingPathComponent(name + ".json")) }
    }

    func result(_ inbox: URL, _ path: String) throws -> [String: Any] {
        let url = inbox.appendingPathComponent(path + ".result.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any], "\(path)")
    }

    func files(under dir: URL) -> [String] {
        let e = FileManager.default.enumerator(atPath: dir.path)
        var out: [String] = []
        while let p = e?.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent(p).path, isDirectory: &isDir), !isDir.boolValue { out.append(p) }
        }
        return out.sorted()
    }

    @Test func everyDropEndsTakenOrRefusedByNameAndNothingIsLost() throws {
        let (work, _, out, inbox) = try started()
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = inbox.appendingPathComponent("invoices")
        let agent = #""agent": "Test Agent""#
        try drop(invoice, as: "agrees.xml", sidecar: #"{\#(agent), "total": "1767.15", "confirmedByPerson": true}"#, in: folder)
        try drop(distinct[0], as: "disagrees.xml", sidecar: #"{\#(agent), "total": "99.99"}"#, in: folder)
        try drop(otherInvoice, as: "no-sidecar.xml", sidecar: nil, in: folder)
        try drop(otherInvoice, as: "other-folder.xml", sidecar: #"{\#(agent), "folder": "trip"}"#, in: folder)
        try drop(otherInvoice, as: "no-agent.xml", sidecar: #"{"total": "1.00"}"#, in: folder)
        try drop(otherInvoice, as: "not-json.xml", sidecar: "{not json", in: folder)
        try drop(otherInvoice, as: "huge.xml", sidecar: #"{\#(agent), "note": ""# + String(repeating: "a", count: 2 << 20) + #""}"#, in: folder)
        try drop(distinct[1], as: "bad-date.xml", sidecar: #"{\#(agent), "date": "31.02.2026"}"#, in: folder)
        // Sidecars without a document: expenses without a receipt, entered as a person enters one (or failed by name).
        try Data(#"{\#(agent), "merchant": "Taxi Berlin", "date": "2026-03-14", "total": "23.40 EUR"}"#.utf8)
            .write(to: folder.appendingPathComponent("taxi.json"))
        try Data(#"{\#(agent), "total": "5.00"}"#.utf8).write(to: folder.appendingPathComponent("lonely.xml.json"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.xml").path, withDestinationPath: invoice.path)
        try Data(#"{\#(agent)}"#.utf8).write(to: folder.appendingPathComponent("link.xml.json"))
        // Still being written: left alone.
        try Data("half".utf8).write(to: folder.appendingPathComponent(".writing.xml.tmp"))
        let dropped = files(under: inbox).count

        // The halves of pairs wait while they are young.
        let early = try runProgram(shoebox, ["inbox", "--out", out, "--today", today])
        #expect(early.out.contains("3 waiting for the other half"), "\(early.out)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("no-sidecar.xml").path))

        let run = try runProgram(shoebox, ["inbox", "--out", out, "--today", today], environment: ["SHOEBOX_INBOX_WAIT_SECONDS": "0"])
        #expect(run.code == 1, "refused drops make the pass exit 1: \(run.out) \(run.err)")
        #expect(try result(inbox, "processed/invoices/agrees.xml")["status"] as? String == "accepted")
        let disagrees = try result(inbox, "processed/invoices/disagrees.xml")
        #expect(disagrees["status"] as? String == "review" && (disagrees["reasons"] as? [String])?.contains("sources-disagree") == true)
        // The terminal review says who entered it, as the desk does.
        let review = try runProgram(shoebox, ["review", "--out", out, "--source", "invoices/disagrees.xml", "--today", today], input: "q\n")
        #expect(review.out.contains("entered by agent Test Agent"), "\(review.out)")
        let badDate = try result(inbox, "processed/invoices/bad-date.xml")
        #expect((badDate["reasons"] as? [String])?.contains("sidecar-invalid") == true, "a field that does not parse is named on the record")
        for (name, code) in [
            ("no-sidecar.xml", "inbox-no-sidecar"), ("other-folder.xml", "inbox-wrong-folder"), ("no-agent.xml", "inbox-agent-missing"),
            ("not-json.xml", "inbox-sidecar-not-json"), ("huge.xml", "inbox-sidecar-too-large"), ("link.xml", "inbox-not-a-file")
        ] {
            let r = try result(inbox, "failed/invoices/\(name)")
            #expect(r["status"] as? String == "refused" && (r["failure"] as? [String: Any])?["code"] as? String == code, "\(name): \(r)")
            #expect(((r["failure"] as? [String: Any])?["message"] as? String ?? "").count > 40, "\(name) says what to do")
        }
        let taxi = try result(inbox, "processed/invoices/taxi.expense")
        #expect(taxi["status"] as? String == "review" && (taxi["record"] as? String)?.hasPrefix("invoices/entered-by-agent-taxi-") == true, "\(taxi)")
        #expect((taxi["reasons"] as? [String]) == ["entered-by-agent"], "an agent's expense waits for the person")
        let lonely = try result(inbox, "processed/invoices/lonely.xml.expense")
        #expect((lonely["failure"] as? [String: Any])?["code"] as? String == "inbox-expense-invalid", "\(lonely)")
        // Nothing lost: every file dropped is in processed/ or failed/ (or still being written), each with one result.
        let after = files(under: inbox)
        let moved = after.filter { !$0.hasSuffix(".result.json") }
        #expect(moved.count == dropped, "\(after)")
        #expect(after.filter { $0.hasPrefix("invoices/") } == ["invoices/.writing.xml.tmp"], "\(after)")
        #expect(after.filter { $0.hasSuffix(".result.json") }.count == 11)

        // The record says who entered it; the zip holds the sidecar verbatim and the CSV says it in reviewed_by.
        let records = try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let agrees = try #require(records.first { $0["source"] as? String == "invoices/agrees.xml" })
        #expect(
            agrees["enteredBy"] as? String == "agent" && agrees["agent"] as? String == "Test Agent" && agrees["confirmedByPerson"] as? Bool == true)
        let export = try runProgram(shoebox, ["export", "--out", out])
        #expect(export.code == 0, "\(export.out) \(export.err)")
        let zip = out + "/exports/invoices.zip"
        let names = try runProgram("/usr/bin/zipinfo", ["-1", zip]).out.split(separator: "\n").map(String.init)
        let sidecarInZip = try #require(names.first { $0.hasPrefix("receipts/") && $0.hasSuffix(".xml.json") }, "\(names)")
        let kept = try runProgram("/usr/bin/unzip", ["-p", zip, sidecarInZip]).out
        #expect(kept == #"{\#(agent), "total": "1767.15", "confirmedByPerson": true}"#, "verbatim: \(kept)")
        let csv = try runProgram("/usr/bin/unzip", ["-p", zip, "summary.csv"]).out
        #expect(csv.contains("pipeline; entered by agent Test Agent, confirmed by the person"), "\(csv)")

        // A second pass takes nothing again and reads nothing twice.
        let again = try runProgram(shoebox, ["inbox", "--out", out, "--today", today], environment: ["SHOEBOX_INBOX_WAIT_SECONDS": "0"])
        #expect(again.out.contains("0 taken, 0 refused, 0 results written"), "\(again.out)")
    }

    @Test func aMoveAKilledPassBeganIsFinishedAndANameInUseIsNotTaken() throws {
        let (work, scans, out, inbox) = try started()
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = inbox.appendingPathComponent("invoices")
        // Named as the scan folder's file: taken under another name, so the scan's record is not replaced.
        try drop(invoice, as: "scan.xml", sidecar: #"{"agent": "A"}"#, in: folder)
        // A pass was killed after its intent: the document moved, the sidecar not yet.
        try drop(invoice, as: "half.xml", sidecar: #"{"agent": "A"}"#, in: folder)
        let processed = inbox.appendingPathComponent("processed/invoices")
        try FileManager.default.createDirectory(at: processed, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: folder.appendingPathComponent("half.xml"), to: processed.appendingPathComponent("half.xml"))
        let intent =
            #"{"from": "\#(folder.path)/half.xml", "to": "\#(processed.path)/half.xml", "result": {"resultVersion": 1, "dropped": "invoices/half.xml", "status": "taken", "reasons": [], "at": "2026-12-07T00:00:00Z"}}"#
        try Data(intent.utf8).write(to: processed.appendingPathComponent(".half.xml.taking"))

        let run = try runProgram(shoebox, ["inbox", "--out", out, "--today", today])
        #expect(run.code == 0, "\(run.out) \(run.err)")
        let half = try result(inbox, "processed/invoices/half.xml")
        #expect(half["dropped"] as? String == "invoices/half.xml" && half["status"] as? String == "accepted", "\(half)")
        #expect(FileManager.default.fileExists(atPath: processed.appendingPathComponent("half.xml.json").path))
        #expect(!FileManager.default.fileExists(atPath: processed.appendingPathComponent(".half.xml.taking").path))
        let renamed = try result(inbox, "processed/invoices/scan (2).xml")
        #expect(renamed["dropped"] as? String == "invoices/scan.xml" && renamed["record"] as? String == "invoices/scan (2).xml", "\(renamed)")
        // The scan's own record stands, under the scan folder.
        let status = try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today])
        #expect(status.out.contains("0 processed, 1 already done"), "\(status.out)")
        // A scan added later under a path the inbox took is named, not read over the agent's record.
        try FileManager.default.copyItem(at: otherInvoice, to: scans.appendingPathComponent("invoices/half.xml"))
        let later = try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today])
        #expect(later.code == 1 && later.out.contains("path taken by the inbox  invoices/half.xml"), "\(later.out)")
        let records = try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8)
        #expect(records.contains(#""agent":"A""#) && records.split(separator: "\n").count == 3, "the agent's record stands: \(records)")
    }

    @Test func twoAgentsDroppingTheSameFileAtOnceMakeOneRecord() throws {
        let (work, _, out, inbox) = try started()
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = inbox.appendingPathComponent("invoices")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let bytes = try Data(contentsOf: invoice)
        // Two agents write the same pair under the same name at once, each by its own temporary name and a rename.
        DispatchQueue.concurrentPerform(iterations: 2) { agent in
            for round in 0..<50 {
                let tmp = folder.appendingPathComponent(".agent\(agent)-\(round).tmp")
                try? bytes.write(to: tmp)
                _ = rename(tmp.path, folder.appendingPathComponent("same.xml").path)
                try? Data(#"{"agent": "agent \#(agent)"}"#.utf8).write(to: tmp)
                _ = rename(tmp.path, folder.appendingPathComponent("same.xml.json").path)
            }
        }
        // And one copied it under a name of its own: the same bytes twice are an original and its duplicate.
        try drop(invoice, as: "copy.xml", sidecar: #"{"agent": "agent 2"}"#, in: folder)
        let run = try runProgram(shoebox, ["inbox", "--out", out, "--today", today])
        #expect(run.code == 0, "\(run.out) \(run.err)")
        let same = try result(inbox, "processed/invoices/same.xml")
        let copy = try result(inbox, "processed/invoices/copy.xml")
        #expect(
            [same["status"] as? String, copy["status"] as? String].sorted { ($0 ?? "") < ($1 ?? "") } == ["accepted", "duplicate"], "\(same) \(copy)")
        #expect(files(under: folder).isEmpty, "nothing left behind: \(files(under: folder))")
    }

    /// A photo the page of which reads nothing (a handwritten note, here a blank page with a stroke): what the agent
    /// entered stands, each value marked the agent's; accepted when the person confirmed it with the agent, else it
    /// waits for the person. The CSV says which values are not on the page.
    @Test(.tags(.ocr)) func aPageThatReadsNothingTakesTheAgentsValuesMarkedSo() throws {
        let (work, _, out, inbox) = try started()
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = inbox.appendingPathComponent("invoices")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, y, confirmed) in [("note.png", 120, true), ("other-note.png", 400, false)] {
            let made = try runProgram(
                "/usr/bin/convert",
                ["-size", "800x1000", "xc:white", "-fill", "black", "-draw", "line 100,\(y) 300,\(y + 20)", folder.appendingPathComponent(name).path])
            #expect(made.code == 0, "\(made.err)")
            let sidecar =
                #"{"agent": "Note Agent", "merchant": "Taxi Berlin", "date": "2026-03-14", "total": "23.40 EUR", "confirmedByPerson": \#(confirmed)}"#
            try Data(sidecar.utf8).write(to: folder.appendingPathComponent(name + ".json"))
        }
        let run = try runProgram(shoebox, ["inbox", "--out", out, "--today", today])
        #expect(run.code == 0, "\(run.out) \(run.err)")
        #expect(try result(inbox, "processed/invoices/note.png")["status"] as? String == "accepted", "\(run.out)")
        #expect(try result(inbox, "processed/invoices/other-note.png")["status"] as? String == "review", "\(run.out)")
        let records = try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let note = try #require(records.first { $0["source"] as? String == "invoices/note.png" })
        let evidence = try #require(note["evidence"] as? [String: [String: Any]])
        #expect(["merchant", "date", "total"].allSatisfy { evidence[$0]?["source"] as? String == "agent" }, "\(evidence)")
        #expect(note["total"] as? String == "23.40" && note["currency"] as? String == "EUR")
        #expect(try runProgram(shoebox, ["export", "--out", out]).code == 0)
        let csv = try runProgram("/usr/bin/unzip", ["-p", out + "/exports/invoices.zip", "summary.csv"]).out
        #expect(csv.contains("entered by agent Note Agent, confirmed by the person (merchant, date, total: not on the page)"), "\(csv)")
    }

    /// The output folder on a full disk: the pass says so and stops; nothing is lost, and once there is room again the
    /// next pass finishes every drop. Needs a small tmpfs (root); where it cannot be mounted the test says so.
    @Test func aFullDiskLosesNothingAndTheNextPassFinishes() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let disk = work.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mount = try runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", disk.path])
        guard mount.code == 0 else {
            print("aFullDiskLosesNothingAndTheNextPassFinishes: no tmpfs here (\(mount.err)); not run")
            return
        }
        defer { _ = try? runProgram("/bin/umount", [disk.path]) }
        let out = disk.appendingPathComponent("out").path
        let scans = work.appendingPathComponent("scans")
        try FileManager.default.createDirectory(at: scans.appendingPathComponent("invoices"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: otherInvoice, to: scans.appendingPathComponent("invoices/scan.xml"))
        #expect(try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today]).code == 0)
        let folder = URL(fileURLWithPath: out).appendingPathComponent("inbox/invoices")
        for i in 0..<3 { try drop(distinct[i], as: "drop\(i).xml", sidecar: #"{"agent": "A", "note": "\#(i)"}"#, in: folder) }
        // Fill the disk.
        let filler = disk.appendingPathComponent("filler")
        _ = try runProgram("/bin/dd", ["if=/dev/zero", "of=\(filler.path)", "bs=64k", "count=100"])
        let full = try runProgram(shoebox, ["inbox", "--out", out, "--today", today])
        #expect(full.code != 0, "a full disk is said: \(full.out) \(full.err)")
        let inbox = URL(fileURLWithPath: out).appendingPathComponent("inbox")
        let everywhere = files(under: inbox).filter { $0.hasSuffix(".xml") }
        #expect(everywhere.count == 3, "every document is in the inbox or in processed/: \(everywhere)")
        try FileManager.default.removeItem(at: filler)
        let after = try runProgram(shoebox, ["inbox", "--out", out, "--today", today])
        #expect(after.code == 0, "\(after.out) \(after.err)")
        for i in 0..<3 { #expect(try result(inbox, "processed/invoices/drop\(i).xml")["status"] as? String == "accepted") }
        #expect(files(under: inbox).filter { $0.hasPrefix(".") || $0.contains("/.") }.isEmpty, "no intent or temporary file left")
    }
}
