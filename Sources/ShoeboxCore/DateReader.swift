/// Reads calendar days out of one line of text: day-month-year, month-day-year and ISO orders,
/// two-digit years, and month names or abbreviations in English, German, Spanish, French and Malay.
public enum DateReader {
    public struct Found: Hashable, Sendable {
        public let day: CalendarDay
        /// True when the numbers fit both day-month and month-day order and the order came from the locale.
        let orderAmbiguous: Bool
        let textual: Bool
    }

    /// Which order to prefer for 05/03/2026 when both readings are valid.
    public enum NumericOrder: Sendable { case dayFirst, monthFirst }

    /// Folded month names → month number.
    static let monthNames: [String: Int] = {
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
    static func dates(in line: String, folded: String?, order: NumericOrder, today: CalendarDay) -> [Found] {
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
    static func unreadableDateShapes(in line: String, order: NumericOrder, today: CalendarDay) -> [String] {
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
            if shaped && free {
                let token = String(chars[i..<end])
                if numericDates(in: Array(token), order: order, today: today).isEmpty { out.append(token) }
            }
            i = end
        }
        return out
    }

    static func year(from value: Int, digits: Int, today: CalendarDay) -> Int? {
        if digits == 4 { return value }
        if digits == 2 {
            let candidate = 2000 + value
            return candidate <= today.year + 1 ? candidate : 1900 + value
        }
        return nil
    }

    static func plausible(_ day: CalendarDay, today: CalendarDay) -> Bool {
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
        while i < chars.count {
            guard chars[i].isDigitASCII, i == 0 || !(chars[i - 1].isDigitASCII) else {
                i += 1
                continue
            }
            guard let a = number(at: i), a.end < chars.count, "./-".contains(chars[a.end]),
                let b = number(at: a.end + 1), b.end < chars.count, chars[b.end] == chars[a.end],
                var c = number(at: b.end + 1), b.digits <= 2
            else {
                i += 1
                continue
            }
            let followedByDigit = c.end < chars.count && chars[c.end].isDigitASCII
            if a.digits <= 2, (5...6).contains(c.digits), c.end < chars.count, chars[c.end] == ":" {
                // A year glued to the time after it ("25/12/201808:13"): the first four digits are the year.
                c = (Int(String(chars[(b.end + 1)..<(b.end + 5)]))!, 4, b.end + 5)
            } else if followedByDigit || c.digits > 4 {
                i += 1
                continue
            }
            // A number glued after the date (".2026123") or a decimal ("12.03.2026.5") is not a date.
            if a.digits == 4, (1...2).contains(c.digits) {
                if let d = CalendarDay(year: a.value, month: b.value, day: c.value), plausible(d, today: today) {
                    found.append(Found(day: d, orderAmbiguous: false, textual: false))
                }
            } else if (1...2).contains(a.digits), c.digits == 4 || c.digits == 2, let y = year(from: c.value, digits: c.digits, today: today) {
                let dayFirst = CalendarDay(year: y, month: b.value, day: a.value).flatMap { plausible($0, today: today) ? $0 : nil }
                // Dotted dates are day-first everywhere (month-first writers use slashes).
                let monthFirst =
                    chars[a.end] == "."
                    ? nil
                    : CalendarDay(year: y, month: a.value, day: b.value).flatMap { plausible($0, today: today) ? $0 : nil }
                switch (dayFirst, monthFirst) {
                case (let d?, let m?):
                    let ambiguous = d != m
                    found.append(Found(day: order == .dayFirst ? d : m, orderAmbiguous: ambiguous, textual: false))
                case (let d?, nil): found.append(Found(day: d, orderAmbiguous: false, textual: false))
                case (nil, let m?): found.append(Found(day: m, orderAmbiguous: false, textual: false))
                default: break
                }
            }
            i = c.end
        }
        return found
    }

    private static func textualDates(in folded: String, today: CalendarDay) -> [Found] {
        // Tokens: letters or digits runs; punctuation and spaces separate; "de"/"of" are skipped.
        var tokens: [String] = []
        var current = ""
        var currentIsDigit = false
        for ch in folded {
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
