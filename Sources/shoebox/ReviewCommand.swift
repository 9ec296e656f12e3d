import Foundation
import ShoeboxCore
import ShoeboxJudgement
import ShoeboxPipeline
import ShoeboxStore

/// `shoebox review`: the queue of records the pipeline was not sure about, one at a time, in a plain
/// terminal (lines in, lines out, so it also runs on piped input). Every decision is saved at once.
enum ReviewCommand {
    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(
            args, verb: "review", valueOptions: ["--out", "--store", "--today", "--export", "--apply", "--source"], flagOptions: ["--wait"])
        if a.flags.contains("--help") {
            print(Help.review)
            return ExitCode.success
        }
        guard a.positionals.isEmpty else { throw UsageError(message: "shoebox review: takes no arguments. See 'shoebox review --help'.") }
        let out = CommandLineTool.outputDirectory(a)
        try CommandLineTool.requireStore(out, a)
        let today = try CommandLineTool.today(a, verb: "review")
        if a.flags.contains("--wait") && a.values["--apply"] == nil {
            throw UsageError(
                message: "shoebox review: --wait goes with --apply (only --apply takes the output folder's lock). See 'shoebox review --help'.")
        }
        if let file = a.values["--apply"] {
            // The store's lock, as run, export and import take it, for the moments the file is checked and applied.
            // The interactive session below does not hold it: a person may leave it open for hours, and each of
            // its decisions is one short SQLite transaction.
            let lock = try CommandLineTool.lock(out, a, verb: "review")
            defer { withExtendedLifetime(lock) {} }
            return try apply(file, store: try CommandLineTool.store(a, out: out), today: today)
        }
        let store = try CommandLineTool.store(a, out: out)
        if let file = a.values["--export"] { return try export(store, to: file) }
        if let only = a.values["--source"] {
            guard let r = try store.effectiveRecords().first(where: { $0.record.source == only })?.record else {
                throw UsageError(
                    message:
                        "shoebox review: no record '\(only)' in \(StoredPath.shown(out)). `shoebox status --out \(StoredPath.shown(out))` lists them."
                )
            }
            guard r.status != .failed else {
                throw UsageError(
                    message:
                        "shoebox review: \(only) failed (\(r.failure?.code ?? "unknown")): it has no values to correct; fix the file and run again.")
            }
        }
        return try ReviewSession(store: store, today: today, only: a.values["--source"]).run()
    }

    /// The records still waiting for a person, as they stand now.
    static func queue(_ store: any RecordStore) throws -> [(suggestion: DocumentRecord, record: DocumentRecord)] {
        try store.effectiveRecords().filter { $0.record.status == .review }
    }

    static func export(_ store: any RecordStore, to file: String) throws -> ExitCode {
        let waiting = try queue(store)
        let lines = waiting.map { $0.record.jsonLine() + "\n" }.joined()
        do { try FileBytes.write(Data(lines.utf8), to: file) } catch {
            throw PipelineError(
                code: .store,
                message: "cannot write \(StoredPath.shown(file)): \(SystemReason.of(error)). Check that its folder exists and is writable.")
        }
        print("review: \(waiting.count) records written to \(StoredPath.shown(file))")
        return ExitCode.success
    }

    /// A final decision as said of a record: "accepted", "rejected", "marked a duplicate".
    static func done(_ action: ReviewDecision.Action) -> String {
        switch action {
        case .accept: return "accepted"
        case .reject: return "rejected"
        case .duplicate: return "marked a duplicate"
        case .edit: return "edited"
        case .notDuplicate: return "marked not a duplicate"
        case .settle: return "settled a deadline of"
        }
    }

    /// Applies a JSON Lines file of decisions: every line is checked first; one bad line and nothing is applied.
    /// A line: {"source": "folder/file.jpg", "action": "accept"|"reject"|"duplicate"|"not-duplicate"|"settle",
    /// "fields": {"total": "23.45", …}} (fields are edits made before the action; "action" may be "edit").
    static func apply(_ file: String, store: any RecordStore, today: CalendarDay) throws -> ExitCode {
        let data: Data
        switch CommandLineTool.readRegularFile(file, limit: 64 << 20) {
        case .success(let d): data = d
        // A file the person named that cannot be read is a usage error (exit 2), as in `import`.
        case .failure(let e): throw UsageError(message: "shoebox review: \(e.message)")
        }
        let records = Dictionary(try store.effectiveRecords().map { ($0.record.source, $0.record) }, uniquingKeysWith: { a, _ in a })
        var batch = DecisionFile(file: file, records: records, today: today)
        batch.categories = { store.categories(forFolderOf: $0) }
        batch.folderCategories = { store.categories(forFolder: $0) }
        for (n, raw) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            batch.read(line, number: n + 1)
        }
        guard batch.errors.isEmpty else {
            for e in batch.errors { FileHandle.standardError.write(Data("shoebox review: \(e)\n".utf8)) }
            FileHandle.standardError.write(Data("shoebox review: nothing was applied; fix the lines above and apply the file again.\n".utf8))
            return ExitCode.usage
        }
        let decisions = batch.decisions
        let at = ISO8601DateFormatter().string(from: Date())
        try store.decide(decisions, at: at, by: .apply)
        for entry in batch.entries { try store.addByHand(entry, at: at, by: .apply) }
        for c in batch.cancellations {
            try store.cancel(c.merchant, on: c.day, at: at)
            print("\(c.merchant): marked cancelled on \(c.day.iso).")
        }
        for f in batch.cancellations.isEmpty ? [] : try Rejudging.chargesAfterCancellation(in: store, today: today) {
            print("  charged after cancellation: \(f.source) waits in review (charged-after-cancellation)")
        }
        let added = batch.entries.isEmpty ? "" : "; \(batch.entries.count) expense\(batch.entries.count == 1 ? "" : "s") entered by hand"
        print("review: \(decisions.count) decision\(decisions.count == 1 ? "" : "s") applied from \(StoredPath.shown(file))\(added)")
        return ExitCode.success
    }

    /// The lines of an --apply file, read one after another: the decisions of the good lines, and a message per
    /// problem ("FILE:LINE: why"), in the order they are found.
    struct DecisionFile {
        let file: String
        let records: [String: DocumentRecord]
        let today: CalendarDay
        /// The categories a record's folder allows, by source (`Store.categories(forFolderOf:)`).
        var categories: (String) -> [String] = { _ in [] }
        /// The categories a folder allows, by folder (`Store.categories(forFolder:)`).
        var folderCategories: (String) -> [String] = { _ in [] }
        var decisions: [(record: DocumentRecord, decision: ReviewDecision)] = []
        /// Expenses without a receipt (`"action": "add"`), entered after the decisions.
        var entries: [DocumentRecord] = []
        /// Series marked cancelled (`"action": "cancel-series"`), saved after the decisions.
        var cancellations: [Cancellation] = []
        var errors: [String] = []
        // Each record as the lines before have left it, so an edit is checked against earlier edits (a currency
        // set on line 1 lets line 2 type a total without one); and the line of each record's final decision.
        var working: [String: DocumentRecord] = [:]
        var finalDecision: [String: (line: Int, action: ReviewDecision.Action)] = [:]

        init(file: String, records: [String: DocumentRecord], today: CalendarDay) {
            self.file = file
            self.records = records
            self.today = today
        }

        mutating func bad(_ number: Int, _ why: String) { errors.append("\(StoredPath.shown(file)):\(number): \(why)") }

        /// One non-empty line, `number` counted from 1.
        mutating func read(_ line: String, number: Int) {
            guard let o = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
                return bad(number, "not a JSON object")
            }
            if o["action"] as? String == "add" { return add(o, number: number) }
            if o["action"] as? String == "cancel-series" { return cancelSeries(o, number: number) }
            guard let source = o["source"] as? String else { return bad(number, "no \"source\"") }
            guard let stored = records[source] else { return bad(number, "\(source) is not in the store") }
            let record = working[source] ?? stored
            // Any record can be corrected (an accepted one too: the next export shows the correction), except a failed
            // one, which has nothing read to decide on.
            guard stored.status != .failed else {
                return bad(
                    number, "\(source) failed (\(stored.failure?.code ?? "unknown")): it has no values to decide on; fix the file and run again")
            }
            guard let actionText = o["action"] as? String, let action = ReviewDecision.Action(rawValue: actionText) else {
                return bad(number, "\"action\" must be one of \(ReviewDecision.Action.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if action == .settle {
                // {"source", "action": "settle", "deadline": "payment"}: paid, answered, returned.
                guard let kind = o["deadline"] as? String else {
                    return bad(number, "a \"settle\" names its \"deadline\" (payment, return-window, …)")
                }
                switch Review.validateSettle(kind, record: record) {
                case .success(let k):
                    let d = ReviewDecision.settle(k)
                    decisions.append((stored, d))
                    working[source] = Review.apply([d], to: record)
                case .failure(let e): bad(number, e.message)
                }
                return
            }
            var (lineDecisions, lineOK) = edits(o, record: record, number: number)
            if action == .edit && lineDecisions.isEmpty && lineOK {
                bad(number, "\"edit\" needs \"fields\"")
                lineOK = false
            }
            if action != .edit { lineDecisions.append(ReviewDecision(action: action)) }
            if !noteFinal(action, of: source, number: number) { lineOK = false }
            if lineOK {
                decisions += lineDecisions.map { (stored, $0) }
                working[source] = Review.apply(lineDecisions, to: record)
            }
        }

        /// `{"action": "cancel-series", "merchant": "Netflix", "on": "2026-05-20"}`: a recurring series marked cancelled, as
        /// `shoebox recurring --cancel` marks it (the name may be a unique part of the series'), checked as it is
        /// (`RecurringCharges.cancellation`: the name, and a day from 1900 to today, not before the first charge).
        mutating func cancelSeries(_ o: [String: Any], number: Int) {
            guard let typed = o["merchant"] as? String, let text = o["on"] as? String else {
                return bad(number, "a \"cancel-series\" needs \"merchant\" and \"on\" (YYYY-MM-DD)")
            }
            guard let day = CalendarDay(iso: text), text.count == 10 else {
                return bad(number, "\"on\" must be a day written YYYY-MM-DD, not '\(text)'")
            }
            let series = RecurringCharges.find(records.values.compactMap { Charge($0) }, cancellations: [], today: today)
            switch RecurringCharges.cancellation(of: typed, on: day, among: series, today: today) {
            case .success(let c): cancellations.append(c)
            case .failure(let e): bad(number, e.description)
            }
        }

        /// `{"action": "add", "folder": "trip", "fields": {"date", "merchant", "total", …}}`: an expense without a receipt.
        mutating func add(_ o: [String: Any], number: Int) {
            guard let folder = o["folder"] as? String else { return bad(number, "an \"add\" needs a \"folder\" (\"\" for the top level)") }
            guard let given = o["fields"] as? [String: Any], let fields = given as? [String: String] else {
                return bad(number, "an \"add\" needs \"fields\", an object of strings")
            }
            let folders = Array(Set(records.values.map(\.folder))).sorted()
            switch Review.handEntry(
                folder: folder, fields: fields, id: Review.handEntryID(), today: today, folders: folders,
                categories: folderCategories(folder))
            {
            case .success(let r): entries.append(r)
            case .failure(let e): bad(number, e.message)
            }
        }

        /// The line's "fields" as edits, each checked against the record as the edits before it left it; `ok` is
        /// false when one of them is refused.
        mutating func edits(_ o: [String: Any], record: DocumentRecord, number: Int) -> (decisions: [ReviewDecision], ok: Bool) {
            var lineDecisions: [ReviewDecision] = []
            var lineOK = true
            var edited = record
            // The currency first, so that a total typed without one on the same line is read in it.
            let fields = ((o["fields"] as? [String: Any]) ?? [:]).sorted {
                ($0.key == "currency" ? "" : $0.key) < ($1.key == "currency" ? "" : $1.key)
            }
            for (field, value) in fields {
                guard let text = value as? String else {
                    bad(number, "field \(field) must be a string")
                    lineOK = false
                    continue
                }
                switch Review.edit(field: field, value: text, record: edited, today: today, categories: categories(record.source)) {
                case .success(let d):
                    lineDecisions.append(d)
                    edited = Review.apply([d], to: edited)
                case .failure(let e):
                    bad(number, "\(field): \(e.message)")
                    lineOK = false
                }
            }
            if o["fields"] != nil && !(o["fields"] is [String: Any]) {
                bad(number, "\"fields\" must be an object")
                lineOK = false
            }
            return (lineDecisions, lineOK)
        }

        /// Notes the line of a record's final decision; false when it disagrees with an earlier line's.
        mutating func noteFinal(_ action: ReviewDecision.Action, of source: String, number: Int) -> Bool {
            // Two final decisions that disagree (accept on one line, reject on another) cannot both be meant.
            guard ReviewDecision(action: action).isFinal else { return true }
            if let earlier = finalDecision[source], earlier.action != action {
                bad(
                    number,
                    "conflicting decisions: \(source) is \(ReviewCommand.done(earlier.action)) on line \(earlier.line) and \(ReviewCommand.done(action)) on line \(number); keep one of the two lines"
                )
                return false
            } else if finalDecision[source] == nil {
                finalDecision[source] = (number, action)
            }
            return true
        }
    }
}

