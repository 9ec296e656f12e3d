/// Amounts: every amount on the page with the role its line gives it, then the scores of the total
/// candidates from keyword strength, position, size and the arithmetic cross-checks.
extension ReceiptParser {
    /// The role of the amounts on a line, from its words. Order matters: the first rule that fits wins.
    static func role(of folded: String) -> (AmountRole?, String?) {
        func has(_ list: KeywordList) -> String? { list.first(in: folded) }
        // Counts, not money: "Total Qty: 3.00", "No. of items 2".
        if let k = has(Keywords.count), has(Keywords.strongTotal) == nil { return (nil, k) }
        let totalWord = has(Keywords.total)
        let exclusive = has(Keywords.exclusive)
        if let k = has(Keywords.adjustments) { return (.discount, k) }
        // "Net à payer" and "Net Total" are totals although they hold "net".
        if let k = has(Keywords.strongTotal), exclusive.map({ k.contains($0) }) ?? true { return (.total, k) }
        if totalWord != nil, exclusive == nil, let k = has(Keywords.inclusive) { return (.total, k) }
        if let k = has(Keywords.cashback) { return (.cashback, k) }
        if let k = has(Keywords.advert) { return (.advert, k) }
        if let k = has(Keywords.change) { return (.change, k) }
        if let k = has(Keywords.tip) { return (.tip, k) }
        if let k = has(Keywords.rounding) { return (.rounding, k) }
        if let k = has(Keywords.discount) { return (.discount, k) }
        if let k = has(Keywords.subtotal) ?? (totalWord != nil ? exclusive : nil) { return (.subtotal, k) }
        if let k = has(Keywords.tax) { return (.tax, k) }
        if let k = has(Keywords.tendered) { return (.tendered, k) }
        if let k = totalWord { return (.total, k) }
        return (.lineItem, nil)
    }

    /// The largest rounding adjustment in use (Swiss and Malaysian 5-cent rounding moves at most 2–3 cents;
    /// some tills round to 50 cents), in minor units.
    static let largestRounding: Int64 = 50

    func amountCandidates(_ lines: [Line]) -> [AmountCandidate] {
        var out: [AmountCandidate] = []
        var pendingRole: (AmountRole, String, Int)?
        for line in lines {
            let found = line.amounts.filter { !$0.isRate }
            // A keyword line whose amount was printed (or read) on the next line: "Total Amount:" / "64.15".
            // A long line without amounts is neither (and its keywords need not be looked up).
            let short = line.line.words.count <= 3 || line.text.hasSuffix(":")
            if found.isEmpty && !short {
                pendingRole = nil
                continue
            }
            let (lineRole, keyword) = line.role
            guard let lineRole else {
                pendingRole = nil
                continue
            }
            if found.isEmpty {
                if let keyword, lineRole != .lineItem, short { pendingRole = (lineRole, keyword, line.order) } else { pendingRole = nil }
                continue
            }
            var role = lineRole
            var notes: [String] = []
            var checks: Set<Check> = []
            if let keyword, lineRole != .lineItem {
                notes.append("keyword '\(keyword)'")
                checks.insert(.keyword(keyword))
            }
            if lineRole == .lineItem, let (pending, k, at) = pendingRole, at == line.order - 1 {
                role = pending
                notes.append("keyword '\(k)' on the line above")
                checks.insert(.keyword(k))
            }
            pendingRole = nil
            // Several labelled amounts on one line ("TOTAL HT 100,00 TOTAL TVA 20,00 TOTAL 120,00 TTC"): each takes
            // the role of its own label. Otherwise the amount that counts is the right-most one (the column of prices).
            let own = found.count >= 2 ? ReceiptParser.ownRoles(line.amountText, found) : []
            let labelled = own.filter { $0.0 != nil && $0.0 != .lineItem }.count >= 2
            for (k, f) in found.enumerated() {
                let isLast = k == found.count - 1
                if labelled, let ownRole = own[k].0 {
                    let n = ownRole == .lineItem ? [] : ["keyword '\(own[k].1 ?? "")' before it"]
                    let c: Set<Check> = ownRole == .lineItem ? [] : [.keyword(own[k].1 ?? "")]
                    out.append(Candidate(value: f.reading, role: ownRole, score: 0, evidence: line.evidence, checks: c, notes: n))
                    continue
                }
                var effectiveRole: AmountRole = isLast ? role : (role == .tax ? .subtotal : .lineItem)
                var n = isLast ? notes : []
                let c = isLast ? checks : []
                // Rounding moves a total by cents ("Rounding Adjustment -0.02"); a "Rounding RM 177.20" line
                // prints the rounded total itself.
                if effectiveRole == .rounding && abs(f.reading.minorUnits) > ReceiptParser.largestRounding {
                    effectiveRole = .total
                    n.append("too large for a rounding: the rounded total")
                }
                out.append(Candidate(value: f.reading, role: effectiveRole, score: 0, evidence: line.evidence, checks: c, notes: n))
            }
            _ = lineRole
        }
        return out
    }

