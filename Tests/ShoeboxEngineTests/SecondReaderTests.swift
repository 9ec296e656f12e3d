import Foundation
import ShoeboxTestSupport
import Testing

@testable import ShoeboxCore
@testable import ShoeboxEngines
@testable import ShoeboxPipeline

/// The second reader (PP-OCRv6 small recognition on ONNX Runtime), as `make setup` installs it.
struct SecondReaderTests {
    static func lineImage(_ name: String) throws -> PageImage {
        let url = fixtures.appendingPathComponent("lines/\(name)")
        let bytes = try #require(FileManager.default.contents(atPath: url.path), "fixture \(url.path) is missing")
        return try #require(try ImageLoader.load([UInt8](bytes), kind: .png, maxMegapixels: 60).get().first)
    }

    static func installed() throws -> PPOCRLineReader {
        switch PPOCRLineReader.shared {
        case .success(let reader): return reader
        case .failure(let why): throw why // make setup installs the parts: their absence is a failure here
        }
    }

    @Test(.tags(.ocr)) func readsTheCommittedLineImagesExactly() throws {
        let reader = try Self.installed()
        #expect(reader.name.hasPrefix("PP-OCRv6 small rec, ONNX Runtime 1.32"))
        #expect(reader.readsLatinLetters)
        let date = try Self.lineImage("eng-gb-grocer-date.png")
        let line = try #require(reader.read(date, box: BoundingBox(left: 8, top: 8, right: date.width - 8, bottom: date.height - 8)))
        #expect(line.text == "14/03/2026 18:42")
        #expect(line.words.count == 2)
        #expect(line.words.allSatisfy { $0.confidence > 80 && $0.box.left >= 0 && $0.box.right <= date.width })
        // Words left to right, apart: the time starts right of the date.
        #expect(line.words[0].box.right <= line.words[1].box.left + 8)
        // The model has £: the mark is read with the amount; the wide gap after TOTAL is a space again.
        let total = try Self.lineImage("eng-gb-grocer-total.png")
        let read = try #require(reader.read(total, box: BoundingBox(left: 8, top: 8, right: total.width - 8, bottom: total.height - 8)))
        #expect(read.text == "TOTAL £13.90")
    }

    @Test func withoutItsPartsTheSecondReaderSaysWhatIsMissing() {
        guard case .failure(let why) = PPOCRLineReader.open(directory: "/nonexistent/readers") else {
            Issue.record("opened a reader from a folder that does not exist")
            return
        }
        #expect(why.message.contains("/nonexistent/readers/libonnxruntime.so.1.32.0 is missing"))
        #expect(why.message.contains("make setup"))
    }

