internal import Foundation
public import ShoeboxCore
public import ShoeboxEngines
internal import ShoeboxJudgement
internal import Synchronization

// The worker pool: threads that read documents (`WorkerPool`), the work list they take them from, the channel
// that carries outcomes back, the pages an idle worker reads for a busy one (`PageHelp`) and the OCR engines
// they share (`EnginePool`). Every piece of shared state is under a `Synchronization.Mutex`; nothing an outcome
// holds stays here once it is delivered.

/// What a run measured of its own work, handed to the stages that measure it: CPU per phase, pages one
/// worker read for another, and the time workers sat idle. `--log-json` writes it at the end of a run.
public final class RunMetrics: Sendable {
    public let cpu = PhaseCPU()
    private let helped = Atomic<Int>(0)
    private let idleMilliseconds = Atomic<Int>(0)

    public init() {}

    /// Pages of a document read by a worker other than the one that owned it.
    public var pagesHelped: Int { helped.load(ordering: .relaxed) }

    /// Seconds workers spent with nothing to read (waiting for work, or done while another still read), summed
    /// over the workers: the part of the wall time the cores were not reading.
    public var workerIdleSeconds: Double { Double(idleMilliseconds.load(ordering: .relaxed)) / 1000 }

    func pageHelped() { helped.add(1, ordering: .relaxed) }

    /// Runs `body`, counting its wall time as idle.
    func idle<T>(_ body: () -> T) -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { idleMilliseconds.add(Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000), ordering: .relaxed) }
        return body()
    }
}

/// State shared by threads under one `Mutex`, with threads that wait for it to change: a waiter parks on a
/// semaphore of its own, and every `change` wakes all waiters to look again.
final class SharedState<State: Sendable>: Sendable {
    private struct Guarded: Sendable {
        var state: State
        var waiting: [DispatchSemaphore] = []
    }
    private let mutex: Mutex<Guarded>

    init(_ state: State) { mutex = Mutex(Guarded(state: state)) }

    /// Reads the state, or changes what no waiter waits for.
    func update<R: Sendable>(_ body: (inout State) -> R) -> R { mutex.withLock { body(&$0.state) } }

    /// Changes the state and wakes every waiter.
    func change<R: Sendable>(_ body: (inout State) -> R) -> R {
        let (result, waiters) = mutex.withLock { guarded -> (R, [DispatchSemaphore]) in
            let result = body(&guarded.state)
            defer { guarded.waiting = [] }
            return (result, guarded.waiting)
        }
        for waiter in waiters { waiter.signal() }
        return result
    }

    /// Waits while `blocked` holds, then runs `body` under the same lock.
    func wait<R: Sendable>(while blocked: (State) -> Bool, then body: (inout State) -> R) -> R {
        while true {
            let wake = DispatchSemaphore(value: 0)
            let result = mutex.withLock { guarded -> R? in
                guard !blocked(guarded.state) else {
                    guarded.waiting.append(wake)
                    return nil
                }
                return body(&guarded.state)
            }
            if let result { return result }
            wake.wait()
        }
    }
}

/// A FIFO from the worker threads to the aggregator. An item is gone from it once received.
final class Channel<T: Sendable>: Sendable {
    private let items = Mutex<[T]>([])
    private let available = DispatchSemaphore(value: 0)

    func send(_ item: T) {
        items.withLock { $0.append(item) }
        available.signal()
    }

    /// Blocks until an item is there.
    func receive() -> T {
        available.wait()
        return items.withLock { $0.removeFirst() }
    }

    /// Items sent and not yet received.
    var count: Int { items.withLock { $0.count } }
}

/// The work of a run, handed to the workers: positions are path order (results are delivered in it); within
/// each chunk of `chunk` items the biggest files go first, so a run does not end with one core reading a large
/// file alone; and no worker takes an item more than `window` positions past the last one delivered, so the
/// results waiting for an earlier, slower document stay few (memory does not grow with the number of files).
/// An item is dropped from the list when it is taken.
final class WorkList<T: Sendable>: Sendable {
    private struct State: Sendable {
        var items: [T?]
        var taken = 0
        var delivered = 0
        var cancelled = false
    }
    private let state: SharedState<State>
    /// Positions in the order they are handed out.
    private let order: [Int]
    let window: Int

