#if canImport(Glibc)
    import Glibc
#endif

/// Paths a person gives, split and joined as text by our own code: Foundation's `NSString` path methods crash on
/// some of them (issue 53: `--out o`, any relative one-character folder that does not exist yet, stopped every command
/// with "Illegal instruction" inside `deletingLastPathComponent`). POSIX meaning: "/" separates, repeated slashes are
/// one, a trailing slash names the same folder.
public enum PathText {
    /// The folder holding `path`: "" for a bare name in the current folder, "/" for a name at the root. Trailing
    /// slashes are not a component: the parent of "a/b/" is "a".
    public static func parent(of path: String) -> String {
        let bytes = withoutTrailingSlashes(path)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        var head = Array(bytes[..<slash])
        while head.count > 1, head.last == UInt8(ascii: "/") { head.removeLast() }
        if head.isEmpty { return "/" }
        return String(decoding: head, as: UTF8.self)
    }

    /// The path's bytes without its trailing slashes ("/" stays "/"): a trailing slash names the same folder.
    static func withoutTrailingSlashes(_ path: String) -> [UInt8] {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        return bytes
    }

    /// `name` inside the folder `directory` ("" is the current folder: `name` alone).
    public static func joined(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The last component of `path`, trailing slashes not counted: "c" for "a/b/c/", "/" for "/", "" for "".
    public static func lastComponent(of path: String) -> String {
        let bytes = withoutTrailingSlashes(path)
        if bytes == [UInt8(ascii: "/")] { return "/" }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes[(slash + 1)...], as: UTF8.self)
    }

    /// The last component's extension, without its dot: "gz" for "a/b.tar.gz", "" for "README", ".bashrc" or "a.".
    public static func pathExtension(of path: String) -> String {
        let name = Array(lastComponent(of: path).utf8)
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return "" }
        return String(decoding: name[(dot + 1)...], as: UTF8.self)
    }

    /// `path` without its last component's extension and dot: "a/b.tar" for "a/b.tar.gz"; unchanged when it has none.
    public static func removingExtension(_ path: String) -> String {
        let ext = pathExtension(of: path)
        guard !ext.isEmpty else { return path }
        return String(decoding: withoutTrailingSlashes(path).dropLast(ext.utf8.count + 1), as: UTF8.self)
    }

    /// `path` made absolute against `currentDirectory` and tidied as text, nothing on disk consulted (no link
    /// followed): repeated slashes one, "." parts dropped, a ".." part removes the part before it (at the root it
    /// stays the root), no trailing slash. "/work/scans" for "scans/" in "/work", and for "/work/x/../scans/.".
    public static func absolute(_ path: String, in currentDirectory: String) -> String {
        let whole = path.hasPrefix("/") ? path : joined(currentDirectory, path)
        var parts: [Substring] = []
        for part in whole.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The process's current folder (getcwd), or "/" when it cannot be read (removed under the process).
    public static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4097)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` made absolute against the process's current folder and tidied as text (see `absolute(_:in:)`).
    public static func absolute(_ path: String) -> String { absolute(path, in: currentDirectory()) }
}
