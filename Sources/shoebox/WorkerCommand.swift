import Foundation
import ShoeboxCore
import ShoeboxPipeline

/// `shoebox worker`: reads documents a `shoebox run --store` queued in a PostgreSQL store, on any machine.
enum WorkerCommand {
    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(
            args, verb: "worker", valueOptions: ["--out", "--store", "--jobs", "--pipeline", "--lease", "--attempts"], flagOptions: ["--until-empty"])
        if a.flags.contains("--help") {
            print(Help.worker)
            return ExitCode.success
        }
        guard a.positionals.isEmpty else { throw UsageError(message: "shoebox worker: takes no arguments. See 'shoebox worker --help'.") }
        guard let url = try CommandLineTool.storeURL(a) else {
            throw UsageError(
                message: "shoebox worker: needs a PostgreSQL store to take documents from: --store postgresql://USER@HOST/DATABASE, or SHOEBOX_STORE."
            )
        }
        let (config, _) = try CommandLineTool.pipeline(a)
        let jobs = try CommandLineTool.jobs(a, config: config, verb: "worker")
        let out = CommandLineTool.outputDirectory(a)
        var worker = StoreWorker(
            url: url, config: config, jobs: jobs, ocrCache: PathText.joined(out, "cache/ocr"), name: name())
        if let lease = try a.int("--lease", verb: "worker", range: 1...3600) { worker.leaseSeconds = Double(lease) }
        if let attempts = try a.int("--attempts", verb: "worker", range: 1...100) { worker.maxAttempts = attempts }
        worker.say = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
        let read = try worker.run(untilEmpty: a.flags.contains("--until-empty"))
        print("shoebox worker: \(read) document\(read == 1 ? "" : "s") read")
        return ExitCode.success
    }

    /// This process's name among a queue's workers: its host and pid.
    static func name() -> String { "\(ProcessInfo.processInfo.hostName):\(getpid())" }
}
