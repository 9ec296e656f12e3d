internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

/// What a parse needs beside the pages: the document's language and whether its first page is a phone's screen.
struct ParseAs: Sendable {
    let guess: LanguageGuess
    let screen: ScreenTraits?
}

extension DocumentProcessor {
    /// Parse: every candidate for every field from `pages`, in the document's language and as the screen (or paper)
    /// its first page is: the one way every step parses what it read (the first reading, the second reader's lines and
    /// items, pages read whole, further passes), each counted as `parse` CPU.
    func parsed(_ pages: [OCRPage], as kind: ParseAs) -> Extraction {
        cpu.measure("parse") { parse.run(pages, language: kind.guess, screen: kind.screen) }
    }
}
