internal import Foundation
public import ShoeboxCore
internal import ShoeboxEngines
public import ShoeboxJudgement
public import ShoeboxParsing
internal import ShoeboxStore

/// Render: a source file → its pages, each either real text from the PDF text layer or a gray image to OCR
/// (`PageSource` renders them one at a time, when a pass asks).
public struct RenderStage: Sendable {
    public let dpi: Int
    public let maxMegapixels: Int

    public init(dpi: Int, maxMegapixels: Int) {
        self.dpi = dpi
        self.maxMegapixels = maxMegapixels
    }

    /// Scans that are rendered (their image is not the page alone) are not rendered below this resolution,
    /// whatever their image claims.
    static let lowestScanDPI = 100

    /// Opens a document for its passes, from its bytes and (a PDF) its poppler document as its context made them once.
    func run(_ context: DocumentContext, cpu: PhaseCPU?) -> Result<PageSource, DocumentFailure> {
        let bytes: [UInt8]
        switch context.bytes() {
        case .success(let b): bytes = b
        case .failure(let f): return .failure(f)
        }
        return cpu.measure("render") { PageSource.open(context.source, bytes: bytes, render: self, cpu: cpu, pdf: context.pdf) }
    }
}

/// OCR: a gray page → words with boxes and confidences, through OCR engines (`PageRecognizer`, tesseract's in
/// a run) from the run's pool: one per language set, made when first needed and shared by the workers.
public final class OCRStage {
    let config: PipelineConfig
    let engines: EnginePool
    let cpu: PhaseCPU?

    init(config: PipelineConfig, engines: EnginePool, cpu: PhaseCPU?) {
        self.config = config
        self.engines = engines
        self.cpu = cpu
    }

    /// One pass over every page (or the pages of `range`): text-layer pages as they are, image pages through
    /// tesseract, each rendered when its turn comes (and turned upright first when `turns` says so); a page in `known`
    /// is taken as read.
    func run(
        _ pages: PageSource, turns: [Int]?, pass: OCRPass, range: Range<Int>? = nil, known: [Int: OCRPage] = [:]
    ) -> Result<[OCRPage], DocumentFailure> {
        let range = range ?? 0..<pages.count
        // Each page's reading, in page order: read here, or handed to an idle worker (`help`) and awaited.
        enum Reading {
            case done(OCRPage)
            case helped(PageHelp.Task)
        }
        var readings: [Reading] = []
        var failure: DocumentFailure?
        for index in range where failure == nil {
            if let page = known[index] {
                readings.append(.done(page))
                continue
            }
            let pass = pass.forPage(index)
            let page: RenderedPage
            switch pages.page(index) {
            case .success(let p): page = p
            case .failure(let f):
                failure = f
                continue
            }
            switch page {
            case .text(let text): readings.append(.done(text))
            case .image(let rendered):
                let turn = turns.flatMap { index < $0.count ? $0[index] : nil } ?? 0
                let image = turn == 0 ? rendered : rendered.rotated(clockwise: turn)
                if index + 1 < range.upperBound, let task = help?.offer(image, pass: pass) {
                    readings.append(.helped(task))
                    continue
                }
                switch read(image, pass: pass) {
                case .success(let p): readings.append(.done(p))
                case .failure(let f): failure = f
                }
            }
        }
        // Every handed-out page is awaited, also after a failure (its worker is still reading it).
        var out: [OCRPage] = []
        for reading in readings {
            switch reading {
            case .done(let p): out.append(p)
            case .helped(let task):
                switch task.wait() {
                case .success(let p): out.append(p)
                case .failure(let f): failure = failure ?? f
                }
            }
        }
        return failure.map { .failure($0) } ?? .success(out)
    }

    /// Pages other workers hand over when this one has no documents left (set by the worker pool).
    var help: PageHelp?

    /// One image page through tesseract with an engine for the pass's languages from the run's pool.
    func read(_ image: PageImage, pass: OCRPass) -> Result<OCRPage, DocumentFailure> {
        let read: Result<OCRPage, DocumentFailure>
        // Each pass's purpose is tallied (pages, CPU) for `make bench` and docs/benchmarks.md's per-pass table.
        cpu?.count("pass-pages-" + pass.purpose.rawValue, 1)
        do {
            read = try cpu.measure("pass-" + pass.purpose.rawValue) { () throws(PipelineError) in
                try engines.use(pass.languages) { engine in
                    engine.recognize(
                        image, scale: pass.scale, pageSegmentationMode: pass.pageSegmentationMode,
                        adaptiveThreshold: pass.adaptiveThreshold, timeout: config.pageTimeoutSeconds, cpu: cpu)
                }
            }
        } catch { return .failure(.ocrFailed(error.message)) }
        return pass.scale != 1 ? read.map { $0.unscaled(by: pass.scale, width: image.width, height: image.height, dpi: image.dpi) } : read
    }

