internal import Foundation
public import ShoeboxCore
internal import ShoeboxEngines
public import ShoeboxJudgement
internal import ShoeboxStore

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
    /// Folders' settings files that could not be used (`FolderDeclarations.unusable`), and folders whose language the
    /// pipeline does not read: what they said was not used.
    public var unusableSettings: [FolderSettings.Unusable] = []
    /// Charges from a series marked cancelled, after that day, that the run's Re-judge step sent to review.
    public var chargedAfterCancellation: [ChargeAfterCancellation] = []
    /// Files of the scan folder whose path the inbox took first for a document an agent filed (a record's path is its
    /// id): not read, named by the run until the scan is renamed (the run exits 1).
    public var takenByInbox: [String] = []
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

/// The one runner: intake on the calling thread, one worker thread per job (OCR engines from one shared pool),
/// and the calling thread as the only store writer. Its `run` is in Pipeline.swift, with the stages in order.
public struct PipelineRunner {
    public let config: PipelineConfig
    public let today: CalendarDay
    public let jobs: Int
    public let progress: @Sendable (RunEvent) -> Void
    /// Where the text of every page is kept by file content and OCR settings, so that reading a file again
    /// (after a settings change) does no OCR; nil: no cache.
    public let ocrCache: String?
    /// What the run measures of its own work.
    public let metrics: RunMetrics
    /// The OCR engines' maker: tesseract's, or the tests' own.
    var makeEngine: EngineMaker = EnginePool.tesseract
    /// The second reader and its detector, asked for when the first worker starts: the installed ones, or the tests' own.
    var secondReaders: @Sendable () -> SecondReaders = { .installed }
    /// A PostgreSQL store's queue the documents are read through (`shoebox run --store`); nil: read here.
    public var queue: Queue?
    /// Set for a run over the inbox's taken documents (`Inbox`): its result files are not documents, and each folder's
    /// settings are read from the folder this gives (the folder in the scan folder), not under the inbox.
    public var inboxSettings: (@Sendable (String) -> String?)?

    public init(
        config: PipelineConfig, today: CalendarDay, jobs: Int, ocrCache: String? = nil, metrics: RunMetrics = RunMetrics(),
        progress: @escaping @Sendable (RunEvent) -> Void
    ) {
        self.ocrCache = ocrCache
        self.config = config
        self.today = today
        self.jobs = max(1, jobs)
        self.metrics = metrics
        self.progress = progress
    }

    /// The settings a source is read under: the pipeline's and the engines' versions. A source finished
    /// under other settings is read again (from the OCR cache when only later stages changed).
    public var settingsDigest: String { settingsDigest(for: nil) }

    /// The settings a file of `kind` is read under, with the second reader's version when it reads. PDFs and XML files are also read by the e-invoice reader,
    /// versioned on its own (`EInvoiceStage.version`): a PDF or XML file finished by an earlier reader (an XML
    /// failed as unsupported, a Factur-X read from its page only) is read again; an image is not.
    public func settingsDigest(for kind: FileKind?) -> String {
        var text = config.settingsText + " tesseract\(OCREngine.tesseractVersion) reader\(OCRCache.readerVersion)"
        // Records read with the second reader differ from tesseract's alone: installing it (or a new version) reads again.
        if config.secondReader, let second = PPOCRLineReader.installed() { text += " second\(SecondReadingStage.version) \(second)" }
        if kind == .pdf || kind == .xml { text += " e-invoice\(EInvoiceStage.version)" }
        return String(SHA256.hex(of: Array(text.utf8)).prefix(16))
    }

    /// The settings a file of `kind` in `folder` is read under: with the currency the folder's own settings file says,
    /// so that saying another one has its records judged again.
    func settingsDigest(for kind: FileKind?, folder: String, declared: FolderDeclarations) -> String {
        let base = settingsDigest(for: kind)
        guard let extra = declared.settingsText(folder) else { return base }
        return String(SHA256.hex(of: Array("\(base) \(extra)".utf8)).prefix(16))
    }

    /// The settings a record is stored with: the file kind's, and with a sidecar, what the sidecar held (so a sidecar
    /// written, changed or removed has the record judged again; its OCR comes from the cache).
    static func settings(_ base: String, sidecar: String?) -> String {
        guard let sidecar else { return base }
        return String(SHA256.hex(of: Array("\(base) sidecar \(sidecar)".utf8)).prefix(16))
    }

    static func storeError<T>(_ body: () throws(StoreError) -> T) throws(PipelineError) -> T {
        do { return try body() } catch { throw PipelineError(error) }
    }

