public import ShoeboxCore
internal import ShoeboxReading

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
        let found = lines.map { line in
            let text = ReceiptParser.mendDate(line.text)
            let read = DateReader.dates(in: text, folded: line.folded, order: .dayFirst, today: today)
            // No date as printed, or only pieces glued to letters ("1/02/20" inside "l1/02/20l7"): perhaps one the
            // reader nearly read (a letter for a digit, a separator lost).
            guard read.allSatisfy(\.gluedToLetters),
                let near = ReceiptParser.mendDateLetters(text, dateWord: Keywords.issueDate.any(in: line.folded))
            else { return read }
            let mended = DateReader.dates(in: near, folded: nil, order: .dayFirst, today: today).map { f in
                var f = f
                f.mended = true
                return f
            }
            return mended.isEmpty ? read : mended
        }
        let order = dateOrder(found, lines: lines, language: language, currencies: extraction.currencies)
        extraction.dates = dateCandidates(
            lines, found: found, order: order, years: &extraction.printedYears, contradicted: &extraction.yearsContradicted)
        extraction.unreadDates = unreadDates(lines)
        extraction.copyrightYear = lines.flatMap { ReceiptParser.copyrightYears($0.folded, today: today) }.max()
        if let tax = ReceiptParser.taxInForce(lines) {
            extraction.taxInForce = tax.days
            extraction.yearsMended = ReceiptParser.yearsAgainstTaxInForce(&extraction.dates, tax, today: today)
        }
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
    func dateCandidates(
        _ lines: [Line], found: [[DateReader.Found]], order: DateOrder, years: inout Set<Int>, contradicted: inout Set<CalendarDay>
    ) -> [DateCandidate] {
        var out: [DateCandidate] = []
        var printed: [PrintedDate] = []
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
                if f.mended {
                    score -= DateShapeWeights.mended
                    notes.append("read only with letters taken for digits or a separator put right")
                    checks.insert(.mended)
                }
                if let other {
                    score -= DateWeights.otherDate
                    notes.append("'\(other)': not the transaction date")
                } else if let issue {
                    score += DateWeights.issueKeyword
                    notes.append("keyword '\(issue)'")
                    checks.insert(.keyword(issue))
                }
                printed.append(
                    PrintedDate(line: ReceiptParser.key(line.evidence), code: code, near: other.map { !Keywords.farDate.contains($0) } ?? false))
                out.append(
                    Candidate(
                        value: day, role: other == nil ? .transaction : .other, score: max(DateWeights.floor, min(DateWeights.cap, score)),
                        evidence: line.evidence, checks: checks, notes: notes))
            }
        }
        let misread = ReceiptParser.yearsAgainstOtherDates(&out, printed, contradicted: &contradicted)
        for (i, p) in printed.enumerated() where out[i].role == .transaction && !p.code && !misread.contains(i) { years.insert(out[i].value.year) }
        // The same day read on several lines (a header and a footer) is surer.
        let counts = Dictionary(grouping: out, by: \.value).mapValues(\.count)
        for i in out.indices where (counts[out[i].value] ?? 0) > 1 && out[i].role == .transaction {
            out[i].score = min(DateWeights.cap, out[i].score + DateWeights.printedAgain)
            out[i].checks.insert(.printed(times: counts[out[i].value]!))
            out[i].notes.append("printed \(counts[out[i].value]!)×")
        }
        return out
    }

    /// Where a date candidate was printed: its line, whether it is an article code, whether it is a due, delivery or
    /// order date (another role whose year is the transaction's, give or take `nearDateSpan`).
    struct PrintedDate {
        let line: Int
        let code: Bool
        let near: Bool
    }

    /// A due, delivery or order date lies at most about a year from the transaction date (a service period of last
    /// year, a due date next year), in days.
    static let nearDateSpan = 400

    /// A transaction date whose year the page's due, delivery and order dates contradict: they all print one other
    /// year, one digit from its own (2013 for 2018, 2010 for 2019, 2027 for 2021: one of the two misread), no other
    /// transaction date prints its year, and none of them lies within `nearDateSpan` of it. When one of them prints
    /// the same day and month, the year is misread: the date in the page's year is added, at its score, and the
    /// misread one falls by `DateWeights.yearContradicted` (it stays an alternate). Otherwise which year is right the
    /// page does not say: the date joins `contradicted`, and the merge sends it to review. Validity, warranty and
    /// print dates are not asked (`Keywords.farDate`); a year in an invoice number is no date. Returns the indices
    /// of the dates found misread. `printed` is parallel to `out`.
    static func yearsAgainstOtherDates(_ out: inout [DateCandidate], _ printed: [PrintedDate], contradicted: inout Set<CalendarDay>) -> Set<Int> {
        let near = printed.indices.filter { printed[$0].near && !printed[$0].code }.map { out[$0].value }
        let years = Set(near.map(\.year))
        guard years.count == 1, let other = years.first else { return [] }
        var misread: Set<Int> = []
        for i in printed.indices where out[i].role == .transaction && !printed[i].code {
            let day = out[i].value
            guard DateReader.oneDigitApart(day.year, other) else { continue }
            let confirmed = printed.indices.contains { j in
                j != i && out[j].role == .transaction && !printed[j].code && printed[j].line != printed[i].line && out[j].value.year == day.year
            }
            if confirmed { continue }
            if let same = near.first(where: { $0.month == day.month && $0.day == day.day }) {
                var c = out[i]
                out.append(
                    Candidate(
                        value: same, role: .transaction, score: c.score, evidence: c.evidence, checks: c.checks,
                        notes: c.notes + ["year read \(day.year): the page's due and delivery dates are of \(other), one of them this day"]))
                c.score = max(DateWeights.floor, c.score - DateWeights.yearContradicted)
                c.notes.append("year \(day.year) against \(other) of the page's other dates: misread")
                out[i] = c
                misread.insert(i)
            } else if near.allSatisfy({ abs($0.daysSince(day)) > nearDateSpan }) {
                contradicted.insert(day)
            }
        }
        return misread
    }

    /// A tax levied only between two days, and the words that name it on the page.
    struct TaxInForce {
        let name: String
        let days: ClosedRange<CalendarDay>
    }

    /// Malaysia levied GST from 1 April 2015 until 31 August 2018, when SST replaced it; it had none before.
    static let malaysianGST = TaxInForce(
        name: "Malaysian GST", days: CalendarDay(year: 2015, month: 4, day: 1)!...CalendarDay(year: 2018, month: 8, day: 31)!)

    /// The tax the page names that dates it: "GST" on a page whose first country is Malaysia by a hint that is no tax
    /// word (a legal form, a place, a calling code: Singapore's receipts print "GST Reg No" too), that does not also
    /// name SST (a receipt of the change-over may print both). Nil for every other page.
    static func taxInForce(_ lines: [Line]) -> TaxInForce? {
        // The words first (a page naming no GST needs no country hints read).
        guard Set(lines.flatMap { Keywords.gstOrSST.all(in: $0.folded) }) == ["gst"], let country = countryHints(lines).first,
            country.currency == "MYR", !country.kinds.subtracting([.tax]).isEmpty
        else { return nil }
        return malaysianGST
    }

    /// Digits the print of a year is misread as ("2013" for "2018", "2016" for "2015"), the likeliest first.
    static let yearDigitLookalikes: [Character: [Character]] = [
        "0": ["8", "6", "9"], "1": ["7", "4"], "3": ["8", "5"], "5": ["6", "3", "8"], "6": ["5", "8", "0"], "7": ["1"],
        "8": ["3", "0", "6", "9", "5"], "9": ["8", "0"], "4": ["1"]
    ]

    /// Transaction dates the tax the page names contradicts: read on a day it was not levied ("GST 6 %" on a receipt
    /// of 2013). When one misread digit of the year, likelier than any other, puts the day inside the tax's days (not after `today`),
    /// that day is added, at the date's score, as a mended reading (held for a person: no agreement of the readers
    /// carries over to it), and the date as read falls by `DateWeights.yearContradicted` (it stays an alternate).
    /// Otherwise the date stays, and `Extraction.dateInDoubt` sends it to review. Returns the days added.
    static func yearsAgainstTaxInForce(_ out: inout [DateCandidate], _ tax: TaxInForce, today: CalendarDay) -> Set<CalendarDay> {
        var added: Set<CalendarDay> = []
        for i in out.indices where out[i].role == .transaction && !tax.days.contains(out[i].value) {
            let day = out[i].value
            let digits = Array(String(day.year))
            // Each year one misread digit away that fits, by how often that misreading happens (its place in the list).
            var years: [(rank: Int, year: Int)] = []
            for (k, d) in digits.enumerated() {
                for (rank, other) in (yearDigitLookalikes[d] ?? []).enumerated() {
                    var t = digits
                    t[k] = other
                    if let y = Int(String(t)), let mended = CalendarDay(year: y, month: day.month, day: day.day), tax.days.contains(mended),
                        mended <= today
                    {
                        years.append((rank, y))
                    }
                }
            }
            let likeliest = years.filter { $0.rank == years.map(\.rank).min() }
            guard likeliest.count == 1, let mended = CalendarDay(year: likeliest[0].year, month: day.month, day: day.day) else { continue }
            var c = out[i]
            if !out.contains(where: { $0.role == .transaction && $0.value == mended }) {
                added.insert(mended)
                out.append(
                    Candidate(
                        value: mended, role: .transaction, score: c.score, evidence: c.evidence, checks: [.mended],
                        notes: c.notes.filter { !$0.hasPrefix("both") } + [
                            "year read \(day.year): \(tax.name) was levied from \(tax.days.lowerBound) to \(tax.days.upperBound); one digit misread"
                        ]))
            }
            c.score = max(DateWeights.floor, c.score - DateWeights.yearContradicted)
            c.notes.append("year \(day.year): no \(tax.name) then")
            out[i] = c
        }
        return added
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
    /// Letters a reader puts for the digits they resemble, inside a date.
    static let digitLookalikes: [Character: Character] = [
        "O": "0", "o": "0", "D": "0", "Q": "0", "l": "1", "I": "1", "i": "1", "|": "1", "!": "1", "L": "1", "S": "5", "s": "5",
        "B": "8", "Z": "2", "z": "2"
    ]

    /// `text` with its near-miss dates put right, or nil when it has none: a token of one or two, one or two, and two
    /// or four characters between two like separators ("11/0i/2017", "l1/02/20l7", "O3.1O.2O18"), at least four of
    /// them digits and the rest letters that look like digits, read as those digits; on a line with a date word, a
    /// separator lost ("1102/2017", "11/022017": four digits beside a year of four) or doubled ("11//02/2017") put
    /// right. Whatever this gives is read as a date that is `mended`: the parser doubts it.
    static func mendDateLetters(_ text: String, dateWord: Bool) -> String? {
        guard text.utf8.contains(where: { $0 == 0x2F || $0 == 0x2D || $0 == 0x2E }) else { return nil }
        var changed = false
        let tokens = text.split(separator: " ", omittingEmptySubsequences: false).map { token -> String in
            // Trim what may touch a date: a label's colon, brackets, a trailing comma.
            let core = token.drop { ":([".contains($0) }
            let lead = token.prefix(token.count - core.count)
            var body = String(core)
            var tail = ""
            while let last = body.last, ",;)]".contains(last) {
                tail = String(last) + tail
                body.removeLast()
            }
            guard let mended = mendedDateToken(body, dateWord: dateWord) else { return String(token) }
            changed = true
            return lead + mended + tail
        }
        return changed ? tokens.joined(separator: " ") : nil
    }

    static func mendedDateToken(_ token: String, dateWord: Bool) -> String? {
        let c = Array(token)
        guard (6...12).contains(c.count) else { return nil }
        var digits = 0
        var lookalikes = 0
        var seps: [Int] = []
        for (k, ch) in c.enumerated() {
            if ch.isDigitASCII {
                digits += 1
            } else if "./-".contains(ch) {
                seps.append(k)
            } else if digitLookalikes[ch] != nil {
                lookalikes += 1
            } else {
                return nil
            }
        }
        guard digits >= 4 else { return nil }
        let asDigits = String(c.map { digitLookalikes[$0] ?? $0 })
        func shaped(_ t: [Character]) -> Bool {
            let parts = t.split(omittingEmptySubsequences: false) { "./-".contains($0) }
            guard parts.count == 3, parts.allSatisfy({ $0.allSatisfy(\.isDigitASCII) }) else { return false }
            let seps = t.filter { "./-".contains($0) }
            guard seps.first == seps.last else { return false }
            return (1...2).contains(parts[0].count) && (1...2).contains(parts[1].count) && [2, 4].contains(parts[2].count)
        }
        if lookalikes > 0, seps.count == 2, shaped(Array(asDigits)) { return asDigits }
        guard dateWord, lookalikes == 0 else { return nil }
        // Doubled: "11//02/2017", "11/02//2017".
        if seps.count == 3 {
            var t = c
            for k in seps.dropLast() where c[k] == c[k + 1] {
                t.remove(at: k)
                return shaped(t) ? String(t) : nil
            }
            return nil
        }
        // Lost: "1102/2017", "11/022017" (four digits beside a four-digit year starting 19 or 20).
        guard seps.count == 1, c.count == 9 else { return nil }
        let s = seps[0]
        let sep = c[s]
        let year: (Int) -> Bool = { k in ["19", "20"].contains(String(c[k..<(k + 2)])) }
        if s == 4, year(5) { return String(c[0..<2]) + String(sep) + String(c[2..<4]) + String(sep) + String(c[5...]) }
        if s == 2, year(5) { return String(c[0..<2]) + String(sep) + String(c[3..<5]) + String(sep) + String(c[5...]) }
        return nil
    }

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
        yearsContradicted.formUnion(other.yearsContradicted)
        copyrightYear = [copyrightYear, other.copyrightYear].compactMap { $0 }.max()
        taxInForce = taxInForce ?? other.taxInForce
        yearsMended.formUnion(other.yearsMended)
        dateOrderSettled = dateOrderSettled || other.dateOrderSettled
        orderUnsettledDates = dateOrderSettled ? [] : orderUnsettledDates.union(other.orderUnsettledDates)
    }

    /// Whether the page itself doubts `day`, the date chosen: another year it prints in a date is one digit away
    /// (one of the two is misread, "2016" for "2018"), its due and delivery dates contradict its year
    /// (`ReceiptParser.yearsAgainstOtherDates`), the page's copyright year is later (a till does not print
    /// a date before its own software), the tax the page names was not levied that day, or its day and month fit
    /// either order and nothing settles which.
    public func dateInDoubt(_ day: CalendarDay) -> Bool {
        orderUnsettledDates.contains(day) || yearsContradicted.contains(day) || printedYears.contains { DateReader.oneDigitApart($0, day.year) }
            || (copyrightYear ?? 0) > day.year || taxInForce.map { !$0.contains(day) } == true
    }
}
