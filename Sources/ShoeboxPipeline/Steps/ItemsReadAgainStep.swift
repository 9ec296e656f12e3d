internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

extension DocumentProcessor {
    /// Items read again: when neither reading's items are proven (or none was read), the block of item lines that
    /// tesseract's reading still holds is read by the second reader (an amount misread by a digit is the common loss
    /// there); the items of that reading are taken only when the page's own figures prove them (nil otherwise). An
    /// e-invoice's items are its XML's (`exact`): its page's are not read again.
    func readItemsAgain(
        _ reading: Reading, extraction: Extraction, second read: SecondRead?, exact: Bool, as kind: ParseAs, reader: inout PassReader
    ) -> ItemsReading? {
        guard let second, !exact, reader.hasImages, extraction.items?.check.proven != true else { return nil }
        let (base, block) = read.flatMap { $0.pages.isEmpty ? nil : ($0.pages, $0.itemBlock) } ?? (reading.pages, extraction.itemBlock)
        guard let block, let pages = reader.itemLinesReading(of: reading, base: base, block: block, by: second, language: kind.guess.language)
        else { return nil }
        guard let items = parsed(pages, as: kind).items, items.check.proven else { return nil }
        return items
    }
}