    /// Opens the run in the store and forgets the records it cannot read any more (their files are read again).
    func beginRun(
        store: any RecordStore, root: String, pipelineName: String, listing: IntakeStage.Listing, declared: FolderDeclarations
    ) throws(PipelineError) -> RouteStage {
        var runID: Int64 = 0
        try PipelineRunner.storeError { () throws(StoreError) in
            runID = try store.beginRun(root: root, pipeline: pipelineName, started: ISO8601DateFormatter().string(from: Date()))
            for path in try store.dropUnreadableRecords() {
                progress(.note("\(StoredPath.shown(path)): its stored record could not be read; the file is read again"))
            }
        }
        var route = RouteStage(
            store: store, rootPath: PathText.absolute(root), runID: runID,
            settings: { kind, folder in self.settingsDigest(for: kind, folder: folder, declared: declared) },
            cpu: metrics.cpu, progress: progress)
        route.found(listing)
        return route
    }

    /// What the store holds before the run: where each document stands, the records a new one may duplicate
    /// (every accepted or review record, across folders and runs), and which record each names as its original.
    struct KnownRecords {
        var held: [String: StoredSource] = [:]
        var earlier: [DuplicateRules.Entry] = []
        /// The record each stored record was judged a duplicate or possible duplicate of (the pipeline's suggestion,
        /// whatever a person decided since): it was judged after that one.
        var originalOf: [String: String] = [:]

        init(_ store: any RecordStore) throws(PipelineError) {
            try PipelineRunner.storeError { () throws(StoreError) in
                let prints = try store.fingerprints()
                let texts = try store.firstPageTexts()
                let records = try store.effectiveRecords()
                earlier = records.map(\.record).filter { $0.status == .accepted || $0.status == .review }
                    .map { DuplicateRules.Entry($0, fingerprint: prints[$0.source], firstPageText: texts[$0.source]) }
                for r in records.map(\.suggestion) { originalOf[r.source] = r.duplicateOf }
                held = try store.held()
            }
        }
    }

    /// What intake leaves to read.
    struct ReadingPlan {
        var work: [ReadyDocument] = []
        /// Same-bytes copies of a document read in this run: stored as duplicates once it ended as a record.
        var pending: [(document: ReadyDocument, original: String)] = []
        /// Files found that need nothing done.
        var skipped = 0
        /// Files whose path a record the inbox took holds (`RunSummary.takenByInbox`).
        var takenByInbox: [String] = []

        /// After a round: copies whose original ended as a record are stored as its duplicates; of the others,
        /// the first of each set of copies is read in the next round, and the rest wait on it.
        mutating func nextRound(ended: [String: RecordStatus], finish: (DocumentOutcome) throws(PipelineError) -> Void) throws(PipelineError) {
            work = []
            var waiting: [(document: ReadyDocument, original: String)] = []
            for (document, original) in pending {
                if let state = ended[original], state == .accepted || state == .review {
                    try finish(PipelineRunner.sameBytes(document.source, as: original))
                } else if let first = work.first(where: { $0.source.sha256 == document.source.sha256 }) {
                    waiting.append((document, first.source.relativePath))
                } else {
                    work.append(document)
                }
            }
            pending = waiting
        }
    }

    static func sameBytes(_ source: SourceFile, as original: String) -> DocumentOutcome {
        var record = DocumentRecord(source: source.relativePath, folder: source.folder, sha256: source.sha256, status: .duplicate)
        record.duplicateOf = original
        record.reasons = [.sameBytes]
        return DocumentOutcome(record: record, size: source.size, kind: source.kind, pages: [])
    }

