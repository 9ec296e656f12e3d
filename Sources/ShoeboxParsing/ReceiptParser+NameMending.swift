import Foundation
import ShoeboxCore
internal import ShoeboxReading

/// Mending the letters OCR got wrong in a merchant's name, from two kinds of evidence and nothing else:
/// - **the page itself**: a shop's name is often printed more than once (the legal name, a web or social
///   handle, the closing greeting). A word of five letters or more in the name that differs by one letter
///   from a word printed at least twice elsewhere on the same document, and more often than the name's own
///   reading, takes the majority reading ("SANYO STATIONERY" beside "SANYU SUPPLY SDN BHD" and
///   "Sanyu.Stationery" → "SANYU");
/// - **a vocabulary of trade words** in the five languages ("CONFECTIUNERY" → "CONFECTIONERY"): only words of
///   seven letters or more that tesseract read with a confidence under 90, one edit away (two from nine letters),
///   when exactly one vocabulary word is that close and the word is not a vocabulary word with an ending
///   ("RESTAURANTS").
/// Every mend is noted on the candidate, so review shows what was printed and what was changed.
public struct NameMender {
    /// The document's lines, lower case without diacritics, as bytes: scanned for other printings of a word.
    private let folded: [[UInt8]]
    private var memo: [String: String?] = [:]

    init(lines: [ReceiptParser.Line]) {
        folded = lines.map { Array($0.folded.utf8) }
    }

