/// When an invoice says it must be paid: a day it prints, or a number of days from the invoice date.
public enum PaymentTerm: Hashable, Sendable {
    /// "Due date 14.04.2026", "zahlbar bis 14.04.2026", "échéance : 14/04/2026".
    case dueOn(CalendarDay)
    /// "payable within 14 days", "Zahlungsziel 30 Tage netto", "à régler sous 30 jours": counted from the invoice date.
    case daysAfterInvoice(Int)
}

/// In the record's JSON: `{"dueOn": "2026-04-14"}` or `{"daysAfterInvoice": 30}`.
extension PaymentTerm: Codable {
    enum Keys: String, CodingKey { case dueOn, daysAfterInvoice }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .dueOn(let day): try c.encode(day, forKey: .dueOn)
        case .daysAfterInvoice(let n): try c.encode(n, forKey: .daysAfterInvoice)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        if let day = try c.decodeIfPresent(CalendarDay.self, forKey: .dueOn) {
            self = .dueOn(day)
        } else {
            self = .daysAfterInvoice(try c.decode(Int.self, forKey: .daysAfterInvoice))
        }
    }
}

/// A payment term read from the page, with the printed wording it came from (for the explanation a person reads).
public struct PaymentTermReading: Hashable, Sendable, Codable {
    public let term: PaymentTerm
    public let wording: String

    public init(term: PaymentTerm, wording: String) {
        self.term = term
        self.wording = wording
    }
}

/// A notice period as a contract states it: in days (weeks read as days) or in months (years read as months).
public enum NoticePeriod: Hashable, Sendable {
    case days(Int)
    case months(Int)

    /// Notice periods people sign: up to a year in days, up to two years in months. Longer is a misread or another
    /// number (a term's duration, a year).
    public static let dayRange = 1...365
    public static let monthRange = 1...24

    /// A notice period as the decision log and review write it (`ContractTerms.text`: "30 days", "1 month"), within
    /// the ranges; nil for anything else (what a person types in other words is `ContractTerms.notice(typed:)`'s).
    public init?(logged text: String) {
        let words = text.split(separator: " ")
        guard words.count == 2, let n = Int(words[0]), String(n) == words[0] else { return nil }
        switch words[1] {
        case "day" where n == 1, "days" where n != 1:
            guard NoticePeriod.dayRange.contains(n) else { return nil }
            self = .days(n)
        case "month" where n == 1, "months" where n != 1:
            guard NoticePeriod.monthRange.contains(n) else { return nil }
            self = .months(n)
        default: return nil
        }
    }
}

/// In the record's JSON: `{"days": 30}` or `{"months": 3}`.
extension NoticePeriod: Codable {
    enum Keys: String, CodingKey { case days, months }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .days(let n): try c.encode(n, forKey: .days)
        case .months(let n): try c.encode(n, forKey: .months)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        if let n = try c.decodeIfPresent(Int.self, forKey: .days) {
            self = .days(n)
        } else {
            self = .months(try c.decode(Int.self, forKey: .months))
        }
    }
}

/// What a contract says about its end: the notice period and the last day of its term. Each is read from
/// the page or nil; neither is ever guessed (a contract without both goes to review as `contract-terms-unread`).
public struct ContractTerms: Hashable, Sendable, Codable {
    public var notice: NoticePeriod?
    /// The printed wording the notice period came from.
    public var noticeWording: String?
    public var endOfTerm: CalendarDay?
    /// The printed wording the end of the term came from.
    public var endWording: String?

    public init(notice: NoticePeriod? = nil, noticeWording: String? = nil, endOfTerm: CalendarDay? = nil, endWording: String? = nil) {
        self.notice = notice
        self.noticeWording = noticeWording
        self.endOfTerm = endOfTerm
        self.endWording = endWording
    }

    /// A notice period as review shows and stores it: "3 months", "30 days", "1 month".
    public static func text(_ p: NoticePeriod) -> String {
        switch p {
        case .days(let n): Deadlines.count(n, "day")
        case .months(let n): Deadlines.count(n, "month")
        }
    }
}
