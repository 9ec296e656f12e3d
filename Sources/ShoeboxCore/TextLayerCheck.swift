/// Tells a real PDF text layer from the junk an earlier, poor OCR left behind ("Tbe tota1 ~s Rl\\/1 12.5O").
/// A page's layer is used only when most of its words look like words: mostly letters, digits and the
/// punctuation of amounts and dates; and, for words of letters, pronounceable (a vowel, no run of five
/// consonants, no case flipping inside the word, no digits inside letters).
public enum TextLayerCheck {
    public static func isReal(_ page: OCRPage) -> Bool {
        let words = page.lines.flatMap(\.words).map(\.text)
        guard words.count >= 5 else { return false }
        let clean = words.filter { w in
            let good = w.filter { $0.isLetter || $0.isNumber || ".,:;-/€$£%()&'".contains($0) }.count
            return Double(good) >= Double(w.count) * 0.8
        }
        guard Double(clean.count) >= Double(words.count) * 0.75 else { return false }
        let lettered = words.filter { $0.filter(\.isLetter).count >= 3 }
        guard !lettered.isEmpty else { return true }
        let plausible = lettered.filter(isPlausibleWord)
        return Double(plausible.count) >= Double(lettered.count) * 0.7
    }

    static let vowels = Set("aeiouyäöüàâéèêëîïôùûáíóúAEIOUYÄÖÜÀÂÉÈÊËÎÏÔÙÛÁÍÓÚ")

    /// A word a person could have printed: "GmbH", "Rückgeld", "INV-2025" yes; "Tbe", "tHiS", "Wa1k3r", "xkcdq" no.
    static func isPlausibleWord(_ word: String) -> Bool {
        let core = word.trimmingCharactersNotLettersOrDigits()
        let letters = core.filter(\.isLetter)
        guard letters.count >= 3 else { return true }
        if !letters.contains(where: { vowels.contains($0) }) && letters.count > 4 { return false }
        var consonantRun = 0
        for ch in letters {
            if vowels.contains(ch) {
                consonantRun = 0
            } else {
                consonantRun += 1
                if consonantRun >= 5 { return false }
            }
        }
        // Case flips inside a word: "tHiS" flips 3 times; "GmbH" and "McDonald" flip at most twice.
        var flips = 0
        var previousUpper: Bool?
        for ch in letters {
            let upper = ch.isUppercase
            if let p = previousUpper, p != upper { flips += 1 }
            previousUpper = upper
        }
        if flips >= 3 { return false }
        // A digit between letters: "Wa1k3r", "tota1".
        let chars = Array(core)
        for i in chars.indices.dropFirst().dropLast() where chars[i].isNumber && chars[i - 1].isLetter && chars[i + 1].isLetter { return false }
        if let last = chars.last, last.isNumber, chars.dropLast().filter(\.isLetter).count >= 3, chars.dropLast().allSatisfy(\.isLetter) {
            return false
        }
        return true
    }
}

extension String {
    fileprivate func trimmingCharactersNotLettersOrDigits() -> String {
        guard let first = firstIndex(where: { $0.isLetter || $0.isNumber }), let last = lastIndex(where: { $0.isLetter || $0.isNumber }) else {
            return ""
        }
        return String(self[first...last])
    }
}
