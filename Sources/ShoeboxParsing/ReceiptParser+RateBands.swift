import ShoeboxCore
internal import ShoeboxReading

/// Totals per tax rate: an invoice that sells at two rates may print a total for each ("Total 0% supplies: 17.89",
/// "Total 6% supplies (Inc. GST): 42.35", "Summe 7 %: 10,70", "Summe 19 %: 23,80") and then what is payable, their
/// sum. A payable total misread (a digit dropped) loses to the larger band total unless the sum speaks for it.
/// An adjustment note (goods returned) prints a negative rate total or adjustment line, and what is payable is a
/// band total less it ("Total 0% supplies 39.01", "Total 6% supplies (Inc. GST) −18.80", "Total payable 20.21").
extension ReceiptParser {
    /// Tax codes a till prints for its rate bands (Malaysian GST: standard rated, zero rated, exempt, …).
    static let taxCodes: Set<Substring> = ["sr", "zr", "es", "ds", "rs", "gs", "os"]
    /// Words that name the goods of one rate band ("Total 0% supplies", "Total zero rated", "Jumlah 6% bekalan").
    static let bandWords: Set<Substring> = ["supplies", "supply", "rated", "bekalan", "berkadar"]

    /// Whether a folded total label names one tax rate ("6%", "19 %") or tax code ("Total SR", "Total ZR"), or the
    /// goods of one band ("supplies"): the total of that band, not of the page.
    /// The rate's digit may be misread: "Total @% supplies", "Summe O %", "Total o%" ("0" read as "@" or "o"), the
    /// "o" standing alone or after digits ("1o%").
    static func namesOneRate(_ folded: String) -> Bool {
        let c = Array(folded.utf8)
        func isDigit(_ k: Int) -> Bool { k >= 0 && c[k] >= 0x30 && c[k] <= 0x39 }
        for i in c.indices where c[i] == 0x25 {
            var j = i - 1
            while j >= 0 && c[j] == 0x20 { j -= 1 }
            guard j >= 0 else { continue }
            if isDigit(j) || c[j] == 0x40 { return true }
            if c[j] == 0x6F && (j == 0 || c[j - 1] == 0x20 || isDigit(j - 1)) { return true }
        }
        return folded.split { !$0.isLetter }.contains { taxCodes.contains($0) || bandWords.contains($0) }
    }
}

extension ReceiptParser.TotalScoring {
    /// The amount each rate band's total line prints (its right-most amount): a line with a total word and a rate,
    /// and no word that makes it a net ("excl. GST"). In minor units, with the line's key.
    static func rateBands(_ e: Extraction) -> [(line: Int, value: Int64)] {
        var byLine: [Int: Int64] = [:]
        for c in e.amounts where c.value.minorUnits > 0 && !c.computed {
            guard let ev = c.evidence, ev.text.contains("%") else { continue }
            let folded = TextFolding.fold(ev.text)
            guard Keywords.total.any(in: folded), !Keywords.exclusive.any(in: folded) else { continue }
            let key = ReceiptParser.key(ev)
            if byLine[key] == nil || c.value.minorUnits != byLine[key] { byLine[key] = c.value.minorUnits }
        }
        return byLine.map { (line: $0.key, value: $0.value) }
    }

    /// Two rate bands' totals, on two lines, summing to the candidate: it is what the invoice comes to.
    func rateBandCheck(_ c: AmountCandidate, _ b: inout Bonus) {
        let units = c.value.minorUnits
        guard units > 0, rateBands.count >= 2 else { return }
        let parts = rateBands.filter { $0.value != units }
        if parts.contains(where: { p in parts.contains { q in q.line != p.line && q.value != p.value && p.value + q.value == units } }) {
            b.confirm(W.rateBandsSumToTotal, .rateBandsSumToTotal)
        }
    }
}

extension ReceiptParser.TotalScoring {
    /// The amounts that adjust a total above or below them: negative amounts on lines of goods, totals (a rate's
    /// total too), discounts and adjustments (a rounding's own check is `roundingChecks`), and a discount printed
    /// without its sign.
    static func adjustments(_ e: Extraction) -> [(line: Int, value: Int64)] {
        e.amounts.compactMap { a in
            guard !a.computed, let ev = a.evidence, a.value.minorUnits != 0 else { return nil }
            let v = a.value.minorUnits
            switch a.role {
            case AmountRole.discount: return (line: ReceiptParser.key(ev), value: -abs(v))
            case AmountRole.lineItem, AmountRole.total, AmountRole.subtotal: return v < 0 ? (line: ReceiptParser.key(ev), value: v) : nil
            // "Total 6% supplies (Inc. GST): -18.80" reads as a tax line for its "GST": a rate's total all the same
            // (`Check.rateBand`, also when its label stands on the line above).
            case AmountRole.tax:
                let folded = TextFolding.fold(ev.text)
                let ratesTotal = a.checks.contains(.rateBand) || (Keywords.total.any(in: folded) && ReceiptParser.namesOneRate(folded))
                return v < 0 && ratesTotal ? (line: ReceiptParser.key(ev), value: v) : nil
            default: return nil
            }
        }
    }

    /// A total above this one (or a subtotal) plus an adjustment on another line above this one gives it: what is
    /// payable after the adjustment. Not when subtotal + tax (− discount) already confirms it. A negative total
    /// line too: on an adjustment note the returns may outweigh the sales ("Total 0% supplies 12.98", "Total 6%
    /// supplies (Inc. GST) −14.71", "Total payable −1.73").
    func adjustmentCheck(_ c: AmountCandidate, _ b: inout Bonus) {
        let units = c.value.minorUnits
        guard units > 0 || (units < 0 && c.role == AmountRole.total), let line = c.evidence.map(ReceiptParser.key),
            !b.identities.contains(.subtotalPlusTax), !b.identities.contains(.subtotalTaxTipDiscount)
        else { return }
        let made = adjusted.contains { p in
            p.line < line && p.value != units
                && adjustments.contains { a in a.line < line && a.line != p.line && p.value + a.value == units }
        }
        if made { b.confirm(W.totalLessAdjustment, .totalLessAdjustment) }
    }
}
