internal import Foundation
internal import Glibc
internal import PPOCR
public import ShoeboxCore

/// A second reader of text lines: given a page and a line's box, the line read again, as words with boxes in
/// page pixels. The pipeline's `SecondReading` stage decides which lines; `PPOCRLineReader` is PP-OCRv4's.
/// One reader may be used by several threads at once.
public protocol LineRecognizer: AnyObject, Sendable {
    /// Names the reader and its version in provenance, the OCR cache key and `--version` ("PP-OCRv4 rec folded, ONNX Runtime 1.32.0").
    var name: String { get }
    /// The line of `image` made of `spans` (boxes left to right on one line: runs of words, the wide gaps between
    /// them left out), read again; nil when nothing was read. The words' boxes are in page pixels, their
    /// `confidence` 0–100.
    /// `breaks`: page columns where the first reader saw a gap between two words: a space there, as the second
    /// reader drops the spaces of tightly printed text ("SDNBHD").
    func read(_ image: PageImage, spans: [BoundingBox], breaks: [Int]) -> OCRLine?
    /// Whether it can write ß, umlauts, accents, € and £: then its words stand on German, French and Spanish pages
    /// as on English ones (else tesseract's letters stay there).
    var readsLatinLetters: Bool { get }
}

extension LineRecognizer {
    public var readsLatinLetters: Bool { false }
}

/// A recognition model the second reader can run: its file in the readers folder (`make setup` installs each with
/// its class list in its metadata) and its name in provenance, the OCR cache key and `--version`.
public struct RecognitionModel: Sendable, Equatable {
    public let file: String
    public let name: String

    public init(file: String, name: String) {
        self.file = file
        self.name = name
    }

    /// PP-OCRv6 tiny: about a third of PP-OCRv4's cost a line, with ß, umlauts, accents, € and £ among its 6,904
    /// characters, but as the second reader it read fewer merchants and dates right on the devset than PP-OCRv4
    /// (docs/second-reader.md, `make bench-readers`): installed for measuring, not read by default.
    public static let v6Tiny = RecognitionModel(file: "PP-OCRv6_tiny_rec.onnx", name: "PP-OCRv6 tiny rec")
    /// PP-OCRv6 small: the strongest measured, at about 1.5 times PP-OCRv4's cost a line; as the second reader it read
    /// every field on the devset at least as well as PP-OCRv4, and ß, umlauts, accents, € and £ are among its
    /// 18,708 characters. The default.
    public static let v6Small = RecognitionModel(file: "PP-OCRv6_small_rec.onnx", name: "PP-OCRv6 small rec")
    /// PP-OCRv4, folded by readers/fold_model.py: the reader before PP-OCRv6, kept as the fallback.
    public static let v4 = RecognitionModel(file: "ch_PP-OCRv4_rec_folded.onnx", name: "PP-OCRv4 rec folded")
    /// PP-OCRv4 as the wheel has it, from which `v4` is folded; read only by the tests that hold the two alike.
    public static let v4Wheel = RecognitionModel(file: "ch_PP-OCRv4_rec_infer.onnx", name: "PP-OCRv4 rec")

    public static let known = [v6Tiny, v6Small, v4, v4Wheel]
    /// The models a run reads with, in the order it prefers them: the first installed one reads.
    public static let preferred = [v6Small, v4]
}