    /// The role each amount's own label gives it: the text since the previous amount, plus a qualifier right
    /// after it ("120,00 TTC"). Nil where the label has no role.
    static func ownRoles(_ text: String, _ found: [AmountReader.Found]) -> [(AmountRole?, String?)] {
        let chars = Array(text)
        var start = 0
        var out: [(AmountRole?, String?)] = []
        for f in found {
            var label = String(chars[start..<f.range.lowerBound])
            let after = String(chars[f.range.upperBound..<chars.count]).split(separator: " ").first.map(String.init) ?? ""
            if Keywords.qualifiers.contains(TextFolding.fold(after)) { label += " " + after }
            let folded = TextFolding.fold(label).split(whereSeparator: \.isWhitespace).joined(separator: " ")
            let (role, keyword) = ReceiptParser.role(of: folded)
            out.append(keyword == nil ? (nil, nil) : (role, keyword))
            start = f.range.upperBound
        }
        return out
    }

    /// Scores total candidates: keyword strength, position, size, and the arithmetic cross-checks
    /// (subtotal + tax = total; total before rounding + rounding = total; tendered − change = total).
    /// When no line names a total, a payment without change or the arithmetic itself proposes one.
    func scoreTotals(_ e: inout Extraction, lines: [Line]) {
        let page = TotalScoring(e)
        for i in e.amounts.indices {
            e.amounts[i] = page.scored(e.amounts[i])
        }
        ReceiptParser.penalizeMisreadCurrencySigns(&e)
        ReceiptParser.addComputedTotals(&e, page)
    }

    /// "$8.20" read as "98.20" beside a "$8.20" read right: the longer one starts with a misread currency sign.
    static func penalizeMisreadCurrencySigns(_ e: inout Extraction) {
        let scoredTotals = e.amounts.indices.filter { e.amounts[$0].role == AmountRole.total }
        for i in scoredTotals {
            let a = String(e.amounts[i].value.minorUnits)
            if let first = a.first, "9586".contains(first),
                scoredTotals.contains(where: { j in
                    j != i && a == String(first) + String(e.amounts[j].value.minorUnits) && e.amounts[j].value.minorUnits >= 100
                })
            {
                e.amounts[i].score -= TotalWeights.misreadCurrencySign
                e.amounts[i].notes.append("leading '\(first)' is likely a misread currency sign")
            }
        }
    }

