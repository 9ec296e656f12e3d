internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines

/// Second reading: the lines of tesseract's reading that carry a field, or that it read unsure, cut from the page
/// at full resolution and read again by the second reader (PP-OCR, `LineRecognizer`); the pages with those lines
/// replaced are parsed again and their candidates join tesseract's (`Extraction.joining(secondReading:reread:)`),
/// each with its reader in the provenance. Tesseract stays the first reader: the second reads lines, not pages.
struct SecondReadingStage {
    let reader: any LineRecognizer
    /// Finds the lines of the first page's head and of a page tesseract could not read at all (nil: the head is read
    /// on tesseract's lines, and such a page stays as tesseract read it).
    let detector: (any TextLineDetector)?
    let cpu: PhaseCPU?
    /// The most seconds of reading lines on one page (the pipeline's `pageTimeoutSeconds`): once spent, the lines not
    /// yet read stay tesseract's, so a second reader that has turned slow cannot hold up the run. Tallied as
    /// `second-reader-out-of-time` pages.
    var secondsPerPage: Double = 120

    /// The time one page's lines may take from now (`secondsPerPage`).
    func budget() -> LineBudget { LineBudget(seconds: secondsPerPage, cpu: cpu) }

    /// The time left for reading one page's lines; `ranOut` once it is spent (that page's reading is then not cached:
    /// a later run reads it whole again).
    final class LineBudget {
        let end: ContinuousClock.Instant
        let cpu: PhaseCPU?
        private(set) var ranOut = false

        init(seconds: Double, cpu: PhaseCPU?) {
            end = .now + .milliseconds(Int64(min(max(seconds, 0), 86_400) * 1000))
            self.cpu = cpu
        }

        /// Whether the time is spent; the page is counted once (`second-reader-out-of-time`).
        var spent: Bool {
            if ranOut { return true }
            guard ContinuousClock.now >= end else { return false }
            ranOut = true
            cpu?.count("second-reader-out-of-time", 1)
            return true
        }
    }

    /// Bump when the choice of lines, the crops or the merge of words changes: the OCR cache keys the second
    /// reading by it.
    static let version = 9

    /// A short digest of what `pages` hold, line by line with the reader of each: a reading made on top of them is cached
    /// under it, so that other pages below (a parser that chose other lines to read again) are read again.
    static func digest(of pages: [OCRPage]) -> String {
        var text = ""
        for page in pages {
            text += "p\(page.pageNumber)\n"
            for line in page.lines { text += "\(line.reader?.rawValue ?? "-") \(line.text)\n" }
        }
        return String(SHA256.hex(of: Array(text.utf8)).prefix(12))
    }
    /// Bump when the reading of item lines (`PassReader.itemLinesReading`) changes: the OCR cache keys it by it.
    static let itemsVersion = 4
    /// Bump when the whole-page reading for missing or disputed fields (`PassReader.pagesReadWhole`) changes.
    static let wholePagesVersion = 2
    /// Lines at the top of the first page read again whatever they hold: the shop's name is there.
    static let headLines = 6
    /// Lines tesseract read with a mean word confidence below this are read again.
    static let unsureConfidence = 75.0

    /// At most this many lines per page: a long page costs a bounded time.
    static let maxLinesPerPage = 80
    /// At most this many pages per document (the first two and the last): the fields are printed there.
    static let pagesAtStart = 2

    /// The name the second reading of `pass` has in the OCR cache.
    func cacheName(_ pass: OCRPass) -> String { "second\(SecondReadingStage.version)-\(reader.name)-\(pass.name)" }

    /// The head of the first page, searched by the detector as well: down to this share of its height, or to the
    /// bottom of its first `headLines` lines when lower. Shop names in large or decorative print are often no line
    /// of tesseract's at all.
    static let headShare = 0.25

    /// The head of the first page as the second reader reads it: the detector's lines down to `bottom`, read;
    /// nil when there is no detector or it found nothing there.
    func readHead(_ page: OCRPage, image: PageImage, within budget: LineBudget) -> (lines: [OCRLine], bottom: Int)? {
        guard let detector else { return nil }
        let lines = page.lines.prefix(SecondReadingStage.headLines).map(\.box.bottom).max() ?? 0
        let bottom = min(image.height, max(Int(Double(image.height) * SecondReadingStage.headShare), lines))
        guard bottom >= 8 else { return nil }
        let head = PageImage(
            pageNumber: image.pageNumber, width: image.width, height: bottom, dpi: image.dpi, gray: Array(image.gray[0..<(bottom * image.width)]))
        let boxes = SecondReadingStage.joined(cpu.measure("second-reader-detect") { detector.detect(head) })
        var words: [OCRWord] = []
        for box in boxes {
            if budget.spent { break }
            // Tesseract's word gaps inside the box, where it read words there.
            let inside = page.lines.flatMap(\.words).filter { w in
                let overlap = min(w.box.bottom, box.bottom) - max(w.box.top, box.top)
                return overlap * 2 >= max(1, min(w.box.height, box.height)) && w.box.left >= box.left - 4 && w.box.right <= box.right + 4
            }
            let breaks = SecondReadingStage.breaks(of: OCRLine(words: inside))
            if let line = cpu.measure("second-reader", { reader.read(image, spans: [box], breaks: breaks) }) { words += line.words }
        }
        // A number tesseract read in the head that no box of the detector's covers (a date in light print beside a heading):
        // read from tesseract's own box, so the head's reading does not lose it.
        for word in SecondReadingStage.uncovered(page.lines.filter { $0.box.bottom <= bottom }.flatMap(\.words), by: boxes) {
            if budget.spent { break }
            if let line = cpu.measure("second-reader", { reader.read(image, spans: [word.box], breaks: []) }) { words += line.words }
        }
        guard !words.isEmpty else { return nil }
        return (OCRPage.buildLines(from: words).map { OCRLine(words: $0.words, reader: .secondReader) }, bottom)
    }

