internal import Foundation
public import ShoeboxCore
internal import ShoeboxEngines

/// Render: a source file → its pages, each either real text from the PDF text layer or a gray image to OCR.
public struct RenderStage: Sendable {
    public let dpi: Int
    public let maxMegapixels: Int

    public init(dpi: Int, maxMegapixels: Int) { self.dpi = dpi; self.maxMegapixels = maxMegapixels }

    public func run(_ source: SourceFile, bytes: [UInt8]) -> Result<[RenderedPage], DocumentFailure> {
        switch source.kind {
        case .pdf:
            guard FileKind.isComplete(bytes, kind: .pdf) else { return .failure(.truncatedPDF()) }
            let pdf: PDFRenderer
            do { pdf = try PDFRenderer(bytes: bytes) } catch { return .failure(error) }
            guard pdf.pageCount > 0 else { return .failure(.noPages) }
            var pages: [RenderedPage] = []
            for index in 0..<pdf.pageCount {
                if let text = pdf.textLayer(page: index, dpi: dpi), RenderStage.isRealText(text) {
                    pages.append(.text(text))
                    continue
                }
                switch pdf.render(page: index, dpi: dpi, maxMegapixels: maxMegapixels) {
                case .success(let image): pages.append(.image(image))
                case .failure(let f): return .failure(f)
                }
            }
            return .success(pages)
        case .jpeg, .png, .tiff:
            return ImageLoader.load(bytes, kind: source.kind, maxMegapixels: maxMegapixels).map { $0.map(RenderedPage.image) }
        }
    }

    /// A text layer counts when it has a few words made mostly of letters and digits.
    static func isRealText(_ page: OCRPage) -> Bool {
        let words = page.lines.flatMap(\.words)
        guard words.count >= 5 else { return false }
        let clean = words.filter { w in
            let good = w.text.filter { $0.isLetter || $0.isNumber || ".,:-/€$£%".contains($0) }.count
            return Double(good) >= Double(w.text.count) * 0.7
        }
        return Double(clean.count) >= Double(words.count) * 0.7
    }
}

/// OCR: a gray page → words with boxes and confidences, through the worker's own tesseract engines
/// (one per language set, created when first needed and kept for the worker's life).
public final class OCRStage {
    let config: PipelineConfig
    private var engines: [String: OCREngine] = [:]

    public init(config: PipelineConfig) throws(PipelineError) {
        self.config = config
        _ = try engine(for: config.languages)
    }

    func engine(for languages: [String]) throws(PipelineError) -> OCREngine {
        let key = languages.joined(separator: "+")
        if let e = engines[key] { return e }
        do {
            let e = try OCREngine(languages: languages, pageSegmentationMode: config.pageSegmentationMode)
            engines[key] = e
            return e
        } catch {
            throw PipelineError(code: .engine, message: error.message)
        }
    }

    public func run(_ page: RenderedPage, languages: [String]? = nil) -> Result<OCRPage, DocumentFailure> {
        switch page {
        case .text(let text): return .success(text)
        case .image(let image):
            do { return try engine(for: languages ?? config.languages).recognize(image) } catch {
                return .failure(.ocrFailed(error.message))
            }
        }
    }

    /// The language order for a second pass: the detected language first (tesseract's first language is its
    /// primary one: with English first, German umlauts come out as plain letters), then the others.
    /// Nil when no second pass is needed.
    public func secondPassLanguages(for guess: LanguageGuess) -> [String]? {
        guard let detected = guess.language, guess.confidence >= 0.5, config.languages.contains(detected),
              config.languages.first != detected else { return nil }
        return [detected] + config.languages.filter { $0 != detected }
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
        merger = RecordMerger(acceptThreshold: config.acceptThreshold, requiredFields: config.requiredFields)
    }
    public func run(_ extraction: Extraction, source: SourceFile, language: LanguageGuess, pages: Int) -> DocumentRecord {
        merger.merge(extraction, source: source, language: language, pages: pages)
    }
}

