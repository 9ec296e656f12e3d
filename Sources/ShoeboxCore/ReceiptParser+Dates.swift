/// Dates: every date on the page; the transaction or issue date is preferred over due, delivery, order,
/// validity and print dates by the words on its line, and over later dates by its place near the top.
extension ReceiptParser {
    /// How the page settles whether 05/03/2018 is 5 March or 3 May, and what settled it.
    struct DateOrder {
        let order: DateReader.NumericOrder
        /// What settled the order ("25/03 on the page", "language fra"); nil when nothing did: the dates are then
        /// read day-first, and one whose day and month could be swapped goes to review.
        let evidence: String?
    }

    /// Languages whose writers put the day first.
    static let dayFirstLanguages: Set<String> = ["deu", "fra", "spa", "msa", "ita", "nld", "por"]

    /// The order of the page's numeric dates, from the strongest evidence there is: the page's own dates whose
    /// numbers tell it ("25/03/2018"), the language, the country hints (a Malaysian "SDN BHD", "GST"), the
    /// currency. Month-first needs evidence of a US document (its own dates, its hints, or a dollar on an
    /// English page); without any, the order is unsettled.
    func dateOrder(_ found: [[DateReader.Found]], lines: [Line], language: String?, currencies: [CurrencyCandidate]) -> DateOrder {
        let told = found.joined().filter { !$0.gluedToLetters }.compactMap(\.toldOrder)
        let dayFirst = told.filter { $0 == .dayFirst }.count
        let monthFirst = told.count - dayFirst
        if dayFirst != monthFirst {
            return dayFirst > monthFirst
                ? DateOrder(order: .dayFirst, evidence: "a day over 12 on the page")
                : DateOrder(order: .monthFirst, evidence: "a month-first date on the page")
        }
        if let language, ReceiptParser.dayFirstLanguages.contains(language) {
            return DateOrder(order: .dayFirst, evidence: "language \(language)")
        }
        if let country = ReceiptParser.countryHints(lines).first {
            let order: DateReader.NumericOrder = ReceiptParser.monthFirstCurrencies.contains(country.currency) ? .monthFirst : .dayFirst
            return DateOrder(order: order, evidence: country.notes.joined(separator: ", "))
        }
        if let currency = currencies.first?.value {
            if !ReceiptParser.monthFirstCurrencies.contains(currency) { return DateOrder(order: .dayFirst, evidence: "currency \(currency)") }
            if language == nil || language == "eng" { return DateOrder(order: .monthFirst, evidence: "currency \(currency) on an English page") }
        }
        return DateOrder(order: .dayFirst, evidence: nil)
    }

    /// Reads the page's dates into `extraction`: the candidates, the date shapes no date reads from, the years
    /// the page prints, and the dates whose day and month order the page leaves open.
    func readDates(_ lines: [Line], language: String?, into extraction: inout Extraction) {
        // Read once day-first; a date both orders fit also carries its month-first reading.
        let found = lines.map { DateReader.dates(in: ReceiptParser.mendDate($0.text), folded: $0.folded, order: .dayFirst, today: today) }
        let order = dateOrder(found, lines: lines, language: language, currencies: extraction.currencies)
        extraction.dates = dateCandidates(lines, found: found, order: order, years: &extraction.printedYears)
        extraction.unreadDates = unreadDates(lines)
        extraction.copyrightYear = lines.flatMap { ReceiptParser.copyrightYears($0.folded, today: today) }.max()
        extraction.dateOrderSettled = order.evidence != nil
        // Terms that name a day are read in the page's own date order.
        let texts = lines.map(\.text)
        extraction.paymentTerm = PaymentTermReading.read(lines: texts, order: order.order)
        let contract = ContractTerms.read(lines: texts, order: order.order)
        extraction.contractTerms = contract.notice == nil && contract.endOfTerm == nil ? nil : contract
        if order.evidence == nil {
            extraction.orderUnsettledDates = Set(found.joined().filter(\.orderAmbiguous).map(\.day))
        }
    }

    /// `years`: gains the year of every transaction date that is not an article code.
    func dateCandidates(_ lines: [Line], found: [[DateReader.Found]], order: DateOrder, years: inout Set<Int>) -> [DateCandidate] {
        var out: [DateCandidate] = []
        for (line, dates) in zip(lines, found) where !dates.isEmpty {
            let other = TextFolding.firstKeyword(in: line.folded, of: Keywords.otherDate)
            let issue = TextFolding.firstKeyword(in: line.folded, of: Keywords.issueDate)
            let time = DateReader.containsTime(line.text)
            // A line of goods: a description, amounts, and neither a date word nor a time. A date shape there is
            // an article code.
            let itemLine =
                issue == nil && !time && line.amounts.contains { !$0.isRate }
                && ReceiptParser.hasWord(line.folded)
            for f in dates {
                let day = order.order == .dayFirst ? f.day : (f.otherReading ?? f.day)
                var score = DateWeights.top - DateWeights.perPageHeight * line.position
                var notes: [String] = []
                var checks: Set<Check> = []
                var code = false
                if f.orderAmbiguous {
                    score -= DateWeights.orderAmbiguous
                    notes.append(order.evidence.map { "day/month order from \($0)" } ?? "day/month order unknown")
                }
                if f.gluedToLetters && issue == nil && !time {
                    score -= DateShapeWeights.gluedToLetters
                    notes.append("glued to letters: an article code")
                    code = true
                } else if itemLine {
                    score -= DateShapeWeights.onItemLine
                    notes.append("on a line of goods")
                    code = true
                }
                if f.gluedToNumber {
                    score -= DateShapeWeights.gluedToNumber
                    notes.append("a number glued before it")
                }
                if let other {
                    score -= DateWeights.otherDate
                    notes.append("'\(other)': not the transaction date")
                } else if let issue {
                    score += DateWeights.issueKeyword
                    notes.append("keyword '\(issue)'")
                    checks.insert(.keyword(issue))
                }
                if other == nil && !code { years.insert(day.year) }
                out.append(
                    Candidate(
                        value: day, role: other == nil ? .transaction : .other, score: max(DateWeights.floor, min(DateWeights.cap, score)),
                        evidence: line.evidence, checks: checks, notes: notes))
            }
        }
        // The same day read on several lines (a header and a footer) is surer.
        let counts = Dictionary(grouping: out, by: \.value).mapValues(\.count)
        for i in out.indices where (counts[out[i].value] ?? 0) > 1 && out[i].role == .transaction {
            out[i].score = min(DateWeights.cap, out[i].score + DateWeights.printedAgain)
            out[i].checks.insert(.printed(times: counts[out[i].value]!))
            out[i].notes.append("printed \(counts[out[i].value]!)×")
        }
        return out
    }

