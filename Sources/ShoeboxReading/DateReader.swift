public import ShoeboxCore

/// Reads calendar days out of one line of text: day-month-year, month-day-year and ISO orders,
/// two-digit years, and month names or abbreviations in English, German, Spanish, French and Malay.
public enum DateReader {
    public struct Found: Hashable, Sendable {
        public let day: CalendarDay
        /// True when the numbers fit both day-month and month-day order and the order came from the locale.
        package let orderAmbiguous: Bool
        package let textual: Bool
        /// Letters touch the date's digits ("GB12-21-22", "A01-02-19"): the shape of an item or article code.
        package var gluedToLetters = false
        /// Digits before the date were split off ("CASHIER:0112/03/2018", "T112/03/18"): a number glued to it.
        package var gluedToNumber = false
        /// The order the numbers themselves tell: a first number over 12 is a day ("25/03"), a second one over
        /// 12 makes the date month-first ("03/25"). Nil when both fit, or for ISO and textual dates.
        package var toldOrder: NumericOrder?
        /// The day read in the other order, when both orders give a valid day ("05/03": 3 May beside 5 March).
        package var otherReading: CalendarDay?
        /// Read only once letters in its digits were taken for the digits they resemble ("11/0i/2017"), or a
        /// separator lost or doubled was put right ("1102/2017"): a near miss of the reader, to be confirmed.
        public var mended = false
    }

    /// Which order to prefer for 05/03/2026 when both readings are valid.
    public enum NumericOrder: Sendable { case dayFirst, monthFirst }

    /// Folded month names → month number.
    package static let monthNames: [String: Int] = {
        var m: [String: Int] = [:]
        let table: [(Int, [String])] = [
            (1, ["january", "jan", "januar", "janner", "enero", "ene", "janvier", "janv", "januari"]),
            (2, ["february", "feb", "februar", "febrero", "fevrier", "fevr", "fev", "februari"]),
            (3, ["march", "mar", "marz", "maerz", "mrz", "marzo", "mars", "mac"]),
            (4, ["april", "apr", "abril", "abr", "avril", "avr"]),
            (5, ["may", "mai", "mayo", "mei"]),
            (6, ["june", "jun", "juni", "junio", "juin"]),
            (7, ["july", "jul", "juli", "julio", "juillet", "juil", "julai"]),
            (8, ["august", "aug", "agosto", "ago", "aout", "ogos", "ogo"]),
            (9, ["september", "sep", "sept", "septiembre", "setiembre", "septembre"]),
            (10, ["october", "oct", "oktober", "okt", "octubre", "octobre"]),
            (11, ["november", "nov", "noviembre", "novembre"]),
            (12, ["december", "dec", "dezember", "dez", "diciembre", "dic", "decembre", "disember", "dis"])
        ]
        for (month, names) in table { for n in names { m[n] = month } }
        return m
    }()

    public static func dates(in line: String, order: NumericOrder, today: CalendarDay) -> [Found] {
        dates(in: line, folded: nil, order: order, today: today)
    }

    /// `folded`: the line already folded, when the caller has it.
    package static func dates(in line: String, folded: String?, order: NumericOrder, today: CalendarDay) -> [Found] {
        // Every date has digits; a numeric one also a separator, a textual one also letters.
        var digits = 0
        var separators = false
        var letters = false
        for u in line.utf8 {
            if u >= 0x30 && u <= 0x39 {
                digits += 1
            } else if u == 0x2E || u == 0x2F || u == 0x2D {
                separators = true
            } else if u >= 0x41 {
                letters = true
            }
        }
        guard digits >= 2 else { return [] }
        var out: [Found] = []
        if separators && digits >= 4 { out += numericDates(in: Array(line), order: order, today: today) }
        if letters { out += textualDates(in: folded ?? TextFolding.fold(line), today: today) }
        return out
    }

    /// Numeric date shapes in `line` ("17-66-13", "2918-03-18": day-month-year or year-month-day with one
    /// separator) that read as no plausible date: a date printed on the page and misread. The date chosen
    /// elsewhere on the page is then not the only reading there is.
    package static func unreadableDateShapes(in line: String, order: NumericOrder, today: CalendarDay) -> [String] {
        let chars = Array(line)
        var out: [String] = []
        var i = 0
        func run(_ start: Int) -> Int {
            var j = start
            while j < chars.count, chars[j].isDigitASCII { j += 1 }
            return j - start
        }
        while i < chars.count {
            guard chars[i].isDigitASCII, i == 0 || !chars[i - 1].isDigitASCII else {
                i += 1
                continue
            }
            let a = run(i)
            let s1 = i + a
            guard [1, 2, 4].contains(a), s1 < chars.count, "./-".contains(chars[s1]) else {
                i += a
                continue
            }
            let b = run(s1 + 1)
            let s2 = s1 + 1 + b
            guard (1...2).contains(b), s2 < chars.count, chars[s2] == chars[s1] else {
                i += a
                continue
            }
            let c = run(s2 + 1)
            let end = s2 + 1 + c
            let shaped = a == 4 ? (1...2).contains(c) : (c == 2 || c == 4)
            let free = end == chars.count || !(chars[end].isLetter || chars[end].isDigitASCII || "./-".contains(chars[end]))
            // Letters glued before it make it an article code ("JD52-63-20"), not a misread date.
            let code = codePrefix(chars, before: i)
            if shaped && free && !code {
                let token = String(chars[i..<end])
                if numericDates(in: Array(token), order: order, today: today).isEmpty { out.append(token) }
            }
            i = end
        }
        return out
    }

