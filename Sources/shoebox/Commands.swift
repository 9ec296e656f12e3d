import Foundation
import ShoeboxCore
import ShoeboxExport
import ShoeboxJudgement
import ShoeboxPipeline
import ShoeboxRegression
import ShoeboxStore

enum RunCommand {
    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(
            args, verb: "run", valueOptions: ["--out", "--store", "--jobs", "--pipeline", "--today", "--log-json"],
            flagOptions: ["--wait", "--no-read"])
        if a.flags.contains("--help") {
            print(Help.run)
            return ExitCode.success
        }
        guard a.positionals.count == 1 else {
            throw UsageError(message: "shoebox run: needs exactly one scan folder (got \(a.positionals.count)). See 'shoebox run --help'.")
        }
        let (config, pipelineName) = try CommandLineTool.pipeline(a)
        let today = try CommandLineTool.today(a, verb: "run")
        let jobs = try CommandLineTool.jobs(a, config: config, verb: "run")
        let out = CommandLineTool.outputDirectory(a)
        // Only a lock another process holds is exit 8; a folder that cannot be used is exit 4, with its reason.
        let lock = try CommandLineTool.lock(out, a, verb: "run")
        defer { withExtendedLifetime(lock) {} }
        let store = try CommandLineTool.store(a, out: out, create: true)
        let url = try CommandLineTool.storeURL(a)
        if a.flags.contains("--no-read") && url == nil {
            throw UsageError(message: "shoebox run: --no-read leaves the reading to `shoebox worker`s, which need a PostgreSQL store (--store).")
        }
        let progress = try RunProgress(live: isatty(STDERR_FILENO) != 0, logPath: a.values["--log-json"])
        let metrics = RunMetrics()
        var runner = PipelineRunner(
            config: config, today: today, jobs: jobs, ocrCache: PathText.joined(out, "cache/ocr"), metrics: metrics,
            progress: progress.handle)
        // On a PostgreSQL store the documents are read through its queue, by any `shoebox worker` and by this run.
        runner.queue = url.map { PipelineRunner.Queue(url: $0, reads: !a.flags.contains("--no-read"), name: WorkerCommand.name()) }
        let summary = try runner.run(root: a.positionals[0], store: store, pipelineName: pipelineName, outputDirectory: out)
        progress.finish(summary, metrics: metrics)
        // What an agent filed into the output folder's inbox is taken after the scan folder (only when there is one).
        let inbox = Inbox(outputDirectory: out)
        let inboxPass =
            FileManager.default.fileExists(atPath: inbox.path)
            ? try InboxCommand.read(inbox, runner: runner, store: store, pipelineName: pipelineName, out: out) : nil
        // A charge from a series marked cancelled, after that day: the cancellation did not take.
        let afterCancellation = summary.chargedAfterCancellation
        let records = try store.effectiveRecords().map(\.record)
        try RecordFiles.write(records: records, outputDirectory: out)

