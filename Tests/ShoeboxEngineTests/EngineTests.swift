import CLeptonica
import Foundation
import GrayJPEG
import ShoeboxImaging
import ShoeboxTestSupport
import Testing

@testable import ShoeboxCore
@testable import ShoeboxEngines
@testable import ShoeboxExport
@testable import ShoeboxJudgement
@testable import ShoeboxPipeline
@testable import ShoeboxStore

struct ImageAndOCRTests {
    @Test(.tags(.ocr)) func tesseractReadsAPNGFixture() throws {
        let pages = try ImageLoader.load(try fixtureBytes("deu-supermarkt.png"), kind: .png, maxMegapixels: 60).get()
        #expect(pages.count == 1)
        #expect(pages[0].dpi == 300)
        let engine = try OCREngine(languages: ["deu", "eng"], pageSegmentationMode: 4)
        let ocr = try engine.recognize(pages[0]).get()
        #expect(ocr.source == .ocr)
        #expect(ocr.text.contains("Frischmarkt Berger GmbH"))
        #expect(ocr.meanConfidence > 70)
        // Lines are top to bottom, words carry boxes inside the page.
        let tops = ocr.lines.map(\.box.top)
        #expect(tops == tops.sorted())
        #expect(ocr.lines.allSatisfy { $0.box.right <= pages[0].width && $0.box.bottom <= pages[0].height })
    }

    @Test(.tags(.ocr)) func oneEngineReadsSeveralPagesInARow() throws {
        let engine = try OCREngine(languages: ["eng"], pageSegmentationMode: 4)
        for name in ["eng-gb-grocer.png", "eng-us-hardware.png"] {
            let image = try ImageLoader.load(try fixtureBytes(name), kind: .png, maxMegapixels: 60).get()[0]
            #expect(try engine.recognize(image).get().wordCount > 20)
        }
    }

