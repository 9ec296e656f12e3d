internal import Foundation
internal import PPOCR
public import ShoeboxCore

/// A second reader of text lines: given a page and a line's box, the line read again, as words with boxes in
/// page pixels. The pipeline's `SecondReading` stage decides which lines; `PPOCRLineReader` is PP-OCRv4's.
/// One reader may be used by several threads at once.
public protocol LineRecognizer: AnyObject, Sendable {
    /// Names the reader and its version in provenance, the OCR cache key and `--version` ("PP-OCRv4 rec, ONNX Runtime 1.32.0").
    var name: String { get }
    /// The line in `box` of `image`, read again; nil when nothing was read. `confidence` of its words is 0–100.
    func read(_ image: PageImage, box: BoundingBox) -> OCRLine?
}

/// PaddleOCR's PP-OCRv4 recognition model run in process by ONNX Runtime's C API (the PPOCR C target), with one
/// intra-op thread: `--jobs` stays the one knob for parallelism. The parts are installed by `make setup`
/// (readers/install.sh) into `PPOCRLineReader.directory`; without them Shoebox reads with tesseract alone.
public final class PPOCRLineReader: LineRecognizer, @unchecked Sendable {
    private let handle: OpaquePointer
    public let name: String
    /// The model's classes: "" for the CTC blank at 0, one character each, " " last.
    private let classes: [String]

    /// Where the parts are: `$SHOEBOX_READERS`, else /usr/local/lib/shoebox (where `make setup` puts them).
    public static var directory: String {
        ProcessInfo.processInfo.environment["SHOEBOX_READERS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/lib/shoebox"
    }
    public static let libraryFile = "libonnxruntime.so.1.32.0"
    public static let modelFile = "ch_PP-OCRv4_rec_infer.onnx"

    /// The process's reader, opened once from `directory`; its failure says why (parts missing, not loadable).
    public static let shared: Result<PPOCRLineReader, OCREngineError> = open(directory: directory)

    public static func open(directory: String) -> Result<PPOCRLineReader, OCREngineError> {
        let library = "\(directory)/\(libraryFile)"
        let model = "\(directory)/\(modelFile)"
        for path in [library, model] where !FileManager.default.fileExists(atPath: path) {
            return .failure(OCREngineError(message: "its parts are not installed: \(path) is missing (run `make setup`, or set SHOEBOX_READERS)"))
        }
        var error = [CChar](repeating: 0, count: 512)
        guard let handle = ppocr_open(library, model, &error, error.count) else {
            let why = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(OCREngineError(message: "it could not start: \(why)"))
        }
        return .success(PPOCRLineReader(handle: handle))
    }

    private init(handle: OpaquePointer) {
        self.handle = handle
        classes = (0..<ppocr_class_count(handle)).map { String(cString: ppocr_class_text(handle, $0)) }
        name = "PP-OCRv4 rec, ONNX Runtime \(String(cString: ppocr_runtime_version()))"
    }

    deinit { ppocr_close(handle) }

    /// Frames (8 scaled columns each) between two characters from which a space is put between them: the model
    /// drops the space of a wide gap ("SUMME16,04"); 5 frames is the gap rapidocr's word boxes split at.
    static let spaceFrames = 5

    public func read(_ image: PageImage, box: BoundingBox) -> OCRLine? {
        // The box with a margin: tesseract's boxes hug the ink, the model was trained on looser crops.
        let pad = max(2, box.height / 5)
        let left = max(0, box.left - pad)
        let top = max(0, box.top - pad)
        let right = min(image.width, box.right + pad)
        let bottom = min(image.height, box.bottom + pad)
        guard right - left >= 4, bottom - top >= 4 else { return nil }
        var glyphs = [ppocr_glyph](repeating: ppocr_glyph(), count: 512)
        var scaledWidth: Int32 = 0
        var error = [CChar](repeating: 0, count: 256)
        let count = image.gray.withUnsafeBufferPointer { pixels in
            ppocr_read_line(
                handle, pixels.baseAddress! + top * image.width + left, Int32(right - left), Int32(bottom - top), Int32(image.width),
                &glyphs, Int32(glyphs.count), &scaledWidth, &error, error.count)
        }
        guard count > 0, scaledWidth > 0 else { return nil }
        // Page columns per scaled column.
        let perColumn = Double(right - left) / Double(scaledWidth)
        func column(_ frame: Int32) -> Int { left + Int((Double(frame) * 8 * perColumn).rounded()) }
        var words: [OCRWord] = []
        var text = ""
        var probabilities: [Double] = []
        var first: Int32 = 0
        var last: Int32 = 0
        func finish() {
            let word = text.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
            if !word.isEmpty, !probabilities.isEmpty {
                let confidence = 100 * probabilities.reduce(0, +) / Double(probabilities.count)
                let wordBox = BoundingBox(left: column(first), top: box.top, right: min(right, column(last + 1)), bottom: box.bottom)
                // NFKC may split a full-width "1，2" into more than one token: each keeps the word's box.
                for part in word.split(separator: " ") {
                    words.append(OCRWord(text: String(part), box: wordBox, confidence: confidence))
                }
            }
            text = ""
            probabilities = []
        }
        for glyph in glyphs.prefix(Int(min(count, Int32(glyphs.count)))) {
            let character = glyph.klass >= 0 && Int(glyph.klass) < classes.count ? classes[Int(glyph.klass)] : ""
            if character == " " || (!text.isEmpty && glyph.frame - last >= Int32(Self.spaceFrames)) { finish() }
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
