import Foundation
import ShoeboxCore
import ShoeboxExport
import ShoeboxJudgement
import ShoeboxPipeline
import ShoeboxStore

/// `shoebox deadlines`: the days by which a person must act on the store's documents, overdue first.
enum DeadlinesCommand {
    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(args, verb: "deadlines", valueOptions: ["--out", "--store", "--within", "--today"], flagOptions: ["--json"])
        if a.flags.contains("--help") {
            print(Help.deadlines)
            return ExitCode.success
        }
        guard a.positionals.isEmpty else { throw UsageError(message: "shoebox deadlines: takes no arguments. See 'shoebox deadlines --help'.") }
        let within = try a.values["--within"].map { text throws(UsageError) -> Int in
            guard let n = Int(text), (0...36_500).contains(n) else {
                throw UsageError(message: "shoebox deadlines: --within takes a number of days from 0 to 36500, not '\(text)'.")
            }
            return n
        }
        let today = try CommandLineTool.today(a, verb: "deadlines")
        let store = try CommandLineTool.store(a, out: CommandLineTool.outputDirectory(a))
        // Accepted records and those waiting in review (marked): a deadline runs whether or not a person has looked yet.
        let records = try store.effectiveRecords().map(\.record).filter { $0.status == .accepted || $0.status == .review }
        let open = DeadlineFiles.open(records).filter { within == nil || $0.deadline.day <= today.adding(days: within!) }
        // Overdue first (the longest overdue first), then by day.
        let listed = open.filter { $0.deadline.day < today } + open.filter { $0.deadline.day >= today }
        if a.flags.contains("--json") {
            let items: [[String: Any]] = listed.map { r, d in
                [
                    "day": d.day.iso, "kind": d.kind.rawValue, "overdue": d.day < today, "daysLeft": d.day.days(since: today),
                    "merchant": r.merchant ?? NSNull(), "total": r.total?.decimalString ?? NSNull(), "currency": r.currency?.code ?? NSNull(),
                    "source": r.source, "recordStatus": r.status.rawValue, "explanation": d.explanation,
                    "anchor": ["kind": d.anchor.kind.rawValue, "day": d.anchor.day.iso]
                ]
            }
            let data = try JSONSerialization.data(withJSONObject: items, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
            return ExitCode.success
        }
        guard !listed.isEmpty else {
            print("No open deadline\(within.map { " within \($0) days" } ?? "").")
            return ExitCode.success
        }
        for (r, d) in listed {
            let left = d.day.days(since: today)
            let when = left < 0 ? "overdue \(-left) d" : left == 0 ? "today" : "in \(left) d"
            let amount = r.total.map { " \($0.decimalString) \($0.currency.code)" } ?? ""
            let pending = r.status == .review ? "  (in review)" : ""
            print(
                "\(d.day.iso)  \(d.kind.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) \(when.padding(toLength: 14, withPad: " ", startingAt: 0)) \(r.merchant ?? "—")\(amount)  \(r.source)\(pending)"
            )
            print("            \(d.explanation)")
        }
        print(DeadlineFiles.disclaimer)
        return ExitCode.success
    }
}

extension DeadlinesCommand {
    /// Days ahead that a run's summary counts as due soon.
    static let soonDays = 14

    /// The line a run's summary gives the open deadlines: "deadlines: 1 overdue, 2 due within 14 days (shoebox
    /// deadlines)"; nil when none is overdue or due soon.
    static func summaryLine(_ records: [DocumentRecord], today: CalendarDay) -> String? {
        let open = DeadlineFiles.open(records.filter { $0.status == .accepted || $0.status == .review }).map(\.deadline.day)
        let overdue = open.filter { $0 < today }.count
        let soon = open.filter { $0 >= today && $0 <= today.adding(days: soonDays) }.count
        guard overdue + soon > 0 else { return nil }
        let parts = [overdue > 0 ? "\(overdue) overdue" : nil, soon > 0 ? "\(soon) due within \(soonDays) days" : nil].compactMap { $0 }
        return "deadlines: \(parts.joined(separator: ", ")) (shoebox deadlines lists them)"
    }
}