        let seconds = progress.elapsed
        print(
            "shoebox run: \(summary.found) files found, \(summary.processed) processed, \(summary.skipped) already done; "
                + "\(summary.pages) pages in \(RunProgress.duration(seconds))"
                + (summary.pages > 0 && seconds > 0 ? String(format: " (%.2f pages/s)", Double(summary.pages) / seconds) : ""))
        if let line = CommandLineTool.secondReaderNotReading(config, opened: summary.pages > 0) { print(line) }
        // A precision the model's cross-validated curve cannot promise is said on every run that read a page.
        let gate = TrustModel.committed.gate(for: config.acceptPrecision)
        if !gate.reached, summary.pages > 0 { print("accept gate: \(gate.sentence)") }
        StatusCommand.printCounts(records)
        if let line = DeadlinesCommand.summaryLine(records, today: today) { print(line) }
        let reasons = Dictionary(grouping: summary.failures, by: { $0.failure?.code ?? "unknown" }).mapValues(\.count)
        if !reasons.isEmpty {
            print("failed by reason: " + reasons.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        }
        for r in summary.reviews { print("  review  \(StoredPath.shown(r.source)): \(r.reasons.map(\.code).joined(separator: ", "))") }
        for f in afterCancellation {
            print(
                "  charged after cancellation  \(StoredPath.shown(f.source)): \(StoredPath.shown(f.merchant)) was marked cancelled on \(f.cancelledOn.iso); it waits in review, "
                    + "and `shoebox recurring` shows the series \(Series.Status.chargedAfterCancellation.rawValue)")
        }
        // Every run names a series charged after its cancellation while such a charge exists (in review or accepted),
        // not only the run that found it: the cancellation did not take.
        if !(try store.cancellations().isEmpty) {
            let named = Set(afterCancellation.map(\.source))
            for s in try store.recurringSeries(today: today) where s.status == .chargedAfterCancellation {
                let charges = s.chargesAfterCancellation.filter { !named.contains($0) }
                guard !charges.isEmpty, let day = s.cancelledOn else { continue }
                print(
                    "  charged after cancellation  \(StoredPath.shown(s.merchant)): marked cancelled on \(day.iso), charged since by "
                        + "\(charges.map { StoredPath.shown($0) }.joined(separator: ", ")) (`shoebox recurring` shows the series)")
            }
        }
        for r in summary.failures { print("  failed  \(StoredPath.shown(r.source)): \(r.failure?.description ?? "unknown")") }
        for path in summary.takenByInbox {
            print(
                "  path taken by the inbox  \(StoredPath.shown(path)): an agent filed a document under this path first (\(StoredPath.shown(inbox.processed))/"
                    + "\(StoredPath.shown(path))); this scan was not read. Rename it and run again.")
        }
        for (folder, reason) in summary.unreadableFolders {
            print(
                "  unreadable folder  \(StoredPath.shown(folder)): \(reason.lowercased()); the files in it were not found. "
                    + "Give the user running Shoebox read and search access (for example `chmod a+rx`) and run again.")
        }
        for u in summary.unusableSettings {
            print("  unusable settings  \(StoredPath.shown(u.reason)); its currency was not used. Fix the file (export refuses it until then).")
        }
        if let inboxPass { print(inboxPass.lines.joined(separator: "\n")) }
        print("records: \(StoredPath.shown(out))/records.jsonl   review queue: \(StoredPath.shown(out))/review/queue.jsonl")
        if let problem = progress.logProblem { throw PipelineError(code: .store, message: problem) }
        let failed = !summary.failures.isEmpty || !summary.unreadableFolders.isEmpty || !summary.takenByInbox.isEmpty || inboxPass?.failed == true
        return failed ? ExitCode.finishedWithFailures : ExitCode.success
    }
}

