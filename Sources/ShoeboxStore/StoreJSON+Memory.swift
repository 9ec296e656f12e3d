import Foundation
import ShoeboxCore

/// The merchant memory in the store's JSON: written by export, checked and merged by import.
extension StoreJSON {
    /// At most this many sightings in one export (a million confirmed records' keys).
    static let maxMemoryItems = 5_000_000

    static func memoryRows(_ store: Store) throws(StoreError) -> [[String: Any]] {
        try store.memory().sightings.map { s in
            [
                "key": s.key.description, "merchant": s.merchant, "category": any(s.category), "currency": any(s.currency),
                "paymentMethod": any(s.paymentMethod), "source": s.source, "at": s.at
            ]
        }
    }

    /// The export's memory, every item checked; the first problem is thrown (nothing is imported then).
    static func parseMemory(_ items: Any, file: String) throws -> [MerchantMemory.Sighting] {
        guard let list = items as? [Any], list.count <= maxMemoryItems else {
            throw ImportError.invalid(file: file, document: 0, problem: "\"memory\" must be an array of at most \(maxMemoryItems) items")
        }
        return try list.enumerated().map { i, item throws -> MerchantMemory.Sighting in
            func refuse(_ field: String, _ problem: String) -> ImportError {
                ImportError.invalid(file: file, document: 0, problem: "memory item \(i + 1): \"\(field)\" \(problem)")
            }
            guard let m = item as? [String: Any] else { throw refuse("item", "must be an object") }
            guard let text = m["key"] as? String, text.utf8.count <= MerchantKey.maxLength, let key = MerchantKey(text) else {
                throw refuse("key", "must be kind:value with a kind of \(MerchantKey.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if let p = textProblem(m["merchant"], limit: maxText, optional: false) { throw refuse("merchant", p) }
            for field in ["category", "paymentMethod"] {
                if let p = textProblem(m[field], limit: maxText) { throw refuse(field, p) }
            }
            // A currency as every record and decision holds one.
            if let c = m["currency"], !(c is NSNull), !((c as? String).map(isCurrencyCode) ?? false) {
                throw refuse("currency", "must be null or an ISO 4217 code of three capital letters")
            }
            guard let source = m["source"] as? String, StoredPath.problem(source) == nil else { throw refuse("source", "must be a relative path") }
            if let p = timestampProblem(m["at"]) { throw refuse("at", p) }
            return MerchantMemory.Sighting(
                key: key, merchant: m["merchant"] as? String ?? "", category: m["category"] as? String, currency: m["currency"] as? String,
                paymentMethod: m["paymentMethod"] as? String, source: source, at: m["at"] as? String ?? "")
        }
    }

    static func insertMemory(_ s: MerchantMemory.Sighting, db: any SQLConnection) throws(DatabaseError) { try Store.insert(s, db: db) }
}
