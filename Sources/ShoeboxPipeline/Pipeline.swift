internal import Foundation
public import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
public import ShoeboxReading
internal import ShoeboxStore

// The pipeline, in order. Intake, Duplicates, Route and Re-judge run on the thread that called `PipelineRunner.run` (the only
// store writer), as the runner's lists `PipelineRunner.stages` (Intake, Documents, Re-judge) and
// `PipelineRunner.outcomeStages` (Duplicates, Route: what each outcome passes, in path order) declare them; the steps
// between them run for one document at a time on each worker thread, as the list `DocumentProcessor.steps` (below)
// declares them, each in its own file under Steps/ (`FirstReadingStep.swift`). `FlowListTests` holds this
// comment and docs/architecture.md to those lists. On the worker, one `DocumentContext` per document reads the file's
// bytes once (checked against intake's hash) and opens a PDF once, for the E-invoice and First reading steps alike;
// the sidecar is read once, at intake.
//
//   Intake           scan root → [`ReadyDocument`] (a file sniffed and hashed, with its file-name date, sidecar and
//                    the currency and language it or its folder says: `FolderDeclarations`), or a failed
//                    `DocumentRecord` (`IntakeStage`). Files read before under the same settings, and same-bytes
//                    copies of a record that stands, are settled here and not read again.
//   E-invoice        a PDF's attached invoice XML (ZUGFeRD, Factur-X), read exactly (`EInvoiceStage`); a standalone XML
//                    is read by `processXML` instead of the steps.
//   First reading    `SourceFile` → `PageSource` → [`OCRPage`]: pages rendered when a pass asks (`RenderStage`),
//                    read by tesseract (`OCRStage`, engines behind `PageRecognizer`); a faint or turned page read
//                    again binarised or upright, one it could hardly read read whole by the second reader.
//   Language         [`OCRPage`] → `LanguageGuess` (`LanguageStage`); the pages read again in the detected language
//                    where the first reading did not read in it.
//   Parse            [`OCRPage`] + `LanguageGuess` → `Extraction`: every candidate for every field (`ParseStage`).
//   Second reading   the lines that carry a field, or were read unsure, read again by the second reader
//                    (`SecondReadingStage`); their candidates join the first parse.
//   Items read again  when neither parse's line items add up, the block of item lines read by the second reader;
//                    the items that reading gives are taken when the page's own figures prove them.
//   Merge            `Extraction` + `ReadyDocument` → `DocumentRecord`: one value per field, accepted or review
//                    (`MergeStage`).
//   Pages read whole  where a required field is missing or the readers disagree on it, the first and last page
//                    detected and read whole by the second reader; its candidates join for those fields.
//   Further reading  while `RereadTrigger` names fields, a further pass (another segmentation mode, small print
//                    scaled up) is read, parsed and merged again for them.
//   Invoice merge    the invoice XML a PDF carries, checked against its arithmetic and the page, stands for the
//                    page's record (`EInvoiceStage.withAttachment`, `RecordMerger.merge(eInvoice:pageRecord:)`).
//   Deadlines        the dates that matter and a recurring charge.
//   Memory           what people confirmed for the shop weighs in, on the record the page gave.
//   Duplicates       `DocumentOutcome` → `DocumentOutcome`, in review when it may duplicate a record kept earlier
//                    (`DuplicateStage`).
//   Route            `DocumentOutcome` → the store, the run's summary and progress (`RouteStage`).
//   Re-judge         the whole store, once the documents are in: a charge from a series marked cancelled, after
//                    that day, goes to review (`Rejudging`, judgement over the store's interface).

/// Intake's output for a file to read: the file, and what is known of it besides its bytes (the date in its
/// name, its sidecar), read at intake so that it travels with the file to the merge.
public struct ReadyDocument: Sendable {
    public let source: SourceFile
    public let other: OtherSources

    public init(source: SourceFile, other: OtherSources) {
        self.source = source
        self.other = other
    }

    /// The file with its other sources (its sidecar as intake read it, or read now), and what its folder says (its
    /// currency, its language). A sidecar's language is the document's own and wins over its folder's.
    public init(
        reading source: SourceFile, today: CalendarDay, declared: FolderDeclarations = FolderDeclarations(pipeline: nil),
        sidecar: IntakeStage.SidecarReading? = nil
    ) {
        var other = IntakeStage.otherSources(of: source, today: today, sidecar: sidecar)
        other.declaredCurrency = declared.of(source.folder)
        other.declaredLanguage = other.sidecar?.language ?? declared.languages[source.folder]
        self.init(source: source, other: other)
    }
}