    /// Intake after the walk: records of files gone from the root fail as file-removed; every file found is
    /// sniffed and hashed, and those that failed or crashed a run fail by name; then `plan` decides what is read.
    func intake(
        _ listing: IntakeStage.Listing, root: String, known: KnownRecords, crashed: [String: CrashNotes.Crash], declared: FolderDeclarations,
        store: any RecordStore, finish: (DocumentOutcome) throws(PipelineError) -> Void
    ) throws(PipelineError) -> ReadingPlan {
        let rootPath = PathText.absolute(root)
        let held = known.held
        // A record whose file is no longer under this scan root (moved, renamed, deleted) fails as file-removed,
        // so that no export waits for it and no duplicate points to it. A folder that could not be listed
        // keeps its records as they are.
        let listed = Set(listing.paths)
        let unlisted = listing.unreadableFolders.map(\.path)
        for (path, h) in held.sorted(by: { $0.key < $1.key })
        where h.state != .failed && h.root == rootPath && !listed.contains(path)
            && !unlisted.contains(where: { $0 == "." || path.hasPrefix($0 + "/") })
        {
            try finish(
                DocumentOutcome(
                    record: .failed(path, folder: SourceFile.folder(of: path), sha256: h.sha256, failure: .fileRemoved),
                    size: 0, kind: nil, pages: []))
        }
        // Every file hashed first, so that a same-bytes duplicate is judged against what its original holds now,
        // not when the duplicate was stored.
        let intake = IntakeStage(maxFileMegabytes: config.maxFileMegabytes)
        var plan = ReadingPlan()
        var ready: [SourceFile] = []
        for path in listing.paths {
            // The inbox took this path first, for a document an agent filed: the scan is named, not read over it.
            if let h = held[path], h.root != rootPath, Inbox.isProcessedRoot(h.root) {
                plan.takenByInbox.append(path)
                continue
            }
            let inspected =
                listing.misnamed[path].map {
                    IntakeStage.Item.failed(.failed(path, folder: SourceFile.folder(of: path), sha256: "", failure: $0), size: 0)
                }
                ?? intake.inspect(root: root, relativePath: path)
            switch inspected {
            case .failed(let record, let size):
                // Failed before for the same reason: nothing new to store (a name the store cannot hold is never
                // hashed: it is known by its failure's code; an unreadable file is tried again on every run).
                if let h = held[path], h.state == .failed, h.sha256 == record.sha256,
                    !record.sha256.isEmpty || (listing.misnamed[path] != nil && h.failureCode == record.failure?.code)
                {
                    plan.skipped += 1
                    continue
                }
                try finish(DocumentOutcome(record: record, size: size, kind: nil, pages: []))
            case .ready(let source):
                if let crash = crashed[path], crash.sha256 == source.sha256 {
                    if let h = held[path], h.sha256 == source.sha256, h.state == .failed {
                        plan.skipped += 1
                        continue
                    }
                    try finish(
                        DocumentOutcome(
                            record: .failed(path, folder: source.folder, sha256: source.sha256, failure: .readerCrashed(signal: crash.signalName)),
                            size: source.size, kind: source.kind, pages: []))
                    continue
                }
                ready.append(source)
            }
        }
        try self.plan(
            ready, held: held, originalOf: known.originalOf, rootPath: rootPath, declared: declared, store: store, into: &plan, finish: finish)
        return plan
    }

