internal import CLeptonica
internal import CTesseract
internal import Foundation
internal import Synchronization
internal import TesseractPatches

/// The tesseract patches (Sources/TesseractPatches, whose header says how they work): turned on only for the
/// tesseract version they were written for and unless `SHOEBOX_TESSERACT_PATCHES=off`, and checked once per
/// process, before the first engine loads, on a small page read by a real engine. A patch whose effect the
/// check does not see is switched off: tesseract then does what it does without it, a little slower.
public enum TesseractPatchCheck {
    /// The tesseract version the patches were written for (its `TessVersion()`).
    public static let writtenFor = "5.3.0"
    /// The environment variable that switches the patches off when it is `off`.
    public static let environmentVariable = "SHOEBOX_TESSERACT_PATCHES"

    public enum Patch: String, CaseIterable, Sendable {
        /// Text-line images kept as uncompressed PNM instead of PNG (pixWriteMem, pixReadMem).
        case lineImages = "line-images"
        /// The page image handed to tesseract kept instead of copied (pixCopy).
        case pageHandOff = "page-hand-off"
        /// The universal ambiguity table left unbuilt for LSTM-only models (UnicharAmbigs::LoadUniversal).
        case ambiguityTable = "ambiguity-table"

        var bit: Int32 {
            switch self {
            case .lineImages: Int32(TesseractPatchLineImages)
            case .pageHandOff: Int32(TesseractPatchPageHandOff)
            case .ambiguityTable: Int32(TesseractPatchAmbiguityTable)
            }
        }
    }

    /// What the check found: each patch on, or off with the reason.
    public struct Report: Sendable, Equatable {
        /// Each patch in `Patch.allCases` order: nil when it is on, else why it is off.
        public let offReasons: [Patch: String]

        public func isOn(_ patch: Patch) -> Bool { offReasons[patch] == nil }

        /// One line: "line-images on, page-hand-off on, ambiguity-table on", "off (the reason)" when every patch
        /// is off for one reason, else each patch with its own state.
        public var summary: String {
            let reasons = Set(offReasons.values)
            if offReasons.count == Patch.allCases.count, reasons.count == 1, let reason = reasons.first { return "off (\(reason))" }
            return Patch.allCases.map { p in offReasons[p].map { "\(p.rawValue) off (\($0))" } ?? "\(p.rawValue) on" }.joined(separator: ", ")
        }

        /// For JSON: each patch's name and "on" or "off: reason".
        public var states: [String: String] {
            Dictionary(uniqueKeysWithValues: Patch.allCases.map { p in (p.rawValue, offReasons[p].map { "off: \($0)" } ?? "on") })
        }

        /// The state before any engine has started: every patch off, unchecked.
        public static let notChecked = allOff("not checked: no OCR engine was started")

        static func allOff(_ reason: String) -> Report {
            Report(offReasons: Dictionary(uniqueKeysWithValues: Patch.allCases.map { ($0, reason) }))
        }
    }

    private static let checked = Mutex<Report?>(nil)

    /// The check's report, nil while no engine has been started in this process.
    public static var report: Report? { checked.withLock { $0 } }

    /// The tessdata folder engines load from: TESSDATA_PREFIX, else Debian's.
    public static var currentDataPath: String { ProcessInfo.processInfo.environment["TESSDATA_PREFIX"] ?? OCREngine.defaultDataPath }

    /// Runs the check once in this process (every later call returns its report; callers wait for the first).
    /// It reads a sample page with the first of `languages`, then "eng", whose model is LSTM-only.
    @discardableResult
    public static func check(dataPath: String = currentDataPath, languages: [String] = ["eng"]) -> Report {
        checked.withLock { report in
            if let report { return report }
            let made = run(dataPath: dataPath, languages: languages)
            TesseractPatches_setEnabled(Patch.allCases.filter(made.isOn).reduce(0) { $0 | $1.bit })
            report = made
            return made
        }
    }

