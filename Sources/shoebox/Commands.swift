import Foundation
import ShoeboxCore
import ShoeboxExport
import ShoeboxPipeline
import ShoeboxStore

enum RunCommand {
    static func main(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, verb: "run", valueOptions: ["--out", "--jobs", "--pipeline", "--today"], flagOptions: [])
        if a.flags.contains("--help") { print(Help.run); return ExitCode.success }
        guard a.positionals.count == 1 else {
            throw UsageError(message: "shoebox run: needs exactly one scan folder (got \(a.positionals.count)). See 'shoebox run --help'.")
        }
        let (config, pipelineName) = try CommandLineTool.pipeline(a)
        let today = try CommandLineTool.today(a, verb: "run")
        let jobs = try CommandLineTool.jobs(a, config: config, verb: "run")
        let out = CommandLineTool.outputDirectory(a)
        let store: Store
        do { store = try Store(directory: out) } catch { throw PipelineError(code: .store, message: error.message) }
        let runner = PipelineRunner(config: config, today: today, jobs: jobs, progress: CommandLineTool.progress)
        let summary = try runner.run(root: a.positionals[0], store: store, pipelineName: pipelineName)
        let records = try store.records()
        try RecordFiles.write(records: records, outputDirectory: out)

        print("shoebox run: \(summary.found) files found, \(summary.processed) processed, \(summary.skipped) already done")
        StatusCommand.printCounts(records)
        for r in summary.reviews { print("  review  \(r.source): \(r.reasons.joined(separator: ", "))") }
        for r in summary.failures { print("  failed  \(r.source): \(r.failure?.description ?? "unknown")") }
        print("records: \(out)/records.jsonl   review queue: \(out)/review/queue.jsonl")
        return summary.failures.isEmpty ? ExitCode.success : ExitCode.finishedWithFailures
    }
}

enum ExtractCommand {
    static func main(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, verb: "extract", valueOptions: ["--pipeline", "--today", "--jobs"], flagOptions: ["--json", "--text"])
        if a.flags.contains("--help") { print(Help.extract); return ExitCode.success }
        guard !a.positionals.isEmpty else {
            throw UsageError(message: "shoebox extract: needs at least one file. See 'shoebox extract --help'.")
        }
        let (config, _) = try CommandLineTool.pipeline(a)
        let today = try CommandLineTool.today(a, verb: "extract")
        let jobs = try CommandLineTool.jobs(a, config: config, verb: "extract")
        let intake = IntakeStage()
        var records: [Int: DocumentRecord] = [:]
        var texts: [Int: String] = [:]
        var work: [SourceFile] = []
        var order: [String: Int] = [:]
        for (i, file) in a.positionals.enumerated() {
            let url = URL(fileURLWithPath: file)
            let root = url.deletingLastPathComponent().path
            switch intake.inspect(root: root, relativePath: url.lastPathComponent) {
            case .failed(var record, _):
                record.source = file
                records[i] = record
            case .ready(let source):
                order[source.path] = i
                work.append(source)
            }
        }
        try WorkerPool(config: config, today: today, jobs: jobs).process(work) { (source: SourceFile, outcome: DocumentOutcome) throws(PipelineError) in
            guard let index = order[source.path] else { return }
            var record = outcome.record
            record.source = a.positionals[index]
            records[index] = record
            texts[index] = outcome.pages.map { "--- page \($0.pageNumber) (\($0.source.rawValue), mean confidence \(Int($0.meanConfidence)))\n\($0.text)" }.joined(separator: "\n")
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
            if a.flags.contains("--text"), let t = texts[i] { print(t) }
        }
        return failed ? ExitCode.finishedWithFailures : ExitCode.success
    }

    static func describe(_ r: DocumentRecord) -> String {
        if let f = r.failure { return "\(r.source): failed — \(f.code): \(f.message)" }
        func conf(_ k: String) -> String { r.confidence[k].map { String(format: " (%.2f)", $0) } ?? "" }
        var lines = ["\(r.source): \(r.status.rawValue)\(r.reasons.isEmpty ? "" : " — " + r.reasons.joined(separator: ", "))"]
        lines.append("  merchant  \(r.merchant ?? "—")\(conf("merchant"))")
        lines.append("  date      \(r.date?.iso ?? "—")\(conf("date"))")
        lines.append("  total     \(r.total?.decimalString ?? "—") \(r.currency?.code ?? "")\(conf("total"))")
        lines.append("  language  \(r.language ?? "—")   kind \(r.documentKind?.rawValue ?? "—")   pages \(r.pages)")
        return lines.joined(separator: "\n")
    }
}

