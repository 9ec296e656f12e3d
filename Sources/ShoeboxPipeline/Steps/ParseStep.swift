internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

extension DocumentProcessor {
    /// Parse: every candidate for every field from the reading.
    func parseReading(_ state: inout DocumentState) { state.extraction = parsed(state.reading.pages, of: state) }

    /// `pages` parsed in the document's language and as the screen (or paper) its first page is: the one way every
    /// step parses what it read (the first reading, the second reader's lines and items, pages read whole, further
    /// passes), each counted as `parse` CPU.
    func parsed(_ pages: [OCRPage], of state: DocumentState) -> Extraction {
        let (guess, screen) = (state.guess, state.screen)
        return cpu.measure("parse") { parse.run(pages, language: guess, screen: screen) }
    }
}
