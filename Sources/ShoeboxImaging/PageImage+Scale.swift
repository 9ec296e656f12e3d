public import ShoeboxCore

/// Scaling a gray page by the measured height of its text: small print reads better when its letters are
/// about 30 pixels high, and blind upscaling of pages that do not need it only
/// costs time.
extension PageImage {
    /// Pages larger than this are read at this size: a 600-dpi A4 scan (35 megapixels) is read at about 400 dpi.
    /// Tesseract reads text of 20–40 px best; more pixels only cost time and memory (two 35-megapixel pages
    /// read at once took a 1,000-page run to 881 MB).
    public static let readMegapixels = 16.0

    /// The factor (< 1) that brings a `width` × `height` page down to `readMegapixels`, or nil when it is smaller.
    public static func readFactor(width: Int, height: Int) -> Double? {
        let mp = Double(width) * Double(height) / 1e6
        return mp > readMegapixels ? (readMegapixels / mp).squareRoot() : nil
    }

    /// The reduction (1, 2, 4 or 8) a JPEG decoder may apply to a `width` × `height` image while decoding it:
    /// the largest that keeps at least half of `readMegapixels`.
    public static func decodeReduction(width: Int, height: Int) -> Int {
        let mp = Double(width) * Double(height) / 1e6
        return [8, 4, 2].first { mp / Double($0 * $0) >= readMegapixels / 2 } ?? 1
    }

