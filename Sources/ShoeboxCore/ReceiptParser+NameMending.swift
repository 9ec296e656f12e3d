import Foundation

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
struct NameMender {
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
    static func editDistance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Bool {
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