    @Test func aFileThatIsNotTheLibraryIsRefusedByName() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        try Data("not a library".utf8).write(to: work.appendingPathComponent(PPOCRLineReader.libraryFile))
        try Data("not a model".utf8).write(to: work.appendingPathComponent(PPOCRLineReader.modelFile))
        guard case .failure(let why) = PPOCRLineReader.open(directory: work.path) else {
            Issue.record("opened a reader from files that are not one")
            return
        }
        #expect(why.message.contains("could not start"))
    }

    /// A folder of the installed parts (hard links, else copies) with `file` replaced by what `replace` puts there.
    static func readersWith(_ file: String, in work: URL, _ replace: (String) throws -> Void) throws -> String {
        let installed = "/usr/local/lib/shoebox"
        for part in [PPOCRLineReader.libraryFile, PPOCRLineReader.modelFile, PPOCRTextDetector.modelFile] {
            let path = work.appendingPathComponent(part).path
            if part == file {
                try replace(path)
            } else if (try? FileManager.default.linkItem(atPath: installed + "/" + part, toPath: path)) == nil {
                try FileManager.default.copyItem(atPath: installed + "/" + part, toPath: path)
            }
        }
        return work.path
    }

    /// A part that is not a regular file of a sensible size is "not usable", with its reason, and never handed to
    /// ONNX Runtime; the second reader is then not installed for the run's settings either. (A FIFO is tested by
    /// the end-to-end tests, with a timeout: before the check it hung the process.)
    @Test func aPartThatIsAFolderALinkEmptyOrOversizeIsNotUsableAndNamed() throws {
        let fm = FileManager.default
        let cases: [(file: String, reason: String, make: (String) throws -> Void)] = [
            (
                PPOCRTextDetector.modelFile, "it is a folder, not a regular file",
                { try fm.createDirectory(atPath: $0, withIntermediateDirectories: false) }
            ),
            (PPOCRLineReader.modelFile, "it is empty", { _ = fm.createFile(atPath: $0, contents: Data()) }),
            (
                PPOCRLineReader.modelFile, "larger than the 64.0 MiB",
                {
                    _ = fm.createFile(atPath: $0, contents: nil)
                    let handle = try #require(FileHandle(forWritingAtPath: $0))
                    try handle.truncate(atOffset: 100 << 20)
                    try handle.close()
                }
            ),
            (
                PPOCRLineReader.modelFile, "it is a symbolic link",
                { try fm.createSymbolicLink(atPath: $0, withDestinationPath: "/usr/local/lib/shoebox/" + PPOCRLineReader.modelFile) }
            ),
            (
                PPOCRLineReader.libraryFile, "it is a folder, not a regular file",
                { try fm.createDirectory(atPath: $0, withIntermediateDirectories: false) }
            )
        ]
        for c in cases {
            let work = try temporaryDirectory()
            defer { try? fm.removeItem(at: work) }
            let folder = try Self.readersWith(c.file, in: work, c.make)
            let said = "its part \(folder)/\(c.file) is not usable: "
            #expect(PPOCRLineReader.installed(in: folder) == nil, "\(c.file): \(c.reason)")
            let opened =
                c.file == PPOCRTextDetector.modelFile
                ? PPOCRTextDetector.open(directory: folder).map { _ in () } : PPOCRLineReader.open(directory: folder).map { _ in () }
            guard case .failure(let why) = opened else {
                Issue.record("opened with \(c.file): \(c.reason)")
                continue
            }
            #expect(why.message.contains(said) && why.message.contains(c.reason), "\(why.message)")
            #expect(why.message.contains("SHOEBOX_READERS"), "what to do: \(why.message)")
        }
        // The same folder with every part in place is installed.
        let work = try temporaryDirectory()
        defer { try? fm.removeItem(at: work) }
        let whole = try Self.readersWith("none", in: work) { _ in }
        #expect(PPOCRLineReader.installed(in: whole) == "\(PPOCRLineReader.libraryFile) \(PPOCRLineReader.modelFile) \(PPOCRTextDetector.modelFile)")
    }

    static func word(_ text: String, _ left: Int, _ right: Int, _ confidence: Double = 90) -> OCRWord {
        OCRWord(text: text, box: BoundingBox(left: left, top: 10, right: right, bottom: 40), confidence: confidence)
    }

    @Test func germanWordsKeepTesseractsLettersAndTakeTheSecondReadersDigits() {
        let tesseract = OCRLine(words: [Self.word("Hauptstraße", 0, 200), Self.word("12,5O", 300, 380, 40)])
        let second = OCRLine(words: [Self.word("HauptstraBe", 2, 198), Self.word("12,50", 300, 380)])
        let german = SecondReadingStage.merged(tesseract, second, keepLetters: true)
        #expect(german.text == "Hauptstraße 12,50")
        #expect(german.reader == .secondReader)
        // English and Malay take the second reader's words.
        #expect(SecondReadingStage.merged(tesseract, second, keepLetters: false).text == "HauptstraBe 12,50")
    }

    /// Where the detector splits one line of large print in two overlapping boxes, they are read as one; boxes side by
    /// side without overlap, and lines above one another, stay apart.
    @Test func overlappingBoxesOnOneLineAreJoinedAndOthersStayApart() {
        let left = BoundingBox(left: 99, top: 48, right: 461, bottom: 93)
        let right = BoundingBox(left: 444, top: 45, right: 856, bottom: 102)
        let below = BoundingBox(left: 106, top: 119, right: 838, bottom: 170)
        let apart = BoundingBox(left: 870, top: 50, right: 900, bottom: 95)
        #expect(SecondReadingStage.joined([right, below, left, apart]) == [BoundingBox(left: 99, top: 45, right: 856, bottom: 102), apart, below])
        // Two lines whose boxes touch by a few rows are not one line.
        let next = BoundingBox(left: 120, top: 88, right: 700, bottom: 133)
        #expect(SecondReadingStage.joined([left, next]).count == 2)
    }

    /// The German fixture's shop name in large print, which the detector finds as two overlapping boxes, read whole by
    /// the installed readers (before the boxes were joined: "Frischmarkt kt E Berger GmbH").
    @Test(.tags(.ocr)) func aShopNameTheDetectorSplitsIsReadOnce() throws {
        let reader = try Self.installed()
        let detector = try PPOCRTextDetector.shared.get()
        let bytes = try #require(FileManager.default.contents(atPath: fixtures.appendingPathComponent("receipts/deu-supermarkt.png").path))
        let image = try #require(try ImageLoader.load([UInt8](bytes), kind: .png, maxMegapixels: 60).get().first)
        let page = OCRPage(pageNumber: 1, width: image.width, height: image.height, dpi: image.dpi, source: .ocr, lines: [])
        let stage = SecondReadingStage(reader: reader, detector: detector, cpu: nil)
        let head = try #require(stage.readHead(page, image: image, within: stage.budget()))
        #expect(head.lines.first?.text == "Frischmarkt Berger GmbH", "\(head.lines.map(\.text))")
    }

    /// A detector that finds the boxes another finds, but those `misses` (the box it missed).
    final class MissingDetector: TextLineDetector, @unchecked Sendable {
        let real: any TextLineDetector
        let misses: (BoundingBox) -> Bool
        init(_ real: any TextLineDetector, misses: @escaping (BoundingBox) -> Bool) {
            self.real = real
            self.misses = misses
        }
        func detect(_ image: PageImage, maxSide: Int) -> [BoundingBox] { real.detect(image, maxSide: maxSide).filter { !misses($0) } }
    }

    /// The detector missed the date beside a heading (light print: a devset receipt's '22/12/2017', which tesseract read
    /// as '92/12/2017'): the head read by the detector's lines alone lost the date. Tesseract's word there, a number no
    /// detector box covers, is read from its own box.
    @Test(.tags(.ocr)) func aDateTheDetectorMissesInTheHeadIsReadFromTesseractsBox() throws {
        let reader = try Self.installed()
        let detector = try PPOCRTextDetector.shared.get()
        let bytes = try #require(FileManager.default.contents(atPath: fixtures.appendingPathComponent("receipts/deu-supermarkt.png").path))
        let image = try #require(try ImageLoader.load([UInt8](bytes), kind: .png, maxMegapixels: 60).get().first)
        // Where the date is: the detector's box whose reading holds it.
        let boxes = detector.detect(image)
        let dateBox = try #require(
            boxes.first { reader.read(image, spans: [$0], breaks: [])?.text.contains("14.03.2026") == true }, "the date is found on the page")
        let dateWord = OCRWord(text: "14.03.2026", box: dateBox, confidence: 90)
        let missing = MissingDetector(detector) { b in
            min(b.right, dateWord.box.right) > max(b.left, dateWord.box.left) && min(b.bottom, dateWord.box.bottom) > max(b.top, dateWord.box.top)
        }
        let blind = SecondReadingStage(reader: reader, detector: missing, cpu: nil)
        // Tesseract read a word there, misread: the head reaches down to it.
        let misread = OCRWord(text: "14.03.2O26", box: dateWord.box, confidence: 40)
        let page = OCRPage(
            pageNumber: 1, width: image.width, height: image.height, dpi: image.dpi, source: .ocr, lines: [OCRLine(words: [misread])])
        // Tesseract's word holds too few digits to be read again ("l4.O3.ZOZG"): the detector's head alone loses the date.
        let garbled = OCRPage(
            pageNumber: 1, width: image.width, height: image.height, dpi: image.dpi, source: .ocr,
            lines: [OCRLine(words: [OCRWord(text: "l4.O3.ZOZG", box: dateWord.box, confidence: 20)])])
        let lost = try #require(blind.readHead(garbled, image: image, within: blind.budget()))
        #expect(!lost.lines.contains { $0.text.contains("14.03.2026") }, "the detector without the date's box loses it")
        // With its digits, tesseract's word is read again from its box.
        let read = try #require(blind.readHead(page, image: image, within: blind.budget()))
        #expect(read.lines.contains { $0.text.contains("14.03.2026") }, "\(read.lines.map(\.text))")
    }

    @Test func aNumberWhoseDecimalPointTheSecondReaderLostStaysTesseracts() {
        let tesseract = OCRLine(words: [Self.word("TOTAL", 0, 100), Self.word("31.00", 300, 380)])
        let second = OCRLine(words: [Self.word("TOTAL", 0, 100), Self.word("3100", 300, 380)])
        #expect(SecondReadingStage.merged(tesseract, second, keepLetters: false).text == "TOTAL 31.00")
        // Digits tesseract did not read as a number are the second reader's.
        let lost = OCRLine(words: [Self.word("TOTAL", 0, 100), Self.word("3I.OO", 300, 380)])
        #expect(SecondReadingStage.merged(lost, second, keepLetters: false).text == "TOTAL 3100")
    }

    /// The model has Greek and Cyrillic letters and reads some print's zero as one ("θ.60"): no number prints them and
    /// the parser cannot mend them, so tesseract's number stays. An ASCII letter ("0.6O", "-1.oo") the parser mends stays
    /// the second reader's, and so does a word tesseract did not read as a number.
    @Test func aDigitTheSecondReaderReadAsAForeignLetterStaysTesseracts() {
        let tesseract = OCRLine(words: [Self.word("Deposit", 0, 140), Self.word("0.60", 300, 380), Self.word("A", 400, 420)])
        let theta = OCRLine(words: [Self.word("Deposit", 0, 140), Self.word("θ.60", 300, 380), Self.word("A", 400, 420)])
        #expect(SecondReadingStage.merged(tesseract, theta, keepLetters: false).text == "Deposit 0.60 A")
        let ascii = OCRLine(words: [Self.word("Deposit", 0, 140), Self.word("0.6O", 300, 380), Self.word("A", 400, 420)])
        #expect(SecondReadingStage.merged(tesseract, ascii, keepLetters: false).text == "Deposit 0.6O A")
        let word = OCRLine(words: [Self.word("Straße", 0, 140)])
        #expect(SecondReadingStage.merged(word, OCRLine(words: [Self.word("Straβe", 0, 140)]), keepLetters: false).text == "Straβe")
    }

    @Test func theLinesReadAgainAreTheHeadUnsureAndCandidateLines() {
        let lines = [
            OCRLine(words: [Self.word("Shop", 0, 100)]), OCRLine(words: [Self.word("Thank", 0, 100)]),
            OCRLine(words: [Self.word("you", 0, 100)]), OCRLine(words: [Self.word("for", 0, 100)]),
            OCRLine(words: [Self.word("shopping", 0, 100)]), OCRLine(words: [Self.word("with", 0, 100)]),
            OCRLine(words: [Self.word("Coffee", 0, 100)]), OCRLine(words: [Self.word("2.50", 0, 100)]),
            OCRLine(words: [Self.word("smudge", 0, 100, 30)]), OCRLine(words: [Self.word("Cashier", 0, 100)]),
            OCRLine(words: [Self.word("bye", 0, 100)])
        ]
        let page = OCRPage(pageNumber: 1, width: 500, height: 1000, dpi: 300, source: .ocr, lines: lines)
        // Line 7 ("2.50", read well, no candidate of a recorded field on it: an item line) is not read again.
        #expect(SecondReadingStage.lines(of: page, index: 0, count: 1, candidates: [100_000 + 9]) == [0, 1, 2, 3, 4, 5, 8, 9])
        // A middle page of a long document is not read again, nor is a text-layer page.
        #expect(SecondReadingStage.lines(of: page, index: 2, count: 5, candidates: []).isEmpty)
        let text = OCRPage(pageNumber: 1, width: 500, height: 1000, dpi: 300, source: .textLayer, lines: lines)
        #expect(SecondReadingStage.lines(of: text, index: 0, count: 1, candidates: []).isEmpty)
    }
}