    /// The name with its misread words mended, and a note per mend (empty when nothing changed).
    /// `line`: the OCR line the name was read from, for the confidence of each word (a word not found there
    /// counts as read with confidence, so the vocabulary leaves it alone).
    mutating func mend(_ name: String, line: OCRLine?) -> (String, [String]) {
        var notes: [String] = []
        var out: [String] = []
        for token in name.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            // A word, perhaps with punctuation around it ("(SETIA", "BAKERY,"); not "D.I.Y." or "3M".
            let core = TextFolding.trim(token, NameMender.punctuation)
            guard core.count >= 5, core.allSatisfy(\.isLetter) else {
                out.append(token)
                continue
            }
            let word = TextFolding.fold(core)
            let replacement: String?
            if let known = memo[word] {
                replacement = known
            } else {
                let confidence = line?.words.first { TextFolding.trim(TextFolding.fold($0.text), NameMender.punctuation) == word }?.confidence ?? 100
                replacement = better(word, confidence: confidence)
                memo[word] = replacement
            }
            guard let replacement else {
                out.append(token)
                continue
            }
            let styled = NameMender.style(replacement, like: core)
            notes.append("read '\(core)' as '\(styled)'")
            out.append(token.replacingOccurrences(of: core, with: styled))
        }
        return (out.joined(separator: " "), notes)
    }

    /// How often the document prints `word` as a whole word, and each reading one letter away from it.
    private func printings(of word: [UInt8]) -> (own: Int, near: [[UInt8]: Int]) {
        var own = 0
        var near: [[UInt8]: Int] = [:]
        let n = word.count
        for text in folded where text.count >= n {
            var i = 0
            while i < text.count {
                guard NameMender.isLetter(text[i]) else {
                    i += 1
                    continue
                }
                var j = i
                while j < text.count && NameMender.isLetter(text[j]) { j += 1 }
                if j - i == n {
                    var differences = 0
                    for k in 0..<n where text[i + k] != word[k] {
                        differences += 1
                        if differences > 1 { break }
                    }
                    if differences == 0 { own += 1 } else if differences == 1 { near[Array(text[i..<j]), default: 0] += 1 }
                }
                i = j
            }
        }
        return (own, near)
    }

    /// Letters of folded text as bytes: a–z and any byte of a multi-byte character.
    @inline(__always) static func isLetter(_ b: UInt8) -> Bool { (b >= 0x61 && b <= 0x7A) || b >= 0x80 }

    /// The reading to use instead of `word` (folded), or nil to keep it. `confidence`: tesseract's for the word.
    private func better(_ word: String, confidence: Double) -> String? {
        if NameMender.vocabularySet.contains(word) { return nil }
        let chars = Array(word.utf8)
        // The page's majority reading: same length, one letter different, printed at least twice and more
        // often than this reading.
        let (own, near) = printings(of: Array(word.utf8))
        let ranked = near.filter { $0.value >= 2 && $0.value > own }.sorted { $0.value > $1.value }
        if let top = ranked.first, ranked.count == 1 || ranked[1].value < top.value, let reading = String(bytes: top.key, encoding: .utf8) {
            return reading
        }
        // The trade vocabulary, only for words OCR itself doubted: clean print reads at 95 or more, and a
        // surname one letter from a trade word ("Berger") must stay.
        guard chars.count >= 7, confidence < NameMender.doubtedBelow else { return nil }
        let allowed = chars.count >= 9 ? 2 : 1
        let bytes = Array(word.utf8)
        var found: String?
        for (folded, entry) in NameMender.foldedVocabulary {
            // "RESTAURANTS" is "restaurant" with an ending, not a misread "restaurante".
            if bytes.starts(with: folded) || folded.starts(with: bytes) { return nil }
            guard abs(folded.count - bytes.count) <= allowed, NameMender.editDistance(bytes, folded, atMost: allowed) else { continue }
            if found != nil { return nil }
            found = entry
        }
        return found
    }

    static let doubtedBelow = 90.0

    /// `word` in the letter case of `model`: all capitals, capitalised, or lower case.
    static func style(_ word: String, like model: String) -> String {
        if model == model.uppercased() { return word.uppercased() }
        if model.first?.isUppercase == true { return word.prefix(1).uppercased() + word.dropFirst().lowercased() }
        return word.lowercased()
    }

    static let punctuation: Set<Character> = Set("().,:;&'’\"“”")

    /// Words shop and company names are made of, in English, Malay, German, Spanish and French. Words of six
    /// letters here are mended to only from seven ("BAKERY" from "BAKERRY"): a six-letter word has too many
    /// real neighbours one letter away ("Berger" is a surname, not a misread "Burger").
    static let vocabulary: [String] = [
        // English
        "restaurant", "bakery", "bakeries", "bakers", "confectionery", "hardware", "stationery", "stationers", "trading",
        "enterprise", "enterprises", "market", "supermarket", "minimarket", "hypermarket", "pharmacy", "station", "service",
        "services", "bookstore", "bookshop", "marketing", "electrical", "electronics", "machinery", "supply", "supplies",
        "centre", "center", "bistro", "kitchen", "health", "beauty", "holdings", "industries", "international",
        "corporation", "company", "limited", "garden", "coffee", "seafood", "grocery", "groceries", "florist", "optical",
        "clinic", "dental", "medical", "hospital", "furniture", "computer", "printing", "advertising", "parking",
        "petroleum", "travel", "wholesale", "retail", "express", "chicken", "noodles", "western", "cuisine", "catering",
        "laundry", "boutique", "fashion", "textiles", "automotive", "workshop", "engineering", "construction", "timber",
        "studio", "burger", "brewery", "butcher", "liquor", "beverages", "tobacco", "newsagent", "general", "products",
        "leisure", "commercial", "resources", "solutions", "technology", "distributors", "merchant", "department",
        // Malay
        "perniagaan", "restoran", "farmasi", "runcit", "makanan", "minuman", "borong", "jualan", "syarikat", "klinik",
        "perkhidmatan", "kopitiam", "perabot", "percetakan", "bengkel",
        // German
        "bäckerei", "metzgerei", "apotheke", "gaststätte", "getränke", "tankstelle", "buchhandlung", "drogerie",
        "kaufhaus", "handel", "gasthaus", "konditorei", "brauerei", "blumen", "elektro", "schreibwaren", "lebensmittel",
        "supermarkt", "getränkemarkt", "baumarkt", "optiker",
        // Spanish
        "restaurante", "panadería", "farmacia", "ferretería", "supermercado", "tienda", "librería", "papelería",
        "cafetería", "carnicería", "frutería", "pastelería", "gasolinera", "comercial", "distribuciones", "alimentación",
        // French
        "boulangerie", "pâtisserie", "pharmacie", "librairie", "magasin", "épicerie", "boucherie", "papeterie",
        "quincaillerie", "restauration", "brasserie", "traiteur", "supermarché", "hypermarché", "primeur"
    ]
    static let vocabularySet: Set<String> = Set(vocabulary.map(TextFolding.fold))
    static let foldedVocabulary: [([UInt8], String)] = vocabulary.map { (Array(TextFolding.fold($0).utf8), $0) }

    /// Whether two byte strings are at most `limit` insertions, deletions or substitutions apart.
    public static func editDistance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Bool {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) <= limit }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowBest = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                rowBest = min(rowBest, current[j])
            }
            if rowBest > limit { return false }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit
    }
}

