import Foundation
public import ShoeboxCore
import ShoeboxParsing

/// What the merchant memory recalls from its sightings (the value is ShoeboxCore's `MerchantMemory`), and how names of
/// one shop are told alike.
extension MerchantMemory {
    /// How much one key counts towards naming a shop. A tax ID, a web domain or a phone number names one business (on
    /// the devset's receipts none was printed by two shops; a mall's phone, once confirmed with two shops, is shared and
    /// names neither); an address may be a chain's head office or a building's, the top lines a chain's or a
    /// customer's handwriting: each of those needs another key beside it. A name is recalled at `enough`.
    static func weight(_ kind: MerchantKey.Kind) -> Double {
        switch kind {
        case .taxID, .domain, .phone: 2
        case .address, .head: 1
        }
    }
    static let enough = 2.0

    /// Two confirmed names of one shop: the same once folded, or one an OCR variant or a longer form of the other (at
    /// most a quarter of the letters differ; or one holds the other whole, 6 letters at least).
    public static func sameShop(_ a: String, _ b: String) -> Bool {
        let x = Array(squeezed(a).utf8)
        let y = Array(squeezed(b).utf8)
        guard !x.isEmpty, !y.isEmpty else { return false }
        if x == y { return true }
        let (short, long) = x.count <= y.count ? (x, y) : (y, x)
        if short.count >= 6, String(decoding: long, as: UTF8.self).contains(String(decoding: short, as: UTF8.self)) { return true }
        return NameMender.editDistance(x, y, atMost: max(1, long.count / 4))
    }

    /// Letters and digits only, folded and upper case: "S.H.H. Motor (Sungai Rengit)" → "SHHMOTORSUNGAIRENGIT".
    static func squeezed(_ name: String) -> String {
        String(ReceiptParser.normalizedMerchant(name).filter { $0 != " " })
    }

    /// A shop as one key knows it: the names people confirmed that are one shop, the latest first.
    public struct Shop: Sendable, Equatable {
        /// The latest confirmed name, which the memory proposes.
        public var name: String
        /// Every distinct name confirmed for it, latest first (more than one: conflicting corrections).
        public var names: [String]
        public var sightings: [Sighting]
    }

    /// One key: the shops confirmed with it. More than one shop: a shared key (a mall's phone, a franchise's tax ID),
    /// which does not name a shop alone.
    public struct Entry: Sendable, Equatable {
        public var key: MerchantKey
        public var shops: [Shop]
        public var isShared: Bool { shops.count > 1 }
    }

    /// Every key with its shops, keys sorted.
    public func entries() -> [Entry] { MerchantMemory.entries(of: sightings) }

    static func entries(of sightings: [Sighting]) -> [Entry] {
        Dictionary(grouping: sightings, by: \.key).map { Entry(key: $0.key, shops: MerchantMemory.shops($0.value)) }.sorted { $0.key < $1.key }
    }

    /// Sightings grouped into shops by name (`sameShop` with any name already in the group), latest first.
    static func shops(_ sightings: [Sighting]) -> [Shop] {
        let latestFirst = sightings.sorted { ($0.at, $0.source) > ($1.at, $1.source) }
        var shops: [Shop] = []
        for s in latestFirst {
            if let i = shops.firstIndex(where: { $0.names.contains { sameShop($0, s.merchant) } }) {
                shops[i].sightings.append(s)
                if !shops[i].names.contains(s.merchant) { shops[i].names.append(s.merchant) }
            } else {
                shops.append(Shop(name: s.merchant, names: [s.merchant], sightings: [s]))
            }
        }
        return shops
    }

    /// What the memory proposes for a document with these keys.
    public struct Recall: Sendable, Equatable {
        public var merchant: String
        /// The keys that named it, and how many confirmed records carried them.
        public var keys: [MerchantKey]
        public var confirmations: Int
        /// What people settled on that shop's records, when they always settled on the same.
        public var currency: String?
        public var category: String?
        public var paymentMethod: String?

        /// "same tax ID and phone as 4 confirmed records".
        public var evidence: String {
            let kinds = RecordMerger.unique(keys.map(\.kind)).map(MerchantMemory.words)
            let named = kinds.count <= 1 ? kinds.joined() : kinds.dropLast().joined(separator: ", ") + " and " + kinds.last!
            return "same \(named) as \(confirmations) confirmed record\(confirmations == 1 ? "" : "s")"
        }
    }

    static func words(_ kind: MerchantKey.Kind) -> String {
        switch kind {
        case .taxID: "tax ID"
        case .phone: "phone"
        case .domain: "web domain"
        case .address: "address"
        case .head: "letterhead"
        }
    }

    /// The shop these keys name, when they name one: the keys' weights for each shop add up to `enough`, and no other
    /// shop gets half as much. A shared key adds half its weight to each of its shops and never decides alone.
    public func recall(_ keys: [MerchantKey]) -> Recall? {
        guard !sightings.isEmpty, !keys.isEmpty else { return nil }
        let wanted = Set(keys)
        let known = MerchantMemory.entries(of: sightings.filter { wanted.contains($0.key) })
        // Shops across keys are one shop when their names are.
        var groups: [(names: [String], score: Double, keys: [MerchantKey], sightings: [Sighting])] = []
        for entry in known {
            let share = entry.isShared ? 0.5 : 1
            for shop in entry.shops {
                let w = MerchantMemory.weight(entry.key.kind) * share
                if let i = groups.firstIndex(where: { g in g.names.contains { n in shop.names.contains { MerchantMemory.sameShop(n, $0) } } }) {
                    groups[i].score += w
                    groups[i].keys.append(entry.key)
                    groups[i].sightings += shop.sightings
                    groups[i].names += shop.names.filter { !groups[i].names.contains($0) }
                } else {
                    groups.append((shop.names, w, [entry.key], shop.sightings))
                }
            }
        }
        let ranked = groups.sorted { $0.score > $1.score }
        guard let best = ranked.first, best.score >= MerchantMemory.enough else { return nil }
        if ranked.count > 1, ranked[1].score * 2 >= best.score { return nil }
        let latest = best.sightings.max { ($0.at, $0.source) < ($1.at, $1.source) }!
        func usual(_ values: [String?]) -> String? {
            let set = Set(values)
            guard set.count == 1, let only = set.first else { return nil }
            return only
        }
        return Recall(
            merchant: latest.merchant, keys: best.keys.sorted(), confirmations: Set(best.sightings.map(\.source)).count,
            currency: usual(best.sightings.map(\.currency)), category: usual(best.sightings.map(\.category)),
            paymentMethod: usual(best.sightings.map(\.paymentMethod)))
    }
}