extension PipelineRunner {
    /// A run over a scan root: the run's stages (`PipelineRunner.stages`) in order on this thread, each document's
    /// outcome through `PipelineRunner.outcomeStages` in path order as it comes back. `outputDirectory`: where the run
    /// keeps its files (never walked as scans); the SQLite store's folder when not given.
    public func run(root: String, store: any RecordStore, pipelineName: String, outputDirectory: String? = nil) throws(PipelineError)
        -> RunSummary
    {
        var state = try RunState(self, root: root, store: store, pipelineName: pipelineName, outputDirectory: outputDirectory)
        for stage in PipelineRunner.stages { try stage.run(self, &state) }
        return state.summary
    }

    /// The run's stages on the thread that called `run` (the store's only writer), in order: the documents Intake plans
    /// to read are read by the workers' steps (`DocumentProcessor.steps`).
    static let stages: [RunStage] = [
        RunStage(name: "Intake") { runner, state throws(PipelineError) in try runner.intake(&state) },
        RunStage(name: "Documents") { runner, state throws(PipelineError) in try runner.readDocuments(&state) },
        RunStage(name: "Re-judge") { runner, state throws(PipelineError) in try runner.rejudge(&state) }
    ]

    /// What each document's outcome passes on that thread, in path order: a record the workers read, a same-bytes copy
    /// Intake settled, a document that failed at intake.
    static let outcomeStages: [OutcomeStage] = [
        OutcomeStage(name: "Duplicates") { runner, state, outcome in
            let (checked, note) = state.duplicates.run(outcome)
            if let note { runner.progress(.note(note)) }
            return checked
        },
        OutcomeStage(name: "Route") { _, state, outcome throws(PipelineError) in
            try state.route.run(outcome)
            return outcome
        }
    ]

    /// One outcome through the outcome stages.
    func finish(_ outcome: DocumentOutcome, _ state: inout RunState) throws(PipelineError) {
        var outcome = outcome
        for stage in PipelineRunner.outcomeStages { outcome = try stage.run(self, &state, outcome) }
    }

    /// Intake: gone, failed and crashed files fail by name, unchanged ones are skipped, same-bytes copies stored as
    /// duplicates; the rest are to read, with their sidecars.
    func intake(_ state: inout RunState) throws(PipelineError) {
        func finish(_ outcome: DocumentOutcome) throws(PipelineError) { try self.finish(outcome, &state) }
        let (listing, known, crashed, declared) = (state.listing, state.known, state.crashed, state.declared)
        let plan = try intake(listing, root: state.root, known: known, crashed: crashed, declared: declared, store: state.store, finish: finish)
        state.plan = plan
        state.takenByInbox = plan.takenByInbox
        // The documents read now are judged in the plan's order, as a fresh run judges its documents: until its turn,
        // a document's stored record is no one's original.
        state.duplicates.judgesAgain(Set(plan.work.map(\.source.relativePath) + plan.pending.map(\.document.source.relativePath)))
        state.route.skip(plan.skipped)
        progress(.started(files: listing.paths.count, toRead: state.route.summary.processed + plan.work.count + plan.pending.count))
    }

    /// The documents to read, on the workers (or through the store's queue), each outcome finished here. Rounds: a copy
    /// whose original did not end as a record (it failed, or changed while it was read) is read itself in the next round.
    func readDocuments(_ state: inout RunState) throws(PipelineError) {
        func finish(_ outcome: DocumentOutcome) throws(PipelineError) { try self.finish(outcome, &state) }
        var plan = state.plan
        state.plan = ReadingPlan()
        while !plan.work.isEmpty {
            if let queue {
                try readThroughQueue(plan.work, queue: queue, finish: finish)
            } else {
                var pool = WorkerPool(
                    config: config, today: today, jobs: jobs, ocrCache: ocrCache, metrics: metrics, makeEngine: makeEngine,
                    secondReaders: secondReaders)
                pool.memory = state.memory
                try pool.process(plan.work) { (_, outcome) throws(PipelineError) in try finish(outcome) }
            }
            let ended = state.route.ended
            try plan.nextRound(ended: ended, finish: finish)
        }
        let store = state.store
        let runID = state.route.runID
        try PipelineRunner.storeError { () throws(StoreError) in
            try store.finishRun(runID, finished: ISO8601DateFormatter().string(from: Date()))
        }
    }

