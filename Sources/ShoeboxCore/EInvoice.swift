/// A structured electronic invoice as its XML states it: UN/CEFACT CII (ZUGFeRD 2.x, Factur-X, XRechnung CII),
/// ZUGFeRD 1.0, or UBL 2.1 (XRechnung UBL, Peppol BIS). Read by `ShoeboxEInvoice.EInvoiceReader`; checked by
/// `EInvoice.problems()`; turned into a record by `RecordMerger.merge(eInvoice:…)`.
///
/// Amounts are as written in the XML, sign included (a credit note usually states positive amounts: its type
/// says it is a credit; `isCredit`), in the invoice currency's minor units. A unit price may have more decimals
/// than the currency and is kept as text: it is shown, never added up.
public struct EInvoice: Sendable, Hashable, Codable {
    /// The longest text of one value kept (a name, a line's description, a payment term): no invoice prints more.
    public static let maxText = 1000
    /// Tax rows, payment means, payment terms and reading problems: a handful on any invoice.
    public static let maxRows = 64
    /// Invoice lines: far more than any invoice a person pays, far fewer than would make a review slow.
    public static let maxLines = 100_000

    public enum Syntax: String, Sendable, Codable {
        /// UN/CEFACT Cross Industry Invoice D16B: ZUGFeRD 2.x, Factur-X, XRechnung CII.
        case cii
        /// ZUGFeRD 1.0 `CrossIndustryDocument`.
        case zugferd1 = "zugferd-1"
        /// OASIS UBL 2.1 `Invoice` or `CreditNote`.
        case ubl
    }

    public struct Party: Sendable, Hashable, Codable {
        public var name: String?
        public var vatID: String?
        /// A tax number other than the VAT ID (CII scheme "FC").
        public var taxNumber: String?
        public var addressLines: [String] = []
        public var postcode: String?
        public var city: String?
        public var country: String?
        public init() {}
    }

    public struct Line: Sendable, Hashable, Codable {
        public var id: String?
        /// An EXTENDED sub-line's parent line: its amount is part of the parent's, never added again.
        public var parentID: String?
        public var name: String?
        public var quantity: String?
        public var unitCode: String?
        public var unitPrice: String?
        /// The line's net amount (quantity × price − allowances + charges), as written.
        public var net: Money?
        public var taxCategory: String?
        public var taxRate: String?
        public init() {}
    }

    /// One row of the tax breakdown: a category at a rate, its basis and its tax.
    public struct TaxRow: Sendable, Hashable, Codable {
        public var category: String?
        /// The rate as a plain decimal ("19", "5.5", "0").
        public var rate: String?
        public var basis: Money?
        public var amount: Money?
        public var exemptionReason: String?
        public init() {}
    }

    /// The document-level totals (EN 16931 BT-106 to BT-115).
    public struct Totals: Sendable, Hashable, Codable {
        public var lineTotal: Money?
        public var allowances: Money?
        public var charges: Money?
        /// Net: the sum the tax is computed on.
        public var taxBasis: Money?
        public var tax: Money?
        /// Gross: net + tax.
        public var grand: Money?
        public var prepaid: Money?
        public var rounding: Money?
        /// What is left to pay: gross − prepaid + rounding.
        public var due: Money?
        public init() {}
    }

    public struct PaymentMeans: Sendable, Hashable, Codable {
        /// UNTDID 4461 code: 30 and 58 credit transfer, 59 direct debit, 48 card, 10 cash, …
        public var code: String?
        /// The account to pay into (the payee's), never the payer's debit account.
        public var iban: String?
        public init() {}
    }

    public var syntax: Syntax
    /// The specification identifier (CII guideline, UBL CustomizationID): which profile the file claims.
    public var profile: String?
    public var number: String?
    /// UNTDID 1001 document type: 380 invoice, 381 credit note, 384 corrected invoice, …
    public var typeCode: String?
    public var issueDate: CalendarDay?
    public var deliveryDate: CalendarDay?
    public var dueDate: CalendarDay?
    public var paymentTerms: [String] = []
    public var currency: CurrencyCode?
    public var seller = Party()
    public var buyer = Party()
    public var lines: [Line] = []
    public var taxes: [TaxRow] = []
    public var totals = Totals()
    public var paymentMeans: [PaymentMeans] = []
    /// What the reader could not take as it stands (an amount with too many decimals, a date in no known
    /// format): each makes the invoice inconsistent, named for a person.
    public var readingProblems: [String] = []

    public init(syntax: Syntax) {
        self.syntax = syntax
    }

    /// UNTDID 1001 codes of credit notes (EN 16931's list); a UBL `CreditNote` is one whatever its code.
    public static let creditTypeCodes: Set<String> = ["81", "83", "261", "262", "296", "308", "381", "396", "420", "458", "532"]

    /// True for a credit note: its amounts are owed to the buyer, and the record stores them negated.
    public var isCredit: Bool { typeCode.map(EInvoice.creditTypeCodes.contains) ?? false }

    /// An amount as Shoebox records it: negated for a credit note, whatever sign the XML writes (an invoice's
    /// negative amounts stay negative). The one place the credit-note sign is decided.
    public func recorded(_ m: Money?) -> Money? {
        guard let m else { return nil }
        // Amounts come from decimals of at most 15 whole digits: never Int64.min, so the negation cannot trap.
        return isCredit ? Money(minorUnits: -m.minorUnits, currency: m.currency) : m
    }

    /// The type code in words, for people.
    public var typeName: String {
        switch typeCode {
        case "380": "commercial invoice"
        case "381": "credit note"
        case "383": "debit note"
        case "384": "corrected invoice"
        case "386": "prepayment invoice"
        case "389": "self-billed invoice"
        case "393": "factored invoice"
        case "875": "partial construction invoice"
        case "876": "partial final construction invoice"
        case "877": "final construction invoice"
        case let code? where EInvoice.creditTypeCodes.contains(code): "credit note"
        case let code?: "invoice (type \(code))"
        case nil: "invoice"
        }
    }

    /// The payee account of the first payment means that names one.
    public var payeeIBAN: String? { paymentMeans.lazy.compactMap(\.iban).first }

    /// The first payment means in words ("credit transfer", "direct debit", "card"), nil when none is stated.
    public var paymentMethod: String? {
        guard let code = paymentMeans.lazy.compactMap(\.code).first else { return nil }
        switch code {
        case "10": return "cash"
        case "20": return "cheque"
        case "30", "31", "42", "58": return "credit transfer"
        case "48", "54", "55": return "card"
        case "49", "59": return "direct debit"
        case "57": return "standing agreement"
        case "97": return "clearing between partners"
        default: return "payment means \(code)"
        }
    }
}
