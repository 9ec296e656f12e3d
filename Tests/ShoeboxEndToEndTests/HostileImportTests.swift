import Foundation
import ShoeboxTestSupport
import Testing

/// Issue 15, class 12: `import` checks every value as strictly as a run would make it, and refuses the whole
/// file (exit 11) naming the document, its path and the field, with nothing written.
@Suite(.serialized, .tags(.ocr)) struct HostileImportTests {
    @Test func anImportThatEscapesTheScansOrHoldsImpossibleValuesIsRefusedWhole() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let out = try twoReceiptsRead(in: work)
        let session = try runProgram(shoebox, ["review", "--out", out, "--today", today], input: "e total 15.00 EUR\na\nq\n")
        #expect(session.code == 0, "\(session.err)")
        let file = work.appendingPathComponent("store.json").path
        #expect(try runProgram(shoebox, ["export", "--out", out, "--format", "json", "--file", file]).code == 0)
        let original = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])

        // The export as written imports (the checks refuse nothing a run writes).
        let fine = try runProgram(shoebox, ["import", file, "--out", work.appendingPathComponent("fine").path])
        #expect(fine.code == 0 && fine.out.contains("2 documents added"), "\(fine.out) \(fine.err)")

        /// Imports the export with document 1 (or the top level) changed; expects exit 11 naming `expected`, and an
        /// untouched store.
        func refused(_ what: String, expected: String, _ change: ((inout [String: Any]) -> Void)? = nil, top: ((inout [String: Any]) -> Void)? = nil)
            throws
        { try importRefused(what, expected: expected, original: original, in: work, change, top: top) }
        try refused(
            "escaping path", expected: #"document 1 (shop/../../../etc/hostname): "path" has a ".." part, which would lead outside the scan folder"#
        ) {
            $0["path"] = "shop/../../../etc/hostname"
            $0["suggestion"] = NSNull()
        }
        try refused("absolute path", expected: #"document 1 (/etc/hostname): "path" is absolute"#) {
            $0["path"] = "/etc/hostname"
            $0["folder"] = ""
            $0["suggestion"] = NSNull()
        }
        try refused("empty part", expected: #""path" has an empty part"#) {
            $0["path"] = "shop//Alpha.pdf"
            $0["suggestion"] = NSNull()
        }
        try refused("dot part", expected: #""path" has a "." part"#) {
            $0["path"] = "shop/./Alpha.pdf"
            $0["suggestion"] = NSNull()
        }
        try refused("NUL in path", expected: #"(shop/Alpha<U+0000>.pdf): "path" holds a control character (U+0000)"#) {
            $0["path"] = "shop/Alpha\u{0}.pdf"
            $0["suggestion"] = NSNull()
        }
        try refused("relative root", expected: #""root" must be the absolute path of the scan folder"#) { $0["root"] = "scans" }
        try refused("root with ..", expected: #""root" must be a normalised absolute path"#) { $0["root"] = "/tmp/../etc" }
        for sha in [String(repeating: "z", count: 64), String(repeating: "A", count: 64), String(repeating: "a", count: 63)] {
            try refused("sha256 \(sha)", expected: #"document 1 (shop/Alpha.pdf): "sha256" must be 64 lowercase hexadecimal digits"#) {
                $0["sha256"] = sha
            }
        }
        try refused("state", expected: #""state" must be one of accepted, duplicate, failed, review"#) { $0["state"] = "exploded" }
        try refused("size", expected: #""size" must be a whole number of bytes"#) { $0["size"] = -5 }
        try refused("folder", expected: #""folder" must be the first part of the path"#) { $0["folder"] = "elsewhere" }
        try refused("negative version", expected: "says format version -1; Shoebox writes versions 1 to 1", top: { $0["version"] = -1 })
        try refused("zero version", expected: "says format version 0", top: { $0["version"] = 0 })
        func suggestion(_ key: String, _ value: Any) -> (inout [String: Any]) -> Void {
            { doc in
                var s = doc["suggestion"] as? [String: Any] ?? [:]
                s[key] = value
                doc["suggestion"] = s
            }
        }
        try refused("date", expected: #""suggestion.date" 0001-01-01 is before 1900"#, suggestion("date", "0001-01-01"))
        try refused("far date", expected: #""suggestion.date" 9999-12-31 is after today"#, suggestion("date", "9999-12-31"))
        try refused("currency", expected: #""suggestion.currency" must be null or an ISO 4217 code"#, suggestion("currency", "E1R"))
        try refused("total", expected: #""suggestion" is not a record"#, suggestion("total", "12,3x"))
        try refused("merchant NUL", expected: #""suggestion.merchant" holds a control character (U+0000)"#, suggestion("merchant", "A\u{0}B"))
        try refused("source", expected: #""suggestion.source" must be the document's path"#, suggestion("source", "../x.pdf"))
        func decision(_ d: [String: Any]) -> (inout [String: Any]) -> Void { { $0["decisions"] = [d] } }
        try refused(
            "decision value", expected: #""decisions[0].value" '-5' is not a valid total"#,
            decision(["action": "edit", "field": "total", "value": "-5", "at": "2026-11-30T00:00:00Z", "undone": false]))
        try refused(
            "decision field", expected: #""decisions[0].field" must be one of merchant"#,
            decision(["action": "edit", "field": "colour", "value": "red", "at": "2026-11-30T00:00:00Z", "undone": false]))
        try refused(
            "decision NUL", expected: #""decisions[0].value" holds a control character (U+0000)"#,
            decision(["action": "edit", "field": "merchant", "value": "A\u{0}B", "at": "2026-11-30T00:00:00Z", "undone": false]))
        try refused(
            "decision date", expected: #""decisions[0].value" '0001-01-01' is not a valid date"#,
            decision(["action": "edit", "field": "date", "value": "0001-01-01", "at": "2026-11-30T00:00:00Z", "undone": false]))
        // Issue 53: a logged edit is read as the value `Review.apply` sets (`FieldValue`), so one it could not set is refused.
        for (field, value) in [("item", "3 colour=red"), ("tax", "19=2.65; seven=1.05"), ("currency", "eur"), ("noticePeriod", "3 monthz")] {
            try refused(
                "decision \(field)", expected: #""decisions[0].value" '\#(value)' is not a valid \#(field)"#,
                decision(["action": "edit", "field": field, "value": value, "at": "2026-11-30T00:00:00Z", "undone": false]))
        }
        // Issue 33, class 9: a decision's time and a memory item's currency and time are checked like every other
        // field; class 3: so are the series cancellations an export now carries.
        for (at, problem) in [
            ("yesterday", "must be a time as Shoebox writes it"), ("2026-02-30T10:00:00Z", "must be a time as Shoebox writes it"),
            ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z is before 1900")
        ] {
            try refused("decision time \(at)", expected: #""decisions[0].at" \#(problem)"#, decision(["action": "accept", "at": at, "undone": false]))
        }
        let memory = try #require(original["memory"] as? [[String: Any]])
        #expect(!memory.isEmpty, "the review's acceptance taught the memory")
        try refused(
            "memory currency", expected: #"memory item 1: "currency" must be null or an ISO 4217 code"#,
            top: { $0["memory"] = [memory[0].merging(["currency": "euros"]) { _, b in b }] })
        try refused(
            "memory time", expected: #"memory item 1: "at" must be a time as Shoebox writes it"#,
            top: { $0["memory"] = [memory[0].merging(["at": "t"]) { _, b in b }] })
        for (item, expected) in [
            (["merchant": "Netflix", "on": "0001-01-01", "at": "2026-11-30T00:00:00Z"], #"cancellation 1: "on" must be a day from 1900"#),
            (["merchant": "Netflix", "on": "2026-13-01", "at": "2026-11-30T00:00:00Z"], #"cancellation 1: "on" must be a day"#),
            (["merchant": "", "on": "2026-11-01", "at": "2026-11-30T00:00:00Z"], #"cancellation 1: "merchant" is empty"#),
            (["merchant": "Net\nflix", "on": "2026-11-01", "at": "2026-11-30T00:00:00Z"], #"cancellation 1: "merchant" holds a control character"#),
            (["merchant": "Netflix", "on": "2026-11-01", "at": "soon"], #"cancellation 1: "at" must be a time"#)
        ] {
            try refused("cancellation \(item)", expected: expected, top: { $0["cancellations"] = [item] })
        }
        try refused(
            "cancellation twice", expected: #"cancellation 2: "merchant" is the merchant of an earlier cancellation too"#,
            top: {
                let c = ["merchant": "Netflix", "on": "2026-11-01", "at": "2026-11-30T00:00:00Z"]
                $0["cancellations"] = [c, c]
            })
        // A store that already holds such a path (imported by an older Shoebox; written here with Python's sqlite3,
        // a real SQLite) leaves that record out, never zipping a file from outside the scans, and blocks nothing else.
        let hostname = "/etc/hostname"
        let older = work.appendingPathComponent("fine").path
        let escaping = "shop/../../../../../../../../etc/hostname"
        let script = """
            import sqlite3, json, hashlib, sys
            db = sqlite3.connect(sys.argv[1]); data = open(sys.argv[2], 'rb').read(); sha = hashlib.sha256(data).hexdigest()
            sid, j = db.execute("SELECT r.source_id, r.json FROM records r JOIN sources s ON s.id = r.source_id WHERE s.path = 'shop/Alpha.pdf'").fetchone()
            r = json.loads(j); r['source'] = sys.argv[3]; r['sha256'] = sha
            db.execute("UPDATE sources SET path = ?, sha256 = ?, size = ? WHERE id = ?", (sys.argv[3], sha, len(data), sid))
            db.execute("UPDATE records SET json = ? WHERE source_id = ?", (json.dumps(r), sid))
            db.execute("UPDATE decisions SET path = ?, sha256 = ? WHERE path = 'shop/Alpha.pdf'", (sys.argv[3], sha))
            db.commit()
            """
        let py = try runProgram("/usr/bin/python3", ["-c", script, older + "/store.sqlite", hostname, escaping])
        #expect(py.code == 0, "\(py.err)")
        #expect(try runProgram(shoebox, ["status", "--out", older]).out.contains("1 accepted"), "the crafted record is the accepted one")
        let exported = try runProgram(shoebox, ["export", "--out", older])
        #expect(exported.code == 0, "exit \(exported.code): \(exported.out) \(exported.err)")
        #expect(exported.out.contains("left out: 1 accepted:unusable-path"), "\(exported.out)")
        #expect(exported.out.contains("1 accepted record holds a path no store may hold"), "\(exported.out)")
        let zips = (try? FileManager.default.contentsOfDirectory(atPath: older + "/exports")) ?? []
        #expect(zips == ["shop.zip"], "\(zips)")
        let listing = try runProgram("/usr/bin/unzip", ["-Z1", older + "/exports/shop.zip"])
        #expect(listing.code == 0, "\(listing.err)")
        let hostBytes = try Data(contentsOf: URL(fileURLWithPath: hostname))
        for entry in listing.out.split(separator: "\n") where entry.hasPrefix("receipts/") {
            let bytes = try runProgram("/usr/bin/unzip", ["-p", older + "/exports/shop.zip", String(entry)])
            #expect(Data(bytes.out.utf8) != hostBytes, "\(entry) is not the file from outside")
        }

        // A stored record that cannot be read is named in plain words, not Swift's DecodingError dump.
        let brokenScript = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE records SET json = ? WHERE source_id = (SELECT id FROM sources WHERE path = 'shop/Bravo.pdf')",
                       ('{"source": "shop/Bravo.pdf", "sha256": "x", "status": "sideways"}',))
            db.commit()
            """
        #expect(try runProgram("/usr/bin/python3", ["-c", brokenScript, older + "/store.sqlite"]).code == 0)
        let broken = try runProgram(shoebox, ["status", "--out", older])
        #expect(broken.code == 4, "\(broken.err)")
        #expect(broken.err.contains("holds a record that cannot be read (\"status\" is wrong: invalid value sideways)"), "\(broken.err)")
        #expect(!broken.err.contains("DecodingError"), "\(broken.err)")

        try refused(
            "the same path twice", expected: #"document 2 (shop/Alpha.pdf): "path" is the path of document 1 too"#,
            top: {
                var documents = $0["documents"] as! [[String: Any]]
                documents[1]["path"] = documents[0]["path"]
                documents[1]["suggestion"] = NSNull()
                $0["documents"] = documents
            })
    }

    /// Imports `original` with document 1 (or the top level) changed; expects exit 11 naming `expected`, and a
    /// store left empty.
    func importRefused(
        _ what: String, expected: String, original: [String: Any], in work: URL, _ change: ((inout [String: Any]) -> Void)?,
        top: ((inout [String: Any]) -> Void)?
    ) throws {
        let bad = try changed(original, in: work, change, top: top)
        let other = work.appendingPathComponent("other-\(UUID().uuidString)").path
        let r = try runProgram(shoebox, ["import", bad, "--out", other])
        #expect(r.code == 11, "\(what): exit \(r.code), \(r.out) \(r.err)")
        #expect(r.err.contains(expected), "\(what): \(r.err)")
        #expect(r.err.contains("othing was imported"), "\(what): \(r.err)")
        let status = try runProgram(shoebox, ["status", "--out", other])
        #expect(status.out.contains("store: 0 documents") || status.code != 0, "\(what): nothing is written: \(status.out)")
    }

    /// A store export with one thing changed in document 1 (or at the top), written to a file of its own.
    func changed(
        _ original: [String: Any], in work: URL, _ change: ((inout [String: Any]) -> Void)? = nil,
        top: ((inout [String: Any]) -> Void)? = nil
    ) throws -> String {
        var object = original
        var documents = try #require(object["documents"] as? [[String: Any]])
        if let change { change(&documents[0]) }
        object["documents"] = documents
        top?(&object)
        let file = work.appendingPathComponent("changed-\(UUID().uuidString).json").path
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Review round 2 of issue 15: a version of 2^63 - 1 (whose Double is 2^63) is refused, not a trap; tax amounts
    /// and the number of tax lines are bounded; a typed edit meets TextLimits through the document/path/field
    /// message, while a long merchant the pipeline read imports; an import takes the store's lock.
    @Test func importRefusesAHugeVersionTaxAndLongEditsButTakesALongReadMerchantAndTheLock() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let shop = work.appendingPathComponent("scans/shop")
        try FileManager.default.createDirectory(at: shop, withIntermediateDirectories: true)
        try receiptWithoutCurrency("Alpha").write(to: shop.appendingPathComponent("Alpha.pdf"))
        let out = work.appendingPathComponent("out").path
        #expect(try runProgram(shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today, "--jobs", "1"]).code == 0)
        let file = work.appendingPathComponent("store.json").path
        #expect(try runProgram(shoebox, ["export", "--out", out, "--format", "json", "--file", file]).code == 0)
        let original = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])

        func refused(_ what: String, expected: String, _ change: ((inout [String: Any]) -> Void)? = nil, top: ((inout [String: Any]) -> Void)? = nil)
            throws
        { try importRefused(what, expected: expected, original: original, in: work, change, top: top) }
        func suggestion(_ values: [String: Any]) -> (inout [String: Any]) -> Void {
            { doc in
                var s = doc["suggestion"] as? [String: Any] ?? [:]
                for (k, v) in values { s[k] = v }
                doc["suggestion"] = s
            }
        }
        // 9223372036854775807 reads as the Double 2^63, which equals Double(Int.max): before, Int(d) trapped.
        try refused("version Int.max", expected: "says format version 9223372036854775807", top: { $0["version"] = Int.max })
        try refused("version 1e300", expected: "says format version", top: { $0["version"] = 1e300 })
        // Tax: each amount bounded like a total, and at most 64 lines (before: imported, and then sums overflowed).
        try refused(
            "huge tax", expected: #"document 1 (shop/Alpha.pdf): "suggestion.tax[1].amount" 999999999999999.99 is beyond any receipt"#,
            suggestion(["currency": "EUR", "tax": [["rate": "7", "amount": "1.00"], ["rate": "19", "amount": "999999999999999.99"]]]))
        try refused(
            "65 tax lines", expected: #""suggestion.tax" has 65 lines; at most 64"#,
            suggestion(["currency": "EUR", "tax": Array(repeating: ["rate": "19", "amount": "1.00"], count: 65)]))
        // A typed referenceNumber over TextLimits' 100 (but under review's general 200): named like every other
        // invalid value (before: "document 1 is invalid (…)" without path or field).
        let typed =
            ["action": "edit", "field": "referenceNumber", "value": String(repeating: "7", count: 150), "at": "2026-11-30T00:00:00Z", "undone": false]
            as [String: Any]
        try refused(
            "long typed reference",
            expected: #"document 1 (shop/Alpha.pdf): "decisions[0].value" is 150 characters long; a referenceNumber is at most 100"#,
            { $0["decisions"] = [typed] })

        // What the pipeline read keeps import's own 1,000-character bound: a 500-character merchant and reference
        // (a long line read from the page) import (before: refused by the 200/100 limits meant for typed values).
        let longRead = try changed(
            original, in: work,
            suggestion([
                "merchant": String(repeating: "M", count: 500),
                "referenceNumber": String(repeating: "R", count: 500)
            ]))
        let fresh = work.appendingPathComponent("fresh").path
        let imported = try runProgram(shoebox, ["import", longRead, "--out", fresh])
        #expect(imported.code == 0 && imported.out.contains("1 document added"), "exit \(imported.code): \(imported.out) \(imported.err)")
        // The import held the store's lock under its own verb.
        #expect(((try? String(contentsOfFile: fresh + "/run.lock", encoding: .utf8)) ?? "").hasSuffix(" import\n"))

        // While another process holds the lock (here Python's flock on run.lock, as a run holds it), import stops
        // with exit 8 naming it and writes nothing; with --wait it imports once the lock is free.
        let locked = work.appendingPathComponent("locked").path
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        let holder = try startProgram(
            "/usr/bin/python3",
            [
                "-c",
                """
                import fcntl, os, sys, time
                f = open(sys.argv[1], 'a+'); fcntl.flock(f, fcntl.LOCK_EX); f.seek(0); f.truncate()
                f.write('%d run\\n' % os.getpid()); f.flush(); time.sleep(float(sys.argv[2]))
                """, locked + "/run.lock", "3"
            ])
        for _ in 0..<200 where !((try? String(contentsOfFile: locked + "/run.lock", encoding: .utf8)) ?? "").contains("run") {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let busy = try runProgram(shoebox, ["import", file, "--out", locked])
        #expect(busy.code == 8, "exit \(busy.code): \(busy.err)")
        #expect(busy.err.contains("shoebox import: another shoebox run (process \(holder.processIdentifier)) is working in \(locked)"), "\(busy.err)")
        #expect(!FileManager.default.fileExists(atPath: locked + "/store.sqlite"), "nothing is written while the lock is held")
        let waited = try runProgram(shoebox, ["import", file, "--out", locked, "--wait"])
        holder.waitUntilExit()
        #expect(waited.code == 0 && waited.out.contains("1 document added"), "exit \(waited.code): \(waited.out) \(waited.err)")
    }
}
