internal import Foundation
internal import CLeptonica
public import ShoeboxCore

/// Loads JPEG/PNG/TIFF bytes through leptonica into 8-bit gray pages, with the image's own resolution.
public enum ImageLoader {
    /// Resolution assumed when the file does not state a usable one.
    public static let assumedDPI = 300

    public static func load(_ bytes: [UInt8], kind: FileKind, maxMegapixels: Int) -> Result<[PageImage], DocumentFailure> {
        _ = silenced
        if kind != .tiff && !FileKind.isComplete(bytes, kind: kind) { return .failure(.truncatedImage(kind)) }
        var pages: [PageImage] = []
        if kind == .tiff {
            // Multi-page TIFF: read pages until leptonica has no more.
            for n in 0..<1000 {
                guard let pix = bytes.withUnsafeBufferPointer({ p in pixReadMemTiff(p.baseAddress, p.count, Int32(n)) }) else { break }
                switch page(from: pix, number: n + 1, maxMegapixels: maxMegapixels) {
                case .success(let pg): pages.append(pg)
                case .failure(let f): return .failure(f)
                }
            }
            guard !pages.isEmpty else { return .failure(.corruptImage("leptonica cannot read the TIFF")) }
            return .success(pages)
        }
        // A JPEG larger than PageImage.readMegapixels is decoded to its luminance only: the gray page directly,
        // without the colour image four times its size in between (a 35-megapixel A4 scan needed 140 MB more).
        // Smaller ones go through leptonica's general reader, whose gray reads SROIE receipts better (measured:
        // luminance for all cost one date and one merchant of 120). A JPEG the luminance reader refuses (CMYK)
        // goes the general way too.
        var pix: UnsafeMutablePointer<PIX>?
        if kind == .jpeg, ImageLoader.megapixels(bytes).map({ $0 > PageImage.readMegapixels }) == true {
            var warnings: Int32 = 0
            pix = bytes.withUnsafeBufferPointer { p in pixReadMemJpeg(p.baseAddress, p.count, 0, 1, &warnings, Int32(L_JPEG_READ_LUMINANCE)) }
        }
        if pix == nil { pix = bytes.withUnsafeBufferPointer { p in pixReadMem(p.baseAddress, p.count) } }
        return page(from: pix, number: 1, maxMegapixels: maxMegapixels).map { [$0] }
    }

    /// The size of an image from its header, in megapixels, without decoding it.
    static func megapixels(_ bytes: [UInt8]) -> Double? {
        var w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, iscmap: Int32 = 0, format: Int32 = 0
        let ok = bytes.withUnsafeBufferPointer { p in pixReadHeaderMem(p.baseAddress, p.count, &format, &w, &h, &bps, &spp, &iscmap) }
        return ok == 0 ? Double(w) * Double(h) / 1e6 : nil
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
        let pix = bytes.withUnsafeBufferPointer { p in pixReadMemTiff(p.baseAddress, p.count, Int32(index)) }
        return page(from: pix, number: index + 1, maxMegapixels: maxMegapixels)
    }

    /// Takes ownership of `pix` and converts it to a gray page.
    static func page(from pix: UnsafeMutablePointer<PIX>?, number: Int, maxMegapixels: Int) -> Result<PageImage, DocumentFailure> {
        var source = pix
        defer { pixDestroy(&source) }
        guard let source else { return .failure(.corruptImage("leptonica cannot decode it")) }
        let width = Int(pixGetWidth(source)), height = Int(pixGetHeight(source))
        guard width > 0, height > 0 else { return .failure(.corruptImage("the image has no pixels")) }
        guard width * height <= maxMegapixels * 1_000_000 else {
            return .failure(.imageTooLarge(width: width, height: height, limit: maxMegapixels))
        }
        let xres = Int(pixGetXRes(source))
        let dpi = (70...2400).contains(xres) ? xres : assumedDPI
        var gray = pixConvertTo8(source, 0)
        defer { pixDestroy(&gray) }
        guard let converted = gray else { return .failure(.corruptImage("leptonica cannot convert it to gray")) }
        // A page over PageImage.readMegapixels is read smaller (area averaging keeps thin strokes).
        if let f = PageImage.readFactor(width: width, height: height) {
            var small = pixScaleAreaMap(converted, Float(f), Float(f))
            defer { pixDestroy(&small) }
            if let small {
                return .success(PageImage(pageNumber: number, width: Int(pixGetWidth(small)), height: Int(pixGetHeight(small)),
                                          dpi: max(1, Int((Double(dpi) * f).rounded())), gray: grayBytes(small)))
            }
        }
        return .success(PageImage(pageNumber: number, width: width, height: height, dpi: dpi, gray: grayBytes(converted)))
    }

    /// 8-bpp pixels are big-endian within 32-bit words (platform notes).
    static func grayBytes(_ pix: UnsafeMutablePointer<PIX>) -> [UInt8] {
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        let wpl = Int(pixGetWpl(pix))
        guard let data = pixGetData(pix) else { return [UInt8](repeating: 255, count: width * height) }
        var out = [UInt8](repeating: 0, count: width * height)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                let row = data + y * wpl
                let base = y * width
                for x in 0..<width {
                    let word = row[x >> 2]
                    dst[base + x] = UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * (x & 3)))
                }
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
