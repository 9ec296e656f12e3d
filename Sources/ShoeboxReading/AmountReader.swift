import Foundation
package import ShoeboxCore

/// Reads money amounts out of one line of text, in every common convention:
/// 1.234,56 · 1,234.56 · 1 234,56 · 1'234.56 · 12,5 · -3,00 · 3,00- · (3.00) · RM12.50 · 12,50 € · EUR 12.50.
package enum AmountReader {
    public struct Found: Hashable, Sendable {
        package let reading: AmountReading
        /// Character offsets of the number in the line.
        package let range: Range<Int>
        /// True when a percent sign follows: a rate, not an amount.
        package let isRate: Bool

        package init(reading: AmountReading, range: Range<Int>, isRate: Bool) {
            self.reading = reading
            self.range = range
            self.isRate = isRate
        }
    }

    /// Currency marks and the ISO code each stands for. Longest first, matched on the original text.
    /// Without a currency a total cannot be recorded at all, so a country's everyday mark matters: Moroccan tills
    /// print "56.00 DH" (dirham), Emirati ones "AED".
    package static let currencyMarks: [(String, String)] = [
        ("EUR", "EUR"), ("USD", "USD"), ("GBP", "GBP"), ("MYR", "MYR"), ("CHF", "CHF"), ("SGD", "SGD"), ("MAD", "MAD"), ("AED", "AED"),
        ("US$", "USD"), ("S$", "SGD"), ("SFr.", "CHF"), ("Fr.", "CHF"), ("RM", "MYR"), ("DH", "MAD"), ("€", "EUR"), ("$", "USD"),
        ("£", "GBP")
    ]

    /// Mends the breaks OCR puts into printed amounts, before they are read: "64. 15" and "64 .15" → "64.15",
    /// "RM 64 13" → "RM 64.13" (a space for the decimal point right after a currency mark), and the letter O
    /// read for a zero between digits ("5.O0" → "5.00"). Hand-written rather than regular expressions:
    /// it runs on every line.
    package static func mend(_ line: String) -> String {
        guard line.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return line }
        var c = Array(line)
        func digit(_ i: Int) -> Bool { i >= 0 && i < c.count && c[i].isDigitASCII }
        func sep(_ i: Int) -> Bool { i >= 0 && i < c.count && (c[i] == "." || c[i] == ",") }
        func zeroish(_ i: Int) -> Bool { i >= 0 && i < c.count && (c[i].isDigitASCII || c[i] == "O" || c[i] == "o") }
        // O between digits, or right after "5." / "5.0" with digits around: a zero.
        for i in c.indices where c[i] == "O" || c[i] == "o" {
            let letterAfter = i + 1 < c.count && c[i + 1].isLetterFast && c[i + 1] != "O" && c[i + 1] != "o"
            if (digit(i - 1) && digit(i + 1)) || (sep(i - 1) && digit(i - 2) && zeroish(i + 1))
                || (digit(i - 1) && sep(i - 2) && digit(i - 3) && !letterAfter) || (sep(i - 1) && digit(i - 2) && !letterAfter)
                || (sep(i + 1) && digit(i + 2) && digit(i + 3) && (i == 0 || !c[i - 1].isLetterFast))
            {
                c[i] = "0"
            }
        }
        let changedO = c.count != line.count || !c.elementsEqual(line)
        guard changedO || line.utf8.contains(0x20) else { return line }
        var out: [Character] = []
        out.reserveCapacity(c.count)
        var changed = changedO
        var i = 0
        while i < c.count {
            if c[i] == " " {
                // "64. 15": separator before, two digits after and then no digit.
                if sep(i - 1) && digit(i - 2) && digit(i + 1) && digit(i + 2) && !digit(i + 3) {
                    i += 1
                    changed = true
                    continue
                }
                // "64 .15"
                if digit(i - 1) && sep(i + 1) && digit(i + 2) && digit(i + 3) && !digit(i + 4) {
                    i += 1
                    changed = true
                    continue
                }
                // "RM 64 13": after a currency mark and 1–4 digits, a space then exactly two digits ends the amount.
                if digit(i - 1) && digit(i + 1) && digit(i + 2) && !(digit(i + 3) || sep(i + 3)) {
                    var k = i - 1
                    while k >= 0 && c[k].isDigitASCII { k -= 1 }
                    let run = i - 1 - k
                    var m = k
                    if m >= 0 && c[m] == " " { m -= 1 }
                    let mark = m >= 0 ? String(c[max(0, m - 2)...m]) : ""
                    if (1...4).contains(run)
                        && (mark.hasSuffix("RM") || mark.hasSuffix("$") || mark.hasSuffix("€") || mark.hasSuffix("£")
                            || mark.hasSuffix("EUR") || mark.hasSuffix("USD") || mark.hasSuffix("MYR") || mark.hasSuffix("GBP"))
                    {
                        out.append(".")
                        i += 1
                        changed = true
                        continue
                    }
                }
            }
            out.append(c[i])
            i += 1
        }
        return joinDigitsAfterMark(changed ? out : c) ?? (changed ? String(out) : line)
    }

    /// Whether a currency mark ends at `m` ("RM", "$", "€", "£", "EUR", "USD", "MYR", "GBP").
    package static func currencyMarkEnds(_ c: [Character], at m: Int) -> Bool {
        guard m >= 0 else { return false }
        let mark = String(c[max(0, m - 2)...m])
        return ["RM", "$", "€", "£", "EUR", "USD", "MYR", "GBP"].contains { mark.hasSuffix($0) }
    }

    /// "RM5 1.30" → "RM51.30": a space OCR put between the digits of an amount written right after its currency
    /// mark (a wide glyph, or a speck, read as a gap). Only 1–3 digits on each side and a decimal part after:
    /// "RM 1 234.50" reads the same either way. Nil when nothing is joined.
    package static func joinDigitsAfterMark(_ c: [Character]) -> String? {
        func digit(_ i: Int) -> Bool { i >= 0 && i < c.count && c[i].isDigitASCII }
        var out: [Character] = []
        var joined = false
        for i in c.indices {
            if c[i] == " " && digit(i - 1) && digit(i + 1) {
                var k = i - 1
                while digit(k) { k -= 1 }
                var j = i + 1
                while digit(j) { j += 1 }
                let markEnd = k >= 0 && c[k] == " " ? k - 1 : k
                if (1...3).contains(i - 1 - k) && (1...3).contains(j - i - 1) && currencyMarkEnds(c, at: markEnd)
                    && j < c.count && (c[j] == "." || c[j] == ",") && digit(j + 1) && digit(j + 2) && !digit(j + 3)
                {
                    joined = true
                    continue
                }
            }
            out.append(c[i])
        }
        return joined ? String(out) : nil
    }

    public static func amounts(in line: String) -> [Found] {
        let chars = Array(line)
        var results: [Found] = []
        var i = 0
        while i < chars.count {
            guard chars[i].isDigitASCII, i == 0 || !(chars[i - 1].isDigitASCII) else {
                i += 1
                continue
            }
            // Maximal run of digits and separators . , ' and a single space before exactly three digits.
            var j = i
            while j < chars.count {
                let c = chars[j]
                if c.isDigitASCII {
                    j += 1
                    continue
                }
                if (c == "." || c == "," || c == "'" || c == "’") && j + 1 < chars.count && chars[j + 1].isDigitASCII {
                    j += 1
                    continue
                }
                if c == " " && j + 3 < chars.count + 0 && isThreeDigitGroup(chars, j + 1) && hasDigitsBefore(chars, j, count: 1, limit: 3, start: i) {
                    j += 1
                    continue
                }
                break
            }
            let token = String(chars[i..<j])
            if let parsed = parse(token) {
                // The sign as tills print it: "-0.03", "-RM0.03", "0.03-", "(0.03)", "(RM 0.03)".
                let before = signPosition(chars, before: i)
                var negative = false
                if before >= 0 && (chars[before] == "-" || chars[before] == "−") { negative = true }
                if j < chars.count && chars[j] == "-" && (j + 1 == chars.count || chars[j + 1] == " ") { negative = true }
                if before >= 0 && chars[before] == "(" && j < chars.count && chars[j] == ")" { negative = true }
                var k = j
                while k < chars.count && chars[k] == " " { k += 1 }
                let isRate = k < chars.count && chars[k] == "%"
                let hint = currency(around: chars, start: i, end: j)
                results.append(
                    Found(
                        reading: AmountReading(minorUnits: negative ? -parsed : parsed, fractionDigits: 2, currencyHint: hint),
                        range: i..<j, isRate: isRate))
            }
            i = max(j, i + 1)
        }
        return results
    }

    /// Where a sign of the number starting at `start` would stand: right before it, or before a currency mark
    /// written right before it ("-RM0.03", "(RM 0.03)"). -1 at the start of the line.
    package static func signPosition(_ chars: [Character], before start: Int) -> Int {
        let k = start - 1
        guard k >= 0, chars[k] != "-", chars[k] != "−", chars[k] != "(" else { return k }
        var m = k
        while m >= 0 && chars[m] == " " { m -= 1 }
        var letters = ""
        while m >= 0 && letters.count < 4 && !chars[m].isDigitASCII && chars[m] != " " && chars[m] != "-" && chars[m] != "−" && chars[m] != "(" {
            letters = String(chars[m]) + letters
            m -= 1
        }
        return !letters.isEmpty && currencyMarks.contains(where: { $0.0 == letters }) ? m : k
    }

    private static func isThreeDigitGroup(_ chars: [Character], _ start: Int) -> Bool {
        guard start + 3 <= chars.count else { return false }
        for k in start..<(start + 3) where !(chars[k].isDigitASCII) { return false }
        return start + 3 == chars.count || !(chars[start + 3].isDigitASCII)
    }

    private static func hasDigitsBefore(_ chars: [Character], _ position: Int, count: Int, limit: Int, start: Int) -> Bool {
        // A space groups thousands only when the run so far is 1–3 digits ("1 234,56"), never "2026 12,50".
        let run = chars[start..<position]
        return run.count >= count && run.count <= limit && run.allSatisfy { $0.isDigitASCII }
    }

    /// Interprets a run of digits and separators as cents. The decimal separator is the last separator
    /// followed by one or two digits at the end; every other separator must group exactly three digits.
    package static func parse(_ token: String) -> Int64? {
        let chars = Array(token)
        guard let lastSep = chars.lastIndex(where: { !$0.isNumber }) else { return nil } // bare integers are not amounts
        let fraction = chars[(lastSep + 1)...]
        let sep = chars[lastSep]
        guard sep == "." || sep == ",", fraction.count == 1 || fraction.count == 2 else { return nil }
        let wholePart = Array(chars[..<lastSep])
        // Group separators in the whole part: all the same, groups of three, differing from the decimal one.
        let groups = wholePart.split(omittingEmptySubsequences: false, whereSeparator: { !$0.isNumber })
        guard let first = groups.first, !first.isEmpty, first.count <= (groups.count > 1 ? 3 : 9) else { return nil }
        if groups.count > 1 {
            let seps = Set(wholePart.filter { !$0.isNumber })
            guard seps.count == 1, let groupSep = seps.first, groupSep != sep,
                groups.dropFirst().allSatisfy({ $0.count == 3 })
            else { return nil }
        }
        guard let whole = Int64(String(wholePart.filter(\.isNumber))) else { return nil }
        var cents = Int64(String(fraction)) ?? 0
        if fraction.count == 1 { cents *= 10 }
        return whole * 100 + cents
    }

    /// The currency written right before or after the number (within a few characters), if any.
    package static func currency(around chars: [Character], start: Int, end: Int) -> String? {
        let before = String(chars[max(0, start - 5)..<start]).trimmingTrailingSpacesAndSign()
        let after = String(chars[end..<min(chars.count, end + 6)]).trimmingLeadingSpaces()
        for (mark, code) in currencyMarks {
            if before.hasSuffix(mark) && isWordStart(before, mark) { return code }
            if after.hasPrefix(mark) && isWordEnd(after, mark) { return code }
        }
        return nil
    }

    private static func isWordStart(_ text: String, _ mark: String) -> Bool {
        guard let first = mark.first, first.isLetter else { return true }
        let rest = text.dropLast(mark.count)
        return rest.last.map { !$0.isLetter } ?? true
    }

    private static func isWordEnd(_ text: String, _ mark: String) -> Bool {
        guard let last = mark.last, last.isLetter else { return true }
        let rest = text.dropFirst(mark.count)
        return rest.first.map { !$0.isLetter } ?? true
    }
}

extension String {
    fileprivate func trimmingTrailingSpacesAndSign() -> String {
        var s = Substring(self)
        while let last = s.last, last == " " || last == "-" || last == "(" { s = s.dropLast() }
        return String(s)
    }

    fileprivate func trimmingLeadingSpaces() -> String {
        String(drop { $0 == " " })
    }
}

extension Character {
    /// Letters, with ASCII decided without Unicode tables.
    @inline(__always) public var isLetterFast: Bool {
        if let a = asciiValue { return (a >= 0x41 && a <= 0x5A) || (a >= 0x61 && a <= 0x7A) }
        return isLetter
    }

    /// 0–9 only; much cheaper than `isNumber`, which consults Unicode properties.
    @inline(__always) public var isDigitASCII: Bool {
        guard let a = asciiValue else { return false }
        return a >= 0x30 && a <= 0x39
    }
}
