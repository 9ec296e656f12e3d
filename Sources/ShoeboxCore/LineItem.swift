/// One line of what was bought: an article, or a line that changes what the articles come to (a discount, a deposit,
/// a voided article). Read from an e-invoice's XML exactly, or from the page by its layout (`ReceiptParser.items`).
///
/// The amount is what the line adds to the sum, sign included: a discount, a deposit returned and a voided article are
/// negative. Quantity and unit price are kept as printed (decimal text with a dot): a unit price may have more
/// decimals than the currency ("0.129 €/kWh"), and is shown, never added up.
public struct LineItem: Hashable, Sendable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// An article or a service.
        case item
        /// A reduction: a coupon, a line discount, a loyalty or staff discount. Negative.
        case discount
        /// A deposit on bottles or crates (Pfand, consigne), positive when charged and negative when returned.
        case deposit
        /// An article voided on the till ("Storno", "VOID", "anulación"): negative, cancelling one above it.
        case void
        /// A charge on top of the goods stated as a line: delivery, service charge, packaging.
        case charge
    }

    public var kind: Kind
    public var description: String
    /// How many, as printed ("2", "0.532"); nil when the line prints none (one is meant).
    public var quantity: String?
    /// The unit of the quantity when printed or stated ("kg", an e-invoice's UN/ECE code "C62", "H87", "KGM").
    public var unit: String?
    /// The price of one unit, as printed ("1.19", "0.129"); nil when not printed.
    public var unitPrice: String?
    public var amount: Money
    /// The tax rate of the line in percent ("19", "5.5") where printed or stated.
    public var taxRate: String?
    /// The tax code the till prints beside the amount ("A", "B", "SR", "ZR") or the e-invoice's VAT category.
    public var taxCode: String?
    /// The page (1-based) and the first line (1-based) the item was read from, and the box of all its lines.
    public var page: Int?
    public var line: Int?
    public var box: BoundingBox?
    /// Who read it: a reader of the page, the e-invoice's XML, or a person in review.
    public var source: Provenance

    public init(
        kind: Kind = .item, description: String, quantity: String? = nil, unit: String? = nil, unitPrice: String? = nil, amount: Money,
        taxRate: String? = nil, taxCode: String? = nil, page: Int? = nil, line: Int? = nil, box: BoundingBox? = nil, source: Provenance
    ) {
        self.kind = kind
        self.description = description
        self.quantity = quantity
        self.unit = unit
        self.unitPrice = unitPrice
        self.amount = amount
        self.taxRate = taxRate
        self.taxCode = taxCode
        self.page = page
        self.line = line
        self.box = box
        self.source = source
    }

    /// The longest description kept (a line of an e-invoice may carry a paragraph).
    public static let maxDescription = 500
    /// The most items a record keeps: a longer list is cut there (and left unproven).
    public static let maxItems = 2_000
}

/// What proves a record's items: the page's or the XML's own arithmetic, or a person. Raw values are the stable strings
/// of JSON, the store and the exports.
public enum ItemsCheck: String, Sendable, Codable, CaseIterable {
    /// The items, discounts included, sum exactly to the printed subtotal.
    case subtotal
    /// They sum exactly to the total.
    case total
    /// They sum to the total less the tax, service charge, tip and rounding the page prints.
    case totalLessCharges = "total-less-charges"
    /// An e-invoice's lines: their net amounts sum to the invoice's stated line total.
    case lineTotal = "line-total"
    /// Nothing proves them: kept as read, to be checked by a person.
    case unproven
    /// A person corrected or confirmed them in review.
    case person

    /// True when the items are proven by arithmetic or by a person.
    public var proven: Bool { self != .unproven }
}

extension LineItem {
    /// The sum of the items' amounts in minor units, nil when it would overflow.
    public static func sum(_ items: [LineItem]) -> Int64? {
        var total: Int64 = 0
        for item in items {
            let (s, overflow) = total.addingReportingOverflow(item.amount.minorUnits)
            if overflow { return nil }
            total = s
        }
        return total
    }
}

// MARK: - JSON

extension LineItem {
    enum Keys: String, CodingKey {
        case kind, description, quantity, unit, unitPrice, amount, taxRate, taxCode, page, line, box, source
    }

