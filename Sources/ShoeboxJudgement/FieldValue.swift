public import ShoeboxCore
import ShoeboxParsing

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
            guard let p = ContractTerms.notice(typed: text) else { return nil }
            self = .notice(p)
        case .sellerTaxID: return nil
        }
    }

    /// A plain decimal as the log writes amounts ("2.65", "-15", "1500"), at its own precision.
    static func plainAmount(_ text: String) -> AmountReading? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first?.count ?? 0
        guard let units = Money.minorUnits(fromDecimal: trimmed, digits: digits) else { return nil }
        return AmountReading(minorUnits: units, fractionDigits: digits, currencyHint: nil)
    }

    /// `amount` in `currency` when it holds it exactly (2.65 in EUR; not 2.65 in JPY).
    static func money(_ amount: AmountReading, in currency: CurrencyCode) -> Money? {
        guard amount.fractionDigits <= currency.minorDigits else { return nil }
        return amount.exactMoney(in: currency)
    }
}
