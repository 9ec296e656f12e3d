internal import Foundation
public import ShoeboxCore
internal import ShoeboxEngines
public import ShoeboxStore

/// What a run did, for the summary and the exit code.
public struct RunSummary: Sendable {
    public var found = 0
    public var skipped = 0
    public var processed = 0
    /// Pages read by this run (OCR'd or taken from a text layer).
    public var pages = 0
    public var counts: [RecordStatus: Int] = [:]
    public var failures: [DocumentRecord] = []
    public var reviews: [DocumentRecord] = []
    /// Folders under the scan root that could not be listed: their files were not found (the run exits 1).
    public var unreadableFolders: [(path: String, reason: String)] = []
}

/// What a run reports as it goes, on the thread that called `run` (the store writer).
public enum RunEvent: Sendable {
    /// Intake is done: how many files there are, and how many of them need reading.
    case started(files: Int, toRead: Int)
    /// One document stored; `done` counts documents finished by this run so far (of `toRead` + those failed
    /// or known at intake).
    case document(source: String, status: RecordStatus, reasons: [String], pages: Int, done: Int)
    /// Something worth a line of its own ("b/scan.jpg may duplicate a/IMG_1.jpg: the same page image").
    case note(String)
}

/// A lock-protected FIFO shared by the worker threads and the aggregator.
final class Channel<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private let available = DispatchSemaphore(value: 0)
    private var items: [T] = []
    private var head = 0

    func send(_ item: T) {
        lock.lock()
        items.append(item)
        lock.unlock()
        available.signal()
    }

    /// Blocks until an item is there.
    func receive() -> T {
        available.wait()
        lock.lock()
        defer { lock.unlock() }
        let item = items[head]
        head += 1
        return item
    }
}

/// Hands out work items to workers, one at a time, until empty or cancelled.
/// The work of a run, handed to the workers: positions are path order (results are delivered in it); within
/// each chunk of `chunk` items the biggest files go first, so a run does not end with one core reading a large
/// file alone; and no worker takes an item more than `window` positions past the last one delivered, so the
/// results waiting for an earlier, slower document stay few (memory does not grow with the number of files).
final class WorkList<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private let items: [T]
    /// Positions in the order they are handed out.
    private let order: [Int]
    private var taken = 0
    private var delivered = 0
    private var cancelled = false
    let window: Int

    init(_ items: [T], size: (T) -> Int = { _ in 0 }, chunk: Int = 32, window: Int = 128) {
        self.items = items
        self.window = max(window, chunk)
        var order: [Int] = []
        var start = 0
        while start < items.count {
            let end = min(items.count, start + chunk)
            order += (start..<end).sorted { (size(items[$0]), -$0) > (size(items[$1]), -$1) }
            start = end
        }
        self.order = order
    }

    /// The next item and its position, waiting while it is too far ahead of what was delivered.
    func take() -> (position: Int, item: T)? {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled, taken < order.count, order[taken] >= delivered + window { condition.wait() }
        guard !cancelled, taken < order.count else { return nil }
        defer { taken += 1 }
        return (order[taken], items[order[taken]])
    }

    /// Everything before `position` has been delivered.
    func delivered(upTo position: Int) {
        condition.lock()
        delivered = position
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}

/// The one runner: intake on the calling thread, one worker thread per job (OCR engines from one shared pool),
/// and the calling thread as the only store writer (aggregator).
public struct PipelineRunner {
    public let config: PipelineConfig
    public let today: CalendarDay
    public let jobs: Int
    public let progress: @Sendable (RunEvent) -> Void
    /// Where the text of every page is kept by file content and OCR settings, so that reading a file again
    /// (after a settings change) does no OCR; nil: no cache.
    public let ocrCache: String?

    public init(config: PipelineConfig, today: CalendarDay, jobs: Int, ocrCache: String? = nil, progress: @escaping @Sendable (RunEvent) -> Void) {
        self.ocrCache = ocrCache
        self.config = config
        self.today = today
        self.jobs = max(1, jobs)
        self.progress = progress
    }

    /// The settings a source is read under: the pipeline's and the engines' versions. A source finished
    /// under other settings is read again (from the OCR cache when only later stages changed).
    public var settingsDigest: String {
        String(
            SHA256.hex(of: Array((config.settingsText + " tesseract\(OCREngine.tesseractVersion) reader\(OCRCache.readerVersion)").utf8)).prefix(16))
    }

