internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

extension DocumentProcessor {
    /// Deadlines: the dates that matter (due, return, cancel, appeal) and the charge that recurs.
    func addDeadlines(_ state: inout DocumentState) {
        state.record = deadlines(state.record, extraction: state.extraction, document: state.document)
    }
}
