public import ShoeboxCore
internal import ShoeboxReading

/// The deterministic parser: reads every candidate for every field out of a document's lines,
/// each with its role, a rule score and the evidence it came from. It chooses nothing; the merge does.
///
/// The rules live beside this file, one file per field: `ReceiptParser+Amounts.swift` (amount roles,
/// totals and the arithmetic cross-checks), `+Dates`, `+Merchant`, `+Currency`, `+References`.
public struct ReceiptParser: Sendable {
    /// "Today", so dates after it are rejected. Always a parameter, never read from a clock here.
    let today: CalendarDay

    public init(today: CalendarDay) { self.today = today }

    /// One physical line, prepared once for every rule. A class: the rules pass lines around a lot, and a
    /// struct of this many strings costs a retain per field on every copy.
    final class Line {
        let page: Int
        /// Index of the line on its page.
        let index: Int
        /// Index of the line in the whole document.
        let order: Int
        let line: OCRLine
        let text: String
        /// Lower case without diacritics, for keywords.
        let folded: String
        /// The text with OCR's typical breaks inside numbers mended ("64. 15" → "64.15"), for amounts.
        let amountText: String
        /// The amounts (and rates) read from `amountText`, left to right.
        let amounts: [AmountReader.Found]
        /// The role its keywords give the amounts of the line, and the keyword (looked up when first asked).
        lazy var role: (AmountRole?, String?) = ReceiptParser.role(of: folded)
        /// Runs of words parted by wide gaps: the columns of the line ("Adatum Corporation" | "CRONUS DE").
        /// Worked out only for the lines the merchant rules look at.
        lazy var segments: [String] = ReceiptParser.segments(of: line)
        let evidence: Evidence
        /// 0 at the top of the document, 1 at the bottom of the last page.
        let position: Double

        init(
            page: Int, index: Int, order: Int, line: OCRLine, text: String, folded: String, amountText: String,
            amounts: [AmountReader.Found], evidence: Evidence, position: Double
        ) {
            self.page = page
            self.index = index
            self.order = order
            self.line = line
            self.text = text
            self.folded = folded
            self.amountText = amountText
            self.amounts = amounts
            self.evidence = evidence
            self.position = position
        }
    }

    /// A receipt or invoice puts its seller and date on the first pages and its totals on the last: of a longer
    /// document, only the first and last `pagesReadAtEachEnd` pages are parsed, so the time and memory of a
    /// parse stay bounded (a 2,000-page PDF took 40 s of cross-checks before). Such a record goes to review.
    public static let pagesReadAtEachEnd = 25

    /// `screen`: what the first page's pixels say of a phone's screen (nil: not measured, or a text page).
    public func parse(pages all: [OCRPage], language: String?, screen: ScreenTraits? = nil) -> Extraction {
        let n = ReceiptParser.pagesReadAtEachEnd
        let pages = all.count > 2 * n ? Array(all.prefix(n) + all.suffix(n)) : all
        let lines = ReceiptParser.prepare(pages)
        var extraction = Extraction()
        extraction.currencies = currencyCandidates(lines, language: language)
        extraction.amounts = ReceiptParser.paymentsReadAsTotals(amountCandidates(lines))
        extraction.taxes = taxReadings(lines)
        // The items come first: a set the page's arithmetic proves is evidence for the total it sums to.
        readDates(lines, language: language, into: &extraction)
        (extraction.items, extraction.itemBlock) = readItems(lines, amounts: extraction.amounts, dates: extraction.dates)
        scoreTotals(&extraction, lines: lines)
        extraction.merchants = merchantCandidates(lines, dateLines: Set(extraction.dates.compactMap { $0.evidence.map { ReceiptParser.key($0) } }))
        extraction.references = referenceCandidates(lines)
        extraction.sellerTaxIDs = sellerTaxIDCandidates(lines)
        extraction.paymentMethods = paymentCandidates(lines)
        extraction.documentKind = documentKind(lines)
        extraction.card = ReceiptParser.cardUsed(lines)
        if isScreen(lines, screen: screen) { readScreen(lines, into: &extraction) }
        ReceiptParser.attachWordConfidences(&extraction, lines: lines)
        extraction.proposeTotalsOneDigitOff()
        extraction.pagesSkipped = all.count - pages.count
        return extraction
    }

