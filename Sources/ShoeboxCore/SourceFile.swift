/// What a scan file holds, decided by its first bytes, never by its name.
public enum FileKind: String, Sendable, Codable, CaseIterable {
    case pdf, jpeg, png, tiff
    /// An XML document: an e-invoice on its own (XRechnung, UBL, CII), or XML that is none (named when read).
    case xml

    /// Sniffs the magic bytes. Nil when the content is none of the supported kinds.
    public static func sniff<C: Collection>(_ head: C) -> FileKind? where C.Element == UInt8 {
        let b = Array(head.prefix(8))
        if b.starts(with: [0x25, 0x50, 0x44, 0x46, 0x2D]) { return .pdf } // %PDF-
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if b.starts(with: [0x49, 0x49, 0x2A, 0x00]) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if looksLikeXML(Array(head.prefix(16))) { return .xml }
        return nil
    }

    /// `<?xml` or `<` and a letter, after an optional byte-order mark and blank space; UTF-16 too (the reader
    /// names it and refuses it: e-invoices are UTF-8).
    public static func looksLikeXML(_ head: [UInt8]) -> Bool {
        var b = head[...]
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { b = b.dropFirst(3) }
        if b.starts(with: [0xFE, 0xFF, 0x00, 0x3C]) || b.starts(with: [0xFF, 0xFE, 0x3C, 0x00]) { return true }
        b = b.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard b.first == 0x3C, let next = b.dropFirst().first else { return false }
        if next == 0x3F { return b.starts(with: Array("<?xml".utf8)) || b.count < 5 }
        return (next >= 0x41 && next <= 0x5A) || (next >= 0x61 && next <= 0x7A)
    }

    /// The extension used for this kind in exports.
    var fileExtension: String {
        switch self {
        case .pdf: return "pdf"
        case .jpeg: return "jpg"
        case .png: return "png"
        case .tiff: return "tif"
        case .xml: return "xml"
        }
    }

    /// True when the bytes end the way a complete file of this kind ends.
    /// A JPEG ends with the EOI marker, a PNG with its IEND chunk; a PDF carries %%EOF near its end.
    public static func isComplete(_ bytes: [UInt8], kind: FileKind) -> Bool {
        switch kind {
        case .jpeg:
            // Some cameras pad after EOI: look for FF D9 in the last 64 bytes.
            let tail = bytes.suffix(64)
            return zip(tail, tail.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 }
        case .png:
            let iend: [UInt8] = [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
            return bytes.count >= 8 && Array(bytes.suffix(12)).windows(of: 8).contains(iend)
        case .pdf:
            return pdfEnds(bytes)
        case .tiff, .xml:
            // A cut-off XML is not well-formed: the reader names it.
            return true
        }
    }

    /// A PDF is complete when it has an %%EOF marker with no PDF after it. Mailers and scanners append bytes
    /// after the end (a signature, padding, a second attachment), kilobytes of them at times, and poppler reads such
    /// a file; a file cut off while being copied has either no marker at all or, when it was an earlier
    /// revision's (incremental updates, linearized files), objects or cross-reference data after its last one.
    static func pdfEnds(_ bytes: [UInt8]) -> Bool {
        guard let marker = lastIndex(of: Array("%%EOF".utf8), in: bytes) else { return false }
        let after = bytes[(marker + 5)...]
        // Within the last 2 KB (the common case, as before): complete, whatever follows.
        if after.count <= 2048 { return true }
        return !containsPDFStructure(after)
    }

    /// The start of the last occurrence of `needle` in `bytes`.
    private static func lastIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return bytes.withUnsafeBufferPointer { b -> Int? in
            var i = b.count - needle.count
            while i >= 0 {
                if b[i] == needle[0] && b[i + 1] == needle[1] && b[i + 2] == needle[2] && b[i + 3] == needle[3] && b[i + 4] == needle[4] {
                    return i
                }
                i -= 1
            }
            return nil
        }
    }

    /// True when `tail` holds what only a PDF's body has: an object header ("12 0 obj"), "xref", "startxref" or
    /// "trailer" (appended bytes of another kind almost never spell these).
    private static func containsPDFStructure(_ tail: ArraySlice<UInt8>) -> Bool {
        let words: [[UInt8]] = ["startxref", "xref", "trailer"].map { Array($0.utf8) }
        let obj = Array("obj".utf8)
        return tail.withUnsafeBufferPointer { b -> Bool in
            func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 || c == 0x0C || c == 0 }
            func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
            func matches(_ word: [UInt8], at i: Int) -> Bool {
                guard i + word.count <= b.count else { return false }
                for k in 0..<word.count where b[i + k] != word[k] { return false }
                return true
            }
            let o = UInt8(ascii: "o")
            let x = UInt8(ascii: "x")
            let t = UInt8(ascii: "t")
            let s = UInt8(ascii: "s")
            for i in 0..<b.count {
                let c = b[i]
                if c == x || c == t || c == s {
                    if words.contains(where: { matches($0, at: i) }) { return true }
                } else if c == o, matches(obj, at: i) {
                    // Back over "<digits> <digits> " before "obj".
                    var j = i - 1
                    guard j >= 0, isSpace(b[j]) else { continue }
                    while j >= 0, isSpace(b[j]) { j -= 1 }
                    guard j >= 0, isDigit(b[j]) else { continue }
                    while j >= 0, isDigit(b[j]) { j -= 1 }
                    guard j >= 0, isSpace(b[j]) else { continue }
                    while j >= 0, isSpace(b[j]) { j -= 1 }
                    if j >= 0, isDigit(b[j]) { return true }
                }
            }
            return false
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func windows(of size: Int) -> [[UInt8]] {
        guard count >= size else { return [] }
        return (0...(count - size)).map { Array(self[$0..<($0 + size)]) }
    }
}

/// One input file found under the scan root.
public struct SourceFile: Sendable, Hashable {
    /// Absolute path of the file.
    public let path: String
    /// Path relative to the scan root, with "/" separators ("2026-03-berlin-trip/IMG_0412.jpg").
    public let relativePath: String
    /// The first path component under the root; files directly in the root belong to the folder "".
    public let folder: String
    public let kind: FileKind
    public let sha256: String
    public let size: Int

    public init(path: String, relativePath: String, folder: String, kind: FileKind, sha256: String, size: Int) {
        self.path = path
        self.relativePath = relativePath
        self.folder = folder
        self.kind = kind
        self.sha256 = sha256
        self.size = size
    }

    /// The folder of a relative path: its first component, or "" for a file in the root.
    public static func folder(of relativePath: String) -> String {
        let parts = relativePath.split(separator: "/")
        return parts.count > 1 ? String(parts[0]) : ""
    }
}
