internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

extension DocumentProcessor {
    /// Items read again: when neither reading's items are proven (or none was read), the block of item lines that
    /// tesseract's reading still holds is read by the second reader (an amount misread by a digit is the common loss
    /// there); the items of that reading are taken only when the page's own figures prove them. An e-invoice's items are
    /// its XML's: its page's are not read again.
    func readItemsAgain(_ state: inout DocumentState) {
        guard let second, !state.exact, state.reader.hasImages, state.extraction.items?.check.proven != true else { return }
        let (base, block) =
            state.secondPages.isEmpty ? (state.reading.pages, state.extraction.itemBlock) : (state.secondPages, state.secondItemBlock)
        guard let block,
            let pages = state.reader.itemLinesReading(of: state.reading, base: base, block: block, by: second, language: state.guess.language)
        else { return }
        if let read = parsed(pages, of: state).items, read.check.proven { state.extraction.items = read }
    }
}