    /// Re-judge: what this run added may be a charge from a series marked cancelled, after that day.
    func rejudge(_ state: inout RunState) throws(PipelineError) {
        let store = state.store
        state.charged = try PipelineRunner.storeError { () throws(StoreError) in
            try Rejudging.chargesAfterCancellation(in: store, today: today)
        }
    }
}

/// One stage of a run on the thread that called `PipelineRunner.run`.
struct RunStage: Sendable {
    let name: String
    let run: @Sendable (PipelineRunner, inout RunState) throws(PipelineError) -> Void
}

/// One stage each document's outcome passes on that thread.
struct OutcomeStage: Sendable {
    let name: String
    let run: @Sendable (PipelineRunner, inout RunState, DocumentOutcome) throws(PipelineError) -> DocumentOutcome
}

/// A run as its stages pass it on: the scan folder as walked and what its folders say, the run opened in the store
/// (`route`), what the store held before it, the duplicates judged so far, the documents Intake plans to read.
struct RunState {
    let root: String
    let store: any RecordStore
    let listing: IntakeStage.Listing
    let declared: FolderDeclarations
    let known: PipelineRunner.KnownRecords
    let crashed: [String: CrashNotes.Crash]
    let memory: MerchantMemory
    var route: RouteStage
    var duplicates: DuplicateStage
    var plan = PipelineRunner.ReadingPlan()
    var charged: [ChargeAfterCancellation] = []
    var takenByInbox: [String] = []

    /// The run's summary: Route's, with what Re-judge found.
    var summary: RunSummary {
        var summary = route.summary
        summary.chargedAfterCancellation = charged
        summary.takenByInbox = takenByInbox
        return summary
    }

    /// The scan folder walked (the output folder skipped), the folders' settings read once (a file that cannot be used is
    /// named), the run opened in the store, the crash notes of an earlier run read and this run's installed, the store's
    /// records and merchant memory loaded.
    init(_ runner: PipelineRunner, root: String, store: any RecordStore, pipelineName: String, outputDirectory: String?) throws(PipelineError) {
        let config = runner.config
        let outputDirectory = outputDirectory ?? PathText.parent(of: store.path)
        self.root = root
        self.store = store
        var listing = try IntakeStage(maxFileMegabytes: config.maxFileMegabytes).walk(root: root, skipping: outputDirectory)
        if let settingsOf = runner.inboxSettings {
            listing.paths.removeAll(where: Inbox.isOwnFile)
            declared = FolderDeclarations(folders: Set(listing.paths.map(SourceFile.folder(of:))), pipeline: config.currency, path: settingsOf)
        } else {
            declared = FolderDeclarations(root: root, folders: Set(listing.paths.map(SourceFile.folder(of:))), pipeline: config.currency)
        }
        self.listing = listing
        route = try runner.beginRun(store: store, root: root, pipelineName: pipelineName, listing: listing, declared: declared)
        route.unusable(declared.unusable + declared.languagesNotRead(by: config.languages, firstPass: config.firstPassLanguages))
        // The documents that crashed an earlier run are failed by name at intake; this run notes its own.
        crashed = CrashNotes.load(outputDirectory: outputDirectory)
        CrashNotes.install(outputDirectory: outputDirectory)
        known = try PipelineRunner.KnownRecords(store)
        do { memory = config.merchantMemory ? try store.memory() : MerchantMemory() } catch {
            throw PipelineError(error)
        }
        duplicates = DuplicateStage(
            rules: DuplicateRules(windowHours: config.duplicateWindowHours), earlier: known.earlier, originalOf: known.originalOf,
            cpu: runner.metrics.cpu)
    }
}

/// One step of a document's reading on a worker: its name (as the comment at the top of this file and
/// docs/architecture.md list it) and what it does to the document's state. Each step is a function of typed inputs
/// to a typed output, in its own file (`Steps/`); only this list reads and writes the state.
struct DocumentStep: Sendable {
    let name: String
    let run: @Sendable (DocumentProcessor, inout DocumentState) -> Void
}