    /// Loads `languages` into a created engine as `TessBaseAPIInit3` does, the patches checked first. The
    /// universal ambiguity table is left unbuilt only when every language's model is LSTM-only.
    static func load(_ api: OpaquePointer, dataPath: String, languages: [String]) -> Bool {
        check(dataPath: dataPath, languages: languages)
        let lstmOnly = languages.allSatisfy { holdsOnlyLSTM(model(dataPath, $0)) }
        let name = languages.joined(separator: "+")
        return TesseractPatches_init(UnsafeMutableRawPointer(api), dataPath, name, lstmOnly ? Int32(languages.count) : 0) == 0
    }

    static func model(_ dataPath: String, _ language: String) -> String { "\(dataPath)/\(language).traineddata" }

    /// Calls the patches answered in this process.
    public struct Counts: Sendable, Equatable {
        /// Line images written as PNM, and read back.
        public var linesWritten = 0, linesRead = 0
        /// Page images handed to tesseract without a copy.
        public var pagesHandedOver = 0
        /// Universal ambiguity tables left unbuilt.
        public var tablesSkipped = 0
    }

    public static var counts: Counts {
        Counts(
            linesWritten: TesseractPatches_lineImagesWritten(), linesRead: TesseractPatches_lineImagesRead(),
            pagesHandedOver: TesseractPatches_pagesHandedOver(), tablesSkipped: TesseractPatches_ambiguityTablesSkipped())
    }

    private static func run(dataPath: String, languages: [String]) -> Report {
        if ProcessInfo.processInfo.environment[environmentVariable] == "off" { return .allOff("\(environmentVariable)=off") }
        let version = String(cString: TessVersion())
        guard version == writtenFor else { return .allOff("written for tesseract \(writtenFor), this is \(version)") }
        guard let language = (languages + ["eng"]).first(where: { holdsOnlyLSTM(model(dataPath, $0)) }) else {
            return .allOff("no LSTM-only language data in \(dataPath) to check them with")
        }
        _ = ImageLoader.silenced
        TesseractPatches_setEnabled(Patch.allCases.reduce(0) { $0 | $1.bit })
        defer { TesseractPatches_setEnabled(0) }
        guard let api = TessBaseAPICreate() else { return .allOff("tesseract could not create an engine to check them") }
        defer { TessBaseAPIDelete(api) }
        let before = counts
        guard TesseractPatches_init(UnsafeMutableRawPointer(api), dataPath, language, 1) == 0 else {
            return .allOff("tesseract could not load \(language) to check them")
        }
        defer { TessBaseAPIEnd(api) }
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        TessBaseAPISetPageSegMode(api, PSM_SINGLE_BLOCK)
        let patched = read(sample(), with: api)
        let after = counts
        // The same page again with the line-image and hand-off patches off: tesseract's own path.
        TesseractPatches_setEnabled(Patch.ambiguityTable.bit)
        let plain = read(sample(), with: api)

        return verdict(before: before, after: after, patched: patched, plain: plain)
    }

    /// Which patches the check saw in effect: each whose count moved while the sample page was loaded and read
    /// (line images: written and read back), as long as the page read the same without the line-image and
    /// hand-off patches (`plain`) as with them (`patched`).
    static func verdict(before: Counts, after: Counts, patched: [String], plain: [String]) -> Report {
        var off: [Patch: String] = [:]
        if after.tablesSkipped == before.tablesSkipped {
            off[.ambiguityTable] = "tesseract built the table itself: its LoadUniversal is not this program's"
        }
        if after.pagesHandedOver == before.pagesHandedOver {
            off[.pageHandOff] = "tesseract copied the page itself: its pixCopy is not this program's"
        }
        if after.linesWritten == before.linesWritten {
            off[.lineImages] = "tesseract wrote its line images itself: its pixWriteMem is not this program's"
        } else if after.linesRead == before.linesRead {
            off[.lineImages] = "tesseract read its line images itself: its pixReadMem is not this program's"
        }
        if patched.isEmpty {
            off[.lineImages] = off[.lineImages] ?? "tesseract found no words on the sample page"
        } else if patched != plain {
            for p in [Patch.lineImages, .pageHandOff] where off[p] == nil { off[p] = "the sample page read differently with it" }
        }
        return Report(offReasons: off)
    }

