internal import CLeptonica
internal import CPoppler
internal import Foundation
internal import PDFImages
public import ShoeboxCore
internal import ShoeboxImaging

/// Renders PDF pages to 8-bit gray at a given dpi in process (poppler-glib + cairo), and reads the text layer
/// rebuilt into physical lines when a page has one.
public final class PDFRenderer {
    private(set) var document: OpaquePointer?
    public let pageCount: Int
    /// The same file read by qpdf, for the size and the stored bytes of a page's images (pdf_images.c).
    private let storedImages: OpaquePointer?

    /// Opens a PDF from its bytes. Encrypted and damaged files fail with their own reasons.
    public init(bytes: [UInt8]) throws(DocumentFailure) {
        var error: UnsafeMutablePointer<GError>?
        // poppler keeps a reference to the bytes: give it its own GBytes copy.
        let gbytes = bytes.withUnsafeBufferPointer { p in g_bytes_new(p.baseAddress, gsize(p.count)) }
        defer { g_bytes_unref(gbytes) }
        let doc = poppler_document_new_from_bytes(gbytes, nil, &error)
        if let error {
            let failure: DocumentFailure
            if error.pointee.domain == CPoppler_error_quark() && error.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) {
                failure = .encryptedPDF
            } else {
                failure = .corruptPDF(error.pointee.message.map { String(cString: $0) } ?? "unknown error")
            }
            g_error_free(error)
            if let doc { CPoppler_unref(UnsafeMutableRawPointer(doc)) }
            throw failure
        }
        guard let doc else { throw DocumentFailure.corruptPDF("poppler returned no document") }
        document = doc
        pageCount = Int(poppler_document_get_n_pages(doc))
        storedImages = bytes.withUnsafeBufferPointer { p in PDFImages_open(p.baseAddress, p.count) }
    }

    deinit {
        if let document { CPoppler_unref(UnsafeMutableRawPointer(document)) }
        PDFImages_close(storedImages)
    }

    /// How a page's image is stored, when Shoebox can decode it without poppler.
    enum StoredKind: Equatable {
        /// A file the image loader reads: a JPEG as stored, or CCITT fax data in a TIFF header.
        case file(FileKind)
        /// Flate-compressed gray or RGB pixels, decoded row by row (pdf_images.c).
        case pixels
    }

    /// The largest image page `index` draws from its own resources, as stored: its pixel size, and how Shoebox
    /// can decode it without poppler (nil: only poppler can). Nil when qpdf cannot tell (images inside form
    /// XObjects, files qpdf cannot read).
    func storedImage(page index: Int) -> (width: Int, height: Int, kind: StoredKind?)? {
        var info = PDFImageInfo()
        guard PDFImages_largest(storedImages, Int32(index), &info) != 0 else { return nil }
        let kind: StoredKind? =
            switch Int(info.kind) {
            case PDFImageJPEG: .file(.jpeg)
            case PDFImageCCITT: .file(.tiff)
            case PDFImageFlate: .pixels
            default: nil
            }
        return (Int(info.width), Int(info.height), kind)
    }

    /// Page `index`'s largest image decoded by the image loader (at most `maxMegapixels`, read at no more than
    /// `placed.highest` dpi), or nil when it cannot be.
    func storedImagePage(page index: Int, kind: StoredKind, maxMegapixels: Int, placed: (dpi: Int, highest: Int))
        -> PageImage?
    {
        switch kind {
        case .file(let file):
            var length = 0
            guard let data = PDFImages_largestFile(storedImages, Int32(index), &length) else { return nil }
            let bytes = [UInt8](UnsafeBufferPointer(start: data, count: length))
            free(data)
            return try? ImageLoader.load(bytes, kind: file, maxMegapixels: maxMegapixels, placed: placed).get().first
        case .pixels:
            guard let pix = PDFImages_largestPix(storedImages, Int32(index)) else { return nil }
            return try? ImageLoader.page(
                from: pix.assumingMemoryBound(to: PIX.self), number: 1, maxMegapixels: maxMegapixels,
                placed: placed
            ).get()
        }
    }

    private func withPage<T>(_ index: Int, _ body: (OpaquePointer) -> T) -> T? {
        guard let document, let page = poppler_document_get_page(document, Int32(index)) else { return nil }
        defer { CPoppler_unref(UnsafeMutableRawPointer(page)) }
        return body(page)
    }

    /// The page size in pixels at `dpi`: ceil(points × dpi / 72); 0 for a size that is no number of pixels (a
    /// page of 1e30 points: `badPage` refuses such pages before anything is read from them).
    static func pixels(_ points: Double, dpi: Int) -> Int { PageGeometry.pixels(points, dpi: dpi) ?? 0 }

    /// Page `index`'s size in points as poppler reads it (its crop box, turned by /Rotate), or nil when the page
    /// does not exist.
    private func size(page index: Int) -> (width: Double, height: Double)? {
        withPage(index) { page in
            var wPt = 0.0
            var hPt = 0.0
            poppler_page_get_size(page, &wPt, &hPt)
            return (wPt, hPt)
        }
    }

    /// The first page whose declared size no real page has (not finite, under 1 point or over 14,400 points a
    /// side, `PageGeometry`), as its failure; nil when every page's size is believable. Poppler takes such a
    /// size as it is (a /MediaBox of 1e20 points is a page of 1e20 points), and every figure made from it
    /// (pixels, dpi, megapixels) would overflow.
    public func badPage() -> DocumentFailure? {
        for index in 0..<pageCount {
            guard let (w, h) = size(page: index) else { continue }
            if !PageGeometry.isBelievable(points: w) || !PageGeometry.isBelievable(points: h) {
                return .badPageSize(page: index + 1, width: w, height: h)
            }
        }
        return nil
    }

    /// The largest image page `index` may draw anywhere (its own resources, forms, patterns, annotations, inline
    /// images), as declared, when it is over `maxMegapixels`: poppler aborts the process on some absurd sizes
    /// while rendering, before any limit could look (declared_sizes.c).
    public func imageOverLimit(page index: Int, maxMegapixels: Int) -> DocumentFailure? {
        let declared: (width: Int, height: Int)?
        if let known = declaredImages[index] {
            declared = known
        } else {
            var width: Int64 = 0
            var height: Int64 = 0
            switch PDFImages_declaredLargest(storedImages, Int32(index), &width, &height) {
            case 0: declared = nil
            // A damaged image object: its size cannot be checked, and poppler would draw it at any size.
            case -1: return .damagedImage(page: index + 1)
            default: declared = (Int(width), Int(height))
            }
            declaredImages[index] = .some(declared)
        }
        guard let declared, !PageGeometry.fits(width: declared.width, height: declared.height, megapixels: maxMegapixels) else { return nil }
        return .imageTooLarge(width: declared.width, height: declared.height, limit: maxMegapixels)
    }

    /// The largest image each page looked at declares (nil: none), kept: a rendered page is looked at twice.
    private var declaredImages: [Int: (width: Int, height: Int)?] = [:]

    /// What a scanned page holds: its own image, or the resolution to render it at.
    public enum Scan {
        /// One embedded image covers the page, placed upright: its pixels, in gray, at their own resolution
        /// brought within `highestDPI` and `PageImage.readMegapixels` (rendering the page would resample them,
        /// and more pixels than the scan has add nothing: small print gets a scaled pass of its own).
        case image(PageImage)
        /// The page is rendered: at the pixels per inch of the image that covers most of it (a phone photo
        /// wrapped in a PDF at "72 dpi" is a large page of few pixels per inch), nil when none does (born-digital
        /// pages, vector drawings).
        case render(scanDPI: Int?)
        /// The page's image is over `maxMegapixels` (from its stored size, before anything decoded it).
        case failed(DocumentFailure)
    }

    /// An image stored as a JPEG of gray or RGB, as CCITT fax data or as Flate-compressed gray or RGB pixels is
    /// decoded by Shoebox from its stored bytes: a JPEG exactly as the same JPEG file would be (over
    /// `readMegapixels` at 1/2–1/8 by libjpeg, to its luminance), fax data at 1 bit a pixel, pixels row by
    /// row. Poppler makes two surfaces of 4 bytes a pixel of an image (2 × 132 MB for a 35-megapixel A4 scan)
    /// and takes several times as long as decoding the stored bytes. Other images are decoded by poppler.
    public func scan(page index: Int, highestDPI: Int, maxMegapixels: Int) -> Scan {
        if let failure = imageOverLimit(page: index, maxMegapixels: maxMegapixels) { return .failed(failure) }
        let stored = storedImage(page: index)
        if let stored, !PageGeometry.fits(width: stored.width, height: stored.height, megapixels: maxMegapixels) {
            return .failed(.imageTooLarge(width: stored.width, height: stored.height, limit: maxMegapixels))
        }
        return withPage(index) { page -> Scan in
            var wPt = 0.0
            var hPt = 0.0
            poppler_page_get_size(page, &wPt, &hPt)
            guard PageGeometry.isBelievable(points: wPt), PageGeometry.isBelievable(points: hPt) else {
                return .failed(.badPageSize(page: index + 1, width: wPt, height: hPt))
            }
            guard let list = poppler_page_get_image_mapping(page) else { return .render(scanDPI: nil) }
            defer { poppler_page_free_image_mapping(list) }
            var best: (area: Double, id: Int32, box: PopplerRectangle)?
            var images = 0
            var node: UnsafeMutablePointer<GList>? = list
            while let n = node {
                if let data = n.pointee.data {
                    let mapping = data.assumingMemoryBound(to: PopplerImageMapping.self).pointee
                    let w = abs(mapping.area.x2 - mapping.area.x1)
                    let h = abs(mapping.area.y2 - mapping.area.y1)
                    if best == nil || w * h > best!.area { best = (w * h, mapping.image_id, mapping.area) }
                    images += 1
                }
                node = n.pointee.next
            }
            guard let best, best.area >= 0.5 * wPt * hPt else { return .render(scanDPI: nil) }
            let boxW = abs(best.box.x2 - best.box.x1)
            let boxH = abs(best.box.y2 - best.box.y1)
            guard boxW > 0, boxH > 0 else { return .render(scanDPI: nil) }
            // Used as it is only when nothing else is on the page and the image is neither turned nor stretched
            // (a page turned by /Rotate has its sides swapped against the image's).
            func covers(width: Int, height: Int) -> Bool {
                let dpiX = Double(width) / (boxW / 72)
                let dpiY = Double(height) / (boxH / 72)
                return images == 1 && min(best.box.x1, best.box.x2) <= wPt * 0.01 && min(best.box.y1, best.box.y2) <= hPt * 0.01
                    && abs(boxW - wPt) <= wPt * 0.01 && abs(boxH - hPt) <= hPt * 0.01 && abs(dpiX - dpiY) <= dpiX * 0.02
            }
            if let stored, let kind = stored.kind, covers(width: stored.width, height: stored.height),
                let image = storedImagePage(
                    page: index, kind: kind, maxMegapixels: maxMegapixels,
                    placed: (PageGeometry.clamped((Double(stored.width) / (boxW / 72)).rounded()), highestDPI))
            {
                return .image(PageImage(pageNumber: index + 1, width: image.width, height: image.height, dpi: image.dpi, gray: image.gray))
            }
            guard let surface = poppler_page_get_image(page, best.id) else { return .render(scanDPI: nil) }
            defer { cairo_surface_destroy(surface) }
            let width = Int(cairo_image_surface_get_width(surface))
            let height = Int(cairo_image_surface_get_height(surface))
            guard width > 0, height > 0 else { return .render(scanDPI: nil) }
            let dpi = PageGeometry.clamped((Double(width) / (boxW / 72)).rounded())
            let coversPage = covers(width: width, height: height)
            let format = cairo_image_surface_get_format(surface)
            guard coversPage, dpi >= 1, dpi <= highestDPI, Double(width * height) / 1e6 <= PageImage.readMegapixels,
                format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_ARGB32, let data = cairo_image_surface_get_data(surface)
            else {
                return .render(scanDPI: dpi)
            }
            let gray = PDFRenderer.gray(
                data, width: width, height: height, stride: Int(cairo_image_surface_get_stride(surface)),
                alpha: format == CAIRO_FORMAT_ARGB32)
            return .image(PageImage(pageNumber: index + 1, width: width, height: height, dpi: dpi, gray: gray))
        } ?? .render(scanDPI: nil)
    }

    /// Cairo's 32-bit pixels (native-endian 0xAARRGGBB, premultiplied) as gray on white: (299 R + 587 G +
    /// 114 B) / 1000, in unsigned 32-bit arithmetic so that the loops vectorise.
    static func gray(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, alpha: Bool) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * height) { dst, count in
            for y in 0..<height {
                let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                let out = dst.baseAddress! + y * width
                @inline(__always) func level(_ p: UInt32, white: UInt32) -> UInt8 {
                    let r = (p >> 16 & 0xFF) + white
                    let g = (p >> 8 & 0xFF) + white
                    let b = (p & 0xFF) + white
                    return UInt8(truncatingIfNeeded: min(255, (r * 299 + g * 587 + b * 114) / 1000))
                }
                if alpha {
                    for x in 0..<width { out[x] = level(row[x], white: 255 - row[x] >> 24) }
                } else {
                    for x in 0..<width { out[x] = level(row[x], white: 0) }
                }
            }
            count = width * height
        }
    }

    /// The highest resolution, at most `dpi`, at which page `index` stays within `PageImage.readMegapixels`.
    public func readResolution(page index: Int, dpi: Int) -> Int {
        withPage(index) { page -> Int in
            var wPt = 0.0
            var hPt = 0.0
            poppler_page_get_size(page, &wPt, &hPt)
            guard let f = PageImage.readFactor(width: PDFRenderer.pixels(wPt, dpi: dpi), height: PDFRenderer.pixels(hPt, dpi: dpi)) else {
                return dpi
            }
            return max(1, Int((Double(dpi) * f).rounded(.down)))
        } ?? dpi
    }

    /// Renders page `index` (0-based) to gray at `dpi`.
    public func render(page index: Int, dpi: Int, maxMegapixels: Int) -> Result<PageImage, DocumentFailure> {
        let result: Result<PageImage, DocumentFailure>? = withPage(index) { page in
            var wPt = 0.0
            var hPt = 0.0
            poppler_page_get_size(page, &wPt, &hPt)
            guard PageGeometry.isBelievable(points: wPt), PageGeometry.isBelievable(points: hPt) else {
                return .failure(.badPageSize(page: index + 1, width: wPt, height: hPt))
            }
            let width = PDFRenderer.pixels(wPt, dpi: dpi)
            let height = PDFRenderer.pixels(hPt, dpi: dpi)
            guard width > 0, height > 0 else { return .failure(.renderFailed("page \(index + 1) has no size")) }
            guard PageGeometry.fits(width: width, height: height, megapixels: maxMegapixels) else {
                return .failure(.imageTooLarge(width: width, height: height, limit: maxMegapixels))
            }
            if let failure = imageOverLimit(page: index, maxMegapixels: maxMegapixels) { return .failure(failure) }
            guard let w32 = Int32(exactly: width), let h32 = Int32(exactly: height),
                let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w32, h32)
            else {
                return .failure(.renderFailed("cairo could not allocate the page"))
            }
            defer { cairo_surface_destroy(surface) }
            guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else {
                return .failure(.renderFailed("cairo could not allocate \(width)×\(height) pixels"))
            }
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_paint(cr)
            cairo_scale(cr, Double(dpi) / 72, Double(dpi) / 72)
            poppler_page_render(page, cr)
            cairo_destroy(cr)
            cairo_surface_flush(surface)
            guard let data = cairo_image_surface_get_data(surface) else { return .failure(.renderFailed("no pixel data")) }
            let gray = PDFRenderer.gray(data, width: width, height: height, stride: Int(cairo_image_surface_get_stride(surface)), alpha: false)
            return .success(PageImage(pageNumber: index + 1, width: width, height: height, dpi: dpi, gray: gray))
        }
        return result ?? .failure(.renderFailed("page \(index + 1) does not exist"))
    }

    /// The page's text layer as physical lines in pixel coordinates at `dpi`, or nil when it has no text.
    public func textLayer(page index: Int, dpi: Int) -> OCRPage? {
        let result: OCRPage?? = withPage(index) { page in
            var wPt = 0.0
            var hPt = 0.0
            poppler_page_get_size(page, &wPt, &hPt)
            guard let textPtr = poppler_page_get_text(page) else { return nil }
            defer { g_free(textPtr) }
            var rects: UnsafeMutablePointer<PopplerRectangle>?
            var count: guint = 0
            guard poppler_page_get_text_layout(page, &rects, &count) != 0, let rects else { return nil }
            defer { g_free(rects) }
            let characters = String(cString: textPtr).unicodeScalars.map(Character.init)
            let scale = Double(dpi) / 72
            // One rectangle per character of poppler_page_get_text; build words from runs of non-space characters.
            var words: [OCRWord] = []
            var current = ""
            var box: BoundingBox?
            func flush() {
                if let b = box, !current.isEmpty { words.append(OCRWord(text: current, box: b, confidence: 100)) }
                current = ""
                box = nil
            }
            let n = min(Int(count), characters.count)
            var lastRight = -1.0
            for i in 0..<n {
                let ch = characters[i]
                let r = rects[i]
                if ch.isWhitespace || ch.isNewline {
                    flush()
                    continue
                }
                // A gap wider than ~half a character between glyphs also separates words.
                if !current.isEmpty && r.x1 - lastRight > (r.y2 - r.y1) * 0.5 { flush() }
                // Clamped: a hostile text matrix can place glyphs at 1e30 points.
                let b = BoundingBox(
                    left: PageGeometry.clamped(r.x1 * scale), top: PageGeometry.clamped(r.y1 * scale),
                    right: PageGeometry.clamped(r.x2 * scale), bottom: PageGeometry.clamped(r.y2 * scale))
                box = box.map { $0.union(b) } ?? b
                current.append(ch)
                lastRight = r.x2
            }
            flush()
            guard !words.isEmpty else { return nil }
            return OCRPage(
                pageNumber: index + 1, width: PDFRenderer.pixels(wPt, dpi: dpi), height: PDFRenderer.pixels(hPt, dpi: dpi),
                dpi: dpi, source: .textLayer, lines: OCRPage.buildLines(from: words))
        }
        return result ?? nil
    }

    public static var popplerVersion: String { String(cString: poppler_get_version()) }
}