enum ExtractCommand {
    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(
            args, verb: "extract", valueOptions: ["--pipeline", "--today", "--jobs"], flagOptions: ["--json", "--text", "--explain"])
        if a.flags.contains("--help") {
            print(Help.extract)
            return ExitCode.success
        }
        guard !a.positionals.isEmpty else {
            throw UsageError(message: "shoebox extract: needs at least one file. See 'shoebox extract --help'.")
        }
        let (config, _) = try CommandLineTool.pipeline(a)
        let today = try CommandLineTool.today(a, verb: "extract")
        let jobs = try CommandLineTool.jobs(a, config: config, verb: "extract")
        let intake = IntakeStage(maxFileMegabytes: config.maxFileMegabytes)
        var records: [Int: DocumentRecord] = [:]
        var texts: [Int: String] = [:]
        var explanations: [Int: String] = [:]
        var work: [ReadyDocument] = []
        /// The arguments each file read answers (one file named twice, or by a link and by its own name, is read once).
        var order: [String: [Int]] = [:]
        for (i, file) in a.positionals.enumerated() {
            // A link named on the command line is the user's own choice: it is resolved here, once (inside a
            // scan folder links are never followed). What it names is still opened only as a regular file.
            let resolved = PathText.absolute(
                realpath(file, nil).map { p in
                    defer { free(p) }
                    return String(cString: p)
                } ?? file)
            let root = PathText.parent(of: resolved)
            let declared = FolderDeclarations(folderPath: root, pipeline: config.currency)
            for u in declared.unusable { CommandLineTool.printError("shoebox extract: \(u); its currency is not used") }
            switch intake.inspect(root: root, relativePath: PathText.lastComponent(of: resolved)) {
            case .failed(var record, _):
                record.source = file
                records[i] = record
            case .ready(let source):
                if order[source.path] == nil { work.append(ReadyDocument(reading: source, today: today, declared: declared)) }
                order[source.path, default: []].append(i)
            }
        }
        try WorkerPool(config: config, today: today, jobs: jobs).process(work) {
            (document: ReadyDocument, outcome: DocumentOutcome) throws(PipelineError) in
            for index in order[document.source.path] ?? [] {
                var record = outcome.record
                record.source = a.positionals[index]
                records[index] = record
                if a.flags.contains("--explain"), let e = outcome.extraction {
                    explanations[index] = explain(e, pages: outcome.pages, second: outcome.secondReading)
                }
                let first = outcome.pages.map {
                    "--- page \($0.pageNumber) (\($0.source.rawValue), mean confidence \(Int($0.meanConfidence)))\n\($0.text)"
                }
                // The lines the second reader read again, as it read them (merged with tesseract's words by the language rule).
                let second = outcome.secondReading.compactMap { page -> String? in
                    let lines = page.lines.filter { $0.reader == .secondReader }
                    guard !lines.isEmpty else { return nil }
                    return "--- page \(page.pageNumber) (\(TextSource.secondReader.rawValue), \(lines.count) lines read again)\n"
                        + lines.map(\.text).joined(separator: "\n")
                }
                texts[index] = (first + second).joined(separator: "\n")
            }
        }
        var failed = false
        for i in a.positionals.indices {
            guard let r = records[i] else { continue }
            if r.status == .failed { failed = true }
            if a.flags.contains("--json") {
                print(r.jsonLine())
            } else {
                print(describe(r))
            }
            if a.flags.contains("--explain"), let t = explanations[i] { print(t) }
            if a.flags.contains("--text"), let t = texts[i] { print(t) }
        }
        return failed ? ExitCode.finishedWithFailures : ExitCode.success
    }

    /// Every candidate per field, best first, with role, score, evidence line and the notes behind the score.
    /// Every candidate with its score, role, line (and the reader of that line) and notes; then, for the lines
    /// they stand on that the second reader read again, both readings.
    static func explain(_ e: Extraction, pages: [OCRPage], second: [OCRPage]) -> String {
        var scored: [(page: Int, line: Int, second: Bool)] = []
        func rows<V, R>(_ name: String, _ cs: [Candidate<V, R>], _ show: (V) -> String) -> [String] {
            let ranked = cs.filter { $0.score > 0 }.sorted { $0.score > $1.score }.prefix(6)
            guard !ranked.isEmpty else { return ["  \(name): no candidate"] }
            for c in ranked {
                guard let ev = c.evidence else { continue }
                let at = (ev.page, ev.line, ev.source == .secondReader)
                if !scored.contains(where: { $0 == at }) { scored.append(at) }
            }
            return ["  \(name):"]
                + ranked.map { c in
                    let at = c.evidence.map { "p\($0.page) l\($0.line + 1) \($0.source.rawValue) \"\($0.text)\"" } ?? "no line"
                    return String(
                        format: "    %.2f  %@  [%@]  %@  — %@", c.score, show(c.value), c.role.rawValue, at, c.notes.joined(separator: "; "))
                }
        }
        var out = ["candidates:"]
        out += rows("total", e.amounts, { Money.decimalString(minorUnits: $0.minorUnits, digits: 2) })
        out += rows("date", e.dates, { $0.iso })
        out += rows("merchant", e.merchants, { $0 })
        out += rows("currency", e.currencies, { $0 })
        out += rows("reference", e.references, { $0 })
        // Each reader's reading of the scored lines the second reader read again. A line's number is its place in the
        // list of the reader its evidence names: the second reading's page holds the detector's lines in its head, not
        // tesseract's, so the other reader's reading is the line whose box overlaps it most, not the one at that place.
        var both: [String] = []
        for (page, line, fromSecond) in scored.sorted(by: { ($0.page, $0.line) < ($1.page, $1.line) }) {
            guard let first = pages.first(where: { $0.pageNumber == page }), let again = second.first(where: { $0.pageNumber == page }),
                line < (fromSecond ? again : first).lines.count
            else { continue }
            let box = (fromSecond ? again : first).lines[line].box
            let tesseract = fromSecond ? first.line(overlapping: box) : first.lines[line]
            guard let secondLine = fromSecond ? again.lines[line] : again.line(overlapping: box, readBy: .secondReader),
                secondLine.reader == .secondReader
            else { continue }
            both.append(
                "    p\(page) l\(line + 1) \(fromSecond ? "ocr-ppocr" : "ocr")  tesseract \"\(tesseract?.text ?? "(no line there)")\"  ·  second reader \"\(secondLine.text)\""
            )
        }
        if !both.isEmpty { out += ["lines scored, as each reader read them:"] + both }
        return out.joined(separator: "\n")
    }

    static func describe(_ r: DocumentRecord) -> String {
        if let f = r.failure { return "\(r.source): failed — \(f.code): \(f.message)" }
        func conf(_ k: Field) -> String { r.confidence[k].map { String(format: " (%.2f)", $0) } ?? "" }
        var lines = ["\(r.source): \(r.status.rawValue)\(r.reasons.isEmpty ? "" : " — " + r.reasons.map(\.code).joined(separator: ", "))"]
        lines.append("  merchant  \(r.merchant ?? "—")\(conf(.merchant))")
        lines.append("  date      \(r.date?.iso ?? "—")\(conf(.date))")
        lines.append("  total     \(r.total?.decimalString ?? "—") \(r.currency?.code ?? "")\(conf(.total))")
        lines.append("  language  \(r.language ?? "—")   kind \(r.documentKind?.rawValue ?? "—")   pages \(r.pages)")
        if let e = r.eInvoice {
            let net = r.subtotal.map { "net \($0.decimalString), " } ?? ""
            let taxes = r.tax.map { "\($0.rate.map { "\($0) %" } ?? "?") \($0.amount.decimalString)" }.joined(separator: ", ")
            lines.append("  e-invoice \(e.syntax.rawValue) \(e.typeName), number \(e.number ?? "—"), \(net)tax \(taxes.isEmpty ? "—" : taxes)")
            if let due = r.dueDate { lines.append("  due       \(due.iso)") }
        }
        for p in r.eInvoiceProblems { lines.append("  ! \(p)") }
        for p in r.sidecarProblems { lines.append("  ! sidecar: \(p)") }
        if let agent = r.agentSentence { lines.append("  \(agent)") }
        return lines.joined(separator: "\n")
    }
}

