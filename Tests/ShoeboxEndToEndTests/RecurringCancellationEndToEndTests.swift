import Foundation
import ShoeboxTestSupport
import Testing

/// Issue 33, class 7: a cancellation that cannot apply is refused at every desk, and a series charged after its
/// cancellation says so while the charge waits in review. Through the built binary on a store of its own: a shop's
/// monthly receipts as born-digital PDFs (`textPDF`, read without OCR), accepted by the rules.
@Suite(.serialized) struct RecurringCancellationEndToEndTests {
    static let today = "2026-06-20"

    /// Streamly Ltd's receipts for `months` of 2026, 9.99 GBP on the 5th, in `<work>/scans/subs`, read by `shoebox run`
    /// into `<work>/out` (returned, with the run's output).
    @discardableResult
    static func streamly(_ months: ClosedRange<Int>, in work: URL) throws -> (out: String, run: String) {
        let subs = work.appendingPathComponent("scans/subs")
        try FileManager.default.createDirectory(at: subs, withIntermediateDirectories: true)
        for month in months {
            let date = String(format: "05/%02ld/2026", month)
            try textPDF(["Streamly Ltd", "1 Market Street, London", "Date \(date)", "Monthly plan GBP 9.99", "TOTAL GBP 9.99", "Paid by card"])
                .write(to: subs.appendingPathComponent(String(format: "streamly-%02ld.pdf", month)))
        }
        let out = work.appendingPathComponent("out").path
        let run = try runProgram(
            shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today, "--pipeline", rulesOnlyPipeline(in: work)])
        #expect(run.code == 0, "\(run)")
        return (out, run.out)
    }

    static func recurring(_ out: String, _ more: [String] = []) throws -> (code: Int32, out: String, err: String) {
        try runProgram(shoebox, ["recurring", "--out", out, "--today", today] + more)
    }

    @Test func aCancellationOnADayItCannotApplyFromIsRefusedAtEveryDeskAndChangesNothing() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let out = try Self.streamly(1...3, in: work).out
        // What the store holds and says before: every refusal below must leave it so. Its cancellations read from the
        // SQLite file itself (a mark before the first charge is one `recurring` would not show).
        let python = try #require(which("python3"))
        func state() throws -> String {
            let marks = try runProgram(
                python,
                [
                    "-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT * FROM cancellations').fetchall())",
                    out + "/store.sqlite"
                ])
            #expect(marks.code == 0, "\(marks)")
            return marks.out + (try Self.recurring(out, ["--json"]).out) + (try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8))
        }
        let before = try state()
        #expect(before.hasPrefix("[]\n") && before.contains(#""status" : "stopped""#) && before.contains(#""cancelledOn" : null"#), "\(before)")

        let served = try ServeTests.Served(out: out, work: work, day: Self.today)
        defer { _ = served.stop() }
        let base = "http://127.0.0.1:\(served.port)"
        func curl(_ args: [String]) throws -> (status: Int, headers: String, body: String) { try ServeTests.curl(args, work: work) }
        let page = try curl(["\(base)/?token=\(served.token)"])
        let csrf = try #require(
            page.body.range(of: #"content="[0-9a-f]{64}""#, options: .regularExpression).map { String(page.body[$0].dropFirst(9).dropLast()) })
        func browser(_ day: String) throws -> (status: Int, error: String) {
            let r = try curl([
                "-b", "shoebox_token=\(served.token)", "-H", "X-Shoebox-CSRF: \(csrf)", "-X", "POST", "-d",
                #"{"merchant": "streamly", "on": "\#(day)"}"#, "\(base)/api/cancel-series"
            ])
            let o = try JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [String: Any]
            return (r.status, o?["error"] as? String ?? r.body)
        }
        let file = work.appendingPathComponent("c.jsonl")
        func reviewFile(_ day: String) throws -> (code: Int32, out: String, err: String) {
            try Data(#"{"action": "cancel-series", "merchant": "streamly", "on": "\#(day)"}"#.utf8).write(to: file)
            return try runProgram(shoebox, ["review", "--out", out, "--apply", file.path, "--today", Self.today])
        }

        // A day that is one, on which the series cannot have been cancelled: the same sentence at each desk.
        let refused = [
            ("0001-01-01", "0001-01-01 is before 1900: type the day the series was cancelled, from 1900-01-01 to today (2026-06-20)"),
            ("1899-12-31", "1899-12-31 is before 1900: type the day the series was cancelled, from 1900-01-01 to today (2026-06-20)"),
            (
                "2026-06-21",
                "2026-06-21 is after today (2026-06-20): a series is marked cancelled from a day that has come; type the day it was "
                    + "cancelled, or for a cancellation that takes effect later, mark it on that day"
            ),
            (
                "2026-01-04",
                "2026-01-04 is before Streamly Ltd's first charge (2026-01-05): a cancellation then was an earlier subscription's and "
                    + "changes nothing in this one; type the day the series was cancelled, from 2026-01-05 to today (2026-06-20)"
            )
        ]
        for (day, says) in refused {
            let cli = try Self.recurring(out, ["--cancel", "streamly", "--on", day])
            #expect(cli.code == 2 && cli.err == "shoebox recurring: \(says)\n" && !cli.out.contains("marked cancelled"), "\(day): \(cli)")
            let applied = try reviewFile(day)
            #expect(
                applied.code == 2 && applied.err.contains("c.jsonl:1: \(says)\n") && applied.err.contains("nothing was applied")
                    && !applied.out.contains("marked cancelled"), "\(day): \(applied)")
            let clicked = try browser(day)
            #expect(clicked.status == 422 && clicked.error == says, "\(day): \(clicked)")
            #expect(try state() == before, "\(day) changed the store")
        }
        // A day that is none: refused as before, and nothing changes either.
        for day in ["2026-02-30", "20.03.2026"] {
            let cli = try Self.recurring(out, ["--cancel", "streamly", "--on", day])
            #expect(cli.code == 2 && cli.err.contains("--on takes a day written YYYY-MM-DD, not '\(day)'"), "\(cli)")
            let applied = try reviewFile(day)
            #expect(applied.code == 2 && applied.err.contains(#"c.jsonl:1: "on" must be a day written YYYY-MM-DD"#), "\(applied)")
            let clicked = try browser(day)
            #expect(clicked.status == 422 && clicked.error.contains("'\(day)' is not a day"), "\(clicked)")
            #expect(try state() == before, "\(day) changed the store")
        }
        // Today itself is a day it can have been cancelled on.
        let marked = try Self.recurring(out, ["--cancel", "streamly", "--on", Self.today])
        #expect(marked.code == 0 && marked.out.contains("Streamly Ltd: marked cancelled on 2026-06-20."), "\(marked)")
        #expect(marked.out.contains("next expected 2026-04-05, cancelled"), "\(marked.out)")
    }

    @Test func aChargeInReviewAfterTheCancellationMakesTheSeriesChargedAfterCancellationNotStopped() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let out = try Self.streamly(1...3, in: work).out
        let cancelled = try Self.recurring(out, ["--cancel", "streamly", "--on", "2026-03-20"])
        #expect(cancelled.code == 0 && cancelled.out.contains("Streamly Ltd: marked cancelled on 2026-03-20."), "\(cancelled)")
        // April's charge came after it: the run sends it to review and says what the series now is.
        let run = try Self.streamly(4...4, in: work).run
        #expect(
            run.contains(
                "  charged after cancellation  subs/streamly-04.pdf: Streamly Ltd was marked cancelled on 2026-03-20; it waits in review, "
                    + "and `shoebox recurring` shows the series charged-after-cancellation"), "\(run)")
        let status = try runProgram(shoebox, ["status", "--out", out]).out
        #expect(status.contains("review  subs/streamly-04.pdf:") && status.contains("charged-after-cancellation"), "\(status)")

        // The series says what happened, not that it stopped.
        let text = try Self.recurring(out)
        #expect(
            text.out.contains(
                "Streamly Ltd: monthly, 9.99 GBP by card, 4 charges 2026-01-05 … 2026-04-05, next expected 2026-05-05, charged-after-cancellation"),
            "\(text)")
        #expect(!text.out.contains("stopped") && text.out.contains("monthly burn: 9.99 GBP"), "\(text.out)")
        func series() throws -> [String: Any] {
            let json = try Self.recurring(out, ["--json"])
            let o = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any], "\(json)")
            let list = try #require(o["series"] as? [[String: Any]])
            #expect(list.count == 1, "\(json.out)")
            return try #require(list.first)
        }
        let inReview = try series()
        #expect(inReview["status"] as? String == "charged-after-cancellation", "\(inReview)")
        #expect(inReview["cancelledOn"] as? String == "2026-03-20")
        #expect(inReview["chargesAfterCancellation"] as? [String] == ["subs/streamly-04.pdf"], "\(inReview)")
        // The charge's own record, opened in review, shows its series so.
        let shown = try runProgram(shoebox, ["review", "--out", out, "--source", "subs/streamly-04.pdf", "--today", Self.today], input: "q\n")
        #expect(
            shown.out.contains(
                "recurring: Streamly Ltd, monthly 9.99 GBP, 4 charges, next expected 2026-05-05, charged-after-cancellation (cancelled on 2026-03-20)"
            ), "\(shown.out)")

        // A person accepts the charge (it was taken): the series still says so.
        let file = work.appendingPathComponent("d.jsonl")
        try Data(#"{"source": "subs/streamly-04.pdf", "action": "accept"}"#.utf8).write(to: file)
        #expect(try runProgram(shoebox, ["review", "--out", out, "--apply", file.path, "--today", Self.today]).code == 0)
        #expect(try series()["status"] as? String == "charged-after-cancellation")
        // Every later run names it while the charge stands, not only the run that found it.
        let later = try Self.streamly(4...4, in: work).run
        #expect(
            later.contains(
                "  charged after cancellation  Streamly Ltd: marked cancelled on 2026-03-20, charged since by subs/streamly-04.pdf "
                    + "(`shoebox recurring` shows the series)"), "\(later)")
    }
}
