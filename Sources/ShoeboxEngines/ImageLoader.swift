internal import CLeptonica
internal import Foundation
internal import GrayJPEG
public import ShoeboxCore
internal import ShoeboxImaging

/// Loads JPEG/PNG/TIFF bytes through leptonica into 8-bit gray pages, with the image's own resolution.
public enum ImageLoader {
    /// Resolution assumed when the file does not state a usable one.
    public static let assumedDPI = 300

    /// `placed`: for an image from a PDF page, its resolution there (the file's own is not used) and the highest
    /// resolution to read it at (a higher one is scaled down to it, as a rendered page would be).
    public static func load(
        _ bytes: [UInt8], kind: FileKind, maxMegapixels: Int,
        placed: (dpi: Int, highest: Int)? = nil
    ) -> Result<[PageImage], DocumentFailure> {
        _ = silenced
        if kind != .tiff && !FileKind.isComplete(bytes, kind: kind) { return .failure(.truncatedImage(kind)) }
        var pages: [PageImage] = []
        if kind == .tiff {
            // Multi-page TIFF: read pages until leptonica has no more.
            for n in 0..<1000 {
                if let failure = tiffTooLarge(bytes, index: n, maxMegapixels: maxMegapixels) { return .failure(failure) }
                guard let pix = bytes.withUnsafeBufferPointer({ p in pixReadMemTiff(p.baseAddress, p.count, Int32(n)) }) else {
                    if n == 0 { return .failure(tiffFailure(bytes, index: 0)) }
                    break
                }
                switch page(from: pix, number: n + 1, maxMegapixels: maxMegapixels, placed: placed) {
                case .success(let pg): pages.append(pg)
                case .failure(let f): return .failure(f)
                }
            }
            guard !pages.isEmpty else { return .failure(.corruptImage("leptonica cannot read the TIFF")) }
            return .success(pages)
        }
        let size = ImageLoader.size(bytes)
        // An image over the limit is refused from its header, before any pixel is decoded.
        if let size, !PageGeometry.fits(width: size.width, height: size.height, megapixels: maxMegapixels) {
            return .failure(.imageTooLarge(width: size.width, height: size.height, limit: maxMegapixels))
        }
        // A JPEG larger than PageImage.readMegapixels is decoded to its luminance only: the gray page directly,
        // without the colour image four times its size in between (140 MB for a 35-megapixel A4 scan).
        // One of twice that size or more is also decoded smaller by libjpeg itself (1/2, 1/4 or 1/8, keeping at
        // least half of readMegapixels): a 600-dpi A4 scan comes out at 300 dpi without ever being whole in memory.
        // Smaller ones are read as leptonica's general reader reads them, then turned gray with its weights
        // (0.3 R + 0.5 G + 0.2 B), which reads faint receipts a little better than the luminance. A JPEG the
        // luminance reader refuses (CMYK) goes the general way too.
        var pix: UnsafeMutablePointer<PIX>?
        var reduction = 1
        if kind == .jpeg, let size, Double(size.width * size.height) / 1e6 > PageImage.readMegapixels {
            reduction = PageImage.decodeReduction(width: size.width, height: size.height)
            var warnings: Int32 = 0
            pix = bytes.withUnsafeBufferPointer { p in
                pixReadMemJpeg(p.baseAddress, p.count, 0, Int32(reduction), &warnings, Int32(L_JPEG_READ_LUMINANCE))
            }
            if pix == nil { reduction = 1 }
        }
        // Other JPEGs are decoded to gray a scanline at a time (GrayJPEG), to exactly the pixels leptonica's reader
        // and its conversion to gray give, without the colour page in between.
        if pix == nil, kind == .jpeg {
            pix = bytes.withUnsafeBufferPointer { p in GrayJPEG_read(p.baseAddress, p.count)?.assumingMemoryBound(to: PIX.self) }
        }
        if pix == nil { pix = bytes.withUnsafeBufferPointer { p in pixReadMem(p.baseAddress, p.count) } }
        return page(from: pix, number: 1, maxMegapixels: maxMegapixels, decodedAt: reduction, placed: placed).map { [$0] }
    }

