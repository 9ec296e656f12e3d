/// What the pixels of a page say about whether it is a phone's screen rather than paper: its shape, and how much
/// of it is flat colour (an app's bars, cards and buttons; paper has grain, a photo has noise). Measured once on the
/// first page's gray image (`measure`), kept in the OCR cache; the parser weighs it with the page's words.
public struct ScreenTraits: Hashable, Sendable, Codable {
    public let width: Int
    public let height: Int
    /// Share of the sampled pixels equal to their right-hand neighbour: flat colour.
    public let flat: Double
    /// Share of the sampled pixels that are flat and neither near white nor near black: coloured bars, cards, buttons
    /// (paper printed in black on white has almost none).
    public let toned: Double
    /// The median gray: a dark-mode screen sits far below any paper.
    public let median: Int

    public init(width: Int, height: Int, flat: Double, toned: Double, median: Int) {
        self.width = width
        self.height = height
        self.flat = flat
        self.toned = toned
        self.median = median
    }

    /// A phone held upright: 16:9 to 21:9 (a scrolling capture may run to three screens), at a phone's pixel width.
    public var phoneShaped: Bool {
        guard width > 0 else { return false }
        let aspect = Double(height) / Double(width)
        return ScreenTraits.phoneWidths.contains(width) && aspect >= 1.7 && aspect <= 7
    }

    /// Flat enough for pixels drawn by an app, with the app's own colours (or a dark background): no paper shows so.
    public var flatAppColours: Bool {
        flat >= ScreenTraits.flatAtLeast && (toned >= ScreenTraits.tonedAtLeast || median < ScreenTraits.darkBelow)
    }

    /// Whether the pixels alone say screen: a phone's shape and an app's flat colours.
    public var looksLikeScreen: Bool { phoneShaped && flatAppColours }

    public static let phoneWidths = 540...1600
    public static let flatAtLeast = 0.75
    public static let tonedAtLeast = 0.04
    public static let darkBelow = 90

    /// Measures a gray image (`gray` row by row, `width` × `height`), every second row, so a 1080 × 2340 screen costs
    /// about 1.3 million comparisons.
    public static func measure(gray: [UInt8], width: Int, height: Int) -> ScreenTraits {
        guard width > 1, height > 0, gray.count >= width * height else {
            return ScreenTraits(width: width, height: height, flat: 0, toned: 0, median: 255)
        }
        var sampled = 0
        var flat = 0
        var toned = 0
        var histogram = [Int](repeating: 0, count: 256)
        gray.withUnsafeBufferPointer { g in
            var y = 0
            while y < height {
                let row = y * width
                for x in 0..<(width - 1) {
                    let v = g[row + x]
                    histogram[Int(v)] += 1
                    sampled += 1
                    if v == g[row + x + 1] {
                        flat += 1
                        if v > 30 && v < 225 { toned += 1 }
                    }
                }
                y += 2
            }
        }
        var seen = 0
        var median = 255
        for (value, count) in histogram.enumerated() {
            seen += count
            if seen * 2 >= sampled {
                median = value
                break
            }
        }
        let n = Double(max(1, sampled))
        return ScreenTraits(width: width, height: height, flat: Double(flat) / n, toned: Double(toned) / n, median: median)
    }
}
