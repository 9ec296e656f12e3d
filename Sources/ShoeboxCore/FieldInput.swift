import Foundation

/// Values typed by a person (review edits, sidecars, `review --apply`), read with the document parsers'
/// own rules so a bad amount or date is refused the same way everywhere.
public enum FieldInput {
    /// The earliest year a typed date may have: a receipt from before 1900 is a typing mistake (0001-01-01),
    /// not a purchase to book. Dates after today are refused too, so no year is "absurdly far".
    public static let earliestYear = 1900

    /// The first control character (NUL, escape, a line break, …) in a typed value, for a refusal that names it.
    public static func controlCharacter(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }
    }

    /// A scalar as people and logs can read it: U+0000.
    public static func codePoint(_ s: Unicode.Scalar) -> String { "U+" + String(format: "%04X", s.value) }
}
