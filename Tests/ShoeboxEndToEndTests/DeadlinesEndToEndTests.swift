import Foundation
import ShoeboxTestSupport
import Testing

/// Deadlines and recurring charges through the built binary, with real OCR: an invoice's terms and a folder's presets
/// become deadlines, listed overdue first, written into the zip as an iCalendar file read back by a real parser
/// (Python's icalendar, Debian's python3-icalendar) and a CSV read back by Python's csv module; a year of monthly
/// receipts of one shop, rendered by the fixture generator, is one monthly series.
@Suite(.serialized, .tags(.ocr)) struct DeadlinesEndToEndTests {
    @Test func anInvoicesTermsAndAFoldersPresetsBecomeDeadlinesInTheZip() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        for (folder, file) in [("invoices", "eng-invoice-textpdf.pdf"), ("purchases", "eng-gb-grocer.png")] {
            try FileManager.default.createDirectory(at: scans.appendingPathComponent(folder), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("receipts/\(file)"), to: scans.appendingPathComponent("\(folder)/\(file)"))
        }
        // The rules alone accept (the gate is tested elsewhere); the purchases folder returns in 30 days, 24 months' warranty.
        let pipeline = work.appendingPathComponent("p.json")
        try Data(#"{"version": 1, "acceptPrecision": 0, "deadlines": {"purchases": {"returnWindowDays": 30, "warrantyMonths": 24}}}"#.utf8)
            .write(to: pipeline)
        let out = work.appendingPathComponent("out").path
        let run = try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today, "--pipeline", pipeline.path])
        #expect(run.code == 0)
        // The run's summary counts what is overdue or due soon (the payment and the return window are past by today).
        #expect(run.out.contains("deadlines: 2 overdue (shoebox deadlines lists them)"), "\(run.out)")

        let listed = try runProgram(shoebox, ["deadlines", "--out", out, "--today", "2026-04-01", "--json"])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]], "\(listed)")
        #expect(items.map { "\($0["kind"]!) \($0["day"]!)" } == ["payment 2025-12-28", "return-window 2026-04-12", "warranty 2028-03-13"])
        #expect(items.first?["overdue"] as? Bool == true && items[1]["daysLeft"] as? Int == 11)
        // The invoice prints its due date ("Due date: 28 Dec 2025") beside its 30 days' term: the printed day stands.
        #expect((items.first?["explanation"] as? String)?.contains("the due date printed on the invoice") == true, "\(items.first ?? [:])")
        let soon = try runProgram(shoebox, ["deadlines", "--out", out, "--today", "2026-04-01", "--within", "30"])
        #expect(soon.out.contains("return-window") && !soon.out.contains("warranty") && soon.out.contains("not legal advice"), "\(soon.out)")
        #expect(try runProgram(shoebox, ["deadlines", "--out", out, "--within", "x"]).code == 2)

        #expect(try runProgram(shoebox, ["export", "--out", out, "--pipeline", pipeline.path]).code == 0)
        let python = try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : nil)
        let script = """
            import csv, icalendar, io, sys, zipfile
            for name in ["invoices", "purchases"]:
                z = zipfile.ZipFile(sys.argv[1] + "/" + name + ".zip")
                raw = z.read("deadlines.ics")
                assert all(len(l) <= 75 for l in raw.split(b"\\r\\n")), "a line over 75 octets"
                assert b"\\n" not in raw.replace(b"\\r\\n", b""), "a bare line feed"
                cal = icalendar.Calendar.from_ical(raw)
                events = [c for c in cal.walk() if c.name == "VEVENT"]
                rows = list(csv.DictReader(io.StringIO(z.read("deadlines.csv").decode("utf-8"), newline="")))
                assert len(events) == len(rows), (len(events), len(rows))
                for e, r in zip(events, rows):
                    alarms = sorted(str(a.get("TRIGGER").dt) for a in e.walk() if a.name == "VALARM")
                    assert alarms == ["-1 day, 0:00:00", "-3 days, 0:00:00", "-7 days, 0:00:00"], alarms
                    print(name, e.get("DTSTART").dt.isoformat(), str(e.get("UID")), r["day"], r["kind"], r["uid"], str(e.get("SUMMARY")))
            """
        let read = try runProgram(python, ["-c", script, out + "/exports"])
        #expect(read.code == 0, "\(read.err)")
        let lines = read.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(read.out)")
        #expect(lines.contains { $0.hasPrefix("invoices 2025-12-28 payment-") && $0.contains(" 2025-12-28 payment payment-") })
        #expect(lines.contains { $0.hasPrefix("purchases 2028-03-13 warranty-") && $0.hasSuffix("Warranty ends: Harbour Lane Grocers Ltd") })
        // UIDs stay the same on the next export, so a calendar updates instead of adding.
        #expect(try runProgram(shoebox, ["export", "--out", out, "--pipeline", pipeline.path]).code == 0)
        #expect(try runProgram(python, ["-c", script, out + "/exports"]).out == read.out)

        // Paid: settled through the review file, it leaves the list and, on the next export, the calendar.
        let settle = work.appendingPathComponent("settle.jsonl")
        try Data(#"{"source": "invoices/eng-invoice-textpdf.pdf", "action": "settle", "deadline": "warranty"}"#.utf8).write(to: settle)
        let refused = try runProgram(shoebox, ["review", "--out", out, "--apply", settle.path])
        #expect(
            refused.code == 2
                && refused.err.contains("'warranty' is no open deadline of invoices/eng-invoice-textpdf.pdf: its open deadlines are payment"),
            "\(refused)")
        try Data(#"{"source": "invoices/eng-invoice-textpdf.pdf", "action": "settle", "deadline": "payment"}"#.utf8).write(to: settle)
        #expect(try runProgram(shoebox, ["review", "--out", out, "--apply", settle.path]).code == 0)
        let after = try runProgram(shoebox, ["deadlines", "--out", out, "--today", "2026-04-01", "--json"]).out
        #expect(!after.contains("\"payment\"") && after.contains("\"warranty\""), "\(after)")
        #expect(try runProgram(shoebox, ["export", "--out", out, "--pipeline", pipeline.path]).code == 0)
        let settled = try runProgram(python, ["-c", script, out + "/exports"])
        #expect(settled.code == 0 && !settled.out.contains("payment-") && settled.out.contains("warranty-"), "\(settled)")
        #expect(try runProgram(shoebox, ["status", "--out", out, "--accuracy"]).out.contains("1 in the review --apply file"))

        // Returned: settled in the terminal review with t, which asks which of two open deadlines and refuses a kind
        // the record has not open.
        let terminal = try runProgram(
            shoebox, ["review", "--out", out, "--source", "purchases/eng-gb-grocer.png", "--today", today], input: "t\nbogus\nreturn-window\nq\n")
        #expect(terminal.code == 0, "\(terminal)")
        #expect(terminal.out.contains("kind: receipt") && terminal.out.contains("deadlines (counted, not legal advice):"), "\(terminal.out)")
        #expect(terminal.out.contains("settle which deadline (return-window, warranty)>"))
        #expect(terminal.out.contains("refused: 'bogus' is no open deadline of purchases/eng-gb-grocer.png"))
        #expect(terminal.out.contains("return-window settled"))
        let left = try runProgram(shoebox, ["deadlines", "--out", out, "--today", "2026-04-01", "--json"]).out
        #expect(!left.contains("\"return-window\"") && left.contains("\"warranty\""), "\(left)")
    }

    /// A folder of fines (its preset names the kind), a sidecar that says a scan is a contract, and a fine's windows
    /// made when a person types the day its letter arrived.
    @Test func aFoldersFinesWaitForTheDayTheyArrivedWhichAPersonTypes() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let fines = work.appendingPathComponent("scans/fines")
        try FileManager.default.createDirectory(at: fines, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("receipts/deu-baeckerei.jpg"), to: fines.appendingPathComponent("bescheid.jpg"))
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("receipts/fra-boulangerie.png"), to: fines.appendingPathComponent("abo.png"))
        try Data("{\n  \"documentKind\": \"contract\"\n}".utf8).write(to: fines.appendingPathComponent("abo.png.json"))
        let pipeline = work.appendingPathComponent("p.json")
        try Data(
            #"{"version": 1, "acceptPrecision": 0, "deadlines": {"fines": {"documentKind": "fine", "payReducedDays": 14, "objectionDays": 28}}}"#
                .utf8
        ).write(to: pipeline)
        let out = work.appendingPathComponent("out").path
        #expect(
            try runProgram(shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today, "--pipeline", pipeline.path])
                .code == 0)
        let status = try runProgram(shoebox, ["status", "--out", out]).out
        #expect(status.contains("review  fines/bescheid.jpg: fine-received-on-missing"), "\(status)")
        #expect(status.contains("review  fines/abo.png: contract-terms-unread"), "\(status)")

        // The day typed in the terminal: checked (not before the letter's date), then the windows are counted.
        let typed = try runProgram(
            shoebox, ["review", "--out", out, "--source", "fines/bescheid.jpg", "--today", today],
            input: "e receivedOn 2026-01-01\n16.03.2026\na\n")
        #expect(
            typed.out.contains("kind: fine") && typed.out.contains("refused: 2026-01-01 is before the letter's own date 2026-02-03"), "\(typed.out)")
        #expect(typed.out.contains("2026-03-29 pay-reduced") && typed.out.contains("2026-04-12 objection"), "\(typed.out)")
        let listed = try runProgram(shoebox, ["deadlines", "--out", out, "--today", "2026-03-20", "--json"])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]], "\(listed)")
        #expect(items.map { "\($0["kind"]!) \($0["day"]!)" } == ["pay-reduced 2026-03-29", "objection 2026-04-12"])
        // Undone, the day and its windows go.
        // The contract's terms typed in the terminal give its cancellation day.
        let contract = try runProgram(
            shoebox, ["review", "--out", out, "--source", "fines/abo.png", "--today", today],
            input: "e endOfTerm 2027-12-31\ne noticePeriod 3 Monate\na\n")
        #expect(contract.out.contains("kind: contract") && contract.out.contains("noticePeriod set to 3 months."), "\(contract.out)")
        #expect(contract.out.contains("2027-09-30 cancellation: Last day to cancel: 2027-09-30"), "\(contract.out)")
        let both = try runProgram(shoebox, ["deadlines", "--out", out, "--today", "2026-03-20", "--json"]).out
        #expect(both.contains(#""day" : "2027-09-30""#), "\(both)")
        let undoContract = try runProgram(shoebox, ["review", "--out", out, "--source", "fines/abo.png", "--today", today], input: "u\nu\nu\nq\n")
        #expect(undoContract.code == 0)
        let undone = try runProgram(shoebox, ["review", "--out", out, "--source", "fines/bescheid.jpg", "--today", today], input: "u\nu\nq\n")
        #expect(undone.out.contains("undone: accept") && undone.out.contains("undone: edit receivedOn"), "\(undone.out)")
        let gone = try runProgram(shoebox, ["deadlines", "--out", out, "--today", "2026-03-20", "--json"])
        #expect((try JSONSerialization.jsonObject(with: Data(gone.out.utf8)) as? [Any])?.isEmpty == true, "\(gone)")
    }

    @Test func aYearOfMonthlyReceiptsFromOneShopIsOneMonthlySeries() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let series = work.appendingPathComponent("series")
        let tool = packageRoot.appendingPathComponent(".build/debug/shoebox-fixtures").path
        #expect(try runProgram(tool, ["--shop-series", series.path]).code == 0)
        let books = work.appendingPathComponent("scans/books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        var decisions = ""
        for month in 1...12 {
            let name = String(format: "kedai-logo-%02ld.png", month)
            try FileManager.default.copyItem(at: series.appendingPathComponent(name), to: books.appendingPathComponent(name))
            // A person confirms each (the shop's name is a logo the page does not print).
            decisions += #"{"source": "books/\#(name)", "action": "accept", "fields": {"merchant": "Kedai Buku Cahaya Ilmu SDN BHD"}}"# + "\n"
        }
        let out = work.appendingPathComponent("out").path
        // The year's last receipt is dated 5 December: the run's today is after it.
        #expect(try runProgram(shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", "2026-12-20"]).code == 0)
        let file = work.appendingPathComponent("d.jsonl")
        try Data(decisions.utf8).write(to: file)
        let applied = try runProgram(shoebox, ["review", "--out", out, "--apply", file.path, "--today", "2026-12-20"])
        #expect(applied.code == 0, "\(applied)")

        let found = try runProgram(shoebox, ["recurring", "--out", out, "--today", "2026-12-20", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(found.out.utf8)) as? [String: Any], "\(found)")
        let list = try #require(object["series"] as? [[String: Any]])
        #expect(list.count == 1, "\(found.out)")
        let s = try #require(list.first)
        #expect(s["merchant"] as? String == "Kedai Buku Cahaya Ilmu SDN BHD" && s["cadence"] as? String == "monthly")
        #expect(s["currency"] as? String == "MYR" && s["status"] as? String == "active" && s["lastCharge"] as? String == "2026-12-05")
        // The billing day the charges keep to (the 4th to the 7th, around the first charge's 4th): next in January.
        let next = try #require(s["nextExpected"] as? String)
        #expect(next.hasPrefix("2027-01-0") && ["2027-01-04", "2027-01-05"].contains(next), "\(next)")
        #expect((s["history"] as? [[String: Any]])?.count == 12)
        #expect((object["monthlyBurn"] as? [String: String])?["MYR"] != nil)
        // Each receipt prints the card it was paid with ("VISA **** 4471"): the series names it and sums the year by it.
        #expect(s["card"] as? String == "VISA ••••4471", "\(s)")
        let byCard = try #require(object["byCard"] as? [[String: Any]])
        #expect(byCard.count == 1 && byCard.first?["card"] as? String == "VISA ••••4471" && byCard.first?["charges"] as? Int == 12, "\(byCard)")
        let text = try runProgram(shoebox, ["recurring", "--out", out, "--today", "2026-12-20"])
        #expect(text.out.contains("Kedai Buku Cahaya Ilmu SDN BHD: monthly") && text.out.contains("monthly burn:"), "\(text.out)")
        #expect(text.out.contains("charged by month: 2026-01 26.50 MYR") && text.out.contains("charged by payment method: card "), "\(text.out)")
        #expect(text.out.contains("charged by card: VISA ••••4471 "), "\(text.out)")
        // The terminal review shows a charge's series.
        let shown = try runProgram(shoebox, ["review", "--out", out, "--source", "books/kedai-logo-12.png", "--today", "2026-12-20"], input: "q\n")
        #expect(
            shown.out.contains("recurring: Kedai Buku Cahaya Ilmu SDN BHD, monthly 29.57 MYR, 12 charges, next expected 2027-01-0"), "\(shown.out)")

        // The browser shows it too, and marks it cancelled through the same path as the command line: an unknown name or
        // a day that is none refused with the sentence, a good one saved.
        let served = try ServeTests.Served(out: out, work: work, day: "2026-12-20")
        let base = "http://127.0.0.1:\(served.port)"
        func curl(_ args: [String]) throws -> (status: Int, headers: String, body: String) { try ServeTests.curl(args, work: work) }
        let page = try curl(["\(base)/?token=\(served.token)"])
        let csrf = try #require(
            page.body.range(of: #"content="[0-9a-f]{64}""#, options: .regularExpression).map { String(page.body[$0].dropFirst(9).dropLast()) })
        let cookie = "shoebox_token=\(served.token)"
        let one = try curl(["-b", cookie, "\(base)/api/series?source=books/kedai-logo-12.png"])
        #expect(
            one.status == 200 && one.body.contains(#""merchant":"Kedai Buku Cahaya Ilmu SDN BHD""#) && one.body.contains(#""cadence":"monthly""#),
            "\(one.body)")
        #expect(try curl(["-b", cookie, "\(base)/api/series?source=books/none.png"]).body.contains(#""series":null"#))
        func cancel(_ body: String) throws -> (status: Int, headers: String, body: String) {
            try curl(["-b", cookie, "-H", "X-Shoebox-CSRF: \(csrf)", "-X", "POST", "-d", body, "\(base)/api/cancel-series"])
        }
        let wrongName = try cancel(#"{"merchant": "Netflx", "on": "2026-12-01"}"#)
        #expect(wrongName.status == 422 && wrongName.body.contains("unknown merchant 'Netflx'"), "\(wrongName.body)")
        #expect(try cancel(#"{"merchant": "Kedai Buku", "on": "2026-13-01"}"#).status == 422)
        #expect(
            try curl(["-b", cookie, "-X", "POST", "-d", #"{"merchant": "Kedai Buku", "on": "2026-11-01"}"#, "\(base)/api/cancel-series"]).status
                == 403)
        let marked = try cancel(#"{"merchant": "Kedai Buku", "on": "2026-11-01"}"#)
        #expect(marked.status == 200 && marked.body.contains(#""merchant":"Kedai Buku Cahaya Ilmu SDN BHD""#), "\(marked.body)")
        // The December charge came after it; a person accepted it, and their decision stands: the series says so.
        #expect(marked.body.contains(#""flagged":[]"#), "\(marked.body)")
        #expect(served.stop() == 0)
        let afterBrowser = try runProgram(shoebox, ["recurring", "--out", out, "--today", "2026-12-20", "--json"]).out
        #expect(afterBrowser.contains(#""cancelledOn" : "2026-11-01""#), "\(afterBrowser)")
        #expect(afterBrowser.contains(#""status" : "charged-after-cancellation""#), "\(afterBrowser)")

        // Marked cancelled: an unknown name is refused; the series then stops.
        let unknown = try runProgram(shoebox, ["recurring", "--out", out, "--today", "2026-12-20", "--cancel", "Netflx", "--on", "2026-09-20"])
        #expect(unknown.code == 2 && unknown.err.contains("unknown merchant 'Netflx'"), "\(unknown)")
        let cancelled = try runProgram(shoebox, ["recurring", "--out", out, "--today", "2026-12-20", "--cancel", "kedai buku", "--on", "2026-12-01"])
        #expect(cancelled.code == 0 && cancelled.out.contains("Kedai Buku Cahaya Ilmu SDN BHD: marked cancelled on 2026-12-01."), "\(cancelled)")
    }

    @Test func aChargeAfterTheCancellationGoesToReview() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let series = work.appendingPathComponent("series")
        #expect(try runProgram(packageRoot.appendingPathComponent(".build/debug/shoebox-fixtures").path, ["--shop-series", series.path]).code == 0)
        let books = work.appendingPathComponent("scans/books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        func add(_ months: ClosedRange<Int>) throws {
            for month in months {
                let name = String(format: "kedai-logo-%02ld.png", month)
                try FileManager.default.copyItem(at: series.appendingPathComponent(name), to: books.appendingPathComponent(name))
            }
        }
        try add(1...5)
        // The rules alone accept what the memory names (the calibrated gate is tested elsewhere).
        let pipeline = work.appendingPathComponent("p.json")
        try Data(#"{"version": 1, "acceptPrecision": 0}"#.utf8).write(to: pipeline)
        let out = work.appendingPathComponent("out").path
        let scans = work.appendingPathComponent("scans").path
        #expect(try runProgram(shoebox, ["run", scans, "--out", out, "--today", "2026-12-20", "--pipeline", pipeline.path]).code == 0)
        let file = work.appendingPathComponent("d.jsonl")
        try Data(
            (1...5).map {
                String(
                    format:
                        #"{"source": "books/kedai-logo-%02ld.png", "action": "accept", "fields": {"merchant": "Kedai Buku Cahaya Ilmu SDN BHD"}}"#, $0
                )
            }
            .joined(separator: "\n").utf8
        ).write(to: file)
        #expect(try runProgram(shoebox, ["review", "--out", out, "--apply", file.path, "--today", "2026-12-20"]).code == 0)
        // Marked cancelled through the review file, as `recurring --cancel` marks it.
        let cancel = work.appendingPathComponent("c.jsonl")
        try Data(#"{"action": "cancel-series", "merchant": "Kedai Buku", "on": "2026-05-20"}"#.utf8).write(to: cancel)
        let marked = try runProgram(shoebox, ["review", "--out", out, "--apply", cancel.path, "--today", "2026-12-20"])
        #expect(marked.code == 0 && marked.out.contains("Kedai Buku Cahaya Ilmu SDN BHD: marked cancelled on 2026-05-20."), "\(marked)")
        try Data(#"{"action": "cancel-series", "merchant": "Netflx", "on": "2026-05-20"}"#.utf8).write(to: cancel)
        let refused = try runProgram(shoebox, ["review", "--out", out, "--apply", cancel.path, "--today", "2026-12-20"])
        #expect(refused.code == 2 && refused.err.contains("c.jsonl:1: unknown merchant 'Netflx'"), "\(refused)")
        // June's charge came after the cancellation: named in the run's summary, and in review with that reason.
        try add(6...6)
        let run = try runProgram(shoebox, ["run", scans, "--out", out, "--today", "2026-12-20", "--pipeline", pipeline.path])
        #expect(
            run.out.contains(
                "charged after cancellation  books/kedai-logo-06.png: Kedai Buku Cahaya Ilmu SDN BHD was marked cancelled on 2026-05-20"),
            "\(run.out)")
        let status = try runProgram(shoebox, ["status", "--out", out]).out
        #expect(status.contains("review  books/kedai-logo-06.png:") && status.contains("charged-after-cancellation"), "\(status)")
    }

    /// A sidecar written after a run (the day a fine arrived), changed or removed, has its record judged again on the next
    /// run, from the OCR cache; an unchanged one does not; a person's decisions stay on top.
    @Test func aSidecarWrittenAfterARunIsReadOnTheNext() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let fines = work.appendingPathComponent("scans/fines")
        try FileManager.default.createDirectory(at: fines, withIntermediateDirectories: true)
        let scan = fines.appendingPathComponent("bescheid.jpg")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("receipts/deu-baeckerei.jpg"), to: scan)
        let pipeline = work.appendingPathComponent("p.json")
        try Data(#"{"version": 1, "acceptPrecision": 0, "deadlines": {"fines": {"documentKind": "fine", "payReducedDays": 14}}}"#.utf8)
            .write(to: pipeline)
        let out = work.appendingPathComponent("out").path
        func run() throws -> String {
            let r = try runProgram(
                shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today, "--pipeline", pipeline.path])
            #expect(r.code == 0, "\(r)")
            return r.out
        }
        func deadlines() throws -> [String] {
            let listed = try runProgram(shoebox, ["deadlines", "--out", out, "--today", "2026-03-20", "--json"]).out
            return (try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]] ?? []).map { "\($0["kind"]!) \($0["day"]!)" }
        }
        _ = try run()
        #expect(try runProgram(shoebox, ["status", "--out", out]).out.contains("review  fines/bescheid.jpg: fine-received-on-missing"))
        // A person files it meanwhile: the decision stays through the next judgements.
        let file = work.appendingPathComponent("d.jsonl")
        try Data(#"{"source": "fines/bescheid.jpg", "action": "edit", "fields": {"note": "parking, Hauptstr."}}"#.utf8).write(to: file)
        #expect(try runProgram(shoebox, ["review", "--out", out, "--apply", file.path, "--today", today]).code == 0)
        #expect(try run().contains("0 processed, 1 already done"))

        let sidecar = URL(fileURLWithPath: scan.path + ".json")
        try Data(#"{"receivedOn": "2026-03-16"}"#.utf8).write(to: sidecar)
        #expect(try run().contains("1 processed"))
        #expect(try deadlines() == ["pay-reduced 2026-03-29"])
        #expect(try run().contains("0 processed, 1 already done"))
        let records = try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8)
        #expect(records.contains("parking, Hauptstr."), "\(records)")

        try Data(#"{"receivedOn": "2026-03-18"}"#.utf8).write(to: sidecar)
        #expect(try run().contains("1 processed"))
        #expect(try deadlines() == ["pay-reduced 2026-03-31"])
        try FileManager.default.removeItem(at: sidecar)
        #expect(try run().contains("1 processed"))
        #expect(try deadlines().isEmpty)
        #expect(try runProgram(shoebox, ["status", "--out", out]).out.contains("review  fines/bescheid.jpg: fine-received-on-missing"))
    }
}