    /// For amounts and dates: the lowest OCR confidence of the words on the evidence line that print the
    /// value's digits. A line read at 90 on average can hold a total read at 40; the total's own words count.
    static func attachWordConfidences(_ e: inout Extraction, lines: [Line]) {
        var byKey: [Int: OCRLine] = [:]
        for line in lines { byKey[key(line.evidence)] = line.line }
        func lowest(_ evidence: Evidence?, _ matches: (String) -> Bool) -> Double? {
            guard let evidence, let line = byKey[key(evidence)] else { return nil }
            let found = line.words.filter { w in
                let digits = String(w.text.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }.map { Character(UnicodeScalar($0)) })
                return !digits.isEmpty && matches(digits)
            }
            return found.map(\.confidence).min()
        }
        for i in e.amounts.indices where e.amounts[i].score > 0 {
            let value = String(abs(e.amounts[i].value.minorUnits))
            e.amounts[i].wordConfidence = lowest(e.amounts[i].evidence) { d in
                TextFolding.containsSubstring(d, value) || (d.count >= 2 && TextFolding.containsSubstring(value, d))
            }
        }
        for i in e.dates.indices {
            let day = e.dates[i].value
            let year = String(format: "%02d", day.year % 100)
            let dd = String(format: "%02d", day.day)
            let mm = String(format: "%02d", day.month)
            e.dates[i].wordConfidence = lowest(e.dates[i].evidence) { d in
                TextFolding.containsSubstring(d, year) && d.count >= 4
                    || (TextFolding.containsSubstring(d, dd) && TextFolding.containsSubstring(d, mm))
            }
        }
    }

    /// Page and line of some evidence, as one number.
    static func key(_ e: Evidence) -> Int { e.page * 100_000 + e.line }

    /// Currencies of countries that write month before day.
    static let monthFirstCurrencies: Set<String> = ["USD"]

    static func prepare(_ pages: [OCRPage]) -> [Line] {
        let pageCount = Double(max(1, pages.count))
        var out: [Line] = []
        for (p, page) in pages.enumerated() {
            for (i, whole) in page.lines.enumerated() {
                // A full card number is cut to its last four before any rule reads the line.
                let line = CardNumbers.masked(ReceiptParser.bounded(whole))
                let text = line.text
                let y = page.height > 0 ? Double(line.box.centerY) / Double(page.height) : 0
                let folded = TextFolding.fold(text)
                let amountText = AmountReader.mend(text)
                out.append(
                    Line(
                        page: page.pageNumber, index: i, order: out.count, line: line, text: text, folded: folded,
                        amountText: amountText, amounts: AmountReader.amounts(in: amountText),
                        evidence: Evidence(
                            page: page.pageNumber, line: i, box: line.box, text: text,
                            source: line.reader ?? page.source, ocrConfidence: line.meanConfidence),
                        position: (Double(p) + min(1, max(0, y))) / pageCount))
            }
        }
        return out
    }

    /// The most words, and characters, of one line the parser reads: a line of print on a receipt or an A4 invoice
    /// holds far fewer, and a text layer's endless line (a hostile or broken PDF) would otherwise cost the date and
    /// amount rules seconds per kilobyte. What lies beyond is left unread.
    static let maxWordsPerLine = 120
    static let maxCharactersPerLine = 2_000

    /// `line` cut to `maxWordsPerLine` words and `maxCharactersPerLine` characters (the last word kept whole up to it).
    static func bounded(_ line: OCRLine) -> OCRLine {
        var count = 0
        var kept: [OCRWord] = []
        for word in line.words.prefix(maxWordsPerLine) {
            count += word.text.utf8.count + 1
            if count > maxCharactersPerLine {
                if kept.isEmpty {
                    kept.append(OCRWord(text: String(word.text.prefix(maxCharactersPerLine)), box: word.box, confidence: word.confidence))
                }
                break
            }
            kept.append(word)
        }
        return kept.count == line.words.count && count <= maxCharactersPerLine ? line : OCRLine(words: kept, reader: line.reader)
    }

    /// Splits a line where the gap between two words is wider than three average character widths.
    static func segments(of line: OCRLine) -> [String] {
        let words = line.words
        guard words.count > 1 else { return [line.text] }
        let chars = words.reduce(0) { $0 + max(1, $1.text.count) }
        let charWidth = Double(words.reduce(0) { $0 + $1.box.width }) / Double(chars)
        var out: [String] = []
        var current: [String] = [words[0].text]
        for (a, b) in zip(words, words.dropFirst()) {
            if Double(b.box.left - a.box.right) > 3 * charWidth {
                out.append(current.joined(separator: " "))
                current = []
            }
            current.append(b.text)
        }
        out.append(current.joined(separator: " "))
        return out
    }

    /// Upper case without diacritics and punctuation, single spaces: "REWE Markt GmbH" → "REWE MARKT GMBH".
    public static func normalizedMerchant(_ name: String) -> String {
        let folded = TextFolding.fold(name).uppercased()
        let kept = folded.map { $0.isLetter || $0.isNumber ? $0 : " " }
        return String(kept).split(separator: " ").joined(separator: " ")
    }
}
