import CLeptonica
import CTesseract
import Foundation
import ShoeboxTestSupport
import TesseractPatches
import Testing

@testable import ShoeboxCore
@testable import ShoeboxEngines

/// The tesseract patches (Sources/TesseractPatches) on a real engine: the start-up check sees each in effect,
/// each does its work, and the page reads as before. (The whole fixtures read with and without them:
/// ShoeboxEndToEndTests' TesseractPatchesEndToEndTests.)
@Suite(.tags(.ocr)) struct TesseractPatchesTests {
    // The check reads its sample page with the patches and without the line-image and hand-off ones, and
    // finds each patch in effect on this machine's tesseract 5.3.0.
    @Test func theStartUpCheckSeesEveryPatchInEffect() throws {
        let report = TesseractPatchCheck.check()
        #expect(report.summary == "line-images on, page-hand-off on, ambiguity-table on", "\(report.offReasons)")
        #expect(report.states == ["line-images": "on", "page-hand-off": "on", "ambiguity-table": "on"])
        #expect(TesseractPatches_enabled() == 7)
        // Its sample page reads as what it shows, once the engine has no table of universal ambiguities.
        let api = try #require(TessBaseAPICreate())
        defer { TessBaseAPIDelete(api) }
        #expect(TesseractPatchCheck.load(api, dataPath: TesseractPatchCheck.currentDataPath, languages: ["eng"]))
        defer { TessBaseAPIEnd(api) }
        TessBaseAPISetPageSegMode(api, PSM_SINGLE_BLOCK)
        let words = TesseractPatchCheck.read(TesseractPatchCheck.sample(), with: api).map { $0.split(separator: " ")[0] }
        #expect(words == ["TOTAL", "12.50"])
    }

    @Test func reportsSayWhyAPatchIsOff() {
        let off = TesseractPatchCheck.Report.notChecked
        #expect(off.summary == "off (not checked: no OCR engine was started)")
        let one = TesseractPatchCheck.Report(offReasons: [.pageHandOff: "its pixCopy is not this program's"])
        #expect(one.summary == "line-images on, page-hand-off off (its pixCopy is not this program's), ambiguity-table on")
        #expect(one.states["page-hand-off"] == "off: its pixCopy is not this program's")
    }

    // A patch whose count does not move while the sample page is read is off, with the function that is not
    // this program's; so are the line-image and hand-off patches when the page reads differently without them.
    @Test func theCheckSwitchesOffWhatItDoesNotSeeWork() {
        let before = TesseractPatchCheck.Counts(linesWritten: 5, linesRead: 5, pagesHandedOver: 1, tablesSkipped: 2)
        let words = ["TOTAL (20, 20, 170, 55) 96.0", "12.50 (200, 20, 350, 55) 95.0"]
        var after = before
        #expect(
            TesseractPatchCheck.verdict(before: before, after: after, patched: words, plain: words).offReasons == [
                .lineImages: "tesseract wrote its line images itself: its pixWriteMem is not this program's",
                .pageHandOff: "tesseract copied the page itself: its pixCopy is not this program's",
                .ambiguityTable: "tesseract built the table itself: its LoadUniversal is not this program's"
            ])
        after.linesWritten += 2
        after.pagesHandedOver += 1
        after.tablesSkipped += 1
        let readOff = TesseractPatchCheck.verdict(before: before, after: after, patched: words, plain: words)
        #expect(readOff.offReasons == [.lineImages: "tesseract read its line images itself: its pixReadMem is not this program's"])
        after.linesRead += 2
        #expect(TesseractPatchCheck.verdict(before: before, after: after, patched: words, plain: words).offReasons.isEmpty)
        let differently = TesseractPatchCheck.verdict(before: before, after: after, patched: words, plain: [words[0]])
        #expect(
            differently.offReasons == [
                .lineImages: "the sample page read differently with it", .pageHandOff: "the sample page read differently with it"
            ])
        #expect(differently.isOn(.ambiguityTable))
        #expect(!TesseractPatchCheck.verdict(before: before, after: after, patched: [], plain: []).isOn(.lineImages))
    }

    // Debian's language models hold only the LSTM engine; the OSD model holds only the legacy one.
    @Test func modelsAreToldApartByTheirComponents() throws {
        let path = TesseractPatchCheck.currentDataPath
        #expect(TesseractPatchCheck.holdsOnlyLSTM("\(path)/eng.traineddata"))
        #expect(TesseractPatchCheck.holdsOnlyLSTM("\(path)/deu.traineddata"))
        #expect(!TesseractPatchCheck.holdsOnlyLSTM("\(path)/osd.traineddata"))
        #expect(!TesseractPatchCheck.holdsOnlyLSTM("\(path)/none.traineddata"))
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A model with both engines (the legacy unicharset and templates, and the LSTM), as tessdata's are.
        var both = [UInt8]([24, 0, 0, 0])
        for i in 0..<24 {
            let offset: Int64 = [1, 3, 17].contains(i) ? 4 + 8 * 24 + Int64(i) : -1
            withUnsafeBytes(of: offset.littleEndian) { both += $0 }
        }
        both += [UInt8](repeating: 7, count: 40)
        let file = dir.appendingPathComponent("both.traineddata")
        try Data(both).write(to: file)
        #expect(!TesseractPatchCheck.holdsOnlyLSTM(file.path))
        try Data([0xFF, 0xFF, 0xFF, 0x7F]).write(to: file)
        #expect(!TesseractPatchCheck.holdsOnlyLSTM(file.path))
    }

    // Tesseract's PNG request for each text line's image reaches this program's pixWriteMem, which writes PNM,
    // read back by its pixReadMem: the page reads as before.
    @Test func tesseractKeepsItsTextLineImagesUncompressed() throws {
        let image = try ImageLoader.load(try fixtureBytes("eng-gb-grocer.png"), kind: .png, maxMegapixels: 60).get()[0]
        let engine = try OCREngine(languages: ["eng"], pageSegmentationMode: 4)
        let before = TesseractPatchCheck.counts
        let ocr = try engine.recognize(image).get()
        #expect(TesseractPatchCheck.counts.linesWritten - before.linesWritten >= ocr.lines.count)
        #expect(TesseractPatchCheck.counts.linesRead - before.linesRead >= ocr.lines.count)
        #expect(ocr.lines.count >= 10)
        #expect(ocr.meanConfidence > 80)
    }

    // The line images written as PNM (a row at a time, not a byte per call as leptonica does) read back through
    // this program's pixReadMem exactly as leptonica's reader reads the same bytes: pixels, pad bits, depth,
    // resolution and input format; gray and 1-bit, odd widths, pad bits left dirty by the writer's pix.
    // (Leptonica's reader takes a first pixel byte that is white space for part of the header: ours does not.)
    @Test func lineImagesReadBackAsLeptonicaReadsThem() throws {
        _ = ImageLoader.silenced // leptonica's own message for the file it cannot read
        #expect(TesseractPatchCheck.check().isOn(.lineImages))
        var generator = SplitMix64(seed: 5)
        for (depth, width, height) in [
            (8, 1, 1), (8, 3, 7), (8, 33, 20), (8, 257, 40), (1, 1, 3), (1, 7, 5), (1, 33, 9), (1, 100, 31),
            (8, 2, 2), (1, 9, 2)
        ] {
            var pix = pixCreateNoInit(Int32(width), Int32(height), Int32(depth))
            defer { pixDestroy(&pix) }
            let data = try #require(pixGetData(pix))
            for i in 0..<Int(pixGetWpl(pix)) * height { data[i] = UInt32(truncatingIfNeeded: generator.next()) }
            let spaceFirst = width == 2 || width == 9 // the first pixel byte a space (0x20), or a byte beyond it
            data[0] = data[0] & 0x00FF_FFFF | (spaceFirst ? 0x2000_0000 : 0xA500_0000)
            var bytes: UnsafeMutablePointer<UInt8>?
            var size = 0
            #expect(pixWriteMem(&bytes, &size, pix, Int32(IFF_PNG)) == 0)
            defer { free(bytes) }
            let written = try #require(bytes)
            #expect(
                String(decoding: UnsafeBufferPointer(start: written, count: 18), as: UTF8.self)
                    == (depth == 8 ? "P5" : "P4") + "\n# shoebox line\n")
            var ours = pixReadMem(written, size)
            var theirs = TesseractPatches_leptonicaReadMem(written, size)?.assumingMemoryBound(to: PIX.self)
            defer {
                pixDestroy(&ours)
                pixDestroy(&theirs)
            }
            let a = try #require(ours)
            var same: Int32 = 0
            pixEqual(a, pix, &same)
            #expect(same == 1)
            if spaceFirst { continue }
            let b = try #require(theirs, "leptonica cannot read the PNM")
            #expect(pixGetDepth(a) == Int32(depth) && pixGetDepth(b) == Int32(depth))
            #expect(pixGetWidth(a) == pixGetWidth(b) && pixGetHeight(a) == pixGetHeight(b) && pixGetWpl(a) == pixGetWpl(b))
            #expect(pixGetXRes(a) == pixGetXRes(b) && pixGetYRes(a) == pixGetYRes(b) && pixGetSpp(a) == pixGetSpp(b))
            #expect(pixGetInputFormat(a) == pixGetInputFormat(b))
            let words = Int(pixGetWpl(a)) * height
            #expect(memcmp(pixGetData(a), pixGetData(b), words * 4) == 0, "\(depth)-bit \(width)×\(height)")
        }
    }

    // Tesseract keeps the page image Shoebox hands it instead of copying it (pixCopy): a hand-off per read, and
    // the same page read again, scaled in between, gives the same words.
    @Test func tesseractKeepsThePageImageItIsHandedWithoutACopy() throws {
        let image = try ImageLoader.load(try fixtureBytes("eng-gb-grocer.png"), kind: .png, maxMegapixels: 60).get()[0]
        let engine = try OCREngine(languages: ["eng"], pageSegmentationMode: 4)
        let before = TesseractPatchCheck.counts.pagesHandedOver
        let first = try engine.recognize(image).get()
        _ = try engine.recognize(image, scale: 1.5).get()
        let again = try engine.recognize(image).get()
        #expect(TesseractPatchCheck.counts.pagesHandedOver - before >= 3)
        #expect(first == again && first.wordCount > 20)
    }

    // Loading LSTM-only languages reaches this program's LoadUniversal instead of tesseract's: the count rises by
    // one per language, and the engine reads as before. The OSD model is the legacy engine's: its load builds
    // the table as tesseract does (other threads may load LSTM-only models meanwhile, so the OSD load is
    // checked on an engine of its own whose load this thread alone makes).
    @Test func lstmOnlyEnginesLoadWithoutTheUniversalAmbiguityTable() throws {
        let before = TesseractPatchCheck.counts.tablesSkipped
        let engine = try OCREngine(languages: ["deu", "eng"], pageSegmentationMode: 4)
        #expect(TesseractPatchCheck.counts.tablesSkipped >= before + 2)
        let image = try ImageLoader.load(try fixtureBytes("deu-supermarkt.png"), kind: .png, maxMegapixels: 60).get()[0]
        #expect(try engine.recognize(image).get().text.contains("Frischmarkt Berger GmbH"))
        #expect(!TesseractPatchCheck.holdsOnlyLSTM(TesseractPatchCheck.model(TesseractPatchCheck.currentDataPath, "osd")))
        let osd = try OCREngine(languages: ["osd"], pageSegmentationMode: 0)
        #expect(osd.orientation(image)?.degrees == 0)
    }
}