    /// The turn (clockwise degrees) that sets a page upright, when tesseract's OSD is sure enough of it.
    /// OSD is less sure of quarter turns than of half turns, and has called upright receipts "turned 180°"
    /// with some confidence; a wrong turn costs one pass and no accuracy (the turned reading is kept only when
    /// it reads better), so a quarter turn needs less confidence than a half turn.
    /// OSD reads a page halved until it is at most `osdMegapixels` (a 600-dpi A4 page at 150 dpi): the shapes of
    /// lines and letters it looks at show as well there, with a quarter of the pixels to threshold.
    func uprightCorrection(_ page: PageImage) -> Int {
        let image = cpu.measure("osd") { () -> PageImage in
            var image = page
            while Double(image.width * image.height) / 1e6 > OCRStage.osdMegapixels { image = image.halved() }
            return image
        }
        // Measured inside: loading the OSD engine counts as engine-load.
        guard let found = try? engines.use(["osd"], { engine in cpu.measure("osd") { engine.orientation(image) } }) ?? nil,
            found.confidence >= (found.degrees == 180 ? OCRStage.osdMinimumConfidence : OCRStage.osdSidewaysConfidence)
        else { return 0 }
        return found.degrees
    }

    /// Whether a page's first reading looks like text read on its side or upside down: OSD is asked only then
    /// (it takes about as long as reading the page). Turned pages read at a low mean word confidence, below that
    /// of upright pages too faint to read well. A page with almost no words is asked about too.
    static func mayBeTurned(_ page: OCRPage) -> Bool {
        page.source == .ocr && (page.meanConfidence < turnedMeanConfidence || page.wordCount < 15)
    }

    static let turnedMeanConfidence = 45.0

    static func mean(_ pages: [OCRPage]) -> Double { pages.map(\.meanConfidence).reduce(0, +) / Double(max(1, pages.count)) }
    static func words(_ pages: [OCRPage]) -> Int { pages.reduce(0) { $0 + $1.wordCount } }
    /// How much of a reading is likely right: the number of words read with confidence (≥ 75). A pass that
    /// reads one big number does not beat one that reads forty lines; speckles read as words do not count.
    static func readability(_ pages: [OCRPage]) -> Int {
        pages.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.words.count { $0.confidence >= 75 } } }
    }

    static let osdMinimumConfidence = 1.5
    static let osdSidewaysConfidence = 0.5
    static let osdMegapixels = 4.0

    /// The languages to read a page in again once its language is known: the detected language first
    /// (tesseract's first language is its primary one: with English first, German umlauts come out as plain
    /// letters), then English. Nil when the first pass (`readIn`, by default the pipeline's) already read in it: as its
    /// first language, or English among its languages.
    public func languagesAfterDetection(_ guess: LanguageGuess, readIn first: [String]? = nil) -> [String]? {
        let first = first ?? config.firstPassLanguages
        guard let detected = guess.language, guess.confidence >= 0.5, config.languages.contains(detected), first.first != detected,
            !(detected == "eng" && first.contains("eng"))
        else { return nil }
        return OCRStage.readingIn(detected)
    }

    /// The languages a pass reads a page known to be in `language` in: it first, then English.
    static func readingIn(_ language: String) -> [String] { [language] + (language == "eng" ? [] : ["eng"]) }

    /// The first pass's languages: the folder's declared language (with English) when the pipeline reads it, else the
    /// pipeline's `firstPassLanguages`.
    func firstPassLanguages(declared: String?) -> [String] {
        guard let declared, config.languages.contains(declared) else { return config.firstPassLanguages }
        return OCRStage.readingIn(declared)
    }
}

