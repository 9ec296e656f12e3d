import Foundation
import ShoeboxTestSupport
import Testing

/// A one-page born-digital PDF whose text layer holds `lines` (Helvetica): read without OCR, in milliseconds.
func textPDF(_ lines: [String]) -> Data {
    let content = "BT /F1 14 Tf 72 760 Td 18 TL " + lines.map { "(\($0)) Tj T*" }.joined(separator: " ") + " ET"
    let objects = [
        "<</Type/Catalog/Pages 2 0 R>>", "<</Type/Pages/Kids[3 0 R]/Count 1>>",
        "<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Resources<</Font<</F1 4 0 R>>>>/Contents 5 0 R>>",
        "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>",
        "<</Length \(content.utf8.count)>>\nstream\n\(content)\nendstream"
    ]
    var pdf = "%PDF-1.4\n"
    var offsets: [Int] = []
    for (i, o) in objects.enumerated() {
        offsets.append(pdf.utf8.count)
        pdf += "\(i + 1) 0 obj\n\(o)\nendobj\n"
    }
    let xref = pdf.utf8.count
    pdf += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n" + offsets.map { String(format: "%010d 00000 n \n", $0) }.joined()
    pdf += "trailer\n<</Size \(objects.count + 1)/Root 1 0 R>>\nstartxref\n\(xref)\n%%EOF\n"
    return Data(pdf.utf8)
}

/// `<work>/scans/shop` with the receipts of shops Alpha and Bravo (no currency printed, so both go to review),
/// read by `shoebox run` into `<work>/out`, whose path is returned.
func twoReceiptsRead(in work: URL) throws -> String {
    let shop = work.appendingPathComponent("scans/shop")
    try FileManager.default.createDirectory(at: shop, withIntermediateDirectories: true)
    for name in ["Alpha", "Bravo"] { try receiptWithoutCurrency(name).write(to: shop.appendingPathComponent("\(name).pdf")) }
    let out = work.appendingPathComponent("out").path
    #expect(try runProgram(shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today, "--jobs", "1"]).code == 0)
    return out
}

/// A receipt that prints no currency anywhere: the record has none, its total is not stored, it waits in review.
func receiptWithoutCurrency(_ shop: String) -> Data {
    textPDF(["\(shop) Ltd", "12 High Street", "Date 14/03/2026", "Bread 3.00", "Milk 12.00", "TOTAL 15.00", "Thank you"])
}

