/// Payment cards on a page: the card a purchase was paid with (its scheme and last four digits), and full card
/// numbers, which are cut to their last four before anything is parsed or stored.
public struct CardUsed: Hashable, Sendable, Codable {
    /// "VISA", "MASTERCARD", "AMEX", "MAESTRO", "GIROCARD", "UNIONPAY", "MYDEBIT", "JCB"; nil when the page does not say.
    public var scheme: String?
    /// The card's or account's last four digits.
    public var last4: String

    public init(scheme: String?, last4: String) {
        self.scheme = scheme
        self.last4 = last4
    }

    /// "VISA ••••4242", "••••1234".
    public var display: String { (scheme.map { $0 + " " } ?? "") + "••••" + last4 }
}

public enum CardNumbers {
    /// Words that say a line is about a payment card.
    public static let contextWords = [
        "card", "visa", "mastercard", "master", "amex", "maestro", "girocard", "karte", "kartennr", "carte", "tarjeta", "kad", "debit",
        "credit", "pan", "unionpay", "mydebit", "jcb"
    ]

    /// Whether `digits` (13–19 of them) pass the Luhn check and start as a card scheme's numbers do (Visa 4, Mastercard
    /// 51–55 and 2221–2720, Amex 34/37, Discover and UnionPay 6, JCB 35, Maestro 50/56–58).
    public static func isCardNumber(_ digits: [UInt8]) -> Bool {
        guard (13...19).contains(digits.count) else { return false }
        let first = Int(digits[0])
        let two = Int(digits[0]) * 10 + Int(digits[1])
        let four = two * 100 + Int(digits[2]) * 10 + Int(digits[3])
        let scheme =
            first == 4 || (51...55).contains(two) || (2221...2720).contains(four) || two == 34 || two == 37 || first == 6 || two == 35
            || two == 50 || (56...58).contains(two)
        guard scheme else { return false }
        var sum = 0
        for (i, d) in digits.reversed().enumerated() {
            var v = Int(d)
            if i % 2 == 1 {
                v *= 2
                if v > 9 { v -= 9 }
            }
            sum += v
        }
        return sum % 10 == 0
    }

    /// The line with every full card number cut to its last four (the other digits become "*"): a number of 13–19
    /// digits that passes the Luhn check and starts as a scheme's do, written in one word or in groups ("4111 1111
    /// 1111 1111"), on a line that names a card or written in three groups or more. A bare long number with no card
    /// word (a wallet's 16-digit reference) is left as it is: one in ten of them passes the Luhn check by chance.
    public static func masked(_ line: OCRLine) -> OCRLine {
        let words = line.words
        guard words.contains(where: { $0.text.utf8.contains { $0 >= 0x30 && $0 <= 0x39 } }) else { return line }
        let lower = line.text.lowercased()
        let context = contextWords.contains { lower.contains($0) }
        var out = words
        var i = 0
        while i < words.count {
            // A run of words made of digits (and dashes between groups), at most 19 digits in all.
            var j = i
            var digits: [UInt8] = []
            while j < words.count, let d = digitsOnly(words[j].text), digits.count + d.count <= 19 {
                digits += d
                j += 1
            }
            let groups = words[i..<j].reduce(0) { $0 + $1.text.split(separator: "-").count }
            if j > i, isCardNumber(digits), context || groups >= 3 {
                var keep = 4
                for k in stride(from: j - 1, through: i, by: -1) {
                    var chars = Array(words[k].text)
                    for c in chars.indices.reversed() where chars[c].isASCII && chars[c].isNumber {
                        if keep > 0 { keep -= 1 } else { chars[c] = "*" }
                    }
                    out[k] = OCRWord(text: String(chars), box: words[k].box, confidence: words[k].confidence)
                }
                i = j
            } else {
                i += 1
            }
        }
        return out == words ? line : OCRLine(words: out, reader: line.reader)
    }

    /// A page with every line's card numbers cut (`masked`).
    public static func masked(_ page: OCRPage) -> OCRPage {
        let lines = page.lines.map(masked)
        guard lines != page.lines else { return page }
        var p = OCRPage(pageNumber: page.pageNumber, width: page.width, height: page.height, dpi: page.dpi, source: page.source, lines: lines)
        p.turn = page.turn
        return p
    }

    /// The digits of a word made only of digits and dashes ("4111", "4111-1111"), nil for any other word.
    static func digitsOnly(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        for b in text.utf8 {
            if b >= 0x30 && b <= 0x39 { out.append(b - 0x30) } else if b != 0x2D { return nil }
        }
        return out.isEmpty ? nil : out
    }
}