/// Mending a legal form OCR misread at the end of a name: "SDM BHD", "SUN BHD", "SDN BND", "5DN BHD" → "SDN BHD",
/// "GMBI-I", "GrnbH" → "GmbH", "LT0" → "LTD", "5.L." → "S.L.". Only the last word or two of a name (where a
/// legal form is printed) are compared, and only with the known forms:
/// - OCR's shape confusions cost nothing: digits and marks for letters ("0" for O, "5" for S, "8" for B, "1" for I)
///   and letters drawn alike ("rn" for m, "I-I" for H);
/// - in forms of six letters or more, a letter read as a look-alike letter ("SDM" for SDN, "BND" for BHD) costs
///   nothing either, and one other letter changed is allowed ("SUN BHD", "SDS BHD"), never one added or dropped;
/// - a shorter form is mended only from digits, marks and letters drawn alike, never from another single letter:
///   one letter away from "SARL" or "PLT" is too often a word ("KARL", "SARI", "PIT").
/// A name with no reading of a legal form at its end gets none: nothing is invented.
enum LegalFormMender {
    struct Form: Sendable {
        /// How the form is written when mended.
        let printed: String
        /// The form's letters in capitals.
        let letters: [UInt8]
        /// How many words it has ("SDN BHD": two).
        let words: Int
        /// Whether the form is written with dots between its letters ("S.L."): its reading must have a mark there too.
        let dotted: Bool

        init(_ printed: String) {
            self.printed = printed
            letters = Array(printed.uppercased().utf8.filter(LegalFormMender.isCapital))
            words = printed.split(separator: " ").count
            dotted = printed.contains(".")
        }

        /// Forms this long are compared with look-alike letters and one other letter allowed.
        var long: Bool { letters.count >= 6 }
    }

    /// The forms, most letters first. Two-letter forms without dots ("AG", "SA") are left out: as words they are too
    /// common to mend towards.
    static let forms: [Form] = [
        "SDN BHD", "LIMITED", "BERHAD", "S.A.R.L.", "GmbH", "SARL", "S.A.S.", "S.R.L.", "S.P.A.", "LTD", "PLT", "PLC", "LLC",
        "INC", "BHD", "S.L.", "S.A.", "B.V."
    ].map(Form.init)

