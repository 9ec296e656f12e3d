internal import CLeptonica
internal import CTesseract
internal import Foundation
public import ShoeboxCore
internal import ShoeboxImaging
internal import TesseractPatches

/// Why an OCR engine could not start: a setup problem, not a problem of one document.
public struct OCREngineError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}

/// What the OCR stage needs of an engine: one gray page read with a pass's settings within a timeout, and the
/// orientation of a page. `OCREngine` is tesseract's; the tests hand the pipeline engines that fail a page,
/// run past the timeout or read garbage. An engine is used by one thread at a time (the run's pool sees to it).
public protocol PageRecognizer: AnyObject, Sendable {
    /// The page's words, or why it could not be read (`DocumentFailure.pageTimeout` past `timeout` seconds).
    func recognize(
        _ image: PageImage, scale: Double, pageSegmentationMode: Int?, adaptiveThreshold: Bool, timeout: Double?, cpu: PhaseCPU?
    ) -> Result<OCRPage, DocumentFailure>
    /// The clockwise turn in degrees that sets the page upright, and how sure of it the engine is; nil: it cannot tell.
    func orientation(_ image: PageImage) -> (degrees: Int, confidence: Double)?
}

/// One tesseract engine (C API). Used by one thread at a time: the run's engine pool hands it from worker to worker.
/// Lifecycle per capi.h: Create → Init3 → (SetImage → SetSourceResolution → Recognize → read → Clear)* → End → Delete.
public final class OCREngine: PageRecognizer, @unchecked Sendable {
    private var handle: OpaquePointer?
    public let languages: String

    /// Debian's tessdata folder, used when TESSDATA_PREFIX is not set.
    public static let defaultDataPath = "/usr/share/tesseract-ocr/5/tessdata"

    public init(languages: [String], pageSegmentationMode: Int) throws(OCREngineError) {
        let dataPath = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"] ?? OCREngine.defaultDataPath
        for lang in languages where !FileManager.default.fileExists(atPath: "\(dataPath)/\(lang).traineddata") {
            throw OCREngineError(
                message:
                    "tesseract language data '\(lang)' is missing in \(dataPath). Install it: apt-get install -y tesseract-ocr-\(lang) (or run `make setup`)."
            )
        }
        _ = ImageLoader.silenced
        self.languages = languages.joined(separator: "+")
        guard let api = TessBaseAPICreate() else { throw OCREngineError(message: "tesseract could not create an engine (out of memory?)") }
        guard TesseractPatchCheck.load(api, dataPath: dataPath, languages: languages) else {
            TessBaseAPIDelete(api)
            throw OCREngineError(
                message:
                    "tesseract could not load '\(self.languages)' from \(dataPath). Reinstall the language packages: apt-get install --reinstall tesseract-ocr-eng."
            )
        }
        // Tesseract's diagnostics ("Detected 8 diacritics") would clutter stderr: send them nowhere.
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        TessBaseAPISetPageSegMode(api, TessPageSegMode(UInt32(pageSegmentationMode)))
        handle = api
    }

    deinit {
        if let handle {
            TessBaseAPIEnd(handle)
            TessBaseAPIDelete(handle)
        }
    }

    /// Recognises one gray page: words with boxes and confidences, grouped into physical lines top to bottom.
    /// `pageSegmentationMode`: this call's mode (6 a uniform block, 3 automatic layout, …); nil keeps the engine's.
    /// `adaptiveThreshold`: binarise with leptonica's adaptive (tiled) Otsu instead of one global threshold.
    /// On faint thermal paper with one dark line (a printed-over number), the global threshold can drop all
    /// the faint text; the tiled one keeps it. It reads clean pages no better, so it is for pages that failed.
    /// `timeout`: seconds after which tesseract is told to stop (its monitor's deadline); the page then fails as
    /// page-timeout.
    /// `scale`: the page is read scaled by this factor, scaled row by row on its way into tesseract's image;
    /// the words' boxes are those of the scaled page, and so are the width, height and dpi of the result.
    /// `cpu`: the run's phase counters, if any.
    public func recognize(
        _ image: PageImage, scale: Double = 1, pageSegmentationMode: Int? = nil, adaptiveThreshold: Bool = false,
        timeout: Double? = nil, cpu: PhaseCPU? = nil
    ) -> Result<OCRPage, DocumentFailure> {
        guard let api = handle else { return .failure(.ocrFailed("engine is closed")) }
        defer {
            cpu.measure("clear") { TessBaseAPIClear(api) }
            if adaptiveThreshold { _ = TessBaseAPISetVariable(api, "thresholding_method", "0") }
        }
        if let mode = pageSegmentationMode { TessBaseAPISetPageSegMode(api, TessPageSegMode(UInt32(mode))) }
        if adaptiveThreshold { _ = TessBaseAPISetVariable(api, "thresholding_method", "1") }
        let (width, height) = image.scaledSize(by: scale)
        let dpi = image.scaledDPI(by: scale)
        cpu.measure(scale == 1 ? "set-image" : "scale") { OCREngine.setImage(api, image, scale: scale) }
        // After SetImage, or tesseract guesses a resolution and reads differently (platform notes).
        TessBaseAPISetSourceResolution(api, Int32(dpi))
        let monitor =
            timeout.map { t -> OpaquePointer? in
                let m = TessMonitorCreate()
                TessMonitorSetDeadlineMSecs(m, Int32(max(1, min(3_600_000, (t * 1000).rounded()))))
                return m
            } ?? nil
        defer { if let monitor { TessMonitorDelete(monitor) } }
        let started = DispatchTime.now().uptimeNanoseconds
        let status = cpu.measure("recognition") { TessBaseAPIRecognize(api, monitor) }
        if let timeout, Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 >= timeout {
            return .failure(.pageTimeout(page: image.pageNumber, seconds: timeout))
        }
        guard status == 0 else { return .failure(.ocrFailed("Recognize returned an error")) }
        // Words grouped into the text lines tesseract found (it follows skewed baselines; grouping by
        // box overlap afterwards would split a tilted line into label and amount).
        var lines: [[OCRWord]] = []
        cpu.measure("words") {
            if let iterator = TessBaseAPIGetIterator(api) {
                defer { TessResultIteratorDelete(iterator) }
                let pageIterator = TessResultIteratorGetPageIterator(iterator)
                repeat {
                    let startsLine = TessPageIteratorIsAtBeginningOf(pageIterator, RIL_TEXTLINE) != 0
                    guard let textPtr = TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
                    let text = OCREngine.trimmed(textPtr)
                    TessDeleteText(textPtr)
                    guard !text.isEmpty else { continue }
                    var left: Int32 = 0
                    var top: Int32 = 0
                    var right: Int32 = 0
                    var bottom: Int32 = 0
                    guard TessPageIteratorBoundingBox(pageIterator, RIL_WORD, &left, &top, &right, &bottom) != 0 else { continue }
                    let confidence = Double(TessResultIteratorConfidence(iterator, RIL_WORD))
                    let word = OCRWord(
                        text: text, box: BoundingBox(left: Int(left), top: Int(top), right: Int(right), bottom: Int(bottom)),
                        confidence: max(0, min(100, confidence)))
                    if startsLine || lines.isEmpty { lines.append([word]) } else { lines[lines.count - 1].append(word) }
                } while TessResultIteratorNext(iterator, RIL_WORD) != 0
            }
        }
        return .success(
            OCRPage(
                pageNumber: image.pageNumber, width: width, height: height, dpi: dpi,
                source: .ocr, lines: OCRPage.mergeLines(lines.map(OCRLine.init(words:)))))
    }

