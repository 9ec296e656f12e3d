import Foundation
public import ShoeboxCore

/// The small pieces the payment-term and contract-term readers share: words of a folded line, "30 Tage",
/// "three (3) months", the text after a label, a date after a label.
public enum TermWording {
    /// A period as printed: a count and its unit.
    package struct Period: Hashable, Sendable {
        package enum Unit: Hashable, Sendable { case days, weeks, months, years }
        package let count: Int
        package let unit: Unit
        /// Index of the count's word in the words it was read from.
        package let at: Int
    }

    /// Words of a folded line: runs of letters or of digits ("30-day" → "30", "day"; "jours." → "jours"). OCR
    /// glues a count to its unit ("14Tage", "net30"): a run of digits and a run of letters are two words.
    package static func words(_ folded: Substring) -> [String] {
        var out: [String] = []
        var current = ""
        var currentIsDigits = false
        for c in folded {
            let digit = c.isNumber
            guard c.isLetter || digit else {
                if !current.isEmpty { out.append(current) }
                current = ""
                continue
            }
            if !current.isEmpty && digit != currentIsDigits {
                out.append(current)
                current = ""
            }
            current.append(c)
            currentIsDigits = digit
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    package static func words(_ folded: String) -> [String] { words(folded[...]) }

    /// Every "count unit" in `words`: "30 tage", "14 calendar days", "three months", "1 mes". One qualifier
    /// may stand between the count and the unit ("30 calendar days").
    package static func periods(in words: [String]) -> [Period] {
        var out: [Period] = []
        for (i, w) in words.enumerated() {
            guard let count = Int(w) ?? numberWords[w], w.count <= 4 || numberWords[w] != nil else { continue }
            var j = i + 1
            if j < words.count, fillers.contains(words[j]) { j += 1 }
            guard j < words.count, let unit = units[words[j]] else { continue }
            out.append(Period(count: count, unit: unit, at: i))
        }
        return out
    }

    /// Units, folded, in the five languages. German compounds of a day ("Kalendertage", "Werktage") count as
    /// days: working days are at least as many calendar days, so reading them as calendar days errs early.
    package static let units: [String: Period.Unit] = {
        var u: [String: Period.Unit] = [:]
        for w in [
            "day", "days", "tag", "tage", "tagen", "kalendertage", "kalendertagen", "werktage", "werktagen", "dia", "dias", "jour",
            "jours", "hari"
        ] { u[w] = .days }
        for w in ["week", "weeks", "woche", "wochen", "semaine", "semaines", "semana", "semanas", "minggu"] { u[w] = .weeks }
        for w in ["month", "months", "monat", "monate", "monaten", "monats", "mois", "mes", "meses", "bulan"] { u[w] = .months }
        for w in ["year", "years", "jahr", "jahre", "jahren", "annee", "annees", "ans", "ano", "anos", "tahun"] { u[w] = .years }
        return u
    }()

    /// Words that may stand between a count and its unit: "30 calendar days", "14 working days" (working days
    /// read as calendar days err early, as above). "30 días naturales" puts its qualifier after the unit.
    package static let fillers: Set<String> = ["calendar", "working", "business", "clear", "full", "volle", "vollen"]

    /// Counts written as words, the ones contracts and terms use.
    package static let numberWords: [String: Int] = [
        "one": 1, "two": 2, "three": 3, "four": 4, "six": 6, "twelve": 12, "fourteen": 14, "thirty": 30,
        "ein": 1, "einen": 1, "eine": 1, "einem": 1, "zwei": 2, "drei": 3, "vier": 4, "sechs": 6, "zwolf": 12, "vierzehn": 14,
        "dreissig": 30, "un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "douze": 12, "quinze": 15, "trente": 30,
        "uno": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "seis": 6, "doce": 12, "quince": 15, "treinta": 30,
        "satu": 1, "dua": 2, "tiga": 3, "empat": 4, "enam": 6, "sebulan": 1
    ]

    /// Where `keyword` first occurs in `folded` at word boundaries: the text after it; nil when it does not occur.
    package static func after(_ keyword: String, in folded: String) -> Substring? { around(keyword, in: folded)?.after }

    /// The text before and after the first occurrence of `keyword` in `folded` at word boundaries.
    package static func around(_ keyword: String, in folded: String) -> (before: String, after: Substring)? {
        let text = Array(folded.utf8)
        let key = Array(keyword.utf8)
        guard !key.isEmpty, key.count <= text.count else { return nil }
        for i in 0...(text.count - key.count) where text[i] == key[0] {
            guard text[i..<(i + key.count)].elementsEqual(key) else { continue }
            let end = i + key.count
            let beforeOK = i == 0 || !TextFolding.isLetterByte(text[i - 1]) || !TextFolding.isLetterByte(key[0])
            let afterOK = end == text.count || !TextFolding.isLetterByte(text[end]) || !TextFolding.isLetterByte(key[key.count - 1])
            guard beforeOK && afterOK else { continue }
            return (String(decoding: text[..<i], as: UTF8.self), Substring(String(decoding: text[end...], as: UTF8.self)))
        }
        return nil
    }

    /// A day far beyond any document: dates read here are due days and ends of terms, which lie ahead of the
    /// page, so the date reader's "not after today" check must not drop them.
    public static let noLimit = CalendarDay(year: 9999, month: 12, day: 31)!

    /// The first date in `text` (folded), read in `order` when the numbers fit both.
    package static func firstDate(in text: Substring, order: DateReader.NumericOrder) -> CalendarDay? {
        dates(in: text, order: order).first
    }

    /// The dates in `text` (folded), as the date reader gives them.
    package static func dates(in text: Substring, order: DateReader.NumericOrder) -> [CalendarDay] {
        // A sentence's full stop after the year ("bis zum 14.04.2026.") would read as a fourth part of the date.
        let s = String(text).split(separator: " ").map { TextFolding.trim(String($0), [".", ",", ";", ":", ")", "("]) }.joined(
            separator: " ")
        return DateReader.dates(in: s, folded: s, order: order, today: noLimit).map(\.day)
    }

    /// The date after `label` on line `i`, in the clause the label opens ("fällig am 14.04.2026, mit Skonto bis
    /// 24.03.2026" reads 14 April), or on the next line when the label ends its line ("Due date" above
    /// "14.04.2026"). Under a row of headings ("Invoice date   Due date") the date in the label's column is taken:
    /// as many dates along as there are date headings before the label. Returns the day, the printed wording
    /// it was read from and the clause (folded).
    package static func date(after label: String, line i: Int, folded: [String], printed: [String], order: DateReader.NumericOrder)
        -> (day: CalendarDay, wording: String, clause: String)?
    {
        guard let (before, rest) = around(label, in: folded[i]) else { return nil }
        let clause = clauses(String(rest)).first ?? ""
        if let day = firstDate(in: clause[...], order: order) { return (day, clean(printed[i]), clause) }
        // Only a label that ends its line, or heads a column of a row of headings (no digits after it, and a row
        // of values below, starting with one), reaches to the next line. "Payment due upon receipt" above
        // "Invoice date 14.03.2026" does not.
        guard i + 1 < folded.count else { return nil }
        let after = words(rest)
        let valuesBelow = words(folded[i + 1]).first?.first?.isNumber == true
        let headingRow = valuesBelow && !rest.contains(where: \.isNumber) && periods(in: after).isEmpty
        guard after.isEmpty || headingRow else { return nil }
        let column = words(before).filter(isDateHeading).count
        let below = dates(in: folded[i + 1][...], order: order)
        guard column < below.count else { return nil }
        return (below[column], clean(printed[i]) + " " + clean(printed[i + 1]), folded[i + 1])
    }

    /// A column heading of a date: "Date", "Rechnungsdatum", "Fecha", "Tarikh".
    package static func isDateHeading(_ word: String) -> Bool {
        ["date", "datum", "fecha", "tarikh", "tgl"].contains(word) || word.hasSuffix("datum")
    }

    /// A line split where a second term begins: "2 % Skonto innerhalb 10 Tagen, 30 Tage netto",
    /// "10 days 2 % discount or 30 days net". A comma only with a space after it: "1,234.00" stays whole.
    package static func clauses(_ folded: String) -> [String] {
        var parts = sentences(folded)
        for separator in [", ", "; ", " oder ", " or ", " sonst ", " otherwise ", " ou ", " o ", " atau ", " sinon "] {
            parts = parts.flatMap { $0.components(separatedBy: separator) }
        }
        return parts
    }

    /// The sentences of a line: a ". " after a word or after a year ends one ("Zahlbar bis 28.10.2025 ohne Abzug. Bei
    /// Zahlung bis 21.10.2025 2 % Skonto"); after a day's number it does not ("bis 14. März 2026").
    package static func sentences(_ folded: String) -> [String] {
        let chars = Array(folded)
        var out: [String] = []
        var start = 0
        var i = 0
        while i + 1 < chars.count {
            if chars[i] == ".", chars[i + 1] == " ", i > 0 {
                var j = i - 1
                while j >= start, chars[j].isNumber { j -= 1 }
                let digits = i - 1 - j
                if chars[i - 1].isLetter || digits == 4 {
                    out.append(String(chars[start..<i]))
                    start = i + 2
                    i += 2
                    continue
                }
            }
            i += 1
        }
        out.append(String(chars[start...]))
        return out.filter { !$0.isEmpty }
    }

    /// The printed line without the spaces around it, for an explanation.
    package static func clean(_ text: String) -> String {
        TextFolding.trim(text, [" ", "\t"])
    }
}