    /// Tesseract's words of four digits or more (a date, an amount, a number) that no detector box overlaps.
    static func uncovered(_ words: [OCRWord], by boxes: [BoundingBox]) -> [OCRWord] {
        words.filter { w in
            w.text.count(where: \.isNumber) >= 4
                && !boxes.contains { b in
                    min(w.box.right, b.right) > max(w.box.left, b.left) && min(w.box.bottom, b.bottom) > max(w.box.top, b.top)
                }
        }
    }

    /// The detector's boxes with those that overlap on one line joined: where it splits a line of large print in
    /// two, the boxes share a few columns and the cut runs through a letter, which each half then reads as a letter
    /// of its own ("Frischmarkt E" and "kt Berger GmbH" for "Frischmarkt Berger GmbH"). Two boxes join when they
    /// overlap horizontally and by at least half the lower one's height vertically; boxes apart stay apart.
    static func joined(_ boxes: [BoundingBox]) -> [BoundingBox] {
        var out: [BoundingBox] = []
        for box in boxes.sorted(by: { ($0.left, $0.top) < ($1.left, $1.top) }) {
            if let i = out.lastIndex(where: { b in
                let vertical = min(b.bottom, box.bottom) - max(b.top, box.top)
                return box.left < b.right && vertical * 2 >= min(b.height, box.height)
            }) {
                let b = out[i]
                out[i] = BoundingBox(
                    left: min(b.left, box.left), top: min(b.top, box.top), right: max(b.right, box.right), bottom: max(b.bottom, box.bottom))
            } else {
                out.append(box)
            }
        }
        return out.sorted { ($0.top, $0.left) < ($1.top, $1.left) }
    }

    /// A page reading is unusable below this many words: the whole page is then read by the second reader.
    static let unusableWords = 5

    /// Whether tesseract's reading of an image page is unusable: next to no words.
    static func unusable(_ page: OCRPage) -> Bool { page.source == .ocr && page.wordCount < unusableWords }

    /// The whole of `image` read by the second reader: its text lines found by the detector, each read, and the
    /// words gathered into lines (every line `.secondReader`). Nil when no detector or nothing read.
    func readWhole(_ image: PageImage, like page: OCRPage, within budget: LineBudget) -> OCRPage? {
        guard let detector else { return nil }
        let boxes = SecondReadingStage.joined(cpu.measure("second-reader-detect") { detector.detect(image) })
        var words: [OCRWord] = []
        for box in boxes {
            if budget.spent { break }
            if let line = cpu.measure("second-reader", { reader.read(image, spans: [box], breaks: []) }) { words += line.words }
        }
        guard !words.isEmpty else { return nil }
        let lines = OCRPage.buildLines(from: words).map { OCRLine(words: $0.words, reader: .secondReader) }
        return OCRPage(pageNumber: page.pageNumber, width: page.width, height: page.height, dpi: page.dpi, source: .ocr, lines: lines)
    }

    /// The lines of page `index` (of `count`) to read again: the head of the first page, lines read unsure, lines a
    /// candidate of a recorded field stands on (`Extraction.evidenceLines`: not the item lines, which cost 40 ms
    /// each and carry no field).
    static func lines(of page: OCRPage, index: Int, count: Int, candidates: Set<Int>) -> [Int] {
        guard page.source == .ocr, index < pagesAtStart || index == count - 1 else { return [] }
        var chosen: [Int] = []
        for (i, line) in page.lines.enumerated() where chosen.count < maxLinesPerPage && line.reader == nil {
            let head = index == 0 && i < headLines
            let unsure = line.meanConfidence < unsureConfidence
            if head || unsure || candidates.contains(page.pageNumber * 100_000 + i) { chosen.append(i) }
        }
        return chosen
    }