/// One interactive review session over the queue.
final class ReviewSession {
    let store: any RecordStore
    let today: CalendarDay
    /// `--source PATH`: this one record, whatever its state (an accepted one reopened to correct it), until a final
    /// decision, a skip or quit.
    let only: String?

    init(store: any RecordStore, today: CalendarDay, only: String? = nil) {
        self.store = store
        self.today = today
        self.only = only
    }

    /// The records this session works through, as they stand now.
    func queue() throws -> [(suggestion: DocumentRecord, record: DocumentRecord)] {
        guard let only else { return try ReviewCommand.queue(store) }
        return try store.effectiveRecords().filter { $0.record.source == only }
    }

    static let keys =
        "[a]ccept  [1-9] pick an alternate  [e]dit FIELD  [r]eject: not a purchase  [d]uplicate  [n]ot a duplicate  [s]kip  [u]ndo  [t] settle a deadline (paid, answered, returned)  [x] an expense without a receipt  [q]uit"

    func say(_ s: String) { FileHandle.standardOutput.write(Data((s + "\n").utf8)) }

    func ask(_ prompt: String) -> String? {
        FileHandle.standardOutput.write(Data(prompt.utf8))
        return readLine(strippingNewline: true)
    }

    func save(_ record: DocumentRecord, _ decision: ReviewDecision) throws {
        try store.decide([(record, decision)], at: ISO8601DateFormatter().string(from: Date()), by: .terminal)
    }

