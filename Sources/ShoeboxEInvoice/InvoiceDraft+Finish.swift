import ShoeboxCore

extension InvoiceDraft {
    /// The invoice with every amount converted in the invoice currency; an amount that does not convert is left out
    /// and named in `readingProblems`.
    mutating func finish() -> EInvoice {
        let currency = resolveCurrency()
        var out = invoice
        out.currency = currency
        out.lines = lines.map { draft in
            var line = draft.line
            line.net = money(draft.net, currency, of: line.id.map { "line \($0)" }, into: &out)
            return line
        }
        out.taxes = chosenRows(currency).map { draft in
            var row = draft.row
            row.basis = money(draft.basis, currency, of: nil, into: &out)
            row.amount = money(draft.amount, currency, of: nil, into: &out)
            return row
        }
        for (field, written) in totals { out.totals[keyPath: field] = money(written, currency, of: nil, into: &out) }
        out.totals.tax = money(chosenTaxTotal(currency, into: &out), currency, of: nil, into: &out)
        out.paymentMeans = means.map { m in
            var pm = EInvoice.PaymentMeans()
            pm.code = m.code
            pm.iban = m.iban ?? m.proprietaryID
            return pm
        }
        return out
    }

    private mutating func resolveCurrency() -> CurrencyCode? {
        guard let text = currencyText else { return nil }
        if let code = CurrencyCode(text) { return code }
        invoice.readingProblems.append("The invoice currency \"\(text)\" is not an ISO 4217 code; no amount could be read.")
        return nil
    }

    /// UBL: the rows of the `cac:TaxTotal` stated in the invoice currency (a second one may restate the tax in the tax
    /// currency). CII rows have no group and are all kept.
    private func chosenRows(_ currency: CurrencyCode?) -> [DraftRow] {
        guard let currency else { return rows }
        let foreign = Set(taxTotals.filter { $0.group != nil && $0.currency.flatMap(CurrencyCode.init) != currency }.compactMap(\.group))
        return rows.filter { row in row.group.map { !foreign.contains($0) } ?? true }
    }

    /// The tax total whose `currencyID` is the invoice currency (CII and UBL state a second one in the tax currency
    /// when it differs); one without `currencyID` when none names it.
    private func chosenTaxTotal(_ currency: CurrencyCode?, into out: inout EInvoice) -> WrittenAmount? {
        guard let currency else { return taxTotals.first?.amount }
        if let same = taxTotals.first(where: { $0.currency.flatMap(CurrencyCode.init) == currency }) { return same.amount }
        if let plain = taxTotals.first(where: { $0.currency == nil }) { return plain.amount }
        if let other = taxTotals.first {
            out.readingProblems.append(
                "The tax total is stated only in \(other.currency ?? "?") (\(other.amount.element) \"\(other.amount.text)\"), not in the invoice currency \(currency.code); it was left out."
            )
        }
        return nil
    }

    private func money(_ written: WrittenAmount?, _ currency: CurrencyCode?, of owner: String?, into out: inout EInvoice) -> Money? {
        guard let written, let currency else { return nil }
        if let m = Money(decimal: written.text, currency: currency) { return m }
        let place = owner.map { " of \($0)" } ?? ""
        out.readingProblems.append(
            "The amount \"\(written.text)\" in \(written.element)\(place) is not an amount in \(currency.code) (a plain number with at most \(currency.minorDigits) decimals); it was left out."
        )
        return nil
    }
}