    /// A resolution stated in an image file, when it is believable: within 70–2400 dpi, and making a page no
    /// wider than `largestPaperInches` on its shorter side. Phones and some scanning software write 72 or 96
    /// dpi into images of thousands of pixels (a 4945 × 6981 A4 scan "at 96 dpi" would be 51 inches wide);
    /// such an image is read as one without a resolution. Believed, the figure would also cost memory: tesseract
    /// builds its text-line projection at 100 dpi of the resolution it is told, so below 100 dpi it makes a
    /// full-size map of the page plus a 4-byte-per-pixel sum of it (for a 16-megapixel page, 76 MB more than at
    /// 300 dpi).
    static func statedResolution(_ xres: Int, width: Int, height: Int) -> Int? {
        guard (70...2400).contains(xres), Double(min(width, height)) / Double(xres) <= largestPaperInches else { return nil }
        return xres
    }

    /// The shorter side of the largest paper Shoebox expects, in inches: A3 (11.7) and tabloid (11) fit.
    public static let largestPaperInches = 12.0

    /// The size of an image from its header, without decoding it.
    public static func size(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        var w: Int32 = 0
        var h: Int32 = 0
        var bps: Int32 = 0
        var spp: Int32 = 0
        var iscmap: Int32 = 0
        var format: Int32 = 0
        let ok = bytes.withUnsafeBufferPointer { p in pixReadHeaderMem(p.baseAddress, p.count, &format, &w, &h, &bps, &spp, &iscmap) }
        return ok == 0 && w > 0 && h > 0 ? (Int(w), Int(h)) : nil
    }

    /// How many pages a TIFF holds (0 when leptonica cannot tell), without decoding them.
    public static func tiffPageCount(_ bytes: [UInt8]) -> Int {
        _ = silenced
        var mutable = bytes
        return mutable.withUnsafeMutableBufferPointer { p -> Int in
            guard let base = p.baseAddress, let file = fmemopen(base, p.count, "r") else { return 0 }
            defer { fclose(file) }
            var n: Int32 = 0
            return tiffGetCount(file, &n) == 0 ? Int(n) : 0
        }
    }

    /// Page `index` (0-based) of a TIFF, decoded alone: a TIFF of thousands of pages is read one page at a time.
    public static func tiffPage(_ bytes: [UInt8], index: Int, maxMegapixels: Int) -> Result<PageImage, DocumentFailure> {
        _ = silenced
        if let failure = tiffTooLarge(bytes, index: index, maxMegapixels: maxMegapixels) { return .failure(failure) }
        guard let pix = bytes.withUnsafeBufferPointer({ p in pixReadMemTiff(p.baseAddress, p.count, Int32(index)) }) else {
            return .failure(tiffFailure(bytes, index: index))
        }
        return page(from: pix, number: index + 1, maxMegapixels: maxMegapixels)
    }

    /// A TIFF page whose directory declares more than `maxMegapixels`, refused before leptonica decodes it (its
    /// size read as the unsigned numbers TIFF stores: leptonica's signed ones turn 4294967295 into -1).
    static func tiffTooLarge(_ bytes: [UInt8], index: Int, maxMegapixels: Int) -> DocumentFailure? {
        guard let layout = TIFFLayout.read(bytes, page: index),
            !PageGeometry.fits(width: layout.width, height: layout.height, megapixels: maxMegapixels)
        else { return nil }
        return .imageTooLarge(width: layout.width, height: layout.height, limit: maxMegapixels)
    }

    /// Why leptonica could not decode TIFF page `index`: a format it does not read, named from the page's directory
    /// (16-bit gray with alpha, floating-point samples), or damage.
    static func tiffFailure(_ bytes: [UInt8], index: Int) -> DocumentFailure {
        if let name = TIFFLayout.read(bytes, page: index)?.unsupportedName { return .unsupportedImageFormat(name) }
        return .corruptImage("leptonica cannot decode it")
    }

