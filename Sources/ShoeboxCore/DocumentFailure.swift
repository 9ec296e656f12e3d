/// Why a document could not become a record. Every cause has its own code and its own sentence
/// saying what happened and what to do.
public struct DocumentFailure: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public let code: String
    public let message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    public static let emptyFile = DocumentFailure(
        code: "empty-file",
        message: "The file is empty (0 bytes). Copy or scan the document again; the empty file can be deleted.")

    public static let missingFile = DocumentFailure(
        code: "missing-file",
        message:
            "The file does not exist (it was moved or deleted while Shoebox worked, or the path is mistyped). Check the path; a later run reads it if it is back."
    )

    public static func pageTimeout(page: Int, seconds: Double) -> DocumentFailure {
        DocumentFailure(
            code: "page-timeout",
            message:
                "Reading page \(page) took longer than \(String(format: "%g", seconds)) s and was abandoned (a huge or noisy page). Crop or split the scan, or raise pageTimeoutSeconds in the pipeline file."
        )
    }

    public static let badFileName = DocumentFailure(
        code: "bad-file-name",
        message:
            "The name of the file or of a folder above it is not valid UTF-8 (it was written by a system with another character set), so it cannot be opened by name here. Rename it, for example with `convmv -f latin1 -t utf8 --notest FILE`, and run again."
    )

    public static let controlCharacterInName = DocumentFailure(
        code: "control-character-in-name",
        message:
            "The name of the file or of a folder above it holds a control character (a tab, a line break), which no export, CSV or summary line can carry, so it is listed with \u{FFFD} in its place and not read. Rename it without the character (for example in a file manager, or `mv` with the name in quotes) and run again."
    )

    public static let changedWhileRead = DocumentFailure(
        code: "changed-while-read",
        message:
            "The file changed while it was being read (it was still being copied or saved). Let the copy finish and run again; the new version will be read."
    )

    public static func unreadable(_ detail: String) -> DocumentFailure {
        DocumentFailure(
            code: "unreadable-file",
            message: "Shoebox cannot read the file (\(detail)). Give the user running Shoebox read access (for example `chmod a+r`) and run again.")
    }

    public static func unsupportedType(head: String, claimedExtension: String) -> DocumentFailure {
        let claim = claimedExtension.isEmpty ? "" : " although its name ends in .\(claimedExtension)"
        return DocumentFailure(
            code: "unsupported-type",
            message:
                "The file is not a PDF, JPEG, PNG, TIFF or e-invoice XML\(claim) (it starts with \(head)). Convert it to PDF or an image, or move it out of the scan folder."
        )
    }

    public static func truncatedImage(_ kind: FileKind) -> DocumentFailure {
        DocumentFailure(
            code: "truncated-image",
            message:
                "The \(kind.rawValue.uppercased()) file ends before its image data is complete, usually an interrupted copy or upload. Copy the original from the phone or scanner again."
        )
    }

    public static func corruptImage(_ detail: String) -> DocumentFailure {
        DocumentFailure(
            code: "corrupt-image",
            message: "The image data is damaged and cannot be decoded (\(detail)). Open it in an image viewer to check, then scan or export it again."
        )
    }

    public static func truncatedPDF() -> DocumentFailure {
        DocumentFailure(
            code: "truncated-pdf",
            message: "The PDF has no end-of-file marker, so it was cut off while being copied or downloaded. Copy or download it again.")
    }

    public static func corruptPDF(_ detail: String) -> DocumentFailure {
        DocumentFailure(
            code: "corrupt-pdf",
            message: "The PDF is damaged and cannot be opened (poppler: \(detail)). Re-export or re-scan it.")
    }

    public static let encryptedPDF = DocumentFailure(
        code: "encrypted-pdf",
        message:
            "The PDF is password-protected. Save an unlocked copy (for example `qpdf --decrypt --password=… in.pdf out.pdf`) into the scan folder and run again."
    )

    public static func imageTooLarge(width: Int, height: Int, limit: Int) -> DocumentFailure {
        DocumentFailure(
            code: "image-too-large",
            message: "The page is \(width)×\(height) pixels, above the limit of \(limit) megapixels. Scan at 300 dpi or scale the image down.")
    }

    public static func damagedImage(page: Int) -> DocumentFailure {
        DocumentFailure(
            code: "corrupt-pdf",
            message:
                "Page \(page) of the PDF draws an image or form object that is damaged, so its size cannot be checked before it is drawn (a damaged image can crash the PDF library). Re-export the PDF, or print it to a new PDF, and run again."
        )
    }

    public static let noPages = DocumentFailure(
        code: "no-pages", message: "The PDF has no pages. Re-export it from the program that made it.")

    public static let noTextFound = DocumentFailure(
        code: "no-text-found",
        message: "OCR found no text on any page. Check that the scan is not blank, too dark or out of focus, and scan it again.")

    public static func ocrFailed(_ detail: String) -> DocumentFailure {
        DocumentFailure(
            code: "ocr-failed",
            message:
                "Tesseract could not recognise the page (\(detail)). Run `shoebox extract FILE` to see the error; if it repeats, report it with the file."
        )
    }

    public static func renderFailed(_ detail: String) -> DocumentFailure {
        DocumentFailure(
            code: "render-failed",
            message: "The PDF page could not be rendered (\(detail)). Re-export the PDF, or print it to a new PDF, and run again.")
    }

    public static func notARegularFile(_ what: String) -> DocumentFailure {
        DocumentFailure(
            code: "not-a-regular-file",
            message:
                "The path is \(what), not a regular file; Shoebox reads only regular files and never follows links. Put the document itself in the scan folder (copy it, do not link it)."
        )
    }

    public static func fileTooLarge(bytes: Int, limitMegabytes: Int) -> DocumentFailure {
        DocumentFailure(
            code: "file-too-large",
            message:
                "The file is \(ByteCount.text(Int64(bytes))), above the limit of \(ByteCount.text(Int64(limitMegabytes) << 20)) for one document. Split it (for example `qpdf --split-pages`) or scan at 300 dpi, or raise maxFileMegabytes in the pipeline file."
        )
    }

    public static func readerCrashed(signal: String) -> DocumentFailure {
        DocumentFailure(
            code: "reader-crashed",
            message:
                "Shoebox crashed (\(signal)) while reading this file in an earlier run, so it is not read again until it changes and the run can finish. Re-save it (for example print it to a new PDF, or `qpdf in.pdf out.pdf`) into the scan folder, and report the file if you can share it."
        )
    }

    /// A document no worker could finish: each that claimed it stopped (crashed, was killed, lost the store) before its
    /// lease ran out, `times` times.
    public static func workersStopped(times: Int) -> DocumentFailure {
        DocumentFailure(
            code: "reader-crashed",
            message:
                "A worker stopped while reading this file, \(times) times (it crashed, was killed or lost the store), so it is not read again until it changes and the run can finish. Re-save it (for example print it to a new PDF, or `qpdf in.pdf out.pdf`) into the scan folder, and report the file if you can share it."
        )
    }

    /// The codes of a file that was not there: when it is back, it is read again even with the same bytes.
    public static let goneCodes: Set<String> = ["file-removed", "missing-file"]

    public static let fileRemoved = DocumentFailure(
        code: "file-removed",
        message:
            "The file was read in an earlier run but is no longer in the scan folder (moved, renamed or deleted), so its record is kept out of exports. Put it back to have it read and exported again; a moved or renamed file is read under its new name."
    )

    // E-invoice XML, standalone or attached to a PDF (`ShoeboxEInvoice`). Untrusted: refused before parsing when
    // it is too large, not UTF-8 or declares a DTD; never read beyond its own bytes.

    /// The largest invoice XML read (the devset's largest is 71 KB; an invoice with thousands of lines stays far below).
    public static let maxInvoiceXMLBytes = 16 << 20

    public static func xmlTooLarge(bytes: Int?) -> DocumentFailure {
        let size = bytes.map { " is \(ByteCount.text(Int64($0)))," } ?? ""
        return DocumentFailure(
            code: "xml-too-large",
            message:
                "The invoice XML\(size) above the limit of \(ByteCount.text(Int64(maxInvoiceXMLBytes))) for one invoice, so it was not read. Ask the sender for the invoice again; an invoice this large is almost certainly not one."
        )
    }

    public static func xmlNotUTF8(_ found: String) -> DocumentFailure {
        DocumentFailure(
            code: "xml-not-utf8",
            message:
                "The invoice XML is in \(found), not UTF-8 as EN 16931 invoices are, so it was not read. Ask the sender for a UTF-8 file (or convert it: `iconv -f UTF-16 -t UTF-8`)."
        )
    }

    public static let xmlDTDRefused = DocumentFailure(
        code: "xml-dtd-refused",
        message:
            "The invoice XML declares a DTD or entities (<!DOCTYPE or <!ENTITY), which no e-invoice needs and which can make a reader fetch other files or expand text without end. It was refused unread. Ask the sender for the invoice without a DOCTYPE."
    )

    public static func xmlMalformed(_ detail: String) -> DocumentFailure {
        DocumentFailure(
            code: "xml-malformed",
            message: "The invoice XML is not well-formed (\(detail)); it was cut off or damaged. Ask the sender for the invoice again.")
    }

    public static func xmlNotAnInvoice(root: String) -> DocumentFailure {
        DocumentFailure(
            code: "xml-not-an-invoice",
            message:
                "The XML file's root element is <\(root)>, not an e-invoice (CII CrossIndustryInvoice, ZUGFeRD 1.0 CrossIndustryDocument, UBL Invoice or CreditNote). Move it out of the scan folder, or put the invoice it belongs to there."
        )
    }

    public static func attachmentUnreadable(_ detail: String) -> DocumentFailure {
        DocumentFailure(
            code: "attachment-unreadable",
            message:
                "The PDF's attached invoice could not be taken out (\(detail)). Re-export the PDF, or ask the sender for the invoice XML on its own.")
    }
}