    @Test func missingLanguageDataIsASetupErrorWithTheInstallCommand() {
        #expect {
            _ = try OCREngine(languages: ["xyz"], pageSegmentationMode: 4)
        } throws: { error in
            "\(error)".contains("apt-get install -y tesseract-ocr-xyz")
        }
    }

    // GrayJPEG decodes a JPEG straight to gray: exactly the pixels, resolution and input format of leptonica's
    // reader followed by its conversion to gray, for colour and gray JPEGs; a CMYK JPEG is left to leptonica.
    @Test func jpegsDecodeToGrayExactlyAsLeptonicaReadsAndConvertsThem() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let convert = try #require(which("convert"), "imagemagick is missing: apt-get install -y imagemagick (make setup)")
        let gray = dir.appendingPathComponent("gray.jpg").path
        let cmyk = dir.appendingPathComponent("cmyk.jpg").path
        try runProgram(
            convert,
            [
                fixtures.path + "/receipts/deu-baeckerei.jpg", "-colorspace", "Gray", "-density", "118", "-units",
                "PixelsPerCentimeter", gray
            ], environment: ["MAGICK_THREAD_LIMIT": "1"])
        try runProgram(
            convert, [fixtures.path + "/receipts/deu-baeckerei.jpg", "-colorspace", "CMYK", cmyk], environment: ["MAGICK_THREAD_LIMIT": "1"])
        var files = try ["deu-baeckerei.jpg", "msa-restoran.jpg", "spa-cafeteria.jpg"].map { try fixtureBytes($0) }
        files.append([UInt8](try #require(FileManager.default.contents(atPath: gray))))
        for (index, bytes) in files.enumerated() {
            var ours = bytes.withUnsafeBufferPointer { GrayJPEG_read($0.baseAddress, $0.count)?.assumingMemoryBound(to: PIX.self) }
            var read = bytes.withUnsafeBufferPointer { pixReadMem($0.baseAddress, $0.count) }
            var theirs = pixConvertTo8(read, 0)
            defer {
                pixDestroy(&ours)
                pixDestroy(&read)
                pixDestroy(&theirs)
            }
            let a = try #require(ours)
            let b = try #require(theirs)
            var same: Int32 = 0
            pixEqual(a, b, &same)
            #expect(same == 1 && pixGetDepth(a) == 8)
            #expect(pixGetXRes(a) == pixGetXRes(read) && pixGetYRes(a) == pixGetYRes(read) && pixGetInputFormat(a) == pixGetInputFormat(read))
            if index == files.count - 1 { #expect(pixGetXRes(a) == 300) } // 118 pixels per centimetre
        }
        let cmykBytes = [UInt8](try #require(FileManager.default.contents(atPath: cmyk)))
        #expect(cmykBytes.withUnsafeBufferPointer { GrayJPEG_read($0.baseAddress, $0.count) } == nil)
        #expect(try ImageLoader.load(cmykBytes, kind: .jpeg, maxMegapixels: 60).get()[0].width > 100)
    }

    @Test func truncatedJPEGFailsAsTruncated() throws {
        let bytes = try fixtureBytes("deu-baeckerei.jpg")
        let cut = Array(bytes.prefix(bytes.count / 2))
        #expect(throws: DocumentFailure.truncatedImage(.jpeg)) { try ImageLoader.load(cut, kind: .jpeg, maxMegapixels: 60).get() }
    }

    @Test func hugeImagesAreRefusedBeforeDecodingPixels() throws {
        let result = ImageLoader.load(try fixtureBytes("deu-supermarkt.png"), kind: .png, maxMegapixels: 1)
        guard case .failure(let f) = result else {
            Issue.record("expected failure")
            return
        }
        #expect(f.code == "image-too-large")
    }
}

struct PDFTests {
    @Test func bornDigitalPDFGivesItsTextLayerInPhysicalLines() throws {
        let pdf = try PDFRenderer(bytes: try fixtureBytes("eng-invoice-textpdf.pdf"))
        #expect(pdf.pageCount == 1)
        let text = try #require(pdf.textLayer(page: 0, dpi: 300))
        #expect(text.source == .textLayer)
        #expect(text.lines.contains { $0.text.contains("Northwind Web Services Ltd") })
        // Item and price on one physical line, not split into blocks.
        #expect(text.lines.contains { $0.text.contains("TOTAL") && $0.text.contains("1,498.80") })
    }

    @Test func aScannedPageIsReadFromItsOwnImage() throws {
        let pdf = try PDFRenderer(bytes: try fixtureBytes("fra-mobilier.pdf"))
        guard case .image(let image) = pdf.scan(page: 0, highestDPI: 300, maxMegapixels: 60) else {
            Issue.record("expected the page's image")
            return
        }
        #expect(image.width == 2576 && image.height == 3604 && image.dpi == 300) // pdfimages -list says so
        // The same pixels the renderer gives at that resolution, without decoding the image twice.
        let rendered = try pdf.render(page: 0, dpi: 300, maxMegapixels: 60).get()
        #expect(rendered.width == image.width && rendered.height == image.height)
        let difference = zip(image.gray, rendered.gray).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(image.gray.count) < 2)
        // A scan finer than wanted is read smaller (area averaging), close to what rendering smaller gives.
        guard case .image(let smaller) = pdf.scan(page: 0, highestDPI: 200, maxMegapixels: 60) else {
            Issue.record("expected the page's image")
            return
        }
        #expect(smaller.dpi == 200 && abs(smaller.width - 1717) <= 1 && abs(smaller.height - 2403) <= 1)
        let renderedSmaller = try pdf.render(page: 0, dpi: 200, maxMegapixels: 60).get()
        let pairs = zip(smaller.gray, renderedSmaller.gray)
        #expect(Double(pairs.reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(smaller.gray.count) < 8)
        // A born-digital page has no scan.
        guard
            case .render(nil) = try PDFRenderer(bytes: try fixtureBytes("eng-invoice-textpdf.pdf")).scan(page: 0, highestDPI: 300, maxMegapixels: 60)
        else {
            Issue.record("expected no scan")
            return
        }
    }

    @Test func imageOnlyPDFRendersAt300DPIGray() throws {
        let pdf = try PDFRenderer(bytes: try fixtureBytes("fra-mobilier.pdf"))
        #expect(pdf.textLayer(page: 0, dpi: 300) == nil)
        let image = try pdf.render(page: 0, dpi: 300, maxMegapixels: 60).get()
        #expect(image.dpi == 300)
        #expect(image.gray.count == image.width * image.height)
        #expect(image.gray.contains { $0 < 64 } && image.gray.contains { $0 > 200 }) // ink on paper
    }

    @Test func twoPagePDFHasTwoPages() throws {
        let pdf = try PDFRenderer(bytes: try fixtureBytes("deu-rechnung-2seiten.pdf"))
        #expect(pdf.pageCount == 2)
    }

    @Test func encryptedPDFIsNamedAsSuch() throws {
        let qpdf = try #require(which("qpdf"), "qpdf is missing: apt-get install -y qpdf (make setup)")
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("locked.pdf").path
        try runProgram(qpdf, ["--encrypt", "secret", "owner", "256", "--", fixtures.path + "/receipts/eng-invoice-textpdf.pdf", out])
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: out)))
        #expect(throws: DocumentFailure.encryptedPDF) { try PDFRenderer(bytes: bytes) }
    }

    @Test func garbageAfterThePDFMagicIsCorrupt() {
        #expect {
            _ = try PDFRenderer(bytes: Array("%PDF-1.4\nthis is not a pdf\n%%EOF\n".utf8))
        } throws: { error in
            (error as? DocumentFailure)?.code == "corrupt-pdf"
        }
    }
}