    func run() throws -> ExitCode {
        var skipped: Set<String> = []
        var decided = 0
        while true {
            let queue = try queue()
            // One record reopened: done once it is decided, skipped or left.
            let finished = only != nil && decided > 0
            guard !finished, let (_, record) = queue.first(where: { !skipped.contains($0.record.source) }) else {
                if let only {
                    say("review: \(only) is \(queue.first?.record.status.rawValue ?? "gone") now; every decision is saved.")
                } else {
                    say(
                        queue.isEmpty
                            ? "review: the queue is empty." : "review: \(queue.count) skipped record\(queue.count == 1 ? "" : "s") left in the queue."
                    )
                }
                break
            }
            let position = (queue.firstIndex { $0.record.source == record.source } ?? 0) + 1
            show(record, position: position, of: queue.count, series: try seriesOf(record))
            let choices = alternates(record)
            guard let input = ask("> ")?.trimmingCharacters(in: .whitespaces) else {
                say("review: end of input; every decision so far is saved.")
                break
            }
            let parts = input.split(separator: " ", maxSplits: 2).map(String.init)
            switch parts.first?.lowercased() ?? "" {
            case "a", "accept":
                try save(record, ReviewDecision(action: .accept))
                decided += 1
                say("accepted.")
            case "r", "reject":
                try save(record, ReviewDecision(action: .reject))
                decided += 1
                say("rejected as not a purchase.")
            case "d", "duplicate":
                try save(record, ReviewDecision(action: .duplicate))
                decided += 1
                say("marked as a duplicate.")
            case "n":
                try save(record, ReviewDecision(action: .notDuplicate))
                say("not a duplicate.")
            case "s", "skip":
                skipped.insert(record.source)
                say("skipped.")
            case "x":
                guard try enterByHand() else { return ExitCode.success }
            case "t", "settle":
                guard try settle(record, parts) else { return ExitCode.success }
            case "u", "undo":
                if let (path, d) = try store.undoLastDecision() {
                    skipped.remove(path)
                    say("undone: \(d.action.rawValue)\(d.field.map { " \($0.rawValue)" } ?? "") on \(StoredPath.shown(path)).")
                } else {
                    say("nothing to undo.")
                }
            case "q", "quit":
                say("review: \(decided) decided; every decision is saved.")
                return ExitCode.success
            case "e", "edit":
                guard try edit(record, parts) else { return ExitCode.success }
            default: try pick(input, parts: parts, choices: choices, record: record)
            }
        }
        return ExitCode.success
    }

