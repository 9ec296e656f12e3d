import Foundation

public enum TextFolding {
    /// Lower case without diacritics ("Rückgeld" → "ruckgeld", "À PAYER" → "a payer"), for keyword matching.
    /// ASCII text (most receipts) is lowered byte by byte; the rest goes through Foundation's folding. Typographic
    /// quotes, dashes and bullets become their ASCII marks, character for character: OCR puts them next to words
    /// ("Sub-Total‘ : 15.60"), where a non-ASCII mark would read as a letter and hide the keyword.
    public static func fold(_ text: String) -> String {
        var ascii = true
        let lowered = text.utf8.map { b -> UInt8 in
            if b >= 0x80 { ascii = false }
            return (b >= 0x41 && b <= 0x5A) ? b + 0x20 : b
        }
        if ascii { return String(decoding: lowered, as: UTF8.self) }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        guard folded.unicodeScalars.contains(where: { asciiMark[$0] != nil }) else { return folded }
        var out = String.UnicodeScalarView()
        for u in folded.unicodeScalars { out.append(asciiMark[u] ?? u) }
        return String(out)
    }

    /// The ASCII mark of each typographic quote, dash and bullet OCR prints.
    static let asciiMark: [Unicode.Scalar: Unicode.Scalar] = [
        "\u{2018}": "'", "\u{2019}": "'", "\u{201A}": "'", "\u{201B}": "'", "\u{2032}": "'", "\u{201C}": "\"", "\u{201D}": "\"",
        "\u{201E}": "\"", "\u{2033}": "\"", "\u{2010}": "-", "\u{2011}": "-", "\u{2012}": "-", "\u{2013}": "-", "\u{2014}": "-",
        "\u{2015}": "-", "\u{2212}": "-", "\u{2022}": "*", "\u{2026}": "."
    ]

    @inline(__always)
    public static func isLetterByte(_ b: UInt8) -> Bool { (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b >= 0x80 }

    /// Plain substring test on bytes (no word boundaries), without Foundation's `range(of:)`.
    public static func containsSubstring(_ folded: String, _ part: String) -> Bool {
        var folded = folded
        var part = part
        return folded.withUTF8 { text in
            part.withUTF8 { key in
                let n = text.count
                let m = key.count
                guard m > 0, m <= n else { return m == 0 }
                var i = 0
                while i <= n - m {
                    if text[i] == key[0] {
                        var j = 1
                        while j < m && text[i + j] == key[j] { j += 1 }
                        if j == m { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }

    /// Trims the given characters from both ends (Foundation's `trimmingCharacters` bridges through NSString).
    public static func trim(_ text: String, _ junk: Set<Character>) -> String {
        guard let first = text.firstIndex(where: { !junk.contains($0) }) else { return "" }
        let last = text.lastIndex(where: { !junk.contains($0) })!
        return String(text[first...last])
    }
}
