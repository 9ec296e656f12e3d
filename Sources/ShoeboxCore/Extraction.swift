/// Where a candidate value was read: page, line, box and the text of that line.
public struct Evidence: Hashable, Sendable, Codable {
    public let page: Int
    public let line: Int
    public let box: BoundingBox
    public let text: String
    public let source: TextSource
    /// Mean OCR word confidence of the line, 0–100.
    public let ocrConfidence: Double

    public init(page: Int, line: Int, box: BoundingBox, text: String, source: TextSource, ocrConfidence: Double) {
        self.page = page
        self.line = line
        self.box = box
        self.text = text
        self.source = source
        self.ocrConfidence = ocrConfidence
    }
}

/// A candidate's role for its field, named by a stable string (shown by `extract --explain`, and as an
/// alternate's reason when the candidate has no notes).
public protocol CandidateRole: RawRepresentable<String>, Hashable, Sendable, Codable {}

/// One proposed value for a field, with the role the parser gave it, a rule score (0–1), the checks it passed
/// and its evidence.
public struct Candidate<Value: Hashable & Sendable & Codable, Role: CandidateRole>: Hashable, Sendable, Codable {
    public let value: Value
    public let role: Role
    /// Rule score, 0–1 for a single rule; amounts confirmed by several checks may score above 1 so that
    /// they still rank apart. The merge turns it into a confidence in 0–1.
    public var score: Double
    public let evidence: Evidence?
    /// What the candidate passed (its keyword, an arithmetic identity, a second reading): what logic reads.
    public var checks: Set<Check>
    /// Why the score is what it is, for people (review, `extract --explain`, alternates' reasons): never read
    /// by logic.
    public var notes: [String]
    /// The lowest OCR confidence (0–100) of the words that print this value, when they could be told apart
    /// on the evidence line; nil otherwise (the line's mean then stands for it).
    public var wordConfidence: Double?

    public init(
        value: Value, role: Role, score: Double, evidence: Evidence?, checks: Set<Check> = [], notes: [String] = [],
        wordConfidence: Double? = nil
    ) {
        self.value = value
        self.role = role
        self.score = score
        self.evidence = evidence
        self.checks = checks
        self.notes = notes
        self.wordConfidence = wordConfidence
    }

    /// The keyword of its line that gave the candidate its role, if any (of two, the first in alphabetical order:
    /// a set's own order differs from run to run).
    public var keyword: String? {
        checks.compactMap { if case .keyword(let k) = $0 { k } else { nil } }.min()
    }

    /// Confirmed by the document's own arithmetic (subtotal + tax = total, tendered − change = total, …).
    public var arithmeticConfirmed: Bool { checks.contains { if case .arithmetic = $0 { true } else { false } } }

    /// Proposed by the arithmetic itself, not read from a line (`computed: tendered − change`).
    public var computed: Bool { checks.contains { if case .computed = $0 { true } else { false } } }
}

/// A check a candidate passed. The parser and the merge decide by these; notes only tell people.
public enum Check: Hashable, Sendable, Codable {
    /// A keyword of the candidate's line (or of the line above, or its own label) gave it its role: "summe".
    case keyword(String)
    /// An identity of the document's own amounts holds for this total.
    case arithmetic(ArithmeticIdentity)
    /// The value is not read from a line but computed from others.
    case computed(Computation)
    /// Two OCR passes of the document read this value.
    case bothOCRPasses
    /// The same value is printed on this many lines (a date in the header and the footer).
    case printed(times: Int)
    /// Tesseract and the second reader read this value on the same line.
    case bothReaders
    /// The second reader read the line again and found another value for the field there.
    case readersDisagree
    /// A currency the page does not print, inferred from the country its hints name (a legal form, a tax name, a place).
    case fromCountry
    /// The country hints behind an inferred currency are of at least two kinds (a legal form, a tax name or number, a
    /// place) and name that one country alone: the page places itself there though it prints no currency, so the
    /// currency is read from evidence and waits for no one (`currency-inferred` is for thin or two-way hints).
    case placedByCountry
    /// A name both readers read on one line, its words joined from both readings (`Extraction.joinedNameWords`).
    case joinedWords
    /// A total line that names one tax rate or tax code ("Total 0% supplies", "Summe 19 %", "Total SR"): the total of
    /// that rate's goods, which on a page that also prints what is payable is not the grand total.
    case rateBand
    /// A date read only once letters in its digits were taken for digits, or a lost or doubled separator put right
    /// (the record waits for a person unless another reading confirms the day: `date-low-confidence`); a total the
    /// page's other figures propose for one read a digit off (`total-low-confidence`).
    case mended

