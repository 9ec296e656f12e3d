import Foundation
public import ShoeboxCore
import ShoeboxParsing
import ShoeboxReading

extension ReviewDecision {
    /// What the decision changes on `record`: the field's value before and after an edit, else the record's state
    /// before and after (`accepted`, `rejected`, …).
    public func change(on record: DocumentRecord) -> (before: String?, after: String?) {
        if action == .edit, field == .item, case .item(let edit)? = value, edit.number <= record.items.count {
            let item = record.items[edit.number - 1]
            let before = FieldValue.ItemEdit(
                number: edit.number,
                amount: edit.amount == nil
                    ? nil : AmountReading(minorUnits: item.amount.minorUnits, fractionDigits: item.amount.currency.minorDigits, currencyHint: nil),
                description: edit.amount == nil ? item.description : nil)
            return (before.text, logged)
        }
        if action == .edit, let field { return (record.comparedValue(field.rawValue), logged) }
        if action == .settle { return (logged.map { "\($0) open" }, logged.map { "\($0) settled" }) }
        return (record.status.rawValue, Review.apply([self], to: record).status.rawValue)
    }
}

public enum Review {

    /// The deadline a person settles, checked: one the record has and has not settled yet.
    public static func validateSettle(_ kind: String, record: DocumentRecord) -> Result<Deadline.Kind, ReviewInputError> {
        let open = record.deadlines.map(\.kind).filter { !record.settledDeadlines.contains($0) }.map(\.rawValue)
        guard open.contains(kind) else {
            let has = open.isEmpty ? "it has no open deadline" : "its open deadlines are \(open.joined(separator: ", "))"
            return .failure(ReviewInputError("'\(kind)' is no open deadline of \(record.source): \(has)."))
        }
        return Deadline.Kind(rawValue: kind).map(Result.success) ?? .failure(ReviewInputError("'\(kind)' is no kind of deadline."))
    }

    /// A typed value checked with the parsers' own rules, returned typed (what `apply` sets and the log keeps); the
    /// error is a sentence for the person. A total comes back with its currency, so an accepted edit is never
    /// stored empty.
    /// `categories`: the ones the record's folder allows (its `.shoebox.json`); empty allows any.
    public static func validate(
        field: String, value: String, record: DocumentRecord, today: CalendarDay, categories: [String] = []
    ) -> Result<FieldValue, ReviewInputError> {
        editable(field).flatMap { validate($0, value: value, record: record, today: today, categories: categories) }
    }

    /// An edit of the field named `field` to what a person typed, checked (`validate`): the decision a desk hands the
    /// one decision path.
    public static func edit(
        field: String, value: String, record: DocumentRecord, today: CalendarDay, categories: [String] = []
    ) -> Result<ReviewDecision, ReviewInputError> {
        editable(field).flatMap { f in
            validate(f, value: value, record: record, today: today, categories: categories).map { .edit(f, $0) }
        }
    }

    /// The field a person names, when it may be edited.
    static func editable(_ field: String) -> Result<Field, ReviewInputError> {
        guard let typed = Field(rawValue: field), ReviewLimits.editableFields.contains(typed) else {
            return .failure(
                ReviewInputError("'\(field)' cannot be edited; fields are \(ReviewLimits.editableFields.map(\.rawValue).joined(separator: ", "))."))
        }
        return .success(typed)
    }

    static func validate(
        _ typed: Field, value: String, record: DocumentRecord, today: CalendarDay, categories: [String]
    ) -> Result<FieldValue, ReviewInputError> {
        let field = typed.rawValue
        // A note may span lines and run longer than a value: its own limits (`TextLimits`).
        if typed == .note {
            let v = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if let problem = TextLimits.problem(field: field, value: v) { return .failure(ReviewInputError(problem)) }
            return .success(.text(v))
        }
        if let c = FieldInput.controlCharacter(in: value) {
            return .failure(
                ReviewInputError(
                    "the \(field) holds a control character (\(FieldInput.codePoint(c))), which no document has. Type it again without it."))
        }
        let v = value.trimmingCharacters(in: .whitespaces)
        guard v.count <= ReviewLimits.maxTypedLength else {
            return .failure(ReviewInputError("the \(field) is \(v.count) characters long; at most \(ReviewLimits.maxTypedLength) can be typed."))
        }
        switch typed {
        case .total: return validateTotal(v, record: record)
        case .date:
            guard let d = FieldInput.date(v, today: today) else {
                return .failure(
                    ReviewInputError(
                        "'\(v)' is not a date from \(FieldInput.earliestYear)-01-01 to \(today.iso). Type it as 2026-03-14 or 14.03.2026."))
            }
            return .success(.day(d))
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
            return .success(.day(d))
        case .endOfTerm:
            // The end of a term lies ahead: any day from the contract's own date on.
            guard let d = FieldInput.date(v, today: TermWording.noLimit), d.year <= ReviewLimits.maxTermYear else {
                return .failure(ReviewInputError("'\(v)' is not a day: type the last day of the contract's term as 2027-12-31 or 31.12.2027."))
            }
            if let date = record.date, d < date {
                return .failure(ReviewInputError("\(d.iso) is before the contract's own date \(date.iso): a term ends after it is signed."))
            }
            return .success(.day(d))
        case .noticePeriod:
            guard let p = ContractTerms.notice(typed: v) else {
                return .failure(
                    ReviewInputError(
                        "'\(v)' is not a notice period: type it as 3 months, 30 days or 6 weeks (1 to 365 days, or 1 to 24 months)."))
            }
            return .success(.notice(p))
        case .currency: return validateCurrency(v, record: record)
        case .tax: return validateTax(v, record: record)
        case .item: return validateItem(v, record: record)
        case .category where !categories.isEmpty && !categories.contains(v):
            return .failure(ReviewInputError("'\(v)' is not one of this folder's categories: \(categories.joined(separator: ", "))."))
        default: // merchant, referenceNumber, paymentMethod, category: their lengths and characters as every way in checks them
            if let problem = TextLimits.problem(field: field, value: v) { return .failure(ReviewInputError(problem)) }
            return .success(.text(v))
        }
    }