    /// Whether letters stand glued before `start`, through digits and date separators only: an article code
    /// ("GB12-21-22", "BJ41/2-52-24"). A date word glued to the date ("DATE12/03/2018") is no code.
    package static func codePrefix(_ chars: [Character], before start: Int) -> Bool {
        var k = start - 1
        while k >= 0, chars[k].isDigitASCII || "./-".contains(chars[k]) { k -= 1 }
        guard k >= 0, chars[k].isLetter else { return false }
        guard k == start - 1 else { return true }
        var w = k
        while w > 0, chars[w - 1].isLetter { w -= 1 }
        return !Keywords.issueDate.words.contains(TextFolding.fold(String(chars[w...k])))
    }

    package static func year(from value: Int, digits: Int, today: CalendarDay) -> Int? {
        if digits == 4 { return value }
        if digits == 2 {
            let candidate = 2000 + value
            return candidate <= today.year + 1 ? candidate : 1900 + value
        }
        return nil
    }

    /// Two years of four digits that differ in exactly one digit (2016 and 2018, 2019 and 2018): what one
    /// misread digit makes of a year.
    package static func oneDigitApart(_ a: Int, _ b: Int) -> Bool {
        guard a != b, (1000...9999).contains(a), (1000...9999).contains(b) else { return false }
        var (x, y, differ) = (a, b, 0)
        while x > 0 {
            if x % 10 != y % 10 { differ += 1 }
            x /= 10
            y /= 10
        }
        return differ == 1
    }

    package static func plausible(_ day: CalendarDay, today: CalendarDay) -> Bool {
        day <= today && day.year >= 1990
    }

    private static func numericDates(in chars: [Character], order: NumericOrder, today: CalendarDay) -> [Found] {
        var found: [Found] = []
        var i = 0
        func number(at start: Int) -> (value: Int, digits: Int, end: Int)? {
            var j = start
            while j < chars.count, chars[j].isDigitASCII, j - start < 6 { j += 1 }
            guard j > start, let v = Int(String(chars[start..<j])) else { return nil }
            return (v, j - start, j)
        }
        /// The first `n` digits from `start` as a number of `n` digits.
        func leading(_ n: Int, from start: Int) -> (value: Int, digits: Int, end: Int) {
            (Int(String(chars[start..<(start + n)]))!, n, start + n)
        }
        while i < chars.count {
            guard chars[i].isDigitASCII, i == 0 || !(chars[i - 1].isDigitASCII) else {
                i += 1
                continue
            }
            guard var a = number(at: i), a.end < chars.count, "./-".contains(chars[a.end]),
                let b = number(at: a.end + 1), b.end < chars.count, chars[b.end] == chars[a.end],
                var c = number(at: b.end + 1), b.digits <= 2
            else {
                i += 1
                continue
            }
            let beforeTime = c.end < chars.count && chars[c.end] == ":"
            if a.digits != 4, (5...6).contains(c.digits), beforeTime {
                // A year glued to the time after it ("25/12/201808:13"): the first four digits are the year.
                c = leading(4, from: b.end + 1)
            } else if a.digits != 4, c.digits == 4, beforeTime, !(19...20).contains(c.value / 100) {
                // A two-digit year glued to the hour ("25/12/1808:13"): no year read starts with 18 or 08.
                c = leading(2, from: b.end + 1)
            } else if a.digits == 4, (3...4).contains(c.digits), beforeTime {
                // An ISO day glued to the hour ("2018-03-1214:22:01").
                c = leading(2, from: b.end + 1)
            } else if c.end < chars.count && chars[c.end].isDigitASCII || c.digits > 4 {
                // A number glued after the date (".2026123") or a decimal ("12.03.2026.5") is not a date.
                i += 1
                continue
            }
            let iso = a.digits == 4 && (1...2).contains(c.digits)
            let isoDay = iso ? CalendarDay(year: a.value, month: b.value, day: c.value).flatMap { plausible($0, today: today) ? $0 : nil } : nil
            var gluedToNumber = false
            if !iso, (3...6).contains(a.digits), c.digits == 4 || c.digits == 2 {
                // A cashier, terminal or receipt number glued before the date ("CASHIER:0112/03/2018"): the date
                // is the last two digits on. An ISO shape ("2918-03-18") is never read so.
                a = leading(2, from: a.end - 2)
                gluedToNumber = true
            }
            let start = a.end - a.digits
            let gluedToLetters = !gluedToNumber && (codePrefix(chars, before: start) || c.end < chars.count && chars[c.end].isLetter)
            if let isoDay {
                found.append(Found(day: isoDay, orderAmbiguous: false, textual: false, gluedToLetters: gluedToLetters))
            } else if (1...2).contains(a.digits), c.digits == 4 || c.digits == 2, let y = year(from: c.value, digits: c.digits, today: today) {
                let dayFirst = CalendarDay(year: y, month: b.value, day: a.value).flatMap { plausible($0, today: today) ? $0 : nil }
                // Dotted dates are day-first everywhere (month-first writers use slashes).
                let monthFirst =
                    chars[a.end] == "."
                    ? nil
                    : CalendarDay(year: y, month: a.value, day: b.value).flatMap { plausible($0, today: today) ? $0 : nil }
                let told: NumericOrder? = a.value > 12 && b.value <= 12 ? .dayFirst : b.value > 12 && a.value <= 12 ? .monthFirst : nil
                func make(_ day: CalendarDay, other: CalendarDay?) -> Found {
                    Found(
                        day: day, orderAmbiguous: other != nil, textual: false, gluedToLetters: gluedToLetters,
                        gluedToNumber: gluedToNumber, toldOrder: told, otherReading: other)
                }
                switch (dayFirst, monthFirst) {
                case (let d?, let m?) where d == m: found.append(make(d, other: nil))
                case (let d?, let m?): found.append(order == .dayFirst ? make(d, other: m) : make(m, other: d))
                case (let d?, nil): found.append(make(d, other: nil))
                case (nil, let m?): found.append(make(m, other: nil))
                default: break
                }
            }
            i = c.end
        }
        return found
    }

