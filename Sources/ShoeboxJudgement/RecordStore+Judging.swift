import Foundation
public import ShoeboxCore
import ShoeboxParsing

// What the callers of a store judge from what it holds, and hand back to it as values to write: a record as people
// decided it, what the merchant memory learns from a decision, a record judged again with the memory (`rescore`), the
// charges a cancelled series took after its cancellation. The store only keeps what it is given (`RecordStore`).

extension RecordStore {
    /// Every record, ordered by source path.
    public func records() throws(StoreError) -> [DocumentRecord] { try records(path: nil) }

    /// The decisions in force (for the content the store holds now), per path, in the order they were made.
    public func decisions(path: String? = nil) throws(StoreError) -> [String: [ReviewDecision]] {
        try decisionsInForce(path: path, sha256: nil).mapValues { $0.map(\.decision) }
    }

    /// Every decision ever made (undone ones too), oldest first.
    public func decisionLog() throws(StoreError) -> [LoggedDecision] { try decisionLog(path: nil) }

    /// Every record as it stands: the pipeline's suggestion with the decisions in force applied.
    public func effectiveRecords() throws(StoreError) -> [(suggestion: DocumentRecord, record: DocumentRecord)] {
        let decided = try decisions()
        return try records().map { ($0, Review.apply(decided[$0.source] ?? [], to: $0)) }
    }

    /// One source's record as it stands, beside the pipeline's suggestion; nil when the store has none for it.
    public func effectiveRecord(path: String) throws(StoreError) -> (suggestion: DocumentRecord, record: DocumentRecord)? {
        guard let r = try records(path: path).first else { return nil }
        return (r, Review.apply(try decisions(path: path)[path] ?? [], to: r))
    }

    /// Absolute path of each source's original, by relative path.
    public func originalPaths() throws(StoreError) -> [String: String] {
        var out: [String: String] = [:]
        for (path, root) in try roots() { out[path] = PathText.joined(root, path) }
        return out
    }

    // MARK: writing what the pipeline read

    /// Saves one document's outcome: its source row, pages and record, and what the memory learns from it with the
    /// decisions that still apply to it (made on the same content). A changed file's earlier decisions no longer
    /// apply, nor what they taught.
    public func save(_ outcome: DocumentOutcome, root: String, runID: Int64, settings: String? = nil) throws(StoreError) {
        let r = outcome.record
        let decided = try decisionsInForce(path: r.source, sha256: r.sha256)[r.source] ?? []
        let learned = MerchantMemory.learned(from: r, keys: MerchantMemory.keys(of: r, pages: outcome.pages), decided: decided)
        try write(outcome, root: root, runID: runID, settings: settings, memory: learned)
    }

    // MARK: decisions

    /// Saves decisions at once, all or none: the one path every way of deciding takes (the terminal, the browser,
    /// `--apply`), into one log of who decided where, when, and what changed. Each record is the record as it stands
    /// when its decision is made; what the memory learns from each record decided is judged again with them.
    public func decide(_ decisions: [(record: DocumentRecord, decision: ReviewDecision)], at: String, by desk: ReviewDecision.Desk)
        throws(StoreError)
    {
        var working: [String: DocumentRecord] = [:]
        var entries: [DecisionEntry] = []
        for (r, d) in decisions {
            // Several decisions on one record in one batch: each sees the record the ones before left.
            let current = working[r.source] ?? r
            let (before, after) = d.change(on: current)
            entries.append(DecisionEntry(path: r.source, sha256: r.sha256, decision: d, at: at, desk: desk, before: before, after: after))
            working[r.source] = Review.apply([d], to: current)
        }
        var memory: [String: [MerchantMemory.Sighting]] = [:]
        for path in working.keys.sorted() {
            memory[path] = try learned(path: path) { suggestion, inForce in
                inForce + entries.filter { $0.path == path && $0.sha256 == suggestion.sha256 }.map { DecisionInForce($0.decision, at: $0.at) }
            }
        }
        try writeDecisions(entries, memory: memory)
    }

    /// Marks the latest decision that is not undone as undone, and what the memory learned from its record is judged
    /// again without it; returns its record's path and the decision.
    public func undoLastDecision() throws(StoreError) -> (path: String, decision: ReviewDecision)? {
        guard let last = try lastDecisionNotUndone() else { return nil }
        // The decision undone is the latest of its path's decisions in force, when it is in force at all.
        let memory = try learned(path: last.path) { suggestion, inForce in
            last.sha256 == suggestion.sha256 ? Array(inForce.dropLast()) : inForce
        }
        try writeUndo(last.id, path: last.path, memory: memory)
        return (last.path, last.decision)
    }

    /// Adds an expense a person entered by hand (`Review.handEntry`): a source without a file, its record, and the
    /// person's accept of it in the log (undo takes it back to review, where it can be rejected).
    public func addByHand(_ r: DocumentRecord, at: String, by desk: ReviewDecision.Desk) throws(StoreError) {
        guard r.enteredByHand else { throw StoreError(message: "only a record entered by hand is added this way") }
        let accept = ReviewDecision(action: .accept)
        let (before, after) = accept.change(on: r)
        try writeByHand(
            r,
            decision: DecisionEntry(path: r.source, sha256: r.sha256, decision: accept, at: at, desk: desk, before: before ?? "", after: after ?? ""))
    }