/// One OCR pass: which languages, which segmentation mode, and an upscaling factor. Its name keys the OCR cache.
struct OCRPass: Hashable {
    /// Why a pass is read: what its CPU is tallied under (`OCRStage.read`); not part of its name.
    enum Purpose: String {
        case first, faint, upright, language, mode, upscale
    }
    var languages: [String]
    let pageSegmentationMode: Int
    var purpose: Purpose = .first
    var scale: Double = 1
    /// Pages turned upright first (tesseract OSD), for pages the first pass could hardly read.
    var upright = false
    /// Binarised with an adaptive threshold (for faint pages the first pass could hardly read).
    var adaptiveThreshold = false
    /// A reading whose pages are an earlier reading with some lines read again by this pass (`PassReader.readLines`):
    /// named apart from the pass over whole pages.
    var onLines = false
    /// The languages the pages after the first are read in, when the first page's language chose them
    /// (`PassReader.readFollowingFirstPage`); nil: every page in `languages`.
    var laterLanguages: [String]?
    var name: String {
        "psm\(pageSegmentationMode)-\(languages.joined(separator: "+"))" + (scale == 1 ? "" : String(format: "-x%.2f", scale))
            + (upright ? "-upright" : "") + (adaptiveThreshold ? "-adaptive" : "") + (onLines ? "-on-lines" : "")
            + (laterLanguages.map { "-then-" + $0.joined(separator: "+") } ?? "")
    }

    /// The pass as it reads page `index` (from 0): a later page in `laterLanguages`.
    func forPage(_ index: Int) -> OCRPass {
        guard index > 0, let later = laterLanguages else { return self }
        var page = self
        page.languages = later
        page.laterLanguages = nil
        return page
    }
}

/// Language: detected from the text of all pages with cld2.
public struct LanguageStage: Sendable {
    public init() {}
    public func run(_ pages: [OCRPage]) -> LanguageGuess { LanguageDetector.detect(pages.map(\.text).joined(separator: "\n")) }
}

/// Parse: every candidate for every field (the deterministic parser of the core).
public struct ParseStage: Sendable {
    public let parser: ReceiptParser
    public init(today: CalendarDay) { parser = ReceiptParser(today: today) }
    public func run(_ pages: [OCRPage], language: LanguageGuess, screen: ScreenTraits? = nil) -> Extraction {
        parser.parse(pages: pages, language: language.language, screen: screen)
    }
}

/// Merge: one value per field from the candidates and the document's other sources (file-name date,
/// sidecar), with confidences, and accepted or review with reasons.
public struct MergeStage: Sendable {
    public let merger: RecordMerger
    public init(config: PipelineConfig) {
        merger = RecordMerger(
            acceptThreshold: config.acceptThreshold, requiredFields: config.requiredFields, acceptPrecision: config.acceptPrecision)
    }
    public func run(_ extraction: Extraction, document: ReadyDocument, language: LanguageGuess, pages: Int) -> DocumentRecord {
        merger.merge(extraction, source: document.source, language: language, pages: pages, other: document.other)
    }
}

/// Duplicates: an accepted or review record that looks like one kept earlier (in this run or an earlier one,
/// in any folder) goes to review as possible-duplicate (or same-paper-reads-differently, e-invoice-reissued),
/// naming the other and why (`DuplicateRules`).
///
/// A store judged again ends as a fresh run over its files would: a record this run judges again is no one's
/// original until it is judged (a fresh run judges the documents before it without it), its stored record is
/// replaced by the new one whatever that ends as, and a record that names the one being judged as its original
/// (directly or through others) came after it and is not compared with it: else two twins end naming each other.
struct DuplicateStage {
    let rules: DuplicateRules
    /// Every accepted or review record kept so far.
    private var earlier: [DuplicateRules.Entry]
    /// The record each record names as its original: as stored, then as judged in this run.
    private var originalOf: [String: String]
    let cpu: PhaseCPU?

    init(rules: DuplicateRules, earlier: [DuplicateRules.Entry], originalOf: [String: String] = [:], cpu: PhaseCPU?) {
        self.rules = rules
        self.earlier = earlier
        self.originalOf = originalOf
        self.cpu = cpu
    }

    /// The documents this run is to judge again (read again, or copies waiting on one): their stored records are
    /// left out until each is judged.
    mutating func judgesAgain(_ sources: Set<String>) {
        earlier.removeAll { sources.contains($0.source) }
    }

    /// Whether the record at `path` names `target` as its original, directly or through the records it names.
    func names(_ path: String, _ target: String) -> Bool { originalOf.originals(of: path).contains(target) }

