public import Foundation

/// A value a person set on one field, typed: `Review.validate` makes it from what was typed, a desk hands it to the
/// one decision path, the decision log keeps it as `logged` text, and `Review.apply` sets it. Nothing downstream
/// parses what a person typed a second time.
public enum FieldValue: Hashable, Sendable {
    /// Merchant, reference number, payment method, category, note: the words, trimmed.
    case text(String)
    /// Date, received on, end of term.
    case day(CalendarDay)
    case currency(CurrencyCode)
    /// A total with its currency, which it sets on the record ("15.00 EUR").
    case total(Money)
    /// A total without a currency, in the record's own: only decisions logged before totals carried one ("15.00").
    case totalInRecordCurrency(AmountReading)
    /// Tax lines, each a rate and an amount in the record's currency; none clears them.
    case tax([RateAmount])
    case notice(NoticePeriod)
    /// A line item's amount or description corrected (`ItemEdit`).
    case item(ItemEdit)

    /// A correction of one line item: its number in the record (1-based) and its new amount or description.
    public struct ItemEdit: Hashable, Sendable {
        public let number: Int
        public let amount: AmountReading?
        public let description: String?
        public init(number: Int, amount: AmountReading? = nil, description: String? = nil) {
            self.number = number
            self.amount = amount
            self.description = description
        }

        /// "3 amount=2.50", "3 description=Milk 3.5%": as typed, and as the log keeps it.
        public var text: String {
            if let amount { return "\(number) amount=\(amount.decimalString)" }
            return "\(number) description=\(description ?? "")"
        }

        /// Reads "N amount=X" or "N description=TEXT"; nil when it is neither.
        public init?(text: String) {
            let t = text.trimmingCharacters(in: .whitespaces)
            guard let space = t.firstIndex(of: " "), let n = Int(t[..<space]), n >= 1, n <= LineItem.maxItems else { return nil }
            let rest = t[t.index(after: space)...].trimmingCharacters(in: .whitespaces)
            let kv = rest.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard kv.count == 2 else { return nil }
            let value = kv[1].trimmingCharacters(in: .whitespaces)
            switch kv[0].trimmingCharacters(in: .whitespaces) {
            case "amount":
                guard let a = FieldValue.plainAmount(value.replacingOccurrences(of: ",", with: ".")) else { return nil }
                self.init(number: n, amount: a)
            case "description":
                guard !value.isEmpty else { return nil }
                self.init(number: n, description: value)
            default: return nil
            }
        }
    }

    /// One tax line as typed: the rate ("19", "5.5") and the amount at its printed precision.
    public struct RateAmount: Hashable, Sendable {
        public let rate: String
        public let amount: AmountReading
        public init(rate: String, amount: AmountReading) {
            self.rate = rate
            self.amount = amount
        }
    }

    /// The value as the decision log keeps it and a person reads it: "15.00 EUR", "2026-03-14", "19=2.65; 7=1.05",
    /// "none", "3 months".
    public var logged: String {
        switch self {
        case .text(let s): s
        case .day(let d): d.iso
        case .currency(let c): c.code
        case .total(let m): m.description
        case .totalInRecordCurrency(let a): a.decimalString
        case .tax(let lines) where lines.isEmpty: "none"
        case .tax(let lines): lines.map { "\($0.rate)=\($0.amount.decimalString)" }.joined(separator: "; ")
        case .notice(let p): ContractTerms.text(p)
        case .item(let edit): edit.text
        }
    }

    /// A value of `field` read back from the decision log (`logged`); nil when it is not one this build can read.
    public init?(logged text: String, field: Field) {
        switch field {
        case .merchant, .referenceNumber, .paymentMethod, .category, .note: self = .text(text)
        case .date, .receivedOn, .endOfTerm:
            guard let d = CalendarDay(iso: text) else { return nil }
            self = .day(d)
        case .currency:
            guard let c = CurrencyCode(text) else { return nil }
            self = .currency(c)
        case .total:
            let parts = text.split(separator: " ")
            if parts.count == 2, let c = CurrencyCode(String(parts[1])), let m = Money(decimal: String(parts[0]), currency: c) {
                self = .total(m)
            } else if parts.count == 1, let a = FieldValue.plainAmount(text) {
                self = .totalInRecordCurrency(a)
            } else {
                return nil
            }
        case .tax:
            if text == "none" {
                self = .tax([])
                return
            }
            var lines: [RateAmount] = []
            for part in text.split(separator: ";") {
                let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard kv.count == 2, let a = FieldValue.plainAmount(kv[1]) else { continue }
                lines.append(RateAmount(rate: kv[0], amount: a))
            }
            guard !lines.isEmpty else { return nil }
            self = .tax(lines)
        case .noticePeriod:
            guard let p = NoticePeriod(logged: text) else { return nil }
            self = .notice(p)
        case .item:
            guard let edit = ItemEdit(text: text) else { return nil }
            self = .item(edit)
        case .sellerTaxID: return nil
        }
    }

    /// A plain decimal as the log writes amounts ("2.65", "-15", "1500"), at its own precision.
    public static func plainAmount(_ text: String) -> AmountReading? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first?.count ?? 0
        guard let units = Money.minorUnits(fromDecimal: trimmed, digits: digits) else { return nil }
        return AmountReading(minorUnits: units, fractionDigits: digits, currencyHint: nil)
    }

    /// `amount` in `currency` when it holds it exactly (2.65 in EUR; not 2.65 in JPY).
    public static func money(_ amount: AmountReading, in currency: CurrencyCode) -> Money? {
        guard amount.fractionDigits <= currency.minorDigits else { return nil }
        return amount.exactMoney(in: currency)
    }
}