    /// A correction of one line item ("3 amount=2.50", "3 description=Milk"), checked against the record's items.
    static func validateItem(_ v: String, record: DocumentRecord) -> Result<FieldValue, ReviewInputError> {
        guard let edit = FieldValue.ItemEdit(text: v) else {
            return .failure(
                ReviewInputError("'\(v)' is no item correction: type the item's number and what to set, as 3 amount=2.50 or 3 description=Milk."))
        }
        guard edit.number <= record.items.count else {
            let has = record.items.isEmpty ? "it has no items" : "its items are numbered 1 to \(record.items.count)"
            return .failure(ReviewInputError("\(record.source) has no item \(edit.number): \(has)."))
        }
        if let a = edit.amount {
            guard let c = record.currency, let m = FieldValue.money(a, in: c), m.minorUnits.magnitude <= UInt64(ReviewLimits.maxTotalMinorUnits)
            else {
                return .failure(ReviewInputError("'\(a.decimalString)' is no amount in the record's currency \(record.currency?.code ?? "(none)")."))
            }
        }
        if let d = edit.description, let problem = TextLimits.problem(field: "description", value: d) { return .failure(ReviewInputError(problem)) }
        return .success(.item(edit))
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
    /// `by`: `hand` (a person's, in review or the desk), or `agent` (an agent's sidecar without a document, from the inbox).
    public static func handEntry(
        folder: String, fields: [String: String], id: String, today: CalendarDay, folders: [String], categories: [String] = [],
        by: String = "hand"
    ) -> Result<DocumentRecord, ReviewInputError> {
        let known = Set((handEntryRequired + handEntryOptional).map(\.rawValue))
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            return .failure(ReviewInputError("'\(unknown)' is not a field of an expense; fields are \(known.sorted().joined(separator: ", "))."))
        }
        if let missing = handEntryRequired.first(where: { (fields[$0.rawValue] ?? "").trimmingCharacters(in: .whitespaces).isEmpty }) {
            return .failure(ReviewInputError("an expense entered by \(by) needs a \(missing.rawValue)."))
        }
        // One of the store's folders: the expense goes into that folder's zip, under its settings.
        guard folders.contains(folder) else {
            return .failure(
                ReviewInputError(
                    "'\(folder)' is not a folder of this store; folders are \(folders.map { $0.isEmpty ? "(top level)" : $0 }.joined(separator: ", "))."
                ))
        }
        let source = (folder.isEmpty ? "" : folder + "/") + "entered-by-\(by)-\(id)"
        // Its "content" is the entry: a digest of its path stands for the bytes a scan would have.
        var r = DocumentRecord(source: source, folder: folder, sha256: SHA256.hex(of: Array("entered by \(by): \(source)".utf8)), status: .review)
        r.enteredByHand = true
        r.pages = 0
        // The currency first, so that a total typed without one is read in it.
        let order = [Field.currency] + (handEntryRequired + handEntryOptional).filter { $0 != .currency }
        for field in order {
            guard let value = fields[field.rawValue] else { continue }
            switch validate(field: field.rawValue, value: value, record: r, today: today, categories: categories) {
            case .success(let v): r = apply([.edit(field, v)], to: r)
            case .failure(let e): return .failure(e)
            }
        }
        // The entry itself is the suggestion, waiting as `entered-by-hand`; the person's accept (`Store.addByHand`) is a
        // decision like any other, so undo takes the expense back to review.
        r.reasons = [.other("entered-by-\(by)")]
        return .success(r)
    }