    /// The arithmetic proposes what no line reads right ("$8.20" read as "98.20", "37.10" as "87.10"):
    /// tendered − change, and subtotal + tax. When a total line reads nearly the same digits (one digit
    /// different, or one more in front), the computed value is preferred over the misread one.
    static func addComputedTotals(_ e: inout Extraction, _ page: TotalScoring) {
        let totals = page.totals
        let read = Set(e.amounts.filter { $0.score > 0 }.map(\.value.minorUnits))
        var added = Set<Int64>()
        for (units, evidence, how, hint) in computedTotals(e, page) where !read.contains(units) && !added.contains(units) {
            added.insert(units)
            // A total printed the same on two lines of the page ("Total 3.00", "Final Total 3.00") is no misread:
            // then the tendered or change line is the one misread ("CASH 3.06"), and the computed value stays a
            // weak candidate (its disagreement sends the record to review as arithmetic-mismatch).
            let misread = totals.first { t in
                ReceiptParser.ocrNear(String(t.value.minorUnits), String(units))
                    && Set(totals.filter { $0.value.minorUnits == t.value.minorUnits }.compactMap { $0.evidence.map(ReceiptParser.key) }).count < 2
            }
            let best = e.amounts.filter { $0.role == AmountRole.total }.map(\.score).max() ?? 0
            let score =
                misread != nil ? min(TotalWeights.computedOverMisreadCap, best + TotalWeights.computedOverMisread) : TotalWeights.computedAlone
            e.amounts.append(
                Candidate(
                    value: AmountReading(minorUnits: units, fractionDigits: 2, currencyHint: hint),
                    role: AmountRole.total, score: score, evidence: misread?.evidence ?? evidence,
                    checks: [.computed(how)],
                    notes: [Check.computed(how).note!]
                        + (misread.map { ["the total line reads \(Money.decimalString(minorUnits: $0.value.minorUnits, digits: 2)), one digit off"] }
                            ?? [])))
        }
    }

    /// The totals the arithmetic gives: each tendered − change, each subtotal + tax (+ tips − discounts).
    static func computedTotals(_ e: Extraction, _ page: TotalScoring) -> [(Int64, Evidence?, Computation, String?)] {
        var computed: [(Int64, Evidence?, Computation, String?)] = []
        for t in e.amounts(withRole: .tendered) {
            for ch in e.amounts(withRole: .change) where t.value.minorUnits - ch.value.minorUnits > 0 {
                computed.append((t.value.minorUnits - ch.value.minorUnits, ch.evidence, .tenderedMinusChange, t.value.currencyHint))
            }
        }
        for s in e.amounts(withRole: .subtotal) {
            for t in e.amounts(withRole: .tax) where s.value.minorUnits + t.value.minorUnits > 0 {
                let extra = page.tips - page.discounts
                computed.append(
                    (
                        s.value.minorUnits + t.value.minorUnits + extra, t.evidence,
                        extra == 0 ? .subtotalPlusTax : .subtotalTaxTipDiscount, s.value.currencyHint
                    ))
            }
        }
        return computed
    }

    /// What a page's amounts say about its total candidates: the amounts of each role, the item lines and the
    /// taxes whose rate checks out. Scores one candidate at a time (`scored`), the weights from `TotalWeights`.
    struct TotalScoring {
        typealias W = TotalWeights
        let subtotals: [Int64]
        let taxes: [Int64]
        let tendered: [Int64]
        let changes: [Int64]
        let roundings: [Int64]
        /// The total candidates before scoring.
        let totals: [AmountCandidate]
        let largestTotal: Int64?
        let lastTotalLine: Int?
        /// The largest amount that is neither tendered nor change.
        let largest: Int64
        let taxSum: Int64
        let tips: Int64
        let discounts: Int64
        /// The items: the right-most amount of each line without a role (a price column), for "items sum to …".
        let itemsByLine: [Int: Int64]
        /// Tax lines whose rate times some net gives their amount (to the cent): "MwSt 19 % 3,74" of "Netto 19,71".
        let ratedTaxes: [(Int64, Int64)]

