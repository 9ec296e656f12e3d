public import ShoeboxCore

extension ContractTerms {
    /// A notice period as a person types it, in any of the five languages ("3 months", "3 Monate", "6 weeks",
    /// "30 días", "1 an"): one count and its unit, nothing else, within the ranges a contract is read with.
    public static func notice(typed: String) -> NoticePeriod? {
        let words = TermWording.words(TextFolding.fold(typed))
        let periods = TermWording.periods(in: words)
        guard periods.count == 1, words.count <= 3, let p = periods.first else { return nil }
        return ContractTermRules.period(p)
    }

    /// Reads the notice period and the end of the term from a contract's lines as printed. The first line that
    /// states each wins (a contract states its own terms before it quotes the law's). `order`: the page's
    /// numeric date order.
    public static func read(lines: [String], order: DateReader.NumericOrder = .dayFirst) -> ContractTerms {
        let folded = lines.map { TextFolding.fold($0) }
        var terms = ContractTerms()
        for i in folded.indices {
            if terms.notice == nil, let notice = ContractTermRules.notice(in: folded[i]) {
                terms.notice = notice
                terms.noticeWording = TermWording.clean(lines[i])
            }
            if terms.endOfTerm == nil, let (day, wording) = ContractTermRules.end(line: i, folded: folded, printed: lines, order: order) {
                terms.endOfTerm = day
                terms.endWording = wording
            }
        }
        return terms
    }
}

public enum ContractTermRules {
    /// Notice periods people sign: up to a year in days, up to two years in months. Longer is a misread or
    /// another number (a term's duration, a year).
    public static let noticeDays = NoticePeriod.dayRange
    public static let noticeMonths = NoticePeriod.monthRange

    /// "Kündigungsfrist 3 Monate", "notice period of 30 days", "préavis de 2 mois", "plazo de preaviso de 1 mes",
    /// "notis 30 hari" (the period after the notice word), and "with three (3) months' notice" (before it).
    package static func notice(in folded: String) -> NoticePeriod? {
        guard let label = Keywords.noticeWords.first(in: folded), let (beforeText, rest) = TermWording.around(label, in: folded) else {
            return nil
        }
        let after = TermWording.words(rest)
        if let p = TermWording.periods(in: after).first(where: { $0.at <= maxWordsAfterLabel }) { return period(p) }
        // "30 days' notice", "three (3) months' written notice": the period ends just before the notice word.
        let before = TermWording.words(beforeText)
        if let p = TermWording.periods(in: before).last, p.at >= before.count - 3 { return period(p) }
        return nil
    }

    /// The period may stand a few words after the notice word: "Kündigungsfrist beträgt 3 Monate",
    /// "notice period of not less than 30 days".
    package static let maxWordsAfterLabel = 5

    package static func period(_ p: TermWording.Period) -> NoticePeriod? {
        switch p.unit {
        case .days: noticeDays.contains(p.count) ? .days(p.count) : nil
        case .weeks: noticeDays.contains(p.count * 7) ? .days(p.count * 7) : nil
        case .months: noticeMonths.contains(p.count) ? .months(p.count) : nil
        case .years: noticeMonths.contains(p.count * 12) ? .months(p.count * 12) : nil
        }
    }

    /// "Laufzeit bis 31.12.2027", "the term ends on 31 December 2027", "fin du contrat le 31/12/2027",
    /// "vigencia hasta el 31/12/2027": the date after an end-of-term label. A duration line with a range
    /// ("Laufzeit: 01.01.2026 bis 31.12.2027") gives the date after its "until" word, never the start.
    package static func end(line i: Int, folded: [String], printed: [String], order: DateReader.NumericOrder) -> (CalendarDay, String)? {
        if let label = Keywords.endOfTermLabels.first(in: folded[i]),
            let found = TermWording.date(after: label, line: i, folded: folded, printed: printed, order: order)
        {
            return (found.day, found.wording)
        }
        guard Keywords.termWords.any(in: folded[i]), let until = Keywords.untilWords.first(in: folded[i]),
            let rest = TermWording.after(until, in: folded[i]), let day = TermWording.firstDate(in: rest, order: order)
        else { return nil }
        return (day, TermWording.clean(printed[i]))
    }
}

extension Keywords {
    /// Words of a notice period, longest first.
    package static let noticeWords: KeywordList = [
        "kundigungsfristen", "kundigungsfrist", "notice period", "period of notice", "notice", "delai de preavis", "preavis",
        "plazo de preaviso", "preaviso", "tempoh notis", "notis"
    ]
    /// Labels of the last day of a term: the date after them is the end.
    package static let endOfTermLabels: KeywordList = [
        "vertragslaufzeit bis", "laufzeit bis", "befristet bis", "endet am", "endet zum", "vertragsende", "ende der laufzeit",
        "term ends on", "term ends", "ends on", "end of term", "expires on", "expiry date", "expiration date", "terminates on",
        "fin du contrat le", "fin du contrat", "prend fin le", "expire le", "date de fin", "echeance du contrat",
        "vigencia hasta el", "vigencia hasta", "finaliza el", "vence el", "fecha de finalizacion", "fecha de terminacion",
        "tamat pada", "berakhir pada", "tarikh tamat"
    ]
    /// Words of a term's duration, on a line that may print a range.
    package static let termWords: KeywordList = [
        "laufzeit", "vertragslaufzeit", "mindestlaufzeit", "term", "duration", "duree", "vigencia", "duracion", "tempoh"
    ]
    /// The word before a range's last day.
    package static let untilWords: KeywordList = ["bis", "until", "till", "to", "jusqu'au", "au", "hasta", "hingga", "sehingga"]
}
