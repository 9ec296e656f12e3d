import Foundation
import ShoeboxTestSupport
import Testing

@testable import ShoeboxCore
@testable import ShoeboxEngines
@testable import ShoeboxPipeline

/// Further passes read some lines of a page as one mosaic (`LineMosaic`): real tesseract on a real fixture, the words
/// put back on the lines they were cut from.
struct LineMosaicTests {
    @Test(.tags(.ocr)) func linesReadAsAMosaicComeBackOnTheirOwnLines() throws {
        let image = try ImageLoader.load(try fixtureBytes("eng-gb-grocer.png"), kind: .png, maxMegapixels: 60).get()[0]
        let engine = try OCREngine(languages: ["eng"], pageSegmentationMode: 6)
        let page = try engine.recognize(image, pageSegmentationMode: 6).get()
        // Every third line with words, among them two that stand next to each other (their strips are cut as one).
        let chosen = Array(Set(Array(stride(from: 1, to: page.lines.count, by: 3)) + [2])).sorted()
        #expect(chosen.count >= 4)
        let mosaic = try #require(LineMosaic(page: image, boxes: chosen.map { page.lines[$0].box }))
        // A fraction of the page's pixels.
        #expect(mosaic.image.height < image.height / 2)
        #expect(mosaic.image.width == image.width)
        let read = try engine.recognize(mosaic.image, pageSegmentationMode: 6).get()
        let again = LineMosaic.replacing(chosen, of: page, with: mosaic.words(from: read))
        #expect(again.lines.count == page.lines.count)
        for i in page.lines.indices {
            if chosen.contains(i) {
                // The same words on the same line, in the page's coordinates (a clean print reads the same twice).
                #expect(again.lines[i].text == page.lines[i].text, "line \(i)")
                let a = again.lines[i].box
                let b = page.lines[i].box
                #expect(abs(a.top - b.top) <= 4 && abs(a.bottom - b.bottom) <= 4 && abs(a.left - b.left) <= 4, "line \(i): \(a) against \(b)")
            } else {
                #expect(again.lines[i] == page.lines[i], "line \(i) was not chosen and stays as it was")
            }
        }
    }

    @Test func noLineWithAHeightMakesNoMosaic() {
        let image = PageImage(pageNumber: 1, width: 10, height: 10, dpi: 300, gray: [UInt8](repeating: 255, count: 100))
        #expect(LineMosaic(page: image, boxes: []) == nil)
        #expect(LineMosaic(page: image, boxes: [BoundingBox(left: 0, top: 5, right: 10, bottom: 5)]) == nil)
    }

    @Test func stripsAreCutWithAMarginAndTouchingOnesJoin() throws {
        let image = PageImage(pageNumber: 1, width: 4, height: 200, dpi: 300, gray: (0..<800).map { UInt8($0 / 4 % 256) })
        let boxes = [
            BoundingBox(left: 0, top: 10, right: 4, bottom: 30), BoundingBox(left: 0, top: 33, right: 4, bottom: 53),
            BoundingBox(left: 0, top: 120, right: 4, bottom: 140)
        ]
        let mosaic = try #require(LineMosaic(page: image, boxes: boxes))
        // The first two touch once widened by a quarter of their height (5 rows): one strip; the third apart.
        #expect(mosaic.strips.map(\.top) == [5, 115])
        #expect(mosaic.strips.map(\.bottom) == [58, 145])
        // Each strip's rows are the page's rows, white between them.
        for strip in mosaic.strips {
            for y in 0..<(strip.bottom - strip.top) {
                #expect(mosaic.image.gray[(strip.at + y) * 4] == image.gray[(strip.top + y) * 4])
            }
        }
        #expect(mosaic.image.gray[0] == 255)
    }
}
