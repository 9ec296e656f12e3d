public import Foundation

/// What a person decided about a record in review. The pipeline's suggestion is never changed: the
/// confirmed record is the suggestion with the person's decisions applied, in order (`Review.apply`).
public struct ReviewDecision: Hashable, Sendable {
    public enum Action: String, Sendable, Codable, CaseIterable {
        /// The record is right as it stands (after any edits): it may be exported.
        case accept
        /// One field set to a value a person typed or picked (validated like any reading).
        case edit
        /// Not a purchase (a quote, a statement, a photo of something else): never exported.
        case reject
        /// A duplicate of another record, confirmed: never exported.
        case duplicate
        /// Not a duplicate after all: the reason that named the other record (`possible-duplicate`,
        /// `same-paper-reads-differently`, `e-invoice-reissued`) is cleared.
        case notDuplicate = "not-duplicate"
        /// A deadline met (paid, answered, returned): `value` names its kind; it leaves the calendar on the next export.
        case settle
    }
    public let action: Action
    /// The field an edit sets.
    public let field: Field?
    /// The value an edit sets, typed; nil on an edit the log holds in a form this build cannot read (it sets nothing).
    public let value: FieldValue?
    /// The deadline a settle meets.
    public let deadline: Deadline.Kind?

    /// A decision on the whole record: accept, reject, duplicate, not-duplicate.
    public init(action: Action) {
        self.init(action: action, field: nil, value: nil, deadline: nil)
    }

    public init(action: Action, field: Field?, value: FieldValue?, deadline: Deadline.Kind?) {
        self.action = action
        self.field = field
        self.value = value
        self.deadline = deadline
    }

    /// One field set to a checked value (`Review.validate` makes it).
    public static func edit(_ field: Field, _ value: FieldValue) -> ReviewDecision {
        ReviewDecision(action: .edit, field: field, value: value, deadline: nil)
    }

    /// A deadline met (`Review.validateSettle` checks it is open).
    public static func settle(_ kind: Deadline.Kind) -> ReviewDecision {
        ReviewDecision(action: .settle, field: nil, value: nil, deadline: kind)
    }

    /// A decision as the log keeps it (`action`, `field`, `logged`), read back; nil for an action this build does not know.
    public init?(logged action: String, field: String?, value: String?) {
        guard let a = Action(rawValue: action) else { return nil }
        let f = field.flatMap(Field.init(rawValue:))
        switch a {
        case .edit: self.init(action: a, field: f, value: f.flatMap { f in value.flatMap { FieldValue(logged: $0, field: f) } }, deadline: nil)
        case .settle: self.init(action: a, field: nil, value: nil, deadline: value.flatMap(Deadline.Kind.init(rawValue:)))
        default: self.init(action: a)
        }
    }

    /// The value as the log keeps it: an edit's value (`FieldValue.logged`), a settle's deadline kind.
    public var logged: String? { value?.logged ?? deadline?.rawValue }

    /// Decisions that end a record's review.
    public var isFinal: Bool { action == .accept || action == .reject || action == .duplicate }

    /// Where a person made a decision: the one decision path (`RecordStore.decide`) records it beside what changed.
    public enum Desk: String, Sendable, CaseIterable {
        /// `shoebox review`, in a terminal.
        case terminal
        /// `shoebox serve`, in a browser.
        case browser
        /// `shoebox review --apply FILE`.
        case apply
    }
}

/// What a person may type in review, and how much: review's checks and the store's import of a decision log hold
/// values to the same bounds.
public enum ReviewLimits {
    /// Fields a person may edit.
    public static let editableFields: [Field] = [
        .merchant, .date, .total, .currency, .referenceNumber, .paymentMethod, .category, .note, .tax, .receivedOn, .endOfTerm, .noticePeriod,
        .item
    ]

    /// A typed total above 10¹² (in cents: 10¹⁴) is a typing mistake; the bound also keeps every conversion of
    /// minor units far from overflow.
    public static let maxTotalMinorUnits: Int64 = 100_000_000_000_000

    /// The last year a contract's typed end of term may lie in.
    public static let maxTermYear = 2200

    /// The longest value a person may type into any field.
    public static let maxTypedLength = 200
}
