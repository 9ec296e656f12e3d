import ShoeboxCore
internal import ShoeboxReading

/// A shop's name both readers read on one line, joined word by word. Each reader misreads letters inside a name
/// in its own way: the second reader (a CTC line model) drops letters ("SPED" for "SPEED", "HU" for "HUI", "/B" for
/// "S/B"), tesseract swaps letters of upper-case print ("HART" for "MART"). Where the two names have as many words,
/// each pair of words that differs is settled by these classes, and both candidates take the joined words; a pair
/// neither class settles keeps each reader's own word.
extension Extraction {
    /// The merchants with each pair read on one line by both readers (tesseract's and the second reader's, both
    /// scoring) joined word by word (`wordByWord`). Scores and checks are kept: the readers still disagreed.
    static func joinedNameWords(_ merchants: [TextCandidate]) -> [TextCandidate] {
        func live(_ c: TextCandidate) -> Bool { c.score > 0 && !c.computed && c.evidence != nil }
        func partner(of c: TextCandidate, second: Bool) -> TextCandidate? {
            merchants.first { o in
                live(o) && (o.evidence?.source == .secondReader) == second && LinePlace.sameLine(c.evidence!, o.evidence!)
                    && ReceiptParser.normalizedMerchant(o.value) != ReceiptParser.normalizedMerchant(c.value)
            }
        }
        return merchants.map { c in
            guard live(c) else { return c }
            let isSecond = c.evidence?.source == .secondReader
            guard let other = partner(of: c, second: !isSecond),
                let words = isSecond ? wordByWord(tesseract: other.value, second: c.value) : wordByWord(tesseract: c.value, second: other.value)
            else { return c }
            let joined = words.map { $0.chosen ?? (isSecond ? $0.second : $0.tesseract) }.joined(separator: " ")
            guard joined != c.value else { return c }
            return TextCandidate(
                value: joined, role: c.role, score: c.score, evidence: c.evidence, checks: c.checks.union([.joinedWords]),
                notes: c.notes + ["words joined from both readers' '\(c.value)' and '\(other.value)'"], wordConfidence: c.wordConfidence)
        }
    }

    /// The words of one name as the two readers read it, paired by position, each with the word chosen where a class
    /// of misreading settles it (nil: unsettled). Nil when the names have not as many words, or nothing is settled.
    static func wordByWord(tesseract: String, second: String) -> [(tesseract: String, second: String, chosen: String?)]? {
        let a = tesseract.split(separator: " ").map(String.init)
        let b = second.split(separator: " ").map(String.init)
        guard a.count == b.count, a.count > 1 else { return nil }
        let pairs = zip(a, b).map { (t, s) in (tesseract: t, second: s, chosen: chosenWord(tesseract: t, second: s)) }
        return pairs.contains { $0.tesseract != $0.second && $0.chosen != nil } ? pairs : nil
    }

    /// One word as the two readers read it: the trade word when only one reading is one (`NameMender.vocabulary`), the longer when the shorter is it with one or two characters left out
    /// (a dropped letter; either reader) and keeps two letters or digits (in "(M)" against "(MH)" the extra letter
    /// is as likely noise), the second reader's when both are upper-case Latin letters alone, of equal
    /// length, one letter apart (tesseract's letter confusions in upper-case print); nil otherwise.
    static func chosenWord(tesseract t: String, second s: String) -> String? {
        if ReceiptParser.normalizedMerchant(t) == ReceiptParser.normalizedMerchant(s) { return t }
        // One reading a trade word of the names' vocabulary and the other not ("CONFECTIONERY", "CONFECTEONERY"):
        // the trade word, whichever reader read it.
        func isTradeWord(_ w: String) -> Bool { NameMender.vocabularySet.contains(TextFolding.fold(TextFolding.trim(w, NameMender.punctuation))) }
        if isTradeWord(t) != isTradeWord(s) { return isTradeWord(t) ? t : s }
        let (long, short) = t.count > s.count ? (t, s) : (s, t)
        if (1...2).contains(long.count - short.count), ReceiptParser.normalizedMerchant(short).count >= 2,
            isSubsequence(short.uppercased(), of: long.uppercased())
        {
            return long
        }
        func upperLetters(_ w: String) -> Bool { w.count >= 3 && w.allSatisfy { $0.isASCII && $0.isUppercase } }
        if upperLetters(t), upperLetters(s), t.count == s.count, zip(t, s).filter({ $0 != $1 }).count == 1 { return s }
        return nil
    }

    static func isSubsequence(_ short: String, of long: String) -> Bool {
        var rest = long[...]
        for ch in short {
            guard let i = rest.firstIndex(of: ch) else { return false }
            rest = rest[rest.index(after: i)...]
        }
        return true
    }
}
