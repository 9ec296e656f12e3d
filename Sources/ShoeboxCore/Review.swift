import Foundation

/// What a person decided about a record in review. The pipeline's suggestion is never changed: the
/// confirmed record is the suggestion with the person's decisions applied, in order (`Review.apply`).
public struct ReviewDecision: Hashable, Sendable, Codable {
    public enum Action: String, Sendable, Codable, CaseIterable {
        /// The record is right as it stands (after any edits): it may be exported.
        case accept
        /// One field set to a value a person typed or picked (validated like any reading).
        case edit
        /// Not a purchase (a quote, a statement, a photo of something else): never exported.
        case reject
        /// A duplicate of another record, confirmed: never exported.
        case duplicate
        /// Not a duplicate after all: the `possible-duplicate` reason is cleared.
        case notDuplicate = "not-duplicate"
    }
    public let action: Action
    public let field: String?
    public let value: String?

    public init(action: Action, field: String? = nil, value: String? = nil) {
        self.action = action; self.field = field; self.value = value
    }

    /// Decisions that end a record's review.
    public var isFinal: Bool { action == .accept || action == .reject || action == .duplicate }
}

public enum Review {
    /// Fields a person may edit.
    public static let editableFields = ["merchant", "date", "total", "currency", "referenceNumber"]

    /// A typed value checked with the parsers' own rules; the error is a sentence for the person.
    public static func validate(field: String, value: String, record: DocumentRecord, today: CalendarDay) -> Result<String, ReviewInputError> {
        let v = value.trimmingCharacters(in: .whitespaces)
        switch field {
        case "total":
            guard let a = FieldInput.amount(v), a.minorUnits > 0 else {
                return .failure(ReviewInputError("'\(v)' is not an amount. Type it as printed, e.g. 23.45 or 23,45."))
            }
            let currency = record.currency ?? a.currencyHint.flatMap(CurrencyCode.init)
            return .success(currency.map { a.money(in: $0).decimalString } ?? a.decimalString)
        case "date":
            guard let d = FieldInput.date(v, today: today) else {
                return .failure(ReviewInputError("'\(v)' is not a date on or before \(today.iso). Type it as 2026-03-14 or 14.03.2026."))
            }
            return .success(d.iso)
        case "currency":
            guard v.count == 3, let c = CurrencyCode(v.uppercased()) else {
                return .failure(ReviewInputError("'\(v)' is not a currency code. Type three letters, e.g. EUR, MYR, USD."))
            }
            return .success(c.code)
        case "merchant", "referenceNumber":
            if let problem = TextLimits.problem(field: field, value: v) { return .failure(ReviewInputError(problem)) }
            return .success(v)
        default:
            return .failure(ReviewInputError("'\(field)' cannot be edited; fields are \(editableFields.joined(separator: ", "))."))
        }
    }

    /// The record as confirmed: the suggestion with `decisions` applied in order. Nil decisions: the suggestion.
    public static func apply(_ decisions: [ReviewDecision], to suggestion: DocumentRecord) -> DocumentRecord {
        guard !decisions.isEmpty else { return suggestion }
        var r = suggestion
        for d in decisions {
            switch d.action {
            case .edit:
                guard let field = d.field, let value = d.value else { continue }
                switch field {
                case "merchant":
                    r.merchant = value
                    r.merchantNormalized = ReceiptParser.normalizedMerchant(value)
                case "date": r.date = CalendarDay(iso: value)
                case "currency":
                    if let c = CurrencyCode(value) {
                        r.currency = c
                        if let t = r.total { r.total = Money(decimal: t.decimalString, currency: c) }
                    }
                case "total":
                    if let c = r.currency { r.total = Money(decimal: value, currency: c) }
                case "referenceNumber": r.referenceNumber = value
                default: continue
                }
                r.confidence[field] = 1
                r.evidence[field] = FieldEvidence(source: "person")
            case .accept:
                r.status = .accepted
                r.reasons = []
                r.reviewedBy = "person"
            case .reject:
                r.status = .rejected
                r.reasons = ["not-a-purchase"]
                r.reviewedBy = "person"
            case .duplicate:
                r.status = .duplicate
                r.reviewedBy = "person"
            case .notDuplicate:
                r.reasons.removeAll { $0 == "possible-duplicate" }
                r.duplicateOf = nil
            }
        }
        return r
    }

    /// Per field, how often the pipeline's suggestion was what the person confirmed: (agreed, confirmed).
    public static func agreement(_ pairs: [(suggestion: DocumentRecord, confirmed: DocumentRecord)], fields: [String]) -> [String: (Int, Int)] {
        var out: [String: (Int, Int)] = [:]
        for (s, c) in pairs where c.status == .accepted && c.reviewedBy == "person" {
            for f in fields {
                let same = RegressionReport.value(f, of: s) == RegressionReport.value(f, of: c)
                let prev = out[f] ?? (0, 0)
                out[f] = (prev.0 + (same ? 1 : 0), prev.1 + 1)
            }
        }
        return out
    }
}

public struct ReviewInputError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
