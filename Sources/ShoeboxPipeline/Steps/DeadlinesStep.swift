internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

extension DocumentProcessor {
    /// Deadlines: the dates that matter (due, return, cancel, appeal) and the charge that recurs.
    func addDeadlines(_ record: DocumentRecord, extraction: Extraction, document: ReadyDocument) -> DocumentRecord {
        deadlines(record, extraction: extraction, document: document)
    }
}
