/// Why a record waits for a person, or why it failed. Each reason has a stable code: the form JSON, CSV, the
/// store and the command line show, and the form a store is read back from.
public enum ReviewReason: Sendable, CustomStringConvertible {
    /// A required field no source gave: `total-missing`.
    case missing(Field)
    /// A required field whose confidence is below the accept threshold: `date-low-confidence`.
    case lowConfidence(Field)
    /// A runner-up within the ambiguity margin (for a date also a date shape that reads as no date): `total-ambiguous`.
    case ambiguous(Field)
    /// Both readers read the chosen total's or date's line, and not alike, and no arithmetic of the page decides:
    /// `date-readers-disagree`. Review shows both readings.
    case readersDisagree(Field)
    /// What people confirmed on earlier records of this shop says otherwise than the page: `merchant-memory-disagrees`.
    /// Review shows both.
    case memoryDisagrees(Field)
    /// The page's own arithmetic computes another total than the one chosen.
    case arithmeticMismatch
    /// The total's or date's own words were read with low OCR confidence.
    case lowOCRConfidence
    /// No currency is printed: it was inferred from country hints or the language.
    case currencyInferred
    /// The merchant read is no name but a heading, a screen's title, an address, a phone or registration number.
    case merchantNotAName
    /// A sidecar gives another value than the document.
    case sourcesDisagree
    /// A quote, statement or balance: paper that proves no purchase.
    case notAPurchase
    /// A document so long that only its first and last pages were parsed.
    case longDocument
    /// A sidecar that does not validate.
    case sidecarInvalid
    /// Another record looks like the same purchase: the same total, day and seller, as far as both read them
    /// (`DuplicateRules`). `duplicateOf` names it.
    case possibleDuplicate
    /// The page image and the printed numbers say the same paper as another record, but the total, day or seller
    /// read differ: one of the two was read wrong. `duplicateOf` names the other.
    case samePaperReadsDifferently
    /// An e-invoice with the same seller and invoice number as another and another total: a correction or a
    /// reissue; a person keeps one. `duplicateOf` names the other.
    case eInvoiceReissued
    /// The same bytes as a document already in the store.
    case sameBytes
    /// An e-invoice's XML whose sums its own figures do not give (`EInvoice.problems()`).
    case eInvoiceInconsistent
    /// An e-invoice's XML states a total or date the readable page does not print.
    case eInvoiceDisagreesWithPage
    /// A PDF carries an invoice XML that could not be read (malformed, refused, too large): the page was read instead.
    case eInvoiceUnreadable
    /// An e-invoice's XML states a value no record may hold (a date before 1900 or after today, a text longer than any
    /// invoice prints, more rows than any invoice has): it was left out or cut, and a person checks the record.
    case eInvoiceValueOutOfRange
    /// A PDF carries two invoice XMLs that state different invoices: the first is read, a person checks which is right.
    case eInvoiceAttachmentsDisagree
    /// A charge from a recurring series after the day it was marked cancelled: the cancellation did not take.
    case chargedAfterCancellation
    /// The sidecar or the folder's preset says the document is another kind than the page reads as (a credit note
    /// in a folder of invoices): the given kind is used, and a person checks it.
    case documentKindDisagrees
    /// A phone's payment screen that moved no money for a purchase (`PaymentScreen.Purpose`): a failed or pending
    /// payment, a balance, points, a top-up into one's own wallet, a transfer between one's own accounts, or a
    /// screen with no payment at all. Kept, never exported as an expense; a person may still make it one.
    case screenNoExpense(PaymentScreen.Purpose)
    /// Any other code: a failed record's reason (its `DocumentFailure.code`), or a code read from a store
    /// written by another version, kept as it was read.
    case other(String)