/// `shoebox recurring`: series of charges from the same shop at a regular cadence, from the accepted records.
enum RecurringCommand {
    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(
            args, verb: "recurring", valueOptions: ["--out", "--store", "--today", "--cancel", "--on"], flagOptions: ["--json", "--wait"])
        if a.flags.contains("--help") {
            print(Help.recurring)
            return ExitCode.success
        }
        guard a.positionals.isEmpty else { throw UsageError(message: "shoebox recurring: takes no arguments. See 'shoebox recurring --help'.") }
        let today = try CommandLineTool.today(a, verb: "recurring")
        let out = CommandLineTool.outputDirectory(a)
        let store = try CommandLineTool.store(a, out: out)
        if let typed = a.values["--cancel"] { try cancel(typed, a: a, out: out, store: store, today: today) }
        let series = try store.recurringSeries(today: today)
        let burn = RecurringCharges.monthlyBurn(series)
        if a.flags.contains("--json") {
            func money(_ m: Money) -> String { m.decimalString }
            let object: [String: Any] = [
                "series": series.map { s -> [String: Any] in
                    [
                        "merchant": s.merchant, "cadence": s.cadence.rawValue, "amount": money(s.amount), "currency": s.currency.code,
                        "paymentMethod": s.paymentMethod ?? NSNull(), "card": s.card?.display ?? NSNull(), "firstCharge": s.firstCharge.iso,
                        "lastCharge": s.lastCharge.iso,
                        "nextExpected": s.nextExpected.iso, "status": s.status.rawValue, "cancelledOn": s.cancelledOn?.iso ?? NSNull(),
                        "chargesAfterCancellation": s.chargesAfterCancellation,
                        "history": s.history.map { ["day": $0.day.iso, "amount": money($0.amount), "source": $0.source] }
                    ]
                },
                "monthlyBurn": Dictionary(uniqueKeysWithValues: burn.map { ($0.key.code, money($0.value)) }),
                "byMonth": RecurringCharges.totalsByMonth(series).map {
                    ["month": $0.group, "amount": money($0.amount), "currency": $0.amount.currency.code, "charges": $0.charges]
                },
                "byPaymentMethod": RecurringCharges.totalsByPaymentMethod(series).map {
                    ["paymentMethod": $0.group, "amount": money($0.amount), "currency": $0.amount.currency.code, "charges": $0.charges]
                },
                "byCard": RecurringCharges.totalsByCard(series).map {
                    ["card": $0.group, "amount": money($0.amount), "currency": $0.amount.currency.code, "charges": $0.charges]
                }
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
            return ExitCode.success
        }
        guard !series.isEmpty else {
            print("No recurring charges: a series needs at least three charges from one shop at a regular cadence (accepted records).")
            return ExitCode.success
        }
        for s in series {
            print(
                "\(s.merchant): \(s.cadence.rawValue), \(s.amount.decimalString) \(s.currency.code)\(s.paymentMethod.map { " by \($0)" } ?? "")\(s.card.map { " (\($0.display))" } ?? ""), "
                    + "\(s.history.count) charges \(s.firstCharge.iso) … \(s.lastCharge.iso), next expected \(s.nextExpected.iso), \(s.status.rawValue)"
            )
            for change in s.amountChanges { print("  price \(change.from.decimalString) → \(change.to.decimalString) on \(change.day.iso)") }
        }
        for (currency, m) in burn.sorted(by: { $0.key.code < $1.key.code }) { print("monthly burn: \(m.decimalString) \(currency.code)") }
        func line(_ totals: [RecurringCharges.Total]) -> String {
            totals.map { "\($0.group) \($0.amount.decimalString) \($0.amount.currency.code)" }.joined(separator: ", ")
        }
        // The last twelve months charged; --json has every month.
        let months = RecurringCharges.totalsByMonth(series)
        let recent = Set(Array(Set(months.map(\.group))).sorted().suffix(12))
        print("charged by month: " + line(months.filter { recent.contains($0.group) }))
        print("charged by payment method: " + line(RecurringCharges.totalsByPaymentMethod(series)))
        let byCard = RecurringCharges.totalsByCard(series)
        if !byCard.isEmpty { print("charged by card: " + line(byCard)) }
        return ExitCode.success
    }

    /// `--cancel MERCHANT --on DAY`: the series marked cancelled; a charge it took after that day goes to review.
    static func cancel(_ typed: String, a: Arguments, out: String, store: any RecordStore, today: CalendarDay) throws {
        guard let text = a.values["--on"] else {
            throw UsageError(message: "shoebox recurring: --cancel needs --on YYYY-MM-DD, the day the series was cancelled.")
        }
        guard let day = CalendarDay(iso: text), text.count == 10 else {
            throw UsageError(message: "shoebox recurring: --on takes a day written YYYY-MM-DD, not '\(text)'.")
        }
        let lock = try CommandLineTool.lock(out, a, verb: "recurring")
        defer { withExtendedLifetime(lock) {} }
        let done: SeriesCancelled
        switch try store.cancelSeries(named: typed, on: day, today: today, at: ISO8601DateFormatter().string(from: Date())) {
        case .success(let d): done = d
        case .failure(let e): throw UsageError(message: "shoebox recurring: \(e.description)")
        }
        try RecordFiles.write(records: try store.effectiveRecords().map(\.record), outputDirectory: out)
        print("\(done.merchant): marked cancelled on \(day.iso).")
        for f in done.flagged { print("  charged after cancellation: \(f.source) waits in review (charged-after-cancellation)") }
    }
}