enum StatusCommand {
    static func main(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, verb: "status", valueOptions: ["--out"], flagOptions: [])
        if a.flags.contains("--help") { print(Help.status); return ExitCode.success }
        let out = CommandLineTool.outputDirectory(a)
        guard FileManager.default.fileExists(atPath: (out as NSString).appendingPathComponent("store.sqlite")) else {
            throw PipelineError(code: .store, message: "there is no store in \(out). Run `shoebox run SCANS --out \(out)` first.")
        }
        let store = try Store(directory: out)
        let records = try store.records()
        printCounts(records)
        for r in records where r.status == .review { print("  review  \(r.source): \(r.reasons.joined(separator: ", "))") }
        for r in records where r.status == .duplicate { print("  duplicate  \(r.source) of \(r.duplicateOf ?? "?")") }
        for r in records where r.status == .failed { print("  failed  \(r.source): \(r.failure?.description ?? "unknown")") }
        return ExitCode.success
    }

    static func printCounts(_ records: [DocumentRecord]) {
        let counts = Dictionary(grouping: records, by: \.status).mapValues(\.count)
        let parts = RecordStatus.allCases.map { "\(counts[$0] ?? 0) \($0.rawValue)" }
        print("store: \(records.count) documents: " + parts.joined(separator: ", "))
    }
}

enum ExportCommand {
    static func main(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, verb: "export", valueOptions: ["--out"], flagOptions: [])
        if a.flags.contains("--help") { print(Help.export); return ExitCode.success }
        guard a.positionals.isEmpty else { throw UsageError(message: "shoebox export: takes no arguments. See 'shoebox export --help'.") }
        let out = CommandLineTool.outputDirectory(a)
        guard FileManager.default.fileExists(atPath: (out as NSString).appendingPathComponent("store.sqlite")) else {
            throw PipelineError(code: .store, message: "there is no store in \(out). Run `shoebox run SCANS --out \(out)` first.")
        }
        let store = try Store(directory: out)
        let records = try store.records()
        let originals = try store.originalPaths()
        let exporter = FolderExporter(scanRoot: nil, exportDirectory: (out as NSString).appendingPathComponent("exports"))
        let results = try exporter.export(records: records) { originals[$0.source] ?? $0.source }
        for r in results {
            let left = r.leftOut.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            print("\(r.zipPath): \(r.exported) accepted record\(r.exported == 1 ? "" : "s")\(left.isEmpty ? "" : "; left out: " + left)")
        }
        return ExitCode.success
    }
}

enum RegressCommand {
    static func main(_ args: [String]) throws -> Int32 {
        let a = try Arguments(args, verb: "regress", valueOptions: ["--pipeline", "--today", "--jobs", "--scans"], flagOptions: [])
        if a.flags.contains("--help") { print(Help.regress); return ExitCode.success }
        guard a.positionals.count == 1 else { throw UsageError(message: "shoebox regress: needs one fixture folder. See 'shoebox regress --help'.") }
        let dir = a.positionals[0]
        let (config, _) = try CommandLineTool.pipeline(a)
        let today = try CommandLineTool.today(a, verb: "regress")
        let jobs = try CommandLineTool.jobs(a, config: config, verb: "regress")
        guard let names = FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] else {
            throw PipelineError(code: .scanFolderMissing, message: "the fixture folder \(dir) does not exist.")
        }
        var expected: [String: ExpectedFields] = [:]
        var work: [SourceFile] = []
        var failedIntake: [(ExpectedFields, DocumentRecord)] = []
        for name in names.sorted() where name.hasSuffix(".expected.json") {
            let jsonPath = (dir as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: jsonPath), let e = ExpectedFields.parse(data) else {
                CommandLineTool.printError("shoebox regress: skipping \(jsonPath): not a fixture expectation (needs a \"file\" key)")
                continue
            }
            let relative = ((name as NSString).deletingLastPathComponent as NSString).appendingPathComponent(e.file)
            // With --scans the documents live in a parallel tree (the sample scan folder), not beside the JSON.
            switch IntakeStage().inspect(root: a.values["--scans"] ?? dir, relativePath: relative) {
            case .ready(let s): expected[s.relativePath] = e; work.append(s)
            case .failed(let r, _): failedIntake.append((e, r))
            }
        }
        var report = RegressionReport()
        for (e, r) in failedIntake { report.add(expected: e, record: r) }
        try WorkerPool(config: config, today: today, jobs: jobs).process(work) { (_: SourceFile, outcome: DocumentOutcome) throws(PipelineError) in
            if let e = expected[outcome.record.source] { report.add(expected: e, record: outcome.record) }
        }
        print("shoebox regress: \(work.count + failedIntake.count) documents in \(dir)")
        print(report.text)
        return report.allRight ? ExitCode.success : ExitCode.regressionFailed
    }
}