    public func run(root: String, store: Store, pipelineName: String) throws(PipelineError) -> RunSummary {
        let intake = IntakeStage(maxFileMegabytes: config.maxFileMegabytes)
        let settings = settingsDigest
        let outputDirectory = (store.path as NSString).deletingLastPathComponent
        let listing = try intake.walk(root: root, skipping: outputDirectory)
        let rootPath = URL(fileURLWithPath: root).standardizedFileURL.path
        var summary = RunSummary()
        summary.found = listing.paths.count
        summary.unreadableFolders = listing.unreadableFolders
        func storeError(_ body: () throws(StoreError) -> Void) throws(PipelineError) {
            do { try body() } catch { throw PipelineError(code: .store, message: error.message) }
        }
        var runID: Int64 = 0
        // A record the store cannot read any more is forgotten, so its file is read again below.
        try storeError { () throws(StoreError) in
            runID = try store.beginRun(root: root, pipeline: pipelineName, started: ISO8601DateFormatter().string(from: Date()))
            for path in try store.dropUnreadableRecords() { progress(.note("\(path): its stored record could not be read; the file is read again")) }
        }
        // The documents that crashed an earlier run are failed by name below; this run notes its own.
        let crashed = CrashNotes.load(outputDirectory: outputDirectory)
        CrashNotes.install(outputDirectory: outputDirectory)

        // Suspected duplicates are looked for among every record kept so far, across folders and runs.
        let rules = DuplicateRules(windowHours: config.duplicateWindowHours)
        var earlier: [DuplicateRules.Entry] = []
        var held: [String: Store.Held] = [:]
        try storeError { () throws(StoreError) in
            let prints = try store.fingerprints()
            let texts = try store.firstPageTexts()
            earlier = try store.effectiveRecords().map(\.record).filter { $0.status == .accepted || $0.status == .review }
                .map { DuplicateRules.Entry($0, fingerprint: prints[$0.source], firstPageText: texts[$0.source]) }
            held = try store.held()
        }

        /// The state each document ended in, in this run.
        var ended: [String: RecordStatus] = [:]
        func save(_ given: DocumentOutcome) throws(PipelineError) {
            var outcome = given
            if outcome.record.status == .accepted || outcome.record.status == .review {
                let entry = DuplicateRules.Entry(outcome.record, fingerprint: outcome.fingerprint, firstPageText: outcome.pages.first?.text)
                if let (other, why) = PhaseCPU.measure("duplicates", { rules.match(entry, in: earlier) }) {
                    outcome.record.status = .review
                    outcome.record.reviewedBy = nil
                    outcome.record.duplicateOf = other
                    outcome.record.reasons.append(.possibleDuplicate)
                    progress(.note("\(outcome.record.source) may duplicate \(other): \(why)"))
                }
                earlier.removeAll { $0.source == entry.source }
                earlier.append(entry)
            }
            try storeError { () throws(StoreError) in
                try PhaseCPU.measure("store") { () throws(StoreError) in try store.save(outcome, root: rootPath, runID: runID, settings: settings) }
            }
            let r = outcome.record
            ended[r.source] = r.status
            summary.processed += 1
            summary.pages += outcome.pages.count
            summary.counts[r.status, default: 0] += 1
            if r.status == .failed { summary.failures.append(r) }
            if r.status == .review { summary.reviews.append(r) }
            progress(
                .document(source: r.source, status: r.status, reasons: r.reasons.map(\.code), pages: outcome.pages.count, done: summary.processed))
        }
        func sameBytes(_ source: SourceFile, as original: String) -> DocumentOutcome {
            var record = DocumentRecord(source: source.relativePath, folder: source.folder, sha256: source.sha256, status: .duplicate)
            record.duplicateOf = original
            record.reasons = [.sameBytes]
            return DocumentOutcome(record: record, size: source.size, kind: source.kind, pages: [])
        }

        // A record whose file is no longer under this scan root (moved, renamed, deleted) fails as file-removed,
        // so that no export waits for it and no duplicate points to it. A folder that could not be listed
        // keeps its records as they are.
        let listed = Set(listing.paths)
        let unlisted = listing.unreadableFolders.map(\.path)
        for (path, h) in held.sorted(by: { $0.key < $1.key })
        where h.state != .failed && h.root == rootPath && !listed.contains(path)
            && !unlisted.contains(where: { $0 == "." || path.hasPrefix($0 + "/") })
        {
            try save(
                DocumentOutcome(
                    record: .failed(path, folder: SourceFile.folder(of: path), sha256: h.sha256, failure: .fileRemoved),
                    size: 0, kind: nil, pages: []))
        }

        // Intake: every file hashed first, so that a same-bytes duplicate is judged against what its original
        // holds now, not when the duplicate was stored.
        var ready: [SourceFile] = []
        for path in listing.paths {
            switch intake.inspect(root: root, relativePath: path) {
            case .failed(let record, let size):
                if let h = held[path], h.sha256 == record.sha256, !record.sha256.isEmpty, h.state == .failed {
                    summary.skipped += 1
                    continue
                }
                try save(DocumentOutcome(record: record, size: size, kind: nil, pages: []))
            case .ready(let source):
                if let crash = crashed[path], crash.sha256 == source.sha256 {
                    if let h = held[path], h.sha256 == source.sha256, h.state == .failed {
                        summary.skipped += 1
                        continue
                    }
                    try save(
                        DocumentOutcome(
                            record: .failed(
                                path, folder: source.folder, sha256: source.sha256,
                                failure: .readerCrashed(signal: crash.signalName)),
                            size: source.size, kind: source.kind, pages: []))
                    continue
                }
                ready.append(source)
            }
        }
        let now = Dictionary(ready.map { ($0.relativePath, $0.sha256) }, uniquingKeysWith: { a, _ in a })
        func finishedHere(_ source: SourceFile) -> Store.Held? {
            guard let h = held[source.relativePath], h.sha256 == source.sha256, h.settings == settings else { return nil }
            // A file that was gone and is back is read again, whatever its bytes.
            if h.state == .failed, let code = h.failureCode, DocumentFailure.goneCodes.contains(code) { return nil }
            return h
        }
        // Finished documents that are not duplicates stay as they are.
        let settled = Set(ready.filter { finishedHere($0).map { $0.state != .duplicate } ?? false }.map(\.relativePath))
        /// Whether `original` is a settled record (accepted or in review) that holds these bytes now.
        func stands(_ original: String, for source: SourceFile) -> Bool {
            settled.contains(original) && now[original] == source.sha256
                && (held[original].map { $0.state == .accepted || $0.state == .review } ?? false)
        }
        var work: [SourceFile] = []
        /// Same-bytes copies of a document read in this run: stored as duplicates once it ended as a record.
        var pending: [(source: SourceFile, original: String)] = []
        // A record read again (its settings changed) whose bytes are unchanged stays the original of its copies,
        // whatever the path order: it is judged first, so that a copy waits on it and not the other way round
        // (the person's decisions are kept by its path).
        let rereads = ready.filter { source in
            !settled.contains(source.relativePath)
                && (held[source.relativePath].map { $0.sha256 == source.sha256 && ($0.state == .accepted || $0.state == .review) } ?? false)
        }
        let rereadPaths = Set(rereads.map(\.relativePath))
        for source in rereads + ready.filter({ !rereadPaths.contains($0.relativePath) }) {
            if settled.contains(source.relativePath) {
                summary.skipped += 1
                continue
            }
            // A duplicate stays one only while its original still holds the same bytes; else it is judged again.
            if let h = finishedHere(source), let original = h.duplicateOf, stands(original, for: source) {
                summary.skipped += 1
                continue
            }
            var originals: [String] = []
            try storeError { () throws(StoreError) in originals = try store.originalPaths(sha256: source.sha256, excluding: source.relativePath) }
            if let original = originals.first(where: { stands($0, for: source) }) {
                try save(sameBytes(source, as: original))
            } else if let first = work.first(where: { $0.sha256 == source.sha256 }) {
                pending.append((source, first.relativePath))
            } else {
                work.append(source)
            }
        }

        progress(.started(files: summary.found, toRead: summary.processed + work.count + pending.count))
        // Rounds: a copy whose original did not end as a record (it failed, or changed while it was read) is
        // read itself in the next round, the first of each set of copies; the rest wait on it.
        while !work.isEmpty {
            try WorkerPool(config: config, today: today, jobs: jobs, ocrCache: ocrCache).process(work) { (_, outcome) throws(PipelineError) in
                try save(outcome)
            }
            work = []
            var waiting: [(source: SourceFile, original: String)] = []
            for (source, original) in pending {
                if let state = ended[original], state == .accepted || state == .review {
                    try save(sameBytes(source, as: original))
                } else if let first = work.first(where: { $0.sha256 == source.sha256 }) {
                    waiting.append((source, first.relativePath))
                } else {
                    work.append(source)
                }
            }
            pending = waiting
        }
        try storeError { () throws(StoreError) in try store.finishRun(runID, finished: ISO8601DateFormatter().string(from: Date())) }
        return summary
    }
}

