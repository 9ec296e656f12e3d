/// A box in page pixels at the page's resolution: left, top, right, bottom.
public struct BoundingBox: Hashable, Sendable, Codable {
    public var left: Int, top: Int, right: Int, bottom: Int

    public init(left: Int, top: Int, right: Int, bottom: Int) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    public var height: Int { bottom - top }
    public var width: Int { right - left }
    public var centerY: Int { (top + bottom) / 2 }

    public func union(_ other: BoundingBox) -> BoundingBox {
        BoundingBox(
            left: min(left, other.left), top: min(top, other.top),
            right: max(right, other.right), bottom: max(bottom, other.bottom))
    }
}

/// Where the text of a page or a line came from: tesseract (`ocr`), the PDF's text layer, or the second reader
/// (PP-OCR, `ocr-ppocr`) reading again a line tesseract read first.
public enum TextSource: String, Sendable, Codable {
    case ocr
    case textLayer = "text-layer"
    case secondReader = "ocr-ppocr"
}

/// One page ready for OCR: 8-bit gray pixels (0 black, 255 white), row-major, `width` bytes per row.
public struct PageImage: Sendable {
    public let pageNumber: Int
    public let width: Int
    public let height: Int
    public let dpi: Int
    public let gray: [UInt8]

    public init(pageNumber: Int, width: Int, height: Int, dpi: Int, gray: [UInt8]) {
        precondition(gray.count == width * height, "PageImage: pixel count must equal width × height")
        self.pageNumber = pageNumber
        self.width = width
        self.height = height
        self.dpi = dpi
        self.gray = gray
    }
}

/// What the render stage hands on for one page: either real text from the PDF text layer, or an image to OCR.
public enum RenderedPage: Sendable {
    case text(OCRPage)
    case image(PageImage)
}

public struct OCRWord: Hashable, Sendable, Codable {
    public let text: String
    public let box: BoundingBox
    /// 0–100, as tesseract reports it; 100 for text-layer words.
    public let confidence: Double

    public init(text: String, box: BoundingBox, confidence: Double) {
        self.text = text
        self.box = box
        self.confidence = confidence
    }
}

/// One physical line of text, words left to right.
public struct OCRLine: Hashable, Sendable, Codable {
    public let words: [OCRWord]
    /// Who read the line when not the page's reader: `.secondReader` for a line the second reader read again.
    public var reader: TextSource?

    public init(words: [OCRWord]) { self.words = words }

    public init(words: [OCRWord], reader: TextSource?) {
        self.words = words
        self.reader = reader
    }

    public var text: String { words.map(\.text).joined(separator: " ") }
    public var box: BoundingBox {
        words.dropFirst().reduce(words.first?.box ?? BoundingBox(left: 0, top: 0, right: 0, bottom: 0)) { $0.union($1.box) }
    }
    public var meanConfidence: Double {
        words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
    }
}

/// The text of one page, lines top to bottom.
public struct OCRPage: Hashable, Sendable, Codable {
    public let pageNumber: Int
    public let width: Int
    public let height: Int
    public let dpi: Int
    public let source: TextSource
    public let lines: [OCRLine]
    /// The clockwise turn (90, 180, 270) the page was given before it was read, when OSD found it lying on its
    /// side or upside down; nil or 0: read as scanned. The review page is shown turned the same way.
    public var turn: Int?

    public init(pageNumber: Int, width: Int, height: Int, dpi: Int, source: TextSource, lines: [OCRLine]) {
        self.pageNumber = pageNumber
        self.width = width
        self.height = height
        self.dpi = dpi
        self.source = source
        self.lines = lines
    }

    public var text: String { lines.map(\.text).joined(separator: "\n") }
    public var wordCount: Int { lines.reduce(0) { $0 + $1.words.count } }

    /// The line whose box covers most of `box` (nil when none touches it), among those `reader` read when given: the
    /// same printed line in another reading of the page, whose lines need not be numbered alike (the second reading's
    /// head holds the detector's lines, not tesseract's).
    public func line(overlapping box: BoundingBox, readBy reader: TextSource? = nil) -> OCRLine? {
        func overlap(_ b: BoundingBox) -> Int {
            max(0, min(b.bottom, box.bottom) - max(b.top, box.top)) * max(0, min(b.right, box.right) - max(b.left, box.left))
        }
        let candidates = reader.map { r in lines.filter { $0.reader == r } } ?? lines
        guard let best = candidates.max(by: { overlap($0.box) < overlap($1.box) }), overlap(best.box) > 0 else { return nil }
        return best
    }
    public var meanConfidence: Double {
        let words = lines.flatMap(\.words)
        return words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
    }

    /// Groups words into physical lines by vertical overlap and orders them top to bottom, left to right.
    /// Used for text-layer characters and for OCR words, whose blocks do not come in reading order.
    public static func buildLines(from words: [OCRWord]) -> [OCRLine] {
        let sorted = words.filter { !$0.text.isEmpty }.sorted { ($0.box.centerY, $0.box.left) < ($1.box.centerY, $1.box.left) }
        var lines: [[OCRWord]] = []
        var lineBoxes: [BoundingBox] = []
        for word in sorted {
            if let last = lineBoxes.last {
                let overlap = min(last.bottom, word.box.bottom) - max(last.top, word.box.top)
                let smaller = max(1, min(last.height, word.box.height))
                if overlap * 2 >= smaller {
                    lines[lines.count - 1].append(word)
                    lineBoxes[lineBoxes.count - 1] = last.union(word.box)
                    continue
                }
            }
            lines.append([word])
            lineBoxes.append(word.box)
        }
        return lines.map { OCRLine(words: $0.sorted { $0.box.left < $1.box.left }) }
    }

    /// Orders lines top to bottom and joins lines that sit side by side on one physical line (tesseract puts
    /// a label and its amount in separate blocks when a wide gap parts them). Two lines are joined when they
    /// overlap vertically by at least half the smaller height and do not overlap horizontally.
    public static func mergeLines(_ lines: [OCRLine]) -> [OCRLine] {
        var out: [OCRLine] = []
        for line in lines.filter({ !$0.words.isEmpty }).sorted(by: { ($0.box.top, $0.box.left) < ($1.box.top, $1.box.left) }) {
            if let k = out.indices.suffix(2).last(where: { k in
                let a = out[k].box
                let b = line.box
                let overlap = min(a.bottom, b.bottom) - max(a.top, b.top)
                let separate = a.right <= b.left || b.right <= a.left
                return separate && overlap * 2 >= max(1, min(a.height, b.height))
            }) {
                out[k] = OCRLine(words: (out[k].words + line.words).sorted { $0.box.left < $1.box.left })
            } else {
                out.append(line)
            }
        }
        return out
    }
}

/// A language guess from the text, ISO 639-2/T code ("deu").
public struct LanguageGuess: Hashable, Sendable, Codable {
    public let language: String?
    /// 0–1; low for short or mixed texts.
    public let confidence: Double

    public init(language: String?, confidence: Double) {
        self.language = language
        self.confidence = confidence
    }

    public static let unknown = LanguageGuess(language: nil, confidence: 0)
}
