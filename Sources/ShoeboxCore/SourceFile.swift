/// What a scan file holds, decided by its first bytes, never by its name.
public enum FileKind: String, Sendable, Codable, CaseIterable {
    case pdf, jpeg, png, tiff

    /// Sniffs the magic bytes. Nil when the content is none of the supported kinds.
    public static func sniff<C: Collection>(_ head: C) -> FileKind? where C.Element == UInt8 {
        let b = Array(head.prefix(8))
        if b.starts(with: [0x25, 0x50, 0x44, 0x46, 0x2D]) { return .pdf }            // %PDF-
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if b.starts(with: [0x49, 0x49, 0x2A, 0x00]) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        return nil
    }

    /// The extension used for this kind in exports.
    public var fileExtension: String {
        switch self {
        case .pdf: return "pdf"
        case .jpeg: return "jpg"
        case .png: return "png"
        case .tiff: return "tif"
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
            let marker = Array("%%EOF".utf8)
            return Array(bytes.suffix(2048)).windows(of: marker.count).contains(marker)
        case .tiff:
            return true
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