    /// `page` with `lines` read again from `image` (the image tesseract read). Words are merged by
    /// `merged(_:_:keepLetters:)`; a line the second reader could not read stays tesseract's.
    func reread(_ page: OCRPage, image: PageImage, lines: [Int], language: String?, within budget: LineBudget) -> OCRPage {
        let keepLetters = ["deu", "fra", "spa"].contains(language ?? "") && !reader.readsLatinLetters
        var out = page.lines
        for i in lines {
            if budget.spent { break }
            let spans = SecondReadingStage.spans(of: page.lines[i])
            let breaks = SecondReadingStage.breaks(of: page.lines[i])
            guard let second = cpu.measure("second-reader", { reader.read(image, spans: spans, breaks: breaks) }) else { continue }
            out[i] = SecondReadingStage.merged(page.lines[i], second, keepLetters: keepLetters)
        }
        return OCRPage(pageNumber: page.pageNumber, width: page.width, height: page.height, dpi: page.dpi, source: page.source, lines: out)
    }

    /// A line's runs of words: a gap wider than 1.5 line heights between two words starts a new run. Read as
    /// one strip without those gaps, a receipt line ("TOTAL ........ 37.10") costs the second reader a fraction.
    static func spans(of line: OCRLine) -> [BoundingBox] {
        let height = line.box.height
        var spans: [BoundingBox] = []
        for word in line.words.sorted(by: { $0.box.left < $1.box.left }) {
            if let last = spans.last, word.box.left - last.right <= height * 3 / 2 {
                spans[spans.count - 1] = last.union(word.box)
            } else {
                spans.append(word.box)
            }
        }
        return spans
    }

    /// The middles of the gaps between a line's words, left to right.
    static func breaks(of line: OCRLine) -> [Int] {
        let words = line.words.sorted { $0.box.left < $1.box.left }
        return zip(words, words.dropFirst()).compactMap { a, b in b.box.left > a.box.right ? (a.box.right + b.box.left) / 2 : nil }
    }

    /// One line as both readers read it, word by word where their boxes overlap: the second reader's words, except
    /// - where `keepLetters` (German, French, Spanish, read by a model that lacks ß, €, ö, ç, ñ, …: PP-OCRv4) and its
    ///   word has no digit: tesseract's words there;
    /// - where its word is digits alone and tesseract read the same digits with a separator there: the model drops
    ///   the point of dot-matrix amounts ("3100" for "31.00");
    /// - where tesseract read a number and the second reader the same number of characters with a letter outside
    ///   ASCII among them ("θ.60" for "0.60"): the model has Greek and Cyrillic letters, no number prints them, and
    ///   the parser cannot mend them. An ASCII letter stays the second reader's ("18.O0"): the parser mends "O" and "o"
    ///   into a zero, and on the development set that reading is more often right than tesseract's digits.
    static func merged(_ first: OCRLine, _ second: OCRLine, keepLetters: Bool) -> OCRLine {
        func overlaps(_ a: BoundingBox, _ b: BoundingBox) -> Bool {
            let common = min(a.right, b.right) - max(a.left, b.left)
            return common * 2 >= max(1, min(a.width, b.width))
        }
        var used: Set<Int> = []
        var words: [OCRWord] = []
        for word in second.words {
            let under = first.words.indices.filter { overlaps(first.words[$0].box, word.box) }
            let hasDigit = word.text.contains { $0.isASCII && $0.isNumber }
            let digitsOnly = word.text.allSatisfy { $0.isASCII && $0.isNumber }
            // Tesseract read the same digits with a separator among them.
            let separated = under.contains { i in
                let t = first.words[i].text
                return t.contains { $0 == "." || $0 == "," } && t.filter { $0.isASCII && $0.isNumber } == word.text
            }
            let foreignForDigits =
                under.count == 1 && isNumber(first.words[under[0]].text) && word.text.count == first.words[under[0]].text.count
                && word.text.contains { $0.isLetter && !$0.isASCII }
            if !under.isEmpty && ((keepLetters && !hasDigit) || (digitsOnly && word.text.count >= 3 && separated) || foreignForDigits) {
                for i in under where used.insert(i).inserted { words.append(first.words[i]) }
            } else {
                words.append(word)
            }
        }
        return OCRLine(words: words.sorted { $0.box.left < $1.box.left }, reader: .secondReader)
    }

    /// A number as printed: digits, with separators or a sign ("0.54", "-1.00", "1,299.00").
    static func isNumber(_ text: String) -> Bool {
        text.contains { $0.isASCII && $0.isNumber } && text.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == "." || $0 == "," || $0 == "-" }
    }
}

/// The second reader a run reads with: the line reader and the text detector (either may be nil: without a reader
/// tesseract reads alone; without a detector the head is read on tesseract's lines). The installed PP-OCR parts by
/// default; tests give their own (fakes that fail, misread or find nothing).
struct SecondReaders: Sendable {
    let reader: (any LineRecognizer)?
    let detector: (any TextLineDetector)?

    /// PP-OCR's reader and detector as installed, opened once per process when first asked; none when a part is
    /// missing or not usable (`SecondReader.opened` says why).
    static var installed: SecondReaders {
        switch SecondReader.opened {
        case .success(let parts): SecondReaders(reader: parts.reader, detector: parts.detector)
        case .failure: SecondReaders(reader: nil, detector: nil)
        }
    }
}
