internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

extension DocumentProcessor {
    /// Merge: one value per field, with its confidence, alternates, provenance and reasons. The one merge: the steps
    /// that add candidates after it (Pages read whole, Further reading) are handed this function.
    func merged(_ extraction: Extraction, of document: ReadyDocument, language: LanguageGuess, pages: Int) -> DocumentRecord {
        merge.run(extraction, document: document, language: language, pages: pages)
    }
}