    /// Lines whose date shape reads as no plausible date, outside lines about other dates (due, valid until).
    func unreadDates(_ lines: [Line]) -> [Evidence] {
        lines.filter { line in
            TextFolding.firstKeyword(in: line.folded, of: Keywords.otherDate) == nil
                && !DateReader.unreadableDateShapes(in: ReceiptParser.mendDate(line.text), order: .dayFirst, today: today).isEmpty
        }.map(\.evidence)
    }

    /// Whether a folded line holds a word of three letters or more (a description, a name).
    static func hasWord(_ folded: String) -> Bool {
        var run = 0
        for u in folded.utf8 {
            run = TextFolding.isLetterByte(u) ? run + 1 : 0
            if run >= 3 { return true }
        }
        return false
    }

    /// Years printed after a copyright sign ("© 2018", "(c) 2018", "Copyright 2018") in a folded line: the
    /// page's own year, as the till or the printer prints it.
    static func copyrightYears(_ folded: String, today: CalendarDay) -> [Int] {
        var out: [Int] = []
        for mark in Keywords.copyright where TextFolding.containsSubstring(folded, mark) {
            let c = Array(folded)
            let m = Array(mark)
            for i in 0..<(c.count - m.count + 1) where Array(c[i..<(i + m.count)]) == m {
                var j = i + m.count
                while j < c.count && c[j] == " " { j += 1 }
                var k = j
                while k < c.count && c[k].isDigitASCII { k += 1 }
                if k - j == 4, let y = Int(String(c[j..<k])), (1990...today.year).contains(y) { out.append(y) }
            }
        }
        return out
    }

    /// Mends OCR's spaces inside dates: "18-10- 17" → "18-10-17", "2018 -03-18" → "2018-03-18",
    /// "12 / 03 / 2018" → "12/03/2018".
    static func mendDate(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x2D || $0 == 0x2F || $0 == 0x2E }), text.utf8.contains(0x20) else { return text }
        let c = Array(text)
        var out: [Character] = []
        out.reserveCapacity(c.count)
        var changed = false
        for (i, ch) in c.enumerated() {
            if ch == " " {
                // Drop a space that sits between a digit and a separator that leads to a digit, either way round.
                var l = i - 1
                while l >= 0 && c[l] == " " { l -= 1 }
                var r = i + 1
                while r < c.count && c[r] == " " { r += 1 }
                if l >= 0 && r < c.count {
                    // The digit beyond a slash or dash may stand behind spaces of its own ("12 / 03"); not beyond a
                    // dot, which parts amounts and counts ("2 . 6.10").
                    var ll = l - 1
                    while ll >= 0 && c[ll] == " " && c[l] != "." { ll -= 1 }
                    var rr = r + 1
                    while rr < c.count && c[rr] == " " && c[r] != "." { rr += 1 }
                    let leftSep = "-/.".contains(c[l]) && ll >= 0 && c[ll].isDigitASCII && c[r].isDigitASCII
                    let rightSep = "-/.".contains(c[r]) && rr < c.count && c[rr].isDigitASCII && c[l].isDigitASCII
                    if leftSep || rightSep {
                        changed = true
                        continue
                    }
                }
            }
            out.append(ch)
        }
        return changed ? String(out) : text
    }
}

extension Extraction {
    /// Joins what another reading of the page (an OCR pass, the second reader) says against its dates: the years
    /// it prints, and the date order, which one reading that settled it (a pass that read the country hints)
    /// settles for both.
    mutating func joinDateDoubts(_ other: Extraction) {
        printedYears.formUnion(other.printedYears)
        copyrightYear = [copyrightYear, other.copyrightYear].compactMap { $0 }.max()
        dateOrderSettled = dateOrderSettled || other.dateOrderSettled
        orderUnsettledDates = dateOrderSettled ? [] : orderUnsettledDates.union(other.orderUnsettledDates)
    }

    /// Whether the page itself doubts `day`, the date chosen: another year it prints in a date is one digit away
    /// (one of the two is misread, "2016" for "2018"), the page's copyright year is later (a till does not print
    /// a date before its own software), or its day and month fit either order and nothing settles which.
    func dateInDoubt(_ day: CalendarDay) -> Bool {
        orderUnsettledDates.contains(day) || printedYears.contains { DateReader.oneDigitApart($0, day.year) }
            || (copyrightYear ?? 0) > day.year
    }
}