/// Issue 15, classes 4 and 14 (a, b, c): every value typed in review is stored or refused with a reason.
@Suite(.serialized) struct HostileReviewTests {
    func records(_ out: String) throws -> [String: [String: Any]] {
        var bySource: [String: [String: Any]] = [:]
        for line in try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8).split(separator: "\n") {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            bySource[o["source"] as! String] = o
        }
        return bySource
    }

    @Test func aTotalTypedWithItsCurrencyIsStoredAndOneWithoutIsRefused() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let shop = work.appendingPathComponent("scans/shop")
        try FileManager.default.createDirectory(at: shop, withIntermediateDirectories: true)
        for name in ["Alpha", "Bravo", "Charlie", "Delta"] { try receiptWithoutCurrency(name).write(to: shop.appendingPathComponent("\(name).pdf")) }
        let out = work.appendingPathComponent("out").path
        let runArgs = ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today, "--jobs", "1"]
        let run = try runProgram(shoebox, runArgs)
        #expect(run.code == 0, "\(run.err)")
        let before = try records(out)
        for name in ["Alpha", "Bravo", "Charlie", "Delta"] {
            let r = try #require(before["shop/\(name).pdf"])
            #expect(r["status"] as? String == "review" && r["currency"] is NSNull && r["total"] is NSNull, "the fixture prints no currency: \(r)")
        }

        // Alpha: the total typed with its currency is stored, currency and all. Bravo: a total alone is refused
        // with the way out, then typed with a sign. A date of 0001-01-01 and a NUL in a merchant are refused.
        // Charlie: the first alternate (a total without a currency) is refused, not stored empty.
        let input =
            "e total 15.00 EUR\na\n"
            + "e total 15.00\n15,00 €\ne date 0001-01-01\n2026-03-14\ne merchant Bravo\u{0}Shop\nBravo Shop\na\n"
            + "1\ns\nq\n"
        let session = try runProgram(shoebox, ["review", "--out", out, "--today", today], input: input)
        #expect(session.code == 0, "\(session.err)")
        #expect(session.out.contains("total set to 15.00 EUR."), "\(session.out)")
        #expect(
            session.out.contains(
                "refused: the record has no currency, so '15.00' cannot be stored alone. Give the currency with the amount, e.g. 15.00 EUR"),
            "\(session.out)")
        #expect(session.out.contains("refused: '0001-01-01' is not a date from 1900-01-01 to \(today)"), "\(session.out)")
        #expect(session.out.contains("refused: the merchant holds a control character (U+0000)"), "\(session.out)")
        #expect(session.out.contains("refused: the record has no currency, so '3.00' cannot be stored alone"), "the alternate: \(session.out)")

        // --apply: a total without a currency is refused (nothing applied); accept and reject of one record in
        // one file are conflicting decisions (nothing applied); a NUL in a value is refused.
        let file = work.appendingPathComponent("decisions.jsonl").path
        func apply(_ lines: [String]) throws -> (code: Int32, out: String, err: String) {
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
            return try runProgram(shoebox, ["review", "--out", out, "--apply", file, "--today", today])
        }
        let alone = try apply([#"{"source": "shop/Charlie.pdf", "action": "accept", "fields": {"total": "15.00"}}"#])
        #expect(alone.code == 2, "\(alone.err)")
        #expect(alone.err.contains("decisions.jsonl:1: total: the record has no currency"), "\(alone.err)")
        let conflicting = try apply([
            #"{"source": "shop/Charlie.pdf", "action": "accept"}"#, #"{"source": "shop/Delta.pdf", "action": "accept"}"#,
            #"{"source": "shop/Charlie.pdf", "action": "reject"}"#
        ])
        #expect(conflicting.code == 2, "\(conflicting.err)")
        #expect(
            conflicting.err.contains("decisions.jsonl:3: conflicting decisions: shop/Charlie.pdf is accepted on line 1 and rejected on line 3"),
            "\(conflicting.err)")
        #expect(conflicting.err.contains("nothing was applied"), "\(conflicting.err)")
        let nul = try apply([#"{"source": "shop/Charlie.pdf", "action": "accept", "fields": {"referenceNumber": "A\u0000B"}}"#])
        #expect(nul.code == 2 && nul.err.contains("referenceNumber: the referenceNumber holds a control character (U+0000)"), "\(nul.err)")
        let old = try apply([#"{"source": "shop/Charlie.pdf", "action": "accept", "fields": {"date": "1066-10-14"}}"#])
        #expect(old.code == 2 && old.err.contains("'1066-10-14' is not a date from 1900-01-01"), "\(old.err)")
        #expect(try runProgram(shoebox, ["status", "--out", out]).out.contains("2 review"), "nothing of the refused files was applied")
        // The currency on the same line lets the total go without one; a currency typed with the total sets it.
        let good = try apply([
            #"{"source": "shop/Charlie.pdf", "action": "accept", "fields": {"total": "15.00", "currency": "gbp"}}"#,
            #"{"source": "shop/Delta.pdf", "action": "accept", "fields": {"total": "USD 15"}}"#
        ])
        #expect(good.code == 0, "\(good.err)")

        // What was accepted is what is stored: records.jsonl (rewritten by a run that has nothing new to do).
        #expect(try runProgram(shoebox, runArgs).code == 0)
        let after = try records(out)
        for (name, currency) in [("Alpha", "EUR"), ("Bravo", "EUR"), ("Charlie", "GBP"), ("Delta", "USD")] {
            let r = try #require(after["shop/\(name).pdf"])
            #expect(r["status"] as? String == "accepted", "\(name): \(r)")
            #expect(
                r["total"] as? String == "15.00" && r["currency"] as? String == currency,
                "\(name): total \(r["total"] ?? "nil") \(r["currency"] ?? "nil")")
        }
        #expect(after["shop/Bravo.pdf"]?["date"] as? String == "2026-03-14")
        #expect(after["shop/Bravo.pdf"]?["merchant"] as? String == "Bravo Shop")
        // And the accepted records reach the export with their totals.
        let export = try runProgram(shoebox, ["export", "--out", out])
        #expect(export.code == 0 && export.out.contains("4 accepted records"), "\(export.out) \(export.err)")

        // Class 14 (e): the size refusal gives sizes that mean something (it said "0 MiB … limit of 0 MiB").
        let small = work.appendingPathComponent("small.json").path
        try Data(#"{"version": 1, "maxExportMegabytes": 0.001}"#.utf8).write(to: URL(fileURLWithPath: small))
        let tooLarge = try runProgram(shoebox, ["export", "--out", out, "--pipeline", small])
        #expect(tooLarge.code == 9, "\(tooLarge.err)")
        let pdfBytes = try ["Alpha", "Bravo", "Charlie", "Delta"].reduce(0) {
            $0 + (try Data(contentsOf: shop.appendingPathComponent("\($1).pdf"))).count
        }
        let held = String(format: "%.2f KiB", Double(pdfBytes) / 1024)
        #expect(tooLarge.err.contains("this export would hold \(held) of originals, more than the limit of 1.02 KiB."), "\(held): \(tooLarge.err)")
        #expect(!tooLarge.err.contains("0 MiB"), "\(tooLarge.err)")

        // Class 14 (d): a file that cannot be written says the system's reason, not Foundation's error text.
        let notAFolder = work.appendingPathComponent("a-file").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: notAFolder))
        let failures = [
            try runProgram(shoebox, ["review", "--out", out, "--export", "/nonexistent/queue.jsonl"]),
            try runProgram(shoebox, ["export", "--out", out, "--format", "json", "--file", notAFolder + "/store.json"]),
            try runProgram(shoebox, ["import", small, "--out", notAFolder])
        ]
        for r in failures {
            #expect(r.code == 4, "exit \(r.code): \(r.err)")
            #expect(!r.err.contains("could not be completed") && !r.err.contains("Error Domain") && !r.err.contains("Cocoa"), "\(r.err)")
        }
        #expect(failures[0].err.contains("cannot write /nonexistent/queue.jsonl: No such file or directory."), "\(failures[0].err)")
        #expect(failures[1].err.contains("cannot create the folder \(notAFolder) for \(notAFolder)/store.json: "), "\(failures[1].err)")
        // import takes the store's lock first, which names an --out that is a file as such.
        #expect(failures[2].err.contains("the output folder \(notAFolder) is a file, not a folder. Give --out a folder"), "\(failures[2].err)")
    }

    @Test func aSidecarTotalKeepsItsCurrencyAndANULIsNamed() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let shop = work.appendingPathComponent("scans/shop")
        try FileManager.default.createDirectory(at: shop, withIntermediateDirectories: true)
        try receiptWithoutCurrency("Alpha").write(to: shop.appendingPathComponent("Alpha.pdf"))
        try receiptWithoutCurrency("Bravo").write(to: shop.appendingPathComponent("Bravo.pdf"))
        // The same as {"total": "15.00", "currency": "EUR"}: the currency typed with the total was dropped.
        try Data(#"{"total": "15.00 EUR"}"#.utf8).write(to: shop.appendingPathComponent("Alpha.pdf.json"))
        try Data(#"{"total": "15.00", "currency": "EUR", "merchant": "Bravo\u0000Ltd"}"#.utf8).write(
            to: shop.appendingPathComponent("Bravo.pdf.json"))
        let out = work.appendingPathComponent("out").path
        let run = try runProgram(shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today, "--jobs", "1"])
        #expect(run.code == 0, "\(run.err)")
        let r = try records(out)
        let alpha = try #require(r["shop/Alpha.pdf"])
        #expect(alpha["total"] as? String == "15.00" && alpha["currency"] as? String == "EUR", "\(alpha)")
        let bravo = try #require(r["shop/Bravo.pdf"])
        #expect((bravo["reasons"] as? [String])?.contains("sidecar-invalid") == true, "\(bravo)")
        #expect(bravo["merchant"] as? String == "Bravo Ltd", "the document's own merchant, not the sidecar's: \(bravo)")
    }

    /// Review round 2 of issue 15: a decisions file that cannot be read is exit 2 as in `import` (before: exit 4);
    /// `review --apply` takes the store's lock (exit 8 while another process holds it, --wait waits), while the
    /// interactive review does not hold it.
    @Test(.tags(.ocr)) func applyNamesABadFileAsUsageAndTakesTheStoresLock() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let out = try twoReceiptsRead(in: work)

        for (what, path) in [("missing file", work.path + "/no-such.jsonl"), ("a folder", work.path)] {
            let r = try runProgram(shoebox, ["review", "--out", out, "--apply", path, "--today", today])
            #expect(r.code == 2, "\(what): exit \(r.code): \(r.err)")
            #expect(
                r.err.hasPrefix("shoebox review: ") && (r.err.contains("Check the path") || r.err.contains("is not a regular file")),
                "\(what): \(r.err)")
        }
        let wait = try runProgram(shoebox, ["review", "--out", out, "--wait"], input: "q\n")
        #expect(wait.code == 2 && wait.err.contains("--wait goes with --apply"), "exit \(wait.code): \(wait.err)")

        let decisions = work.appendingPathComponent("decisions.jsonl").path
        try Data(#"{"source": "shop/Alpha.pdf", "action": "reject"}"#.utf8).write(to: URL(fileURLWithPath: decisions))
        let holder = try startProgram(
            "/usr/bin/python3",
            [
                "-c",
                """
                import fcntl, os, sys, time
                f = open(sys.argv[1], 'a+'); fcntl.flock(f, fcntl.LOCK_EX); f.seek(0); f.truncate()
                f.write('%d import\\n' % os.getpid()); f.flush(); time.sleep(float(sys.argv[2]))
                """, out + "/run.lock", "3"
            ])
        for _ in 0..<200 where !((try? String(contentsOfFile: out + "/run.lock", encoding: .utf8)) ?? "").contains("import") {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let busy = try runProgram(shoebox, ["review", "--out", out, "--apply", decisions, "--today", today])
        #expect(busy.code == 8, "exit \(busy.code): \(busy.err)")
        #expect(busy.err.contains("shoebox review: another shoebox import (process \(holder.processIdentifier)) is working in \(out)"), "\(busy.err)")
        let held = try runProgram(shoebox, ["status", "--out", out])
        #expect(held.out.contains("0 rejected"), "nothing applied while the lock is held: \(held.out)")
        // The interactive review does not take the lock: a person may keep it open, and it still saves.
        let session = try runProgram(shoebox, ["review", "--out", out, "--today", today], input: "s\nr\nq\n")
        #expect(session.code == 0 && session.out.contains("rejected as not a purchase"), "exit \(session.code): \(session.out) \(session.err)")
        let waited = try runProgram(shoebox, ["review", "--out", out, "--apply", decisions, "--today", today, "--wait"])
        holder.waitUntilExit()
        #expect(waited.code == 0 && waited.out.contains("1 decision applied"), "exit \(waited.code): \(waited.out) \(waited.err)")
        #expect(
            ((try? String(contentsOfFile: out + "/run.lock", encoding: .utf8)) ?? "").hasSuffix(" review\n"),
            "review --apply holds the lock under its verb")
        let status = try runProgram(shoebox, ["status", "--out", out])
        #expect(status.out.contains("2 rejected"), "the session's decision (Bravo) and the file's (Alpha): \(status.out)")
    }

    /// Review round 2 of issue 15: `--help` lists every exit code the README's table has (it stopped at 8), and
    /// the review help gives each field's own limit (it said 200 for every edit; a referenceNumber is 100).
    @Test func theHelpListsEveryExitCodeOfTheReadmeAndEachFieldsLimit() throws {
        let readme = try String(contentsOfFile: packageRoot.path + "/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "### Exit codes").dropFirst().first)
        let codes = section.split(separator: "\n").prefix(40).compactMap { line -> Int? in
            guard line.hasPrefix("| "), let n = Int(line.dropFirst(2).prefix { $0.isNumber }) else { return nil }
            return n
        }
        #expect(codes == Array(0...18), "the README's table: \(codes)")
        // One source (the exit-code enum): `--help` lists every code with the README table's own sentence.
        let help = try runProgram(shoebox, ["--help"])
        let exits = try #require(help.out.components(separatedBy: "Exit codes:\n").dropFirst().first)
        var listed: [(Int, String)] = []
        for line in exits.split(separator: "\n") {
            if let n = Int(line.prefix(6).trimmingCharacters(in: .whitespaces)), line.hasPrefix("  ") {
                listed.append((n, line.dropFirst(6).trimmingCharacters(in: .whitespaces)))
            } else if line.hasPrefix("      "), !listed.isEmpty {
                listed[listed.count - 1].1 += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        let table = section.split(separator: "\n").prefix(40).compactMap { line -> (Int, String)? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, let n = Int(cells[1]) else { return nil }
            return (n, cells[2...].dropLast().joined(separator: "|"))
        }
        #expect(listed.map(\.0) == codes && table.count == codes.count, "\(exits)")
        for ((n, said), (_, written)) in zip(listed, table) { #expect(said == written, "exit \(n): --help \"\(said)\", README \"\(written)\"") }
        let review = try runProgram(shoebox, ["review", "--help"]).out
        #expect(
            review.contains("a merchant at most 200\n")
                && review.contains("characters, a referenceNumber, paymentMethod or category 100, a note 1,000"), "\(review)")
        #expect(!review.contains("                   at most 200 characters\n"), "\(review)")
    }
}
