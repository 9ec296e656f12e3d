public import ShoeboxCore

extension PaymentTermReading {
    /// Reads an invoice's payment term from its lines as printed, or nil when it prints none.
    ///
    /// Rules, in order: a printed due day wins over a count of days (it is the day the seller computed);
    /// among counts, a net term ("30 Tage netto", "net 30") wins over a plain one, and a discount term
    /// ("2 % Skonto innerhalb 10 Tagen") is never the due term. Counts outside `PaymentTermRules.days` are
    /// not read (a "500 days" is a misread or another number). `order`: the page's numeric date order.
    public static func read(lines: [String], order: DateReader.NumericOrder = .dayFirst) -> PaymentTermReading? {
        let folded = lines.map { TextFolding.fold($0) }
        var net: PaymentTermReading?
        var plain: PaymentTermReading?
        for i in folded.indices {
            if let label = Keywords.dueDateLabels.first(in: folded[i]),
                let found = TermWording.date(after: label, line: i, folded: folded, printed: lines, order: order),
                !PaymentTermRules.isDiscount(found.clause),
                // "Payment due within 30 days of the invoice date 14.03.2026": the date is the anchor, the count the term.
                PaymentTermRules.days(in: found.clause) == nil
            {
                return PaymentTermReading(term: .dueOn(found.day), wording: found.wording)
            }
            guard Keywords.paymentContext.any(in: folded[i]) else { continue }
            if let day = PaymentTermRules.payBy(folded[i], order: order) {
                return PaymentTermReading(term: .dueOn(day), wording: TermWording.clean(lines[i]))
            }
            // "Lieferung innerhalb von 14 Tagen, Zahlung sofort": a clause about delivery, returns or a warranty
            // holds another subject's days.
            for clause in TermWording.clauses(folded[i])
            where !PaymentTermRules.isDiscount(clause) && !Keywords.otherTermSubjects.any(in: clause) {
                guard let days = PaymentTermRules.days(in: clause) else { continue }
                let reading = PaymentTermReading(term: .daysAfterInvoice(days), wording: TermWording.clean(lines[i]))
                if Keywords.netWords.any(in: clause) {
                    net = net ?? reading
                } else {
                    plain = plain ?? reading
                }
            }
        }
        return net ?? plain
    }
}

/// The payment-term rules' thresholds and small tests.
public enum PaymentTermRules {
    /// Terms longer than a year are not payment terms (a misread, a warranty, a contract's duration).
    public static let days = 1...365

    /// A count right after a net word with no unit ("net 30") is a term only up to this: longer net terms are printed
    /// with their unit, and a larger bare number after "Netto" is an amount.
    package static let unitlessNetDays = 1...120

    /// The days of a term in one clause: "30 tage", "within 14 days", "net 30" / "netto 30" (a count right
    /// after the net word, no unit). Weeks count seven days. Nil when none, or out of `days`.
    ///
    /// "Netto 347,73", "net 25.00 EUR": a net word also labels the net amount, whose whole part is no count of days. A
    /// bare count is taken only when no decimal part or currency follows it, and within `unitlessNetDays`.
    package static func days(in clause: String) -> Int? {
        let words = TermWording.words(clause)
        for p in TermWording.periods(in: words) {
            switch p.unit {
            case .days where PaymentTermRules.days.contains(p.count): return p.count
            case .weeks where PaymentTermRules.days.contains(p.count * 7): return p.count * 7
            default: continue
            }
        }
        for (i, w) in words.enumerated().dropLast() where Keywords.netWords.contains(w) {
            guard let n = Int(words[i + 1]), unitlessNetDays.contains(n), !isAmount(after: w, in: clause) else { continue }
            return n
        }
        return nil
    }

    /// Whether the number after `netWord` in `clause` is printed as an amount: a decimal part ("347,73", "25.00"), or a
    /// currency sign or code right before or after it ("net € 30", "netto 30 EUR").
    package static func isAmount(after netWord: String, in clause: String) -> Bool {
        guard let r = clause.range(of: netWord) else { return false }
        let rest = clause[r.upperBound...].drop { !$0.isNumber && !"€$£¥".contains($0) }
        if let sign = rest.first, "€$£¥".contains(sign) { return true }
        let digits = rest.prefix { $0.isNumber }
        let after = rest.dropFirst(digits.count)
        if let sep = after.first, sep == "," || sep == ".", let next = after.dropFirst().first, next.isNumber { return true }
        let nextWord = String(after.drop { $0 == " " || $0 == ":" }.prefix { $0.isLetter })
        return currencyWords.contains(nextWord)
    }

