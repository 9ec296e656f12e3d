import ShoeboxCore
internal import ShoeboxReading

/// Amounts: every amount on the page with the role its line gives it, then the scores of the total
/// candidates from keyword strength, position, size and the arithmetic cross-checks.
extension ReceiptParser {
    /// The role of the amounts on a line, from its words. Order matters: the first rule that fits wins.
    static func role(of folded: String) -> (AmountRole?, String?) {
        func has(_ list: KeywordList) -> String? { list.first(in: folded) }
        // Counts, not money: "Total Qty: 3.00", "No. of items 2".
        if let k = has(Keywords.count), has(Keywords.strongTotal) == nil { return (nil, k) }
        let totalWord = has(Keywords.total) ?? misreadTotalWord(folded)
        let exclusive = has(Keywords.exclusive)
        if let k = has(Keywords.adjustments) { return (.discount, k) }
        // "ub- Total RM7.90", "Sun- Tota | RM7.90": a sub-total whose "Sub" OCR damaged is no total.
        if totalWord != nil, let k = misreadSubWord(folded) { return (.subtotal, k) }
        if totalWord != nil, has(Keywords.strongTotal) == nil, has(Keywords.inclusive) == nil, namesOneCharge(folded) { return (.lineItem, nil) }
        // "Net à payer" and "Net Total" are totals although they hold "net".
        if let k = has(Keywords.strongTotal), exclusive.map({ k.contains($0) }) ?? true { return (.total, k) }
        // "Total Ammt Psyable": the word that says it is what was paid, one letter misread, beside a total word.
        if totalWord != nil, exclusive == nil, let k = misreadPaidWord(folded) { return (.total, k) }
        if totalWord != nil, exclusive == nil, let k = has(Keywords.inclusive) ?? misreadInclWord(folded) { return (.total, k) }
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

    /// The letters OCR reads for each letter of "total" in receipt print: "Tetel", "Fotal", "Tota]", "T0tal", and in
    /// narrow sans-serif print T as I and O as U ("IUIAL").
    static let totalLookalikes: [Set<Character>] = [
        ["t", "f", "i"], ["o", "e", "0", "a", "u"], ["t", "f", "i"], ["a", "e", "o"], ["l", "1", "i", "|", "]", "!"]
    ]

    /// A word of the line that is "total" with a letter or two misread the way OCR misreads print ("Tetel Sales
    /// (inclusive GST) RM 11.50"): without it the line reads as a tax line or an item. Only the first word of the
    /// line, where a total's label stands; a word that is "total" spelt right is found by the keyword list.
    static func misreadTotalWord(_ folded: String) -> String? {
        let tokens = folded.split(separator: " ")
        guard let first = tokens.first else { return nil }
        let word = Array(first.drop { $0 == "|" || $0 == "'" }.prefix { $0 != ":" && $0 != "." && $0 != "(" })
        if word.count == 5, String(word) != "total", zip(word, totalLookalikes).allSatisfy({ $1.contains($0) }) {
            return "total (read '\(String(word))')"
        }
        return splitTotalWord(tokens)
    }

    /// The first word of the line with its last letter split off into a word of its own, the way OCR splits
    /// widely spaced print ("Tota | RM7.00", "Tota 1 M7.00", "Summ e 7,00", "Jumla h RM7.00"): joined, a total word
    /// of the keyword list, or "tota" and a letter OCR reads for the "l" ("|", "1", "]"). The split-off letter may be
    /// followed by ":" ("Tota l: 7.00").
    static func splitTotalWord(_ tokens: [Substring]) -> String? {
        guard tokens.count >= 2 else { return nil }
        let head = tokens[0].drop { $0 == "|" || $0 == "'" }
        let tail = tokens[1].hasSuffix(":") ? tokens[1].dropLast() : tokens[1]
        guard head.count >= 3, head.allSatisfy(\.isLetter), tail.count == 1, let last = tail.first, !last.isNumber || last == "1" else { return nil }
        let joined = String(head) + String(last)
        if Keywords.total.words.contains(joined) || Keywords.strongTotal.words.contains(joined) { return "\(joined) (read '\(head) \(last)')" }
        guard head == "tota", totalLookalikes[4].contains(last) else { return nil }
        return "total (read '\(head) \(last)')"
    }

    /// The first word of the line is "sub-", also with a letter misread or lost ("ub-", "sun-", "5ub-", "su8-"), and the
    /// next is a total word ("Sub- Total", which the keyword "sub-total" does not match for the space): the keyword as
    /// read ("sub-total (read 'ub-')"). The hyphen is what tells it from a word.
    static func misreadSubWord(_ folded: String) -> String? {
        let tokens = folded.split(separator: " ")
        guard tokens.count >= 2, let first = tokens.first?.drop(while: { $0 == "|" || $0 == "'" }), first.hasSuffix("-"),
            first.count >= 3, first.count <= 5
        else { return nil }
        let word = Array(first.dropLast())
        guard editDistance(word, Array("sub")) <= 1 || [Array("5ub"), Array("su8"), Array("s0b")].contains(word),
            tokens[1].hasPrefix("tot") || tokens[1].hasPrefix("tota")
        else { return nil }
        return "sub-total (read '\(String(first))')"
    }

    /// The one-word labels of a strong total that OCR misreads by a letter ("Psyable", "Payabie", "dibayer").
    static let paidWords = ["payable", "dibayar", "rounded", "bezahlen"].map { Array($0) }

    /// A word of the line one letter (replaced, lost or added) from a word of `paidWords`, and not that word: the
    /// keyword as read ("payable (read 'psyable')").
    static func misreadPaidWord(_ folded: String) -> String? {
        for token in folded.split(whereSeparator: { !$0.isLetter }) where (6...9).contains(token.count) {
            let t = Array(token)
            for word in paidWords where t != word && abs(t.count - word.count) <= 1 && editDistance(t, word) <= 1 {
                return "\(String(word)) (read '\(String(t))')"
            }
        }
        return nil
    }

    /// "Incl" with its first or last letter misread the way OCR misreads "l" and "i" ("Inci", "lncl", "Inc1", "Inc|"),
    /// as a word of its own (a dot may follow): the keyword as read ("incl (read 'inci')").
    static func misreadInclWord(_ folded: String) -> String? {
        for token in folded.split(whereSeparator: { $0 == " " || $0 == "." || $0 == "," || $0 == ":" }) where token.count == 4 {
            let t = Array(token)
            guard t[1] == "n", t[2] == "c", "il1|".contains(t[0]), "il1|!".contains(t[3]), String(t) != "incl" else { continue }
            return "incl (read '\(String(t))')"
        }
        return nil
    }

    /// Words for a charge on top of the goods: "Total loading charges", "Total delivery fee".
    static let chargeWords: Set<Substring> = ["charge", "charges", "chg", "fee", "fees", "surcharge"]

    /// "TOTAL LOADING CHARGES 6.00", "Total service charge 6.25": a word between the total word and a charge word
    /// names one charge of the bill, totalled; it is not what the bill comes to. "Total charges" is left a total.
    static func namesOneCharge(_ folded: String) -> Bool {
        let words = folded.split { !$0.isLetter }
        guard let t = words.firstIndex(of: "total") else { return false }
        return words[(t + 1)...].prefix(3).dropFirst().contains { chargeWords.contains($0) }
    }

    /// The largest rounding adjustment in use (Swiss and Malaysian 5-cent rounding moves at most 2–3 cents;
    /// some tills round to 50 cents), in minor units.
    static let largestRounding: Int64 = 50

    /// The steps cash is rounded to, in minor units: 5 cents (Malaysia, Switzerland, …), 10 cents, 50 cents and
    /// whole units (Sweden, India).
    static let roundingSteps: [Int64] = [5, 10, 50, 100]

    /// Rounding to 5 cents moves an amount by at most this many cents.
    static let fiveCentRoundingMove: Int64 = 2

    /// A rounding line rounds a total printed at most this many lines above it (its label may be lost).
    static let roundedLinesAbove = 3

    /// The rows of a tax summary table: this many lines below its heading.
    static let taxSummaryRows = 6

    /// The heading of a tax summary table ("GST Summary Amount(RM) Tax(RM)", "TaxCode % Amount GST",
    /// "MwSt-Satz Netto MwSt"): a line without amounts that names a tax and a summary or an amount column, and
    /// no item column (an item table's "Qty Price Total Tax" heads the items, not a summary).
    /// A label for the amount on the next line ("Total GST:", "Total incl. GST") is no heading.
    static func isTaxSummaryHeading(_ folded: String) -> Bool {
        guard Keywords.tax.any(in: folded), !Keywords.count.any(in: folded), !Keywords.itemColumns.any(in: folded) else { return false }
        if Keywords.summary.any(in: folded) { return true }
        guard Keywords.total.any(in: folded) || Keywords.exclusive.any(in: folded) else { return false }
        return !folded.hasSuffix(":") && role(of: folded).0 != .total
    }

    func amountCandidates(_ lines: [Line]) -> [AmountCandidate] {
        var out: [AmountCandidate] = []
        var pendingRole: (AmountRole, String, Int, String)?
        // The last line (`order`) of the tax summary table being read, if any.
        var summaryEnd = -1
        for line in lines {
            let found = line.amounts.filter { !$0.isRate }
            // A tax summary table's heading names columns, not the amount of the line below ("Amount (RM) Tax (RM)"
            // above "SR 6% 6.70 0.38"): it gives no role, and the table's total row sums its columns.
            if found.isEmpty && ReceiptParser.isTaxSummaryHeading(line.folded) {
                summaryEnd = line.order + ReceiptParser.taxSummaryRows
                pendingRole = nil
                continue
            }
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
                if let keyword, lineRole != .lineItem, short { pendingRole = (lineRole, keyword, line.order, line.folded) } else { pendingRole = nil }
                continue
            }
            var role = lineRole
            var notes: [String] = []
            var checks: Set<Check> = []
            var label = line.folded
            if let keyword, lineRole != .lineItem {
                notes.append("keyword '\(keyword)'")
                checks.insert(.keyword(keyword))
            }
            // Only a line of one amount is the label's value: a row of several ("SR (@6%) 6.70 0.38" below a column
            // heading "Amount (RM)") is a table's.
            if lineRole == .lineItem, found.count == 1, let (pending, k, at, above) = pendingRole, at == line.order - 1 {
                role = pending
                notes.append("keyword '\(k)' on the line above")
                checks.insert(.keyword(k))
                label = above
            }
            // "Total 6% supplies (Inc. GST)" reads as a tax line for its "GST": a rate's total all the same (an
            // adjustment note's negative one adjusts the payable, `TotalScoring.adjustments`), its label on the line
            // above too.
            if role == .total || (role == .tax && Keywords.total.any(in: label)), ReceiptParser.namesOneRate(label) {
                checks.insert(.rateBand)
            }
            pendingRole = nil
            // Several labelled amounts on one line ("TOTAL HT 100,00 TOTAL TVA 20,00 TOTAL 120,00 TTC"): each takes
            // the role of its own label. Otherwise the amount that counts is the right-most one (the column of prices).
            let own = found.count >= 2 ? ReceiptParser.ownRoles(line.amountText, found) : []
            let labelled = own.filter { $0.0 != nil && $0.0 != .lineItem }.count >= 2
            if role == .total, line.order <= summaryEnd, let columns = ReceiptParser.summaryColumns(found.map(\.reading.minorUnits)) {
                for (f, r) in zip(found, columns) {
                    out.append(
                        Candidate(
                            value: f.reading, role: r, score: 0, evidence: line.evidence, checks: [],
                            notes: ["total row of a tax summary table: its \(r == .tax ? "tax" : r == .subtotal ? "net" : "gross") column"]))
                }
                continue
            }
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
                // A negative one that large adjusts the total ("Adjustment -5.30" on an adjustment note): no total.
                if effectiveRole == .rounding && abs(f.reading.minorUnits) > ReceiptParser.largestRounding {
                    effectiveRole = f.reading.minorUnits < 0 ? .discount : .total
                    n.append(
                        f.reading.minorUnits < 0
                            ? "too large for a rounding, and negative: an adjustment" : "too large for a rounding: the rounded total")
                }
                out.append(Candidate(value: f.reading, role: effectiveRole, score: 0, evidence: line.evidence, checks: c, notes: n))
            }
            _ = lineRole
        }
        return out
    }

    /// The roles of a tax summary table's total row by its arithmetic: net and tax ("Total : 10.94 0.66", the tax at
    /// most `largestTaxShare` of the net), or net, tax and gross (the first two summing to the third). Nil when the
    /// amounts are neither: the row is then read like any total line.
    static func summaryColumns(_ amounts: [Int64]) -> [AmountRole]? {
        let n = amounts.count
        guard n >= 2 else { return nil }
        if n >= 3, amounts[n - 3] + amounts[n - 2] == amounts[n - 1], amounts[n - 2] >= 0 {
            return Array(repeating: .lineItem, count: n - 3) + [.subtotal, .tax, .total]
        }
        let (net, tax) = (amounts[n - 2], amounts[n - 1])
        guard net > 0, tax >= 0, Double(tax) <= Double(net) * ReceiptParser.largestTaxShare else { return nil }
        return Array(repeating: .lineItem, count: n - 2) + [.subtotal, .tax]
    }

    /// No tax rate in use anywhere exceeds 27 % of the net: a larger "tax" is no tax of that net.
    static let largestTaxShare = 0.3

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
            if let paid = paidAfterRounding(units, how, e, page) {
                e.amounts.append(paid.candidate(hint: hint, evidence: evidence))
                continue
            }
            // A total printed the same on two lines of the page ("Total 3.00", "Final Total 3.00") is no misread:
            // then the tendered or change line is the one misread ("CASH 3.06"), and the computed value stays a
            // weak candidate (its disagreement sends the record to review as arithmetic-mismatch). Nor is a total
            // that rounds an earlier one: the rounding confirms its digits.
            let misread = totals.first { t in
                ReceiptParser.ocrNear(String(t.value.minorUnits), String(units))
                    && Set(totals.filter { $0.value.minorUnits == t.value.minorUnits }.compactMap { $0.evidence.map(ReceiptParser.key) }).count < 2
                    && !page.roundsAnEarlierAmount(t) && !page.roundsAnEarlierTotal(t)
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

    /// A computed total that is the amount paid after a rounding no line prints (or prints readably): the total
    /// above a rounding line rounded by it, or tendered − change a few cents from a total off the 5-cent step and
    /// on it. It beats the total it rounds, and tendered − change agreeing confirms it.
    struct PaidAfterRounding {
        let units: Int64
        let how: Computation
        let before: AmountCandidate
        let paymentAgrees: Bool

        func candidate(hint: String?, evidence: Evidence?) -> AmountCandidate {
            var checks: Set<Check> = [.computed(how)]
            var notes = [
                Check.computed(how).note!,
                "the total line reads \(Money.decimalString(minorUnits: before.value.minorUnits, digits: 2)) before rounding"
            ]
            // Read off a rounding line, the rounding is sure; seen only in the payment, it may be a misread change:
            // then the amount stays within the ambiguity margin of the total line, and a person looks.
            var score = before.score + (how == .totalPlusRounding ? TotalWeights.paidAfterRounding : TotalWeights.paidAfterUnreadRounding)
            if paymentAgrees && how != .tenderedMinusChange {
                checks.insert(.arithmetic(.tenderedMinusChange))
                notes.append(ArithmeticIdentity.tenderedMinusChange.rawValue)
                score += TotalWeights.tenderedMinusChange
            }
            return Candidate(
                value: AmountReading(minorUnits: units, fractionDigits: 2, currencyHint: hint ?? before.value.currencyHint),
                role: AmountRole.total, score: score, evidence: evidence, checks: checks, notes: notes)
        }
    }

    /// The total line a computed total rounds, when it is the amount paid after rounding; nil otherwise (then the
    /// computed total is weighed as a possible misread, `addComputedTotals`).
    static func paidAfterRounding(_ units: Int64, _ how: Computation, _ e: Extraction, _ page: TotalScoring) -> PaidAfterRounding? {
        let totals = e.amounts.filter { $0.role == AmountRole.total && $0.score > 0 && !$0.computed }
        let before: AmountCandidate?
        switch how {
        case .totalPlusRounding:
            before = totals.filter { t in
                !page.nets.contains(t.value.minorUnits)
                    && page.roundings.contains { TotalScoring.paidAfterRounding(t.value.minorUnits, by: $0.amount) == units }
            }.max { $0.score < $1.score }
        case .tenderedMinusChange:
            // 5-cent rounding moves a total by at most 2 cents; a change misread by more is no rounding.
            before =
                units % 5 != 0
                ? nil
                : totals.filter { t in
                    let d = abs(t.value.minorUnits - units)
                    return d > 0 && d <= ReceiptParser.fiveCentRoundingMove && t.value.minorUnits % 5 != 0
                }.max { $0.score < $1.score }
        default:
            before = nil
        }
        guard let before else { return nil }
        let paymentAgrees = page.tendered.contains { t in page.changes.contains { t - $0 == units } }
        return PaidAfterRounding(units: units, how: how, before: before, paymentAgrees: paymentAgrees)
    }

    /// Whether a tax line says its tax is included in the amounts ("Incl. GST", "inkl. MwSt", "INC 6% GST", "IVA
    /// incluido", "termasuk"): "inc" counts as a word of its own, a tax line being no company's name.
    static func saysTaxIncluded(_ folded: String) -> Bool {
        Keywords.inclusive.any(in: folded) || Keywords.includedShort.any(in: folded)
    }

    /// The totals the arithmetic gives: each total above a rounding line rounded by it, each tendered − change,
    /// each subtotal + tax (+ tips − discounts). The rounding first: where tendered − change gives the same amount,
    /// it confirms the rounding.
    static func computedTotals(_ e: Extraction, _ page: TotalScoring) -> [(Int64, Evidence?, Computation, String?)] {
        var computed: [(Int64, Evidence?, Computation, String?)] = []
        // The last total above the rounding line (not a net), and only where no total line below it prints the
        // result (read or misread): that line is the amount paid, and the cross-checks weigh it.
        let placed = page.totals.compactMap { t in t.evidence.map { (total: t, line: ReceiptParser.key($0)) } }
        for r in page.roundings where r.amount != 0 && abs(r.amount) <= ReceiptParser.largestRounding {
            let above = placed.filter { $0.line < r.line && $0.total.value.minorUnits > 0 && !page.nets.contains($0.total.value.minorUnits) }
            guard !placed.contains(where: { $0.line > r.line }), let t = above.max(by: { $0.line < $1.line })?.total,
                let paid = TotalScoring.paidAfterRounding(t.value.minorUnits, by: r.amount)
            else { continue }
            computed.append((paid, r.evidence, .totalPlusRounding, t.value.currencyHint))
        }
        for t in e.amounts(withRole: .tendered) {
            for ch in e.amounts(withRole: .change) where t.value.minorUnits - ch.value.minorUnits > 0 {
                computed.append((t.value.minorUnits - ch.value.minorUnits, ch.evidence, .tenderedMinusChange, t.value.currencyHint))
            }
        }
        // A tax its line says is included ("INC 6% GST 1.62", "inkl. MwSt 1,60") is already in the amounts above it.
        let added = e.amounts(withRole: .tax).filter { t in t.evidence.map { !ReceiptParser.saysTaxIncluded(TextFolding.fold($0.text)) } ?? true }
        // A page that prints its tax per rate ("MwSt 7% 0,24", "MwSt 19% 0,30"; TVA 5,5 % and 20 %): the subtotal plus
        // one rate's tax is no total. When the subtotal plus every tax line (each line once) is a total the page
        // reads, one rate's sum is not proposed; else the sum of all lines is proposed beside each rate's.
        // In page order: the sum's evidence is the first tax line, whatever order a dictionary keeps.
        let perLine = Dictionary(grouping: added.filter { $0.evidence != nil }, by: { ReceiptParser.key($0.evidence!) })
            .sorted { $0.key < $1.key }.compactMap { $0.value.first }
        let allLines = perLine.count >= 2 ? perLine.reduce(Int64(0)) { $0 + $1.value.minorUnits } : nil
        let extra = page.tips - page.discounts
        let how: Computation = extra == 0 ? .subtotalPlusTax : .subtotalTaxTipDiscount
        for s in e.amounts(withRole: .subtotal) {
            if let allLines {
                // With the tips and discounts, or without them (a member's discount already inside the net).
                let sum = s.value.minorUnits + allLines + extra
                let sums = [sum, s.value.minorUnits + allLines]
                if page.totals.contains(where: { sums.contains($0.value.minorUnits) }) { continue }
                if sum > 0 { computed.append((sum, perLine.first?.evidence, how, s.value.currencyHint)) }
            }
            for t in added where s.value.minorUnits + t.value.minorUnits > 0 {
                computed.append((s.value.minorUnits + t.value.minorUnits + extra, t.evidence, how, s.value.currencyHint))
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
        /// The total candidates before scoring.
        let totals: [AmountCandidate]
        let largestTotal: Int64?
        let lastTotalLine: Int?
        /// The largest amount that is neither tendered nor change.
        let largest: Int64
        let taxSum: Int64
        let tips: Int64
        /// Each tip amount the page prints (a tip printed twice, on the slip and the Bewirtungsbeleg, is one tip).
        let tipAmounts: Set<Int64>
        let discounts: Int64
        /// The line items the reader proved by the page's arithmetic (`readItems`): what their sum matched, for "items sum
        /// to …".
        let items: ItemsReading?
        /// The right-most amount of each line without a role (a price column): a column sum where the reader proved none.
        let itemsByLine: [Int: Int64]
        /// Tax lines whose rate times some net gives their amount (to the cent): "MwSt 19 % 3,74" of "Netto 19,71".
        let ratedTaxes: [(Int64, Int64)]
        /// Totals that are an invoice's net: with a tax of the page they make an amount printed below them
        /// ("Total 100,00" / "TVA 20,00" / "Total TTC 120,00" with "HT" lost or never printed).
        let nets: Set<Int64>
        /// Each rounding line (its amount and place) with the amounts it may round: the totals and subtotals above
        /// it, and any amount on the few lines right above it (a total whose label OCR lost).
        let roundings: [Rounding]
        /// The totals of each tax rate's line, when an invoice prints one per rate (`rateBandCheck`).
        let rateBands: [(line: Int, value: Int64)]
        /// The adjustments of the page's totals (`adjustments`), and the totals and subtotals they may adjust.
        let adjustments: [(line: Int, value: Int64)]
        let adjusted: [(line: Int, value: Int64)]

        struct Rounding {
            let amount: Int64
            let line: Int
            let evidence: Evidence?
            let before: [(value: Int64, line: Int)]
        }

        init(_ e: Extraction) {
            func values(_ role: AmountRole) -> [Int64] { e.amounts(withRole: role).map(\.value.minorUnits) }
            subtotals = values(.subtotal)
            taxes = values(.tax)
            tendered = values(.tendered)
            changes = values(.change)
            totals = e.amounts(withRole: .total)
            largestTotal = totals.map(\.value.minorUnits).max { abs($0) < abs($1) }
            lastTotalLine = totals.compactMap { $0.evidence?.line }.max()
            let moneyOnPage = e.amounts.filter { $0.role != AmountRole.tendered && $0.role != AmountRole.change }
            largest = moneyOnPage.map(\.value.minorUnits).max() ?? 0
            taxSum = taxes.reduce(0, +)
            tips = values(.tip).reduce(0, +)
            tipAmounts = Set(values(.tip).filter { $0 > 0 })
            discounts = values(.discount).map { abs($0) }.reduce(0, +)
            var itemsByLine: [Int: Int64] = [:]
            for c in e.amounts where c.role == AmountRole.lineItem {
                if let ev = c.evidence { itemsByLine[ReceiptParser.key(ev)] = c.value.minorUnits }
            }
            self.itemsByLine = itemsByLine
            items = e.items.flatMap { $0.check.proven && $0.target != nil ? $0 : nil }
            let nets = TotalScoring.nets(e, totals: totals, taxes: taxes)
            self.nets = nets
            let subs = self.subtotals + nets
            ratedTaxes = e.taxes.compactMap { t -> (Int64, Int64)? in
                guard let rate = t.rate.flatMap(Double.init) else { return nil }
                return subs.first { abs(Double($0) * rate / 100 - Double(t.amount.minorUnits)) <= 1 }.map { ($0, t.amount.minorUnits) }
            }
            roundings = TotalScoring.roundings(e)
            rateBands = TotalScoring.rateBands(e)
            adjustments = TotalScoring.adjustments(e)
            adjusted = e.amounts.compactMap { a in
                guard a.role == AmountRole.total || a.role == AmountRole.subtotal, !a.computed, a.value.minorUnits > 0,
                    let ev = a.evidence
                else { return nil }
                return (line: ReceiptParser.key(ev), value: a.value.minorUnits)
            }
        }

        /// The totals that, with one tax of the page (or all of them), make an amount printed on a later line: the
        /// net of an invoice whose gross follows. The tax is at most `largestTaxShare` of the net.
        static func nets(_ e: Extraction, totals: [AmountCandidate], taxes: [Int64]) -> Set<Int64> {
            let roundings = e.amounts(withRole: .rounding).map(\.value.minorUnits).filter { abs($0) <= ReceiptParser.largestRounding }
            let below = e.amounts.filter { $0.role == AmountRole.total || $0.role == AmountRole.lineItem }
            let positive = taxes.filter { $0 > 0 }
            var out = Set<Int64>()
            for n in totals {
                let v = n.value.minorUnits
                guard v > 0, let line = n.evidence.map(ReceiptParser.key) else { continue }
                let share = positive.filter { Double($0) <= Double(v) * ReceiptParser.largestTaxShare }
                let sums = share.map { v + $0 } + (share.count > 1 ? [v + share.reduce(0, +)] : [])
                // The gross may be printed rounded ("Total 155.50", "GST 9.31", "Rounding -0.01", "Total 164.80").
                let grosses = Set(sums + sums.flatMap { s in roundings.flatMap { TotalScoring.rounded(s, by: $0) } })
                if below.contains(where: { g in
                    grosses.contains(g.value.minorUnits) && (g.evidence.map(ReceiptParser.key).map { $0 >= line } ?? false)
                }) {
                    out.insert(v)
                }
            }
            return out
        }

        /// The rounding lines of a page, each with the amounts above it that it may round.
        static func roundings(_ e: Extraction) -> [Rounding] {
            e.amounts(withRole: .rounding).compactMap { r -> Rounding? in
                guard let line = r.evidence.map(ReceiptParser.key) else { return nil }
                let before = e.amounts.compactMap { a -> (value: Int64, line: Int)? in
                    guard let l = a.evidence.map(ReceiptParser.key), l < line else { return nil }
                    // Right above the rounding, the total it rounds may have lost its label or read as a tax line
                    // ("Tota] (Inclusive of GST): 31.02").
                    switch a.role {
                    case AmountRole.total, AmountRole.subtotal: return (a.value.minorUnits, l)
                    case AmountRole.lineItem where line - l <= ReceiptParser.roundedLinesAbove,
                        AmountRole.tax where line - l <= ReceiptParser.roundedLinesAbove:
                        return (a.value.minorUnits, l)
                    default: return nil
                    }
                }
                return Rounding(amount: r.value.minorUnits, line: line, evidence: r.evidence, before: before)
            }
        }

        /// The values a rounding may make of an amount: its printed sign is not trusted ("Rounding 0.02-" beside a
        /// total rounded up), so both ways.
        static func rounded(_ amount: Int64, by rounding: Int64) -> [Int64] {
            rounding == 0 ? [] : [amount + rounding, amount - rounding]
        }

        /// The amount a rounding makes of a total when no line prints it: the printed sign when that lands on a
        /// rounding step, else the other way when that does; nil when neither does (the rounding line misread: a
        /// rounding moves an amount by at most half its step, so "0.07" of 20.03 rounds to nothing).
        static func paidAfterRounding(_ amount: Int64, by rounding: Int64) -> Int64? {
            [amount + rounding, amount - rounding].first { v in
                v > 0 && rounding != 0 && ReceiptParser.roundingSteps.contains { $0 >= 2 * abs(rounding) && v % $0 == 0 }
            }
        }

        /// Whether a candidate is an earlier amount after a rounding line's adjustment.
        func roundsAnEarlierAmount(_ c: AmountCandidate) -> Bool {
            let units = c.value.minorUnits
            guard units != 0, let line = c.evidence.map(ReceiptParser.key) else { return false }
            return roundings.contains { r in
                r.before.contains { p in p.line < line && p.value != units && TotalScoring.rounded(p.value, by: r.amount).contains(units) }
            }
        }

        /// Whether a candidate on a 5-cent step is a few cents from an earlier total off the step: that total
        /// rounded, the rounding line itself unread or misread.
        func roundsAnEarlierTotal(_ c: AmountCandidate) -> Bool {
            let units = c.value.minorUnits
            guard units > 0, units % 5 == 0, let line = c.evidence.map({ ($0.page, $0.line) }) else { return false }
            return totals.contains { t in
                guard let tl = t.evidence.map({ ($0.page, $0.line) }), tl < line else { return false }
                let d = abs(t.value.minorUnits - units)
                return d > 0 && d < 5 && t.value.minorUnits % 5 != 0
            }
        }

        /// The sum of the item lines above a line (two at least), or nil.
        func itemSum(above key: Int?) -> Int64? {
            guard let key else { return nil }
            let above = itemsByLine.filter { $0.key < key }
            return above.count >= 2 ? above.values.reduce(0, +) : nil
        }

        /// Whether the price column above the line sums to the total (with the page's discounts when it prints no subtotal).
        func columnSumMakes(_ units: Int64, above key: Int?) -> Bool {
            guard let sum = itemSum(above: key) else { return false }
            return sum == units || (subtotals.isEmpty && sum - discounts == units)
        }

        /// The subtotal the proven items sum to, or nil.
        var itemsSubtotal: Int64? { items?.check == .subtotal ? items?.target : nil }

        /// Whether the proven items make this total: they sum to it, or to it less the charges the page prints.
        func itemsMake(_ units: Int64) -> Bool {
            guard let items, items.check == .total || items.check == .totalLessCharges else { return false }
            return items.target == units
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
            let strong =
                c.keyword.map { k in
                    Keywords.strongTotal.words.contains(k) || Keywords.inclusive.words.contains(k)
                        || ReceiptParser.paidWords.contains { k.hasPrefix(String($0) + " (read '") }
                } ?? false
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
            if nets.contains(units) {
                c.score -= W.netOfALaterTotal
                c.notes.append("net: with the tax it makes an amount below")
            }
            if !strong, oneRatesTotalBesideTheGrandTotal(c) {
                c.score -= W.oneRatesTotal
                c.notes.append("the total of one tax rate: another total is what the page comes to")
            }
        }

        /// A total line of one tax rate or code (`Check.rateBand`) on a page with another positive total that is no
        /// rate's total and stands below it or is labelled as what is payable ("Total payable", "Zu zahlen",
        /// "Jumlah perlu dibayar"): that one is the grand total. Printed twice, the rate's total is no surer.
        /// On an adjustment note whose returns outweigh its sales what is payable is negative ("Total payable: -1.73"):
        /// labelled so, it is the grand total too (a negative total with a weak label may be a rate's or a return's).
        func oneRatesTotalBesideTheGrandTotal(_ c: AmountCandidate) -> Bool {
            guard c.checks.contains(.rateBand), let line = c.evidence.map(ReceiptParser.key) else { return false }
            return totals.contains { t in
                guard t.value.minorUnits != 0, !t.checks.contains(.rateBand), let tl = t.evidence.map(ReceiptParser.key), tl != line else {
                    return false
                }
                let strong = TotalScoring.keywordStrength(t).strong
                return t.value.minorUnits > 0 ? tl > line || strong : strong
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
            rateBandCheck(c, &b)
            adjustmentCheck(c, &b)
            roundingChecks(c, &b)
            if c.value.minorUnits > 0, tendered.contains(where: { t in changes.contains { t - $0 == c.value.minorUnits } }) {
                b.confirm(W.tenderedMinusChange, .tenderedMinusChange)
            }
            roundedLaterCheck(c, &b)
            tipCheck(c, &b)
            return b
        }

        /// A tip added on a card slip: the total below that is a total above plus the tip is what was paid; the total
        /// above is the bill before the tip. Nothing when no tip line is read, or its amount is none of the difference.
        func tipCheck(_ c: AmountCandidate, _ b: inout Bonus) {
            let units = c.value.minorUnits
            guard !tipAmounts.isEmpty, units > 0, let line = c.evidence.map({ ($0.page, $0.line) }) else { return }
            let placed = totals.compactMap { t in t.evidence.map { (value: t.value.minorUnits, line: ($0.page, $0.line)) } }
            if placed.contains(where: { t in t.line < line && t.value > 0 && tipAmounts.contains(units - t.value) }) {
                b.confirm(W.totalPlusTip, .totalPlusTip)
            } else if placed.contains(where: { t in t.line > line && tipAmounts.contains(t.value - units) }) {
                b.subtract(W.beforeTip, "before the tip")
            }
        }

        /// Subtotal + tax (+ tip − discount) = total, and the item lines summing to it.
        func sumChecks(_ c: AmountCandidate, _ b: inout Bonus) {
            let units = c.value.minorUnits
            // A net read as a total ("Total 100,00" of "Total HT") confirms its gross as a subtotal does.
            let netAmounts = subtotals + nets.filter { $0 != units }
            if units != 0, netAmounts.contains(where: { s in taxes.contains { s + $0 == units } || (taxes.count > 1 && s + taxSum == units) }) {
                b.confirm(W.subtotalPlusTax, .subtotalPlusTax)
                if ratedTaxes.contains(where: { $0.0 + $0.1 == units }) {
                    b.confirm(W.taxIsRateTimesNet, .taxIsRateTimesNet)
                }
                if let s = itemsSubtotal, taxes.contains(where: { s + $0 == units }) || (taxes.count > 1 && s + taxSum == units) {
                    b.confirm(W.itemsSumToSubtotal, .itemsSumToSubtotal)
                } else if let sum = itemSum(above: c.evidence.map(ReceiptParser.key)),
                    netAmounts.contains(where: { s in s == sum && taxes.contains { s + $0 == units } })
                {
                    b.confirm(W.itemsSumToSubtotal, .itemsSumToSubtotal)
                }
            } else if units != 0, tips != 0 || discounts != 0, subtotals.contains(where: { $0 + taxSum + tips - discounts == units }) {
                b.confirm(W.subtotalTaxTipDiscount, .subtotalTaxTipDiscount)
            }
            // Only for the largest total: items summing to a smaller "total" above a larger one make it a subtotal
            // (a service charge or tax follows).
            if units > 0, c.role != AmountRole.lineItem, largestTotal.map({ abs(units) >= abs($0) }) ?? true,
                itemsMake(units) || columnSumMakes(units, above: c.evidence.map(ReceiptParser.key))
            {
                b.confirm(W.itemsSumToTotal, .itemsSumToTotal)
            }
        }

        /// A total that rounds an earlier one (by a rounding line, or a few cents onto a 5-cent step), and one
        /// that a later total rounds.
        func roundingChecks(_ c: AmountCandidate, _ b: inout Bonus) {
            let units = c.value.minorUnits
            // Rounding (to 5 cents in Malaysia, Switzerland, …) comes after the total it rounds: the later total wins.
            if roundsAnEarlierAmount(c) {
                b.confirm(W.totalPlusRounding, .totalPlusRounding)
            }
            // A later total a few cents from an earlier one, on a 5-cent step, is that total rounded (the rounding
            // line itself may be misread): the amount paid. The earlier one is the total before rounding.
            if roundsAnEarlierTotal(c) {
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
                    return roundings.contains { TotalScoring.rounded(units, by: $0.amount).contains(t.value.minorUnits) }
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