/// PaddleOCR's recognition model (PP-OCRv6 small, or PP-OCRv4 where only it is installed) run in process by ONNX
/// Runtime's C API (the PPOCR C target), with one intra-op thread: `--jobs` stays the one knob for parallelism. The
/// parts are installed by `make setup` (readers/install.sh) into `PPOCRLineReader.directory`; without them Shoebox
/// reads with tesseract alone. `SHOEBOX_READER_MODEL` names another installed model's file, for measuring
/// (`make bench-readers`, `make regress-dev`).
public final class PPOCRLineReader: LineRecognizer, @unchecked Sendable {
    private let handle: OpaquePointer
    public let name: String
    public let model: RecognitionModel
    /// The model's classes: "" for the CTC blank at 0, one character each, " " last.
    private let classes: [String]
    /// Whether the model can write the letters German, French and Spanish print (ß ä ö ü é è à ç ñ) and € £: then
    /// its words stand on those pages as on English ones.
    public let readsLatinLetters: Bool
    public static let latinLetters = ["ß", "ä", "ö", "ü", "é", "è", "à", "ç", "ñ", "€", "£"]
    /// How many classes the model has, the CTC blank and the space among them.
    public var classCount: Int { classes.count }
    /// Whether `character` is one of the model's classes.
    public func emits(_ character: String) -> Bool { classes.contains(character) }