    /// The words tesseract reads on `pix` (this reference is dropped), each with its box and confidence.
    static func read(_ pix: UnsafeMutablePointer<PIX>?, with api: OpaquePointer) -> [String] {
        var made = pix
        guard let image = made else { return [] }
        TesseractPatches_setImage(UnsafeMutableRawPointer(api), image)
        pixDestroy(&made)
        defer { TessBaseAPIClear(api) }
        TessBaseAPISetSourceResolution(api, 300)
        guard TessBaseAPIRecognize(api, nil) == 0, let iterator = TessBaseAPIGetIterator(api) else { return [] }
        defer { TessResultIteratorDelete(iterator) }
        let pageIterator = TessResultIteratorGetPageIterator(iterator)
        var words: [String] = []
        repeat {
            guard let text = TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
            defer { TessDeleteText(text) }
            var box: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
            _ = TessPageIteratorBoundingBox(pageIterator, RIL_WORD, &box.0, &box.1, &box.2, &box.3)
            words.append("\(String(cString: text)) \(box) \(TessResultIteratorConfidence(iterator, RIL_WORD))")
        } while TessResultIteratorNext(iterator, RIL_WORD) != 0
        return words
    }

    /// The sample page: "TOTAL 12.50" in a 5×7 pixel font drawn 5 times as large, black on white, 8-bit gray.
    static func sample() -> UnsafeMutablePointer<PIX>? {
        let glyphs: [Character: [String]] = [
            "T": ["11111", "00100", "00100", "00100", "00100", "00100", "00100"],
            "O": ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
            "A": ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
            "L": ["10000", "10000", "10000", "10000", "10000", "10000", "11111"],
            "1": ["00100", "01100", "00100", "00100", "00100", "00100", "01110"],
            "2": ["01110", "10001", "00001", "00010", "00100", "01000", "11111"],
            ".": ["00000", "00000", "00000", "00000", "00000", "01100", "01100"],
            "5": ["11111", "10000", "11110", "00001", "00001", "10001", "01110"],
            "0": ["01110", "10001", "10001", "10001", "10001", "10001", "01110"]
        ]
        let text = Array("TOTAL 12.50")
        let scale = 5
        let margin = 20
        let advance = 6 * scale
        guard let pix = pixCreate(Int32(2 * margin + text.count * advance), Int32(2 * margin + 7 * scale), 8) else { return nil }
        pixSetAll(pix) // white
        for (n, character) in text.enumerated() {
            for (row, bits) in (glyphs[character] ?? []).enumerated() {
                for (column, bit) in bits.enumerated() where bit == "1" {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let x = margin + n * advance + column * scale + dx
                            pixSetPixel(pix, Int32(x), Int32(margin + row * scale + dy), 0)
                        }
                    }
                }
            }
        }
        pixSetResolution(pix, 300, 300)
        return pix
    }

    /// Whether a tesseract model holds the LSTM engine and not the legacy one (tesseract then runs it LSTM-only):
    /// read from the table of components at the start of its `.traineddata` file, as tesseract's
    /// `TessdataManager` reads it. False for anything else, a file that cannot be read included.
    static func holdsOnlyLSTM(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        guard let end = try? file.seekToEnd(), (try? file.seek(toOffset: 0)) != nil,
            let head = try? file.read(upToCount: 4), head.count == 4
        else { return false }
        let size = Int64(clamping: end)
        let bytes = [UInt8](head)
        let count = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
        // TessdataManager takes at most 1,000 entries (a larger count is a big-endian file: not read here).
        guard count > 0, count <= 1000, let table = try? file.read(upToCount: 8 * count), table.count == 8 * count else { return false }
        let offsets = [UInt8](table).withUnsafeBytes { raw in
            (0..<count).map { Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * $0, as: Int64.self)) }
        }
        // A component is present when its offset is set and the next set offset (or the file's end) lies after it.
        func present(_ index: Int) -> Bool {
            guard index < count, offsets[index] >= 0 else { return false }
            let next: Int64 = offsets[(index + 1)...].first(where: { $0 != -1 }) ?? size
            return next > offsets[index]
        }
        // tessdatamanager.h: TESSDATA_UNICHARSET 1 and TESSDATA_INTTEMP 3 are the legacy engine, TESSDATA_LSTM 17.
        return present(17) && !(present(1) && present(3))
    }
}
