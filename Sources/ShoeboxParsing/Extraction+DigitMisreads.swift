import ShoeboxCore
internal import ShoeboxReading

/// A total read with one digit wrong ("TOTAL 19.00" for 14.00, "Net Total 65.20" for 85.20: 4 and 9, 6 and 8 look
/// alike in thermal print) where the page's other figures print the right amount twice or more: as the sub-total,
/// the cash paid without change, the tax table's base. The amount they print joins as a total candidate on the
/// total's line, just above it and `.mended`, so the record names it and still waits for a person
/// (`total-low-confidence`): the engine proposes, a person confirms.
extension Extraction {
    /// Roles whose amounts restate what was paid.
    static let restating: Set<AmountRole> = [.subtotal, .tendered, .total]

    mutating func proposeTotalsOneDigitOff() {
        // Every amount read from a line (a sub-total or a payment scores 0 as a total, and still prints its figure).
        let live = amounts.filter { !$0.computed }
        guard let best = live.filter({ $0.role == .total && $0.score > 0 }).max(by: { $0.score < $1.score }), !best.arithmeticConfirmed,
            let line = best.evidence
        else { return }
        let value = best.value.minorUnits
        // The total's own figure printed elsewhere as well: it is not alone.
        let sameElsewhere = live.filter { $0.value.minorUnits == value && $0.evidence.map { !LinePlace.sameLine($0, line) } ?? false }
        guard sameElsewhere.isEmpty else { return }
        var printed: [Int64: [Evidence]] = [:]
        for c in live where Extraction.restating.contains(c.role) && c.value.minorUnits != value && c.value.minorUnits > 0 {
            guard let e = c.evidence, !LinePlace.sameLine(e, line), Extraction.oneDigitApart(c.value.minorUnits, value) else { continue }
            if !(printed[c.value.minorUnits] ?? []).contains(where: { LinePlace.sameLine($0, e) }) {
                printed[c.value.minorUnits, default: []].append(e)
            }
        }
        let twice = printed.filter { $0.value.count >= 2 }
        guard twice.count == 1, let (right, lines) = twice.first, !amounts.contains(where: { $0.checks.contains(.mended) }) else { return }
        let reading = AmountReading(minorUnits: right, fractionDigits: best.value.fractionDigits, currencyHint: best.value.currencyHint)
        amounts.append(
            AmountCandidate(
                value: reading, role: .total, score: best.score + 0.02, evidence: line, checks: best.checks.union([.mended]),
                notes: ["\(best.value.decimalString) read with one digit off: the page prints \(reading.decimalString) on \(lines.count) other lines"]
            ))
    }

    /// Two amounts of as many digits that differ in exactly one of them, not the last: a last digit apart is as often
    /// cash rounding (46.54 paid as 46.55) as a misread.
    static func oneDigitApart(_ a: Int64, _ b: Int64) -> Bool {
        let x = String(a)
        let y = String(b)
        return x.last == y.last && oneDigitApart(x, y)
    }
}

extension Extraction {
    /// A day read by tesseract alone on a line where the second reader read a date shape that is no date (its
    /// "19/69/2017" under tesseract's "19/02/2017"), while another line prints a day one digit apart that both readers
    /// read alike ("19/09/2017"): the day both read is the surer reading of the one date the page prints twice. It is
    /// raised just above; the other stays an alternate, and the record keeps its readers' reason.
    mutating func preferDayBothReadersRead(secondUnread: [Evidence]) {
        let transaction = dates.indices.filter { dates[$0].role == .transaction && dates[$0].score > 0 }
        guard let top = transaction.max(by: { dates[$0].score < dates[$1].score }), !dates[top].checks.contains(.bothReaders),
            let line = dates[top].evidence, secondUnread.contains(where: { LinePlace.sameLine($0, line) })
        else { return }
        let day = dates[top].value
        let agreed = transaction.filter { i in
            let other = dates[i]
            return other.checks.contains(.bothReaders) && other.value != day && other.evidence.map { !LinePlace.sameLine($0, line) } == true
                && Extraction.oneDigitApart(day.iso, other.value.iso)
        }
        guard agreed.count == 1, let i = agreed.first else { return }
        dates[i].score = dates[top].score + 0.01
        dates[i].notes.append("read alike by both readers; \(day.iso) on another line was read by tesseract alone, one digit apart")
    }

    /// Two texts of as many characters that differ in exactly one (two ISO days, two amounts' digits).
    static func oneDigitApart(_ a: String, _ b: String) -> Bool {
        a.count == b.count && zip(a, b).filter { $0 != $1 }.count == 1
    }
}
