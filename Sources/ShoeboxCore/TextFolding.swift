import Foundation

public enum TextFolding {
    /// Lower case without diacritics ("Rückgeld" → "ruckgeld", "À PAYER" → "a payer"), for keyword matching.
    /// ASCII text (most receipts) is lowered byte by byte; the rest goes through Foundation's folding.
    public static func fold(_ text: String) -> String {
        var ascii = true
        let lowered = text.utf8.map { b -> UInt8 in
            if b >= 0x80 { ascii = false }
            return (b >= 0x41 && b <= 0x5A) ? b + 0x20 : b
        }
        if ascii { return String(decoding: lowered, as: UTF8.self) }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

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