    /// Whether a record's total may be below 0: a credit note's, or a refund's the document itself printed negative.
    public static func mayBeNegative(_ record: DocumentRecord) -> Bool {
        record.documentKind == .creditNote || (record.total?.minorUnits ?? 0) < 0
    }

    /// A typed total: more than 0 (below 0 on a credit note or refund, `mayBeNegative`), at most
    /// `ReviewLimits.maxTotalMinorUnits` either way, in one currency (typed with it, else the record's) that holds it exactly;
    /// returned with its currency (15.00 EUR, -15.00 EUR).
    static func validateTotal(_ typed: String, record: DocumentRecord) -> Result<FieldValue, ReviewInputError> {
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
        guard a.minorUnits <= ReviewLimits.maxTotalMinorUnits else {
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
        return .success(.total(money))
    }

    /// Typed tax lines, "19=2.65; 7=1.05": each a rate from 0 to 100 % and an amount in the record's currency (it must
    /// have one), at most 10 lines, no rate twice; "none" clears them. Returned as `TaxByRate` orders and writes them
    /// (rates in numeric order, trailing zeros dropped).
    static func validateTax(_ v: String, record: DocumentRecord) -> Result<FieldValue, ReviewInputError> {
        if v.lowercased() == "none" { return .success(.tax([])) }
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
            guard let a = FieldInput.amount(kv[1]), a.minorUnits >= 0, a.minorUnits <= ReviewLimits.maxTotalMinorUnits,
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
        guard let text = TaxByRate.text(rows, digits: c.minorDigits), let lines = FieldValue(logged: text, field: .tax) else {
            return .failure(ReviewInputError("'\(v)' is too large to add up."))
        }
        return .success(lines)
    }

    /// A typed currency: a code, or a sign that stands for one currency only (€, £, RM), that can hold every
    /// amount of the record exactly.
    static func validateCurrency(_ v: String, record: DocumentRecord) -> Result<FieldValue, ReviewInputError> {
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
        return .success(.currency(c))
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
                guard let field = d.field, let value = d.value, set(value, on: field, of: &r) else { continue }
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
                guard let kind = d.deadline, !r.settledDeadlines.contains(kind) else { continue }
                r.settledDeadlines.append(kind)
            }
        }
        return r
    }

    /// Sets `field` of `r` to `value`; false, changing nothing, when the value is not one of the field's kind or cannot
    /// be set (a total in the record's currency on a record without one).
    static func set(_ value: FieldValue, on field: Field, of r: inout DocumentRecord) -> Bool {
        switch (field, value) {
        case (.merchant, .text(let v)):
            r.merchant = v
            r.merchantNormalized = ReceiptParser.normalizedMerchant(v)
        case (.referenceNumber, .text(let v)): r.referenceNumber = v
        case (.paymentMethod, .text(let v)): r.paymentMethod = v
        case (.category, .text(let v)): r.category = v
        case (.note, .text(let v)): r.note = v
        case (.date, .day(let d)): r.date = d
        case (.receivedOn, .day(let d)): r.receivedOn = d
        case (.endOfTerm, .day(let d)):
            r.setContractTerms {
                $0.endOfTerm = d
                $0.endWording = nil
            }
        case (.noticePeriod, .notice(let p)):
            r.setContractTerms {
                $0.notice = p
                $0.noticeWording = nil
            }
        case (.currency, .currency(let c)): setCurrency(c, of: &r)
        case (.total, .total(let m)):
            // The currency typed with a total sets the record's.
            if r.currency != m.currency { setCurrency(m.currency, of: &r) }
            r.total = m
            r.confidence[.currency] = 1
            r.evidence[.currency] = FieldEvidence(source: .person)
        case (.total, .totalInRecordCurrency(let a)):
            guard let c = r.currency, let m = FieldValue.money(a, in: c) else { return false }
            r.total = m
        case (.item, .item(let edit)):
            guard edit.number <= r.items.count else { return false }
            var item = r.items[edit.number - 1]
            if let a = edit.amount {
                guard let c = r.currency, let m = FieldValue.money(a, in: c), m.minorUnits.magnitude <= UInt64(ReviewLimits.maxTotalMinorUnits) else {
                    return false
                }
                item.amount = m
            }
            if let d = edit.description { item.description = d }
            item.source = .person
            r.items[edit.number - 1] = item
            // A person looked at the items and set them: what proves them now.
            r.itemsCheck = .person
        case (.tax, .tax(let lines)):
            guard let c = r.currency else { return false }
            let taxes = lines.compactMap { l in FieldValue.money(l.amount, in: c).map { TaxLine(rate: l.rate, amount: $0) } }
            guard taxes.count > 0 || lines.isEmpty else { return false }
            r.tax = taxes
        default: return false
        }
        return true
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