    /// The currency marks an amount is printed with, folded ("eur", "rm", "dh").
    package static let currencyWords = Set(AmountReader.currencyMarks.map { $0.0.lowercased() }.filter { $0.allSatisfy(\.isLetter) })

    /// "Bitte überweisen Sie den Betrag bis zum 14.04.2026", "please pay before 14 April 2026": a clause about
    /// paying, with no label, where a "by" word precedes the date. A clause about a discount, another subject
    /// or a period ("Leistungszeitraum 01.03. bis 31.03.2026") has another date.
    package static func payBy(_ folded: String, order: DateReader.NumericOrder) -> CalendarDay? {
        for clause in TermWording.clauses(folded)
        where Keywords.paymentContext.any(in: clause) && !isDiscount(clause) && !Keywords.otherTermSubjects.any(in: clause)
            && !Keywords.periodWords.any(in: clause)
        {
            guard let by = Keywords.payByWords.first(in: clause), let rest = TermWording.after(by, in: clause),
                let day = TermWording.firstDate(in: rest, order: order)
            else { continue }
            return day
        }
        return nil
    }

    /// A discount clause names its discount, or prints a rate with no net word ("2 % innerhalb 10 Tagen").
    /// A rate of late-payment interest ("Verzugszinsen 5 %") is no discount.
    package static func isDiscount(_ folded: String) -> Bool {
        if Keywords.discountTerms.any(in: folded) { return true }
        return folded.contains("%") && !Keywords.netWords.any(in: folded) && !Keywords.interestWords.any(in: folded)
    }
}

extension Keywords {
    /// Labels of a printed due day, longest first: the date after the label is the due day.
    package static let dueDateLabels: KeywordList = [
        "payment due date", "due date", "date due", "payment due", "please pay by", "payable on or before", "payable by", "pay by",
        "due on", "due by", "due", "zahlbar bis zum", "zahlbar bis", "zu zahlen bis", "falligkeitsdatum", "fallig am", "falligkeit",
        "fallig", "zahlungsziel", "fecha de vencimiento", "fecha limite de pago", "pagar antes del", "vencimiento", "vence el",
        "date d'echeance", "date limite de paiement", "a regler avant le", "a payer avant le", "payable avant le", "echeance",
        "tarikh akhir bayaran", "tarikh akhir", "tarikh matang", "bayar sebelum"
    ]
    /// Words that make a line speak of paying: a count of days elsewhere ("Rückgabe innerhalb von 14 Tagen") is no term.
    package static let paymentContext: KeywordList = [
        "payable", "payment", "pay", "due", "terms", "net", "zahlbar", "zahlung", "zahlungsziel", "zahlungsbedingungen", "zahlen",
        "netto", "fallig", "vencimiento", "pago", "pagadero", "pagar", "neto", "regler", "reglement", "paiement", "echeance",
        "bayar", "bayaran", "pembayaran", "nett", "uberweisen", "begleichen", "bezahlen", "remit"
    ]
    /// Words of a net term (the full amount, no discount).
    package static let netWords: KeywordList = ["net", "netto", "nett", "neto", "nets", "ohne abzug", "rein netto", "sans escompte", "bersih"]
    /// Subjects other than payment that also count days: delivery, returns, warranties.
    package static let otherTermSubjects: KeywordList = [
        "lieferung", "liefern", "lieferzeit", "delivery", "deliver", "ruckgabe", "widerruf", "umtausch", "garantie", "gewahrleistung",
        "return", "returns", "refund", "warranty", "guarantee", "livraison", "retour", "entrega", "devolucion", "garantia",
        "penghantaran", "pemulangan", "jaminan", "waranti"
    ]
    /// Words before a due day in a sentence about paying.
    package static let payByWords: KeywordList = [
        "bis zum", "bis spatestens", "spatestens", "bis", "on or before", "no later than", "before", "by", "avant le", "au plus tard le",
        "avant", "antes del", "antes de", "a mas tardar", "sebelum"
    ]
    /// Words of a period of service or delivery, whose "bis" ends the period, not the time to pay.
    package static let periodWords: KeywordList = [
        "leistungszeitraum", "zeitraum", "abrechnungszeitraum", "period", "periode", "periodo", "tempoh perkhidmatan", "vom", "from", "du"
    ]
    /// Late-payment interest: a rate in the clause that is no discount.
    package static let interestWords: KeywordList = [
        "zinsen", "verzugszinsen", "interest", "interets", "interet", "penalites", "intereses", "faedah"
    ]
    /// Words of an early-payment discount: its days are not the due term.
    package static let discountTerms: KeywordList = [
        "skonto", "discount", "escompte", "descuento", "pronto pago", "diskaun", "rebate", "abzuglich", "abzug von"
    ]
}