enum StatusCommand {
    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(args, verb: "status", valueOptions: ["--out", "--store"], flagOptions: ["--accuracy"])
        if a.flags.contains("--help") {
            print(Help.status)
            return ExitCode.success
        }
        let out = CommandLineTool.outputDirectory(a)
        let store = try CommandLineTool.store(a, out: out)
        let pairs = try store.effectiveRecords()
        let records = pairs.map(\.record)
        printCounts(records)
        print(CommandLineTool.readersText())
        if a.flags.contains("--accuracy") {
            let fields = ["merchant", "date", "total", "currency", "referenceNumber"]
            let agreement = Review.agreement(pairs.map { ($0.suggestion, $0.record) }, fields: fields)
            let confirmed = pairs.filter { $0.record.reviewedBy == "person" && $0.record.status == .accepted }.count
            // The decision log, wherever the decisions were made.
            let log = try store.decisionLog()
            let kept = log.filter { !$0.undone }
            let byDesk = ReviewDecision.Desk.allCases.map { desk in
                "\(kept.filter { $0.desk == desk }.count) in the \(desk.rawValue == "apply" ? "review --apply file" : desk.rawValue)"
            }
            let older = kept.filter { $0.desk == nil }.count
            print(
                "decisions: \(kept.count) in force (\(byDesk.joined(separator: ", "))\(older > 0 ? ", \(older) from before the log kept where" : "")), \(log.count - kept.count) undone"
            )
            print("accuracy in use: \(confirmed) record\(confirmed == 1 ? "" : "s") confirmed by a person; per field, the suggestion kept as it was:")
            for f in fields {
                guard let (same, n) = agreement[f], n > 0 else {
                    print("  \(f.padding(toLength: 16, withPad: " ", startingAt: 0))—")
                    continue
                }
                print(
                    "  \(f.padding(toLength: 16, withPad: " ", startingAt: 0))\(same)/\(n)  \(String(format: "%.1f%%", 100 * Double(same) / Double(n)))"
                )
            }
        }
        for r in records where r.status == .review {
            print("  review  \(StoredPath.shown(r.source)): \(r.reasons.map(\.code).joined(separator: ", "))")
        }
        for r in records where r.status == .duplicate { print("  duplicate  \(r.source) of \(r.duplicateOf ?? "?")") }
        for r in records where r.status == .failed { print("  failed  \(StoredPath.shown(r.source)): \(r.failure?.description ?? "unknown")") }
        return ExitCode.success
    }

    static func printCounts(_ records: [DocumentRecord]) {
        let counts = Dictionary(grouping: records, by: \.status).mapValues(\.count)
        let parts = RecordStatus.allCases.map { "\(counts[$0] ?? 0) \($0.rawValue)" }
        print("store: \(records.count) documents: " + parts.joined(separator: ", "))
        // Phone screens of no purchase wait in review as well, but a person has nothing to correct on them: said apart.
        let noPurchase = records.filter { r in
            r.status == .review && r.reasons.contains { if case .screenNoExpense = $0 { true } else { false } }
        }
        if !noPurchase.isEmpty {
            let kinds = Dictionary(
                grouping: noPurchase.flatMap(\.reasons).filter { if case .screenNoExpense = $0 { true } else { false } }, by: \.code
            )
            .map { "\($0.value.count) \($0.key)" }.sorted()
            print(
                "  of the review, \(noPurchase.count) phone screen\(noPurchase.count == 1 ? " shows" : "s show") no purchase (\(kinds.joined(separator: ", "))): "
                    + "kept, never exported; review makes one an expense if it was")
        }
    }
}