    /// The outcome, in review when it may duplicate an earlier record, with the sentence that says so.
    mutating func run(_ given: DocumentOutcome) -> (outcome: DocumentOutcome, note: String?) {
        var outcome = given
        let source = outcome.record.source
        earlier.removeAll { $0.source == source }
        defer { originalOf[source] = outcome.record.duplicateOf }
        guard outcome.record.status == .accepted || outcome.record.status == .review else { return (outcome, nil) }
        var note: String?
        let entry = DuplicateRules.Entry(outcome.record, fingerprint: outcome.fingerprint, firstPageText: outcome.pages.first?.text)
        if let suspect = cpu.measure("duplicates", { rules.match(entry, in: earlier.filter { !names($0.source, source) }) }) {
            outcome.record.duplicateOf = suspect.source
            Verdict.hold(&outcome.record, for: [suspect.reason])
            note = suspect.sentence(for: outcome.record.source)
        }
        earlier.append(entry)
        return (outcome, note)
    }
}

/// Route: each outcome to its place: the store (records.jsonl, and the review queue for a record in review),
/// the run's summary (failures and reviews named at the end) and its progress.
struct RouteStage {
    let store: any RecordStore
    let rootPath: String
    let runID: Int64
    /// The settings digest an outcome is stored with, by the kind of its file (`PipelineRunner.settingsDigest(for:)`).
    let settings: (FileKind?, _ folder: String) -> String
    let cpu: PhaseCPU?
    let progress: @Sendable (RunEvent) -> Void
    private(set) var summary = RunSummary()
    /// The state each document ended in, in this run.
    private(set) var ended: [String: RecordStatus] = [:]

    init(
        store: any RecordStore, rootPath: String, runID: Int64, settings: @escaping (FileKind?, _ folder: String) -> String, cpu: PhaseCPU?,
        progress: @escaping @Sendable (RunEvent) -> Void
    ) {
        self.store = store
        self.rootPath = rootPath
        self.runID = runID
        self.settings = settings
        self.cpu = cpu
        self.progress = progress
    }

    mutating func run(_ given: DocumentOutcome) throws(PipelineError) {
        // The verdict each step settled as it added its reasons, decided once more where the record is stored.
        var outcome = given
        Verdict.settle(&outcome.record)
        try PipelineRunner.storeError { () throws(StoreError) in
            try cpu.measure("store") { () throws(StoreError) in
                // The sidecar the record was judged with; for an outcome made without reading one (a copy of other bytes,
                // a file that failed before), the sidecar beside it now.
                let sidecar = outcome.sidecarDigest ?? IntakeStage.sidecarDigest(ofFileAt: rootPath + "/" + outcome.record.source)
                try store.save(
                    outcome, root: rootPath, runID: runID,
                    settings: PipelineRunner.settings(settings(outcome.kind, outcome.record.folder), sidecar: sidecar))
            }
        }
        let r = outcome.record
        ended[r.source] = r.status
        summary.processed += 1
        summary.pages += outcome.pages.count
        summary.counts[r.status, default: 0] += 1
        if r.status == .failed { summary.failures.append(r) }
        if r.status == .review { summary.reviews.append(r) }
        progress(.document(source: r.source, status: r.status, reasons: r.reasons.map(\.code), pages: outcome.pages.count, done: summary.processed))
    }

    /// What the walk found: the files, and the folders that could not be listed.
    mutating func found(_ listing: IntakeStage.Listing) {
        summary.found = listing.paths.count
        summary.unreadableFolders = listing.unreadableFolders
    }

    /// Folders' settings files that could not be used, for the summary.
    mutating func unusable(_ settings: [FolderSettings.Unusable]) { summary.unusableSettings = settings }

    /// Files intake found nothing to do for (read before under the same settings, or failed alike).
    mutating func skip(_ count: Int) { summary.skipped += count }
}

/// What a document's reading works with besides its file: the renderer, the OCR engines, the OCR cache and the run's
/// CPU tally, made once per worker (`DocumentProcessor.tools`) and handed to each document's `PassReader`, which so
/// needs nothing of the processor.
struct ReadingTools {
    let render: RenderStage
    let ocr: OCRStage
    let cache: OCRCache?
    let cpu: PhaseCPU?
}

/// Reads one document's passes: from the OCR cache when it has them, else rendering the file once and
/// running tesseract; new passes are written back to the cache at the end.
struct PassReader {
    let source: SourceFile
    /// The renderer, the engines, the cache and the CPU tally the reading uses (the worker's, `DocumentProcessor.tools`).
    let tools: ReadingTools
    private var pages: PageSource?
    private var cached: TextOfDocument?
    private var dirty = false
    /// Passes handed to an idle worker ahead of need, by name.
    private var prefetched: [String: PageHelp.Task] = [:]
    /// Whether some page is an image (a text-layer PDF needs no OCR pass at all).
    private(set) var hasImages = true

