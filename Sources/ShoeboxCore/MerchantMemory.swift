public import Foundation

/// What the store learned from the records people confirmed or corrected: for each key printed on such a record's page
/// (`MerchantKey`), the shop name the person confirmed with it, and what else they settled on that record (category,
/// currency, payment method). It only suggests: `recall` gives a candidate with its evidence, and
/// `RecordMerger.remember` weighs it against what the page says.
public struct MerchantMemory: Sendable, Equatable {
    /// One key seen on one confirmed record.
    public struct Sighting: Sendable, Hashable, Codable {
        public let key: MerchantKey
        public let merchant: String
        public let category: String?
        public let currency: String?
        public let paymentMethod: String?
        /// The record that taught it (its source path) and when the person decided it (ISO 8601).
        public let source: String
        public let at: String

        public init(key: MerchantKey, merchant: String, category: String?, currency: String?, paymentMethod: String?, source: String, at: String) {
            self.key = key
            self.merchant = merchant
            self.category = category
            self.currency = currency
            self.paymentMethod = paymentMethod
            self.source = source
            self.at = at
        }
    }

    public var sightings: [Sighting]

    public init(_ sightings: [Sighting] = []) { self.sightings = sightings }

    public var isEmpty: Bool { sightings.isEmpty }
}

/// A person's word that they cancelled a shop's recurring charge on a day.
public struct Cancellation: Sendable, Hashable, Codable {
    public let merchant: String
    public let day: CalendarDay

    public init(merchant: String, day: CalendarDay) {
        self.merchant = merchant
        self.day = day
    }
}
