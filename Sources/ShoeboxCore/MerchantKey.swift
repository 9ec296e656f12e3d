/// A piece of stable evidence printed on a page that names the shop, normalised so that two receipts of one shop give
/// the same value even when OCR read the name differently: what the merchant memory is keyed by.
/// On 364 Malaysian receipts, tax IDs, phones and domains matched receipts of different shops only where the shops were
/// one (a chain's entities, a franchise); the address and the head did so more often, so they should name a shop
/// only together with another key.
public struct MerchantKey: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// A VAT / GST / SST / tax registration number, or a company registration number, printed by the seller:
        /// capitals and digits only, leading zeros and a Malaysian check letter dropped, a French number cut to
        /// its SIREN.
        case taxID = "tax-id"
        /// A phone or fax number: its digits, without a leading country code.
        case phone
        /// A web or e-mail domain, lower case, without `www.` (shared mail providers are no key).
        case domain
        /// The shop's address: its five-digit postcode, then the numbers of the street lines ("4560053"); the place
        /// names OCR misreads and the shops of a town share are left out.
        case address
        /// The top lines' shape: their first sixteen letters and digits, folded (the weakest key).
        case head
    }

    public let kind: Kind
    public let value: String
    /// No key is longer (`kind:value`); a longer one in a record read back is refused.
    public static let maxLength = 200

    public init(_ kind: Kind, _ value: String) {
        self.kind = kind
        self.value = value
    }

    /// `tax-id:001234567890`: how `shoebox memory list` shows it and `memory forget` names it.
    public var description: String { "\(kind.rawValue):\(value)" }

    /// Reads `kind:value` as `description` writes it.
    public init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":"), let kind = Kind(rawValue: String(text[..<colon])) else { return nil }
        let value = String(text[text.index(after: colon)...])
        guard !value.isEmpty else { return nil }
        self.init(kind, value)
    }

    public static func < (a: MerchantKey, b: MerchantKey) -> Bool { (a.kind.rawValue, a.value) < (b.kind.rawValue, b.value) }
}
