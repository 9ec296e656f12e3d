import Foundation
import ShoeboxTestSupport
import Testing

@testable import ShoeboxCore
@testable import ShoeboxEngines

/// The second reader's text-line detector (PP-OCRv4 detection on ONNX Runtime), as `make setup` installs it.
struct TextDetectorTests {
    static func installed() throws -> PPOCRTextDetector {
        switch PPOCRTextDetector.shared {
        case .success(let detector): return detector
        case .failure(let why): throw why // make setup installs the parts: their absence is a failure here
        }
    }

    static func page(width: Int, height: Int, gray: UInt8 = 255) -> PageImage {
        PageImage(pageNumber: 1, width: width, height: height, dpi: 300, gray: [UInt8](repeating: gray, count: width * height))
    }

    /// The grocer receipt's 18 text lines as tesseract boxes them (left, top, width, height).
    static let grocerLines = [
        (81, 49, 784, 43), (166, 126, 615, 40), (386, 190, 176, 35), (240, 253, 465, 35), (188, 317, 569, 35), (41, 412, 434, 38),
        (37, 476, 386, 43), (38, 575, 868, 43), (39, 638, 868, 43), (36, 702, 871, 43), (39, 766, 868, 43), (40, 830, 866, 43),
        (39, 929, 868, 35), (37, 993, 869, 35), (38, 1060, 868, 43), (39, 1171, 868, 35), (37, 1235, 673, 35), (71, 1330, 794, 43)
    ].map { BoundingBox(left: $0.0, top: $0.1, right: $0.0 + $0.2, bottom: $0.1 + $0.3) }

    @Test(.tags(.ocr)) func findsEveryLineOfTheGrocerReceiptAndTheReaderReadsThem() throws {
        let detector = try Self.installed()
        let image = try #require(try ImageLoader.load(fixtureBytes("eng-gb-grocer.png"), kind: .png, maxMegapixels: 60).get().first)
        let boxes = detector.detect(image)
        #expect(!boxes.isEmpty)
        for box in boxes {
            #expect(box.left >= 0 && box.top >= 0 && box.right <= image.width && box.bottom <= image.height && box.width > 0 && box.height > 0)
        }
        for line in Self.grocerLines {
            let middle = (line.top + line.bottom) / 2
            let found = boxes.contains { $0.top <= middle && middle < $0.bottom && $0.left < line.right && line.left < $0.right }
            #expect(found, "no detected box covers tesseract's line \(line)")
        }
        // Reading order: top to bottom, and left to right in a row ("Till 4", "Op", "1187" have tops a few pixels apart).
        for (a, b) in zip(boxes, boxes.dropFirst()) {
            #expect(b.top >= a.top || (b.left > a.left && b.top < a.bottom), "\(b) after \(a)")
        }
        let till = try #require(boxes.firstIndex { $0.top < 500 && $0.bottom > 500 && $0.left < 100 })
        #expect(boxes[till + 1].left > boxes[till].right && boxes[till + 1].top < boxes[till].bottom)
        // Two threads detecting at once with the one detector find the same boxes.
        let twice = [Mutex<[BoundingBox]>([]), Mutex<[BoundingBox]>([])]
        DispatchQueue.concurrentPerform(iterations: 2) { twice[$0].set(detector.detect(image)) }
        #expect(twice.map(\.value) == [boxes, boxes])
        // The boxes are what the line reader reads.
        let reader = try SecondReaderTests.installed()
        let texts = boxes.compactMap { reader.read(image, box: $0)?.text }
        #expect(texts.contains { $0.contains("14/03/2026") }, "read: \(texts)")
        #expect(texts.contains { $0.contains("13.90") }, "read: \(texts)")
    }

    @Test(.tags(.ocr)) func aBlankPageHasNoLines() throws {
        let detector = try Self.installed()
        #expect(detector.detect(Self.page(width: 600, height: 800)).isEmpty)
    }

    @Test(.tags(.ocr)) func tinyPagesAndHostileSizesDoNotCrash() throws {
        let detector = try Self.installed()
        #expect(detector.detect(Self.page(width: 1, height: 1)).isEmpty)
        #expect(detector.detect(Self.page(width: 1, height: 1, gray: 0), maxSide: .max).allSatisfy { $0.right <= 1 && $0.bottom <= 1 })
        #expect(detector.detect(Self.page(width: 3000, height: 2, gray: 0), maxSide: .min).allSatisfy { $0.right <= 3000 && $0.bottom <= 2 })
        // A huge max side is held to PPOCR_DET_MAX_SIDE: a page larger than that is still scaled down.
        let stripes = PageImage(
            pageNumber: 1, width: 400, height: 300, dpi: 300, gray: (0..<(400 * 300)).map { ($0 / 400) % 40 < 12 && $0 % 400 > 40 ? 0 : 255 })
        for box in detector.detect(stripes, maxSide: .max) {
            #expect(box.left >= 0 && box.top >= 0 && box.right <= 400 && box.bottom <= 300)
        }
    }

    @Test func withoutItsModelTheDetectorSaysWhatIsMissing() throws {
        guard case .failure(let why) = PPOCRTextDetector.open(directory: "/nonexistent/readers") else {
            Issue.record("opened a detector from a folder that does not exist")
            return
        }
        #expect(why.message.contains("/nonexistent/readers/"))
        #expect(why.message.contains("make setup"))
        // With the library there but not the model, the model is named.
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        try Data("not a library".utf8).write(to: work.appendingPathComponent(PPOCRLineReader.libraryFile))
        guard case .failure(let missing) = PPOCRTextDetector.open(directory: work.path) else {
            Issue.record("opened a detector without its model")
            return
        }
        #expect(missing.message.contains("\(work.path)/\(PPOCRTextDetector.modelFile) is missing"))
    }
}
