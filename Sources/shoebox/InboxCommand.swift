import Foundation
import ShoeboxCore
import ShoeboxExport
import ShoeboxJudgement
import ShoeboxPipeline
import ShoeboxReading
import ShoeboxStore

/// `shoebox inbox [--out DIR] [--watch]`: takes the pairs an agent dropped into `OUT/inbox/<folder>/`, reads them like
/// any scan, and writes a result beside each (docs/agents.md). `shoebox run` does the same after its scan folder.
enum InboxCommand {
    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(
            args, verb: "inbox", valueOptions: ["--out", "--store", "--jobs", "--pipeline", "--today", "--every"], flagOptions: ["--watch"])
        if a.flags.contains("--help") {
            print(Help.inbox)
            return ExitCode.success
        }
        guard a.positionals.isEmpty else {
            throw UsageError(message: "shoebox inbox takes no file or folder: it reads OUT/inbox (see 'shoebox inbox --help').")
        }
        let (config, pipelineName) = try CommandLineTool.pipeline(a)
        let jobs = try CommandLineTool.jobs(a, config: config, verb: "inbox")
        let out = CommandLineTool.outputDirectory(a)
        let every =
            try a.values["--every"].map { text throws -> Double in
                guard let s = Double(text), (1...3600).contains(s) else {
                    throw UsageError(message: "shoebox inbox: --every takes seconds from 1 to 3600 (got '\(text)').")
                }
                return s
            } ?? 5
        let lock = try CommandLineTool.lock(out, a, verb: "inbox")
        defer { withExtendedLifetime(lock) {} }
        let store = try CommandLineTool.store(a, out: out, create: true)
        let inbox = Inbox(outputDirectory: out)
        try inbox.create()
        print("inbox: \(StoredPath.shown(inbox.path)) (drop NAME and NAME.json into inbox/<folder>/)")
        var failed = false
        repeat {
            let today = try CommandLineTool.today(a, verb: "inbox")
            let runner = PipelineRunner(
                config: config, today: today, jobs: jobs, ocrCache: PathText.joined(out, "cache/ocr"), progress: { _ in })
            let done = try read(inbox, runner: runner, store: store, pipelineName: pipelineName, out: out)
            if !done.quiet || !a.flags.contains("--watch") { print(done.lines.joined(separator: "\n")) }
            failed = failed || done.failed
            if a.flags.contains("--watch") { Thread.sleep(forTimeInterval: every) }
        } while a.flags.contains("--watch")
        return failed ? ExitCode.finishedWithFailures : ExitCode.success
    }

    /// The sidecars that came without a document, taken as expenses without a receipt: each entered as the person enters
    /// one in review (`Review.handEntry`: a merchant, a date and a total, each checked), said to be the agent's, and left
    /// in review for the person to accept (the agent's word alone is not enough). One that cannot be entered is failed
    /// by name in its result. Returns the results written.
    static func expenses(_ inbox: Inbox, store: Store, today: CalendarDay) throws -> [Inbox.Result] {
        var written: [Inbox.Result] = []
        let taken = inbox.takenExpenses()
        guard !taken.isEmpty else { return [] }
        let known = try store.roots().keys.map(SourceFile.folder(of:))
        for rel in taken {
            let folder = SourceFile.folder(of: rel)
            let path = PathText.joined(inbox.processed, rel + ".json")
            guard case .success(let bytes) = InputFile.readAll(path, limit: 1 << 20, tooLarge: { .fileTooLarge(bytes: $0, limitMegabytes: 1) }),
                let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
            else { continue }
            let sidecar = Sidecar.parse(bytes, today: today)
            var fields: [String: String] = [:]
            for key in ["merchant", "date", "total", "currency", "referenceNumber", "category", "note"] {
                if let v = object[key] as? String { fields[key] = v }
            }
            let id =
                ExportNaming.sanitize(PathText.lastComponent(of: String(rel.dropLast(Inbox.expenseSuffix.count))), maxLength: 60)
                + "-" + String(SHA256.hex(of: bytes).prefix(8))
            let folders = Array(Set(known + [folder]))
            var result = Inbox.Result(
                dropped: rel, record: nil, status: "failed", agent: sidecar.agent, at: ISO8601DateFormatter().string(from: Date()))
            switch Review.handEntry(
                folder: folder, fields: fields, id: id, today: today, folders: folders, categories: store.categories(forFolder: folder), by: "agent")
            {
            case .failure(let e):
                result.failure = Inbox.Result.FailureText(
                    code: "inbox-expense-invalid",
                    message: "the sidecar came without a document, and as an expense without a receipt it cannot be entered: \(e.message)")
            case .success(var r):
                r.agentEntry = AgentEntry(
                    name: sidecar.agent ?? "", confirmedByPerson: sidecar.confirmedByPerson, sidecar: String(decoding: bytes, as: UTF8.self))
                // Written before its result: a pass killed between the two finds the record there and says it.
                if try store.records(path: r.source).isEmpty { try store.writeByHand(r, decision: nil) }
                result.record = r.source
                result.status = "review"
                result.reasons = r.reasons.map(\.code)
            }
            try inbox.writeResult(result, for: rel)
            written.append(result)
        }
        return written
    }

    /// What one pass over the inbox did, as lines to print.
    struct Pass {
        var lines: [String] = []
        var failed = false
        /// Nothing was taken, refused or written: a watch prints nothing.
        var quiet = true
    }

    /// One pass: the waiting pairs taken (or refused), the taken documents read as a run over `inbox/processed/`, and
    /// a result written beside each.
    static func read(_ inbox: Inbox, runner: PipelineRunner, store: Store, pipelineName: String, out: String) throws -> Pass {
        var runner = runner
        // Each folder's scan folder (the first the store knows it from): its settings are the inbox's documents' too.
        let roots = try store.roots()
        var scanRoots: [String: String] = [:]
        for (path, root) in roots.sorted(by: { $0.key < $1.key }) where root != inbox.processed && !root.isEmpty {
            let folder = SourceFile.folder(of: path)
            if scanRoots[folder] == nil { scanRoots[folder] = root }
        }
        // A taken document never takes a path a record has, or a file in its folder of the scan folder has now.
        let taken = try inbox.take(
            occupied: { rel in
                var info = stat()
                return roots[rel] != nil || scanRoots[SourceFile.folder(of: rel)].map { lstat(PathText.joined($0, rel), &info) == 0 } == true
            }, today: runner.today)
        var pass = Pass()
        // The documents taken now, and those a killed pass took but did not finish.
        let pending = inbox.takenDocuments()
        if !pending.isEmpty {
            let settingsRoots = scanRoots
            runner.inboxSettings = { folder in settingsRoots[folder].map { PathText.joined($0, folder) } }
            let summary = try runner.run(root: inbox.processed, store: store, pipelineName: pipelineName, outputDirectory: out)
            pass.failed = !summary.failures.isEmpty
            try RecordFiles.write(records: try store.effectiveRecords().map(\.record), outputDirectory: out)
        }
        let expenses = try expenses(inbox, store: store, today: runner.today)
        let current = try store.effectiveRecords().map(\.record)
        if !expenses.isEmpty { try RecordFiles.write(records: current, outputDirectory: out) }
        let records = Dictionary(current.map { ($0.source, $0) }, uniquingKeysWith: { a, _ in a })
        let written = expenses + inbox.writeResults(pending, records: records)
        for r in written {
            pass.lines.append("  \(r.status)  \(StoredPath.shown(r.dropped))" + (r.reasons.isEmpty ? "" : ": " + r.reasons.joined(separator: ", ")))
        }
        for d in taken.refused {
            if let r = inbox.result(of: d) { pass.lines.append("  refused  \(StoredPath.shown(d)): \(r.failure?.message ?? "")") }
        }
        for s in taken.stuck { pass.lines.append("  stuck  \(StoredPath.shown(s.drop)): \(s.reason); it stays in the inbox") }
        pass.failed = pass.failed || !taken.refused.isEmpty || !taken.stuck.isEmpty
        pass.quiet = written.isEmpty && taken.refused.isEmpty && taken.stuck.isEmpty
        pass.lines.insert(
            "shoebox inbox: \(taken.taken.count) taken, \(taken.refused.count) refused, \(written.count) results written, "
                + "\(taken.waiting.count) waiting for the other half of their pair", at: 0)
        return pass
    }
}