        init(_ e: Extraction) {
            func values(_ role: AmountRole) -> [Int64] { e.amounts(withRole: role).map(\.value.minorUnits) }
            subtotals = values(.subtotal)
            taxes = values(.tax)
            tendered = values(.tendered)
            changes = values(.change)
            roundings = values(.rounding)
            totals = e.amounts(withRole: .total)
            largestTotal = totals.map(\.value.minorUnits).max { abs($0) < abs($1) }
            lastTotalLine = totals.compactMap { $0.evidence?.line }.max()
            let moneyOnPage = e.amounts.filter { $0.role != AmountRole.tendered && $0.role != AmountRole.change }
            largest = moneyOnPage.map(\.value.minorUnits).max() ?? 0
            taxSum = taxes.reduce(0, +)
            tips = values(.tip).reduce(0, +)
            discounts = values(.discount).map { abs($0) }.reduce(0, +)
            var itemsByLine: [Int: Int64] = [:]
            for c in e.amounts where c.role == AmountRole.lineItem {
                if let ev = c.evidence { itemsByLine[ReceiptParser.key(ev)] = c.value.minorUnits }
            }
            self.itemsByLine = itemsByLine
            let subs = self.subtotals
            ratedTaxes = e.taxes.compactMap { t -> (Int64, Int64)? in
                guard let rate = t.rate.flatMap(Double.init) else { return nil }
                return subs.first { abs(Double($0) * rate / 100 - Double(t.amount.minorUnits)) <= 1 }.map { ($0, t.amount.minorUnits) }
            }
        }

        /// The sum of the item lines above a line (two at least), or nil.
        func itemSum(above key: Int?) -> Int64? {
            guard let key else { return nil }
            let above = itemsByLine.filter { $0.key < key }
            return above.count >= 2 ? above.values.reduce(0, +) : nil
        }

        /// The candidate with its score: the base its role gives, then the cross-checks' bonus.
        func scored(_ candidate: AmountCandidate) -> AmountCandidate {
            var c = candidate
            baseScore(&c)
            if c.score > 0 {
                let checks = crossChecks(c)
                // An unlabelled amount that the arithmetic confirms is a total whose label OCR lost.
                if checks.bonus > 0 && c.role == AmountRole.lineItem { c.score = max(c.score, W.confirmedUnlabelled) + checks.bonus }
                c.score += checks.bonus
                c.checks.formUnion(checks.identities.map(Check.arithmetic))
                c.notes += checks.notes
            }
            // Not capped at 1: when several checks agree the ranking must still tell them apart; the merge clamps.
            c.score = max(0, c.score)
            return c
        }

        /// The score a candidate's role gives before any cross-check (0: not a total).
        func baseScore(_ c: inout AmountCandidate) {
            let units = c.value.minorUnits
            switch c.role {
            case AmountRole.total:
                totalLineScore(&c)
            case AmountRole.lineItem:
                if totals.isEmpty && units == largest {
                    c.score = W.largestWithoutTotalLine
                    c.notes.append("largest amount, no total line")
                } else {
                    c.score = W.unlabelled
                }
            case AmountRole.tendered where totals.isEmpty && changes.allSatisfy({ $0 == 0 }):
                // "CASH RM 5.90" with no change and no total line: the payment is the total.
                c.score = W.paymentWithoutChange
                c.notes.append("payment without change, no total line")
            default:
                c.score = 0
            }
        }

        /// Whether a total's keyword (its `Check.keyword`) is a strong or tax-inclusive one, and a gross total's.
        static func keywordStrength(_ c: AmountCandidate) -> (strong: Bool, gross: Bool) {
            let strong = c.keyword.map { Keywords.strongTotal.words.contains($0) || Keywords.inclusive.words.contains($0) } ?? false
            let gross = c.keyword.map { Keywords.grossTotal.words.contains($0) } ?? false
            return (strong, gross)
        }

