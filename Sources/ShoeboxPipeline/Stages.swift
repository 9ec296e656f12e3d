internal import Foundation
internal import Glibc
public import ShoeboxCore
internal import ShoeboxEngines

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
}

/// OCR: a gray page → words with boxes and confidences, through tesseract engines from the run's pool
/// (one per language set, made when first needed and shared by the workers).
public final class OCRStage {
    let config: PipelineConfig
    let engines: EnginePool

    init(config: PipelineConfig, engines: EnginePool) {
        self.config = config
        self.engines = engines
    }

    /// One pass over every page: text-layer pages as they are, image pages through tesseract, each rendered
    /// when its turn comes (and turned upright first when `turns` says so).
    func run(_ pages: PageSource, turns: [Int]?, pass: OCRPass) -> Result<[OCRPage], DocumentFailure> {
        // Each page's reading, in page order: read here, or handed to an idle worker (`help`) and awaited.
        enum Reading {
            case done(OCRPage)
            case helped(PageHelp.Task)
        }
        var readings: [Reading] = []
        var failure: DocumentFailure?
        for index in 0..<pages.count where failure == nil {
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
                if index + 1 < pages.count, let task = help?.offer(image, pass: pass) {
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
        do {
            read = try engines.use(pass.languages) { engine in
                engine.recognize(
                    image, scale: pass.scale, pageSegmentationMode: pass.pageSegmentationMode, adaptiveThreshold: pass.adaptiveThreshold,
                    timeout: config.pageTimeoutSeconds)
            }
        } catch { return .failure(.ocrFailed(error.message)) }
        return pass.scale != 1 ? read.map { $0.unscaled(by: pass.scale, width: image.width, height: image.height, dpi: image.dpi) } : read
    }

    /// The turn (clockwise degrees) that sets a page upright, when tesseract's OSD is sure enough of it.
    /// Measured on six SROIE receipts turned by 90°, 180° and 270°: OSD finds quarter turns with confidence
    /// 0.7–3 and half turns with 1.7–12 (one at 0.06), while it has called upright receipts "turned 180°" with
    /// up to 4. A wrong turn costs one pass and no accuracy: the turned reading is kept only when it reads
    /// better. So a quarter turn needs 0.5 and a half turn 1.5 (6 before: quarter turns went unturned).
    /// OSD reads a page halved until it is at most `osdMegapixels` (a 600-dpi A4 page at 150 dpi): the shapes of
    /// lines and letters it looks at show as well there, with a quarter of the pixels to threshold.
    func uprightCorrection(_ page: PageImage) -> Int {
        let image = PhaseCPU.measure("osd") { () -> PageImage in
            var image = page
            while Double(image.width * image.height) / 1e6 > OCRStage.osdMegapixels { image = image.halved() }
            return image
        }
        // Measured inside: loading the OSD engine counts as engine-load.
        guard let found = try? engines.use(["osd"], { engine in PhaseCPU.measure("osd") { engine.orientation(image) } }) ?? nil,
            found.confidence >= (found.degrees == 180 ? OCRStage.osdMinimumConfidence : OCRStage.osdSidewaysConfidence)
        else { return 0 }
        return found.degrees
    }

    static let osdMinimumConfidence = 1.5
    static let osdSidewaysConfidence = 0.5
    static let osdMegapixels = 4.0

    /// The languages to read a page in again once its language is known: the detected language first
    /// (tesseract's first language is its primary one: with English first, German umlauts come out as plain
    /// letters), then English. Nil when the first pass already used it.
    public func languagesAfterDetection(_ guess: LanguageGuess) -> [String]? {
        guard let detected = guess.language, guess.confidence >= 0.5, config.languages.contains(detected),
            config.firstPassLanguages.first != detected
        else { return nil }
        return [detected] + (detected == "eng" ? [] : ["eng"])
    }
}

/// One OCR pass: which languages, which segmentation mode, and an upscaling factor. Its name keys the OCR cache.
struct OCRPass: Hashable {
    let languages: [String]
    let pageSegmentationMode: Int
    var scale: Double = 1
    /// Pages turned upright first (tesseract OSD), for pages the first pass could hardly read.
    var upright = false
    /// Binarised with an adaptive threshold (for faint pages the first pass could hardly read).
    var adaptiveThreshold = false
    var name: String {
        "psm\(pageSegmentationMode)-\(languages.joined(separator: "+"))" + (scale == 1 ? "" : String(format: "-x%.2f", scale))
            + (upright ? "-upright" : "") + (adaptiveThreshold ? "-adaptive" : "")
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
    public func run(_ pages: [OCRPage], language: LanguageGuess) -> Extraction { parser.parse(pages: pages, language: language.language) }
}

/// Merge and route: one value per field, confidences, and accepted or review with reasons.
public struct MergeStage: Sendable {
    public let merger: RecordMerger
    public init(config: PipelineConfig) {
        merger = RecordMerger(acceptThreshold: config.acceptThreshold, requiredFields: config.requiredFields.compactMap(Field.init(rawValue:)))
    }
    public func run(_ extraction: Extraction, source: SourceFile, language: LanguageGuess, pages: Int, other: OtherSources) -> DocumentRecord {
        merger.merge(extraction, source: source, language: language, pages: pages, other: other)
    }

    /// A sidecar is a few lines of JSON: a larger one is not read.
    static let sidecarLimit = 1 << 20

    /// The document's other sources: the date in its file name, and its JSON sidecar (`<file>.json`) if any.
    public static func otherSources(of source: SourceFile, today: CalendarDay) -> OtherSources {
        var other = OtherSources(fileNameDate: OtherSources.date(inFileName: source.relativePath, today: today))
        let sidecarPath = source.path + ".json"
        // lstat, not fileExists: a link or a FIFO named like a sidecar is there, and is refused by name below.
        var info = stat()
        if lstat(sidecarPath, &info) == 0 {
            switch InputFile.readAll(sidecarPath, limit: MergeStage.sidecarLimit, tooLarge: { .fileTooLarge(bytes: $0, limitMegabytes: 1) }) {
            case .success(let bytes): other.sidecar = Sidecar.parse(bytes, today: today)
            case .failure(let f):
                var s = Sidecar()
                s.problems.append(
                    f.code == "file-too-large"
                        ? "the sidecar is larger than 1 MiB and was not read"
                        : "the sidecar cannot be read: \(f.message)")
                other.sidecar = s
            }
        }
        return other
    }
}

/// Runs the stages in order for one document. One per worker thread; its OCR engines come from the run's pool.
public final class DocumentProcessor {
    let render: RenderStage
    let ocr: OCRStage
    let language = LanguageStage()
    let parse: ParseStage
    let merge: MergeStage
    let config: PipelineConfig
    let today: CalendarDay
    let cache: OCRCache?

    /// Reasons that make a second OCR pass worth its time.
    static let uncertain: Set<ReviewReason> = [
        .missing(.total), .lowConfidence(.total), .ambiguous(.total), .missing(.date), .lowConfidence(.date), .ambiguous(.date),
        .missing(.merchant), .lowConfidence(.merchant), .missing(.currency), .arithmeticMismatch, .lowOCRConfidence
    ]

    /// `ocrCache`: a folder where the text of every page is kept by file content and OCR settings, so that
    /// parser work (`shoebox regress`) does not OCR the same pages again.
    /// `engines`: the run's shared tesseract engines (a pool of its own when nil).
    init(config: PipelineConfig, today: CalendarDay, ocrCache: String? = nil, engines: EnginePool? = nil) throws(PipelineError) {
        self.config = config
        self.today = today
        render = RenderStage(dpi: config.dpi, maxMegapixels: config.maxMegapixels)
        let pool: EnginePool
        if let engines { pool = engines } else { pool = try EnginePool(config: config) }
        ocr = OCRStage(config: config, engines: pool)
        parse = ParseStage(today: today)
        merge = MergeStage(config: config)
        cache = ocrCache.map { OCRCache(directory: $0, config: config) }
    }

    /// Reads a document: render, a first OCR pass, language detection (and a pass in the detected language when
    /// the first did not use it), parse, merge; then, only when a required field came out uncertain, a second
    /// pass with another page segmentation mode whose candidates join the first's. A total that no arithmetic
    /// confirms counts as uncertain too.
    public func process(_ source: SourceFile) -> DocumentOutcome {
        var reader = PassReader(source: source, processor: self)
        func failed(_ f: DocumentFailure) -> DocumentOutcome {
            reader.saveCache()
            return DocumentOutcome(
                record: .failed(source.relativePath, folder: source.folder, sha256: source.sha256, failure: f),
                size: source.size, kind: source.kind, pages: [])
        }
        let firstPass = OCRPass(languages: config.firstPassLanguages, pageSegmentationMode: config.pageSegmentationMode)
        var pages: [OCRPage]
        switch reader.read(firstPass) {
        case .success(let p): pages = p
        case .failure(let f): return failed(f)
        }
        var main = firstPass
        // A page the first pass could hardly read may be faint (thermal paper: binarise it adaptively) or lying
        // on its side (turn it upright with OSD). Each is read again, and kept when it reads better.
        if reader.hasImages, DocumentProcessor.mean(pages) < 60 || DocumentProcessor.words(pages) < 15 {
            let doubtful = Set(pages.indices.filter { DocumentProcessor.mayBeTurned(pages[$0]) })
            var faint = firstPass
            faint.adaptiveThreshold = true
            if case .success(let binarised) = reader.read(faint), DocumentProcessor.readability(binarised) > DocumentProcessor.readability(pages) {
                pages = binarised
                main = faint
            }
            var upright = main
            upright.upright = true
            if !doubtful.isEmpty, reader.needsTurning(doubtful), case .success(let turned) = reader.read(upright),
                DocumentProcessor.readability(turned) > DocumentProcessor.readability(pages)
            {
                pages = turned
                main = upright
            }
        }
        guard pages.contains(where: { $0.wordCount > 0 }) else { return failed(.noTextFound) }
        var guess = PhaseCPU.measure("language") { language.run(pages) }
        if reader.hasImages, let languages = ocr.languagesAfterDetection(guess) {
            var pass = OCRPass(languages: languages, pageSegmentationMode: config.pageSegmentationMode)
            pass.upright = main.upright
            pass.adaptiveThreshold = main.adaptiveThreshold
            if case .success(let second) = reader.read(pass), DocumentProcessor.mean(second) >= DocumentProcessor.mean(pages) - 1 {
                pages = second
                main = pass
                guess = LanguageGuess(language: guess.language, confidence: max(guess.confidence, language.run(pages).confidence))
            }
        }
        var extraction = PhaseCPU.measure("parse") { parse.run(pages, language: guess) }
        let other = MergeStage.otherSources(of: source, today: today)
        var record = merge.run(extraction, source: source, language: guess, pages: pages.count, other: other)
        // Further passes, each only while a required field is uncertain or the total unconfirmed: other page
        // segmentation modes, and small print scaled to ~30 px letters. Their candidates join the first's.
        var further = config.extraPassSegmentationModes.filter { $0 != main.pageSegmentationMode }
            .map { OCRPass(languages: main.languages, pageSegmentationMode: $0, upright: main.upright, adaptiveThreshold: main.adaptiveThreshold) }
        let largest = pages.map { Double($0.width * $0.height) / 1e6 }.max() ?? 0
        if let height = pages.first?.medianWordHeight,
            let factor = PageImage.upscaleFactor(textHeight: height, target: config.textHeightTarget, megapixels: largest)
        {
            further.insert(
                OCRPass(
                    languages: main.languages, pageSegmentationMode: main.pageSegmentationMode, scale: factor,
                    upright: main.upright, adaptiveThreshold: main.adaptiveThreshold),
                at: min(1, further.count))
        }
        for (index, pass) in further.enumerated() where reader.hasImages {
            guard !DocumentProcessor.uncertain.isDisjoint(with: record.reasons) || !extraction.totalConfirmed else { break }
            if index + 1 < further.count { reader.prefetch(further[index + 1]) }
            if case .success(let otherPages) = reader.read(pass) {
                extraction = extraction.union(
                    parse.run(otherPages, language: guess),
                    fields: DocumentProcessor.uncertainFields(record.reasons, totalConfirmed: extraction.totalConfirmed))
                record = merge.run(extraction, source: source, language: guess, pages: pages.count, other: other)
            }
        }
        let fingerprint = reader.fingerprint()
        reader.saveCache()
        return DocumentOutcome(
            record: record, size: source.size, kind: source.kind, pages: pages, extraction: extraction,
            fingerprint: fingerprint)
    }

    /// The fields a further pass may add candidates to: those the reasons call uncertain, and the total
    /// while no arithmetic or second reading confirms it.
    static func uncertainFields(_ reasons: [ReviewReason], totalConfirmed: Bool) -> Set<Field> {
        var fields: Set<Field> = totalConfirmed ? [] : [.total]
        for r in reasons {
            switch r {
            case .arithmeticMismatch: fields.insert(.total)
            case .lowOCRConfidence: fields.formUnion([.total, .date])
            // An inferred currency (`currencyInferred`) means no symbol was printed; another pass would only find stray ones.
            case .missing(let f), .lowConfidence(let f), .ambiguous(let f): if [.total, .date, .merchant, .currency].contains(f) { fields.insert(f) }
            default: break
            }
        }
        return fields
    }

    /// Whether a page's first reading looks like text read on its side or upside down: OSD is asked only then
    /// (it takes 0.3–0.4 s a page, as long as reading it). Six SROIE receipts turned by 90°, 180° and 270°
    /// read at a mean word confidence of 27–42; the bench's upright pages too faint to read well, at 49–59.
    /// A page with almost no words is asked about too.
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
}

/// Reads one document's passes: from the OCR cache when it has them, else rendering the file once and
/// running tesseract; new passes are written back to the cache at the end.
struct PassReader {
    let source: SourceFile
    let processor: DocumentProcessor
    private var pages: PageSource?
    private var cached: TextOfDocument?
    private var dirty = false
    /// Passes handed to an idle worker ahead of need, by name.
    private var prefetched: [String: PageHelp.Task] = [:]
    /// Whether some page is an image (a text-layer PDF needs no OCR pass at all).
    private(set) var hasImages = true

    init(source: SourceFile, processor: DocumentProcessor) {
        self.source = source
        self.processor = processor
        cached = PhaseCPU.measure("cache") { processor.cache?.load(sha256: source.sha256) }
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
            turns.append(processor.ocr.uprightCorrection(image))
        }
        var c = cached ?? TextOfDocument(passes: [:], hasImages: hasImages)
        c.turns = turns
        cached = c
        dirty = true
        return turns.contains { $0 != 0 }
    }

    private mutating func ensureOpened() -> DocumentFailure? {
        guard pages == nil else { return nil }
        let bytes: [UInt8]
        switch IntakeStage.read(source.path, limitMegabytes: processor.config.maxFileMegabytes) {
        case .success(let b): bytes = b
        case .failure(let f): return f
        }
        // The bytes read now must be the bytes intake hashed: a file still being written is not read half-way.
        guard PhaseCPU.measure("hash", { SHA256.hex(of: bytes) }) == source.sha256 else { return .changedWhileRead }
        switch PhaseCPU.measure("render", { PageSource.open(source, bytes: bytes, render: processor.render) }) {
        case .success(let p): pages = p
        case .failure(let f): return f
        }
        hasImages = pages!.hasImages
        return nil
    }

    /// The first page's fingerprint: from the cache when the document was read from it, else from the
    /// rendered image (and then kept in the cache); nil for a text-layer page.
    mutating func fingerprint() -> PageFingerprint? {
        if let f = cached?.fingerprint { return f }
        guard let pages, case .success(.image(let image)) = pages.page(0) else { return nil }
        let f = PhaseCPU.measure("fingerprint") { PageFingerprint(image) }
        if var c = cached {
            c.fingerprint = f
            cached = c
            dirty = true
        }
        return f
    }

    /// Near the end of a run a worker may have nothing left to read while this one still reads a one-page
    /// document pass after pass. The next pass is then handed to it, to be read meanwhile: used if the fields
    /// are still uncertain after this pass, dropped otherwise (it cost only a core that was idle).
    mutating func prefetch(_ pass: OCRPass) {
        guard let help = processor.ocr.help, help.hasIdleWorker, cached?.passes[pass.name] == nil, prefetched[pass.name] == nil,
            !pass.upright || cached?.turns != nil, ensureOpened() == nil, let pages, pages.count == 1,
            case .success(.image(let rendered)) = pages.page(0)
        else { return }
        let turn = pass.upright ? cached?.turns?.first ?? 0 : 0
        if let task = help.offer(turn == 0 ? rendered : rendered.rotated(clockwise: turn), pass: pass) { prefetched[pass.name] = task }
    }

    mutating func read(_ pass: OCRPass) -> Result<[OCRPage], DocumentFailure> {
        if let pages = cached?.passes[pass.name] { return .success(pages) }
        if let f = ensureOpened() { return .failure(f) }
        if pass.upright && cached?.turns == nil { _ = needsTurning() }
        let turns = pass.upright ? cached?.turns : nil
        let result = prefetched.removeValue(forKey: pass.name).map { $0.wait().map { [$0] } } ?? processor.ocr.run(pages!, turns: turns, pass: pass)
        if case .success(let pages) = result {
            var c = cached ?? TextOfDocument(passes: [:], hasImages: hasImages)
            c.passes[pass.name] = pages
            cached = c
            dirty = true
        }
        return result
    }

    func saveCache() {
        if dirty, let c = cached { PhaseCPU.measure("cache") { processor.cache?.store(c, sha256: source.sha256) } }
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
        try? data.write(to: URL(fileURLWithPath: path(sha256)), options: .atomic)
    }
}
