import ShoeboxCore
internal import ShoeboxReading

/// Payments printed under a total word. A parking or vending machine prints the money put in as "Accepted total
/// 10.00" (or just "Total 10.00") with "Change 5.00" right below and the price on another line ("Amount Incl.
/// GST 5.00"); read as a total, the cash handed in would be taken for what was spent.
extension ReceiptParser {
    /// A change line at most this many lines below the "total" it is paid from.
    static let changeLinesBelowPayment = 2

    /// Totals that are the money paid in: no line of the page is a payment, a change line follows the "total"
    /// closely, and the total less that change is printed on another line (the price). Each such total becomes
    /// a tendered amount, so tendered − change proposes the price and the line that prints it is confirmed.
    static func paymentsReadAsTotals(_ amounts: [AmountCandidate]) -> [AmountCandidate] {
        guard !amounts.contains(where: { $0.role == .tendered }) else { return amounts }
        let changes = amounts.filter { $0.role == .change && $0.value.minorUnits > 0 }
        guard !changes.isEmpty else { return amounts }
        return amounts.map { t in
            guard t.role == .total, let ev = t.evidence else { return t }
            let units = t.value.minorUnits
            let line = key(ev)
            let paid = changes.contains { c in
                guard let cl = c.evidence.map(key), cl > line, cl - line <= changeLinesBelowPayment else { return false }
                let price = units - c.value.minorUnits
                return price > 0
                    && amounts.contains { a in
                        a.value.minorUnits == price && a.role != .change && a.evidence.map(key).map { $0 != line && $0 != cl } ?? false
                    }
            }
            guard paid else { return t }
            return Candidate(
                value: t.value, role: .tendered, score: 0, evidence: t.evidence, checks: t.checks,
                notes: t.notes + ["change below it, no payment line, and less the change it is an amount printed elsewhere: the money paid in"])
        }
    }
}