/// Runs the stages in order for one document. One per worker thread: it owns that worker's OCR engine.
public final class DocumentProcessor {
    let render: RenderStage
    let ocr: OCRStage
    let language = LanguageStage()
    let parse: ParseStage
    let merge: MergeStage
    let cache: OCRCache?

    /// `ocrCache`: a folder where the text of every page is kept by file content and OCR settings, so that
    /// parser work (`shoebox regress`) does not OCR the same pages again.
    public init(config: PipelineConfig, today: CalendarDay, ocrCache: String? = nil) throws(PipelineError) {
        render = RenderStage(dpi: config.dpi, maxMegapixels: config.maxMegapixels)
        ocr = try OCRStage(config: config)
        parse = ParseStage(today: today)
        merge = MergeStage(config: config)
        cache = ocrCache.map { OCRCache(directory: $0, config: config) }
    }

    public func process(_ source: SourceFile) -> DocumentOutcome {
        let read: Result<TextOfDocument, DocumentFailure>
        if let cached = cache?.load(sha256: source.sha256) {
            read = .success(cached)
        } else {
            read = readText(source)
            if case .success(let text) = read { cache?.store(text, sha256: source.sha256) }
        }
        switch read {
        case .failure(let f):
            return DocumentOutcome(record: .failed(source.relativePath, folder: source.folder, sha256: source.sha256, failure: f),
                                   size: source.size, kind: source.kind, pages: [])
        case .success(let text):
            let extraction = parse.run(text.pages, language: text.language)
            let record = merge.run(extraction, source: source, language: text.language, pages: text.pages.count)
            return DocumentOutcome(record: record, size: source.size, kind: source.kind, pages: text.pages, extraction: extraction)
        }
    }

    /// Render, OCR and language: the text of every page and the language it is in.
    func readText(_ source: SourceFile) -> Result<TextOfDocument, DocumentFailure> {
        let bytes: [UInt8]
        switch IntakeStage.read(source.path) {
        case .success(let b): bytes = b
        case .failure(let f): return .failure(f)
        }
        let rendered: [RenderedPage]
        switch render.run(source, bytes: bytes) {
        case .success(let r): rendered = r
        case .failure(let f): return .failure(f)
        }
        var pages: [OCRPage] = []
        for page in rendered {
            switch ocr.run(page) {
            case .success(let p): pages.append(p)
            case .failure(let f): return .failure(f)
            }
        }
        guard pages.contains(where: { $0.wordCount > 0 }) else { return .failure(.noTextFound) }
        var guess = language.run(pages)
        // Language stage: re-OCR image pages with the detected language first; keep the pass that scores better.
        if let languages = ocr.secondPassLanguages(for: guess), rendered.contains(where: { if case .image = $0 { return true }; return false }) {
            var second: [OCRPage] = []
            for page in rendered {
                guard case .success(let p) = ocr.run(page, languages: languages) else { second = []; break }
                second.append(p)
            }
            let mean = { (ps: [OCRPage]) in ps.map(\.meanConfidence).reduce(0, +) / Double(max(1, ps.count)) }
            if !second.isEmpty && mean(second) >= mean(pages) - 1 {
                pages = second
                guess = LanguageGuess(language: guess.language, confidence: max(guess.confidence, language.run(pages).confidence))
            }
        }
        return .success(TextOfDocument(pages: pages, language: guess))
    }
}

/// The text of a document's pages and its language: what the reading stages hand to the parser.
public struct TextOfDocument: Sendable, Codable {
    public let pages: [OCRPage]
    public let language: LanguageGuess
}

/// A folder of `TextOfDocument` JSON files, keyed by the file's sha256 and a digest of every setting that
/// changes what OCR reads (dpi, languages, segmentation mode, and `OCRCache.readerVersion`).
struct OCRCache {
    /// Bump when rendering, preparation or OCR code changes what is read, so old entries are not used.
    static let readerVersion = 2
    let directory: String
    let key: String

    init(directory: String, config: PipelineConfig) {
        self.directory = directory
        let settings = "v\(OCRCache.readerVersion) dpi\(config.dpi) \(config.languages.joined(separator: "+")) psm\(config.pageSegmentationMode)"
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