    /// The name with a misread legal form at its end mended, and a note saying what was read (nil: unchanged).
    static func mend(_ name: String) -> (String, String?) {
        let (mended, note) = mendForm(name)
        let (marked, markNote) = mendCountryMark(mended)
        let notes = [note, markNote].compactMap { $0 }
        return (marked, notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    /// "MR D.I.Y. (H) SDN BHD": the "(M)" (for Malaysia) before a Malaysian legal form, read as a look-alike letter.
    static func mendCountryMark(_ name: String) -> (String, String?) {
        var tokens = name.split(separator: " ").map(String.init)
        let squeezed = tokens.map { $0.uppercased().filter { $0.isLetter } }
        let formWords = squeezed.suffix(2) == ["SDN", "BHD"] ? 2 : (["BHD", "BERHAD"].contains(squeezed.last ?? "") ? 1 : 0)
        guard formWords > 0, tokens.count > formWords, let mark = Optional(tokens[tokens.count - formWords - 1]),
            ["(H)", "(N)"].contains(mark.uppercased())
        else { return (name, nil) }
        tokens[tokens.count - formWords - 1] = "(M)"
        return (tokens.joined(separator: " "), "read '\(mark)' as '(M)'")
    }

    /// `mend` for the legal form alone.
    static func mendForm(_ name: String) -> (String, String?) {
        let tokens = name.split(separator: " ").map(String.init)
        for form in forms {
            // The form's words as the last tokens, or glued into one ("SdnRhd").
            for count in (form.words > 1 ? [form.words, 1] : [1]) where count <= tokens.count {
                let tail = tokens.suffix(count).joined(separator: " ")
                let hasMark = tail.contains { $0 == "." || $0 == "," }
                guard !form.dotted || hasMark, let reading = shapes(tail) else { continue }
                // Already the form as printed, in any case, with or without dots: nothing to mend.
                if reading.map(\.letter) == form.letters && reading.allSatisfy({ !$0.byShape }) { return (name, nil) }
                guard matches(reading, form) else { continue }
                let mended = style(form.printed, like: tail)
                let head = tokens.dropLast(count).joined(separator: " ")
                return (head.isEmpty ? mended : head + " " + mended, "read '\(tail)' as '\(mended)'")
            }
        }
        return (name, nil)
    }

    @inline(__always) static func isCapital(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }

    /// The tail as capital letters, each marked when it was read from another shape (a digit, a mark, letters drawn
    /// alike); dots, commas, hyphens and spaces are skipped. Nil when it holds any other character.
    static func shapes(_ text: String) -> [(letter: UInt8, byShape: Bool)]? {
        let chars = Array(text.uppercased().utf8)
        var out: [(letter: UInt8, byShape: Bool)] = []
        var i = 0
        next: while i < chars.count {
            for (drawn, letter) in drawnAlike where chars[i...].starts(with: drawn) {
                out.append((letter, true))
                i += drawn.count
                continue next
            }
            let c = chars[i]
            i += 1
            if isCapital(c) {
                out.append((c, false))
            } else if let letter = digitShapes[c] {
                out.append((letter, true))
            } else if c != 0x2E && c != 0x2C && c != 0x2D && c != 0x20 {
                return nil
            }
        }
        return out.isEmpty ? nil : out
    }

    /// Several marks OCR reads for one letter.
    static let drawnAlike: [([UInt8], UInt8)] = [("I-I", "H"), ("L-L", "H"), ("|-|", "H"), ("I-L", "H"), ("L-I", "H"), ("RN", "M"), ("VV", "W")]
        .map { (Array($0.0.utf8), $0.1.utf8.first!) }

    /// Digits and marks read for the letter of the same shape.
    static let digitShapes: [UInt8: UInt8] = [
        UInt8(ascii: "0"): UInt8(ascii: "O"), UInt8(ascii: "1"): UInt8(ascii: "I"), UInt8(ascii: "5"): UInt8(ascii: "S"),
        UInt8(ascii: "8"): UInt8(ascii: "B"), UInt8(ascii: "6"): UInt8(ascii: "G"), UInt8(ascii: "2"): UInt8(ascii: "Z"),
        UInt8(ascii: "|"): UInt8(ascii: "I"), UInt8(ascii: "!"): UInt8(ascii: "I"), UInt8(ascii: "$"): UInt8(ascii: "S")
    ]

    /// Letters OCR reads for one another, each pair in both directions.
    static let lookAlike: Set<[UInt8]> = {
        var out = Set<[UInt8]>()
        for group in ["ODQ", "ILTJ", "SZ", "BR", "GC", "MNH", "UV", "EF", "BE"] {
            for a in group.utf8 { for b in group.utf8 where a != b { out.insert([a, b]) } }
        }
        return out
    }()

    /// Whether the reading is the form: a long form up to look-alike letters and one other letter; a short one
    /// letter for letter, where only shapes (and a round O for a D) may differ.
    static func matches(_ reading: [(letter: UInt8, byShape: Bool)], _ form: Form) -> Bool {
        let a = reading.map(\.letter)
        let b = form.letters
        guard form.long else {
            guard a.count == b.count else { return false }
            for (r, f) in zip(reading, b) where r.letter != f {
                // A letter printed as a letter must be the form's (an O may be a D); a shape may be any look-alike.
                if !r.byShape && !(r.letter == UInt8(ascii: "O") && f == UInt8(ascii: "D")) { return false }
                if r.byShape && !lookAlike.contains([r.letter, f]) { return false }
            }
            return true
        }
        // One letter changed at most, beside look-alikes; never a letter added or dropped ("(KLS DN BHD" is not
        // missing the S of SDN, the S went to the word before).
        guard a.count == b.count else { return false }
        return zip(a, b).filter { $0 != $1 && !lookAlike.contains([$0, $1]) }.count <= 1
    }

    /// The form in the letter case of what was printed: capitals stay capitals, lower case stays lower case, and
    /// mixed case gets the form as it is written ("GmbH") or, for a form written in capitals, capitalised ("Sdn Bhd").
    static func style(_ form: String, like printed: String) -> String {
        let letters = printed.filter(\.isLetter)
        guard !letters.isEmpty else { return form }
        if letters == letters.uppercased() { return form.uppercased() }
        if letters == letters.lowercased() { return form.lowercased() }
        guard form == form.uppercased() else { return form }
        return form.split(separator: " ").map { $0.prefix(1) + $0.dropFirst().lowercased() }.joined(separator: " ")
    }
}