    init(_ items: [T], size: (T) -> Int = { _ in 0 }, chunk: Int = 32, window: Int = 128) {
        self.window = max(window, chunk)
        var order: [Int] = []
        var start = 0
        while start < items.count {
            let end = min(items.count, start + chunk)
            order += (start..<end).sorted { (size(items[$0]), -$0) > (size(items[$1]), -$1) }
            start = end
        }
        self.order = order
        state = SharedState(State(items: items))
    }

    /// The next item and its position, waiting while it is too far ahead of what was delivered.
    func take() -> (position: Int, item: T)? {
        let order = self.order
        let window = self.window
        return state.wait(
            while: { s in !s.cancelled && s.taken < order.count && order[s.taken] >= s.delivered + window },
            then: { s in
                guard !s.cancelled, s.taken < order.count else { return nil }
                let position = order[s.taken]
                s.taken += 1
                defer { s.items[position] = nil }
                return s.items[position].map { (position, $0) }
            })
    }

    /// Everything before `position` has been delivered.
    func delivered(upTo position: Int) { state.change { $0.delivered = position } }

    func cancel() { state.change { $0.cancelled = true } }
}

/// Pages of a long document that a worker with nothing else to do reads for the worker that owns the
/// document. Documents go one to a worker; when the work list runs dry, a worker would sit idle while
/// another reads a 300-page scan alone. Instead it waits here, and the owner hands it every other page
/// (one at a time, so at most one rendered page per idle worker is in flight: memory stays bounded).
final class PageHelp: Sendable {
    /// One page to read and where its result goes.
    final class Task: Sendable {
        let image: PageImage
        let pass: OCRPass
        private let result = SharedState<Result<OCRPage, DocumentFailure>?>(nil)

        /// The offering thread's crash note: a crash while another worker reads this page names its document.
        let crashNote = CrashNotes.current

        init(image: PageImage, pass: OCRPass) {
            self.image = image
            self.pass = pass
        }

        func finish(_ r: Result<OCRPage, DocumentFailure>) { result.change { $0 = r } }

        func wait() -> Result<OCRPage, DocumentFailure> { result.wait(while: { $0 == nil }, then: { $0! }) }
    }

    private struct State: Sendable {
        var tasks: [Task] = []
        /// Workers still reading documents of their own.
        var owners: Int
        /// Workers waiting in `nextTask` for a page.
        var idle = 0
    }
    private let state: SharedState<State>
    private let metrics: RunMetrics

    init(workers: Int, metrics: RunMetrics) {
        state = SharedState(State(owners: workers))
        self.metrics = metrics
    }

    /// Hands a page to an idle worker, if one is waiting and has nothing queued; nil when the owner should
    /// read it itself.
    func offer(_ image: PageImage, pass: OCRPass) -> Task? {
        let task = state.change { s -> Task? in
            guard s.idle > s.tasks.count else { return nil }
            let task = Task(image: image, pass: pass)
            s.tasks.append(task)
            return task
        }
        if task != nil { metrics.pageHelped() }
        return task
    }

    /// Whether a worker is waiting for a page now.
    var hasIdleWorker: Bool { state.update { $0.idle > $0.tasks.count } }

    /// Called by a worker whose work list ran dry: pages to read until every worker is done with its documents.
    func nextTask() -> Task? {
        state.update { $0.idle += 1 }
        return state.wait(
            while: { $0.tasks.isEmpty && $0.owners > 0 },
            then: { s in
                s.idle -= 1
                return s.tasks.isEmpty ? nil : s.tasks.removeFirst()
            })
    }

    /// A worker has read its last document (it then helps, or leaves).
    func ownerDone() { state.change { $0.owners -= 1 } }
}

/// Makes an OCR engine for a language set and a page segmentation mode: tesseract's in a run, others in tests.
typealias EngineMaker = @Sendable (_ languages: [String], _ pageSegmentationMode: Int) throws(OCREngineError) -> any PageRecognizer