    /// The note a person reads for the check.
    public var note: String? {
        switch self {
        case .keyword: nil
        case .arithmetic(let identity): identity.rawValue
        case .computed(let how): "computed: \(how.rawValue)"
        case .bothOCRPasses: "both OCR passes"
        case .printed(let times): "printed \(times)×"
        case .bothReaders: "both readers"
        case .readersDisagree: "the readers disagree"
        case .fromCountry, .placedByCountry, .joinedWords, .rateBand, .mended: nil
        }
    }
}

/// Identities of a receipt's amounts that confirm a total; raw values are the notes people read.
public enum ArithmeticIdentity: String, Hashable, Sendable, Codable {
    case subtotalPlusTax = "subtotal + tax = total"
    case taxIsRateTimesNet = "tax = rate × net"
    case itemsSumToSubtotal = "line items sum = subtotal"
    case subtotalTaxTipDiscount = "subtotal + tax + tip − discount = total"
    case itemsSumToTotal = "line items sum = total"
    case totalPlusRounding = "total + rounding = this total"
    case tenderedMinusChange = "tendered − change = total"
    case rateBandsSumToTotal = "the totals of two tax rates sum to it"
    case totalLessAdjustment = "a total above less an adjustment = this total"
    /// A card slip's amount charged: the bill's total above plus the tip the guest added ("Summe 77,60", "Trinkgeld
    /// 7,40", "Betrag 85,00").
    case totalPlusTip = "a total above + the tip = this total"
}

/// How a total the page does not print was computed; raw values are what the note names.
public enum Computation: String, Hashable, Sendable, Codable {
    case tenderedMinusChange = "tendered − change"
    case subtotalPlusTax = "subtotal + tax"
    case subtotalTaxTipDiscount = "subtotal + tax + tip − discount"
    /// The total above a rounding line, rounded by it: the amount paid.
    case totalPlusRounding = "total + rounding"
}

/// The roles a date can play: the transaction (or issue) date, or another date (due, delivery, validity).
public enum DateRole: String, CandidateRole, CaseIterable {
    case transaction, other
}

/// A currency written on the page, or inferred from country hints or the language.
public enum CurrencyRole: String, CandidateRole, CaseIterable {
    case explicit, inferred
}

/// The role of a candidate read as text for one field.
public enum TextRole: String, CandidateRole, CaseIterable {
    case merchant, reference, payment
    case sellerTaxID = "seller-tax-id"
}

public typealias AmountCandidate = Candidate<AmountReading, AmountRole>
public typealias DateCandidate = Candidate<CalendarDay, DateRole>
public typealias CurrencyCandidate = Candidate<String, CurrencyRole>
public typealias TextCandidate = Candidate<String, TextRole>

/// An amount as printed: minor units at the printed precision plus the currency written next to it, if any.
public struct AmountReading: Hashable, Sendable, Codable {
    public let minorUnits: Int64
    /// Always 2 for the amounts the parser reads today (printed precision is normalised to cents).
    public let fractionDigits: Int
    public let currencyHint: String?

    public init(minorUnits: Int64, fractionDigits: Int, currencyHint: String?) {
        self.minorUnits = minorUnits
        self.fractionDigits = fractionDigits
        self.currencyHint = currencyHint
    }

    /// The amount as a decimal string at its printed precision ("12.50").
    public var decimalString: String { Money.decimalString(minorUnits: minorUnits, digits: fractionDigits) }

    public func money(in currency: CurrencyCode) -> Money {
        // The parser reads at most 15 whole digits, so its amounts never overflow here; an amount that would is
        // held at the bound (`exactMoney` says nil instead, for callers that must know).
        exactMoney(in: currency) ?? Money(minorUnits: minorUnits < 0 ? .min : .max, currency: currency)
    }

