/// A PostgreSQL store's address as a user gives it (`--store postgresql://user@host/db`).
public enum PostgresURL {
    /// Whether the URL carries a password (`user:secret@host`, or a `password=` parameter).
    static func hasPassword(_ url: String) -> Bool {
        let rest = url.drop { $0 != "/" }.dropFirst(2)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        if let at = authority.lastIndex(of: "@"), authority[..<at].contains(":") { return true }
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return false }
        return query.split(separator: "&").contains { $0.lowercased().hasPrefix("password=") }
    }
}
