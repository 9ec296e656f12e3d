import Foundation
public import ShoeboxCore
import ShoeboxParsing

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
        /// Not a duplicate after all: the reason that named the other record (`possible-duplicate`,
        /// `same-paper-reads-differently`, `e-invoice-reissued`) is cleared.
        case notDuplicate = "not-duplicate"
        /// A deadline met (paid, answered, returned): `value` names its kind; it leaves the calendar on the next export.
        case settle
    }
    public let action: Action
    /// The field an edit sets.
    public let field: Field?
    public let value: String?

    public init(action: Action, field: Field? = nil, value: String? = nil) {
        self.action = action
        self.field = field
        self.value = value
    }

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

    /// What the decision changes on `record`: the field's value before and after an edit, else the record's state
    /// before and after (`accepted`, `rejected`, …).
    public func change(on record: DocumentRecord) -> (before: String?, after: String?) {
        if action == .edit, let field { return (record.comparedValue(field.rawValue), value) }
        if action == .settle { return (value.map { "\($0) open" }, value.map { "\($0) settled" }) }
        return (record.status.rawValue, Review.apply([self], to: record).status.rawValue)
    }
}

public enum Review {
    /// Fields a person may edit.
    public static let editableFields: [Field] = [
        .merchant, .date, .total, .currency, .referenceNumber, .paymentMethod, .category, .note, .tax, .receivedOn, .endOfTerm, .noticePeriod
    ]

    /// A typed total above 10¹² (in cents: 10¹⁴) is a typing mistake; the bound also keeps every conversion of
    /// minor units far from overflow.
    public static let maxTotalMinorUnits: Int64 = 100_000_000_000_000

    /// The last year a contract's typed end of term may lie in.
    public static let maxTermYear = 2200

    /// The longest value a person may type into any field.
    public static let maxTypedLength = 200

    /// The deadline a person settles, checked: one the record has and has not settled yet.
    public static func validateSettle(_ kind: String, record: DocumentRecord) -> Result<String, ReviewInputError> {
        let open = record.deadlines.map(\.kind).filter { !record.settledDeadlines.contains($0) }.map(\.rawValue)
        guard open.contains(kind) else {
            let has = open.isEmpty ? "it has no open deadline" : "its open deadlines are \(open.joined(separator: ", "))"
            return .failure(ReviewInputError("'\(kind)' is no open deadline of \(record.source): \(has)."))
        }
        return .success(kind)
    }

    /// A typed value checked with the parsers' own rules; the error is a sentence for the person. What it
    /// returns is exactly what `apply` stores: a total comes back with its currency ("15.00 EUR"), so an
    /// accepted edit is never stored empty.
    /// `categories`: the ones the record's folder allows (its `.shoebox.json`); empty allows any.
    public static func validate(
        field: String, value: String, record: DocumentRecord, today: CalendarDay, categories: [String] = []
    ) -> Result<String, ReviewInputError> {
        guard let typed = Field(rawValue: field), editableFields.contains(typed) else {
            return .failure(ReviewInputError("'\(field)' cannot be edited; fields are \(editableFields.map(\.rawValue).joined(separator: ", "))."))
        }
        // A note may span lines and run longer than a value: its own limits (`TextLimits`).
        if typed == .note {
            let v = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if let problem = TextLimits.problem(field: field, value: v) { return .failure(ReviewInputError(problem)) }
            return .success(v)
        }
        if let c = FieldInput.controlCharacter(in: value) {
            return .failure(
                ReviewInputError(
                    "the \(field) holds a control character (\(FieldInput.codePoint(c))), which no document has. Type it again without it."))
        }
        let v = value.trimmingCharacters(in: .whitespaces)
        guard v.count <= maxTypedLength else {
            return .failure(ReviewInputError("the \(field) is \(v.count) characters long; at most \(maxTypedLength) can be typed."))
        }
        switch typed {
        case .total: return validateTotal(v, record: record)
        case .date:
            guard let d = FieldInput.date(v, today: today) else {
                return .failure(
                    ReviewInputError(
                        "'\(v)' is not a date from \(FieldInput.earliestYear)-01-01 to \(today.iso). Type it as 2026-03-14 or 14.03.2026."))
            }
            return .success(d.iso)
        case .receivedOn:
            guard let d = FieldInput.date(v, today: today) else {
                return .failure(
                    ReviewInputError(
                        "'\(v)' is not a day from \(FieldInput.earliestYear)-01-01 to \(today.iso): type the day the letter arrived as 2026-03-02 or 02.03.2026."
                    ))
            }
            if let date = record.date, d < date {
                return .failure(ReviewInputError("\(d.iso) is before the letter's own date \(date.iso): a letter is received after it is dated."))
            }
            return .success(d.iso)
        case .endOfTerm:
            // The end of a term lies ahead: any day from the contract's own date on.
            guard let d = FieldInput.date(v, today: TermWording.noLimit), d.year <= maxTermYear else {
                return .failure(ReviewInputError("'\(v)' is not a day: type the last day of the contract's term as 2027-12-31 or 31.12.2027."))
            }
            if let date = record.date, d < date {
                return .failure(ReviewInputError("\(d.iso) is before the contract's own date \(date.iso): a term ends after it is signed."))
            }
            return .success(d.iso)
        case .noticePeriod:
            guard let p = ContractTerms.notice(typed: v) else {
                return .failure(
                    ReviewInputError(
                        "'\(v)' is not a notice period: type it as 3 months, 30 days or 6 weeks (1 to 365 days, or 1 to 24 months)."))
            }
            return .success(ContractTerms.text(p))
        case .currency: return validateCurrency(v, record: record)
        case .tax: return validateTax(v, record: record)
        case .category where !categories.isEmpty && !categories.contains(v):
            return .failure(ReviewInputError("'\(v)' is not one of this folder's categories: \(categories.joined(separator: ", "))."))
        default: // merchant, referenceNumber, paymentMethod, category: their lengths and characters as every way in checks them
            if let problem = TextLimits.problem(field: field, value: v) { return .failure(ReviewInputError(problem)) }
            return .success(v)
        }
    }

