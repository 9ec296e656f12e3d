import Foundation
import ShoeboxTestSupport
import Testing

@testable import ShoeboxCore

/// Runs `shoebox run` on `files` (name → bytes) in one folder and returns each file's record from records.jsonl.
/// The run must end (exit 0 or 1: no crash, no abort) with a record for every file.
private func runOn(_ files: [String: [UInt8]], in work: URL) throws -> [String: [String: Any]] {
    let folder = work.appendingPathComponent("scans/hostile")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (name, bytes) in files { try Data(bytes).write(to: folder.appendingPathComponent(name)) }
    let out = work.appendingPathComponent("out").path
    let run = try runProgram(shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today])
    #expect(run.code == 0 || run.code == 1, "exit \(run.code): \(run.err.suffix(2000))")
    let text = try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8)
    var records: [String: [String: Any]] = [:]
    for line in text.split(separator: "\n") {
        let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let source = try #require(o["source"] as? String)
        records[String(source.dropFirst("hostile/".count))] = o
    }
    #expect(records.count == files.count, "every file has a record: \(records.keys.sorted())")
    return records
}

private func failureCode(_ record: [String: Any]?) -> String? {
    (record?["failure"] as? [String: Any])?["code"] as? String
}

@Suite(.serialized) struct HostileDocumentEndToEndTests {
    /// Issue 15, class 7. Before: the page of 1e20 points trapped in PDFRenderer.pixels ("Double value cannot be
    /// converted to Int because the result would be greater than Int.max", SIGILL), and a page drawing an image
    /// declared 2000000000 × 2000000000 (as the page's own, inside a form XObject, or inline) aborted inside
    /// poppler ("Bogus memory allocation size", SIGABRT): the run died, records.jsonl was never written.
    @Test(.tags(.ocr)) func hostilePDFPagesAndImageHeadersEndInNamedFailures() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let giant = 2_000_000_000
        let image = pdfStream(
            "/Type/XObject/Subtype/Image/Width \(giant)/Height \(giant)/ColorSpace/DeviceGray/BitsPerComponent 8/Filter/ASCIIHexDecode",
            Array("FF>".utf8))
        let cover = "q 612 0 0 792 0 0 cm /Im0 Do Q"
        var files: [String: [UInt8]] = [
            "mediabox-1e20.pdf": [UInt8](onePagePDF(mediaBox: "0 0 99999999999999999999 99999999999999999999", content: "")),
            "mediabox-1e9.pdf": [UInt8](onePagePDF(mediaBox: "0 0 1000000000 1000000000", content: "")),
            "mediabox-int-range.pdf": [UInt8](onePagePDF(mediaBox: "-2147483648 -2147483648 2147483647 2147483647", content: "")),
            "mediabox-tiny.pdf": [UInt8](onePagePDF(mediaBox: "0 0 0.0001 0.0001", content: "")),
            "image-giant.pdf": [UInt8](onePagePDF(mediaBox: "0 0 612 792", resources: "/XObject<</Im0 5 0 R>>", content: cover, extra: [image])),
            "image-giant-wide.pdf": [UInt8](
                onePageImagePDF(
                    pointsWide: 612, pointsHigh: 792, width: giant, height: 1, filter: "ASCIIHexDecode",
                    data: Array("FF>".utf8))),
            "image-giant-in-form.pdf": [UInt8](
                onePagePDF(
                    mediaBox: "0 0 612 792", resources: "/XObject<</Fm0 5 0 R>>", content: "q 612 0 0 792 0 0 cm /Fm0 Do Q",
                    extra: [pdfStream("/Type/XObject/Subtype/Form/BBox[0 0 1 1]/Resources<</XObject<</Im0 6 0 R>>>>", Array("/Im0 Do".utf8)), image])),
            "image-giant-inline.pdf": [UInt8](
                onePagePDF(
                    mediaBox: "0 0 612 792", content: "q 612 0 0 792 0 0 cm BI /W \(giant) /H \(giant) /CS /G /BPC 8 /F /AHx ID FF> EI Q")),
            // Found by make fuzz: an image whose /Length is no reference is an object qpdf cannot read (so its size goes
            // unchecked) while poppler repairs it and aborts on its height ("Bogus memory allocation size").
            "image-damaged.pdf": [UInt8](
                onePagePDF(
                    mediaBox: "0 0 612 792", resources: "/XObject<</Im0 5 0 R>>", content: cover,
                    extra: [
                        Array(
                            "<</Length 99999999999999999999 0 R/Type/XObject/Subtype/Image/Width 2480/Height 2147483647/ColorSpace/DeviceGray/BitsPerComponent 8>>\nstream\n"
                                .utf8) + [UInt8](repeating: 0xFF, count: 64) + Array("\nendstream".utf8)
                    ])),
            "text-at-1e30.pdf": [UInt8](
                onePagePDF(
                    mediaBox: "0 0 612 792", resources: "/Font<</F1 5 0 R>>",
                    content: "BT /F1 12 Tf 1e30 0 0 1e30 10 10 Tm (TOTAL 12.50) Tj ET",
                    extra: [Array("<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>".utf8)]))
        ]
        // Image files whose headers declare absurd sizes (the rest of the file as it was).
        let png = try fixtureBytes("eng-gb-grocer.png")
        files["ihdr-2e9.png"] = pngDeclaring(png, width: UInt32(giant), height: UInt32(giant))
        // A JPEG whose frame header (SOF0) says 30000 × 30000.
        var jpeg = try fixtureBytes("spa-cafeteria.jpg")
        let frame = try #require((2..<jpeg.count - 9).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange(frame + 5..<frame + 9, with: [0x75, 0x30, 0x75, 0x30])
        files["sof-30000.jpg"] = jpeg
        let tiff = try imageMagick(
            [fixtures.path + "/receipts/eng-gb-grocer.png", "-compress", "lzw", "-define", "tiff:endian=lsb"],
            output: work.appendingPathComponent("base.tif"))
        files["tags-4294967295.tif"] = tiffDeclaring(tiff, width: .max, height: .max)
        files["tags-100000.tif"] = tiffDeclaring(tiff, width: 100_000, height: 100_000)