    /// The stable code ("total-missing", "arithmetic-mismatch", "empty-file").
    public var code: String {
        switch self {
        case .missing(let f): "\(f.rawValue)-missing"
        case .lowConfidence(let f): "\(f.rawValue)-low-confidence"
        case .ambiguous(let f): "\(f.rawValue)-ambiguous"
        case .readersDisagree(let f): "\(f.rawValue)-readers-disagree"
        case .memoryDisagrees(let f): "\(f.rawValue)-memory-disagrees"
        case .arithmeticMismatch: "arithmetic-mismatch"
        case .lowOCRConfidence: "low-ocr-confidence"
        case .currencyInferred: "currency-inferred"
        case .merchantNotAName: "merchant-not-a-name"
        case .sourcesDisagree: "sources-disagree"
        case .notAPurchase: "not-a-purchase"
        case .longDocument: "long-document"
        case .sidecarInvalid: "sidecar-invalid"
        case .possibleDuplicate: "possible-duplicate"
        case .samePaperReadsDifferently: "same-paper-reads-differently"
        case .eInvoiceReissued: "e-invoice-reissued"
        case .sameBytes: "same-bytes"
        case .eInvoiceInconsistent: "e-invoice-inconsistent"
        case .eInvoiceDisagreesWithPage: "e-invoice-page-disagrees"
        case .eInvoiceUnreadable: "e-invoice-unreadable"
        case .eInvoiceValueOutOfRange: "e-invoice-value-out-of-range"
        case .eInvoiceAttachmentsDisagree: "e-invoice-attachments-disagree"
        case .chargedAfterCancellation: "charged-after-cancellation"
        case .documentKindDisagrees: "document-kind-disagrees"
        case .screenNoExpense(let purpose):
            switch purpose {
            case .failed: "payment-failed"
            case .pending: "payment-pending"
            case .balance: "balance-screen"
            case .points: "points-screen"
            case .topUp: "top-up-screen"
            case .ownTransfer: "own-account-transfer"
            case .noPayment, .payment, .refund: "screen-without-payment"
            }
        case .other(let code): code
        }
    }

    public var description: String { code }

    static let simple: [ReviewReason] = [
        .arithmeticMismatch, .lowOCRConfidence, .currencyInferred, .merchantNotAName, .sourcesDisagree, .notAPurchase, .longDocument, .sidecarInvalid,
        .possibleDuplicate, .samePaperReadsDifferently, .eInvoiceReissued, .sameBytes, .eInvoiceInconsistent, .eInvoiceDisagreesWithPage,
        .eInvoiceUnreadable, .eInvoiceValueOutOfRange, .eInvoiceAttachmentsDisagree,
        .chargedAfterCancellation, .documentKindDisagrees
    ]
    static let byCode: [String: ReviewReason] = {
        var out: [String: ReviewReason] = [:]
        for r in simple { out[r.code] = r }
        for p in PaymentScreen.Purpose.allCases where p != .payment && p != .refund {
            out[ReviewReason.screenNoExpense(p).code] = .screenNoExpense(p)
        }
        for f in Field.allCases {
            for r in [ReviewReason.missing(f), .lowConfidence(f), .ambiguous(f), .readersDisagree(f), .memoryDisagrees(f)] { out[r.code] = r }
        }
        return out
    }()

    /// The reason a code names; a code no case names is kept as `.other`.
    public init(code: String) {
        self = ReviewReason.byCode[code] ?? .other(code)
    }

    /// The reasons that name another record (`duplicateOf`): what the duplicate stage adds, and `not-duplicate` clears.
    public static let namingAnother: [ReviewReason] = [.possibleDuplicate, .samePaperReadsDifferently, .eInvoiceReissued]

    /// The field the reason is about, for the per-field reasons.
    public var field: Field? {
        switch self {
        case .missing(let f), .lowConfidence(let f), .ambiguous(let f), .readersDisagree(let f), .memoryDisagrees(let f): f
        default: nil
        }
    }
}

/// Two reasons are the same when their codes are.
extension ReviewReason: Hashable {
    public static func == (a: ReviewReason, b: ReviewReason) -> Bool { a.code == b.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
