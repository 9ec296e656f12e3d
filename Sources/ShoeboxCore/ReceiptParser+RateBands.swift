/// Totals per tax rate: an invoice that sells at two rates may print a total for each ("Total 0% supplies: 17.89",
/// "Total 6% supplies (Inc. GST): 42.35", "Summe 7 %: 10,70", "Summe 19 %: 23,80") and then what is payable, their
/// sum. A payable total misread (a digit dropped) loses to the larger band total unless the sum speaks for it.
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
