import Foundation
public import ShoeboxCore

/// The merchant memory (`MerchantMemory`): one row per key of each record a person confirmed or corrected, kept in
/// step with the decision log: every decision, undo and re-read file writes what its record teaches again (judged by
/// the caller, `RecordStore+Judging.swift`), so an undone correction teaches nothing. And records judged again.
extension Store {
    /// What the memory holds now.
    public func memory() throws(StoreError) -> MerchantMemory {
        let rows = try wrap { () throws(DatabaseError) in
            let c = db.dialect.bytewise
            return try db.query(
                "SELECT kind, value, merchant, category, currency, payment_method, path, at FROM memory ORDER BY kind \(c), value \(c), at \(c), path \(c)"
            )
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

    /// Replaces what the memory learned from `path` with `sightings` (inside the caller's transaction).
    func replaceMemory(path: String, with sightings: [MerchantMemory.Sighting]) throws(DatabaseError) {
        try db.query("DELETE FROM memory WHERE path = ?", [.text(path)])
        for s in sightings { try Store.insert(s, db: db) }
    }

    /// One sighting (its record's path is its source), replacing the one of the same key and record.
    static func insert(_ s: MerchantMemory.Sighting, db: any SQLConnection) throws(DatabaseError) {
        try db.query(
            """
            INSERT INTO memory(kind, value, merchant, category, currency, payment_method, path, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (kind, value, path) DO UPDATE SET merchant = excluded.merchant, category = excluded.category,
                currency = excluded.currency, payment_method = excluded.payment_method, at = excluded.at
            """,
            [
                .text(s.key.kind.rawValue), .text(s.key.value), .text(s.merchant), s.category.map { .text($0) } ?? .null,
                s.currency.map { .text($0) } ?? .null, s.paymentMethod.map { .text($0) } ?? .null, .text(s.source), .text(s.at)
            ])
    }

    /// Each record as the page gave it before the merchant memory changed it, by path (only those it changed).
    public func pageRecords() throws(StoreError) -> [String: DocumentRecord] {
        let rows = try wrap { () throws(DatabaseError) in
            try db.query("SELECT s.path, r.page_json FROM records r JOIN sources s ON s.id = r.source_id WHERE r.page_json IS NOT NULL")
        }
        let decoder = JSONDecoder()
        var out: [String: DocumentRecord] = [:]
        for row in rows {
            guard let path = row[0].text, let json = row[1].text, let r = try? decoder.decode(DocumentRecord.self, from: Data(json.utf8)) else {
                continue
            }
            out[path] = r
        }
        return out
    }

    /// Replaces stored records judged again, in one transaction: the record, and the record as the page gave it when the
    /// update says.
    public func rewrite(_ updates: [RecordUpdate]) throws(StoreError) {
        guard !updates.isEmpty else { return }
        try wrap { () throws(DatabaseError) in
            try db.transaction { () throws(DatabaseError) in
                for u in updates {
                    let r = u.record
                    guard let id = try db.query("SELECT id FROM sources WHERE path = ?", [.text(u.path)]).first?.first?.int else { continue }
                    switch u.pageRecord {
                    case .kept:
                        try db.query("UPDATE records SET json = ? WHERE source_id = ?", [.text(r.jsonLine()), .int(id)])
                    case .set(let page):
                        try db.query(
                            "UPDATE records SET json = ?, page_json = ? WHERE source_id = ?",
                            [.text(r.jsonLine()), page.map { .text($0.jsonLine()) } ?? .null, .int(id)])
                    }
                }
            }
        }
    }
}