        let records = try runOn(files, in: work)
        for name in ["mediabox-1e20.pdf", "mediabox-1e9.pdf", "mediabox-int-range.pdf", "mediabox-tiny.pdf"] {
            #expect(failureCode(records[name]) == "bad-page-size", "\(name): \(records[name] ?? [:])")
        }
        for name in [
            "image-giant.pdf", "image-giant-wide.pdf", "image-giant-in-form.pdf", "image-giant-inline.pdf",
            "ihdr-2e9.png", "sof-30000.jpg", "tags-4294967295.tif", "tags-100000.tif"
        ] {
            #expect(failureCode(records[name]) == "image-too-large", "\(name): \(records[name] ?? [:])")
        }
        #expect(failureCode(records["image-damaged.pdf"]) == "corrupt-pdf", "\(records["image-damaged.pdf"] ?? [:])")
        let message = try #require((records["mediabox-1e20.pdf"]?["failure"] as? [String: Any])?["message"] as? String)
        #expect(message.contains("Page 1") && message.contains("14,400 points"), "\(message)")
        // Text placed at 1e30 points is no crash either: the page is read (nothing legible on it).
        #expect(records["text-at-1e30.pdf"] != nil)
    }

    /// Issue 15, class 14 (image types). Before: a 16-bit gray+alpha TIFF and 32-bit floating-point TIFFs
    /// (made by ImageMagick) failed as corrupt-image, "The image data is damaged". Now they are named as formats
    /// Shoebox does not read (unsupported-image-format); 16-bit gray+alpha PNGs and 16-bit gray TIFFs are read.
    @Test(.tags(.ocr)) func sixteenBitAlphaAndFloatImagesAreReadOrNamedUnsupported() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let receipt = fixtures.path + "/receipts/eng-gb-grocer.png"
        func make(_ name: String, _ arguments: [String]) throws -> [UInt8] {
            try imageMagick([receipt] + arguments, output: work.appendingPathComponent(name))
        }
        let files: [String: [UInt8]] = [
            "gray-alpha-16.tif": try make("a.tif", ["-colorspace", "Gray", "-alpha", "on", "-depth", "16"]),
            "float-32.tif": try make("b.tif", ["-colorspace", "Gray", "-depth", "32", "-define", "quantum:format=floating-point"]),
            "float-64.tif": try make("c.tif", ["-colorspace", "Gray", "-depth", "64", "-define", "quantum:format=floating-point"]),
            "gray-16.tif": try make("d.tif", ["-colorspace", "Gray", "-depth", "16"]),
            "gray-alpha-16.png": try make(
                "e.png",
                [
                    "-colorspace", "Gray", "-alpha", "on", "-depth", "16",
                    "-define", "png:bit-depth=16", "-define", "png:color-type=4"
                ])
        ]
        #expect(TIFFLayout.read(files["float-32.tif"]!, page: 0)?.sampleFormat == 3, "ImageMagick wrote floating-point samples")
        let records = try runOn(files, in: work)
        for (name, format) in [
            ("gray-alpha-16.tif", "TIFF of 16-bit gray with an alpha channel"),
            ("float-32.tif", "TIFF of 32-bit floating-point gray"),
            ("float-64.tif", "TIFF of 64-bit floating-point gray")
        ] {
            #expect(failureCode(records[name]) == "unsupported-image-format", "\(name): \(records[name] ?? [:])")
            let message = (records[name]?["failure"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains(format), "\(message)")
        }
        for name in ["gray-16.tif", "gray-alpha-16.png"] {
            #expect(records[name]?["merchant"] as? String == "Harbour Lane Grocers Ltd", "\(name): \(records[name] ?? [:])")
        }
    }

    /// Issue 15, class 14 (bytes after %%EOF). Before: a PDF with more than 2 KB after its %%EOF (5,000 random
    /// bytes, 100 KB of zeros) failed as truncated-pdf. Now it is read; a cut-off file is still truncated-pdf.
    @Test func bytesAfterTheEndOfAPDFAreNoTruncation() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let invoice = try fixtureBytes("eng-invoice-textpdf.pdf")
        var generator = SplitMix64(seed: 15)
        let noise = (0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let update = Array("\n9 0 obj\n<</Type/Annot/Subtype/Text/Rect[0 0 10 10]/Contents(".utf8) + Array(repeating: UInt8(ascii: "x"), count: 4000)
        let files: [String: [UInt8]] = [
            "noise-after-eof.pdf": invoice + noise,
            "zeros-after-eof.pdf": invoice + [UInt8](repeating: 0, count: 100_000),
            "signature-after-eof.pdf": invoice + Array(String(repeating: "\r\n-- \nSent from my scanner. ", count: 300).utf8),
            "cut.pdf": Array(invoice.prefix(invoice.count * 3 / 4)),
            "cut-update.pdf": invoice + update
        ]
        let records = try runOn(files, in: work)
        for name in ["noise-after-eof.pdf", "zeros-after-eof.pdf", "signature-after-eof.pdf"] {
            #expect(failureCode(records[name]) == nil, "\(name): \(records[name] ?? [:])")
            #expect(records[name]?["total"] as? String != nil, "\(name) is read: \(records[name] ?? [:])")
        }
        for name in ["cut.pdf", "cut-update.pdf"] {
            #expect(failureCode(records[name]) == "truncated-pdf", "\(name): \(records[name] ?? [:])")
        }
    }
}

/// A short run of the fuzz target (`make fuzz` runs 10,000 cases on an AddressSanitizer build): 200 mutated
/// fixtures read by the debug build's shoebox-fuzz, none may crash, hang or leave the process failing.
@Suite(.serialized) struct FuzzSmokeTests {
    @Test(.tags(.slow)) func twoHundredMutatedFilesNeitherCrashNorHang() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let python = try #require(which("python3"), "python3 is missing (make setup)")
        let binary = ProcessInfo.processInfo.environment["SHOEBOX_FUZZ_BIN"] ?? packageRoot.appendingPathComponent(".build/debug/shoebox-fuzz").path
        #expect(FileManager.default.isExecutableFile(atPath: binary), "\(binary) is not built: swift build")
        let r = try runProgram(
            python,
            [
                packageRoot.appendingPathComponent("fuzz/fuzz.py").path, "--cases", "200", "--seed", "smoke",
                "--batch", "100", "--timeout", "60", "--bin", binary, "--work", work.path
            ])
        #expect(r.code == 0, "\(r.out)\n\(r.err.suffix(3000))")
        #expect(r.out.contains("200 cases") && r.out.contains("0 crashes, hangs or leaks"), "\(r.out)")
    }
}
