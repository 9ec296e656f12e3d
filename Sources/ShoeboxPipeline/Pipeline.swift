internal import Foundation
public import ShoeboxCore
internal import ShoeboxEngines
public import ShoeboxJudgement
internal import ShoeboxParsing
public import ShoeboxReading
internal import ShoeboxStore

// The pipeline, in order. Intake, Duplicates, Route and Re-judge run on the thread that called `PipelineRunner.run` (the only
// store writer); the steps between them run for one document at a time on each worker thread, as the list
// `DocumentProcessor.steps` (below) declares them, and outcomes come back in path order. `FlowListTests` holds this
// comment and docs/architecture.md to that list. On the worker, one `DocumentContext` per document reads the file's
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

/// Why a document is read again, and for what: the fields a further pass may add candidates to.
struct RereadTrigger: Equatable {
    let fields: Set<Field>

    /// The one place that reads a record's reasons to decide on reading again: while a required field is
    /// uncertain, or no arithmetic or second reading confirms the total. Nil: one more pass is not worth its time.
    /// A field is uncertain by the rules (missing, ambiguous, a required field's rule confidence below `floor`, the
    /// pipeline's `acceptThreshold`), not by the calibrated probability: that model is fitted on the readings these
    /// passes give, so it must not decide them.
    static func of(record: DocumentRecord, totalConfirmed: Bool, floor: Double = 0.6, required: [Field] = Field.allCases) -> RereadTrigger? {
        var reasons = record.reasons.filter { if case .lowConfidence = $0 { false } else { true } }
        for field in required { if let f = record.trust[field], f.ruleConfidence < floor { reasons.append(.lowConfidence(field)) } }
        return of(reasons: reasons, totalConfirmed: totalConfirmed)
    }

    /// The total is read again while it is uncertain (missing, ambiguous, below the floor, against the page's
    /// arithmetic) or unconfirmed; the merchant while it is missing or below the floor. Uncertain dates and currencies
    /// are not read again for themselves: on the devset, with the second reader on, further passes turned as many
    /// dates wrong as right and no currency right (docs/benchmarks.md, "What each pass still buys").
    static func of(reasons: [ReviewReason], totalConfirmed: Bool) -> RereadTrigger? {
        let total: Set<ReviewReason> = [.missing(.total), .lowConfidence(.total), .ambiguous(.total), .arithmeticMismatch]
        let merchant: Set<ReviewReason> = [.missing(.merchant), .lowConfidence(.merchant)]
        var fields: Set<Field> = []
        if !totalConfirmed || !total.isDisjoint(with: reasons) { fields.insert(.total) }
        if !merchant.isDisjoint(with: reasons) { fields.insert(.merchant) }
        return fields.isEmpty ? nil : RereadTrigger(fields: fields)
    }
}

/// Which fields a whole page's second reading is for: the required ones among the merchant, the date and the total
/// that are missing, or on which the two readers disagree. The one place that reads a record's reasons for it.
enum WholePageTrigger {
    static let fields: [Field] = [.merchant, .date, .total]

    static func fields(of record: DocumentRecord, required: [Field]) -> Set<Field> {
        Set(fields.filter { f in required.contains(f) && (record.reasons.contains(.missing(f)) || record.reasons.contains(.readersDisagree(f))) })
    }
}