    /// The document's bytes and poppler document, made once for every step (`DocumentContext`).
    let context: DocumentContext

    init(context: DocumentContext, tools: ReadingTools) {
        self.context = context
        source = context.source
        self.tools = tools
        cached = tools.cpu.measure("cache") { tools.cache?.load(sha256: source.sha256) }
        if let c = cached { hasImages = c.hasImages }
    }

    /// Whether OSD would turn some page (asked once; the answer is cached with the passes). `doubtful`: the
    /// pages to ask about (nil: all); the others are taken as upright.
    mutating func needsTurning(_ doubtful: Set<Int>? = nil) -> Bool {
        if let turns = cached?.turns { return turns.contains { $0 != 0 } }
        guard ensureOpened() == nil, let pages else { return false }
        var turns: [Int] = []
        for index in 0..<pages.count {
            guard doubtful?.contains(index) ?? true, !pages.isText(index), case .success(.image(let image)) = pages.page(index) else {
                turns.append(0)
                continue
            }
            turns.append(tools.ocr.uprightCorrection(image))
        }
        var c = cached ?? TextOfDocument(passes: [:], hasImages: hasImages)
        c.turns = turns
        cached = c
        dirty = true
        return turns.contains { $0 != 0 }
    }

    /// The reading's pages, each with the turn its pass gave it before it was read (for the review page).
    func turned(_ reading: DocumentProcessor.Reading) -> [OCRPage] {
        guard reading.pass.upright, let turns = cached?.turns else { return reading.pages }
        return reading.pages.enumerated().map { index, page in
            var p = page
            p.turn = index < turns.count && turns[index] != 0 ? turns[index] : nil
            return p
        }
    }

    private mutating func ensureOpened() -> DocumentFailure? {
        guard pages == nil else { return nil }
        switch tools.render.run(context, cpu: tools.cpu) {
        case .success(let p): pages = p
        case .failure(let f): return f
        }
        context.releaseBytes()
        hasImages = pages!.hasImages
        return nil
    }

    /// The first page's fingerprint: from the cache when the document was read from it, else from the
    /// rendered image (and then kept in the cache); nil for a text-layer page.
    mutating func fingerprint() -> PageFingerprint? {
        if let f = cached?.fingerprint { return f }
        guard let pages, case .success(.image(let image)) = pages.page(0) else { return nil }
        let f = tools.cpu.measure("fingerprint") { PageFingerprint(image) }
        if var c = cached {
            c.fingerprint = f
            cached = c
            dirty = true
        }
        return f
    }

    /// What the first page's pixels say of a phone's screen (`ScreenTraits`): from the cache when it was measured
    /// before, else from the rendered image (and then kept in the cache); nil for a text-layer page.
    mutating func screen() -> ScreenTraits? {
        if let t = cached?.screen { return t }
        guard hasImages, ensureOpened() == nil, let pages else { return nil }
        let t: ScreenTraits
        if let measured = pages.screen {
            t = measured
        } else {
            guard case .success(.image(let image)) = pages.page(0) else { return nil }
            // A one-page PDF's page is measured as it is rendered (before a screen's colours are taken away).
            t = pages.screen ?? tools.cpu.measure("screen") { ScreenTraits.measure(gray: image.gray, width: image.width, height: image.height) }
        }
        if var c = cached {
            c.screen = t
            cached = c
            dirty = true
        }
        return t
    }

    /// Near the end of a run a worker may have nothing left to read while this one still reads a one-page
    /// document pass after pass. The next pass is then handed to it, to be read meanwhile: used if the fields
    /// are still uncertain after this pass, dropped otherwise (it cost only a core that was idle).
    mutating func prefetch(_ pass: OCRPass) {
        guard let help = tools.ocr.help, help.hasIdleWorker, cached?.passes[pass.name] == nil, prefetched[pass.name] == nil,
            !pass.upright || cached?.turns != nil, ensureOpened() == nil, let pages, pages.count == 1,
            case .success(.image(let rendered)) = pages.page(0)
        else { return }
        let turn = pass.upright ? cached?.turns?.first ?? 0 : 0
        if let task = help.offer(turn == 0 ? rendered : rendered.rotated(clockwise: turn), pass: pass) { prefetched[pass.name] = task }
    }

