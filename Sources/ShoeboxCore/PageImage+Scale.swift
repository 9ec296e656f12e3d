/// Scaling a gray page by the measured height of its text: small print reads better when its letters are
/// about 30 pixels high (measured on real receipts), and blind upscaling of pages that do not need it only
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
        let w = max(1, width / 2), h = max(1, height / 2)
        guard width >= 2, height >= 2 else { return self }
        var out = [UInt8](repeating: 255, count: w * h)
        gray.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let top = 2 * y * width, bottom = top + width
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
        let w = max(1, Int((Double(width) * factor).rounded())), h = max(1, Int((Double(height) * factor).rounded()))
        var out = [UInt8](repeating: 255, count: w * h)
        gray.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let sy = min(Double(height - 1), max(0, (Double(y) + 0.5) / factor - 0.5))
                    let y0 = Int(sy), y1 = min(height - 1, y0 + 1)
                    let fy = sy - Double(y0)
                    for x in 0..<w {
                        let sx = min(Double(width - 1), max(0, (Double(x) + 0.5) / factor - 0.5))
                        let x0 = Int(sx), x1 = min(width - 1, x0 + 1)
                        let fx = sx - Double(x0)
                        let top = Double(src[y0 * width + x0]) * (1 - fx) + Double(src[y0 * width + x1]) * fx
                        let bottom = Double(src[y1 * width + x0]) * (1 - fx) + Double(src[y1 * width + x1]) * fx
                        dst[y * w + x] = UInt8(max(0, min(255, (top * (1 - fy) + bottom * fy).rounded())))
                    }
                }
            }
        }
        return PageImage(pageNumber: pageNumber, width: w, height: h, dpi: Int((Double(dpi) * factor).rounded()), gray: out)
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
            BoundingBox(left: Int(Double(b.left) / factor), top: Int(Double(b.top) / factor),
                        right: Int(Double(b.right) / factor), bottom: Int(Double(b.bottom) / factor))
        }
        return OCRPage(pageNumber: pageNumber, width: width, height: height, dpi: dpi, source: source,
                       lines: lines.map { OCRLine(words: $0.words.map { OCRWord(text: $0.text, box: box($0.box), confidence: $0.confidence) }) })
    }
}