struct LanguageTests {
    @Test(
        arguments: [
            ("Vielen Dank für Ihren Einkauf. Rückgeld bitte sofort nachzählen. Zu zahlen inklusive Mehrwertsteuer", "deu"),
            ("Gracias por su visita. El importe total incluye el impuesto sobre el valor añadido", "spa"),
            ("Merci de votre visite. Le montant total à payer comprend la taxe sur la valeur ajoutée", "fra"),
            ("Thank you for shopping with us. Please keep your receipt for returns and exchanges", "eng"),
            ("Terima kasih kerana membeli-belah di kedai kami. Sila simpan resit ini untuk rujukan", "msa")
        ] as [(String, String)])
    func detectsTheFiveLanguages(text: String, language: String) {
        let guess = LanguageDetector.detect(text)
        #expect(guess.language == language)
        #expect(guess.confidence > 0.5)
    }

    @Test func shortTextIsUnknownNotAGuess() {
        #expect(LanguageDetector.detect("TOTAL 12.50") == .unknown)
    }
}

struct StoreTests {
    @Test func savesAndReadsRecordsInARealSQLiteFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try Store(directory: dir.path)
        let run = try store.beginRun(root: "/scans", pipeline: "default", started: "2026-11-30T00:00:00Z")
        var r = DocumentRecord(source: "trip/a.jpg", folder: "trip", sha256: "aa", status: .review)
        r.reasons = [.missing(.total)]
        try store.save(DocumentOutcome(record: r, size: 10, kind: .jpeg, pages: []), root: "/scans", runID: run)
        try store.save(
            DocumentOutcome(
                record: .failed("trip/b.pdf", folder: "trip", sha256: "bb", failure: .encryptedPDF),
                size: 5, kind: .pdf, pages: []), root: "/scans", runID: run)
        #expect(try store.records().map(\.source) == ["trip/a.jpg", "trip/b.pdf"])
        #expect(try store.finishedSHA(path: "trip/a.jpg") == "aa")
        #expect(try store.originalPaths()["trip/b.pdf"] == "/scans/trip/b.pdf")
        // Saving the same path again replaces, never duplicates.
        r.status = .accepted
        r.reasons = []
        try store.save(DocumentOutcome(record: r, size: 10, kind: .jpeg, pages: []), root: "/scans", runID: run)
        #expect(try store.records().count == 2)
        #expect(try store.records().first?.status == .accepted)

