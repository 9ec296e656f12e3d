/// A day by which a person must act on a document: pay, return, claim, object, cancel.
///
/// Day-one rule (one for every window that counts from an event): the day of the event is day one, so a
/// window of N days ends on event + N − 1, and of N months on event + N months − 1 day. Where the law does not
/// count the event's day (a fine's "14 days after delivery"), this is one day early, never late. A payment term
/// is the exception, because it is no window but a due day: "payable within 30 days" of the invoice date is
/// due on invoice date + 30, as the invoicing software prints it. No deadline is ever moved past a weekend or
/// a holiday: computed days stand as computed, so a person is never told a later day than the paper allows.
public struct Deadline: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// An invoice's due day.
        case payment
        /// The last day to return a purchase (the folder's preset).
        case returnWindow = "return-window"
        /// The last day of the warranty (the folder's preset).
        case warranty
        /// A fine's last day to pay the reduced amount.
        case payReduced = "pay-reduced"
        /// A fine's last day to object.
        case objection
        /// A contract's last day to give notice.
        case cancellation
    }

    /// What a deadline counts from.
    public struct Anchor: Hashable, Sendable, Codable {
        public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
            case invoiceDate = "invoice-date"
            /// A due day the page prints, or an e-invoice states.
            case dueDatePrinted = "due-date-printed"
            case purchaseDate = "purchase-date"
            /// The day a fine reached the person (from the sidecar).
            case receivedOn = "received-on"
            case endOfTerm = "end-of-term"
        }

        public let kind: Kind
        public let day: CalendarDay

        public init(kind: Kind, day: CalendarDay) {
            self.kind = kind
            self.day = day
        }
    }

    public let kind: Kind
    public let day: CalendarDay
    public let anchor: Anchor
    /// One sentence for a person: the rule, the anchor and the wording it was read from.
    public let explanation: String

    public init(kind: Kind, day: CalendarDay, anchor: Anchor, explanation: String) {
        self.kind = kind
        self.day = day
        self.anchor = anchor
        self.explanation = explanation
    }
}

/// A folder's preset windows (from its settings): how long its purchases may be returned or are under
/// warranty, and the windows the fines in it give. Nil: the folder sets none, and no such deadline is made.
public struct DeadlinePresets: Hashable, Sendable, Codable {
    public var returnWindowDays: Int?
    public var warrantyMonths: Int?
    public var payReducedDays: Int?
    public var objectionDays: Int?
    /// What every document of the folder is (a folder of fines, of contracts), unless its sidecar says otherwise.
    public var documentKind: DocumentKind?

    public init(
        returnWindowDays: Int? = nil, warrantyMonths: Int? = nil, payReducedDays: Int? = nil, objectionDays: Int? = nil,
        documentKind: DocumentKind? = nil
    ) {
        self.returnWindowDays = returnWindowDays
        self.warrantyMonths = warrantyMonths
        self.payReducedDays = payReducedDays
        self.objectionDays = objectionDays
        self.documentKind = documentKind
    }

    /// The ranges the pipeline file allows: days 1…3650, warranty months 1…240.
    public static let dayRange = 1...3650
    public static let monthRange = 1...240

    /// These presets with any window outside its range dropped: presets that come back from a store or an import are
    /// counted with only what a pipeline file could have set.
    public var bounded: DeadlinePresets {
        var p = self
        func keep(_ v: Int?, _ r: ClosedRange<Int>) -> Int? { v.flatMap { r.contains($0) ? $0 : nil } }
        p.returnWindowDays = keep(returnWindowDays, Self.dayRange)
        p.warrantyMonths = keep(warrantyMonths, Self.monthRange)
        p.payReducedDays = keep(payReducedDays, Self.dayRange)
        p.objectionDays = keep(objectionDays, Self.dayRange)
        return p
    }
}

/// Why a document's deadlines need a person. Each has a stable code and a sentence saying what to do.
public enum DeadlineProblem: String, Hashable, Sendable, Codable, CaseIterable {
    /// A due day before the document's own date: a misread date, or the wrong date chosen.
    case dueDateBeforeDocument = "due-date-before-document"
    /// A due day more than `DeadlineRules.farMonths` after the document: most likely a misread year.
    case dueDateTooFar = "due-date-too-far"
    /// A fine without the day it was received: its windows count from that day, so none is made.
    case fineReceivedOnMissing = "fine-received-on-missing"
    /// A contract whose notice period or end of term was not read: no cancellation day is made.
    case contractTermsUnread = "contract-terms-unread"

    public var code: String { rawValue }

    public var sentence: String {
        switch self {
        case .dueDateBeforeDocument:
            "The due date is before the document's date. Check both dates on the page and correct the one that was misread."
        case .dueDateTooFar:
            "The due date is more than two years after the document's date. Check the year on the page and correct it if it was misread."
        case .fineReceivedOnMissing:
            "The fine's deadlines count from the day it was received, which is not known. Type the day the letter arrived in review (the field receivedOn), or write it in the scan's sidecar ({\"receivedOn\": \"YYYY-MM-DD\"}) and run again."
        case .contractTermsUnread:
            "The contract's notice period or end of term could not be read, so no cancellation day was computed (none is guessed). Type them in review (the fields endOfTerm and noticePeriod, e.g. 2027-12-31 and 3 months)."
        }
    }
}

/// Everything the deadlines of one document are computed from. All days are calendar days; nothing here
/// reads a clock or a time zone.
public struct DeadlineFacts: Hashable, Sendable, Codable {
    public var kind: DocumentKind
    /// The document's date: an invoice's date, a receipt's purchase day.
    public var documentDate: CalendarDay?
    /// The payment term read from the page (`PaymentTermReading.read`).
    public var paymentTerm: PaymentTermReading?
    /// The due day an e-invoice's XML states: exact, so it wins over the page's wording.
    public var statedDueDate: CalendarDay?
    public var presets: DeadlinePresets
    /// The day a fine was received, from its sidecar.
    public var receivedOn: CalendarDay?
    /// The contract's terms (`ContractTerms.read`).
    public var contract: ContractTerms?

    public init(
        kind: DocumentKind, documentDate: CalendarDay?, paymentTerm: PaymentTermReading? = nil, statedDueDate: CalendarDay? = nil,
        presets: DeadlinePresets = DeadlinePresets(), receivedOn: CalendarDay? = nil, contract: ContractTerms? = nil
    ) {
        self.kind = kind
        self.documentDate = documentDate
        self.paymentTerm = paymentTerm
        self.statedDueDate = statedDueDate
        self.presets = presets
        self.receivedOn = receivedOn
        self.contract = contract
    }
}

/// A document's deadlines and the problems that send them to review.
public struct DeadlineResult: Hashable, Sendable, Codable {
    public var deadlines: [Deadline] = []
    public var problems: [DeadlineProblem] = []

    public init(deadlines: [Deadline] = [], problems: [DeadlineProblem] = []) {
        self.deadlines = deadlines
        self.problems = problems
    }
}

/// The deadline rules (`Deadlines.compute`, in ShoeboxJudgement). The counting of days and months lives here, with
/// the values: `ContractTerms.text` writes a notice period with it.
public enum Deadlines {
    /// "1 day", "30 days".
    public static func count(_ n: Int, _ unit: String) -> String { n == 1 ? "1 \(unit)" : "\(n) \(unit)s" }
}
