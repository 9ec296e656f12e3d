import Foundation
internal import ShoeboxCore
internal import ShoeboxReading

/// The card (or account) a purchase was paid with, by its scheme and last four digits, as receipts and payment
/// screens print it: "VISA ****4242", "XXXXXXXXXXXX1234", "Kartennr. ************1234", "MasterCard •••• 9876",
/// "Card ending in 1234", "Savings Account-i 1234". Full card numbers never reach here: `CardNumbers.masked` cut them
/// to their last four when the lines were prepared.
extension ReceiptParser {
    /// The first card or account the page prints, with the scheme named on its line or the line above.
    static func cardUsed(_ lines: [Line]) -> CardUsed? {
        for (k, line) in lines.enumerated() {
            guard let last4 = lastFour(line.text) else { continue }
            let scheme = cardScheme(line.folded) ?? (k > 0 ? cardScheme(lines[k - 1].folded) : nil)
            return CardUsed(scheme: scheme, last4: last4)
        }
        return nil
    }

    /// Four digits after a mask of four or more marks ("****4242", "xxxx-xxxx-xxxx-1234", "•••• 9876"), or after
    /// "ending (in)" and its like.
    static func lastFour(_ text: String) -> String? {
        let range = NSRange(text.startIndex..., in: text)
        for pattern in [maskedNumber, endingIn] {
            if let m = pattern.firstMatch(in: text, range: range), let r = Range(m.range(at: 1), in: text) { return String(text[r]) }
        }
        return nil
    }

    static let maskedNumber = try! NSRegularExpression(pattern: #"(?:[*xX•#·][\s-]?){4,}(\d{4})(?!\d)"#)
    static let endingIn = try! NSRegularExpression(
        pattern: #"(?i)\b(?:ending(?: in| with)?|endet auf|terminant par|terminada en|berakhir dengan)[\s:]*(\d{4})(?!\d)"#)

    /// The card scheme a folded line names.
    static func cardScheme(_ folded: String) -> String? {
        Keywords.cardSchemes.first(in: folded).flatMap { Keywords.cardSchemeNames[$0] }
    }

    /// A payment screen's "paid from" ending in an account's or card's last four ("Savings Account-i 1234",
    /// "OCTO Savings 7788", "Visa 4242").
    static func accountLastFour(_ paidFrom: String) -> CardUsed? {
        let folded = TextFolding.fold(paidFrom)
        guard let last = paidFrom.split(separator: " ").last, last.count == 4, last.allSatisfy(\.isNumber),
            cardScheme(folded) != nil
                || ["account", "akaun", "savings", "current", "card", "kad", "simpanan", "semasa"].contains(where: { folded.contains($0) })
        else { return lastFour(paidFrom).map { CardUsed(scheme: cardScheme(folded), last4: $0) } }
        return CardUsed(scheme: cardScheme(folded), last4: String(last))
    }
}