        // WAL and schema version, read back by the sqlite3 command line tool.
        let sqlite3 = try #require(which("sqlite3"), "sqlite3 is missing: apt-get install -y sqlite3 (make setup)")
        let mode = try runProgram(sqlite3, [dir.appendingPathComponent("store.sqlite").path, "PRAGMA journal_mode; PRAGMA user_version;"])
        #expect(mode.out == "wal\n\(Store.schemaVersion)\n")
    }

    /// The one decision path: every decision, wherever it was made, goes into one log with where, when, and what it
    /// changed (the field before and after, or the record's state); undo marks it, nothing is deleted.
    @Test func everyDecisionIsLoggedWithWhereAndWhatItChanged() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try Store(directory: dir.path)
        let run = try store.beginRun(root: "/scans", pipeline: "default", started: "2026-11-30T00:00:00Z")
        var r = DocumentRecord(source: "trip/a.jpg", folder: "trip", sha256: "aa", status: .review)
        r.currency = .eur
        r.total = Money(decimal: "12.30", currency: .eur)
        r.reasons = [.lowConfidence(.total)]
        try store.save(DocumentOutcome(record: r, size: 10, kind: .jpeg, pages: []), root: "/scans", runID: run)
        // One batch (as --apply writes it): the edit, then the accept, each seeing what the one before left.
        try store.decide(
            [(r, ReviewDecision(logged: "edit", field: "total", value: "12.80 EUR")!), (r, ReviewDecision(action: .accept))], at: "t1", by: .apply)
        let accepted = try #require(try store.effectiveRecords().first?.record)
        #expect(accepted.status == .accepted && accepted.total?.decimalString == "12.80")
        // An accepted record corrected later, in the browser.
        try store.decide([(accepted, ReviewDecision(logged: "edit", field: "total", value: "12.90 EUR")!)], at: "t2", by: .browser)
        #expect(try store.effectiveRecords().first?.record.total?.decimalString == "12.90")
        #expect(try store.effectiveRecords().first?.record.status == .accepted)
        _ = try store.undoLastDecision()
        let log = try store.decisionLog()
        #expect(log.map(\.desk) == [.apply, .apply, .browser])
        #expect(log.map(\.before) == ["12.30", "review", "12.80"])
        #expect(log.map(\.after) == ["12.80 EUR", "accepted", "12.90 EUR"])
        #expect(log.map(\.undone) == [false, false, true])
        #expect(try store.decisionLog(path: "trip/other.jpg").isEmpty)
        #expect(try store.effectiveRecords().first?.record.total?.decimalString == "12.80")
    }

    /// An expense entered by hand: a source without a file, accepted by the person's logged decision; undo takes it
    /// back to review.
    @Test func anExpenseEnteredByHandIsStoredWithItsAccept() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try Store(directory: dir.path)
        let entry = try Review.handEntry(
            folder: "trip", fields: ["date": "2026-03-14", "merchant": "Taxi Berlin", "total": "23.40 EUR"], id: "abc",
            today: CalendarDay(iso: "2026-11-30")!,
            folders: ["trip"]
        ).get()
        try store.addByHand(entry, at: "t1", by: .browser)
        #expect(try store.effectiveRecords().map(\.record.status) == [.accepted])
        #expect(try store.decisionLog().map { "\($0.desk?.rawValue ?? "") \($0.before ?? "") \($0.after ?? "")" } == ["browser review accepted"])
        #expect(throws: StoreError.self) { try store.addByHand(entry, at: "t2", by: .browser) }
        var scanned = entry
        scanned.enteredByHand = false
        #expect(throws: StoreError.self) { try store.addByHand(scanned, at: "t2", by: .browser) }
        _ = try store.undoLastDecision()
        #expect(try store.effectiveRecords().first?.record.status == .review)
    }

    @Test func aNewerStoreIsRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Store(directory: dir.path)
        let sqlite3 = try #require(which("sqlite3"))
        try runProgram(sqlite3, [dir.appendingPathComponent("store.sqlite").path, "PRAGMA user_version = 99;"])
        #expect { _ = try Store(directory: dir.path) } throws: { "\($0)".contains("newer than this Shoebox understands") }
    }
}

struct ZipTests {
    @Test func zipIsValidUTF8AndByteIdentical() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func write(_ name: String) throws -> Data {
            let path = dir.appendingPathComponent(name).path
            let w = try ZipWriter(path: path)
            try w.add(name: "receipts/2026-03-14_Bäckerei_10.40-EUR.jpg", bytes: Array("jpeg".utf8))
            try w.add(name: "summary.csv", bytes: Array("a,b\r\n".utf8))
            try w.finish()
            return try #require(FileManager.default.contents(atPath: path))
        }
        let a = try write("a.zip")
        let b = try write("b.zip")
        #expect(a == b)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("a.zip.partial").path))
        let unzip = try #require(which("unzip"), "unzip is missing: apt-get install -y unzip (make setup)")
        let test = try runProgram(unzip, ["-t", dir.appendingPathComponent("a.zip").path])
        #expect(test.code == 0)
        let list = try runProgram(unzip, ["-Z1", dir.appendingPathComponent("a.zip").path])
        #expect(list.out == "receipts/2026-03-14_Bäckerei_10.40-EUR.jpg\nsummary.csv\n")
    }
}

@Suite(.tags(.ocr)) struct OrientationTests {
    @Test func osdTellsHowToTurnASidewaysPage() throws {
        let upright = try ImageLoader.load(try fixtureBytes("deu-supermarkt.png"), kind: .png, maxMegapixels: 60).get()[0]
        let osd = try OCREngine(languages: ["osd"], pageSegmentationMode: 0)
        for turn in [90, 180, 270] {
            let page = upright.rotated(clockwise: turn)
            let found = try #require(osd.orientation(page), "OSD gave no answer for a page turned \(turn)°")
            print("turned \(turn): OSD says \(found)")
            let fixed = page.rotated(clockwise: found.degrees)
            #expect(fixed.width == upright.width && fixed.gray == upright.gray, "turned \(turn)°, OSD said \(found.degrees)°")
        }
    }
}

