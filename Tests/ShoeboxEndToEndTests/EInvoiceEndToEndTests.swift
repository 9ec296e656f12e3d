import Foundation
import ShoeboxTestSupport
import Testing

/// Issue 17: e-invoices through the built binary. The generator's good e-invoices (Fixtures/receipts/einv-*)
/// are read exactly and accepted; its broken ones (Fixtures/einvoices-broken/, each with the state and code its
/// manifest expects) end as named failures or in review with their reason; hostile XML is refused without
/// reading outside the file and without growing memory.
@Suite(.serialized) struct EInvoiceEndToEndTests {
    func run(_ args: [String], seconds: Int = 300) throws -> (code: Int32, out: String, err: String) {
        try runProgram("/usr/bin/timeout", ["-s", "KILL", String(seconds), shoebox] + args)
    }

    func code(_ r: [String: Any]?) -> String? { (r?["failure"] as? [String: Any])?["code"] as? String }

    /// A scan folder holding the fixtures named, copied under `folder/`.
    func scans(_ names: [(from: URL, name: String)], in work: URL, folder: String) throws -> URL {
        let scans = work.appendingPathComponent("scans")
        let dir = scans.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (from, name) in names { try FileManager.default.copyItem(at: from.appendingPathComponent(name), to: dir.appendingPathComponent(name)) }
        return scans
    }