    /// The amount in `currency`'s minor units (fraction digits added as zeros or cut), nil when that would
    /// overflow Int64.
    public func exactMoney(in currency: CurrencyCode) -> Money? {
        var units = minorUnits
        var digits = fractionDigits
        while digits < currency.minorDigits {
            let (m, overflow) = units.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            units = m
            digits += 1
        }
        while digits > currency.minorDigits {
            units /= 10
            digits -= 1
        }
        return Money(minorUnits: units, currency: currency)
    }
}

/// The roles an amount can play on a receipt.
public enum AmountRole: String, CandidateRole, CaseIterable {
    case total, subtotal, tax, tip, rounding, discount, change, tendered, cashback
    /// What the till advertises, not what was paid: "You saved 3.20", "Sie sparen", points and vouchers.
    case advert
    case lineItem = "line-item"
}

/// A tax line: the rate as printed ("19", "7.5") and the amount.
public struct TaxReading: Hashable, Sendable, Codable {
    public let rate: String?
    public let amount: AmountReading

    public init(rate: String?, amount: AmountReading) {
        self.rate = rate
        self.amount = amount
    }
}

public enum DocumentKind: String, Sendable, Codable, CaseIterable {
    case receipt, invoice
    case creditNote = "credit-note"
    /// Quotes, statements, balance screens: paper that proves no purchase.
    case notAPurchase = "not-a-purchase"
    /// A contract or agreement with a term and a notice period: its deadline is the last day to cancel.
    case contract
    /// A fine or penalty notice (parking, speeding): its deadlines count from the day it was received.
    case fine
    /// A phone's payment screen (an e-wallet, DuitNow QR, a bank app, a card payment): `PaymentScreen` says more.
    case paymentConfirmation = "payment-confirmation"
}

/// Everything the deterministic parser found in a document: every candidate for every field.
public struct Extraction: Sendable, Codable {
    public var amounts: [AmountCandidate] = []
    public var dates: [DateCandidate] = []
    public var merchants: [TextCandidate] = []
    public var currencies: [CurrencyCandidate] = []
    public var references: [TextCandidate] = []
    /// The seller's VAT / tax number ("DE123456789", "GST Reg No 000136577024").
    public var sellerTaxIDs: [TextCandidate] = []
    public var paymentMethods: [TextCandidate] = []
    public var taxes: [TaxReading] = []
    /// Lines that print a date shape no plausible date reads from ("17-66-13"): a misread date, which
    /// makes the date chosen from another line or pass less sure.
    public var unreadDates: [Evidence] = []
    /// Years the page prints in its dates (not in article codes or in dates of another role): a chosen date
    /// whose year is one digit from one of them is likely misread ("2016" for "2018"), and goes to review.
    public var printedYears: Set<Int> = []
    /// Transaction dates whose year the page's due, delivery and order dates contradict, none printing the same day:
    /// which year is right the page does not say (`ReceiptParser.yearsAgainstOtherDates`).
    public var yearsContradicted: Set<CalendarDay> = []
    /// The latest year printed after a copyright sign ("© 2018"): a chosen date before it is implausible.
    public var copyrightYear: Int?
    /// The days the tax the page names was levied ("GST" on a Malaysian receipt: 1 April 2015 to 31 August 2018):
    /// a chosen date outside them is implausible (`ReceiptParser.taxInForce`).
    public var taxInForce: ClosedRange<CalendarDay>?
    /// Days read with one digit of the year put right because the tax the page names was not levied in the year
    /// as read: one inference however many readers read the year alike, so a person confirms it.
    public var yearsMended: Set<CalendarDay> = []
    /// Whether the page settled the order of its numeric dates (its own dates, language, country, currency).
    public var dateOrderSettled = false
    /// Days read from dates whose day and month fit either order, when nothing settled the order.
    public var orderUnsettledDates: Set<CalendarDay> = []
    /// Pages in the middle of a long document the parser did not read (`ReceiptParser.pagesReadAtEachEnd`).
    public var pagesSkipped = 0
    public var documentKind: DocumentKind = .receipt
    /// What a phone's payment screen says (nil for paper).
    public var screen: PaymentScreen?
    /// The card or account paid with, by scheme and last four (`ReceiptParser.cardUsed`).
    public var card: CardUsed?
    /// An invoice's payment term as printed ("Zahlungsziel 30 Tage netto", "due date 14.04.2026"); nil when none is.
    public var paymentTerm: PaymentTermReading?
    /// A contract's notice period and end of term, as far as they are printed.
    public var contractTerms: ContractTerms?
    /// What was bought, line by line, as the page's layout gives it, and what its sum matched; nil when no item line
    /// was found.
    public var items: ItemsReading?
    /// The lines the items were read from, whether any item was read there or not; nil when the page shows no block of
    /// items (no line of the totals). What Items read again reads when the items are unproven.
    public var itemBlock: ItemBlock?

