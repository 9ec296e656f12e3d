import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement
@testable import ShoeboxParsing

/// Two readers of the same page: tesseract's candidates and the second reader's, joined
/// (`Extraction.joining(secondReading:reread:)`) and merged.
struct SecondReadingTests {
    let parser = ReceiptParser(today: today)
    let merger = RecordMerger(acceptThreshold: 0.6, requiredFields: [.merchant, .date, .total, .currency])
    let source = SourceFile(path: "/x/a.jpg", relativePath: "a.jpg", folder: "", kind: .jpeg, sha256: "00", size: 1)

    /// `lines` as tesseract read them (word confidence `confidence`), and the same page with the lines numbered in
    /// `again` read again by the second reader as the text given there.
    func merged(_ lines: [String], confidence: Double = 95, again: [Int: String]) -> (DocumentRecord, Extraction) {
        let first = page(lines, confidence: confidence)
        var secondLines = first.lines
        for (i, text) in again {
            secondLines[i] = OCRLine(
                words: page([text]).lines[0].words.map { w in
                    OCRWord(
                        text: w.text,
                        box: BoundingBox(left: w.box.left, top: first.lines[i].box.top, right: w.box.right, bottom: first.lines[i].box.bottom),
                        confidence: 97)
                }, reader: .secondReader)
        }
        let second = OCRPage(pageNumber: 1, width: first.width, height: first.height, dpi: 300, source: .ocr, lines: secondLines)
        let reread = again.keys.map { Extraction.LinePlace(page: 1, box: first.lines[$0].box) }
        let joined = parser.parse(pages: [first], language: "msa").joining(
            secondReading: parser.parse(pages: [second], language: "msa"), reread: reread)
        let record = merger.merge(joined, source: source, language: LanguageGuess(language: "msa", confidence: 0.9), pages: 1)
        return (record, joined)
    }

    let receipt = [
        "KEDAI RUNCIT MAJU SDN BHD", "No. 12 Jalan Besar", "DATE: 10/07/2017 14:02", "ROTI 2.50", "SUSU 4.60", "TOTAL RM 7.10", "CASH 10.00",
        "CHANGE 2.90"
    ]

    @Test func aDateOnlyTheSecondReaderReadIsTakenWithItsProvenance() {
        var misread = receipt
        misread[2] = "DATE: TO/07 2017 14:02"
        let (r, _) = merged(misread, again: [2: "DATE: 10/07/2017 14:02"])
        #expect(r.date?.iso == "2017-07-10")
        #expect(r.evidence[.date]?.source == .secondReader)
        #expect(r.evidence[.date]?.text == "DATE: 10/07/2017 14:02")
        // Read by the second reader alone, with nothing on the page to check it: a person looks.
        #expect(r.reasons.contains(.readersDisagree(.date)), "\(r.reasons)")
        #expect(r.status == .review)
        #expect(ReviewReason(code: "date-readers-disagree") == .readersDisagree(.date))
    }

    @Test func aTotalOnlyTheSecondReaderReadIsTrustedWhenThePagesArithmeticConfirmsIt() {
        var misread = receipt
        misread[5] = "TOTAL RM 1.10"
        let (r, _) = merged(misread, again: [5: "TOTAL RM 7.10"])
        #expect(r.total?.decimalString == "7.10")
        #expect(!r.reasons.contains(.readersDisagree(.total)), "\(r.reasons)")
    }

    @Test func aValueBothReadAlikeIsConfirmedByTheSecondReader() {
        let (r, e) = merged(receipt, again: [2: "DATE: 10/07/2017 14:02", 5: "TOTAL RM 7.10"])
        #expect(r.total?.decimalString == "7.10")
        #expect(r.evidence[.total]?.source == .ocr)
        #expect(r.evidence[.total]?.confirmedBy == [.secondReader])
        #expect(e.amounts.contains { $0.value.minorUnits == 710 && $0.checks.contains(.bothReaders) })
        // The value is kept once: the second reader's twin of tesseract's candidate is not added.
        #expect(e.amounts.filter { $0.value.minorUnits == 710 && $0.evidence?.line == 5 }.count == 1)
    }

    @Test func faintWordsBothReadersReadAlikeAreNoReasonForReview() {
        let alone = merger.merge(
            parser.parse(pages: [page(receipt, confidence: 50)], language: "msa"), source: source,
            language: LanguageGuess(language: "msa", confidence: 0.9), pages: 1)
        #expect(alone.reasons.contains(.lowOCRConfidence))
        let (both, _) = merged(receipt, confidence: 50, again: [0: receipt[0], 2: receipt[2], 5: receipt[5]])
        #expect(!both.reasons.contains(.lowOCRConfidence), "\(both.reasons)")
    }