    /// Which of the files ready to read are read: not those finished under these settings (a duplicate only
    /// while its original still holds the same bytes, a possible duplicate only while the record it names stays as
    /// it is); a same-bytes copy of a record that stands is stored as its duplicate, and a copy of one read in this
    /// run waits on it. Those to read get their sidecars now. `originalOf`: the record each stored record names
    /// (`KnownRecords.originalOf`); `rootPath`: the scan root's standardized path.
    func plan(
        _ ready: [SourceFile], held: [String: StoredSource], originalOf: [String: String], rootPath: String, declared: FolderDeclarations,
        store: any RecordStore,
        into plan: inout ReadingPlan, finish: (DocumentOutcome) throws(PipelineError) -> Void
    ) throws(PipelineError) {
        let now = Dictionary(ready.map { ($0.relativePath, $0.sha256) }, uniquingKeysWith: { a, _ in a })
        // Each file's sidecar, read once: its digest decides whether a stored record stands, its values travel with a
        // file to read.
        var sidecars = Dictionary(
            ready.map { ($0.relativePath, IntakeStage.sidecar(ofFileAt: $0.path, today: today)) }, uniquingKeysWith: { a, _ in a })
        // Each file's settings now, with what its sidecar holds.
        let settingsNow = Dictionary(
            ready.map {
                (
                    $0.relativePath,
                    PipelineRunner.settings(
                        settingsDigest(for: $0.kind, folder: $0.folder, declared: declared), sidecar: sidecars[$0.relativePath]?.digest)
                )
            },
            uniquingKeysWith: { a, _ in a })
        func finishedHere(_ source: SourceFile) -> StoredSource? {
            let settings = settingsNow[source.relativePath]
            guard let h = held[source.relativePath], h.sha256 == source.sha256, h.settings == settings else { return nil }
            // A file that was gone and is back is read again, whatever its bytes.
            if h.state == .failed, let code = h.failureCode, DocumentFailure.goneCodes.contains(code) { return nil }
            return h
        }
        // Finished documents that are not duplicates stay as they are; a possible duplicate only while the record it
        // names does too. When that record is read again (its bytes or settings changed), or fails or is gone now, a
        // fresh run would judge the twin against its new record or without it: so is the twin, after it.
        var settled = Set(ready.filter { finishedHere($0).map { $0.state != .duplicate } ?? false }.map(\.relativePath))
        let readyPaths = Set(ready.map(\.relativePath))
        func standsAsIs(_ original: String) -> Bool {
            guard let h = held[original], h.state == .accepted || h.state == .review else { return false }
            // Not among the files to read: a record under another scan root stands; one under this root failed or is gone.
            return readyPaths.contains(original) ? settled.contains(original) : h.root != rootPath
        }
        var unsettling = true
        while unsettling {
            let twins = settled.filter { path in originalOf[path].map { !standsAsIs($0) } ?? false }
            settled.subtract(twins)
            unsettling = !twins.isEmpty
        }
        // What the settled files' sidecars say is not needed: only the files read now carry theirs.
        for path in settled { sidecars[path] = nil }
        /// Whether `original` is a settled record (accepted or in review) that holds these bytes now.
        func stands(_ original: String, for source: SourceFile) -> Bool {
            settled.contains(original) && now[original] == source.sha256
                && (held[original].map { $0.state == .accepted || $0.state == .review } ?? false)
        }
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
                plan.skipped += 1
                continue
            }
            // A duplicate stays one only while its original still holds the same bytes; else it is judged again.
            if let h = finishedHere(source), let original = h.duplicateOf, stands(original, for: source) {
                plan.skipped += 1
                continue
            }
            var originals: [String] = []
            try PipelineRunner.storeError { () throws(StoreError) in
                originals = try store.originalPaths(sha256: source.sha256, excluding: source.relativePath)
            }
            if let original = originals.first(where: { stands($0, for: source) }) {
                try finish(PipelineRunner.sameBytes(source, as: original))
            } else if let first = plan.work.first(where: { $0.source.sha256 == source.sha256 }) {
                plan.pending.append(
                    (
                        ReadyDocument(reading: source, today: today, declared: declared, sidecar: sidecars[source.relativePath]),
                        first.source.relativePath
                    ))
            } else {
                plan.work.append(ReadyDocument(reading: source, today: today, declared: declared, sidecar: sidecars[source.relativePath]))
            }
        }
        plan.work = PipelineRunner.originalsFirst(plan.work, originalOf: originalOf)
    }

    /// The documents to read, in the order they are judged for duplicates: as given, except that one stored as a
    /// duplicate or possible duplicate of another comes after it (through the records between them), so that the
    /// record that was first stays the original: judged against a twin's stale record, or before it, it would
    /// become the twin's duplicate. Records that name each other in a ring (as an older version left a pair) are
    /// taken as given, each pair then judged afresh.
    static func originalsFirst(_ work: [ReadyDocument], originalOf: [String: String]) -> [ReadyDocument] {
        let byPath = Dictionary(work.map { ($0.source.relativePath, $0) }, uniquingKeysWith: { a, _ in a })
        // The first record to read that `path` names, directly or through records not read; nil in a ring.
        func original(of path: String) -> ReadyDocument? {
            guard let n = originalOf.originals(of: path).first(where: { byPath[$0] != nil }) else { return nil }
            // A record in a ring orders nothing: the rest of the ring must not come back to `path`.
            return originalOf.originals(of: n).contains(path) ? nil : byPath[n]
        }
        var out: [ReadyDocument] = []
        var placed: Set<String> = []
        func place(_ document: ReadyDocument) {
            guard placed.insert(document.source.relativePath).inserted else { return }
            if let first = original(of: document.source.relativePath) { place(first) }
            out.append(document)
        }
        for document in work { place(document) }
        return out
    }
}

/// Writes `records.jsonl` (every document in every state) and `review/queue.jsonl` in the output folder,
/// each through a temporary file renamed into place, so a reader never sees half a file.
public enum RecordFiles {
    public static func write(records: [DocumentRecord], outputDirectory: String) throws(PipelineError) {
        let all = records.map { $0.jsonLine() + "\n" }.joined()
        let review = records.filter { $0.status == .review }.map { $0.jsonLine() + "\n" }.joined()
        try writeAtomically(all, to: PathText.joined(outputDirectory, "records.jsonl"))
        try writeAtomically(review, to: PathText.joined(outputDirectory, "review/queue.jsonl"))
    }

    static func writeAtomically(_ text: String, to path: String) throws(PipelineError) {
        do {
            try FileManager.default.createDirectory(atPath: PathText.parent(of: path), withIntermediateDirectories: true)
            try FileBytes.write(Data(text.utf8), to: path)
        } catch {
            throw PipelineError(
                code: .store,
                message: "cannot write \(StoredPath.shown(path)): \(SystemReason.of(error)). Check that the output folder is writable and has space.")
        }
    }
}