extension DocumentProcessor {
    /// The flow of one document on a worker, in order (a standalone XML e-invoice is read by `processXML` instead).
    /// Duplicates and Route follow on the store's writer thread (`PipelineRunner.run`).
    static let steps: [DocumentStep] = [
        DocumentStep(name: "E-invoice") { p, s in s.attached = p.readAttachment(of: s.document.source, in: s.reader.context) },
        DocumentStep(name: "First reading") { p, s in
            switch p.readFirst(s.document, attached: s.attached, reader: &s.reader) {
            case .read(let reading, let screen): (s.reading, s.screen) = (reading, screen)
            case .ended(let outcome): s.ended = outcome
            }
        },
        DocumentStep(name: "Language") { p, s in s.guess = p.detectLanguage(&s.reading, reader: &s.reader) },
        DocumentStep(name: "Parse") { p, s in s.extraction = p.parsed(s.reading.pages, as: s.parseAs) },
        DocumentStep(name: "Second reading") { p, s in
            s.second = p.readSecond(s.reading, extraction: s.extraction, as: s.parseAs, reader: &s.reader)
            if let second = s.second { s.extraction = second.extraction }
        },
        DocumentStep(name: "Items read again") { p, s in
            let items = p.readItemsAgain(s.reading, extraction: s.extraction, second: s.second, exact: s.exact, as: s.parseAs, reader: &s.reader)
            if let items { s.extraction.items = items }
        },
        DocumentStep(name: "Merge") { p, s in s.record = s.merge(p)(s.extraction) },
        DocumentStep(name: "Pages read whole") { p, s in
            let read = p.readPagesWhole(s.reading, record: s.record, extraction: s.extraction, exact: s.exact, as: s.parseAs, reader: &s.reader)
            guard let read else { return }
            s.extraction = read
            s.record = s.merge(p)(read)
        },
        DocumentStep(name: "Further reading") { p, s in
            let merge = s.merge(p)
            (s.extraction, s.record) = p.readFurther(
                s.reading, record: s.record, extraction: s.extraction, exact: s.exact, as: s.parseAs, reader: &s.reader, merge: merge)
        },
        DocumentStep(name: "Invoice merge") { p, s in
            s.record = p.mergeInvoice(s.attached, record: s.record, extraction: s.extraction, document: s.document)
        },
        DocumentStep(name: "Deadlines") { p, s in s.record = p.addDeadlines(s.record, extraction: s.extraction, document: s.document) },
        DocumentStep(name: "Memory") { p, s in
            (s.record, s.remembered) = p.recall(s.record, pages: s.reading.pages, secondPages: s.secondPages)
        }
    ]
}

/// What is known of one document as the steps read it: each step reads what the ones before it left, and adds its own.
struct DocumentState {
    let document: ReadyDocument
    /// The document's pages and passes: rendered once, read once per pass, kept in the OCR cache.
    var reader: PassReader
    /// An invoice XML attached to a PDF, read exactly (E-invoice).
    var attached: EInvoiceStage.Attached = .none
    var reading = DocumentProcessor.Reading(pages: [], pass: OCRPass(languages: [], pageSegmentationMode: 0))
    var guess = LanguageGuess(language: nil, confidence: 0)
    /// What the first page's pixels say of a phone's screen (First reading); nil for a text page.
    var screen: ScreenTraits?
    var extraction = Extraction()
    /// What the second reader read again (nil when it read no line).
    var second: SecondRead?
    /// The record as the page gives it, set by Merge (before it, a placeholder no step reads).
    var record: DocumentRecord
    /// The record once the merchant memory weighed in (Memory); the page's own is `record`.
    var remembered: DocumentRecord?
    /// Set by a step after which nothing is left to do (a document no page of which could be read).
    var ended: DocumentOutcome?

    init(document: ReadyDocument, reader: PassReader) {
        self.document = document
        self.reader = reader
        let source = document.source
        record = DocumentRecord.failed(source.relativePath, folder: source.folder, sha256: source.sha256, failure: .noTextFound)
    }

    /// Whether the values come from an attached invoice XML, exactly.
    var exact: Bool { attached.isInvoice }

    /// The pages as the second reader read them again (none when it read no line).
    var secondPages: [OCRPage] { second?.pages ?? [] }

    /// How this document's pages are parsed: in its language, as the screen (or paper) its first page is.
    var parseAs: ParseAs { ParseAs(guess: guess, screen: screen) }

