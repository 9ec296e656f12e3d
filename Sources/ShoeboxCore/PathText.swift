/// Paths a person gives, split and joined as text by our own code: Foundation's `NSString` path methods crash on
/// some of them (issue 53: `--out o`, any relative one-character folder that does not exist yet, stopped every command
/// with "Illegal instruction" inside `deletingLastPathComponent`). POSIX meaning: "/" separates, repeated slashes are
/// one, a trailing slash names the same folder.
public enum PathText {
    /// The folder holding `path`: "" for a bare name in the current folder, "/" for a name at the root. Trailing
    /// slashes are not a component: the parent of "a/b/" is "a".
    public static func parent(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        var head = Array(bytes[..<slash])
        while head.count > 1, head.last == UInt8(ascii: "/") { head.removeLast() }
        if head.isEmpty { return "/" }
        return String(decoding: head, as: UTF8.self)
    }

    /// `name` inside the folder `directory` ("" is the current folder: `name` alone).
    public static func joined(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