    /// The page at half its width and height, each pixel the mean of four (odd last rows and columns dropped).
    public func halved() -> PageImage {
        let w = max(1, width / 2)
        let h = max(1, height / 2)
        guard width >= 2, height >= 2 else { return self }
        var out = [UInt8](repeating: 255, count: w * h)
        gray.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let top = 2 * y * width
                    let bottom = top + width
                    for x in 0..<w {
                        let sum = Int(src[top + 2 * x]) + Int(src[top + 2 * x + 1]) + Int(src[bottom + 2 * x]) + Int(src[bottom + 2 * x + 1])
                        dst[y * w + x] = UInt8(truncatingIfNeeded: (sum + 2) >> 2)
                    }
                }
            }
        }
        return PageImage(pageNumber: pageNumber, width: w, height: h, dpi: max(1, dpi / 2), gray: out)
    }

    /// Bilinear scaling by `factor` (> 0); the page keeps its number and its dpi grows with it.
    public func scaled(by factor: Double) -> PageImage {
        let size = scaledSize(by: factor)
        var out = [UInt8](repeating: 255, count: size.width * size.height)
        out.withUnsafeMutableBufferPointer { dst in
            forEachRow(scaledBy: factor) { y, row in
                UnsafeMutableRawPointer(dst.baseAddress! + y * size.width).copyMemory(from: row.baseAddress!, byteCount: row.count)
            }
        }
        return PageImage(pageNumber: pageNumber, width: size.width, height: size.height, dpi: scaledDPI(by: factor), gray: out)
    }

    /// The width and height of the page scaled by `factor`.
    public func scaledSize(by factor: Double) -> (width: Int, height: Int) {
        (max(1, Int((Double(width) * factor).rounded())), max(1, Int((Double(height) * factor).rounded())))
    }

    /// The resolution of the page scaled by `factor`.
    public func scaledDPI(by factor: Double) -> Int { Int((Double(dpi) * factor).rounded()) }

    /// The rows of the page scaled by `factor`, top to bottom, each handed to `body` with its row number in a
    /// buffer that is reused: whoever copies the rows elsewhere (tesseract's image) needs no scaled copy of
    /// the whole page (16 MB a worker). With `factor` 1 these are the page's own rows.
    /// Bilinear, in two steps with the same arithmetic per pixel as one, to the bit (fixed-point weights would move
    /// a gray level here and there, and with it words): a source row is blended across once into
    /// `Double`s and kept while the output rows that lie between it and the next use it (an upscaled page uses
    /// each source row for two to eight output rows), then two such rows are blended down per output row, a
    /// loop without scattered reads that the compiler vectorises, cheaper than blending every pixel from its four
    /// source pixels.
    public func forEachRow(scaledBy factor: Double, _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        gray.withUnsafeBufferPointer { src in
            guard factor != 1 else {
                for y in 0..<height { body(y, UnsafeBufferPointer(rebasing: src[y * width..<(y + 1) * width])) }
                return
            }
            let (w, h) = scaledSize(by: factor)
            func taps(_ n: Int, _ size: Int) -> (lo: [Int], hi: [Int], weight: [Double]) {
                var lo = [Int](repeating: 0, count: n)
                var hi = lo
                var weight = [Double](repeating: 0, count: n)
                for i in 0..<n {
                    let source = min(Double(size - 1), max(0, (Double(i) + 0.5) / factor - 0.5))
                    lo[i] = Int(source)
                    hi[i] = min(size - 1, lo[i] + 1)
                    weight[i] = source - Double(lo[i])
                }
                return (lo, hi, weight)
            }
            let columns = taps(w, width)
            let rows = taps(h, height)
            let row = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: w)
            // Two source rows blended across, and which rows they are (-1: none yet).
            var upper = UnsafeMutableBufferPointer<Double>.allocate(capacity: w)
            var lower = UnsafeMutableBufferPointer<Double>.allocate(capacity: w)
            defer {
                row.deallocate()
                upper.deallocate()
                lower.deallocate()
            }
            var upperRow = -1
            var lowerRow = -1
            columns.lo.withUnsafeBufferPointer { x0 in
                columns.hi.withUnsafeBufferPointer { x1 in
                    columns.weight.withUnsafeBufferPointer { fx in
                        func blendAcross(_ sourceRow: Int, into out: UnsafeMutableBufferPointer<Double>) {
                            let line = src.baseAddress! + sourceRow * width
                            for x in 0..<w { out[x] = Double(line[x0[x]]) * (1 - fx[x]) + Double(line[x1[x]]) * fx[x] }
                        }
                        for y in 0..<h {
                            let top = rows.lo[y]
                            let bottom = rows.hi[y]
                            let fy = rows.weight[y]
                            if top != upperRow {
                                if top == lowerRow {
                                    swap(&upper, &lower)
                                    swap(&upperRow, &lowerRow)
                                } else {
                                    blendAcross(top, into: upper)
                                    upperRow = top
                                }
                            }
                            if bottom != lowerRow {
                                blendAcross(bottom, into: lower)
                                lowerRow = bottom
                            }
                            let a = UnsafePointer(upper.baseAddress!)
                            let b = UnsafePointer(lower.baseAddress!)
                            let out = row.baseAddress!
                            for x in 0..<w { out[x] = PageImage.clampedByte(a[x] * (1 - fy) + b[x] * fy) }
                            body(y, UnsafeBufferPointer(row))
                        }
                    }
                }
            }
        }
    }

    /// `UInt8(min(255, value.rounded()))` (halves away from zero) for a `value` in 0...256, in operations a loop
    /// of it vectorises (no libm call, no conversion that traps): adding 1.5 × 2^52 rounds `value` to the nearest
    /// integer, ties to even, which then sits in the sum's low bits; a tie rounded down is moved up.
    @inline(__always) static func clampedByte(_ value: Double) -> UInt8 {
        let shifted = value + 6_755_399_441_055_744.0
        let nearest = shifted - 6_755_399_441_055_744.0 // exact
        let rounded = UInt32(truncatingIfNeeded: shifted.bitPattern) &+ (value - nearest == 0.5 ? 1 : 0)
        return UInt8(truncatingIfNeeded: min(255, rounded))
    }

    /// The factor that brings text of `height` pixels to `target` pixels, in quarters, or nil when the text is
    /// tall enough. Capped at 4×, and so that the largest page (`megapixels`) stays within `readMegapixels`:
    /// small print on a big photo would otherwise make a page of hundreds of megapixels.
    public static func upscaleFactor(textHeight height: Double, target: Double = 30, megapixels: Double = 0) -> Double? {
        guard height > 0, height < target * 0.9 else { return nil }
        var factor = (min(4, target / height) * 4).rounded() / 4
        if megapixels > 0 { factor = min(factor, ((readMegapixels / megapixels).squareRoot() * 4).rounded(.down) / 4) }
        return factor > 1 ? factor : nil
    }
}

extension OCRPage {
    /// Median height of the words OCR read with some confidence: the height of the page's text.
    public var medianWordHeight: Double? {
        let heights = lines.flatMap(\.words).filter { $0.text.count >= 2 && $0.confidence >= 50 }.map { Double($0.box.height) }.sorted()
        return heights.isEmpty ? nil : heights[heights.count / 2]
    }

    /// The page read from an image scaled by `factor`, in the coordinates of the original image.
    public func unscaled(by factor: Double, width: Int, height: Int, dpi: Int) -> OCRPage {
        func box(_ b: BoundingBox) -> BoundingBox {
            BoundingBox(
                left: Int(Double(b.left) / factor), top: Int(Double(b.top) / factor),
                right: Int(Double(b.right) / factor), bottom: Int(Double(b.bottom) / factor))
        }
        return OCRPage(
            pageNumber: pageNumber, width: width, height: height, dpi: dpi, source: source,
            lines: lines.map { OCRLine(words: $0.words.map { OCRWord(text: $0.text, box: box($0.box), confidence: $0.confidence) }) })
    }
}