enum ExportCommand {
    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(
            args, verb: "export",
            valueOptions: ["--out", "--store", "--folder", "--from", "--to", "--csv-profile", "--pipeline", "--format", "--file"],
            flagOptions: ["--wait"])
        if a.flags.contains("--help") {
            print(Help.export)
            return ExitCode.success
        }
        guard a.positionals.isEmpty else { throw UsageError(message: "shoebox export: takes no arguments. See 'shoebox export --help'.") }
        let out = CommandLineTool.outputDirectory(a)
        try CommandLineTool.requireStore(out, a)
        // The store's lock, as `run` takes it: an export never reads a store a run is writing, and two exports
        // never write the same zip at once. Busy: exit 8, or with --wait, wait for it.
        let lock = try CommandLineTool.lock(out, a, verb: "export")
        defer { withExtendedLifetime(lock) {} }
        // Holding the lock: temporary files in exports/ are an earlier export's that was killed.
        FolderExporter.removeLeftovers(in: PathText.joined(out, "exports"))
        let store = try CommandLineTool.store(a, out: out)
        switch a.values["--format"] ?? "zip" {
        case "zip": break
        case "json": return try exportJSON(store, a, out: out)
        case let other:
            throw UsageError(message: "shoebox export: --format is zip or json, not '\(other)'.")
        }
        let options = try zipOptions(a)
        let records = try exportableRecords(store, folder: options.folder, out: out)
        let originals = try store.originalPaths()
        let folderPaths = scanFolderPaths(records, originals: originals)
        let exporter = FolderExporter(exportDirectory: PathText.joined(out, "exports"), options: options)
        let results = try exporter.export(
            records: records, originalPath: { originals[$0.source] ?? $0.source },
            folderSettings: { folder throws(ExportError) in try folderSettings(in: folderPaths[folder]) })
        for r in results {
            let left = r.leftOut.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            let outside = r.outsideRange > 0 ? "; \(r.outsideRange) outside the dates" : ""
            print("\(r.zipPath): \(r.exported) accepted record\(r.exported == 1 ? "" : "s")\(left.isEmpty ? "" : "; left out: " + left)\(outside)")
        }
        let unusable = results.reduce(0) { $0 + ($1.leftOut["accepted:unusable-path"] ?? 0) }
        if unusable > 0 {
            print(
                "\(unusable) accepted record\(unusable == 1 ? " holds a path" : "s hold paths") no store may hold (a control character, or a part that leads "
                    + "outside the scan folder), written by an older Shoebox: left out, and no file was looked for under it. Run the scans again "
                    + "into a new --out folder to export them.")
        }
        return ExitCode.success
    }

    /// `--format json`: the whole store as one JSON file, at --file or exports/store.json.
    static func exportJSON(_ store: Store, _ a: Arguments, out: String) throws -> ExitCode {
        let file = a.values["--file"] ?? PathText.joined(out, "exports/store.json")
        // A bare file name is in the current folder: nothing to create.
        let folder = PathText.parent(of: file)
        if !folder.isEmpty {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw ExportError(
                    message:
                        "cannot create the folder \(folder) for \(StoredPath.shown(file)): \(SystemReason.of(error)). Give --file a path in a folder you can write."
                )
            }
        }
        let data = try StoreJSON.export(store)
        // A temporary name of this process's own beside the file, renamed into place when whole.
        try AtomicFile.write(data, to: file)
        print("\(StoredPath.shown(file)): the whole store as JSON (format \(StoreJSON.version))")
        return ExitCode.success
    }

    /// The zip export's options: --folder, --from/--to, --csv-profile and the pipeline file's category rules and size limit.
    static func zipOptions(_ a: Arguments) throws -> FolderExporter.Options {
        var options = FolderExporter.Options()
        options.folder = a.values["--folder"]
        for (key, keyPath) in [("--from", \FolderExporter.Options.from), ("--to", \FolderExporter.Options.to)] {
            guard let text = a.values[key] else { continue }
            guard let day = CalendarDay(iso: text) else {
                throw UsageError(message: "shoebox export: \(key) needs a date as YYYY-MM-DD, not '\(text)'.")
            }
            options[keyPath: keyPath] = day
        }
        if let f = options.from, let t = options.to, f > t { throw UsageError(message: "shoebox export: --from \(f.iso) is after --to \(t.iso).") }
        if let p = a.values["--csv-profile"] {
            guard let profile = CSVWriter.Profile(rawValue: p) else {
                throw UsageError(message: "shoebox export: --csv-profile is rfc4180 or excel-eu, not '\(p)'.")
            }
            options.csvProfile = profile
        }
        let (config, _) = try CommandLineTool.pipeline(a)
        options.categoryRules = config.categoryRules
        options.maxBytes = config.maxExportBytes
        return options
    }

    /// The store's records, once --folder is known to name one of their folders. A record whose path a store may not
    /// hold (`StoredPath`; only a store an older Shoebox wrote or imported has one) is left out of its folder's zip by
    /// the exporter, and blocks nothing else.
    static func exportableRecords(_ store: any RecordStore, folder: String?, out: String) throws -> [DocumentRecord] {
        let records = try store.effectiveRecords().map(\.record)
        if let f = folder, !records.contains(where: { $0.folder == f }) {
            throw UsageError(
                message:
                    "shoebox export: the store has no folder '\(StoredPath.shown(f))' (folders: \(Set(records.map(\.folder)).sorted().map { StoredPath.shown($0) }.joined(separator: ", ")))."
            )
        }
        return records
    }

    /// Each folder's scan folder on disk, from the first of its records whose original path ends in its source path.
    static func scanFolderPaths(_ records: [DocumentRecord], originals: [String: String]) -> [String: String] {
        var folderPaths: [String: String] = [:]
        for r in records where folderPaths[r.folder] == nil {
            guard let path = originals[r.source], path.hasSuffix(r.source) else { continue }
            folderPaths[r.folder] = PathText.joined(String(path.dropLast(r.source.count)), r.folder)
        }
        return folderPaths
    }

    /// The settings file of the scan folder at `path` (nil: the folder is not known on disk; no file: no categories).
    static func folderSettings(in path: String?) throws(ExportError) -> FolderSettings {
        guard let path else { return FolderSettings() }
        switch FolderSettings.read(folderPath: path) {
        case .success(let settings): return settings
        case .failure(let u): throw ExportError(.folderSettings, message: "\(u). Fix the file, or remove it to export without categories.")
        }
    }
}

