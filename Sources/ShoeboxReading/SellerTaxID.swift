internal import ShoeboxCore

/// The seller's tax or registration number on one line: read by the parser (`sellerTaxIDCandidates`) and by the
/// merchant keys (`MerchantKey.keys(of:)`), so both find the same number after the same keywords.
public enum SellerTaxID {
    /// "USt-IdNr.: DE123456789", "GST REG NO: 000136577024", "N° TVA : FR 11 123 456 782", "NIF B12345678": the
    /// first of `keywords` on the line and the ID after it, capitals and digits only (groups of digits parted by
    /// spaces, "-" or "/" join). Nil without a keyword or with fewer than six digits.
    /// `repairingOCR`: letters OCR reads for digits inside the number ("0O0123", "12l45") are read as digits first.
    public static func read(_ text: String, folded: String, keywords: KeywordList = Keywords.vatID, repairingOCR: Bool = false)
        -> (keyword: String, id: String)?
    {
        guard let keyword = keywords.first(in: folded), let range = folded.range(of: keyword) else { return nil }
        let offset = folded.distance(from: folded.startIndex, to: range.upperBound)
        guard offset <= text.count else { return nil }
        let after = String(text.dropFirst(offset))
        // The ID runs over tokens of capitals, digits and spaces after the keyword ("FR 11 123 456 782").
        var rest = Substring(repairingOCR ? OCRDigits.repaired(after) : after)
        for round in 0..<3 {
            // Number markers and punctuation before the ID: "No. :", "#", "N°", and "N0" as OCR reads "NO".
            var previous: Character = " "
            while let ch = rest.first {
                let markerZero = ch == "0" && "nN".contains(previous) && !(rest.dropFirst().first?.isDigitASCII ?? false)
                guard markerZero || (!ch.isDigitASCII && " .,;:#+-/nNoOrR°".contains(ch)) else { break }
                previous = ch
                rest = rest.dropFirst()
            }
            // A word or two before the number: another keyword ("NIF/CIF B12345678") or the rest of one
            // ("TVA intracommunautaire FR…"), lower case; a word in capitals is the ID's country prefix ("FR", "DE").
            let word = rest.prefix { $0.isLetter }
            guard round < 2, !word.isEmpty, word.count == rest.prefix(while: { $0 != " " && $0 != ":" && $0 != "." }).count,
                word.first!.isLowercase || keywords.words.contains(TextFolding.fold(String(word)))
            else { break }
            rest = rest.dropFirst(word.count)
        }
        var id = ""
        let chars = Array(rest)
        for (i, ch) in chars.enumerated() {
            if ch.isDigitASCII || (ch.isUppercase && ch.isLetterFast) {
                id.append(ch)
            } else if ch == " " || ch == "-" || ch == "/" {
                // Groups of digits continue the number ("FR 11 123 456 782"); a word after a space ends it.
                if ch == " ", i + 1 < chars.count, !chars[i + 1].isDigitASCII { break }
            } else {
                break
            }
        }
        guard id.filter(\.isDigitASCII).count >= 6 else { return nil }
        return (keyword, id)
    }

    /// For each line, whether it stands in the buyer's block of an invoice: from a buyer heading ("Kunde",
    /// "Bill to", "Client") for five lines, unless a seller heading comes first. A number there is the buyer's.
    public static func inBuyerBlock(_ folded: [String]) -> [Bool] {
        var buyerUntil = -1
        return folded.enumerated().map { k, line in
            if Keywords.buyerBlock.any(in: line) { buyerUntil = k + 5 }
            if Keywords.sellerBlock.any(in: line) { buyerUntil = -1 }
            return k <= buyerUntil
        }
    }
}

/// Letters that OCR reads for digits, put back inside a number.
public enum OCRDigits {
    /// "0O0123" → "000123", "12l45" → "12145", "12S45" → "12545": O and o, I, l and | beside a digit are read as 0
    /// and 1; S and B only between two digits (a Spanish NIF starts with B, a word may end in S). Called only on
    /// text a keyword says is a number.
    public static func repaired(_ text: String) -> String {
        var chars = Array(text)
        // Twice, forwards then backwards, so that a run of letters before the digits ("OO1451") is mended too.
        for i in Array(chars.indices) + chars.indices.reversed() {
            let before = i > 0 && chars[i - 1].isDigitASCII
            let after = i + 1 < chars.count && chars[i + 1].isDigitASCII
            switch chars[i] {
            case "O", "o": if before || after { chars[i] = "0" }
            case "I", "l", "|": if before || after { chars[i] = "1" }
            case "S": if before && after { chars[i] = "5" }
            case "B": if before && after { chars[i] = "8" }
            default: break
            }
        }
        return String(chars)
    }
}