extension PipelineRunner {
    /// A run over a scan root: Intake on this thread, the documents to read through the worker pool, and each
    /// outcome, in path order, through Duplicates and Route on this thread. `outputDirectory`: where the run keeps its
    /// files (never walked as scans); the SQLite store's folder when not given.
    public func run(root: String, store: any RecordStore, pipelineName: String, outputDirectory: String? = nil) throws(PipelineError)
        -> RunSummary
    {
        let outputDirectory = outputDirectory ?? PathText.parent(of: store.path)
        let listing = try IntakeStage(maxFileMegabytes: config.maxFileMegabytes).walk(root: root, skipping: outputDirectory)
        // The currency each folder is said to be in, read once; a settings file that cannot be used is named.
        let declared = FolderDeclarations(root: root, folders: Set(listing.paths.map(SourceFile.folder(of:))), pipeline: config.currency)
        var route = try beginRun(store: store, root: root, pipelineName: pipelineName, listing: listing, declared: declared)
        route.unusable(declared.unusable + declared.languagesNotRead(by: config.languages, firstPass: config.firstPassLanguages))
        // The documents that crashed an earlier run are failed by name at intake; this run notes its own.
        let crashed = CrashNotes.load(outputDirectory: outputDirectory)
        CrashNotes.install(outputDirectory: outputDirectory)
        let known = try KnownRecords(store)
        let memory: MerchantMemory
        do { memory = config.merchantMemory ? try store.memory() : MerchantMemory() } catch {
            throw PipelineError(error)
        }
        var duplicates = DuplicateStage(
            rules: DuplicateRules(windowHours: config.duplicateWindowHours), earlier: known.earlier, originalOf: known.originalOf, cpu: metrics.cpu)
        func finish(_ outcome: DocumentOutcome) throws(PipelineError) {
            let (checked, note) = duplicates.run(outcome)
            if let note { progress(.note(note)) }
            try route.run(checked)
        }

        // Intake: gone, failed and crashed files fail by name, unchanged ones are skipped, same-bytes copies stored
        // as duplicates; the rest are to read, with their sidecars.
        var plan = try intake(listing, root: root, known: known, crashed: crashed, declared: declared, store: store, finish: finish)
        // The documents read now are judged in the plan's order, as a fresh run judges its documents: until its turn,
        // a document's stored record is no one's original.
        duplicates.judgesAgain(Set(plan.work.map(\.source.relativePath) + plan.pending.map(\.document.source.relativePath)))
        route.skip(plan.skipped)
        progress(.started(files: listing.paths.count, toRead: route.summary.processed + plan.work.count + plan.pending.count))
        // Render to Reread on the workers, Duplicates and Route here. Rounds: a copy whose original did not end as a
        // record (it failed, or changed while it was read) is read itself in the next round.
        while !plan.work.isEmpty {
            if let queue {
                try readThroughQueue(plan.work, queue: queue, finish: finish)
            } else {
                var pool = WorkerPool(
                    config: config, today: today, jobs: jobs, ocrCache: ocrCache, metrics: metrics, makeEngine: makeEngine,
                    secondReaders: secondReaders)
                pool.memory = memory
                try pool.process(plan.work) { (_, outcome) throws(PipelineError) in try finish(outcome) }
            }
            try plan.nextRound(ended: route.ended, finish: finish)
        }
        try PipelineRunner.storeError { () throws(StoreError) in
            try store.finishRun(route.runID, finished: ISO8601DateFormatter().string(from: Date()))
        }
        // Re-judge: what this run added may be a charge from a series marked cancelled, after that day.
        var summary = route.summary
        summary.chargedAfterCancellation = try PipelineRunner.storeError { () throws(StoreError) in
            try Rejudging.chargesAfterCancellation(in: store, today: today)
        }
        return summary
    }
}

/// One step of a document's reading on a worker: its name (as the comment at the top of this file and
/// docs/architecture.md list it) and what it does to the document's state.
struct DocumentStep: Sendable {
    let name: String
    let run: @Sendable (DocumentProcessor, inout DocumentState) -> Void
}

