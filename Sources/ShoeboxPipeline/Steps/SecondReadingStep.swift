internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

/// What Second reading gives: the first parse joined with the second reader's, the pages as it read them again, and
/// the block of item lines its own parse found.
struct SecondRead {
    let extraction: Extraction
    let pages: [OCRPage]
    let itemBlock: ItemBlock?
}

extension DocumentProcessor {
    /// Second reading: the lines that carry a field, or were read unsure, read again by the second reader; what it
    /// read is parsed and joins the first parse. Nil when it read no line.
    func readSecond(_ reading: Reading, extraction: Extraction, as kind: ParseAs, reader: inout PassReader) -> SecondRead? {
        guard let second, reader.hasImages,
            let pages = reader.secondReading(of: reading, by: second, extraction: extraction, language: kind.guess.language)
        else { return nil }
        let reread = pages.flatMap { page in
            page.lines.filter { $0.reader == .secondReader }.map { Extraction.LinePlace(page: page.pageNumber, box: $0.box) }
        }
        let read = parsed(pages, as: kind)
        return SecondRead(extraction: extraction.joining(secondReading: read, reread: reread), pages: pages, itemBlock: read.itemBlock)
    }
}
