import Foundation
import ShoeboxTestSupport
import Testing

@testable import ShoeboxCore
@testable import ShoeboxEngines

/// The readers themselves on hostile sizes (issue 15, class 7), with real poppler, qpdf and leptonica: each call
/// returns a named failure where it trapped or aborted before.
struct HostilePDFTests {
    let giant = 2_000_000_000

    /// Before: PDFRenderer.pixels trapped ("Double value cannot be converted to Int because the result would be
    /// greater than Int.max") in readResolution, render and textLayer on a page of 1e20 points.
    @Test func aPageOfNoBelievableSizeIsRefusedNotTrappedOn() throws {
        for box in ["0 0 99999999999999999999 99999999999999999999", "0 0 1000000000 1000000000", "0 0 0.0001 0.0001"] {
            let pdf = try PDFRenderer(bytes: [UInt8](onePagePDF(mediaBox: box, content: "")))
            #expect(pdf.badPage()?.code == "bad-page-size", "\(box)")
            #expect(pdf.readResolution(page: 0, dpi: 300) >= 1)
            guard case .failure(let failure) = pdf.render(page: 0, dpi: 300, maxMegapixels: 60) else {
                Issue.record("\(box): rendered")
                continue
            }
            #expect(failure.code == "bad-page-size", "\(box): \(failure)")
            guard case .failed(let scanned) = pdf.scan(page: 0, highestDPI: 300, maxMegapixels: 60) else {
                Issue.record("\(box): scanned")
                continue
            }
            #expect(scanned.code == "bad-page-size")
            _ = pdf.textLayer(page: 0, dpi: 300)
        }
        let letter = try PDFRenderer(bytes: [UInt8](onePagePDF(mediaBox: "0 0 612 792", content: "")))
        #expect(letter.badPage() == nil)
    }

    /// Before: rendering a page that draws an image declared 2000000000 × 2000000000 inside a form XObject or
    /// inline aborted the process in poppler ("Bogus memory allocation size").
    @Test func anAbsurdImageAnywhereOnAPageIsRefusedBeforePopplerRendersIt() throws {
        let image = pdfStream(
            "/Type/XObject/Subtype/Image/Width \(giant)/Height \(giant)/ColorSpace/DeviceGray/BitsPerComponent 8/Filter/ASCIIHexDecode",
            Array("FF>".utf8))
        let form = pdfStream("/Type/XObject/Subtype/Form/BBox[0 0 1 1]/Resources<</XObject<</Im0 6 0 R>>>>", Array("/Im0 Do".utf8))
        // A form that draws itself: the walk must end.
        let loop = pdfStream("/Type/XObject/Subtype/Form/BBox[0 0 1 1]/Resources<</XObject<</Fm0 5 0 R>>>>", Array("/Fm0 Do".utf8))
        let annotation = Array("<</Type/Annot/Subtype/Stamp/Rect[0 0 612 792]/AP<</N 6 0 R>>>>".utf8)
        let appearance = pdfStream("/BBox[0 0 1 1]", Array("BI /W \(giant) /H 1 /CS /G /BPC 8 ID \u{1} EI".utf8))
        var cases: [(String, Data)] = [
            (
                "form",
                onePagePDF(
                    mediaBox: "0 0 612 792", resources: "/XObject<</Fm0 5 0 R>>", content: "q 612 0 0 792 0 0 cm /Fm0 Do Q",
                    extra: [form, image])
            ),
            (
                "inline",
                onePagePDF(mediaBox: "0 0 612 792", content: "q 612 0 0 792 0 0 cm BI /W \(giant) /H \(giant) /CS /G /BPC 8 /F /AHx ID FF> EI Q")
            ),
            (
                "inline, real sizes",
                onePagePDF(mediaBox: "0 0 612 792", content: "BI /Width 2.0e9 /Height 000000000000000000000002000000000 /CS /G /BPC 8 ID \u{1} EI")
            ),
            (
                "annotation",
                pdfFile([
                    Array("<</Type/Catalog/Pages 2 0 R>>".utf8), Array("<</Type/Pages/Kids[3 0 R]/Count 1>>".utf8),
                    Array("<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Annots[5 0 R]/Contents 4 0 R>>".utf8),
                    pdfStream("", []), annotation, appearance
                ])
            )
        ]
        // The image under 60 nested forms (before: poppler aborted; a walk of 32 levels had not reached it).
        let nested = (0..<60).map { i in
            pdfStream("/Type/XObject/Subtype/Form/BBox[0 0 1 1]/Resources<</XObject<</Fm0 \(6 + i) 0 R>>>>", Array("/Fm0 Do".utf8))
        }
        cases.append(
            (
                "60 nested forms",
                onePagePDF(
                    mediaBox: "0 0 612 792", resources: "/XObject<</Fm0 5 0 R>>",
                    content: "q 612 0 0 792 0 0 cm /Fm0 Do Q", extra: nested + [image])
            ))
        for (name, bytes) in cases {
            let pdf = try PDFRenderer(bytes: [UInt8](bytes))
            #expect(pdf.imageOverLimit(page: 0, maxMegapixels: 60)?.code == "image-too-large", "\(name)")
            guard case .failure(let failure) = pdf.render(page: 0, dpi: 300, maxMegapixels: 60) else {
                Issue.record("\(name): rendered")
                continue
            }
            #expect(failure.code == "image-too-large", "\(name): \(failure)")
        }
        let looping = try PDFRenderer(
            bytes: [UInt8](
                onePagePDF(
                    mediaBox: "0 0 612 792", resources: "/XObject<</Fm0 5 0 R>>",
                    content: "/Fm0 Do", extra: [loop])))
        #expect(looping.imageOverLimit(page: 0, maxMegapixels: 60) == nil)
        // A real scan's image is not refused.
        let fax = try PDFRenderer(bytes: try fixtureBytes("fra-mobilier.pdf"))
        #expect(fax.imageOverLimit(page: 0, maxMegapixels: 60) == nil)
    }

    @Test func sizesAreCheckedWithoutTrapping() {
        #expect(PageGeometry.pixels(1e30, dpi: 300) == nil)
        #expect(PageGeometry.pixels(.nan, dpi: 300) == nil)
        #expect(PageGeometry.pixels(612, dpi: 300) == 2550)
        #expect(!PageGeometry.fits(width: .max, height: 2, megapixels: 60))
        #expect(!PageGeometry.fits(width: 8000, height: 8000, megapixels: 60))
        #expect(PageGeometry.fits(width: 7000, height: 8000, megapixels: 60))
        #expect(PageGeometry.fits(width: 7000, height: 8000, megapixels: .max))
        #expect(!PageGeometry.fits(width: 2_000_000_000, height: 2_000_000_000, megapixels: 10_000_000_000_000), "a gigapixel at most")
        #expect(PageGeometry.clamped(.nan) == 0 && PageGeometry.clamped(1e300) == 1 << 24)
    }
}