        /// A total line's score: its keyword's strength, and its place among the page's totals.
        func totalLineScore(_ c: inout AmountCandidate) {
            let units = c.value.minorUnits
            let (strong, gross) = TotalScoring.keywordStrength(c)
            c.score = strong ? W.strongKeyword : W.keyword
            // The gross total beats the amount due when both are printed (a prepayment was taken off).
            if gross {
                c.score += W.grossTotal
                c.notes.append("gross total")
            }
            if units == largestTotal && totals.count > 1 {
                c.score += W.largestOfTotals
                c.notes.append("largest of the totals")
            }
            if c.evidence?.line == lastTotalLine && totals.count > 1 {
                c.score += W.lastTotalLine
                c.notes.append("last total line")
            }
            if units == 0 {
                c.score -= W.zero
                c.notes.append("zero")
            }
        }

        /// The bonus of the cross-checks a candidate passes, summed in the order they are made, with their notes.
        struct Bonus {
            var bonus = 0.0
            /// The identities of the page's amounts that hold for the candidate: its checks.
            var identities: [ArithmeticIdentity] = []
            var notes: [String] = []
            mutating func confirm(_ weight: Double, _ identity: ArithmeticIdentity) {
                bonus += weight
                identities.append(identity)
                notes.append(identity.rawValue)
            }
            mutating func add(_ weight: Double, _ note: String) {
                bonus += weight
                notes.append(note)
            }
            mutating func subtract(_ weight: Double, _ note: String) {
                bonus -= weight
                notes.append(note)
            }
        }

        func crossChecks(_ c: AmountCandidate) -> Bonus {
            var b = Bonus()
            sumChecks(c, &b)
            roundingChecks(c, &b)
            if c.value.minorUnits > 0, tendered.contains(where: { t in changes.contains { t - $0 == c.value.minorUnits } }) {
                b.confirm(W.tenderedMinusChange, .tenderedMinusChange)
            }
            roundedLaterCheck(c, &b)
            return b
        }

        /// Subtotal + tax (+ tip − discount) = total, and the item lines summing to it.
        func sumChecks(_ c: AmountCandidate, _ b: inout Bonus) {
            let units = c.value.minorUnits
            if units != 0, subtotals.contains(where: { s in taxes.contains { s + $0 == units } || (taxes.count > 1 && s + taxSum == units) }) {
                b.confirm(W.subtotalPlusTax, .subtotalPlusTax)
                if ratedTaxes.contains(where: { $0.0 + $0.1 == units }) {
                    b.confirm(W.taxIsRateTimesNet, .taxIsRateTimesNet)
                }
                if let sum = itemSum(above: c.evidence.map(ReceiptParser.key)),
                    subtotals.contains(where: { s in s == sum && taxes.contains { s + $0 == units } })
                {
                    b.confirm(W.itemsSumToSubtotal, .itemsSumToSubtotal)
                }
            } else if units != 0, tips != 0 || discounts != 0, subtotals.contains(where: { $0 + taxSum + tips - discounts == units }) {
                b.confirm(W.subtotalTaxTipDiscount, .subtotalTaxTipDiscount)
            }
            // Only for the largest total: items summing to a smaller "total" above a larger one make it a subtotal
            // (a service charge or tax follows).
            if units > 0, c.role != AmountRole.lineItem, largestTotal.map({ abs(units) >= abs($0) }) ?? true,
                let sum = itemSum(above: c.evidence.map(ReceiptParser.key)),
                sum == units || (subtotals.isEmpty && sum - discounts == units)
            {
                b.confirm(W.itemsSumToTotal, .itemsSumToTotal)
            }
        }