    /// `pass` over every page, or over the pages of `range` (kept in the cache under their own name, or taken from the
    /// whole pass when it is cached); pages in `known` are taken as read.
    mutating func read(_ pass: OCRPass, range: Range<Int>? = nil, known: [Int: OCRPage] = [:]) -> Result<[OCRPage], DocumentFailure> {
        let name = range.map { pass.name + "-pages\($0.lowerBound + 1)-\($0.upperBound)" } ?? pass.name
        if let pages = cached?.passes[name] { return .success(pages) }
        if let range, let whole = cached?.passes[pass.name], range.upperBound <= whole.count { return .success(Array(whole[range])) }
        if let f = ensureOpened() { return .failure(f) }
        if pass.upright && cached?.turns == nil { _ = needsTurning() }
        let turns = pass.upright ? cached?.turns : nil
        let result =
            (range == nil ? prefetched.removeValue(forKey: pass.name) : nil).map { $0.wait().map { [$0] } }
            ?? tools.ocr.run(pages!, turns: turns, pass: pass, range: range, known: known)
        if case .success(let pages) = result { keep(name, pages) }
        return result
    }

    /// The number of pages: from the cache (a pass over every page, `whole`, read before), else from the opened document.
    mutating func pageCount(whole pass: OCRPass) -> Int? {
        if let c = cached?.pageCount ?? cached?.passes[pass.name]?.count { return c }
        guard ensureOpened() == nil, let pages else { return nil }
        var c = cached ?? TextOfDocument(passes: [:], hasImages: hasImages)
        c.pageCount = pages.count
        cached = c
        dirty = true
        return pages.count
    }

    /// The first pass over a document of several pages, its later pages read in the languages `choose` picks from its
    /// first page's reading (nil: in the pass's own), so that a document in one language is read in it from its second
    /// page on, and its language pass reads the first page alone. A one-page document is read by `pass` as it is.
    mutating func readFollowingFirstPage(_ pass: OCRPass, choose: (OCRPage) -> [String]?) -> Result<DocumentProcessor.Reading, DocumentFailure> {
        guard let count = pageCount(whole: pass), count > 1 else { return read(pass).map { .init(pages: $0, pass: pass) } }
        let head: OCRPage
        switch read(pass, range: 0..<1) {
        case .success(let pages): head = pages[0]
        case .failure(let f): return .failure(f)
        }
        var following = pass
        following.laterLanguages = choose(head).flatMap { $0 == pass.languages ? nil : $0 }
        return read(following, known: [0: head]).map { .init(pages: $0, pass: following) }
    }

    /// `reading`'s pages with those tesseract could not read (`SecondReadingStage.unusable`) read whole by the
    /// second reader, where it read more words; from the OCR cache when it has them. Nil when none changed.
    mutating func wholePageReading(of reading: DocumentProcessor.Reading, by stage: SecondReadingStage) -> [OCRPage]? {
        let unusable = reading.pages.indices.filter { SecondReadingStage.unusable(reading.pages[$0]) }
        return readWhole(unusable, of: reading, by: stage, as: "whole-") { whole, page in whole.wordCount > page.wordCount }
    }

    /// The first and the last page of `reading` read whole by the second reader (`SecondReadingStage.readWhole`: the
    /// detector's lines, each read), the other pages as tesseract read them; from the OCR cache when it has them. Nil
    /// when no page was read.
    mutating func pagesReadWhole(of reading: DocumentProcessor.Reading, by stage: SecondReadingStage) -> [OCRPage]? {
        let ends = Set([0, reading.pages.count - 1]).sorted().filter { $0 >= 0 && $0 < reading.pages.count && reading.pages[$0].source == .ocr }
        return readWhole(ends, of: reading, by: stage, as: "pages\(SecondReadingStage.wholePagesVersion)-") { _, _ in true }
    }

    /// Pages `indices` of `reading` read whole by the second reader, each kept where `better(whole, page)`; cached under
    /// `prefix` and the stage's name. A page whose lines ran out of time is not kept: the next run reads it whole again.
    private mutating func readWhole(
        _ indices: [Int], of reading: DocumentProcessor.Reading, by stage: SecondReadingStage, as prefix: String,
        better: (OCRPage, OCRPage) -> Bool
    ) -> [OCRPage]? {
        let name = prefix + stage.cacheName(reading.pass)
        if let pages = cached?.passes[name] { return pages.isEmpty ? nil : pages }
        var out = reading.pages
        var any = false
        var complete = true
        for index in indices {
            let page = reading.pages[index]
            let budget = stage.budget()
            defer { complete = complete && !budget.ranOut }
            guard let image = image(index, for: reading, like: page), let whole = stage.readWhole(image, like: page, within: budget),
                better(whole, page)
            else { continue }
            out[index] = whole
            any = true
        }
        guard complete else { return any ? out : nil }
        return keep(name, any ? out : nil)
    }