    /// Takes ownership of `pix` and converts it to a gray page. `decodedAt`: the reduction the decoder already
    /// applied (the file's resolution is divided by it, and its size limit counts the file's pixels).
    static func page(
        from pix: UnsafeMutablePointer<PIX>?, number: Int, maxMegapixels: Int, decodedAt reduction: Int = 1,
        placed: (dpi: Int, highest: Int)? = nil
    ) -> Result<PageImage, DocumentFailure> {
        var source = pix
        defer { pixDestroy(&source) }
        guard let decoded = source else { return .failure(.corruptImage("leptonica cannot decode it")) }
        let width = Int(pixGetWidth(decoded))
        let height = Int(pixGetHeight(decoded))
        guard width > 0, height > 0 else { return .failure(.corruptImage("the image has no pixels")) }
        guard PageGeometry.fits(width: width * reduction, height: height * reduction, megapixels: maxMegapixels) else {
            return .failure(.imageTooLarge(width: width * reduction, height: height * reduction, limit: maxMegapixels))
        }
        let dpi = max(
            1,
            (placed?.dpi ?? statedResolution(Int(pixGetXRes(decoded)), width: width * reduction, height: height * reduction)
                ?? assumedDPI * reduction) / reduction)
        // A gray page without a colour map is used as it is (converting would copy it whole).
        if pixGetDepth(decoded) != 8 || pixGetColormap(decoded) != nil {
            guard let converted = pixConvertTo8(decoded, 0) else { return .failure(.corruptImage("leptonica cannot convert it to gray")) }
            pixDestroy(&source)
            source = converted
        }
        let gray = source!
        // A page over PageImage.readMegapixels, or over the highest resolution it is placed to be read at, is read
        // smaller (area averaging keeps thin strokes).
        let over = placed.flatMap { dpi > $0.highest ? Double($0.highest) / Double(dpi) : nil }
        if let f = [PageImage.readFactor(width: width, height: height), over].compactMap({ $0 }).min() {
            var small = pixScaleAreaMap(gray, Float(f), Float(f))
            defer { pixDestroy(&small) }
            if let small {
                pixDestroy(&source)
                return .success(
                    PageImage(
                        pageNumber: number, width: Int(pixGetWidth(small)), height: Int(pixGetHeight(small)),
                        dpi: max(1, Int((Double(dpi) * f).rounded())), gray: grayBytes(small)))
            }
        }
        return .success(PageImage(pageNumber: number, width: width, height: height, dpi: dpi, gray: grayBytes(gray)))
    }

    /// 8-bpp pixels are big-endian within 32-bit words (platform notes): each row's words are byte-swapped in
    /// place and copied out whole, so `pix` is left scrambled and must be destroyed afterwards.
    static func grayBytes(_ pix: UnsafeMutablePointer<PIX>) -> [UInt8] {
        let width = Int(pixGetWidth(pix))
        let height = Int(pixGetHeight(pix))
        let wpl = Int(pixGetWpl(pix))
        guard let data = pixGetData(pix) else { return [UInt8](repeating: 255, count: width * height) }
        var out = [UInt8](repeating: 0, count: width * height)
        out.withUnsafeMutableBytes { dst in
            for y in 0..<height {
                let row = data + y * wpl
                for i in 0..<wpl { row[i] = row[i].byteSwapped }
                (dst.baseAddress! + y * width).copyMemory(from: UnsafeRawPointer(row), byteCount: width)
            }
        }
        return out
    }

    /// Leptonica prints its own errors to stderr ("Error in boxClipToRectangle…", also from inside tesseract);
    /// Shoebox reports failures itself, so they are silenced once per process.
    static let silenced: Bool = {
        _ = setMsgSeverity(Int32(L_SEVERITY_NONE))
        return true
    }()

    public static var leptonicaVersion: String {
        guard let v = getLeptonicaVersion() else { return "unknown" }
        defer { lept_free(v) }
        return String(cString: v)
    }
}