    /// Merge's function for this document, for the steps that merge again after adding candidates.
    func merge(_ p: DocumentProcessor) -> (Extraction) -> DocumentRecord {
        let (document, guess, pages) = (document, guess, reading.pages.count)
        return { p.merged($0, of: document, language: guess, pages: pages) }
    }

    /// The outcome once every step ran: the record (after the memory), the pages as read, the cache saved.
    mutating func outcome() -> DocumentOutcome {
        let final = remembered ?? record
        let fingerprint = reader.fingerprint()
        reader.saveCache()
        let source = document.source
        var outcome = DocumentOutcome(
            record: final, size: source.size, kind: source.kind, pages: reader.turned(reading).map(CardNumbers.masked), extraction: extraction,
            fingerprint: fingerprint)
        if final != record { outcome.pageRecord = record }
        // What is stored of the pages never holds a full card number (`CardNumbers.masked`).
        outcome.secondReading = secondPages.map(CardNumbers.masked)
        return outcome
    }
}

/// Reads documents: one per worker thread, with OCR engines from the run's pool.
public final class DocumentProcessor {
    let render: RenderStage
    let ocr: OCRStage
    let language = LanguageStage()
    let parse: ParseStage
    let merge: MergeStage
    let eInvoices = EInvoiceStage()
    /// Where a document's bytes come from: its file, or the store (`FileReader`).
    let files: FileReader
    /// Nil when the pipeline turns the second reader off or it is not installed.
    let second: SecondReadingStage?
    let config: PipelineConfig
    let today: CalendarDay
    let cache: OCRCache?
    let cpu: PhaseCPU?
    /// What people confirmed on earlier records; empty: the page alone decides.
    public var memory = MerchantMemory()
    /// What a document's `PassReader` reads with.
    var tools: ReadingTools { ReadingTools(render: render, ocr: ocr, cache: cache, cpu: cpu) }

    /// `ocrCache`: a folder where the text of every page is kept by file content and OCR settings, so that
    /// parser work (`shoebox regress`) does not OCR the same pages again.
    /// `engines`: the run's shared OCR engines (a pool of tesseract engines of its own when nil).
    /// `secondReaders`: the second reader and its detector (PP-OCR's when installed; no reader: tesseract alone).
    init(
        config: PipelineConfig, today: CalendarDay, ocrCache: String? = nil, engines: EnginePool? = nil, metrics: RunMetrics? = nil,
        secondReaders: SecondReaders = .installed, files: FileReader = .disk
    ) throws(PipelineError) {
        self.config = config
        self.files = files
        self.today = today
        cpu = metrics?.cpu
        render = RenderStage(dpi: config.dpi, maxMegapixels: config.maxMegapixels)
        let pool: EnginePool
        if let engines { pool = engines } else { pool = try EnginePool(config: config, cpu: cpu) }
        ocr = OCRStage(config: config, engines: pool, cpu: cpu)
        parse = ParseStage(today: today)
        merge = MergeStage(config: config)
        cache = ocrCache.map { OCRCache(directory: $0, config: config) }
        second =
            config.secondReader
            ? secondReaders.reader.map {
                SecondReadingStage(reader: $0, detector: secondReaders.detector, cpu: metrics?.cpu, secondsPerPage: config.pageTimeoutSeconds)
            } : nil
    }

    /// A reading of a document's pages, and the pass that read them.
    struct Reading {
        var pages: [OCRPage]
        var pass: OCRPass
    }

    /// One document through Render, OCR, Language, Parse, Merge and Reread, stored with the digest of the sidecar it was
    /// judged with (a changed sidecar has it judged again).
    public func process(_ document: ReadyDocument) -> DocumentOutcome {
        var outcome = read(document)
        outcome.sidecarDigest = document.other.sidecarDigest
        return outcome
    }

    func read(_ document: ReadyDocument) -> DocumentOutcome {
        // An e-invoice on its own has no pages: its XML is the document.
        if document.source.kind == .xml { return processXML(document) }
        let context = DocumentContext(document.source, limitMegabytes: config.maxFileMegabytes, cpu: cpu, files: files)
        var state = DocumentState(document: document, reader: PassReader(context: context, tools: tools))
        for step in DocumentProcessor.steps {
            step.run(self, &state)
            if let ended = state.ended { return ended }
        }
        return state.outcome()
    }

}