/// Worker threads sharing one pool of OCR engines, fed from one work list. Results come back to the calling thread,
/// which is the only one that calls `handle` (and so the only store writer).
public struct WorkerPool {
    public let config: PipelineConfig
    public let today: CalendarDay
    public let jobs: Int
    public let ocrCache: String?

    public init(config: PipelineConfig, today: CalendarDay, jobs: Int, ocrCache: String? = nil) {
        self.config = config
        self.today = today
        self.jobs = max(1, jobs)
        self.ocrCache = ocrCache
    }

    enum WorkerMessage: Sendable {
        case done(Int, SourceFile, DocumentOutcome)
        case engineFailed(PipelineError)
        case finished
    }

    public func process(_ work: [SourceFile], handle: (SourceFile, DocumentOutcome) throws(PipelineError) -> Void) throws(PipelineError) {
        guard !work.isEmpty else { return }
        let list = WorkList(work, size: { $0.size })
        let channel = Channel<WorkerMessage>()
        // Every worker starts even for fewer documents: one without a document of its own reads pages for the others.
        let workerCount = jobs
        let config = self.config
        let today = self.today
        let ocrCache = self.ocrCache
        // With two workers or more, a worker whose list ran dry reads pages of the documents still being read.
        let help = PageHelp(workers: workerCount)
        let engines = try EnginePool(config: config)
        for _ in 0..<workerCount {
            let thread = Thread {
                CrashNotes.threadStarted()
                defer {
                    CrashNotes.threadEnding()
                    channel.send(.finished)
                }
                let processor: DocumentProcessor
                do { processor = try DocumentProcessor(config: config, today: today, ocrCache: ocrCache, engines: engines) } catch {
                    list.cancel()
                    help.ownerDone()
                    channel.send(.engineFailed(error as? PipelineError ?? PipelineError(code: .engine, message: "\(error)")))
                    return
                }
                processor.ocr.help = help
                while let (position, source) = PipelineStats.idle({ list.take() }) {
                    CrashNotes.reading(source)
                    if let name = CrashNotes.testCrashName, source.relativePath.contains(name) { abort() }
                    let outcome = processor.process(source)
                    CrashNotes.reading(nil)
                    channel.send(.done(position, source, outcome))
                    Malloc.releaseFreed()
                }
                help.ownerDone()
                while let task = PipelineStats.idle({ help.nextTask() }) {
                    CrashNotes.note(task.crashNote)
                    task.finish(processor.ocr.read(task.image, pass: task.pass))
                    CrashNotes.note("")
                }
            }
            thread.stackSize = 16 << 20
            thread.start()
        }
        var running = workerCount
        var engineError: PipelineError?
        var handlerError: PipelineError?
        // Outcomes are handed on in the order of `work` (path order), whichever worker finishes first, so that
        // the store is written the same way every time (which of two suspected duplicates names the other).
        var waiting: [Int: (SourceFile, DocumentOutcome)] = [:]
        var next = 0
        while running > 0 {
            switch channel.receive() {
            case .done(let position, let source, let outcome):
                guard handlerError == nil else { continue }
                waiting[position] = (source, outcome)
                while let (s, o) = waiting.removeValue(forKey: next) {
                    next += 1
                    do { try handle(s, o) } catch {
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
}

/// Writes `records.jsonl` (every document in every state) and `review/queue.jsonl` in the output folder,
/// each through a temporary file renamed into place, so a reader never sees half a file.
public enum RecordFiles {
    public static func write(records: [DocumentRecord], outputDirectory: String) throws(PipelineError) {
        let all = records.map { $0.jsonLine() + "\n" }.joined()
        let review = records.filter { $0.status == .review }.map { $0.jsonLine() + "\n" }.joined()
        try writeAtomically(all, to: (outputDirectory as NSString).appendingPathComponent("records.jsonl"))
        try writeAtomically(review, to: (outputDirectory as NSString).appendingPathComponent("review/queue.jsonl"))
    }

    static func writeAtomically(_ text: String, to path: String) throws(PipelineError) {
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw PipelineError(
                code: .store, message: "cannot write \(path): \(SystemReason.of(error)). Check that the output folder is writable and has space.")
        }
    }
}