enum ImportCommand {
    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(args, verb: "import", valueOptions: ["--out", "--store", "--today"], flagOptions: ["--wait"])
        if a.flags.contains("--help") {
            print(Help.importStore)
            return ExitCode.success
        }
        guard a.positionals.count == 1 else {
            throw UsageError(message: "shoebox import: needs one file written by `shoebox export --format json`. See 'shoebox import --help'.")
        }
        let file = a.positionals[0]
        let data: Data
        switch CommandLineTool.readRegularFile(file, limit: 4 << 30) {
        case .success(let d): data = d
        case .failure(let e): throw UsageError(message: "shoebox import: \(e.message)")
        }
        let out = CommandLineTool.outputDirectory(a)
        let today = try CommandLineTool.today(a, verb: "import")
        // The store's lock, as `run` and `export` take it: an import never writes while a run or an export works.
        let lock = try CommandLineTool.lock(out, a, verb: "import")
        defer { withExtendedLifetime(lock) {} }
        let store = try CommandLineTool.store(a, out: out, create: true)
        let result = try StoreJSON.importInto(store, data: data, file: file, today: today, learn: MerchantMemory.relearned)
        print(
            "\(StoredPath.shown(file)): \(result.added) document\(result.added == 1 ? "" : "s") added, \(result.skipped) already in \(StoredPath.shown(out)), \(result.decisions) review decision\(result.decisions == 1 ? "" : "s") added"
        )
        return ExitCode.success
    }
}