    /// No candidate yet: what the parser starts from.
    public init() {}

    /// Where a line stands: its page and its box. Two readings' lines are the same line when they stand on the same
    /// page and overlap vertically by half the smaller height (the second reading may have more or fewer lines).
    public struct LinePlace: Hashable, Sendable {
        public let page: Int
        public let box: BoundingBox

        public init(page: Int, box: BoundingBox) {
            self.page = page
            self.box = box
        }

        public func holds(_ e: Evidence) -> Bool {
            let overlap = min(box.bottom, e.box.bottom) - max(box.top, e.box.top)
            return e.page == page && overlap * 2 >= max(1, min(box.height, e.box.height))
        }

        public static func sameLine(_ a: Evidence, _ b: Evidence) -> Bool { LinePlace(page: a.page, box: a.box).holds(b) }
    }

    /// Where the candidates for `fields` were read: a total's, every amount but line items and adverts; a date's, its
    /// dates and the date shapes that read as none; a merchant's, its names; a currency's, its marks and the amounts
    /// it was read beside; a reference's, tax ID's or payment method's, its own.
    public func evidence(for fields: Set<Field>) -> [Evidence] {
        var out: [Evidence?] = []
        let amountLines = amounts.filter { $0.role != .lineItem && $0.role != .advert }.map(\.evidence)
        if fields.contains(.total) { out += amountLines }
        if fields.contains(.date) { out += dates.map(\.evidence) + unreadDates }
        if fields.contains(.merchant) { out += merchants.map(\.evidence) }
        if fields.contains(.currency) { out += currencies.map(\.evidence) + amountLines }
        if fields.contains(.referenceNumber) { out += references.map(\.evidence) }
        if fields.contains(.sellerTaxID) { out += sellerTaxIDs.map(\.evidence) }
        if fields.contains(.paymentMethod) { out += paymentMethods.map(\.evidence) }
        return out.compactMap { $0 }
    }

    /// Only what was read on `places`: for a pass that read those lines again and left the rest of the page as an
    /// earlier reading read it, whose candidates there are no second look.
    public func readOn(_ places: [LinePlace]) -> Extraction {
        // Values computed from other lines (tendered − change, subtotal + tax) mix the lines read again with those that
        // were not: only what was read on the lines joins.
        func on<V, R>(_ list: [Candidate<V, R>]) -> [Candidate<V, R>] {
            list.filter { c in !c.computed && (c.evidence.map { e in places.contains { $0.holds(e) } } ?? false) }
        }
        var out = self
        out.amounts = on(amounts)
        out.dates = on(dates)
        out.merchants = on(merchants)
        out.currencies = on(currencies)
        out.references = on(references)
        out.sellerTaxIDs = on(sellerTaxIDs)
        out.paymentMethods = on(paymentMethods)
        out.unreadDates = unreadDates.filter { e in places.contains { $0.holds(e) } }
        out.taxes = []
        out.items = nil
        return out
    }

    /// True when the best total candidate is confirmed by arithmetic, by two OCR passes or by both readers; an unconfirmed
    /// total is worth a second pass.
    public var totalConfirmed: Bool {
        guard let best = amounts.filter({ $0.score > 0 }).max(by: { $0.score < $1.score }) else { return false }
        return best.arithmeticConfirmed || best.checks.contains(.bothOCRPasses) || best.checks.contains(.bothReaders)
    }

    public func amounts(withRole role: AmountRole) -> [AmountCandidate] {
        amounts.filter { $0.role == role }
    }
}

extension CalendarDay: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let day = CalendarDay(iso: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an ISO date: \(text)"))
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(iso)
    }
}