    // MARK: the merchant memory

    /// What the memory learns from `path`'s record with the decisions `inForce` gives (from those in force now): nothing
    /// when the store holds no record for it.
    func learned(
        path: String, inForce: (DocumentRecord, [DecisionInForce]) -> [DecisionInForce]
    ) throws(StoreError) -> [MerchantMemory.Sighting] {
        guard let suggestion = try records(path: path).first else { return [] }
        let decided = inForce(suggestion, try decisionsInForce(path: path, sha256: nil)[path] ?? [])
        let keys = try keys(of: suggestion)
        return MerchantMemory.learned(from: suggestion, keys: keys, decided: decided)
    }

    /// The record's keys; for a record stored before records carried them, read from its stored pages.
    public func keys(of record: DocumentRecord) throws(StoreError) -> [MerchantKey] {
        guard record.merchantKeys.isEmpty, !record.enteredByHand else { return record.merchantKeys }
        return MerchantMemory.keys(of: record, pages: try pages(path: record.source))
    }

    // MARK: recurring charges

    /// The recurring series among the records as they stand, with the cancellations people marked.
    public func recurringSeries(today: CalendarDay) throws(StoreError) -> [Series] {
        RecurringCharges.find(try effectiveRecords().compactMap { Charge($0.record) }, cancellations: try cancellations(), today: today)
    }

    /// The series `record` is a charge of, or took a charge of after it was cancelled; nil for any other record. Only an
    /// accepted record or one flagged `charged-after-cancellation` can be one, so no other record costs a look at
    /// the whole store (the review desks ask this for every record they open).
    public func series(of record: DocumentRecord, today: CalendarDay) throws(StoreError) -> Series? {
        guard record.status == .accepted || record.reasons.contains(.chargedAfterCancellation) else { return nil }
        return try recurringSeries(today: today).first { s in
            s.history.contains { $0.source == record.source } || s.chargesAfterCancellation.contains(record.source)
        }
    }

    /// How `recurring --cancel` and the browser mark a series cancelled (a `review --apply` line is checked the same
    /// way, `RecurringCharges.cancellation`, before its file is applied): the name a person typed, resolved among the
    /// series (an unknown one fails naming the closest), on a day it can have been cancelled on (from 1900 to
    /// `today`, not before its first charge), marked from that day, and every charge it took after it sent to
    /// review. A refused one changes nothing.
    public func cancelSeries(named typed: String, on day: CalendarDay, today: CalendarDay, at: String) throws(StoreError) -> Result<
        SeriesCancelled, CancellationRefused
    > {
        switch RecurringCharges.cancellation(of: typed, on: day, among: try recurringSeries(today: today), today: today) {
        case .failure(let e): return .failure(e)
        case .success(let c):
            try cancel(c.merchant, on: c.day, at: at)
            return .success(SeriesCancelled(merchant: c.merchant, flagged: try Rejudging.chargesAfterCancellation(in: self, today: today)))
        }
    }
}

extension MerchantMemory {
    /// What a record teaches the memory: each of its keys with the name a person confirmed, and what they settled on
    /// beside it, when the decisions in force left it accepted, with a merchant, and its page printed keys. Rejected,
    /// undone, still in review, accepted by the pipeline alone, entered by hand (no page): nothing.
    public static func learned(from suggestion: DocumentRecord, keys: [MerchantKey], decided: [DecisionInForce]) -> [Sighting] {
        guard !keys.isEmpty, let at = decided.last?.at else { return [] }
        let record = Review.apply(decided.map(\.decision), to: suggestion)
        guard record.status == .accepted, let merchant = record.merchant else { return [] }
        return keys.map {
            Sighting(
                key: $0, merchant: merchant, category: record.category, currency: record.currency?.code, paymentMethod: record.paymentMethod,
                source: suggestion.source, at: at)
        }
    }

    /// What a record imported from an export made before the memory teaches it: `learned` from the record's keys,
    /// or from those its pages print (`StoreJSON.importInto`'s `learn`).
    public static func relearned(_ suggestion: DocumentRecord, pages: [OCRPage], decided: [DecisionInForce]) -> [Sighting] {
        learned(from: suggestion, keys: keys(of: suggestion, pages: pages), decided: decided)
    }

    /// The record's keys, or those its pages print when it carries none (a record stored before records carried them).
    public static func keys(of record: DocumentRecord, pages: [OCRPage]) -> [MerchantKey] {
        guard record.merchantKeys.isEmpty, !record.enteredByHand else { return record.merchantKeys }
        return MerchantKey.keys(of: pages.map { OCRPage(pageNumber: $0.pageNumber, width: 0, height: 0, dpi: 0, source: .ocr, lines: $0.lines) })
    }
}

/// What marking a series cancelled did: the series' name, and the charges after the day now waiting in review.
public struct SeriesCancelled: Sendable {
    public let merchant: String
    public let flagged: [ChargeAfterCancellation]
}
