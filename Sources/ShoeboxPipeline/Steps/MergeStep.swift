internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

extension DocumentProcessor {
    /// Merge: one value per field, with its confidence, alternates, provenance and reasons.
    func mergeExtraction(_ state: inout DocumentState) {
        state.record = merge.run(state.extraction, document: state.document, language: state.guess, pages: state.reading.pages.count)
    }
}
