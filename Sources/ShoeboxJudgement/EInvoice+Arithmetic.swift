public import ShoeboxCore

/// One sum an e-invoice states that its own figures do not give, or a value the reader could not take.
public struct EInvoiceProblem: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What was checked, in EN 16931's words ("gross = net + tax").
    public let rule: String
    public let stated: Money?
    public let computed: Money?
    public let sentence: String

    public var description: String { sentence }
}

extension EInvoice {
    /// Checks the invoice's arithmetic, in minor units (EN 16931 BR-CO-10 to BR-CO-17):
    /// top-level lines → line total; line total − allowances + charges = net; tax rows' bases = net; each row's
    /// tax = basis × rate (rounded to the cent, one cent either way); tax rows = tax total; net + tax = gross;
    /// gross − prepaid + rounding = due. A check whose figures the invoice does not state (MINIMUM and BASIC WL
    /// have no lines) is skipped. Empty: consistent. Reading problems come first.
    public func problems() -> [EInvoiceProblem] {
        var out = readingProblems.map { EInvoiceProblem(rule: "readable", stated: nil, computed: nil, sentence: $0) }
        guard let currency else {
            out.append(
                EInvoiceProblem(rule: "currency", stated: nil, computed: nil, sentence: "The invoice states no currency (InvoiceCurrencyCode)."))
            return out
        }
        let t = totals
        func check(_ rule: String, stated: Money?, computed: Money?) {
            guard let stated, let computed, stated != computed else { return }
            out.append(
                EInvoiceProblem(
                    rule: rule, stated: stated, computed: computed,
                    sentence: "\(rule): the invoice states \(stated.decimalString) \(currency.code), its own figures give \(computed.decimalString).")
            )
        }
        let topLines = lines.filter { $0.parentID == nil }
        if !topLines.isEmpty { check("line total = sum of the lines", stated: t.lineTotal, computed: EInvoice.sum(topLines.map(\.net), currency)) }
        if let lineTotal = t.lineTotal {
            let allowances = t.allowances?.minorUnits ?? 0
            let charges = t.charges?.minorUnits ?? 0
            check(
                "net = line total − allowances + charges", stated: t.taxBasis,
                computed: EInvoice.add([lineTotal.minorUnits, -allowances, charges], currency))
        }
        if !taxes.isEmpty {
            check("net = sum of the tax rows' bases", stated: t.taxBasis, computed: EInvoice.sum(taxes.map(\.basis), currency))
            check("tax = sum of the tax rows", stated: t.tax, computed: EInvoice.sum(taxes.map(\.amount), currency))
        }
        for row in taxes { if let p = EInvoice.rateProblem(row, currency) { out.append(p) } }
        if let basis = t.taxBasis {
            check("gross = net + tax", stated: t.grand, computed: EInvoice.add([basis.minorUnits, t.tax?.minorUnits ?? 0], currency))
        }
        if let grand = t.grand {
            let prepaid = t.prepaid?.minorUnits ?? 0
            let rounding = t.rounding?.minorUnits ?? 0
            check("due = gross − prepaid + rounding", stated: t.due, computed: EInvoice.add([grand.minorUnits, -prepaid, rounding], currency))
        }
        let stated =
            [t.lineTotal, t.allowances, t.charges, t.taxBasis, t.tax, t.grand, t.prepaid, t.rounding, t.due] + taxes.flatMap { [$0.basis, $0.amount] }
        if stated.contains(where: { ($0?.minorUnits.magnitude ?? 0) > UInt64(ReviewLimits.maxTotalMinorUnits) }) {
            out.append(
                EInvoiceProblem(
                    rule: "amounts", stated: nil, computed: nil,
                    sentence:
                        "The invoice states an amount beyond any invoice (over \(ReviewLimits.maxTotalMinorUnits / 100) in its currency); it is not taken."
                )
            )
        }
        if t.grand == nil {
            out.append(EInvoiceProblem(rule: "gross", stated: nil, computed: nil, sentence: "The invoice states no gross total (GrandTotalAmount)."))
        }
        return out
    }

    /// A tax row whose tax is not its basis × its rate, to the cent with one cent either way (a seller may round
    /// per line). A row without a rate or basis is not checked.
    static func rateProblem(_ row: TaxRow, _ currency: CurrencyCode) -> EInvoiceProblem? {
        guard let rateText = row.rate, let basis = row.basis, let amount = row.amount,
            let rate = Money.minorUnits(fromDecimal: rateText, digits: 4)
        else { return nil }
        // basis (minor units) × rate (1/10000 %) / 1,000,000, rounded half away from zero; checked for overflow.
        guard case (let product, false) = basis.minorUnits.multipliedReportingOverflow(by: rate) else { return nil }
        let half: Int64 = product < 0 ? -500_000 : 500_000
        let expected = (product + half) / 1_000_000
        guard abs(expected - amount.minorUnits) > 1 else { return nil }
        let computed = Money(minorUnits: expected, currency: currency)
        let label = "tax at \(rateText) % of \(basis.decimalString)"
        return EInvoiceProblem(
            rule: label, stated: amount, computed: computed,
            sentence: "\(label): the invoice states \(amount.decimalString) \(currency.code), the rate gives \(computed.decimalString).")
    }

    /// The sum of amounts that are all stated; nil when one is missing or the sum overflows.
    static func sum(_ amounts: [Money?], _ currency: CurrencyCode) -> Money? {
        var units: [Int64] = []
        for a in amounts {
            guard let a else { return nil }
            units.append(a.minorUnits)
        }
        return add(units, currency)
    }

    static func add(_ units: [Int64], _ currency: CurrencyCode) -> Money? {
        var total: Int64 = 0
        for u in units {
            guard case (let s, false) = total.addingReportingOverflow(u) else { return nil }
            total = s
        }
        return Money(minorUnits: total, currency: currency)
    }
}
