internal import ShoeboxCore

/// Some lines of a page as one small image for tesseract: each line's strip cut from the page at full width (with
/// a margin above and below), the strips stacked one under another with white rows between them. A further pass
/// reads the mosaic instead of the page, at the pass's languages, mode, scale and threshold, and costs the share
/// of the page its strips are; `words(from:)` and `replacing(_:of:with:)` put what it read back on the page.
struct LineMosaic {
    /// Where a strip was cut from the page (its rows), and the row it starts at in the mosaic.
    struct Strip: Equatable {
        let top: Int
        let bottom: Int
        let at: Int
    }

    let image: PageImage
    let strips: [Strip]

    /// Bump when the choice of lines or the making of the mosaic changes: the OCR cache keys line passes by it.
    static let version = 2

    /// Rows cut above and below a line: a quarter of its height (tesseract's boxes hug the ink), at least 3.
    static func margin(_ box: BoundingBox) -> Int { max(3, box.height / 4) }

    /// White rows between two strips, at least: tesseract reads the strips as lines apart.
    static let minimumGap = 8

    /// The mosaic of `boxes` (lines of `page`, in its coordinates); nil when none has a height. Boxes that overlap
    /// once widened by their margins are cut as one strip.
    init?(page: PageImage, boxes: [BoundingBox]) {
        // Each line with its margin above and below, rows merged where two lines touch.
        var rows: [(top: Int, bottom: Int)] = []
        for box in boxes.filter({ $0.height > 0 }).sorted(by: { $0.top < $1.top }) {
            let pad = LineMosaic.margin(box)
            let top = max(0, box.top - pad)
            let bottom = min(page.height, box.bottom + pad)
            guard bottom > top else { continue }
            if let last = rows.last, top <= last.bottom {
                rows[rows.count - 1].bottom = max(last.bottom, bottom)
            } else {
                rows.append((top, bottom))
            }
        }
        guard !rows.isEmpty else { return nil }
        let tallest = rows.map { $0.bottom - $0.top }.max() ?? 0
        let gap = max(LineMosaic.minimumGap, tallest / 2)
        var strips: [Strip] = []
        var height = gap
        for row in rows {
            strips.append(Strip(top: row.top, bottom: row.bottom, at: height))
            height += row.bottom - row.top + gap
        }
        var gray = [UInt8](repeating: 255, count: page.width * height)
        page.gray.withUnsafeBufferPointer { from in
            gray.withUnsafeMutableBufferPointer { to in
                for strip in strips {
                    let count = (strip.bottom - strip.top) * page.width
                    (to.baseAddress! + strip.at * page.width).update(from: from.baseAddress! + strip.top * page.width, count: count)
                }
            }
        }
        image = PageImage(pageNumber: page.pageNumber, width: page.width, height: height, dpi: page.dpi, gray: gray)
        self.strips = strips
    }

    /// The words read from the mosaic, in the page's coordinates: those whose middle lies in a strip, moved back to
    /// where the strip was cut; words between strips are dropped.
    func words(from reading: OCRPage) -> [OCRWord] {
        reading.lines.flatMap(\.words).compactMap { word in
            let middle = (word.box.top + word.box.bottom) / 2
            guard let strip = strips.first(where: { middle >= $0.at && middle < $0.at + $0.bottom - $0.top }) else { return nil }
            let shift = strip.top - strip.at
            let box = BoundingBox(left: word.box.left, top: word.box.top + shift, right: word.box.right, bottom: word.box.bottom + shift)
            return OCRWord(text: word.text, box: box, confidence: word.confidence)
        }
    }

    /// `page` (the reading the lines were chosen from) with each of its lines at `indices` replaced by the words the
    /// mosaic read on it: each word goes to the chosen line whose rows hold its middle (the nearest middle when two
    /// do). A line the mosaic read nothing on stays as it was.
    static func replacing(_ indices: [Int], of page: OCRPage, with read: [OCRWord]) -> OCRPage {
        var lines = page.lines
        let chosen = indices.filter { $0 < lines.count && lines[$0].box.height > 0 }
        var words: [Int: [OCRWord]] = [:]
        for word in read {
            let middle = (word.box.top + word.box.bottom) / 2
            let holding = chosen.filter { i in
                let box = page.lines[i].box
                return middle >= box.top - margin(box) && middle <= box.bottom + margin(box)
            }
            guard
                let line = holding.min(by: { a, b in
                    abs((page.lines[a].box.top + page.lines[a].box.bottom) / 2 - middle)
                        < abs((page.lines[b].box.top + page.lines[b].box.bottom) / 2 - middle)
                })
            else { continue }
            words[line, default: []].append(word)
        }
        for (i, list) in words { lines[i] = OCRLine(words: list.sorted { $0.box.left < $1.box.left }) }
        return OCRPage(pageNumber: page.pageNumber, width: page.width, height: page.height, dpi: page.dpi, source: page.source, lines: lines)
    }
}