    @Test func goodEInvoicesAreReadExactlyAndAcceptedAndCreditNotesAreNegative() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let receipts = fixtures.appendingPathComponent("receipts")
        let names = try FileManager.default.contentsOfDirectory(atPath: receipts.path).filter { $0.hasPrefix("einv-") && !$0.hasSuffix(".json") }
            .sorted()
        #expect(names.contains { $0.hasSuffix(".pdf") } && names.contains { $0.hasSuffix(".xml") })
        let scanRoot = try scans(names.map { (receipts, $0) }, in: work, folder: "invoices")
        let out = work.appendingPathComponent("out")
        let r = try run(["run", scanRoot.path, "--out", out.path, "--today", today])
        #expect(r.code == 0, "\(r.out) \(r.err)")
        let byPath = try records(out)
        for name in names {
            let rec = try #require(byPath["invoices/\(name)"], "\(name)")
            #expect(rec["status"] as? String == "accepted", "\(name): \(rec["reasons"] ?? "") \(rec["eInvoiceProblems"] ?? "")")
            #expect((rec["evidence"] as? [String: Any]).flatMap { ($0["total"] as? [String: Any])?["source"] as? String } == "e-invoice", "\(name)")
            #expect(rec["eInvoice"] is [String: Any], "\(name)")
            let total = try #require(rec["total"] as? String, "\(name)")
            let credit = rec["documentKind"] as? String == "credit-note"
            #expect(total.hasPrefix("-") == credit, "\(name): a credit note's total is negative, an invoice's is not: \(total)")
        }
        // The regression harness reads the standalone XML invoices' expected values from the XML itself, and the PDF's
        // from its expectation file: every field right.
        let suite = work.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: receipts.path) where name.hasPrefix("einv-") {
            try FileManager.default.copyItem(at: receipts.appendingPathComponent(name), to: suite.appendingPathComponent(name))
        }
        let report = work.appendingPathComponent("report.json")
        let g = try run(["regress", suite.path, "--today", today, "--report", report.path])
        #expect(g.code == 0, "\(g.out) \(g.err)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        #expect(o["documents"] as? Int == names.count, "every e-invoice is a regression case")
        let fields = try #require(o["fields"] as? [String: [String: Any]])
        for f in ["total", "date", "merchant", "currency", "referenceNumber", "taxByRate", "net"] {
            #expect((fields[f]?["checked"] as? Int ?? 0) > 0, "\(f) is scored")
        }
    }

    /// A store written before e-invoices were read holds an XML invoice failed as unsupported-type and a Factur-X
    /// PDF read from its page, both under the settings of that time (as an image still is). The next run reads
    /// the two again, from their XML; the image is not read again.
    @Test func anUpgradeReadsPDFsAndXMLFinishedByAnEarlierReaderAgain() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let receipts = fixtures.appendingPathComponent("receipts")
        let names = ["einv-xrechnung-ubl.xml", "einv-facturx-en16931.pdf", "eng-gb-grocer.png"]
        let scanRoot = try scans(names.map { (receipts, $0) }, in: work, folder: "f")
        let out = work.appendingPathComponent("out")
        #expect(try run(["run", scanRoot.path, "--out", out.path, "--today", today]).code == 0)
        // What an earlier version left: the image's settings on all three, the XML failed as unsupported.
        let python = try #require(which("python3"))
        let edit = try runProgram(
            python,
            [
                "-c",
                """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                (old,) = db.execute("SELECT settings FROM sources WHERE path LIKE '%.png'").fetchone()
                db.execute("UPDATE sources SET settings = ?", (old,))
                db.execute("UPDATE sources SET failure_code = 'unsupported-type' WHERE path LIKE '%.xml'")
                db.execute(
                    "UPDATE records SET json = json_set(json, '$.status', 'failed') "
                    "WHERE source_id IN (SELECT id FROM sources WHERE path LIKE '%.xml')")
                db.commit()
                """, out.appendingPathComponent("store.sqlite").path
            ])
        #expect(edit.code == 0, "\(edit.err)")
        let again = try run(["run", scanRoot.path, "--out", out.path, "--today", today])
        #expect(again.code == 0, "\(again.out) \(again.err)")
        #expect(again.out.contains("3 files found, 2 processed, 1 already done"), "\(again.out)")
        let byPath = try records(out)
        #expect(byPath["f/einv-xrechnung-ubl.xml"]?["status"] as? String == "accepted")
        #expect(byPath["f/einv-xrechnung-ubl.xml"]?["eInvoice"] is [String: Any])
    }

    @Test func brokenEInvoicesEndAsTheirManifestSays() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let broken = fixtures.appendingPathComponent("einvoices-broken")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: broken.appendingPathComponent("expected.json"))) as? [String: [String: String]])
        #expect(manifest.count >= 8)
        let scanRoot = try scans(manifest.keys.sorted().map { (broken, $0) }, in: work, folder: "broken")
        let out = work.appendingPathComponent("out")
        let r = try run(["run", scanRoot.path, "--out", out.path, "--today", today])
        #expect(r.code == 1, "some fail by name: \(r.out) \(r.err)")
        let byPath = try records(out)
        for (name, want) in manifest.sorted(by: { $0.key < $1.key }) {
            let rec = try #require(byPath["broken/\(name)"], "\(name)")
            #expect(rec["status"] as? String == want["status"], "\(name): \(rec["status"] ?? "") \(rec["reasons"] ?? "")")
            if want["status"] == "failed" {
                #expect(code(rec) == want["code"], "\(name): \(code(rec) ?? "none")")
            } else {
                #expect((rec["reasons"] as? [String])?.contains(want["code"] ?? "") == true, "\(name): \(rec["reasons"] ?? "")")
                #expect(!((rec["eInvoiceProblems"] as? [String]) ?? []).isEmpty, "\(name): the problem is said in words")
            }
        }
    }

    /// An external entity naming a file outside the XML: the file is never opened (traced with strace), and
    /// the XML fails as xml-dtd-refused. An entity bomb fails the same way, fast and in little memory.
    @Test func hostileXMLIsRefusedWithoutReadingOutsideTheFileOrGrowingMemory() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scanRoot = work.appendingPathComponent("scans/x")
        try FileManager.default.createDirectory(at: scanRoot, withIntermediateDirectories: true)
        let secret = work.appendingPathComponent("secret-outside.txt")
        try Data("SECRET".utf8).write(to: secret)
        let xxe = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE rsm:CrossIndustryInvoice [<!ENTITY xxe SYSTEM "file://\(secret.path)">]>
            <rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
              xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100">
              <rsm:ExchangedDocument><ram:ID>&xxe;</ram:ID></rsm:ExchangedDocument>
            </rsm:CrossIndustryInvoice>
            """
        try Data(xxe.utf8).write(to: scanRoot.appendingPathComponent("xxe.xml"))
        var bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol0 \"lol\">\n"
        for i in 1...10 { bomb += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1);", count: 10) + "\">\n" }
        bomb += "]>\n<Invoice xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\">&lol10;</Invoice>\n"
        try Data(bomb.utf8).write(to: scanRoot.appendingPathComponent("bomb.xml"))
        let out = work.appendingPathComponent("out")
        let strace = try #require(which("strace"), "strace is missing: apt-get install -y strace (make setup)")
        let python = try #require(which("python3"))
        let trace = work.appendingPathComponent("trace.txt").path
        let measured = try runProgram(
            python,
            [
                "-c",
                """
                import resource, subprocess, sys
                p = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=600)
                print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
                """, strace, "-f", "-e", "trace=open,openat,openat2,stat,newfstatat,statx,access", "-o", trace,
                shoebox, "run", work.appendingPathComponent("scans").path, "--out", out.path, "--today", today
            ])
        let first = measured.out.split(separator: "\n").first?.split(separator: " ") ?? []
        #expect(first.first == "1", "the two files fail: \(measured.out) \(measured.err)")
        let byPath = try records(out)
        #expect(code(byPath["x/xxe.xml"]) == "xml-dtd-refused")
        #expect(code(byPath["x/bomb.xml"]) == "xml-dtd-refused")
        let traced = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(traced.contains("xxe.xml"), "the trace saw the run open its scans")
        #expect(!traced.contains("secret-outside"), "the file the entity names is never touched")
        let peakKiB = Int(first.last ?? "") ?? Int.max
        #expect(peakKiB < 200_000, "refused before any expansion: peak \(peakKiB) KiB")
    }
}
