import Foundation
public import ShoeboxCore
public import ShoeboxJudgement

/// The merchant memory (`MerchantMemory`): one row per key of each record a person confirmed or corrected, kept in
/// step with the decision log: every decision, undo and re-read file learns its record again, from the record as it
/// stands, so an undone correction teaches nothing.
extension Store {
    /// What the memory holds now.
    public func memory() throws(StoreError) -> MerchantMemory {
        let rows = try wrap { () throws(DatabaseError) in
            try db.query("SELECT kind, value, merchant, category, currency, payment_method, path, at FROM memory ORDER BY kind, value, at, path")
        }
        return MerchantMemory(
            rows.compactMap { r in
                guard let kind = r[0].text.flatMap(MerchantKey.Kind.init(rawValue:)), let value = r[1].text, let merchant = r[2].text,
                    let path = r[6].text
                else { return nil }
                return MerchantMemory.Sighting(
                    key: MerchantKey(kind, value), merchant: merchant, category: r[3].text, currency: r[4].text, paymentMethod: r[5].text,
                    source: path, at: r[7].text ?? "")
            })
    }

    /// Forgets a key: every record's sighting of it. A record confirmed later with it teaches it again. Returns how many
    /// sightings were forgotten (0: the memory does not hold the key).
    public func forget(_ key: MerchantKey) throws(StoreError) -> Int {
        try wrap { () throws(DatabaseError) in
            let n =
                try db.query("SELECT COUNT(*) FROM memory WHERE kind = ? AND value = ?", [.text(key.kind.rawValue), .text(key.value)])
                .first?.first?.int ?? 0
            try db.query("DELETE FROM memory WHERE kind = ? AND value = ?", [.text(key.kind.rawValue), .text(key.value)])
            return Int(n)
        }
    }

    /// Learns again what `path`'s record teaches (inside the caller's transaction). It teaches when a person's decision
    /// in force left it accepted, with a merchant, and its page printed keys: each key with the name the person
    /// confirmed, and what they settled on beside it. Rejected, undone, still in review, accepted by the pipeline
    /// alone, entered by hand (no page): nothing.
    func relearn(path: String) throws(DatabaseError) {
        try db.query("DELETE FROM memory WHERE path = ?", [.text(path)])
        guard
            let json = try db.query("SELECT r.json FROM records r JOIN sources s ON s.id = r.source_id WHERE s.path = ?", [.text(path)])
                .first?.first?.text,
            let suggestion = try? JSONDecoder().decode(DocumentRecord.self, from: Data(json.utf8))
        else { return }
        let keys = try keys(of: suggestion)
        guard !keys.isEmpty else { return }
        let rows = try db.query(
            """
            SELECT d.action, d.field, d.value, d.at FROM decisions d JOIN sources s ON s.path = d.path AND s.sha256 = d.sha256
            WHERE d.undone = 0 AND d.path = ? ORDER BY d.id
            """, [.text(path)])
        let decided = rows.compactMap { row -> ReviewDecision? in
            guard let action = row[0].text.flatMap(ReviewDecision.Action.init(rawValue:)) else { return nil }
            return ReviewDecision(action: action, field: row[1].text.flatMap(Field.init(rawValue:)), value: row[2].text)
        }
        guard let at = rows.last?[3].text, !decided.isEmpty else { return }
        let record = Review.apply(decided, to: suggestion)
        guard record.status == .accepted, let merchant = record.merchant else { return }
        for key in keys {
            try db.query(
                """
                INSERT OR REPLACE INTO memory(kind, value, merchant, category, currency, payment_method, path, at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(key.kind.rawValue), .text(key.value), .text(merchant), record.category.map { .text($0) } ?? .null,
                    record.currency.map { .text($0.code) } ?? .null, record.paymentMethod.map { .text($0) } ?? .null, .text(path), .text(at)
                ])
        }
    }

    /// The record's keys; for a record stored before records carried them, read from its stored pages.
    func keys(of record: DocumentRecord) throws(DatabaseError) -> [MerchantKey] {
        guard record.merchantKeys.isEmpty, !record.enteredByHand else { return record.merchantKeys }
        let rows = try db.query(
            "SELECT p.page_number, p.lines_json FROM pages p JOIN sources s ON s.id = p.source_id WHERE s.path = ? ORDER BY p.page_number",
            [.text(record.source)])
        let pages = rows.compactMap { row -> OCRPage? in
            guard let n = row[0].int, let lines = row[1].text.flatMap({ try? JSONDecoder().decode([OCRLine].self, from: Data($0.utf8)) })
            else { return nil }
            return OCRPage(pageNumber: Int(n), width: 0, height: 0, dpi: 0, source: .ocr, lines: lines)
        }
        return MerchantKey.keys(of: pages)
    }

    /// What `rescore` did.
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

    /// Judges every record in review again with what the memory holds now, from the record the page gave (the stored
    /// one; the pages are not read again), through `merger` (`RecordMerger.remember`). Decisions in force stay on top.
    public func rescore(with merger: RecordMerger) throws(StoreError) -> Rescored {
        let memory = try memory()
        let decided = try decisions()
        let rows = try wrap { () throws(DatabaseError) in
            try db.query("SELECT s.id, s.path, r.json, r.page_json FROM records r JOIN sources s ON s.id = r.source_id ORDER BY s.path")
        }
        var out = Rescored()
        let decoder = JSONDecoder()
        try wrap { () throws(DatabaseError) in
            try db.transaction { () throws(DatabaseError) in
                for row in rows {
                    guard let id = row[0].int, let path = row[1].text, let json = row[2].text,
                        let now = try? decoder.decode(DocumentRecord.self, from: Data(json.utf8)),
                        Review.apply(decided[path] ?? [], to: now).status == .review
                    else { continue }
                    out.looked += 1
                    let page = row[3].text.flatMap { try? decoder.decode(DocumentRecord.self, from: Data($0.utf8)) } ?? now
                    // Reasons the run added after the merge (a possible duplicate) stay.
                    var base = page
                    base.reasons = page.reasons + now.reasons.filter { RecordMerger.addedAfterMerge($0) && !page.reasons.contains($0) }
                    base.duplicateOf = now.duplicateOf
                    let judged = merger.remember(memory.recall(try keys(of: page)), in: base)
                    guard judged.jsonLine() != now.jsonLine() else { continue }
                    out.changed.append(path)
                    if Review.apply(decided[path] ?? [], to: judged).status == .accepted { out.accepted.append(path) }
                    try db.query(
                        "UPDATE records SET status = ?, json = ?, page_json = ? WHERE source_id = ?",
                        [.text(judged.status.rawValue), .text(judged.jsonLine()), judged == page ? .null : .text(page.jsonLine()), .int(id)])
                    try db.query("UPDATE sources SET state = ? WHERE id = ?", [.text(judged.status.rawValue), .int(id)])
                    try db.query("DELETE FROM review_items WHERE source_id = ?", [.int(id)])
                    if judged.status == .review {
                        try db.query(
                            "INSERT INTO review_items(source_id, reasons) VALUES (?, ?)",
                            [.int(id), .text(judged.reasons.map(\.code).joined(separator: ","))])
                    }
                }
            }
        }
        return out
    }
}
