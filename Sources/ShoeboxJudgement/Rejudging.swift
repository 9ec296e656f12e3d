public import ShoeboxCore

/// Judging again what the store holds when something outside one document changed: a series marked cancelled, what
/// the merchant memory holds. Each is a named step of judgement over the store's interface, not store code: it reads
/// records and decisions through `RecordStore`, applies the rules, and writes each record it changes through the one
/// typed write path (`RecordStore.rewrite`). `shoebox run` takes `chargesAfterCancellation` as its last step
/// (Re-judge, after Route); `recurring --cancel`, the browser and `review --apply` take it after a cancellation;
/// `shoebox rescore` takes `withMemory`.
public enum Rejudging {
    /// Judges every record in review again with what the memory holds now, from the record the page gave (the stored
    /// one; the pages are not read again), through `merger` (`RecordMerger.remember`). Decisions in force stay on top.
    public static func withMemory(in store: some RecordStore, merger: RecordMerger) throws(StoreError) -> Rescored {
        let memory = try store.memory()
        let decided = try store.decisions()
        let pageRecords = try store.pageRecords()
        var out = Rescored()
        var updates: [RecordUpdate] = []
        for now in try store.records() where Review.apply(decided[now.source] ?? [], to: now).status == .review {
            let path = now.source
            out.looked += 1
            let page = pageRecords[path] ?? now
            // Reasons the run added after the merge (a possible duplicate) stay.
            var base = page
            base.reasons = page.reasons + now.reasons.filter { RecordMerger.addedAfterMerge($0) && !page.reasons.contains($0) }
            base.duplicateOf = now.duplicateOf
            let judged = merger.remember(memory.recall(try store.keys(of: page)), in: base)
            guard judged.jsonLine() != now.jsonLine() else { continue }
            out.changed.append(path)
            if Review.apply(decided[path] ?? [], to: judged).status == .accepted { out.accepted.append(path) }
            updates.append(RecordUpdate(path: path, record: judged, pageRecord: .set(judged == page ? nil : page)))
        }
        try store.rewrite(updates)
        return out
    }

    /// Sends each charge a cancelled series took after its cancellation to review (`charged-after-cancellation`), when
    /// the pipeline accepted it and no person decided on it; returns them with their series' merchant and day.
    public static func chargesAfterCancellation(in store: some RecordStore, today: CalendarDay) throws(StoreError) -> [ChargeAfterCancellation] {
        let cancelled = try store.cancellations()
        guard !cancelled.isEmpty else { return [] }
        let decided = try store.decisions()
        let pairs = try store.effectiveRecords()
        let series = RecurringCharges.find(pairs.compactMap { Charge($0.record) }, cancellations: cancelled, today: today)
        let suggestions = Dictionary(pairs.map { ($0.suggestion.source, $0.suggestion) }, uniquingKeysWith: { a, _ in a })
        var flagged: [ChargeAfterCancellation] = []
        var updates: [RecordUpdate] = []
        for s in series {
            guard let day = s.cancelledOn else { continue }
            for source in s.chargesAfterCancellation {
                guard var r = suggestions[source], r.status == .accepted, (decided[source] ?? []).isEmpty else { continue }
                Verdict.hold(&r, for: [.chargedAfterCancellation])
                updates.append(RecordUpdate(path: source, record: r))
                flagged.append(ChargeAfterCancellation(source: source, merchant: s.merchant, cancelledOn: day))
            }
        }
        try store.rewrite(updates)
        return flagged
    }
}

/// A charge a cancelled series took after its cancellation, sent to review by `Rejudging.chargesAfterCancellation`.
public struct ChargeAfterCancellation: Sendable, Equatable {
    public let source: String
    public let merchant: String
    public let cancelledOn: CalendarDay
}

/// What `Rejudging.withMemory` did (`shoebox rescore`).
public struct Rescored: Sendable, Equatable {
    /// Records in review looked at, and those the memory changed.
    public var looked = 0
    public var changed: [String] = []
    /// Of those changed, the ones accepted now.
    public var accepted: [String] = []

    public init(looked: Int = 0, changed: [String] = [], accepted: [String] = []) {
        self.looked = looked
        self.changed = changed
        self.accepted = accepted
    }
}
