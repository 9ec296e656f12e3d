internal import Foundation
public import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxStore
internal import Synchronization

/// A worker on a PostgreSQL store's queue (`shoebox worker`, and `shoebox run --store` while it waits): claims up to
/// `jobs` documents at a time that its settings can read, reads them with the same steps as a run (their bytes from the
/// store, `FileReader.stored`), and hands each outcome back with its completion. A thread of its own renews the claims'
/// leases while they are read, on a connection of its own. A completion the queue refuses (the lease ran out and
/// another worker took the document) changes nothing, and the worker says so.
public struct StoreWorker: Sendable {
    public let url: String
    public let config: PipelineConfig
    public let jobs: Int
    public let ocrCache: String?
    public let metrics: RunMetrics
    /// The worker's name in the queue: unique to the process (host and pid).
    public let name: String
    /// How long a claim holds without a heartbeat (the queue's lease), and how often an idle worker looks again when no
    /// notification woke it (a document whose lease ran out is claimable without one).
    public var leaseSeconds: Double = 60
    public var idleSeconds: Double = 2
    public var maxAttempts = 3
    /// Lines for the person running it (late completions, what it read).
    public var say: @Sendable (String) -> Void = { _ in }

    public init(url: String, config: PipelineConfig, jobs: Int, ocrCache: String?, metrics: RunMetrics = RunMetrics(), name: String) {
        self.url = url
        self.config = config
        self.jobs = max(1, jobs)
        self.ocrCache = ocrCache
        self.metrics = metrics
        self.name = name
    }

    /// The settings this worker reads under, one per file kind (a run queues each document with its kind's).
    var settings: [String] {
        let runner = PipelineRunner(config: config, today: CalendarDay(year: 2000, month: 1, day: 1)!, jobs: 1, progress: { _ in })
        return Array(Set(FileKind.allCases.map { runner.settingsDigest(for: $0) })).sorted()
    }

    /// Reads until `stop` says so, or, with `untilEmpty`, until nothing is queued or being read and no run is taking
    /// documents in; returns how many documents it read.
    public func run(untilEmpty: Bool, stop: @escaping @Sendable () -> Bool = { false }) throws(PipelineError) -> Int {
        let queue = try PipelineRunner.storeError { () throws(StoreError) in
            // The back-off before a dead worker's document is taken again: a twelfth of the lease, at most 5 s.
            try WorkQueue(url: url, worker: name, leaseSeconds: leaseSeconds, backoffSeconds: min(5, leaseSeconds / 12), maxAttempts: maxAttempts)
        }
        let store = try PipelineRunner.storeError { () throws(StoreError) in try Store(postgresURL: url) }
        let mine = settings
        try PipelineRunner.storeError { () throws(StoreError) in
            try queue.listen("shoebox_work")
            try queue.releaseClaims(of: StoreWorker.goneHere)
        }
        let heartbeat = Heartbeat(url: url, worker: name, leaseSeconds: leaseSeconds)
        defer { heartbeat.stop() }
        var read = 0
        while !stop() {
            var claims: [WorkQueue.Claim] = []
            while claims.count < jobs, let c = try PipelineRunner.storeError({ () throws(StoreError) in try queue.claim(settings: mine) }) {
                claims.append(c)
            }
            if claims.isEmpty {
                if untilEmpty {
                    // Empty, and no run taking documents in (it holds the writers' lock until it has stored them all).
                    let (open, writing) = try PipelineRunner.storeError { () throws(StoreError) in (try queue.counts(), try queue.writerActive()) }
                    if (open["queued"] ?? 0) + (open["running"] ?? 0) == 0, !writing { break }
                }
                queue.wait(seconds: idleSeconds)
                continue
            }
            read += try readClaimed(claims, queue: queue, store: store, heartbeat: heartbeat)
        }
        return read
    }

