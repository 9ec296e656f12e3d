import CLeptonica
public import ShoeboxCore

/// A gray page as PNG bytes (leptonica's writer), for showing it in a browser.
public enum PNGWriter {
    public static func png(_ image: PageImage) -> [UInt8]? {
        guard image.width > 0, image.height > 0, let pix = pixCreate(Int32(image.width), Int32(image.height), 8) else { return nil }
        var p: UnsafeMutablePointer<PIX>? = pix
        defer { pixDestroy(&p) }
        // Pixel by pixel: leptonica's words hold their bytes in the machine's order (platform notes), and this is
        // called for one page a person opens.
        for y in 0..<image.height {
            let row = y * image.width
            for x in 0..<image.width { pixSetPixel(pix, Int32(x), Int32(y), UInt32(image.gray[row + x])) }
        }
        pixSetResolution(pix, Int32(image.dpi), Int32(image.dpi))
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMem(&data, &size, pix, Int32(IFF_PNG)) == 0, let data else { return nil }
        defer { lept_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
}