    @Test func readersThatDisagreeOnALineLowerTheConfidenceAndKeepBothReadings() {
        // No arithmetic on this page to tell the readings apart.
        let plain = ["KEDAI RUNCIT MAJU SDN BHD", "No. 12 Jalan Besar", "DATE: 10/07/2017 14:02", "TOTAL RM 7.10"]
        let (agreed, _) = merged(plain, again: [3: "TOTAL RM 7.10"])
        let (r, e) = merged(plain, again: [3: "TOTAL RM 7.70"])
        let marked = e.amounts.filter { $0.evidence?.line == 3 && $0.role == .total }
        #expect(Set(marked.map(\.value.minorUnits)) == [710, 770])
        #expect(marked.allSatisfy { $0.checks.contains(.readersDisagree) })
        #expect((r.confidence[.total] ?? 1) < (agreed.confidence[.total] ?? 0))
        #expect(r.status == .review, "\(r.reasons)")
        #expect(r.alternates[.total]?.contains { $0.source == .secondReader || $0.source == .ocr } == true)
        // Where the page's own arithmetic (cash − change) confirms one reading, it decides.
        let (checked, _) = merged(receipt, again: [5: "TOTAL RM 7.70"])
        #expect(checked.total?.decimalString == "7.10")
        #expect(checked.alternates[.total]?.contains { $0.value == "7.70" && $0.source == .secondReader } == true)
    }

    @Test func aMisreadDateShapeTheSecondReaderReadAsADateNoLongerMakesTheDateDoubtful() {
        var misread = receipt
        misread[2] = "DATE: 10/07/2017 14:02"
        misread.insert("17-66-13", at: 7)
        let (alone, _) = merged(misread, again: [:])
        #expect(alone.reasons.contains(.ambiguous(.date)))
        let (r, _) = merged(misread, again: [7: "10-07-17"])
        #expect(!r.reasons.contains(.ambiguous(.date)), "\(r.reasons)")
        #expect(r.date?.iso == "2017-07-10")
    }
}

/// A shop's name printed over three lines, as wrapped long legal names are in receipt heads.
struct ThreeLineNameTests {
    @Test func aNameOverThreeLinesIsJoinedWhole() {
        let lines = [
            "KEDAI BESI MAJU", "ENTERPRISE (TAMAN", "JAYA) SDN BHD", "(123456-X)", "NO. 17, JALAN SETIA 3", "DATE: 10/07/2017",
            "PAKU 2.50", "TOTAL RM 2.50"
        ]
        let e = ReceiptParser(today: today).parse(pages: [page(lines)], language: "msa")
        let best = e.merchants.max { $0.score < $1.score }
        #expect(best?.value == "KEDAI BESI MAJU ENTERPRISE (TAMAN JAYA) SDN BHD", "\(e.merchants.map { ($0.value, $0.score) })")
        #expect(best?.evidence?.line == 0)
        // A two-line name stays two lines.
        let two = ReceiptParser(today: today).parse(
            pages: [page(["POPULAR BOOK", "CO. (M) SDN BHD", "(113825-W)", "TOTAL RM 2.50"])], language: "msa")
        #expect(two.merchants.max { $0.score < $1.score }?.value == "POPULAR BOOK CO. (M) SDN BHD")
    }
}

/// Two readings of one page whose lines are numbered differently (the second reading's head holds the detector's two
/// lines where tesseract read one): the same printed line is found by its box, not by its number.
struct LineOverlapTests {
    func line(_ text: String, top: Int, left: Int = 10, right: Int = 400, reader: TextSource? = nil) -> OCRLine {
        OCRLine(words: [OCRWord(text: text, box: BoundingBox(left: left, top: top, right: right, bottom: top + 30), confidence: 90)], reader: reader)
    }

    @Test func theSameLineIsFoundByItsBox() {
        let tesseract = OCRPage(
            pageNumber: 1, width: 500, height: 400, dpi: 300, source: .ocr,
            lines: [line("ASIA MART (SA0264195-T)", top: 10), line("DATE: 22/12/2017", top: 60), line("TOTAL 32.70", top: 110)])
        let second = OCRPage(
            pageNumber: 1, width: 500, height: 400, dpi: 300, source: .ocr,
            lines: [
                line("ASIA MART", top: 10, right: 200, reader: .secondReader), line("(SA0264195-T)", top: 10, left: 210, reader: .secondReader),
                line("DATE: 22/12/2017", top: 62, reader: .secondReader), line("TOTAL 32.70", top: 108)
            ])
        // Line 3 of the second reading is tesseract's line 2.
        #expect(tesseract.line(overlapping: second.lines[2].box)?.text == "DATE: 22/12/2017")
        #expect(second.line(overlapping: tesseract.lines[1].box, readBy: .secondReader)?.text == "DATE: 22/12/2017")
        // Only lines the second reader read count when it is asked for: the total's line it did not read again.
        #expect(second.line(overlapping: tesseract.lines[2].box, readBy: .secondReader) == nil)
        #expect(tesseract.line(overlapping: BoundingBox(left: 10, top: 300, right: 400, bottom: 330)) == nil)
    }
}
