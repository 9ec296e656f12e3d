import Foundation
public import ShoeboxCore
internal import ShoeboxParsing
public import ShoeboxReading

/// The record's deadlines (`Deadlines.compute`): each a calendar day with its kind, its anchor and the sentence that
/// explains it, counted by the engine and never stated as law. What makes a day untrustworthy (a due date before the
/// document or years after it, a fine without the day it was received, a contract whose terms were not read) is a
/// review reason, not a deadline.
extension RecordMerger {
    public func withDeadlines(_ record: DocumentRecord, extraction: Extraction?, sidecar: Sidecar?, presets: DeadlinePresets) -> DocumentRecord {
        guard record.status == .accepted || record.status == .review else { return record }
        var r = RecordMerger.withDocumentKind(record, given: sidecar?.documentKind ?? presets.documentKind)
        if r.receivedOn == nil, let day = sidecar?.receivedOn {
            r.receivedOn = day
            r.evidence[.receivedOn] = FieldEvidence(source: sidecar?.source ?? .sidecar)
        }
        // The due day the document states (an e-invoice's), not one counted from terms on an earlier count.
        let stated = r.deadlineFacts == nil ? r.dueDate : r.deadlineFacts?.statedDueDate
        // An e-invoice without a due date states its terms in words ("Zahlbar innerhalb von 14 Tagen"): read as a page's.
        let xmlTerms = r.eInvoice.flatMap { e in
            PaymentTermReading.read(lines: e.paymentTerms.flatMap { $0.split(whereSeparator: \.isNewline).map(String.init) })
        }
        let facts = DeadlineFacts(
            kind: r.documentKind ?? .receipt, documentDate: r.date, paymentTerm: extraction?.paymentTerm ?? xmlTerms, statedDueDate: stated,
            presets: presets, receivedOn: r.receivedOn, contract: extraction?.contractTerms)
        // Kept only where a deadline can come of them: most receipts carry none.
        r.deadlineFacts = facts.mayGiveDeadlines ? facts : nil
        return r.recountingDeadlines(sendProblemsToReview: true)
    }

    /// The kind a sidecar or the folder's preset gives, over the one read from the page. A page read as a kind of its
    /// own (a credit note, a fine, a contract, no purchase: anything but a plain receipt) that the given kind
    /// contradicts goes to review (`document-kind-disagrees`): the person's word is used, and not silently.
    static func withDocumentKind(_ record: DocumentRecord, given: DocumentKind?) -> DocumentRecord {
        guard let given, given != record.documentKind else { return record }
        var r = record
        let read = r.documentKind ?? .receipt
        r.documentKind = given
        if read != .receipt, read != given { Verdict.hold(&r, for: [.documentKindDisagrees]) }
        return r
    }
}

extension DocumentRecord {
    /// A contract's terms as a person types them in review: kept with the facts the deadlines count from (made for a
    /// record that had none).
    mutating func setContractTerms(_ change: (inout ContractTerms) -> Void) {
        var facts = deadlineFacts ?? DeadlineFacts(kind: documentKind ?? .receipt, documentDate: date)
        var terms = facts.contract ?? ContractTerms()
        change(&terms)
        facts.contract = terms
        deadlineFacts = facts
    }

    /// The deadlines counted again from the record as it stands (its kind, its date, its received-on day) and the facts
    /// the pipeline kept (`deadlineFacts`): after a person corrects the date or types the day a fine was received.
    /// A deadline settled before stays settled. With `sendProblemsToReview` (the pipeline's first count), a problem
    /// sends the record to review; after a person's edit, the problems a record in review waits for are brought up to
    /// date (a received-on day typed clears `fine-received-on-missing`), and an accepted record stays accepted.
    public func recountingDeadlines(sendProblemsToReview: Bool = false) -> DocumentRecord {
        guard var facts = deadlineFacts else { return self }
        var r = self
        facts.kind = documentKind ?? .receipt
        facts.documentDate = date
        facts.receivedOn = receivedOn
        facts = facts.bounded
        r.deadlineFacts = facts
        let result = Deadlines.compute(facts)
        r.deadlines = result.deadlines
        // The invoice's due day, read from its terms, is the due date the exports show.
        r.dueDate = facts.statedDueDate ?? result.deadlines.first(where: { $0.kind == .payment })?.day
        // An e-invoice states its dates exactly: a due day before its date is the invoice's own statement (a final
        // invoice listing the due days of instalments already billed), not a misread date, and it is shown as stated
        // (overdue). Any other source's is a misreading to check.
        let exact = evidence[.date]?.source == .eInvoice
        let problems = result.problems.filter { !(exact && $0 == .dueDateBeforeDocument) }.map { ReviewReason(code: $0.code) }
        let deadlineCodes = Set(DeadlineProblem.allCases.map(\.code))
        if sendProblemsToReview {
            Verdict.hold(&r, for: problems)
        } else if r.status == .review {
            r.reasons = RecordMerger.unique(r.reasons.filter { !deadlineCodes.contains($0.code) } + problems)
        }
        return r
    }
}
