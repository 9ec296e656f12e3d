internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

extension DocumentProcessor {
    /// Second reading: the lines that carry a field, or were read unsure, read again by the second reader; what it
    /// read is parsed and joins the first parse.
    func readSecond(_ state: inout DocumentState) {
        guard let second, state.reader.hasImages,
            let pages = state.reader.secondReading(of: state.reading, by: second, extraction: state.extraction, language: state.guess.language)
        else { return }
        let reread = pages.flatMap { page in
            page.lines.filter { $0.reader == .secondReader }.map { Extraction.LinePlace(page: page.pageNumber, box: $0.box) }
        }
        let read = parsed(pages, of: state)
        state.extraction = state.extraction.joining(secondReading: read, reread: reread)
        state.secondPages = pages
        state.secondItemBlock = read.itemBlock
    }
}