enum RegressCommand {
    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(
            args, verb: "regress",
            valueOptions: [
                "--pipeline", "--today", "--jobs", "--scans", "--report", "--baseline", "--ocr-cache", "--folds", "--fit", "--trust-rows",
                "--items", "--expected", "--folders", "--errata"
            ],
            flagOptions: ["--quiet"])
        if a.flags.contains("--help") {
            print(Help.regress)
            return ExitCode.success
        }
        guard a.positionals.count == 1 else { throw UsageError(message: "shoebox regress: needs one fixture folder. See 'shoebox regress --help'.") }
        let dir = a.positionals[0]
        let (config, _) = try CommandLineTool.pipeline(a)
        let today = try CommandLineTool.today(a, verb: "regress")
        let jobs = try CommandLineTool.jobs(a, config: config, verb: "regress")
        guard let suite = RegressionSuite(directory: dir, scans: a.values["--scans"]) else {
            throw PipelineError(code: .scanFolderMissing, message: "the fixture folder \(StoredPath.shown(dir)) does not exist.")
        }
        if let file = a.values["--expected"] {
            // What each document should read, as regress compares it (merchant as written, date ISO, total plain), one
            // JSON object per line: for scripts that score a store against the same truth (make regress-memory).
            let lines = suite.entries.map { e -> String in
                let o: [String: Any] = [
                    "document": e.relativePath, "format": e.expectation.format, "expected": e.expectation.expected,
                    "merchantCompared": e.expectation.expected["merchant"].map { RegressionReport.normalise("merchant", $0) } ?? NSNull()
                ]
                return String(decoding: (try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
            }
            do { try FileBytes.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: file) } catch {
                throw PipelineError(code: .store, message: "cannot write \(StoredPath.shown(file)): \(SystemReason.of(error)).")
            }
            print("regress: the expected values of \(lines.count) documents written to \(StoredPath.shown(file))")
            return ExitCode.success
        }
        let baseline = try readBaseline(a.values["--baseline"])
        let folds = try a.values["--folds"].map { text throws(UsageError) in
            guard let n = Int(text), (2...20).contains(n) else {
                throw UsageError(message: "shoebox regress: --folds takes a number of folds from 2 to 20, not \"\(text)\".")
            }
            return n
        }

        // Each document the suite describes, read as a run reads it, with what its folder says (currency, language).
        let scansRoot = a.values["--scans"] ?? dir
        let declared = FolderDeclarations(
            root: scansRoot, folders: Set(suite.entries.map { SourceFile.folder(of: $0.relativePath) }), pipeline: config.currency
        ).with(try folderSettings(a.values["--folders"]))
        for u in declared.unusable { CommandLineTool.printError("shoebox regress: \(u); its currency is not used") }
        var cases: [String: (RegressionCase, truth: String?)] = [:]
        var work: [ReadyDocument] = []
        var report = RegressionReport()
        report.errata = try errata(a.values["--errata"], of: suite)
        for entry in suite.entries {
            // With --scans the documents live in a parallel tree (the sample scan folder), not beside the JSON.
            switch IntakeStage().inspect(root: scansRoot, relativePath: entry.relativePath) {
            case .ready(let s):
                cases[s.relativePath] = (entry.expectation, entry.truth)
                work.append(ReadyDocument(reading: s, today: today, declared: declared))
            case .failed(let r, _): report.add(entry.expectation, record: r)
            }
        }
        guard report.documents + work.count > 0 else {
            throw PipelineError(
                code: .scanFolderMissing,
                message:
                    "no expectation files in \(StoredPath.shown(dir)) (fixture <name>.expected.json, SROIE <ID>.json or ZUGFeRD <name>.expected.json)."
            )
        }
        let start = Date()
        var itemLines: [String: String] = [:]
        let wantItems = a.values["--items"] != nil
        try WorkerPool(config: config, today: today, jobs: jobs, ocrCache: a.values["--ocr-cache"]).process(work) {
            (_: ReadyDocument, outcome: DocumentOutcome) throws(PipelineError) in
            guard let (c, truth) = cases[outcome.record.source] else { return }
            if wantItems { itemLines[c.document] = RegressCommand.itemsLine(c.document, outcome) }
            report.add(
                c, record: outcome.record, recognizedText: truth == nil ? nil : outcome.pages.map(\.text).joined(separator: "\n"), truthText: truth)
        }
        report.seconds = Date().timeIntervalSince(start)
        if let folds {
            report.crossValidation = CrossValidation(
                rows: report.trustRows, folds: folds, requiredFields: config.requiredFields, acceptThreshold: config.acceptThreshold,
                acceptPrecision: config.acceptPrecision)
        }
        if let path = a.values["--fit"] {
            try writeModel(
                report, to: path, dir: dir, gate: RulesGate(requiredFields: config.requiredFields, acceptThreshold: config.acceptThreshold))
        }
        if let path = a.values["--trust-rows"] { try write(report.trustRowsJSON(), to: path, what: "") }
        if let path = a.values["--items"] {
            try write(Data(itemLines.sorted { $0.key < $1.key }.map { $0.value + "\n" }.joined().utf8), to: path, what: "")
        }
        return try finish(report, a, dir: dir, baseline: baseline)
    }