    /// Whether the worker named `worker` ("host:pid", a run's "host:pid/run") was a process of this machine that no
    /// longer runs.
    static func goneHere(_ worker: String) -> Bool {
        let name = worker.split(separator: "/").first.map(String.init) ?? worker
        guard let colon = name.lastIndex(of: ":"), name[..<colon] == ProcessInfo.processInfo.hostName,
            let pid = Int32(name[name.index(after: colon)...]), pid > 0, pid != getpid()
        else { return false }
        return kill(pid, 0) == -1 && errno == ESRCH
    }

    /// Reads the claimed documents (the lease renewed meanwhile) and completes each with its outcome.
    func readClaimed(_ claims: [WorkQueue.Claim], queue: WorkQueue, store: Store, heartbeat: Heartbeat) throws(PipelineError) -> Int {
        var jobs: [(WorkQueue.Claim, WorkJob)] = []
        for c in claims {
            guard let text = c.job, let job = WorkJob(json: text) else {
                // Not a document a run queued as this build writes them: failed by name, not read.
                _ = try PipelineRunner.storeError { () throws(StoreError) in try queue.fail(c, code: "unreadable-work") }
                continue
            }
            jobs.append((c, job))
        }
        guard !jobs.isEmpty else { return 0 }
        var bytes: [String: [UInt8]] = [:]
        for (_, job) in jobs where bytes[job.sha256] == nil {
            bytes[job.sha256] = try PipelineRunner.storeError { () throws(StoreError) in try queue.bytes(sha256: job.sha256) }
        }
        let fetched = bytes
        let memory = config.merchantMemory ? try PipelineRunner.storeError { () throws(StoreError) in try store.memory() } : MerchantMemory()
        heartbeat.track(jobs.map(\.0))
        defer { heartbeat.track([]) }
        var read = 0
        // One pool per day the documents were queued on (a run's `today`): almost always one.
        for day in Set(jobs.map(\.1.today)).sorted() {
            let batch = jobs.filter { $0.1.today == day }
            var pool = WorkerPool(config: config, today: day, jobs: batch.count, ocrCache: ocrCache, metrics: metrics)
            pool.memory = memory
            pool.files = .stored { fetched[$0] }
            var position = 0
            try pool.process(batch.map(\.1.document)) { (document, outcome) throws(PipelineError) in
                let claim = batch[position].0
                position += 1
                let done = try PipelineRunner.storeError { () throws(StoreError) in
                    try queue.complete(claim, outcome: WorkCodec.encode(StoredOutcome(outcome)))
                }
                if done {
                    read += 1
                } else {
                    say(
                        "worker \(name): \(document.source.relativePath) was finished by another worker after this one's lease ran out; its reading is let go. If this worker was not stopped or cut off meanwhile, give it a longer --lease than \(Int(leaseSeconds)) s"
                    )
                }
            }
        }
        return read
    }
}

/// Renews the leases of a worker's claims while it reads them, every third of the lease, on a thread and a connection
/// of its own that live as long as the worker (one connection more per worker, not one per batch).
final class Heartbeat: Sendable {
    private struct State {
        var claims: [WorkQueue.Claim] = []
        var stopped = false
    }
    private let state = Mutex(State())

    init(url: String, worker: String, leaseSeconds: Double) {
        let interval = max(0.2, leaseSeconds / 3)
        let t = Thread {
            guard let queue = try? WorkQueue(url: url, worker: worker, leaseSeconds: leaseSeconds) else { return }
            var next = Date().addingTimeInterval(interval)
            while true {
                Thread.sleep(forTimeInterval: 0.1)
                let (claims, stopped) = self.state.withLock { ($0.claims, $0.stopped) }
                if stopped { return }
                guard Date() >= next else { continue }
                for c in claims { _ = try? queue.heartbeat(c) }
                next = Date().addingTimeInterval(interval)
            }
        }
        t.start()
    }

    /// The claims to keep renewing from now on (none between batches).
    func track(_ claims: [WorkQueue.Claim]) { state.withLock { $0.claims = claims } }

    func stop() { state.withLock { $0.stopped = true } }
}
