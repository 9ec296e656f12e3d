/// The one rule for the paths a store holds: intake lists a file under a name that meets it (or refuses the file by
/// name), import refuses a document whose path breaks it, and export leaves out, never zips, a record whose path
/// breaks it. One rule, so what a run writes, import takes and export exports.
public enum StoredPath {
    /// A relative path of at most this many bytes (Linux's PATH_MAX: a longer one cannot be opened anyway).
    public static let maxBytes = 4096

    /// What is wrong with `path` as a source path in a store, or nil when a store may hold it: relative, no empty,
    /// "." or ".." part, no control character (a tab, a line break, NUL), at most `maxBytes` bytes.
    public static func problem(_ path: String) -> String? {
        if path.isEmpty { return "is empty" }
        if path.utf8.count > maxBytes { return "is \(path.utf8.count) bytes long; at most \(maxBytes)" }
        if let c = FieldInput.controlCharacter(in: path) { return "holds a control character (\(FieldInput.codePoint(c)))" }
        if path.hasPrefix("/") { return "is absolute; a source path is relative to its scan folder" }
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            if part.isEmpty { return "has an empty part (\"//\" or a trailing \"/\")" }
            if part == "." || part == ".." { return "has a \"\(part)\" part, which would lead outside the scan folder" }
        }
        return nil
    }

    /// A name read from a folder as the store can hold it: each control character replaced by U+FFFD (the mark
    /// non-UTF-8 bytes get), so that no path with one reaches the store. Nil when the name needs no change.
    public static func storable(_ name: String) -> String? {
        guard FieldInput.controlCharacter(in: name) != nil else { return nil }
        var out = ""
        for u in name.unicodeScalars { out.unicodeScalars.append(FieldInput.controlCharacter(in: String(u)) == nil ? u : "\u{FFFD}") }
        return out
    }

    /// A path (or any name) as one line of output or of a message: control characters as <U+XXXX>, so a line
    /// break in a name cannot split a line; at most `limit` characters, then "…".
    public static func shown(_ s: String, limit: Int = .max) -> String {
        var out = ""
        for u in s.unicodeScalars.prefix(limit) {
            if FieldInput.controlCharacter(in: String(u)) != nil { out += "<\(FieldInput.codePoint(u))>" } else { out.unicodeScalars.append(u) }
        }
        return s.unicodeScalars.count > limit ? out + "…" : out
    }
}