extension DocumentProcessor {
    /// The flow of one document on a worker, in order (a standalone XML e-invoice is read by `processXML` instead).
    /// Duplicates and Route follow on the store's writer thread (`PipelineRunner.run`).
    static let steps: [DocumentStep] = [
        DocumentStep(name: "E-invoice") { $0.readAttachment(&$1) },
        DocumentStep(name: "First reading") { $0.readFirst(&$1) },
        DocumentStep(name: "Language") { $0.readLanguage(&$1) },
        DocumentStep(name: "Parse") { $0.parseReading(&$1) },
        DocumentStep(name: "Second reading") { $0.readSecond(&$1) },
        DocumentStep(name: "Items read again") { $0.readItemsAgain(&$1) },
        DocumentStep(name: "Merge") { $0.mergeExtraction(&$1) },
        DocumentStep(name: "Pages read whole") { $0.readPagesWhole(&$1) },
        DocumentStep(name: "Further reading") { $0.readFurther(&$1) },
        DocumentStep(name: "Invoice merge") { $0.mergeInvoice(&$1) },
        DocumentStep(name: "Deadlines") { $0.addDeadlines(&$1) },
        DocumentStep(name: "Memory") { $0.recall(&$1) }
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
    /// The pages as the second reader read them again (none when it read no line).
    var secondPages: [OCRPage] = []
    /// The block of item lines the second reading's own parse found (nil when none, or there was no second reading).
    var secondItemBlock: ItemBlock?
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
    var exact: Bool {
        if case .invoice = attached { return true }
        return false
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

    /// E-invoice: a PDF may carry its invoice as XML (ZUGFeRD, Factur-X), read exactly and checked against the pages.
    func readAttachment(_ state: inout DocumentState) {
        let source = state.document.source
        guard source.kind == .pdf else { return }
        state.attached = cpu.measure("e-invoice") { eInvoices.attached(state.reader.context) }
    }

    /// First reading: pages rendered when a pass first asks for them, each pass read once or taken from the OCR cache.
    /// A document no page of which can be read ends here, failed; an invoice whose XML can be read is taken without
    /// the page check.
    func readFirst(_ state: inout DocumentState) {
        switch firstReading(&state.reader, in: ocr.firstPassLanguages(declared: state.document.other.declaredLanguage)) {
        case .success(let r):
            state.reading = r
            state.screen = state.reader.screen()
        case .failure(let f):
            state.reader.saveCache()
            let source = state.document.source
            let failed = DocumentRecord.failed(source.relativePath, folder: source.folder, sha256: source.sha256, failure: f)
            let record = state.exact ? withAttachment(state.attached, record: failed, extraction: nil, document: state.document) : failed
            state.ended = DocumentOutcome(record: record, size: source.size, kind: source.kind, pages: [])
        }
    }

    /// Language: detected, and the pages read again in it where the first reading did not read in it.
    func readLanguage(_ state: inout DocumentState) { state.guess = detectLanguage(&state.reading, reader: &state.reader) }

    /// Parse: every candidate for every field from the reading.
    func parseReading(_ state: inout DocumentState) { state.extraction = parsed(state.reading.pages, of: state) }

    /// `pages` parsed in the document's language and as the screen (or paper) its first page is: the one way every
    /// step parses what it read (the first reading, the second reader's lines and items, pages read whole, further
    /// passes), each counted as `parse` CPU.
    func parsed(_ pages: [OCRPage], of state: DocumentState) -> Extraction {
        let (guess, screen) = (state.guess, state.screen)
        return cpu.measure("parse") { parse.run(pages, language: guess, screen: screen) }
    }

    /// Second reading: the lines that carry a field, or were read unsure, read again by the second reader; what it
    /// read is parsed and joins the first parse.
    func readSecond(_ state: inout DocumentState) {
        guard let second, state.reader.hasImages,
            let pages = state.reader.secondReading(of: state.reading, by: second, extraction: state.extraction, language: state.guess.language)
        else { return }
        let reread = pages.flatMap { page in
            page.lines.filter { $0.reader == .secondReader }.map { Extraction.LinePlace(page: page.pageNumber, box: $0.box) }
        }
        let read = parsed(pages, of: state)
        state.extraction = state.extraction.joining(secondReading: read, reread: reread)
        state.secondPages = pages
        state.secondItemBlock = read.itemBlock
    }

    /// Items read again: when neither reading's items are proven (or none was read), the block of item lines that
    /// tesseract's reading still holds is read by the second reader (an amount misread by a digit is the common loss
    /// there); the items of that reading are taken only when the page's own figures prove them. An e-invoice's items are
    /// its XML's: its page's are not read again.
    func readItemsAgain(_ state: inout DocumentState) {
        guard let second, !state.exact, state.reader.hasImages, state.extraction.items?.check.proven != true else { return }
        let (base, block) =
            state.secondPages.isEmpty ? (state.reading.pages, state.extraction.itemBlock) : (state.secondPages, state.secondItemBlock)
        guard let block,
            let pages = state.reader.itemLinesReading(of: state.reading, base: base, block: block, by: second, language: state.guess.language)
        else { return }
        if let read = parsed(pages, of: state).items, read.check.proven { state.extraction.items = read }
    }

    /// Merge: one value per field, with its confidence, alternates, provenance and reasons.
    func mergeExtraction(_ state: inout DocumentState) {
        state.record = merge.run(state.extraction, document: state.document, language: state.guess, pages: state.reading.pages.count)
    }

    /// Pages read whole: where a required field is missing, or the two readers disagree on it, the first and the last
    /// page are detected and read whole by the second reader (a date or a total on a line tesseract never found, or
    /// found split, is on one of its lines); its candidates join for those fields, and the record is merged again.
    func readPagesWhole(_ state: inout DocumentState) {
        guard config.wholePageReading, let second, second.detector != nil, !state.exact, state.reader.hasImages else { return }
        let fields = WholePageTrigger.fields(of: state.record, required: config.requiredFields)
        guard !fields.isEmpty else { return }
        // Its own tally as well (the second reader's tallies count it too): what this step costs, in `--log-json`.
        let read = cpu.measure("pages-read-whole") { state.reader.pagesReadWhole(of: state.reading, by: second) }
        guard let pages = read else { return }
        state.extraction = state.extraction.union(parsed(pages, of: state), fields: fields)
        mergeExtraction(&state)
    }

    /// Further reading: further passes while the trigger names fields to read again; their candidates join the first's,
    /// and the record is merged again. An e-invoice's values come from its XML: its pages are read once.
    func readFurther(_ state: inout DocumentState) {
        let further = state.exact ? [] : furtherPasses(after: state.reading)
        for (index, pass) in further.enumerated() where state.reader.hasImages {
            guard
                let trigger = RereadTrigger.of(
                    record: state.record, totalConfirmed: state.extraction.totalConfirmed, floor: config.acceptThreshold,
                    required: config.requiredFields)
            else { break }
            if config.passesOnLines {
                // The lines that hold the uncertain fields' candidates, read again; what it read on them joins.
                let chosen = DocumentProcessor.linesToReadAgain(for: trigger.fields, in: state.reading, extraction: state.extraction)
                guard let pages = state.reader.readLines(pass, of: state.reading, chosen: chosen) else { continue }
                let places = zip(state.reading.pages, chosen).flatMap { page, lines in
                    lines.map { Extraction.LinePlace(page: page.pageNumber, box: page.lines[$0].box) }
                }
                state.extraction = state.extraction.union(parsed(pages, of: state).readOn(places), fields: trigger.fields)
            } else {
                if index + 1 < further.count { state.reader.prefetch(further[index + 1]) }
                guard case .success(let pages) = state.reader.read(pass) else { continue }
                state.extraction = state.extraction.union(parsed(pages, of: state), fields: trigger.fields)
            }
            mergeExtraction(&state)
        }
    }

    /// Invoice merge: the invoice XML attached to a PDF (read by E-invoice), its values checked against its own
    /// arithmetic and the page's record, which it then stands for (`withAttachment`); a PDF without one keeps the page's.
    func mergeInvoice(_ state: inout DocumentState) {
        state.record = withAttachment(state.attached, record: state.record, extraction: state.extraction, document: state.document)
    }

    /// Deadlines: the dates that matter (due, return, cancel, appeal) and the charge that recurs.
    func addDeadlines(_ state: inout DocumentState) {
        state.record = deadlines(state.record, extraction: state.extraction, document: state.document)
    }

    /// Memory: what people confirmed of this merchant weighs in last, on the record the page gave (`shoebox rescore`
    /// does the same from that record). Keys from both readings: the second reader reads tax IDs and phones better.
    func recall(_ state: inout DocumentState) {
        state.record.merchantKeys = Array(Set(MerchantKey.keys(of: state.reading.pages) + MerchantKey.keys(of: state.secondPages))).sorted()
        state.remembered = merge.merger.remember(memory.recall(state.record.merchantKeys), in: state.record)
    }

    /// OCR: the first pass. A page it could hardly read may be faint (thermal paper: binarise it adaptively) or
    /// lying on its side (turn it upright with OSD); each is read again, and kept when it reads better.
    /// Fails as no-text-found when no page has a word.
    func firstReading(_ reader: inout PassReader, in languages: [String]) -> Result<Reading, DocumentFailure> {
        let first = OCRPass(languages: languages, pageSegmentationMode: config.pageSegmentationMode)
        var best: Reading
        // With a language pass to come, the pages after the first are read in the language the first page is in.
        let read =
            config.languagePass
            ? reader.readFollowingFirstPage(first) { page in
                ocr.languagesAfterDetection(cpu.measure("language") { language.run([page]) }, readIn: languages)
            } : reader.read(first).map { Reading(pages: $0, pass: first) }
        switch read {
        case .success(let r): best = r
        case .failure(let f): return .failure(f)
        }
        if reader.hasImages, OCRStage.mean(best.pages) < 60 || OCRStage.words(best.pages) < 15 {
            let doubtful = Set(best.pages.indices.filter { OCRStage.mayBeTurned(best.pages[$0]) })
            if config.faintPass {
                var faint = first
                faint.purpose = .faint
                faint.adaptiveThreshold = true
                if case .success(let binarised) = reader.read(faint), OCRStage.readability(binarised) > OCRStage.readability(best.pages) {
                    best = Reading(pages: binarised, pass: faint)
                }
            }
            var upright = best.pass
            upright.purpose = .upright
            upright.upright = true
            if !doubtful.isEmpty, reader.needsTurning(doubtful), case .success(let turned) = reader.read(upright),
                OCRStage.readability(turned) > OCRStage.readability(best.pages)
            {
                best = Reading(pages: turned, pass: upright)
            }
        }
        // Pages tesseract could hardly read at all: read whole by the second reader, when it finds more.
        if let second, reader.hasImages, best.pages.contains(where: SecondReadingStage.unusable),
            let whole = reader.wholePageReading(of: best, by: second)
        {
            best.pages = whole
        }
        guard best.pages.contains(where: { $0.wordCount > 0 }) else { return .failure(.noTextFound) }
        return .success(best)
    }

    /// Language: detected from the text of all pages. When the first pass did not read in it, the pages are
    /// read again in it (with the first reading's upright and threshold settings), and kept unless they read worse.
    func detectLanguage(_ reading: inout Reading, reader: inout PassReader) -> LanguageGuess {
        let guess = cpu.measure("language") { language.run(reading.pages) }
        guard config.languagePass, reader.hasImages, let languages = ocr.languagesAfterDetection(guess, readIn: reading.pass.languages)
        else { return guess }
        var pass = OCRPass(languages: languages, pageSegmentationMode: config.pageSegmentationMode, purpose: .language)
        pass.upright = reading.pass.upright
        pass.adaptiveThreshold = reading.pass.adaptiveThreshold
        let again: [OCRPage]
        if config.passesOnLines {
            // The lines that matter read in the language: the head, every line a candidate stands on, and those read unsure.
            let extraction = cpu.measure("parse") { parse.run(reading.pages, language: guess) }
            let chosen = DocumentProcessor.linesToReadAgain(for: Set(Field.allCases), in: reading, extraction: extraction, unsure: true)
            guard let pages = reader.readLines(pass, of: reading, chosen: chosen) else { return guess }
            again = pages
            pass.onLines = true
        } else if reading.pass.laterLanguages == languages, reading.pages.count > 1 {
            // The later pages were read in this language already (tesseract's reading of them, from the cache): the
            // first page is read in it alone, and the reading is the whole pass's, kept as that.
            guard case .success(let head) = reader.read(pass, range: 0..<1), case .success(let read) = reader.read(reading.pass) else { return guess }
            again = head + read.dropFirst()
            reader.keep(pass.name, again)
        } else {
            guard case .success(let pages) = reader.read(pass) else { return guess }
            again = pages
        }
        guard OCRStage.mean(again) >= OCRStage.mean(reading.pages) - 1 else { return guess }
        reading = Reading(pages: again, pass: pass)
        return LanguageGuess(language: guess.language, confidence: max(guess.confidence, language.run(again).confidence))
    }

    /// The lines of each page of `reading` a further pass reads for `fields`: those a candidate for one of them was read
    /// on, the head of the first page for the merchant, and, where a field has no candidate at all (or `unsure`), every
    /// line tesseract read unsure; at most `SecondReadingStage.maxLinesPerPage` a page.
    static func linesToReadAgain(for fields: Set<Field>, in reading: Reading, extraction: Extraction, unsure: Bool = false) -> [[Int]] {
        let evidence = extraction.evidence(for: fields)
        let lacking = unsure || fields.contains { extraction.evidence(for: [$0]).isEmpty }
        return reading.pages.enumerated().map { index, page in
            guard page.source == .ocr else { return [] }
            var chosen: [Int] = []
            for (i, line) in page.lines.enumerated() where chosen.count < SecondReadingStage.maxLinesPerPage {
                let place = Extraction.LinePlace(page: page.pageNumber, box: line.box)
                let head = index == 0 && i < SecondReadingStage.headLines && fields.contains(.merchant)
                if head || evidence.contains(where: place.holds) || (lacking && line.meanConfidence < SecondReadingStage.unsureConfidence) {
                    chosen.append(i)
                }
            }
            return chosen
        }
    }

    /// The passes a Reread may take, in order: the other page segmentation modes, and (second) small print
    /// scaled to `textHeightTarget` pixel letters; each with the reading's languages, turns and threshold.
    func furtherPasses(after reading: Reading) -> [OCRPass] {
        let main = reading.pass
        var further = config.extraPassSegmentationModes.filter { $0 != main.pageSegmentationMode }
            .map {
                OCRPass(
                    languages: main.languages, pageSegmentationMode: $0, purpose: .mode, upright: main.upright,
                    adaptiveThreshold: main.adaptiveThreshold, laterLanguages: main.laterLanguages)
            }
        let largest = reading.pages.map { Double($0.width * $0.height) / 1e6 }.max() ?? 0
        if let height = reading.pages.first?.medianWordHeight,
            let factor = PageImage.upscaleFactor(textHeight: height, target: config.textHeightTarget, megapixels: largest)
        {
            further.insert(
                OCRPass(
                    languages: main.languages, pageSegmentationMode: main.pageSegmentationMode, purpose: .upscale, scale: factor,
                    upright: main.upright, adaptiveThreshold: main.adaptiveThreshold, laterLanguages: main.laterLanguages),
                at: min(1, further.count))
        }
        return further
    }
}
