import Foundation
import ShoeboxTestSupport
import Testing

@testable import ShoeboxCore
@testable import ShoeboxEngines

/// Files attached to a PDF (ZUGFeRD / Factur-X invoices) taken out through poppler-glib, on PDFs that qpdf
/// attaches real files to.
struct PDFAttachmentTests {
    /// A small CII invoice, as a Factur-X PDF carries it.
    static let invoice = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100">
          <rsm:ExchangedDocument><ram:ID>F-2026-17</ram:ID><ram:TypeCode>380</ram:TypeCode></rsm:ExchangedDocument>
        </rsm:CrossIndustryInvoice>

        """.utf8)

    /// An invoice of `count` bytes or a little more: `invoice` with a comment of repeated text inside the root.
    static func invoice(bytes count: Int) -> [UInt8] {
        let filler = Array(repeating: UInt8(ascii: "x"), count: max(0, count - invoice.count - 8))
        return Array(invoice.dropLast(28)) + Array("<!--".utf8) + filler + Array("-->\n".utf8) + Array(invoice.suffix(28))
    }

    /// A one-page PDF with `files` attached by qpdf under their keys, each also its file name (/F, /UF: the name
    /// poppler reports).
    static func attach(_ files: [(key: String, bytes: [UInt8], mime: String)], in dir: URL) throws -> URL {
        let qpdf = try #require(which("qpdf"), "qpdf is missing: make setup")
        var arguments = [fixtures.path + "/receipts/eng-invoice-textpdf.pdf", dir.appendingPathComponent("attached.pdf").path]
        for (index, file) in files.enumerated() {
            let path = dir.appendingPathComponent("file\(index)").path
            try Data(file.bytes).write(to: URL(fileURLWithPath: path))
            arguments += ["--add-attachment", path, "--key=" + file.key, "--filename=" + file.key, "--mimetype=" + file.mime, "--"]
        }
        let run = try runProgram(qpdf, arguments)
        #expect(run.code == 0, "\(run.err)")
        return dir.appendingPathComponent("attached.pdf")
    }

    static func renderer(_ url: URL) throws -> PDFRenderer {
        try PDFRenderer(bytes: [UInt8](try Data(contentsOf: url)))
    }

    @Test func anAttachedInvoiceComesOutByteForByte() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = try Self.renderer(try Self.attach([("factur-x.xml", Self.invoice, "text/xml")], in: dir))
        #expect(pdf.attachmentCount == 1)
        #expect(pdf.attachments() == [PDFAttachment(name: "factur-x.xml", xml: Self.invoice, head: Array(Self.invoice.prefix(16)), failure: nil)])
    }

    @Test func aPDFWithoutAttachmentsHasNone() throws {
        let pdf = try PDFRenderer(bytes: try fixtureBytes("eng-invoice-textpdf.pdf"))
        #expect(pdf.attachmentCount == 0)
        #expect(pdf.attachments().isEmpty)
    }

    /// A picture next to the invoice (as fnfe's JFE2024.png): both listed, only the invoice read in full.
    @Test func aPictureAndTheInvoiceAreBothListedAndOnlyTheInvoiceRead() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = try fixtureBytes("deu-ch-elektro.png")
        let pdf = try Self.renderer(
            try Self.attach([("JFE2024.png", png, "image/png"), ("factur-x.xml", Self.invoice, "text/xml")], in: dir))
        let read = pdf.readAttachments(maxBytes: DocumentFailure.maxInvoiceXMLBytes)
        #expect(read.map(\.attachment.name) == ["JFE2024.png", "factur-x.xml"])
        #expect(read.first?.attachment == PDFAttachment(name: "JFE2024.png", xml: nil, head: Array(png.prefix(16)), failure: nil))
        #expect(read.first?.held == 16, "a \(png.count)-byte picture is read for its first 16 bytes only")
        #expect(read.last?.attachment.xml == Self.invoice)
    }

    /// Poppler gives the file name (/UF or /F), not the name tree's key, in UTF-8 whatever the PDF stored it in
    /// (qpdf writes "Счёт.xml" in UTF-16 and "Rechnung-äöü€.xml" in PDFDocEncoding).
    @Test func theNameIsTheFileNameInUTF8() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["Счёт.xml", "Rechnung-äöü€.xml"] {
            let qpdf = try #require(which("qpdf"))
            let xml = dir.appendingPathComponent("invoice.xml")
            try Data(Self.invoice).write(to: xml)
            let out = dir.appendingPathComponent("named.pdf").path
            let run = try runProgram(
                qpdf, [fixtures.path + "/receipts/eng-invoice-textpdf.pdf", out, "--add-attachment", xml.path, "--key=k", "--filename=" + name, "--"])
            #expect(run.code == 0, "\(run.err)")
            let found = try Self.renderer(URL(fileURLWithPath: out)).attachments()
            #expect(found.map(\.name) == [name])
            #expect(found.first?.xml == Self.invoice)
        }
    }

    /// Short, empty, UTF-16 and byte-order-marked attachments: decided on what they have.
    @Test func shortAndOddlyEncodedAttachmentsAreDecidedOnTheirFirstBytes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(" \r\n".utf8) + Self.invoice
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("<a/>".utf8).flatMap { byte -> [UInt8] in [byte, 0] }
        let pdf = try Self.renderer(
            try Self.attach(
                [
                    ("a-tiny.xml", Array("<a/>".utf8), "text/xml"), ("b-hello.txt", Array("hello".utf8), "text/plain"),
                    ("c-empty.xml", [], "text/xml"), ("d-bom.xml", bom, "text/xml"), ("e-utf16.xml", utf16, "text/xml")
                ], in: dir))
        let read = pdf.attachments()
        #expect(read.count == 5)
        guard read.count == 5 else { return }
        #expect(read[0] == PDFAttachment(name: "a-tiny.xml", xml: Array("<a/>".utf8), head: Array("<a/>".utf8), failure: nil))
        #expect(read[1] == PDFAttachment(name: "b-hello.txt", xml: nil, head: Array("hello".utf8), failure: nil))
        #expect(read[2] == PDFAttachment(name: "c-empty.xml", xml: nil, head: [], failure: nil))
        #expect(read[3].xml == bom && read[3].head == Array(bom.prefix(16)))
        // Taken as XML so that the reader names its encoding when it refuses it.
        #expect(read[4].xml == utf16)
    }

    @Test func anInvoiceOverTheCapIsRefusedWithoutHoldingMoreThanTheCap() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let large = Self.invoice(bytes: 200_000)
        let pdf = try Self.renderer(try Self.attach([("factur-x.xml", large, "text/xml")], in: dir))
        let capped = pdf.readAttachments(maxBytes: 1000)
        #expect(capped.count == 1)
        #expect(capped.first?.attachment.failure?.code == "xml-too-large")
        #expect(capped.first?.attachment.xml == nil)
        #expect(capped.first?.attachment.head == Array(large.prefix(16)))
        #expect((capped.first?.held ?? .max) <= 1000)
        #expect(pdf.attachments().first?.xml == large, "read whole under the default cap")
    }

    /// /Params /Size edited in qpdf's QDF form (then `fix-qdf`): a size that says less is not believed, a
    /// missing one changes nothing, and one that says more than the cap refuses the XML before it is read.
    @Test func theDeclaredSizeIsNotBelieved() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let xml = Self.invoice(bytes: 5000)
        let attached = try Self.attach([("factur-x.xml", xml, "text/xml")], in: dir)
        let qpdf = try #require(which("qpdf"))
        let fixQDF = try #require(which("fix-qdf"), "fix-qdf (qpdf) is missing: make setup")
        let qdf = dir.appendingPathComponent("qdf.pdf").path
        #expect(try runProgram(qpdf, ["--qdf", "--object-streams=disable", attached.path, qdf]).code == 0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: qdf)))
        let stated = Array("/Size \(xml.count)\n".utf8)
        let at = (0...(bytes.count - stated.count)).filter { bytes[$0..<$0 + stated.count].elementsEqual(stated) }
        #expect(at.count == 1, "the attachment states its size once")
        func edited(_ replacement: String) throws -> PDFRenderer {
            let start = try #require(at.first)
            let path = dir.appendingPathComponent("edited.pdf").path
            let fixedPath = dir.appendingPathComponent("fixed.pdf").path
            var edited = bytes
            edited.replaceSubrange(start..<start + stated.count, with: Array(replacement.utf8))
            try Data(edited).write(to: URL(fileURLWithPath: path))
            // fix-qdf writes the repaired file to its standard output.
            let fixed = try runProgram("/bin/sh", ["-c", "\"$0\" \"$1\" > \"$2\"", fixQDF, path, fixedPath])
            #expect(fixed.code == 0, "\(fixed.err)")
            return try PDFRenderer(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixedPath))))
        }
        let saysLess = try edited("/Size 100\n")
        #expect(saysLess.attachments().first?.xml == xml)
        let capped = saysLess.readAttachments(maxBytes: 1000)
        #expect(capped.first?.attachment.failure?.code == "xml-too-large")
        #expect((capped.first?.held ?? .max) <= 1000)

        #expect(try edited("").attachments().first?.xml == xml, "no /Size")

        let saysMore = try edited("/Size 999999999\n").readAttachments(maxBytes: DocumentFailure.maxInvoiceXMLBytes)
        #expect(saysMore.first?.attachment.failure == .xmlTooLarge(bytes: 999_999_999))
        #expect(saysMore.first?.held == 16, "refused on its first bytes")
    }

    /// Many XML attachments within the cap each: the XML kept from one PDF stays within 4 × the cap.
    @Test func theXMLKeptFromOnePDFIsBoundedTogether() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let xml = Self.invoice(bytes: 600)
        let pdf = try Self.renderer(try Self.attach((0..<7).map { ("\($0).xml", xml, "text/xml") }, in: dir))
        let read = pdf.readAttachments(maxBytes: 1000)
        #expect(read.count == 7)
        #expect(read.prefix(6).allSatisfy { $0.attachment.xml == xml && $0.attachment.failure == nil })
        #expect(read.last?.attachment.failure?.code == "attachment-unreadable")
        #expect(read.reduce(0) { $0 + $1.held } <= 4000 + 400)
    }

    @Test func onlyTheFirstAttachmentsAreLookedAt() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let count = PDFRenderer.maxAttachments + 6
        let pdf = try Self.renderer(
            try Self.attach((0..<count).map { (String(format: "%03d.txt", $0), Array("note \($0)".utf8), "text/plain") }, in: dir))
        #expect(pdf.attachmentCount == count)
        let read = pdf.attachments()
        #expect(read.count == PDFRenderer.maxAttachments)
        #expect(read.first?.name == "000.txt" && read.last?.name == String(format: "%03d.txt", PDFRenderer.maxAttachments - 1))
    }

    /// Name trees and file specifications written by hand: a file whose stream is missing or is no stream, a
    /// tree that is its own kid, a Flate stream that is not Flate, a tree of nothing but a loop. Poppler skips
    /// the first two; none crashes or is taken as XML.
    @Test func brokenFileSpecificationsAreSkippedOrUnread() throws {
        let catalog = Array("<</Type/Catalog/Pages 2 0 R/Names<</EmbeddedFiles 5 0 R>>>>".utf8)
        let pages = Array("<</Type/Pages/Kids[3 0 R]/Count 1>>".utf8)
        let page = Array("<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 4 0 R>>".utf8)
        let content = pdfStream("", [])
        let trees: [[[UInt8]]] = [
            [
                Array("<</Names[(a.xml) 6 0 R (b.xml) 7 0 R (c.xml) 8 0 R]/Kids[5 0 R]>>".utf8),
                Array("<</Type/Filespec/F(a.xml)>>".utf8),
                Array("<</Type/Filespec/F(b.xml)/EF<</F 42>>>>".utf8),
                Array("<</Type/Filespec/F(c.xml)/EF<</F 9 0 R>>>>".utf8),
                pdfStream("/Type/EmbeddedFile/Filter/FlateDecode/Params<</Size 10>>", Array("<not flate".utf8))
            ],
            [Array("<</Kids[5 0 R]>>".utf8)]
        ]
        for (index, tree) in trees.enumerated() {
            let pdf = try PDFRenderer(bytes: [UInt8](pdfFile([catalog, pages, page, content] + tree)))
            let found = pdf.attachments()
            #expect(found.count <= pdf.attachmentCount, "tree \(index)")
            // Only c.xml has a stream (poppler 22.12 lists it once per pass of the looping tree); its data does
            // not inflate, so nothing of it is read.
            #expect(found.allSatisfy { $0 == PDFAttachment(name: "c.xml", xml: nil, head: [], failure: nil) }, "tree \(index): \(found)")
            #expect(found.isEmpty == (index == 1), "tree \(index): \(found)")
        }
    }

    static let devset = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/devset/zugferd")

    /// Every devset PDF has exactly one XML attachment, equal to its `.embedded.xml`; the others (two
    /// Zahlungsaufstellung.pdf, Bon_de_livraison.pdf, JFE2024.png) are not read as XML.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: devset.path)))
    func everyDevsetPDFYieldsItsEmbeddedXML() throws {
        let pdfs = try FileManager.default.contentsOfDirectory(atPath: Self.devset.path).filter { $0.hasSuffix(".pdf") }.sorted()
        #expect(!pdfs.isEmpty)
        var others = 0
        for name in pdfs {
            let base = Self.devset.appendingPathComponent(name).deletingPathExtension()
            let expected = [UInt8](try Data(contentsOf: base.appendingPathExtension("embedded.xml")))
            let pdf = try PDFRenderer(bytes: [UInt8](try Data(contentsOf: Self.devset.appendingPathComponent(name))))
            let found = pdf.attachments()
            print("TREE", index, pdf.attachmentCount, found)
            #expect(found.count == pdf.attachmentCount, "\(name)")
            let xml = found.filter { $0.xml != nil }
            #expect(xml.count == 1, "\(name): \(found.map(\.name))")
            #expect(xml.first?.xml == expected, "\(name)")
            #expect(found.allSatisfy { $0.failure == nil }, "\(name)")
            others += found.count - xml.count
        }
        #expect(others == 4)
    }
}