    /// A word's UTF-8 text without surrounding whitespace. Tesseract's words seldom have any: Foundation's
    /// trimming is only asked when the first or last byte is a space, a control or part of a non-ASCII letter.
    static func trimmed(_ text: UnsafePointer<CChar>) -> String {
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
        let word = String(decoding: bytes, as: UTF8.self) // invalid bytes become U+FFFD, as with String(cString:)
        guard let first = bytes.first, let last = bytes.last else { return word }
        func plain(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
        return plain(first) && plain(last) ? word : word.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Orientation of the text on a page with tesseract's OSD (this engine must have been made with ["osd"]):
    /// the clockwise rotation in degrees (0, 90, 180, 270) that would make the page upright, and OSD's
    /// confidence. Nil when OSD cannot tell.
    public func orientation(_ image: PageImage) -> (degrees: Int, confidence: Double)? {
        guard let api = handle else { return nil }
        defer { TessBaseAPIClear(api) }
        TessBaseAPISetPageSegMode(api, PSM_OSD_ONLY)
        OCREngine.setImage(api, image)
        TessBaseAPISetSourceResolution(api, Int32(image.dpi))
        var degrees: Int32 = 0
        var confidence: Float = 0
        var script: UnsafePointer<CChar>?
        var scriptConfidence: Float = 0
        let ok = TessBaseAPIDetectOrientationScript(api, &degrees, &confidence, &script, &scriptConfidence) != 0
        // capi.h says to free the script name with TessDeleteText, but 5.3.0 hands out a pointer it still owns:
        // freeing it aborts (seen here). Its name is not needed.
        _ = script
        guard ok else { return nil }
        // OSD reports how far the text is turned clockwise; the page is set upright by turning it back.
        return ((360 - Int(degrees)) % 360, Double(confidence))
    }

    /// Hands a page to tesseract as a leptonica image, scaled by `scale`, filled a row at a time (8-bpp pixels
    /// are big-endian within 32-bit words: platform notes). Tesseract's raw-bytes SetImage stores every pixel
    /// singly and then copies the whole image once more: it took 16 ms per call on a 16-megapixel page, this a
    /// third of that. Tesseract keeps the image itself, not a copy of it (TesseractPatches): this reference to it is
    /// dropped on return.
    static func setImage(_ api: OpaquePointer, _ image: PageImage, scale: Double = 1) {
        let (width, height) = image.scaledSize(by: scale)
        var made = pixCreateNoInit(Int32(width), Int32(height), 8)
        defer { pixDestroy(&made) }
        guard let pix = made, let data = pixGetData(pix) else {
            let page = scale == 1 ? image : image.scaled(by: scale)
            page.gray.withUnsafeBufferPointer { p in
                TessBaseAPISetImage(api, p.baseAddress, Int32(page.width), Int32(page.height), 1, Int32(page.width))
            }
            return
        }
        let wpl = Int(pixGetWpl(pix))
        let bytes = UnsafeMutableRawPointer(data)
        image.forEachRow(scaledBy: scale) { y, pixels in
            let row = bytes + y * wpl * 4
            // The row's last word is padded with white: what tesseract's own copy leaves there is undefined.
            row.storeBytes(of: UInt32.max, toByteOffset: (wpl - 1) * 4, as: UInt32.self)
            row.copyMemory(from: pixels.baseAddress!, byteCount: pixels.count)
            let words = row.assumingMemoryBound(to: UInt32.self)
            for i in 0..<wpl { words[i] = words[i].byteSwapped }
        }
        let dpi = Int32(image.scaledDPI(by: scale))
        pixSetResolution(pix, dpi, dpi)
        TesseractPatches_setImage(UnsafeMutableRawPointer(api), pix)
    }

    public static var tesseractVersion: String { String(cString: TessVersion()) }
}
