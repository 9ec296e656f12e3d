import Foundation

/// The record's deadlines (`Deadlines.compute`): each a calendar day with its kind, its anchor and the sentence that
/// explains it, counted by the engine and never stated as law. What makes a day untrustworthy (a due date before the
/// document or years after it, a fine without the day it was received, a contract whose terms were not read) is a
/// review reason, not a deadline.
extension RecordMerger {
    public func withDeadlines(_ record: DocumentRecord, extraction: Extraction?, sidecar: Sidecar?, presets: DeadlinePresets) -> DocumentRecord {
        guard record.status == .accepted || record.status == .review else { return record }
        var r = record
        let facts = DeadlineFacts(
            kind: r.documentKind ?? .receipt, documentDate: r.date, paymentTerm: extraction?.paymentTerm, statedDueDate: r.dueDate,
            presets: presets, receivedOn: sidecar?.receivedOn, contract: extraction?.contractTerms)
        let result = Deadlines.compute(facts)
        r.deadlines = result.deadlines
        // The invoice's due day, read from its terms, is the due date the exports show.
        if r.dueDate == nil, let pay = result.deadlines.first(where: { $0.kind == .payment }) { r.dueDate = pay.day }
        let problems = result.problems.map { ReviewReason(code: $0.code) }
        guard !problems.isEmpty else { return r }
        r.reasons = RecordMerger.unique(r.reasons + problems)
        r.status = .review
        r.reviewedBy = nil
        return r
    }
}
