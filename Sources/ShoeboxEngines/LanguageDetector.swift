internal import CLD2Shim
public import ShoeboxCore

/// Language of a text with cld2. Short texts and unreliable results report low confidence, not a guess.
public enum LanguageDetector {
    /// cld2's ISO 639-1 codes → the ISO 639-2/T codes tesseract and Shoebox use.
    static let codes: [String: String] = ["en": "eng", "de": "deu", "es": "spa", "fr": "fra", "ms": "msa", "id": "msa"]

    public static func detect(_ text: String) -> LanguageGuess {
        var bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return .unknown }
        bytes.append(0)
        var code = [CChar](repeating: 0, count: 16)
        var reliable: Int32 = 0
        let percent = bytes.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { c in
                CLD2Shim_detect(c, Int32(p.count - 1), &code, Int32(code.count), &reliable)
            }
        }
        guard percent >= 0 else { return .unknown }
        let iso1 = String(decoding: code.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let language = codes[iso1] else { return LanguageGuess(language: nil, confidence: 0) }
        let confidence = Double(percent) / 100 * (reliable != 0 ? 1 : 0.5)
        return LanguageGuess(language: language, confidence: confidence)
    }
}