    /// `--folders FILE`: per folder, the settings its `.shoebox.json` would hold (`{"sroie": {"currency": "MYR"}}`), for
    /// a folder of documents that is not the user's to write in; each checked as a settings file is.
    static func folderSettings(_ path: String?) throws -> [String: FolderSettings] {
        guard let path else { return [:] }
        // Read as the pipeline file is: only a regular file of a settings file's size (a FIFO would hang the read).
        let data: Data
        switch CommandLineTool.readRegularFile(path, limit: Int64(FolderSettings.maxFileBytes)) {
        case .success(let d): data = d
        case .failure(let e): throw PipelineError(code: .pipelineFile, message: "the folder settings \(StoredPath.shown(path)): \(e.message)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw PipelineError(
                code: .pipelineFile,
                message: "the folder settings \(StoredPath.shown(path)) are not a JSON object of folders, each like a .shoebox.json file.")
        }
        var out: [String: FolderSettings] = [:]
        for (folder, value) in object {
            let bytes = (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])) ?? Data()
            do { out[folder] = try FolderSettings.parse(bytes, file: "\(StoredPath.shown(path)), folder \"\(folder)\"") } catch {
                throw PipelineError(code: .pipelineFile, message: "\(error).")
            }
        }
        return out
    }

    /// `--errata FILE`: labels the page contradicts (`LabelErrata`), each checked against the suite's label.
    static func errata(_ path: String?, of suite: RegressionSuite) throws -> LabelErrata {
        guard let path else { return LabelErrata() }
        let data: Data
        switch CommandLineTool.readRegularFile(path, limit: Int64(LabelErrata.maxFileBytes)) {
        case .success(let d): data = d
        case .failure(let e): throw PipelineError(code: .pipelineFile, message: "the label errata \(StoredPath.shown(path)): \(e.message)")
        }
        let errata: LabelErrata
        do { errata = try LabelErrata.parse(data, file: path) } catch { throw PipelineError(code: .pipelineFile, message: "\(error).") }
        if let stale = errata.stale(against: suite.entries.map(\.expectation)).first {
            throw PipelineError(code: .pipelineFile, message: "the label errata \(StoredPath.shown(path)): \(stale); correct or remove the entry.")
        }
        return errata
    }

    /// `--fit FILE`: the trust model fitted on every document of the run, written as the data file the build embeds.
    static func writeModel(_ report: RegressionReport, to path: String, dir: String, gate: RulesGate) throws {
        let counts = report.documentsByFormat.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        var model = TrustFit.fit(report.trustRows, fittedOn: "\(counts) documents of \(PathText.lastComponent(of: dir))", gate: gate)
        // The cross-validated curve `acceptPrecision` is read against (without --folds the model has none, and says so).
        model.gate = report.crossValidation?.gateCurve
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Encoding numbers and strings cannot fail.
        try write(((try? encoder.encode(model)) ?? Data()) + Data("\n".utf8), to: path, what: "the model ")
        print("shoebox regress: wrote the trust model fitted on \(report.trustRows.count) documents to \(StoredPath.shown(path))")
        if let cv = report.crossValidation { print("shoebox regress: with it, \(model.gate(for: cv.acceptPrecision).sentence)") }
    }

    /// Writes one of regress's output files (`what`: "the report ", "the model ", or "" for a file without a name of
    /// its own); a file that cannot be written is a store error naming it.
    static func write(_ data: Data, to path: String, what: String) throws {
        do { try FileBytes.write(data, to: path) } catch {
            throw PipelineError(
                code: .store,
                message: "cannot write \(what)\(StoredPath.shown(path)): \(SystemReason.of(error)). Check that its folder exists and is writable.")
        }
    }

    /// The --baseline report's bytes (nil: no --baseline).
    static func readBaseline(_ path: String?) throws -> Data? {
        guard let b = path else { return nil }
        guard let data = FileManager.default.contents(atPath: b) else {
            throw PipelineError(code: .scanFolderMissing, message: "the baseline report \(b) does not exist. Write one with --report.")
        }
        return data
    }

    /// Writes the --report, prints the report and compares it with the baseline: the exit code.
    static func finish(_ report: RegressionReport, _ a: Arguments, dir: String, baseline: Data?) throws -> ExitCode {
        if let path = a.values["--report"] {
            try write(report.json(), to: path, what: "the report ")
        }
        print("shoebox regress: \(report.documents) documents in \(StoredPath.shown(dir))")
        if a.flags.contains("--quiet") {
            print(report.text.components(separatedBy: "\n\nwrong")[0])
        } else {
            print(report.text)
        }
        if let baseline {
            guard let worse = report.regressions(against: baseline) else {
                throw PipelineError(code: .scanFolderMissing, message: "the baseline \(a.values["--baseline"]!) is not a regress report.")
            }
            if worse.isEmpty {
                print("no field below the baseline \(a.values["--baseline"]!)")
                return ExitCode.success
            }
            print("below the baseline:")
            for w in worse { print("  \(w)") }
            return ExitCode.regressionFailed
        }
        return report.allRight ? ExitCode.success : ExitCode.regressionFailed
    }
}

extension RegressCommand {
    /// One line of `--items`: the document, what proves its items, the items, its total, the card paid with and the lines of its pages, to
    /// look at by hand.
    static func itemsLine(_ document: String, _ outcome: DocumentOutcome) -> String {
        struct Row: Encodable {
            let document: String
            let itemsCheck: String?
            let total: String?
            let card: CardUsed?
            let items: [LineItem]
            let lines: [String]
        }
        let r = outcome.record
        let row = Row(
            document: document, itemsCheck: r.itemsCheck?.rawValue, total: r.total?.decimalString, card: r.card, items: r.items,
            lines: outcome.pages.flatMap { p in p.lines.map { "\(p.pageNumber)|\($0.box.left)-\($0.box.right)| \($0.text)" } })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(row)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