@Suite(.tags(.ocr)) struct PipelineReadingTests {
    let today = CalendarDay(year: 2026, month: 11, day: 30)!

    @Test func aSidewaysScanIsTurnedUprightAndRead() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("sideways.png").path
        let convert = try #require(which("convert"), "imagemagick is missing: apt-get install -y imagemagick (make setup)")
        try runProgram(convert, [fixtures.path + "/receipts/eng-gb-grocer.png", "-rotate", "90", png])
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: png)))
        let source = SourceFile(path: png, relativePath: "sideways.png", folder: "", kind: .png, sha256: SHA256.hex(of: bytes), size: bytes.count)
        let processor = try DocumentProcessor(config: PipelineConfig(), today: today)
        let record = processor.process(ReadyDocument(reading: source, today: today)).record
        #expect(record.total?.decimalString == "13.90")
        #expect(record.merchant == "Harbour Lane Grocers Ltd")
    }

    @Test func aBigJPEGIsDecodedAtHalfSizeAndStillReads() throws {
        // A 35-megapixel, 600-dpi JPEG (a flatbed A4 scan's size): libjpeg decodes it at 1/2, 300 dpi.
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let jpg = dir.appendingPathComponent("big.jpg").path
        let convert = try #require(which("convert"), "imagemagick is missing: apt-get install -y imagemagick (make setup)")
        try runProgram(
            convert,
            [
                fixtures.path + "/receipts/deu-supermarkt.png", "-scale", "500%", "-units", "PixelsPerInch",
                "-density", "600", "-quality", "85", jpg
            ], environment: ["MAGICK_THREAD_LIMIT": "1"])
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: jpg)))
        let size = try #require(ImageLoader.size(bytes))
        #expect(size.width * size.height > 34_000_000)
        let page = try ImageLoader.load(bytes, kind: .jpeg, maxMegapixels: 60).get()[0]
        #expect(page.width == (size.width + 1) / 2 && page.height == (size.height + 1) / 2)
        #expect(page.dpi == 300)
        let engine = try OCREngine(languages: ["deu", "eng"], pageSegmentationMode: 4)
        #expect(try engine.recognize(page).get().text.contains("Frischmarkt Berger GmbH"))
        // Over the limit it is refused from its header.
        #expect(throws: DocumentFailure.imageTooLarge(width: size.width, height: size.height, limit: 30)) {
            try ImageLoader.load(bytes, kind: .jpeg, maxMegapixels: 30).get()
        }
    }

    // Phones and scanning software write 72 or 96 dpi into images of thousands of pixels. A resolution that
    // makes the page wider than A3 on its shorter side is not believed: the page is read as one without a
    // resolution (300 dpi). At 96 dpi the small receipt (945 px, 9.8 in) keeps its 96.
    @Test func aResolutionThatMakesThePageLargerThanPaperIsNotBelieved() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let convert = try #require(which("convert"), "imagemagick is missing: apt-get install -y imagemagick (make setup)")
        func page(scale: String, density: String) throws -> PageImage {
            let jpg = dir.appendingPathComponent("r\(scale)-\(density).jpg").path
            try runProgram(
                convert,
                [
                    fixtures.path + "/receipts/eng-gb-grocer.png", "-scale", scale, "-units", "PixelsPerInch",
                    "-density", density, "-quality", "85", jpg
                ], environment: ["MAGICK_THREAD_LIMIT": "1"])
            return try ImageLoader.load([UInt8](try #require(FileManager.default.contents(atPath: jpg))), kind: .jpeg, maxMegapixels: 60).get()[0]
        }
        #expect(try page(scale: "100%", density: "96").dpi == 96)
        let big = try page(scale: "200%", density: "96") // 1890 px at 96 dpi: 19.7 inches
        #expect(big.width == 1890 && big.dpi == ImageLoader.assumedDPI)
        #expect(try page(scale: "200%", density: "200").dpi == 200) // 9.5 inches
        #expect(ImageLoader.statedResolution(96, width: 1152, height: 3000) == 96) // 12 inches
        #expect(ImageLoader.statedResolution(96, width: 1153, height: 3000) == nil)
        #expect(ImageLoader.statedResolution(69, width: 500, height: 800) == nil)
        let engine = try OCREngine(languages: ["eng"], pageSegmentationMode: 4)
        #expect(try engine.recognize(big).get().wordCount > 20)
    }

    // A scaled pass hands tesseract the page scaled row by row, never a scaled copy of the whole page: it reads
    // exactly what a scaled copy reads, in the scaled page's coordinates.
    @Test func readingScaledRowByRowEqualsReadingAScaledCopy() throws {
        let image = try ImageLoader.load(try fixtureBytes("eng-gb-grocer.png"), kind: .png, maxMegapixels: 60).get()[0]
        let engine = try OCREngine(languages: ["eng"], pageSegmentationMode: 4)
        for factor in [0.75, 1.5] {
            let copy = image.scaled(by: factor)
            let rows = try engine.recognize(image, scale: factor).get()
            let whole = try engine.recognize(copy).get()
            #expect(rows == whole)
            #expect(rows.width == copy.width && rows.height == copy.height && rows.dpi == copy.dpi)
            #expect(rows.wordCount > 20)
        }
    }

    // A 600-dpi A4 scan stored in a PDF as a JPEG is decoded from the JPEG's own bytes like a JPEG file (at 1/2
    // by libjpeg): poppler would make two 4-byte-a-pixel surfaces of it (2 × 132 MB) first.
    @Test func aBigJPEGInAPDFIsDecodedFromItsOwnBytes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let jpg = dir.appendingPathComponent("big.jpg").path
        let convert = try #require(which("convert"), "imagemagick is missing: apt-get install -y imagemagick (make setup)")
        try runProgram(
            convert, [fixtures.path + "/receipts/deu-supermarkt.png", "-scale", "500%", "-quality", "85", jpg],
            environment: ["MAGICK_THREAD_LIMIT": "1"])
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: jpg)))
        let size = try #require(ImageLoader.size(bytes))
        // The page is as big as the image at 600 dpi.
        let pdf = onePageImagePDF(
            pointsWide: size.width * 72 / 600, pointsHigh: size.height * 72 / 600, width: size.width,
            height: size.height, filter: "DCTDecode", data: bytes)
        let renderer = try PDFRenderer(bytes: [UInt8](pdf))
        let stored = try #require(renderer.storedImage(page: 0))
        #expect(stored.width == size.width && stored.height == size.height && stored.kind == .file(.jpeg))
        guard case .image(let page) = renderer.scan(page: 0, highestDPI: 300, maxMegapixels: 60) else {
            Issue.record("expected the page's own image")
            return
        }
        #expect(page.width == (size.width + 1) / 2 && page.height == (size.height + 1) / 2)
        #expect(abs(page.dpi - 300) <= 1, "\(page.dpi)")
        let engine = try OCREngine(languages: ["deu", "eng"], pageSegmentationMode: 4)
        #expect(try engine.recognize(page).get().text.contains("Frischmarkt Berger GmbH"))
        // Over the limit it is refused from the stored size, before anything decodes it.
        guard case .failed(let failure) = renderer.scan(page: 0, highestDPI: 300, maxMegapixels: 30) else {
            Issue.record("expected image-too-large")
            return
        }
        #expect(failure == .imageTooLarge(width: size.width, height: size.height, limit: 30))
    }

    // A black-and-white scan stored as CCITT Group 4 fax data (1,260 dpi, 22 MP) is decoded by leptonica at 1 bit
    // a pixel from a TIFF header that carries the PDF's parameters, and read at the highest resolution asked
    // for (300 dpi), as poppler's rendering of the page would be: the same ink, the same way round, also when
    // the PDF says /BlackIs1 (then black runs are shown white).
    @Test func aCCITTScanInAPDFIsDecodedWithoutPoppler() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (data, width, height) = try faxData("deu-supermarkt.png", in: dir)
        #expect(width == 945 * 4 && height == 1484 * 4)
        func mean(_ page: PageImage) -> Double { Double(page.gray.reduce(0) { $0 + Int($1) }) / Double(page.gray.count) }
        for blackIs1 in [false, true] {
            let pdf = onePageImagePDF(
                pointsWide: 216, pointsHigh: 339, width: width, height: height, bitsPerComponent: 1,
                filter: "CCITTFaxDecode", decodeParms: "<</K -1/Columns \(width)/Rows \(height)/BlackIs1 \(blackIs1)>>",
                data: data)
            let renderer = try PDFRenderer(bytes: [UInt8](pdf))
            #expect(renderer.storedImage(page: 0)?.kind == .file(.tiff))
            guard case .image(let page) = renderer.scan(page: 0, highestDPI: 300, maxMegapixels: 60) else {
                Issue.record("expected the page's own image")
                return
            }
            #expect(abs(page.dpi - 300) <= 1 && abs(page.width - 900) <= 1, "\(page.width) px at \(page.dpi) dpi")
            let rendered = try renderer.render(page: 0, dpi: 300, maxMegapixels: 60).get()
            #expect(abs(mean(page) - mean(rendered)) < 4, "\(mean(page)) against poppler's \(mean(rendered))")
            #expect(blackIs1 ? mean(page) < 128 : mean(page) > 200)
            if !blackIs1 {
                let engine = try OCREngine(languages: ["deu", "eng"], pageSegmentationMode: 4)
                #expect(try engine.recognize(page).get().text.contains("Frischmarkt Berger GmbH"))
            }
        }
    }

    // Flate-compressed pixels over 16 MP (1-bit and 8-bit gray, 8-bit RGB; PNG predictors of every row type,
    // as img2pdf stores a PNG) are decoded row by row into a leptonica image and read at 300 dpi: gray with the
    // ink poppler's rendering of the same page shows, RGB as the same gray; a stream that inflates to less than
    // its stated size is left to poppler.
    @Test func flatePixelsInAPDFAreDecodedRowByRow() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let small = try ImageLoader.load(try fixtureBytes("deu-supermarkt.png"), kind: .png, maxMegapixels: 60).get()[0]
        let page = small.scaled(by: 4) // 3780 × 5936, 22 MP
        func mean(_ p: PageImage) -> Double { Double(p.gray.reduce(0) { $0 + Int($1) }) / Double(p.gray.count) }
        // zlib-compressed by python3: `mode` bits (as given), gray, or rgb (gray made three channels); gray and rgb
        // rows each behind a PNG filter byte, the first 200 rows with the types 0–4 in turn, the rest with 0.
        func flate(_ raw: [UInt8], mode: String) throws -> [UInt8] {
            let input = dir.appendingPathComponent("raw")
            let output = dir.appendingPathComponent("z")
            try Data(raw).write(to: input)
            let script = """
                import sys, zlib
                raw = open(sys.argv[1], 'rb').read(); mode = sys.argv[3]; w = int(sys.argv[4])
                if mode == 'bits': open(sys.argv[2], 'wb').write(zlib.compress(raw, 6)); sys.exit(0)
                bpp = 1
                if mode == 'rgb':
                    rgb = bytearray(3 * len(raw)); rgb[0::3] = raw; rgb[1::3] = raw; rgb[2::3] = raw; raw = bytes(rgb); bpp = 3
                n = w * bpp; out = bytearray(); prev = bytes(n)
                def paeth(a, b, c):
                    p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                for y in range(len(raw) // n):
                    row = raw[y * n:(y + 1) * n]
                    if y >= 200: out.append(0); out += row; continue
                    f = y % 5; out.append(f)
                    for i in range(n):
                        a = row[i - bpp] if i >= bpp else 0; b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
                        out.append((row[i] - [0, a, b, (a + b) // 2, paeth(a, b, c)][f]) & 255)
                    prev = row
                open(sys.argv[2], 'wb').write(zlib.compress(bytes(out), 6))
                """
            let r = try runProgram("/usr/bin/python3", ["-c", script, input.path, output.path, mode, "\(page.width)"])
            #expect(r.code == 0, "\(r.err)")
            return [UInt8](try #require(FileManager.default.contents(atPath: output.path)))
        }
        let w = page.width
        let h = page.height
        let stride = (w + 7) / 8
        var bits = [UInt8](repeating: 0, count: stride * h) // 1 is white, as PDF gray has it
        page.gray.withUnsafeBufferPointer { g in
            bits.withUnsafeMutableBufferPointer { b in
                for y in 0..<h { for x in 0..<w where g[y * w + x] >= 128 { b[y * stride + x / 8] |= 0x80 >> UInt8(x % 8) } }
            }
        }
        let cases: [(name: String, space: String, bpc: Int, data: [UInt8], parms: String)] = [
            ("1-bit", "DeviceGray", 1, try flate(bits, mode: "bits"), ""),
            ("gray", "DeviceGray", 8, try flate(page.gray, mode: "gray"), "<</Predictor 15/Colors 1/BitsPerComponent 8/Columns \(w)>>"),
            ("rgb", "DeviceRGB", 8, try flate(page.gray, mode: "rgb"), "[<</Predictor 15/Colors 3/BitsPerComponent 8/Columns \(w)>>]")
        ]
        let engine = try OCREngine(languages: ["deu", "eng"], pageSegmentationMode: 4)
        var grayRead: PageImage?
        for c in cases {
            let pdf = onePageImagePDF(
                pointsWide: 216, pointsHigh: 339, width: w, height: h, colorSpace: c.space, bitsPerComponent: c.bpc,
                filter: "FlateDecode", decodeParms: c.parms, data: c.data)
            let renderer = try PDFRenderer(bytes: [UInt8](pdf))
            #expect(renderer.storedImage(page: 0)?.kind == .pixels, "\(c.name)")
            guard case .image(let read) = renderer.scan(page: 0, highestDPI: 300, maxMegapixels: 60) else {
                Issue.record("\(c.name): expected the page's own image")
                continue
            }
            #expect(abs(read.dpi - 300) <= 1 && abs(read.width - 900) <= 1, "\(c.name): \(read.width) px at \(read.dpi) dpi")
            if c.space == "DeviceRGB" {
                // Gray made RGB reads as the gray itself (poppler renders this RGB 7 levels darker than the same
                // gray image: its own colour path).
                #expect(read.gray == grayRead?.gray, "\(c.name)")
            } else {
                let rendered = try renderer.render(page: 0, dpi: 300, maxMegapixels: 60).get()
                #expect(abs(mean(read) - mean(rendered)) < 2, "\(c.name): \(mean(read)) against poppler's \(mean(rendered))")
            }
            if c.name == "gray" { grayRead = read }
            #expect(try engine.recognize(read).get().text.contains("Frischmarkt Berger GmbH"), "\(c.name)")
        }
        // Cut short: half the compressed data. Not decoded here; poppler is asked instead.
        let short = onePageImagePDF(
            pointsWide: 216, pointsHigh: 339, width: w, height: h, bitsPerComponent: 1, filter: "FlateDecode",
            data: Array(cases[0].data.prefix(cases[0].data.count / 2)))
        #expect(try PDFRenderer(bytes: [UInt8](short)).storedImagePage(page: 0, kind: .pixels, maxMegapixels: 60, placed: (1260, 300)) == nil)
    }

    @Test func theWorkersShareEnginesAndMakeOneOnlyWhenAllOfItsSetAreBusy() throws {
        let pool = try EnginePool(config: PipelineConfig(), maxIdle: 3)
        #expect(pool.idleCount == 1) // the first pass's, made at once
        // Two pages in German at the same time need two engines.
        let (outer, inner) = try pool.use(["deu", "eng"]) { a in
            (ObjectIdentifier(a), try! pool.use(["deu", "eng"]) { b in ObjectIdentifier(b) })
        }
        #expect(outer != inner)
        #expect(pool.idleCount == 3)
        // Later pages take a waiting one: no engine is made or closed.
        let again = try pool.use(["deu", "eng"]) { ObjectIdentifier($0) }
        #expect(again == outer || again == inner)
        _ = try pool.use(["eng"]) { _ in 0 }
        #expect(pool.idleCount == 3)
    }

    /// Engines of every language set a run meets are not all kept: past the bound, the one handed back longest ago is
    /// closed, and the ones just used stay.
    @Test(.tags(.ocr)) func thePoolKeepsOnlyAsManyEnginesWaitingAsItsBound() throws {
        let pool = try EnginePool(config: PipelineConfig(), maxIdle: 2)
        #expect(pool.idleCount == 1)
        let (a, b) = try pool.use(["deu", "eng"]) { a in
            (ObjectIdentifier(a), try! pool.use(["deu", "eng"]) { b in ObjectIdentifier(b) })
        }
        // Three engines made, two kept: the English one, handed back longest ago, was closed.
        #expect(pool.idleCount == 2)
        let german = try pool.use(["deu", "eng"]) { ObjectIdentifier($0) }
        #expect(german == a || german == b)
        // Every language set still reads: an engine closed is made again when it is asked for.
        let page = try ImageLoader.load(try fixtureBytes("deu-supermarkt.png"), kind: .png, maxMegapixels: 60).get()[0]
        for languages in [["fra", "eng"], ["spa", "eng"], ["msa", "eng"], ["eng"], ["deu", "eng"]] {
            let read = try pool.use(languages) { engine in
                (try? engine.recognize(page, scale: 1, pageSegmentationMode: 6, adaptiveThreshold: false, timeout: nil, cpu: nil).get().text) ?? ""
            }
            #expect(read.contains("Frischmarkt"), "\(languages): \(read)")
            #expect(pool.idleCount <= 2)
        }
    }

    @Test func theSecondPassJoinsOnlyWhenAFieldIsUncertain() throws {
        // A clean synthetic receipt: its total is confirmed by arithmetic, so one pass is enough.
        let path = fixtures.appendingPathComponent("receipts/deu-supermarkt.png").path
        let bytes = try fixtureBytes("deu-supermarkt.png")
        let source = SourceFile(
            path: path, relativePath: "deu-supermarkt.png", folder: "", kind: .png, sha256: SHA256.hex(of: bytes), size: bytes.count)
        // The rules alone decide acceptance here (the calibrated gate is not what this test is about).
        var config = PipelineConfig()
        config.acceptPrecision = 0
        let outcome = try DocumentProcessor(config: config, today: today).process(ReadyDocument(reading: source, today: today))
        #expect(outcome.record.status == .accepted)
        #expect(outcome.extraction?.totalConfirmed == true)
        #expect(outcome.extraction?.amounts.contains { $0.checks.contains(.bothOCRPasses) } == false)
    }
}