/// The OCR engines of a run, shared by its workers. An engine is used by one thread at a time: taken from the
/// pool for one page, and put back for the next page that needs the same languages, whichever worker reads it
/// (a language set loaded by every worker would be held in memory once per worker, and loading one costs CPU).
/// An engine is made only when every engine of its set is busy, so a set rarely read (OSD, a language met
/// once) is loaded once while it is wanted, and one the workers read at the same time as often as they do. Past
/// `maxIdle` waiting engines the one handed back longest ago is closed: a set not read for a while is loaded again
/// when it is next asked for.
final class EnginePool: Sendable {
    /// Engines waiting, by their languages, each with when it was last handed back (a running count).
    private struct Idle {
        var engines: [String: [(engine: any PageRecognizer, returned: Int)]] = [:]
        var returns = 0
        var count: Int { engines.values.reduce(0) { $0 + $1.count } }
    }
    private let idle = Mutex<Idle>(Idle())
    private let pageSegmentationMode: Int
    private let makeEngine: EngineMaker
    private let cpu: PhaseCPU?
    /// The most engines kept waiting (one per worker): past it, the one handed back longest ago is closed. Each set of
    /// languages a pass reads in has its own engines (a German page's, a Malay page's), each holding its models and
    /// buffers: kept all, two workers over folders in five languages held ten (docs/benchmarks.md measures the bound).
    let maxIdle: Int

    static let tesseract: EngineMaker = { languages, mode throws(OCREngineError) in
        try OCREngine(languages: languages, pageSegmentationMode: mode)
    }

    /// Makes the first engine now, so that missing language data is a setup error before any document.
    init(
        config: PipelineConfig, cpu: PhaseCPU? = nil, maxIdle: Int = 2,
        makeEngine: @escaping EngineMaker = EnginePool.tesseract
    ) throws(PipelineError) {
        pageSegmentationMode = config.pageSegmentationMode
        self.makeEngine = makeEngine
        self.cpu = cpu
        self.maxIdle = max(2, maxIdle)
        let first = try make(config.firstPassLanguages)
        idle.withLock { $0.engines[config.firstPassLanguages.joined(separator: "+")] = [(first, 0)] }
    }

    /// Runs `body` with an engine for `languages` that no other thread uses meanwhile.
    func use<T>(_ languages: [String], _ body: (any PageRecognizer) -> T) throws(PipelineError) -> T {
        let key = languages.joined(separator: "+")
        let engine: any PageRecognizer
        if let waiting = idle.withLock({ $0.engines[key]?.popLast()?.engine }) { engine = waiting } else { engine = try make(languages) }
        defer { handBack(engine, key) }
        return body(engine)
    }

    /// Puts `engine` back among the waiting ones; past `maxIdle`, the one handed back longest ago is closed (outside
    /// the lock: closing an engine frees its models).
    private func handBack(_ engine: any PageRecognizer, _ key: String) {
        let closed: (any PageRecognizer)? = idle.withLock { pool -> (any PageRecognizer)? in
            pool.returns += 1
            pool.engines[key, default: []].append((engine, pool.returns))
            guard pool.count > maxIdle else { return nil }
            let oldest = pool.engines.flatMap { k, list in list.indices.map { (k, $0, list[$0].returned) } }.min { $0.2 < $1.2 }!
            let dropped = pool.engines[oldest.0]!.remove(at: oldest.1).engine
            if pool.engines[oldest.0]!.isEmpty { pool.engines[oldest.0] = nil }
            return dropped
        }
        withExtendedLifetime(closed) {} // the closed engine is freed here, after the lock
    }

    /// Engines waiting for a page, for the tests.
    var idleCount: Int { idle.withLock { $0.count } }

    private func make(_ languages: [String]) throws(PipelineError) -> any PageRecognizer {
        do {
            return try cpu.measure("engine-load") { () throws(OCREngineError) in try makeEngine(languages, pageSegmentationMode) }
        } catch {
            throw PipelineError(code: .engine, message: error.message)
        }
    }
}

/// Worker threads sharing one pool of OCR engines, fed from one work list. Results come back to the calling
/// thread, in the order of the work, and it is the only one that calls `handle` (and so the only store writer).
public struct WorkerPool {
    public let config: PipelineConfig
    public let today: CalendarDay
    public let jobs: Int
    public let ocrCache: String?
    public let metrics: RunMetrics
    let makeEngine: EngineMaker
    /// The second reader and its detector each worker reads with (`SecondReaders.installed` unless a test gives its own).
    let secondReaders: @Sendable () -> SecondReaders
    /// What people confirmed on earlier records (`MerchantMemory`), as the run began.
    public var memory = MerchantMemory()
    /// Where the documents' bytes come from: their files, or the store (`shoebox worker`).
    public var files = FileReader.disk

