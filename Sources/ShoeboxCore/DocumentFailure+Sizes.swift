/// Failures of documents whose declared sizes or formats Shoebox refuses before decoding them: a PDF page of no
/// believable size, an image format Shoebox cannot turn gray.
extension DocumentFailure {
    /// A PDF page whose MediaBox (or CropBox) is not a finite size between 1 point and `PageGeometry.largestPagePoints`
    /// on each side: hostile or broken, never a real page.
    public static func badPageSize(page: Int, width: Double, height: Double) -> DocumentFailure {
        DocumentFailure(
            code: "bad-page-size",
            message:
                "Page \(page) of the PDF declares a size of \(PageGeometry.describe(width)) × \(PageGeometry.describe(height)) points, which no real page has (the PDF format allows 1 to 14,400 points, 200 inches, a side). The PDF is damaged or was made to break readers: re-export it or print it to a new PDF, and run again."
        )
    }

    /// An image file that decodes as something Shoebox cannot turn into gray (`format` names it, as the file's
    /// header states it: "TIFF of 32-bit floating-point samples").
    public static func unsupportedImageFormat(_ format: String) -> DocumentFailure {
        DocumentFailure(
            code: "unsupported-image-format",
            message:
                "The image is a \(format), which Shoebox does not read (the file is not damaged). Save it as an 8-bit gray or colour PNG, JPEG or TIFF (for example `convert IN -depth 8 OUT.png`) and run again."
        )
    }
}