    /// Keeps a reading under `name` in the OCR cache (an empty list when there is none) and returns it.
    @discardableResult mutating func keep(_ name: String, _ pages: [OCRPage]?) -> [OCRPage]? {
        var c = cached ?? TextOfDocument(passes: [:], hasImages: hasImages)
        c.passes[name] = pages ?? []
        cached = c
        dirty = true
        return pages
    }

    /// Page `index` as the reading's pass read it (turned as it turned it); nil for a text page, or when the page
    /// cannot be rendered or does not match the reading's size.
    private mutating func image(_ index: Int, for reading: DocumentProcessor.Reading, like page: OCRPage) -> PageImage? {
        guard ensureOpened() == nil, let pages, index < pages.count, case .success(.image(let rendered)) = pages.page(index) else { return nil }
        let turns = reading.pass.upright ? cached?.turns ?? [] : []
        let turn = index < turns.count ? turns[index] : 0
        let image = turn == 0 ? rendered : rendered.rotated(clockwise: turn)
        return image.width == page.width && image.height == page.height ? image : nil
    }

    /// The lines `chosen` (per page of `reading`, indices of its lines) read again by `pass`, one mosaic of them per page
    /// (`LineMosaic`), and each page with those lines replaced by what the pass read there; from the OCR cache when
    /// it has them. Nil when no line was read.
    mutating func readLines(_ pass: OCRPass, of reading: DocumentProcessor.Reading, chosen: [[Int]]) -> [OCRPage]? {
        let digest = SHA256.hex(of: Array(chosen.map { $0.map(String.init).joined(separator: ",") }.joined(separator: ";").utf8)).prefix(8)
        let name = "lines\(LineMosaic.version)-\(digest)-" + pass.name
        if let pages = cached?.passes[name] { return pages.isEmpty ? nil : pages }
        var out = reading.pages
        var any = false
        for (index, page) in reading.pages.enumerated() where index < chosen.count && !chosen[index].isEmpty {
            guard let image = image(index, for: reading, like: page),
                let mosaic = LineMosaic(page: image, boxes: chosen[index].map { page.lines[$0].box }),
                case .success(let read) = tools.ocr.read(mosaic.image, pass: pass)
            else { continue }
            out[index] = LineMosaic.replacing(chosen[index], of: page, with: mosaic.words(from: read))
            any = true
        }
        return keep(name, any ? out : nil)
    }

    /// The second reading of `reading`'s pages (`SecondReadingStage`): from the OCR cache when it has it, else read
    /// now from the pages tesseract read (turned as the reading's pass turned them). Nil when no line was read again.
    mutating func secondReading(of reading: DocumentProcessor.Reading, by stage: SecondReadingStage, extraction: Extraction, language: String?)
        -> [OCRPage]?
    {
        let candidates = extraction.evidenceLines
        let chosen = reading.pages.enumerated().map { index, page in
            SecondReadingStage.lines(of: page, index: index, count: reading.pages.count, candidates: candidates)
        }
        // The lines read again are the parse's choice: the name says which, so a change to the parser that picks other
        // lines reads them (a reading of other lines is never taken for them).
        let picked = chosen.enumerated().map { "\($0.offset):" + $0.element.map(String.init).joined(separator: ",") }.joined(separator: ";")
        let name = stage.cacheName(reading.pass) + "-lines" + String(SHA256.hex(of: Array(picked.utf8)).prefix(12))
        if let pages = cached?.passes[name] { return pages.isEmpty ? nil : pages }
        var out: [OCRPage] = []
        var any = false
        var complete = true
        for (index, page) in reading.pages.enumerated() {
            let lines = chosen[index]
            if page.source == .ocr {
                tools.cpu?.count("lines", page.lines.count)
                tools.cpu?.count("lines-read-again", lines.count)
            }
            guard !lines.isEmpty, let image = image(index, for: reading, like: page) else {
                out.append(page)
                continue
            }
            // The first page's head is read from the detector's lines instead of tesseract's.
            let budget = stage.budget()
            let head = index == 0 ? stage.readHead(page, image: image, within: budget) : nil
            let below = head.map { h in lines.filter { (page.lines[$0].box.top + page.lines[$0].box.bottom) / 2 > h.bottom } } ?? lines
            let again = stage.reread(page, image: image, lines: below, language: language, within: budget)
            complete = complete && !budget.ranOut
            if let head {
                let rest = again.lines.filter { ($0.box.top + $0.box.bottom) / 2 > head.bottom }
                out.append(
                    OCRPage(
                        pageNumber: page.pageNumber, width: page.width, height: page.height, dpi: page.dpi, source: page.source,
                        lines: head.lines + rest))
            } else {
                out.append(again)
            }
            any = true
        }
        // A page whose lines ran out of time is not kept: the next run reads it whole again.
        guard complete else { return any ? out : nil }
        return keep(name, any ? out : nil)
    }