    public init(config: PipelineConfig, today: CalendarDay, jobs: Int, ocrCache: String? = nil, metrics: RunMetrics = RunMetrics()) {
        self.init(config: config, today: today, jobs: jobs, ocrCache: ocrCache, metrics: metrics, makeEngine: EnginePool.tesseract)
    }

    init(
        config: PipelineConfig, today: CalendarDay, jobs: Int, ocrCache: String?, metrics: RunMetrics, makeEngine: @escaping EngineMaker,
        secondReaders: @escaping @Sendable () -> SecondReaders = { .installed }
    ) {
        self.config = config
        self.today = today
        self.jobs = max(1, jobs)
        self.ocrCache = ocrCache
        self.metrics = metrics
        self.makeEngine = makeEngine
        self.secondReaders = secondReaders
    }

    enum WorkerMessage: Sendable {
        case done(Int, ReadyDocument, DocumentOutcome)
        case engineFailed(PipelineError)
        case finished
    }

    public func process(_ work: [ReadyDocument], handle: (ReadyDocument, DocumentOutcome) throws(PipelineError) -> Void) throws(PipelineError) {
        guard !work.isEmpty else { return }
        let list = WorkList(work, size: { $0.source.size })
        let channel = Channel<WorkerMessage>()
        // Every worker starts even for fewer documents: one without a document of its own reads pages for the others.
        let workerCount = jobs
        // With two workers or more, a worker whose list ran dry reads pages of the documents still being read.
        let help = PageHelp(workers: workerCount, metrics: metrics)
        let engines = try EnginePool(config: config, cpu: metrics.cpu, maxIdle: workerCount, makeEngine: makeEngine)
        for _ in 0..<workerCount {
            startWorker(list: list, channel: channel, help: help, engines: engines)
        }
        var running = workerCount
        var engineError: PipelineError?
        var handlerError: PipelineError?
        // Outcomes are handed on in the order of `work` (path order), whichever worker finishes first, so that
        // the store is written the same way every time (which of two suspected duplicates names the other).
        var waiting: [Int: (ReadyDocument, DocumentOutcome)] = [:]
        var next = 0
        while running > 0 {
            switch channel.receive() {
            case .done(let position, let document, let outcome):
                guard handlerError == nil else { continue }
                waiting[position] = (document, outcome)
                while let (d, o) = waiting.removeValue(forKey: next) {
                    next += 1
                    do { try handle(d, o) } catch {
                        handlerError = error
                        list.cancel()
                        break
                    }
                }
                list.delivered(upTo: next)
            case .engineFailed(let error): engineError = error
            case .finished: running -= 1
            }
        }
        if let e = handlerError ?? engineError { throw e }
    }

    /// One worker thread: documents from the list until it is empty, then pages of the others' documents.
    private func startWorker(list: WorkList<ReadyDocument>, channel: Channel<WorkerMessage>, help: PageHelp, engines: EnginePool) {
        let config = self.config
        let today = self.today
        let ocrCache = self.ocrCache
        let metrics = self.metrics
        let memory = self.memory
        let secondReaders = self.secondReaders
        let files = self.files
        let thread = Thread {
            CrashNotes.threadStarted()
            defer {
                CrashNotes.threadEnding()
                channel.send(.finished)
            }
            let processor: DocumentProcessor
            do {
                processor = try DocumentProcessor(
                    config: config, today: today, ocrCache: ocrCache, engines: engines, metrics: metrics, secondReaders: secondReaders(),
                    files: files)
            } catch {
                list.cancel()
                help.ownerDone()
                channel.send(.engineFailed(error as? PipelineError ?? PipelineError(code: .engine, message: "\(error)")))
                return
            }
            processor.ocr.help = help
            processor.memory = memory
            while let (position, document) = metrics.idle({ list.take() }) {
                CrashNotes.reading(document.source)
                let outcome = processor.process(document)
                CrashNotes.reading(nil)
                channel.send(.done(position, document, outcome))
                Malloc.releaseFreed()
            }
            help.ownerDone()
            while let task = metrics.idle({ help.nextTask() }) {
                CrashNotes.note(task.crashNote)
                task.finish(processor.ocr.read(task.image, pass: task.pass))
                CrashNotes.note("")
            }
        }
        thread.stackSize = 16 << 20
        thread.start()
    }
}
