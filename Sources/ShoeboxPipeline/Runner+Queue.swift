internal import Foundation
internal import ShoeboxCore
internal import ShoeboxJudgement
internal import ShoeboxStore
internal import Synchronization

extension PipelineRunner {
    /// A run on a PostgreSQL store's queue: its documents are queued (with their bytes, kept once by SHA-256) for any
    /// `shoebox worker` to read, and the run reads too unless `reads` is false.
    public struct Queue: Sendable {
        public let url: String
        public let reads: Bool
        /// This process's name among the queue's workers (host and pid).
        public let name: String

        public init(url: String, reads: Bool, name: String) {
            self.url = url
            self.reads = reads
            self.name = name
        }
    }

    /// The documents of one round read through the queue: queued, read by the workers (this run's own among them), and
    /// each outcome handed to `finish` in the order of `work` (path order) as it comes, as the worker pool hands its own.
    func readThroughQueue(_ work: [ReadyDocument], queue q: Queue, finish: (DocumentOutcome) throws(PipelineError) -> Void) throws(PipelineError) {
        let queue = try PipelineRunner.storeError { () throws(StoreError) in try WorkQueue(url: q.url, worker: q.name + "/run") }
        let limit = config.maxFileMegabytes
        let documents = work.map { d in
            let settings = settingsDigest(for: d.source.kind)
            return WorkQueue.Document(
                path: d.source.relativePath, sha256: d.source.sha256, job: WorkJob(d, today: today, settings: settings).json, settings: settings,
                bytes: {
                    // The bytes intake hashed, or none: a file changed or gone since is failed as such below.
                    guard case .success(let b) = IntakeStage.read(d.source.path, limitMegabytes: limit), SHA256.hex(of: b) == d.source.sha256 else {
                        return nil
                    }
                    return b
                })
        }
        try PipelineRunner.storeError { () throws(StoreError) in try queue.listen("shoebox_done") }
        _ = try PipelineRunner.storeError { () throws(StoreError) in try queue.enqueue(documents: documents) }
        let reader =
            q.reads ? ReaderThread(StoreWorker(url: q.url, config: config, jobs: jobs, ocrCache: ocrCache, metrics: metrics, name: q.name)) : nil
        defer { reader?.finish() }
        for d in work {
            while true {
                if let error = reader?.error { throw error }
                let p = try PipelineRunner.storeError { () throws(StoreError) in
                    try queue.progress(path: d.source.relativePath, sha256: d.source.sha256)
                }
                if let outcome = PipelineRunner.ended(d, p, attempts: queue.maxAttempts) {
                    try finish(outcome)
                    try PipelineRunner.storeError { () throws(StoreError) in try queue.stored(path: d.source.relativePath, sha256: d.source.sha256) }
                    break
                }
                queue.wait(seconds: 1)
            }
        }
    }

    /// The outcome of a queued document once it has one: read (done), failed by the workers, or never queued (its bytes
    /// could not be had: the file changed or went since intake); nil while it waits or is read.
    static func ended(_ d: ReadyDocument, _ p: WorkQueue.Progress?, attempts: Int) -> DocumentOutcome? {
        let s = d.source
        func failed(_ f: DocumentFailure) -> DocumentOutcome {
            DocumentOutcome(record: .failed(s.relativePath, folder: s.folder, sha256: s.sha256, failure: f), size: s.size, kind: s.kind, pages: [])
        }
        guard let p else { return failed(.changedWhileRead) }
        switch p.state {
        case "done": return p.outcome.flatMap(WorkCodec.outcome) ?? failed(.workersStopped(times: attempts))
        case "failed": return failed(.workersStopped(times: attempts))
        default: return nil
        }
    }
}

/// A `StoreWorker` reading on a thread of its own beside the run, until the run has what it waited for.
final class ReaderThread: Sendable {
    private struct State {
        var stop = false
        var ended = false
        var error: PipelineError?
    }
    private let state = Mutex(State())
    private let ended = DispatchSemaphore(value: 0)

    init(_ worker: StoreWorker) {
        let t = Thread { [self] in
            defer { ended.signal() }
            do throws(PipelineError) { _ = try worker.run(untilEmpty: false, stop: { [self] in state.withLock { $0.stop } }) } catch {
                state.withLock { $0.error = error }
            }
        }
        t.start()
    }

    /// Why the reader stopped before it was asked to, if it did.
    var error: PipelineError? { state.withLock { $0.error } }

    /// Asks the reader to stop after the documents it holds, and waits for it.
    func finish() {
        state.withLock { $0.stop = true }
        ended.wait()
    }
}