        /// A total that rounds an earlier one (by a rounding line, or a few cents onto a 5-cent step), and one
        /// that a later total rounds.
        func roundingChecks(_ c: AmountCandidate, _ b: inout Bonus) {
            let units = c.value.minorUnits
            // Rounding (to 5 cents in Malaysia, Switzerland, …) comes after the total it rounds: the later total wins.
            if units != 0, let line = c.evidence.map({ ($0.page, $0.line) }),
                totals.contains(where: { t in
                    guard let tl = t.evidence.map({ ($0.page, $0.line) }), tl < line else { return false }
                    return roundings.contains {
                        t.value.minorUnits + $0 == units || t.value.minorUnits - abs($0) == units || t.value.minorUnits + abs($0) == units
                    }
                })
            {
                b.confirm(W.totalPlusRounding, .totalPlusRounding)
            }
            // A later total a few cents from an earlier one, on a 5-cent step, is that total rounded (the rounding
            // line itself may be misread): the amount paid. The earlier one is the total before rounding.
            if units > 0, units % 5 == 0, let line = c.evidence.map({ ($0.page, $0.line) }),
                totals.contains(where: { t in
                    guard let tl = t.evidence.map({ ($0.page, $0.line) }), tl < line else { return false }
                    let d = abs(t.value.minorUnits - units)
                    return d > 0 && d < 5 && t.value.minorUnits % 5 != 0
                })
            {
                b.add(W.roundedFromTotalAbove, "rounded from the total above")
            }
            if units > 0, units % 5 != 0, let line = c.evidence.map({ ($0.page, $0.line) }),
                totals.contains(where: { t in
                    guard let tl = t.evidence.map({ ($0.page, $0.line) }), tl > line else { return false }
                    let d = abs(t.value.minorUnits - units)
                    return d > 0 && d < 5 && t.value.minorUnits % 5 == 0
                })
            {
                b.subtract(W.roundedBelow, "rounded below")
            }
        }

        /// A total that a later line rounds ("Total incl. GST 112.36", "Rounding -0.01", "TOTAL 112.35") is
        /// not the amount paid.
        func roundedLaterCheck(_ c: AmountCandidate, _ b: inout Bonus) {
            let units = c.value.minorUnits
            if units != 0, let line = c.evidence.map({ ($0.page, $0.line) }),
                totals.contains(where: { t in
                    guard let tl = t.evidence.map({ ($0.page, $0.line) }), tl > line, t.value.minorUnits != units else { return false }
                    return roundings.contains {
                        $0 != 0
                            && (units + $0 == t.value.minorUnits || units - abs($0) == t.value.minorUnits || units + abs($0) == t.value.minorUnits)
                    }
                })
            {
                b.subtract(W.beforeRounding, "before rounding")
            }
        }
    }

    /// True when OCR could have read `truth` as `read`: one more digit in front ("$8.20" → "98.20"),
    /// or one digit different.
    static func ocrNear(_ read: String, _ truth: String) -> Bool {
        if read.count == truth.count + 1 && read.hasSuffix(truth) { return true }
        // A few cents apart is rounding (to 5 cents), not a misread.
        if let r = Int(read), let t = Int(truth), abs(r - t) <= 4 { return false }
        guard read.count == truth.count, read != truth else { return false }
        return zip(read, truth).filter { $0 != $1 }.count == 1
    }

    func taxReadings(_ lines: [Line]) -> [TaxReading] {
        var out: [TaxReading] = []
        for line in lines where !line.amounts.isEmpty {
            guard line.role.0 == .tax else { continue }
            let all = line.amounts
            guard let amount = all.last(where: { !$0.isRate }) else { continue }
            let rate =
                all.first(where: \.isRate).map { Money.decimalString(minorUnits: $0.reading.minorUnits, digits: 2) }
                ?? ReceiptParser.integerPercent(in: line.text)
            out.append(TaxReading(rate: rate.map(ReceiptParser.trimRate), amount: amount.reading))
        }
        return out
    }

    static func integerPercent(in text: String) -> String? {
        let chars = Array(text)
        guard let pct = chars.firstIndex(of: "%") else { return nil }
        var j = pct
        while j > 0 && chars[j - 1] == " " { j -= 1 }
        var s = j
        while s > 0 && chars[s - 1].isASCII && chars[s - 1].isNumber { s -= 1 }
        return s < j ? String(chars[s..<j]) : nil
    }

    static func trimRate(_ rate: String) -> String {
        guard rate.contains(".") else { return rate }
        var r = rate
        while r.hasSuffix("0") { r.removeLast() }
        if r.hasSuffix(".") { r.removeLast() }
        return r
    }
}
