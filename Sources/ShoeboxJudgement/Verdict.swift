public import ShoeboxCore

/// Accept or review: the one place the pipeline decides a record's status. The steps of judgement (the merge of the
/// page's candidates and the gate's reasons for its required fields, the e-invoice merge, the merchant memory, the
/// deadlines, a PDF's second XML, the duplicate rules, the charges after a cancellation) only add reasons and
/// evidence; `settle` decides from the reasons a record carries: with none it is accepted by the pipeline, with any
/// it waits in review for a person. A record that failed, or that is a duplicate of other bytes or rejected, is no
/// verdict's and keeps its status. A person's decisions (`Review.apply`) come on top of the verdict, never inside it.
public enum Verdict {
    /// `record`'s status from its reasons (`accepted` by "pipeline" with none, `review` by no one yet with any); a
    /// failed, duplicate or rejected record is left as it is.
    public static func settle(_ record: inout DocumentRecord) {
        guard record.status == .accepted || record.status == .review else { return }
        record.status = record.reasons.isEmpty ? .accepted : .review
        record.reviewedBy = record.status == .accepted ? "pipeline" : nil
    }

    /// `record` with `reasons` added (each once, after those it has) and its status settled again: what a step of
    /// judgement after the merge does when it finds a reason to hold the record.
    public static func hold(_ record: inout DocumentRecord, for reasons: [ReviewReason]) {
        guard !reasons.isEmpty else { return }
        record.reasons = RecordMerger.unique(record.reasons + reasons)
        settle(&record)
    }
}
