/// An ISO 4217 currency code with the number of minor-unit digits it uses.
public struct CurrencyCode: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let code: String

    public init?(_ code: String) {
        let upper = code.uppercased()
        guard upper.count == 3, upper.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        self.code = upper
    }

    /// Minor-unit digits (ISO 4217). Currencies not listed use 2.
    public var minorDigits: Int {
        switch code {
        case "JPY", "KRW", "ISK", "CLP", "VND", "XAF", "XOF": return 0
        case "BHD", "KWD", "OMR", "JOD", "TND", "LYD", "IQD": return 3
        default: return 2
        }
    }

    public var description: String { code }
    public static func < (a: CurrencyCode, b: CurrencyCode) -> Bool { a.code < b.code }

    static let eur = CurrencyCode("EUR")!
    static let usd = CurrencyCode("USD")!
    static let gbp = CurrencyCode("GBP")!
    static let myr = CurrencyCode("MYR")!
    static let chf = CurrencyCode("CHF")!
}

/// An amount of money: integer minor units plus a currency. Never a floating-point number.
public struct Money: Hashable, Sendable, CustomStringConvertible {
    public let minorUnits: Int64
    public let currency: CurrencyCode

    public init(minorUnits: Int64, currency: CurrencyCode) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Parses a plain decimal string with a dot ("23.45", "-0.50", "7") in the currency's minor units.
    /// Returns nil when the string has more fraction digits than the currency allows or is not a number.
    public init?(decimal: String, currency: CurrencyCode) {
        guard let units = Money.minorUnits(fromDecimal: decimal, digits: currency.minorDigits) else { return nil }
        self.init(minorUnits: units, currency: currency)
    }

    /// The amount as a plain decimal string ("23.45"), derived from the minor units.
    public var decimalString: String { Money.decimalString(minorUnits: minorUnits, digits: currency.minorDigits) }

    public var description: String { "\(decimalString) \(currency.code)" }

    public static func decimalString(minorUnits: Int64, digits: Int) -> String {
        let negative = minorUnits < 0
        let magnitude = minorUnits.magnitude
        guard digits > 0 else { return (negative ? "-" : "") + String(magnitude) }
        var scale: UInt64 = 1
        for _ in 0..<digits { scale *= 10 }
        let whole = magnitude / scale
        var fraction = String(magnitude % scale)
        while fraction.count < digits { fraction = "0" + fraction }
        return (negative ? "-" : "") + "\(whole).\(fraction)"
    }

    public static func minorUnits(fromDecimal text: String, digits: Int) -> Int64? {
        var s = Substring(text.trimmingCharacters(in: .whitespaces))
        var negative = false
        if s.hasPrefix("-") {
            negative = true
            s = s.dropFirst()
        } else if s.hasPrefix("+") {
            s = s.dropFirst()
        }
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let wholePart = parts.first, !wholePart.isEmpty,
            wholePart.allSatisfy({ $0.isASCII && $0.isNumber }), wholePart.count <= 15
        else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.allSatisfy({ $0.isASCII && $0.isNumber }), fraction.count <= digits else { return nil }
        if parts.count == 2 && fraction.isEmpty { return nil }
        while fraction.count < digits { fraction += "0" }
        guard let whole = Int64(wholePart), let frac = fraction.isEmpty ? 0 : Int64(fraction) else { return nil }
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let (product, overflow) = whole.multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        let value = product + frac
        return negative ? -value : value
    }
}

extension Money {
    /// The sum, or nil when the currencies differ or the sum would overflow.
    static func + (a: Money, b: Money) -> Money? {
        guard a.currency == b.currency else { return nil }
        let (units, overflow) = a.minorUnits.addingReportingOverflow(b.minorUnits)
        return overflow ? nil : Money(minorUnits: units, currency: a.currency)
    }
}

/// In JSON, a currency is its code ("EUR") and an amount is `{"amount": "571.04", "currency": "EUR"}`: a decimal
/// string from the minor units, never a floating-point number.
extension CurrencyCode: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let code = CurrencyCode(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a currency code: \(text)"))
        }
        self = code
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(code)
    }
}

extension Money: Codable {
    enum CodingKeys: String, CodingKey { case amount, currency }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let currency = try c.decode(CurrencyCode.self, forKey: .currency)
        let text = try c.decode(String.self, forKey: .amount)
        guard let money = Money(decimal: text, currency: currency) else {
            throw DecodingError.dataCorruptedError(forKey: .amount, in: c, debugDescription: "not an amount in \(currency.code): \(text)")
        }
        self = money
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(decimalString, forKey: .amount)
        try c.encode(currency, forKey: .currency)
    }
}

extension Money {
    /// `values` added up, nil on overflow.
    public static func checkedSum(_ values: [Int64]) -> Int64? {
        var total: Int64 = 0
        for v in values {
            let (s, overflow) = total.addingReportingOverflow(v)
            if overflow { return nil }
            total = s
        }
        return total
    }
}