    /// `x`: an expense without a receipt, one question per field (an empty answer leaves an optional one out); saved
    /// with the person's accept, or refused with the reason. False at the end of input.
    func enterByHand() throws -> Bool {
        let folders = Array(Set(try store.effectiveRecords().map(\.record.folder))).sorted()
        var fields: [String: String] = [:]
        guard let folder = ask("folder (\(folders.map { $0.isEmpty ? "\"\" for the top level" : $0 }.joined(separator: ", ")))> ") else {
            return false
        }
        for (field, question) in [
            ("date", "date"), ("merchant", "merchant"), ("total", "total with its currency"), ("category", "category (optional)"),
            ("note", "note (optional)")
        ] {
            guard let answer = ask("\(question)> ") else { return false }
            if !answer.trimmingCharacters(in: .whitespaces).isEmpty { fields[field] = answer }
        }
        let name = folder.trimmingCharacters(in: .whitespaces) == "\"\"" ? "" : folder.trimmingCharacters(in: .whitespaces)
        switch Review.handEntry(
            folder: name, fields: fields, id: Review.handEntryID(), today: today, folders: folders, categories: store.categories(forFolder: name))
        {
        case .success(let r):
            try store.addByHand(r, at: ISO8601DateFormatter().string(from: Date()), by: .terminal)
            say("entered by hand and accepted: \(r.source).")
        case .failure(let e): say("refused: \(e.message)")
        }
        return true
    }

    /// `e FIELD [VALUE]`: asks for the value until it is valid, then saves the edit; false at the end of input.
    func edit(_ record: DocumentRecord, _ parts: [String]) throws -> Bool {
        guard parts.count >= 2, let named = Field(rawValue: parts[1]), ReviewLimits.editableFields.contains(named) else {
            say("edit which field? e FIELD, with FIELD one of \(ReviewLimits.editableFields.map(\.rawValue).joined(separator: ", ")).")
            return true
        }
        var value = parts.count == 3 ? parts[2] : nil
        while true {
            if value == nil { value = ask("\(parts[1])> ") }
            guard let typed = value else {
                say("review: end of input; every decision so far is saved.")
                return false
            }
            switch Review.edit(
                field: parts[1], value: typed, record: record, today: today, categories: store.categories(forFolderOf: record.source))
            {
            case .success(let d):
                try save(record, d)
                say("\(parts[1]) set to \(d.logged ?? "").")
            case .failure(let e):
                say("refused: \(e.message)")
                value = nil
                continue
            }
            return true
        }
    }

    /// `t [KIND]`: one of the record's open deadlines settled (paid, answered, returned); with more than one open, asks
    /// which. Checked like the browser's and the review file's (`Review.validateSettle`). False at the end of input.
    func settle(_ record: DocumentRecord, _ parts: [String]) throws -> Bool {
        let open = record.deadlines.map(\.kind).filter { !record.settledDeadlines.contains($0) }.map(\.rawValue)
        guard !open.isEmpty else {
            say("\(record.source) has no open deadline to settle.")
            return true
        }
        var kind = parts.count >= 2 ? parts[1] : open.count == 1 ? open[0] : nil
        while true {
            if kind == nil { kind = ask("settle which deadline (\(open.joined(separator: ", ")))> ")?.trimmingCharacters(in: .whitespaces) }
            guard let typed = kind else {
                say("review: end of input; every decision so far is saved.")
                return false
            }
            if typed.isEmpty { return true }
            switch Review.validateSettle(typed, record: record) {
            case .success(let k):
                try save(record, .settle(k))
                say("\(k.rawValue) settled: it leaves `shoebox deadlines` and, on the next export, the calendar.")
                return true
            case .failure(let e):
                say("refused: \(e.message)")
                kind = nil
            }
        }
    }

    /// The recurring series the record is a charge of (or took a charge of after it was cancelled), if any.
    func seriesOf(_ record: DocumentRecord) throws -> Series? { try store.series(of: record, today: today) }

    /// A number picks that alternate; any other key is unknown.
    func pick(_ input: String, parts: [String], choices: [(String, Alternate)], record: DocumentRecord) throws {
        if let k = Int(parts.first ?? ""), k >= 1, k <= choices.count {
            let (field, alt) = choices[k - 1]
            // An alternate is checked like a typed value (a total alone on a record without a currency is refused).
            switch Review.edit(field: field, value: alt.value, record: record, today: today) {
            case .success(let d):
                try save(record, d)
                say("\(field) set to \(d.logged ?? "").")
            case .failure(let e): say("refused: \(e.message)")
            }
        } else {
            say("unknown key '\(input)'. " + ReviewSession.keys)
        }
    }

    /// The alternates shown as numbered choices, field by field.
    func alternates(_ r: DocumentRecord) -> [(String, Alternate)] {
        ReviewLimits.editableFields.flatMap { f in (r.alternates[f] ?? []).map { (f.rawValue, $0) } }
    }

    func show(_ r: DocumentRecord, position: Int, of count: Int, series: Series? = nil) {
        say("")
        say(
            "[\(position)/\(count)] \(r.source)   folder: \(r.folder.isEmpty ? "(top)" : r.folder)\(r.documentKind.map { "   kind: \($0.rawValue)" } ?? "")"
        )
        say(
            "reasons: \(r.reasons.map(\.code).joined(separator: ", "))\(r.duplicateOf.map { " (\(DuplicateRules.naming($0, reasons: r.reasons)))" } ?? "")"
        )
        let values: [(Field, String?)] =
            [
                (.merchant, r.merchant), (.date, r.date?.iso), (.total, r.total?.decimalString),
                (.currency, r.currency?.code), (.referenceNumber, r.referenceNumber), (.paymentMethod, r.paymentMethod), (.category, r.category),
                // One line of the note: the terminal shows each field on one line.
                (.note, r.note.map { $0.split(whereSeparator: \.isNewline).joined(separator: " / ") })
            ] + (r.documentKind == .fine || r.receivedOn != nil ? [(.receivedOn, r.receivedOn?.iso)] : [])
            + (r.documentKind == .contract
                ? [(.endOfTerm, r.comparedValue(Field.endOfTerm.rawValue)), (.noticePeriod, r.comparedValue(Field.noticePeriod.rawValue))] : [])
        for (f, v) in values {
            let conf = r.confidence[f].map { String(format: "%.2f", $0) } ?? "    "
            var line =
                "  " + f.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)
                + (v ?? "—").padding(toLength: max(28, (v ?? "").count + 2), withPad: " ", startingAt: 0) + conf
            if let e = r.evidence[f] {
                line += "  \(e.source.rawValue)"
                if let p = e.page, let l = e.line { line += " p\(p) l\(l)" }
                if let t = e.text { line += " \"\(t)\"" }
                if !e.confirmedBy.isEmpty { line += ", confirmed by \(e.confirmedBy.map(\.rawValue).joined(separator: ", "))" }
            }
            say(line)
        }
        if let e = r.eInvoice {
            let due = r.dueDate.map { ", due \($0.iso)" } ?? ""
            say("e-invoice: \(e.syntax.rawValue) \(e.typeName)\(due)\(r.sellerTaxID.map { ", seller tax ID \($0)" } ?? "")")
        }
        if let paid = r.paidWithText { say(paid) }
        if let agent = r.agentSentence { say(agent) }
        for p in r.eInvoiceProblems { say("  ! \(p)") }
        for p in r.sidecarProblems { say("  ! sidecar: \(p)") }
        if !r.items.isEmpty { for line in ReviewSession.itemLines(r) { say(line) } }
        if !r.deadlines.isEmpty {
            say("deadlines (counted, not legal advice):")
            for d in r.deadlines {
                let settled = r.settledDeadlines.contains(d.kind) ? "   settled" : ""
                say("  \(d.day.iso) \(d.kind.rawValue): \(d.explanation)\(settled)")
            }
        }
        if let s = series {
            say(
                "recurring: \(s.merchant), \(s.cadence.rawValue) \(s.amount.decimalString) \(s.currency.code), \(s.history.count) charges, "
                    + "next expected \(s.nextExpected.iso), \(s.status.rawValue)\(s.cancelledOn.map { " (cancelled on \($0.iso))" } ?? "")")
        }
        let choices = alternates(r)
        if !choices.isEmpty {
            say("alternates:")
            for (k, (f, alt)) in choices.enumerated() {
                say("  \(k + 1)) \(f) \(alt.value)   \(String(format: "%.2f", alt.confidence))  \(alt.source.rawValue): \(alt.reason)")
            }
        }
        say(ReviewSession.keys)
    }
}

extension ReviewSession {
    /// The record's line items, one per line, with what proves them: "e item 3 amount=2.50" corrects one.
    static func itemLines(_ r: DocumentRecord) -> [String] {
        let check = r.itemsCheck.map { $0.proven ? "proven (\($0.rawValue))" : "unproven: nothing on the page confirms their sum" } ?? ""
        var out = ["items: \(r.items.count), \(check)  (correct one: e item N amount=2.50, e item N description=…)"]
        for (k, i) in r.items.enumerated() {
            var line = String(format: "  %3d ", k + 1) + (i.kind == .item ? "" : "[\(i.kind.rawValue)] ") + i.description
            if let q = i.quantity, let p = i.unitPrice { line += "  \(q) × \(p)" }
            line += "  \(i.amount.decimalString)"
            if let c = i.taxCode { line += " \(c)" }
            if let t = i.taxRate { line += " \(t)%" }
            if let p = i.page, let l = i.line { line += "   p\(p) l\(l)" }
            out.append(line)
        }
        return out
    }
}