    /// Encodes the item; money as a decimal string in the record's currency (the record states it once).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(description, forKey: .description)
        try c.encode(quantity, forKey: .quantity)
        try c.encodeIfPresent(unit, forKey: .unit)
        try c.encode(unitPrice, forKey: .unitPrice)
        try c.encode(amount.decimalString, forKey: .amount)
        try c.encode(taxRate, forKey: .taxRate)
        try c.encode(taxCode, forKey: .taxCode)
        try c.encode(page, forKey: .page)
        try c.encode(line, forKey: .line)
        try c.encodeIfPresent(box, forKey: .box)
        try c.encode(source, forKey: .source)
    }

    /// Reads an item written by `encode`, its amount in `currency`; a value out of its bounds is an error naming it.
    public init(from decoder: any Decoder, currency: CurrencyCode) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        func bad(_ key: Keys, _ text: String) -> DecodingError {
            .dataCorruptedError(forKey: key, in: c, debugDescription: "invalid item value \(text)")
        }
        func decimal(_ key: Keys) throws -> String? {
            guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard LineItem.isDecimal(text) else { throw bad(key, text) }
            return text
        }
        kind = try c.decode(Kind.self, forKey: .kind)
        let text = try c.decode(String.self, forKey: .description)
        guard text.count <= LineItem.maxDescription else { throw bad(.description, "(\(text.count) characters)") }
        description = text
        quantity = try decimal(.quantity)
        unit = try c.decodeIfPresent(String.self, forKey: .unit)
        if let u = unit, u.count > 20 { throw bad(.unit, u) }
        unitPrice = try decimal(.unitPrice)
        let amountText = try c.decode(String.self, forKey: .amount)
        guard let m = Money(decimal: amountText, currency: currency) else { throw bad(.amount, amountText) }
        amount = m
        taxRate = try decimal(.taxRate)
        taxCode = try c.decodeIfPresent(String.self, forKey: .taxCode)
        if let t = taxCode, t.count > 20 { throw bad(.taxCode, t) }
        page = try c.decodeIfPresent(Int.self, forKey: .page)
        line = try c.decodeIfPresent(Int.self, forKey: .line)
        box = try c.decodeIfPresent(BoundingBox.self, forKey: .box)
        source = try c.decode(Provenance.self, forKey: .source)
    }

    /// A plain decimal with a dot, an optional minus and at most 15 digits on each side ("2", "-0.5", "0.129").
    public static func isDecimal(_ text: String) -> Bool {
        var s = Substring(text)
        if s.hasPrefix("-") { s = s.dropFirst() }
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return false }
        return parts.allSatisfy { p in !p.isEmpty && p.count <= 15 && p.allSatisfy { $0.isASCII && $0.isNumber } }
    }
}
extension LineItem: Encodable {}

/// An item as the parser read it from the page, before the merge gives it the record's currency.
public struct ItemReading: Hashable, Sendable, Codable {
    public var kind: LineItem.Kind
    public var description: String
    public var quantity: String?
    public var unit: String?
    public var unitPrice: String?
    /// The amount, signed: what the line adds to the sum.
    public var amount: AmountReading
    public var taxCode: String?
    public var taxRate: String?
    /// The line that prints the amount, and the box of every line the item was read from.
    public var evidence: Evidence
    public var box: BoundingBox
    /// The first line (0-based on its page) the item was read from.
    public var firstLine: Int

    public init(
        kind: LineItem.Kind, description: String, quantity: String? = nil, unit: String? = nil, unitPrice: String? = nil,
        amount: AmountReading, taxCode: String? = nil, taxRate: String? = nil, evidence: Evidence, box: BoundingBox, firstLine: Int
    ) {
        self.kind = kind
        self.description = description
        self.quantity = quantity
        self.unit = unit
        self.unitPrice = unitPrice
        self.amount = amount
        self.taxCode = taxCode
        self.taxRate = taxRate
        self.evidence = evidence
        self.box = box
        self.firstLine = firstLine
    }

    /// The item in `currency`, nil when its amount does not fit.
    public func lineItem(in currency: CurrencyCode) -> LineItem? {
        guard let money = amount.exactMoney(in: currency) else { return nil }
        return LineItem(
            kind: kind, description: description, quantity: quantity, unit: unit, unitPrice: unitPrice, amount: money, taxRate: taxRate,
            taxCode: taxCode, page: evidence.page, line: firstLine + 1, box: box, source: Provenance(evidence.source))
    }
}

/// The items the parser read from the page and what their sum matched, before the merge checks it against the total
/// it chose.
public struct ItemsReading: Hashable, Sendable, Codable {
    public var items: [ItemReading]
    /// What the sum matched on the page (`.subtotal`, `.total`, `.totalLessCharges`), `.unproven` when nothing.
    public var check: ItemsCheck
    /// The printed amount the sum matched (the subtotal or the total), in the parser's minor units.
    public var target: Int64?
    /// What the rounding lines the page prints make of the target ("Total 33.92", "Rounding -0.02", "Total 33.90"):
    /// the amount paid may be any of them.
    public var rounded: [Int64]

    public init(items: [ItemReading], check: ItemsCheck, target: Int64?, rounded: [Int64] = []) {
        self.items = items
        self.check = check
        self.target = target
        self.rounded = rounded
    }
}

/// The lines of a page the parser read items from: between the header (the item table's column heading, or the
/// transaction date) and the first line of the totals, on the page the totals begin on (0-based line indices).
public struct ItemBlock: Hashable, Sendable, Codable {
    public let page: Int
    public let lines: ClosedRange<Int>

    public init(page: Int, lines: ClosedRange<Int>) {
        self.page = page
        self.lines = lines
    }
}