    /// Whether `text` prints a time of day ("14:22", "2:05", "14:22:01"), also glued to a date ("201814:22").
    package static func containsTime(_ text: String) -> Bool {
        let c = Array(text.utf8)
        func digit(_ k: Int) -> Bool { k >= 0 && k < c.count && c[k] >= 0x30 && c[k] <= 0x39 }
        func value(_ k: Int) -> Int { Int(c[k] - 0x30) }
        for k in c.indices where c[k] == 0x3A && digit(k - 1) && digit(k + 1) && digit(k + 2) && !digit(k + 3) {
            let hour = value(k - 1) + (digit(k - 2) ? 10 * value(k - 2) : 0)
            if hour <= 23 && value(k + 1) <= 5 { return true }
        }
        return false
    }

    /// OCR reads the letter O of a month name as a zero ("0ct 3, 2016", "N0V"): such a word is read as the month.
    package static func mendMonthNames(_ folded: String) -> String {
        guard folded.utf8.contains(0x30) else { return folded }
        var out = ""
        var word = ""
        func flush() {
            if word.contains("0") && word.contains(where: \.isLetter) {
                let mended = String(word.map { $0 == "0" ? "o" : $0 })
                if monthNames[mended] != nil { word = mended }
            }
            out += word
            word = ""
        }
        for ch in folded {
            if ch.isLetter || ch.isDigitASCII {
                word.append(ch)
            } else {
                flush()
                out.append(ch)
            }
        }
        flush()
        return out
    }

    private static func textualDates(in folded: String, today: CalendarDay) -> [Found] {
        // Tokens: letters or digits runs; punctuation and spaces separate; "de"/"of" are skipped.
        var tokens: [String] = []
        var current = ""
        var currentIsDigit = false
        for ch in mendMonthNames(folded) {
            let isDigit = ch.isDigitASCII
            if ch.isLetter || isDigit {
                if !current.isEmpty && isDigit != currentIsDigit {
                    tokens.append(current)
                    current = ""
                }
                current.append(ch)
                currentIsDigit = isDigit
            } else if !current.isEmpty {
                tokens.append(current)
                current = ""
            }
        }
        if !current.isEmpty { tokens.append(current) }
        tokens.removeAll { $0 == "de" || $0 == "of" || $0 == "del" || $0 == "le" }

        func asDay(_ t: String) -> Int? { t.count <= 2 ? Int(t).flatMap { (1...31).contains($0) ? $0 : nil } : nil }
        func asYear(_ t: String) -> Int? {
            guard t.allSatisfy(\.isNumber), t.count == 4 || t.count == 2, let v = Int(t) else { return nil }
            return year(from: v, digits: t.count, today: today)
        }

        var found: [Found] = []
        for (k, token) in tokens.enumerated() {
            guard let month = monthNames[token] else { continue }
            var day: Int?
            var year: Int?
            // day month year
            if k > 0, let d = asDay(tokens[k - 1]), k + 1 < tokens.count, let y = asYear(tokens[k + 1]) {
                day = d
                year = y
            } else if k + 2 < tokens.count, let d = asDay(tokens[k + 1]), let y = asYear(tokens[k + 2]) {
                // month day year
                day = d
                year = y
            }
            // "may"/"mar"/"dis" also are words: require both neighbours to be numbers (checked above).
            if let d = day, let y = year, let cd = CalendarDay(year: y, month: month, day: d), plausible(cd, today: today) {
                found.append(Found(day: cd, orderAmbiguous: false, textual: true))
            }
        }
        return found
    }
}