    /// A new hand entry's id: 12 random hex digits (the system's generator).
    public static func handEntryID() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<6).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &g)) }.joined()
    }

    /// The fields an expense entered by hand must have, and those it may have.
    public static let handEntryRequired: [Field] = [.date, .merchant, .total]
    public static let handEntryOptional: [Field] = [.currency, .referenceNumber, .paymentMethod, .category, .note]

    /// An expense without a receipt, as a person enters it: each value checked as an edit is (a total must carry its
    /// currency, or come with one), stored under `<folder>/entered-by-hand-<id>`, every value the person's.
    /// `id` makes the path unique (the caller's: random in use, fixed in tests).
    public static func handEntry(
        folder: String, fields: [String: String], id: String, today: CalendarDay, folders: [String], categories: [String] = []
    ) -> Result<DocumentRecord, ReviewInputError> {
        let known = Set((handEntryRequired + handEntryOptional).map(\.rawValue))
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            return .failure(ReviewInputError("'\(unknown)' is not a field of an expense; fields are \(known.sorted().joined(separator: ", "))."))
        }
        if let missing = handEntryRequired.first(where: { (fields[$0.rawValue] ?? "").trimmingCharacters(in: .whitespaces).isEmpty }) {
            return .failure(ReviewInputError("an expense entered by hand needs a \(missing.rawValue)."))
        }
        // One of the store's folders: the expense goes into that folder's zip, under its settings.
        guard folders.contains(folder) else {
            return .failure(
                ReviewInputError(
                    "'\(folder)' is not a folder of this store; folders are \(folders.map { $0.isEmpty ? "(top level)" : $0 }.joined(separator: ", "))."
                ))
        }
        let source = (folder.isEmpty ? "" : folder + "/") + "entered-by-hand-\(id)"
        // Its "content" is the entry: a digest of its path stands for the bytes a scan would have.
        var r = DocumentRecord(source: source, folder: folder, sha256: SHA256.hex(of: Array("entered by hand: \(source)".utf8)), status: .review)
        r.enteredByHand = true
        r.pages = 0
        // The currency first, so that a total typed without one is read in it.
        let order = [Field.currency] + (handEntryRequired + handEntryOptional).filter { $0 != .currency }
        for field in order {
            guard let value = fields[field.rawValue] else { continue }
            switch validate(field: field.rawValue, value: value, record: r, today: today, categories: categories) {
            case .success(let v): r = apply([ReviewDecision(action: .edit, field: field, value: v)], to: r)
            case .failure(let e): return .failure(e)
            }
        }
        // The entry itself is the suggestion, waiting as `entered-by-hand`; the person's accept (`Store.addByHand`) is a
        // decision like any other, so undo takes the expense back to review.
        r.reasons = [.other("entered-by-hand")]
        return .success(r)
    }

    /// Whether a record's total may be below 0: a credit note's, or a refund's the document itself printed negative.
    public static func mayBeNegative(_ record: DocumentRecord) -> Bool {
        record.documentKind == .creditNote || (record.total?.minorUnits ?? 0) < 0
    }

    /// A typed total: more than 0 (below 0 on a credit note or refund, `mayBeNegative`), at most
    /// `maxTotalMinorUnits` either way, in one currency (typed with it, else the record's) that holds it exactly;
    /// returned with its currency ("15.00 EUR", "-15.00 EUR").
    static func validateTotal(_ typed: String, record: DocumentRecord) -> Result<String, ReviewInputError> {
        var v = typed
        var negative = false
        if v.hasPrefix("-") || v.hasPrefix("−") {
            guard mayBeNegative(record) else {
                return .failure(
                    ReviewInputError(
                        "'\(typed)' is not more than 0; a total is what was paid, e.g. 23.45 (only a credit note's or refund's is below 0)."))
            }
            negative = true
            v = String(v.dropFirst()).trimmingCharacters(in: .whitespaces)
        }
        if FieldInput.amount(v)?.minorUnits == 0 {
            return .failure(ReviewInputError("'\(typed)' is not more than 0; a total is what was paid, e.g. 23.45."))
        }
        guard let a = FieldInput.amount(v), a.minorUnits > 0 else {
            return .failure(ReviewInputError("'\(v)' is not an amount. Type it as printed, e.g. 23.45 or 23,45."))
        }
        guard a.minorUnits <= maxTotalMinorUnits else {
            return .failure(ReviewInputError("'\(v)' is more than any receipt's total (at most 1,000,000,000,000). Type the total as printed."))
        }
        let currency: CurrencyCode
        switch FieldInput.currency(typedWith: v) {
        case .code(let c): currency = c
        case .unclear(let mark):
            let example = mark == "¥" ? "\(a.decimalString) CNY or \(a.minorUnits / 100) JPY" : "\(a.decimalString) USD"
            return .failure(
                ReviewInputError("'\(mark)' in '\(v)' is not one currency. Type the amount with its three-letter code, e.g. \(example)."))
        case .none:
            guard let c = record.currency else {
                return .failure(
                    ReviewInputError(
                        "the record has no currency, so '\(v)' cannot be stored alone. Give the currency with the amount, e.g. \(a.decimalString) EUR (or set it first: e currency EUR)."
                    ))
            }
            currency = c
        }
        let exact = a.money(in: currency)
        let money = negative ? Money(minorUnits: -exact.minorUnits, currency: exact.currency) : exact
        guard same(exact, a) else {
            return .failure(
                ReviewInputError(
                    "\(currency.code) has \(currency.minorDigits) decimal places, so '\(v)' cannot be stored exactly. Type the amount as the document prints it in \(currency.code)."
                ))
        }
        return .success(money.description)
    }

    /// Typed tax lines, "19=2.65; 7=1.05": each a rate from 0 to 100 % and an amount in the record's currency (it must
    /// have one), at most 10 lines, no rate twice; "none" clears them. Returned as `TaxByRate` writes them (rates in
    /// order), which `apply` reads back.
    static func validateTax(_ v: String, record: DocumentRecord) -> Result<String, ReviewInputError> {
        if v.lowercased() == "none" { return .success("none") }
        guard let c = record.currency else {
            return .failure(ReviewInputError("the record has no currency: set it first (e currency EUR), then its tax lines."))
        }
        let parts = v.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !parts.isEmpty, parts.count <= 10 else {
            return .failure(ReviewInputError("'\(v)' is not tax lines. Type each as rate=amount, e.g. 19=2.65; 7=1.05 (at most 10), or none."))
        }
        var rows: [(rate: String?, minorUnits: Int64)] = []
        for part in parts {
            let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let rate = kv.first.map(TaxByRate.plainRate)
            guard kv.count == 2, let rate, let r = Double(rate), r >= 0, r <= 100 else {
                return .failure(ReviewInputError("'\(part)' is not rate=amount with a rate from 0 to 100, e.g. 19=2.65."))
            }
            guard !rows.contains(where: { $0.rate == rate }) else { return .failure(ReviewInputError("the rate \(rate) % is given twice.")) }
            guard let a = FieldInput.amount(kv[1]), a.minorUnits >= 0, a.minorUnits <= maxTotalMinorUnits,
                a.currencyHint == nil || a.currencyHint == c.code
            else {
                return .failure(ReviewInputError("'\(kv[1])' is not an amount in \(c.code) for the \(rate) % line. Type it as printed, e.g. 2.65."))
            }
            let money = a.money(in: c)
            guard same(money, a) else {
                return .failure(ReviewInputError("\(c.code) has \(c.minorDigits) decimal places, so '\(kv[1])' cannot be stored exactly."))
            }
            // A credit note's tax is negative as its total is.
            rows.append((rate, mayBeNegative(record) && (record.total?.minorUnits ?? 0) < 0 ? -money.minorUnits : money.minorUnits))
        }
        return TaxByRate.text(rows, digits: c.minorDigits).map(Result.success) ?? .failure(ReviewInputError("'\(v)' is too large to add up."))
    }

    /// A typed currency: a code, or a sign that stands for one currency only (€, £, RM), that can hold every
    /// amount of the record exactly.
    static func validateCurrency(_ v: String, record: DocumentRecord) -> Result<String, ReviewInputError> {
        guard !v.contains(where: \.isNumber), case .code(let c) = FieldInput.currency(typedWith: v) else {
            return .failure(ReviewInputError("'\(v)' is not a currency code. Type three letters, e.g. EUR, MYR, USD."))
        }
        let amounts = [record.total, record.subtotal, record.tip].compactMap { $0 } + record.tax.map(\.amount)
        if let m = amounts.first(where: { redenominate($0, to: c) == nil }) {
            return .failure(
                ReviewInputError(
                    "the record holds \(m.decimalString) \(m.currency.code), which \(c.code) (\(c.minorDigits) decimal places) cannot hold exactly. Edit the total first (with its currency, e.g. e total 1500 \(c.code))."
                ))
        }
        return .success(c.code)
    }

    /// Whether `m` is exactly the typed amount `a` (15.50 typed for yen is not: yen have no decimal places).
    static func same(_ m: Money, _ a: AmountReading) -> Bool {
        var (units, digits) = (m.minorUnits, m.currency.minorDigits)
        var (typed, typedDigits) = (a.minorUnits, a.fractionDigits)
        // Overflow-checked: an amount that cannot be scaled is not the same amount.
        while digits < typedDigits {
            guard case (let m, false) = units.multipliedReportingOverflow(by: 10) else { return false }
            units = m
            digits += 1
        }
        while typedDigits < digits {
            guard case (let m, false) = typed.multipliedReportingOverflow(by: 10) else { return false }
            typed = m
            typedDigits += 1
        }
        return units == typed
    }

    /// The same amount in another currency when it can be held exactly (15.00 EUR → 15.00 USD, 15.00 → 15 JPY;
    /// 15.50 cannot be yen; nor can an amount whose minor units would overflow).
    static func redenominate(_ m: Money, to c: CurrencyCode) -> Money? {
        let reading = AmountReading(minorUnits: m.minorUnits, fractionDigits: m.currency.minorDigits, currencyHint: nil)
        // nil too when the amount would overflow in `c`'s minor units (a store written outside Shoebox).
        guard let converted = reading.exactMoney(in: c),
            let back = AmountReading(minorUnits: converted.minorUnits, fractionDigits: c.minorDigits, currencyHint: nil).exactMoney(in: m.currency)
        else { return nil }
        return back.minorUnits == m.minorUnits ? converted : nil
    }

    /// The record as confirmed: the suggestion with `decisions` applied in order. Nil decisions: the suggestion.
    /// A decision that cannot be applied (a total stored before totals carried their currency, on a record
    /// without one) changes nothing and does not mark the field as set by a person.
    public static func apply(_ decisions: [ReviewDecision], to suggestion: DocumentRecord) -> DocumentRecord {
        guard !decisions.isEmpty else { return suggestion }
        var r = suggestion
        for d in decisions {
            switch d.action {
            case .edit:
                guard let field = d.field, let value = d.value else { continue }
                switch field {
                case .merchant:
                    r.merchant = value
                    r.merchantNormalized = ReceiptParser.normalizedMerchant(value)
                case .date:
                    guard let day = CalendarDay(iso: value) else { continue }
                    r.date = day
                case .currency:
                    guard let c = CurrencyCode(value) else { continue }
                    setCurrency(c, of: &r)
                case .total:
                    // "15.00 EUR" (the currency typed with it sets the record's), or "15.00" in the record's currency.
                    let parts = value.split(separator: " ")
                    if parts.count == 2, let c = CurrencyCode(String(parts[1])), let m = Money(decimal: String(parts[0]), currency: c) {
                        if r.currency != c { setCurrency(c, of: &r) }
                        r.total = m
                        r.confidence[.currency] = 1
                        r.evidence[.currency] = FieldEvidence(source: .person)
                    } else if parts.count == 1, let c = r.currency, let m = Money(decimal: value, currency: c) {
                        r.total = m
                    } else {
                        continue
                    }
                case .referenceNumber: r.referenceNumber = value
                case .paymentMethod: r.paymentMethod = value
                case .category: r.category = value
                case .note: r.note = value
                case .tax:
                    guard let c = r.currency else { continue }
                    if value == "none" {
                        r.tax = []
                    } else {
                        let lines = value.split(separator: ";").compactMap { part -> TaxLine? in
                            let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                            guard kv.count == 2, let m = Money(decimal: kv[1], currency: c) else { return nil }
                            return TaxLine(rate: kv[0], amount: m)
                        }
                        guard !lines.isEmpty else { continue }
                        r.tax = lines
                    }
                case .receivedOn:
                    guard let day = CalendarDay(iso: value) else { continue }
                    r.receivedOn = day
                case .endOfTerm:
                    guard let day = CalendarDay(iso: value) else { continue }
                    r.setContractTerms {
                        $0.endOfTerm = day
                        $0.endWording = nil
                    }
                case .noticePeriod:
                    guard let p = ContractTerms.notice(typed: value) else { continue }
                    r.setContractTerms {
                        $0.notice = p
                        $0.noticeWording = nil
                    }
                case .sellerTaxID: continue
                }
                r.confidence[field] = 1
                r.evidence[field] = FieldEvidence(source: .person)
                // A corrected date moves what counts from it; a received-on day typed makes a fine's windows.
                if [.date, .receivedOn, .endOfTerm, .noticePeriod].contains(field) { r = r.recountingDeadlines() }
            case .accept:
                r.status = .accepted
                r.reasons = []
                r.reviewedBy = "person"
            case .reject:
                r.status = .rejected
                r.reasons = [.notAPurchase]
                r.reviewedBy = "person"
            case .duplicate:
                r.status = .duplicate
                r.reviewedBy = "person"
            case .notDuplicate:
                r.reasons.removeAll { ReviewReason.namingAnother.contains($0) }
                r.duplicateOf = nil
            case .settle:
                guard let v = d.value, let kind = Deadline.Kind(rawValue: v), !r.settledDeadlines.contains(kind) else { continue }
                r.settledDeadlines.append(kind)
            }
        }
        return r
    }

    /// Sets the currency and carries every amount of the record over exactly; an amount the new currency cannot
    /// hold is dropped rather than kept in the old one (a record whose amounts and currency disagree could not
    /// be stored). `validate` refuses such an edit before it is made.
    static func setCurrency(_ c: CurrencyCode, of r: inout DocumentRecord) {
        r.currency = c
        r.total = r.total.flatMap { redenominate($0, to: c) }
        r.subtotal = r.subtotal.flatMap { redenominate($0, to: c) }
        r.tip = r.tip.flatMap { redenominate($0, to: c) }
        r.tax = r.tax.compactMap { t in redenominate(t.amount, to: c).map { TaxLine(rate: t.rate, amount: $0) } }
    }

    /// Per field, how often the pipeline's suggestion was what the person confirmed: (agreed, confirmed).
    public static func agreement(_ pairs: [(suggestion: DocumentRecord, confirmed: DocumentRecord)], fields: [String]) -> [String: (Int, Int)] {
        var out: [String: (Int, Int)] = [:]
        for (s, c) in pairs where c.status == .accepted && c.reviewedBy == "person" {
            for f in fields {
                let same = s.comparedValue(f) == c.comparedValue(f)
                let prev = out[f] ?? (0, 0)
                out[f] = (prev.0 + (same ? 1 : 0), prev.1 + 1)
            }
        }
        return out
    }
}

public struct ReviewInputError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