    /// `base` (the second reading's pages, else the first's) with the lines of `block` that tesseract's reading still
    /// holds read again by the second reader (`SecondReadingStage.reread`); from the OCR cache when it has them. Nil
    /// when no line was read.
    mutating func itemLinesReading(
        of reading: DocumentProcessor.Reading, base: [OCRPage], block: ItemBlock, by stage: SecondReadingStage,
        language: String?
    ) -> [OCRPage]? {
        // The lines chosen are the parser's: the name says which, so a reading of other lines is not taken for it.
        let name =
            "items\(SecondReadingStage.itemsVersion)-\(block.page)-\(block.lines.lowerBound)-\(block.lines.upperBound)-"
            + stage.cacheName(reading.pass) + "-base" + SecondReadingStage.digest(of: base)
        if let pages = cached?.passes[name] { return pages.isEmpty ? nil : pages }
        guard let index = base.firstIndex(where: { $0.pageNumber == block.page }), index < reading.pages.count, base[index].source == .ocr
        else { return nil }
        let page = base[index]
        let lines = block.lines.filter { $0 < page.lines.count && page.lines[$0].reader == nil }.prefix(SecondReadingStage.maxLinesPerPage)
        guard !lines.isEmpty, let image = image(index, for: reading, like: reading.pages[index]) else { return keep(name, nil) }
        let budget = stage.budget()
        var out = base
        out[index] = stage.reread(page, image: image, lines: Array(lines), language: language, within: budget)
        // A page whose lines ran out of time is not kept: the next run reads them again.
        return budget.ranOut ? out : keep(name, out)
    }

    func saveCache() {
        if dirty, let c = cached { tools.cpu.measure("cache") { tools.cache?.store(c, sha256: source.sha256) } }
    }
}

/// The OCR passes of a document, by pass name: what the OCR cache keeps.
public struct TextOfDocument: Sendable, Codable {
    public var passes: [String: [OCRPage]]
    public var hasImages: Bool
    /// Per page, the clockwise turn OSD found to set it upright (0 when it is), once asked.
    public var turns: [Int]?
    /// The first page's fingerprint, once computed.
    public var fingerprint: PageFingerprint?
    /// What the first page's pixels say of a phone's screen, once measured (nil for a text page).
    public var screen: ScreenTraits?
    /// The number of pages, once the document was opened for it.
    public var pageCount: Int?
}

/// A folder of `TextOfDocument` JSON files, keyed by the file's sha256 and a digest of every setting that
/// changes what a pass reads (dpi, and `OCRCache.readerVersion`); passes are named by mode and languages.
struct OCRCache {
    /// Bump when rendering, preparation or OCR code changes what is read, so old entries are not used.
    static let readerVersion = 13
    let directory: String
    let key: String

    init(directory: String, config: PipelineConfig) {
        self.directory = directory
        let settings = "v\(OCRCache.readerVersion) dpi\(config.dpi) tesseract\(OCREngine.tesseractVersion)"
        key = String(SHA256.hex(of: Array(settings.utf8)).prefix(12))
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func path(_ sha256: String) -> String { "\(directory)/\(sha256)-\(key).json" }

    func load(sha256: String) -> TextOfDocument? {
        guard let data = FileManager.default.contents(atPath: path(sha256)) else { return nil }
        return try? JSONDecoder().decode(TextOfDocument.self, from: data)
    }

    func store(_ text: TextOfDocument, sha256: String) {
        guard let data = try? JSONEncoder().encode(text) else { return }
        try? FileBytes.write(data, to: path(sha256))
    }
}

extension [String: String] {
    /// For a map from each record to the record it names as its original: the records `path` names, then the ones they
    /// name, in order, each once (a ring ends the walk; `path` itself comes only when the names lead back to it).
    func originals(of path: String) -> [String] {
        var out: [String] = []
        var seen: Set<String> = [path]
        var next = self[path]
        while let n = next {
            out.append(n)
            guard seen.insert(n).inserted else { break }
            next = self[n]
        }
        return out
    }
}