    /// Where the parts are: `$SHOEBOX_READERS`, else /usr/local/lib/shoebox (where `make setup` puts them).
    public static var directory: String {
        ProcessInfo.processInfo.environment["SHOEBOX_READERS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/lib/shoebox"
    }
    public static let libraryFile = "libonnxruntime.so.1.32.0"

    /// The model a run reads with from `directory`: the one `SHOEBOX_READER_MODEL` names (a file of
    /// `RecognitionModel.known`), else the first of `RecognitionModel.preferred` that is there (an older install
    /// has PP-OCRv4 alone), else the first preferred (whose absence `unusable` then names).
    public static func model(in directory: String = directory) -> RecognitionModel {
        if let named = ProcessInfo.processInfo.environment["SHOEBOX_READER_MODEL"], !named.isEmpty,
            let model = RecognitionModel.known.first(where: { $0.file == named })
        {
            return model
        }
        // Only a model that is not there at all makes way for the next: one that is there but broken is named.
        return RecognitionModel.preferred.first { model in
            var info = stat()
            return lstat("\(directory)/\(model.file)", &info) == 0 || errno != ENOENT
        } ?? RecognitionModel.preferred[0]
    }

    /// A `SHOEBOX_READER_MODEL` that names no model Shoebox knows: the second reader is then not used, and this says
    /// why (a misspelt name is never read past in silence).
    public static var misnamedModel: OCREngineError? {
        guard let named = ProcessInfo.processInfo.environment["SHOEBOX_READER_MODEL"], !named.isEmpty,
            !RecognitionModel.known.contains(where: { $0.file == named })
        else { return nil }
        let files = RecognitionModel.known.map(\.file).joined(separator: ", ")
        return OCREngineError(
            message:
                "SHOEBOX_READER_MODEL names \"\(named.prefix(200))\", which is none of the models Shoebox reads (\(files)): unset it, or name one of them"
        )
    }

    /// The recognition model's file a run reads with (`model(in:)`).
    public static var modelFile: String { model().file }

    /// What the settings of a run name when the parts are installed in `directory` (nil when not), found without
    /// loading them: a run that reads no page does not pay for ONNX Runtime. All three parts (the library and both
    /// models) must be usable files (`ReaderPart`), and all three are named.
    public static func installed(in directory: String = directory) -> String? {
        unusable(in: directory) == nil ? [libraryFile, model(in: directory).file, PPOCRTextDetector.modelFile].joined(separator: " ") : nil
    }

    /// Why the parts in `directory` cannot make the second reader, found without loading them: the first of the
    /// library, the recognition and the detection model that is missing or not a usable file. Nil when all are.
    public static func unusable(in directory: String = directory) -> OCREngineError? {
        if let why = misnamedModel { return why }
        let parts = [
            (libraryFile, ReaderPart.maxLibraryBytes), (model(in: directory).file, ReaderPart.maxModelBytes),
            (PPOCRTextDetector.modelFile, ReaderPart.maxModelBytes)
        ]
        for (file, bound) in parts {
            if let why = ReaderPart.check("\(directory)/\(file)", maxBytes: bound) { return why }
        }
        return nil
    }

    /// The process's reader, opened once from `directory`; its failure says why (parts missing, not loadable).
    public static let shared: Result<PPOCRLineReader, OCREngineError> = open(directory: directory)

    public static func open(directory: String, model: RecognitionModel? = nil) -> Result<PPOCRLineReader, OCREngineError> {
        if model == nil, let why = misnamedModel { return .failure(why) }
        let model = model ?? self.model(in: directory)
        return openPart(directory: directory, model: model.file, with: ppocr_open).map { PPOCRLineReader(handle: $0, model: model) }
    }

    /// Opens ONNX Runtime and `model` from `directory` with `opener` (the reader's or the detector's C function):
    /// the handle, or a sentence naming the missing or unusable file or why it could not start. Both files are
    /// checked first (`ReaderPart`: a FIFO, a folder, a link, an empty or oversize file is refused unopened), and the
    /// model is handed over as the bytes read through the descriptor that was checked.
    static func openPart(
        directory: String, model: String,
        with opener: (UnsafePointer<CChar>, UnsafeRawPointer, Int, UnsafeMutablePointer<CChar>, Int) -> OpaquePointer?
    ) -> Result<OpaquePointer, OCREngineError> {
        let library = "\(directory)/\(libraryFile)"
        // The library is checked, then loaded by path (dlopen takes no descriptor): a part swapped for a FIFO in
        // between is the one race left, and only for whoever may write the readers folder.
        if let why = ReaderPart.check(library, maxBytes: ReaderPart.maxLibraryBytes) { return .failure(why) }
        let bytes: [UInt8]
        switch ReaderPart.read("\(directory)/\(model)", maxBytes: ReaderPart.maxModelBytes) {
        case .success(let read): bytes = read
        case .failure(let why): return .failure(why)
        }
        var error = [CChar](repeating: 0, count: 512)
        let opened = bytes.withUnsafeBytes { model in opener(library, model.baseAddress!, model.count, &error, error.count) }
        guard let handle = opened else {
            let why = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(OCREngineError(message: "it could not start: \(why)"))
        }
        return .success(handle)
    }

    private init(handle: OpaquePointer, model: RecognitionModel) {
        self.handle = handle
        self.model = model
        classes = (0..<ppocr_class_count(handle)).map { String(cString: ppocr_class_text(handle, $0)) }
        readsLatinLetters = Set(Self.latinLetters).isSubset(of: Set(classes))
        name = "\(model.name), ONNX Runtime \(String(cString: ppocr_runtime_version()))"
    }

    deinit { ppocr_close(handle) }

    /// Frames (8 scaled columns each) between two characters from which a space is put between them: the model
    /// drops the space of a wide gap ("SUMME16,04"); 5 frames is the gap rapidocr's word boxes split at.
    static let spaceFrames = 5

    public func read(_ image: PageImage, box: BoundingBox) -> OCRLine? { read(image, spans: [box], breaks: []) }

    /// One line given as its spans left to right (runs of words with wide gaps between them: a label and its
    /// amount). The spans are cut with a margin, at the line's full height, and set side by side with a gap of one
    /// line height: the blank stretches of a receipt line cost nothing, and the gap still reads as a space.
    public func read(_ image: PageImage, spans given: [BoundingBox], breaks: [Int]) -> OCRLine? {
        guard let head = given.first else { return nil }
        let line = given.dropFirst().reduce(head) { $0.union($1) }
        // Tesseract's boxes hug the ink, and miss the ends of words it misread; the model was trained on looser crops.
        let pad = max(2, line.height / 5)
        let side = max(4, line.height)
        let top = max(0, line.top - pad)
        let bottom = min(image.height, line.bottom + pad)
        let height = bottom - top
        guard height >= 4 else { return nil }
        // Each span's columns in the page, and where it starts in the strip.
        var spans: [(left: Int, right: Int, at: Int)] = []
        var width = 0
        for span in given.sorted(by: { $0.left < $1.left }) {
            let left = max(0, span.left - side, spans.last?.right ?? 0)
            let right = min(image.width, span.right + side)
            guard right > left else { continue }
            if !spans.isEmpty { width += height }
            spans.append((left, right, width))
            width += right - left
        }
        // A "line" as tall or as long as a page (a logo tesseract took for one) is no line: bounded at 16 megapixels.
        guard width >= 4, width <= 200_000, width * height <= 16_000_000 else { return nil }
        var strip = [UInt8](repeating: 255, count: width * height)
        image.gray.withUnsafeBufferPointer { page in
            strip.withUnsafeMutableBufferPointer { out in
                for span in spans {
                    for y in 0..<height {
                        let from = page.baseAddress! + (top + y) * image.width + span.left
                        (out.baseAddress! + y * width + span.at).update(from: from, count: span.right - span.left)
                    }
                }
            }
        }
        var glyphs = [ppocr_glyph](repeating: ppocr_glyph(), count: 512)
        var scaledWidth: Int32 = 0
        var error = [CChar](repeating: 0, count: 256)
        let count = strip.withUnsafeBufferPointer { pixels in
            ppocr_read_line(
                handle, pixels.baseAddress!, Int32(width), Int32(height), Int32(width), &glyphs, Int32(glyphs.count), &scaledWidth, &error,
                error.count)
        }
        guard count > 0, scaledWidth > 0 else { return nil }
        // Strip columns per scaled column, and a frame's column in the page (a gap's frames belong to the span after it).
        let perColumn = Double(width) / Double(scaledWidth)
        func column(_ frame: Int32) -> Int {
            let x = Int((Double(frame) * 8 * perColumn).rounded())
            let span = spans.last { $0.at <= x } ?? spans[0]
            return min(span.right, span.left + max(0, x - span.at))
        }
        var words: [OCRWord] = []
        var text = ""
        var probabilities: [Double] = []
        var first: Int32 = 0
        var last: Int32 = 0
        func finish() {
            let word = text.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
            if !word.isEmpty, !probabilities.isEmpty {
                let confidence = 100 * probabilities.reduce(0, +) / Double(probabilities.count)
                let from = column(first)
                let wordBox = BoundingBox(left: from, top: line.top, right: max(from + 1, column(last + 1)), bottom: line.bottom)
                // NFKC may split a full-width "1，2" into more than one token: each keeps the word's box.
                for part in word.split(separator: " ") {
                    words.append(OCRWord(text: String(part), box: wordBox, confidence: confidence))
                }
            }
            text = ""
            probabilities = []
        }
        let read = Array(glyphs.prefix(Int(min(count, Int32(glyphs.count)))))
        // The space rule measures from one character's frame to the next, a pitch: wide or letter-spaced print (a
        // shop's name in the head) has pitches past 5 frames within a word. The gap must stand out from the
        // line's usual pitch as well.
        let pitches = zip(read, read.dropFirst()).map { $1.frame - $0.frame }.sorted()
        let usual = pitches.isEmpty ? 0 : pitches[pitches.count / 2]
        let spaceAt = max(Int32(Self.spaceFrames), (usual * 8 + 4) / 5)
        for glyph in read {
            let character = glyph.klass >= 0 && Int(glyph.klass) < classes.count ? classes[Int(glyph.klass)] : ""
            let from = column(last)
            let to = column(glyph.frame)
            let gap = breaks.contains { from < $0 && $0 <= to }
            if character == " " || (!text.isEmpty && (glyph.frame - last >= spaceAt || gap)) { finish() }
            if character == " " { continue }
            if text.isEmpty { first = glyph.frame }
            text += character
            probabilities.append(Double(glyph.probability))
            last = glyph.frame
        }
        finish()
        return words.isEmpty ? nil : OCRLine(words: words)
    }
}
