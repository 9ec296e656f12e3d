public import ShoeboxJudgement

/// A PostgreSQL store's address as a user gives it (`--store postgresql://user@host/db`).
public enum PostgresURL {
    /// Whether the URL carries a password (`user:secret@host`, or a `password=` parameter).
    public static func hasPassword(_ url: String) -> Bool {
        let rest = url.drop { $0 != "/" }.dropFirst(2)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        if let at = authority.lastIndex(of: "@"), authority[..<at].contains(":") { return true }
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return false }
        return query.split(separator: "&").contains { $0.lowercased().hasPrefix("password=") }
    }
}

/// The writers' lock of a PostgreSQL store, across machines: what `run.lock` is to an output folder. `run`, `export`,
/// `import`, `review --apply`, `rescore`, `memory forget` and `recurring --cancel` hold it, so one of them at a time
/// works on the store from whichever machine. A session lock of the server's (`pg_advisory_lock`) on a connection of
/// its own, held until this value is released or the process ends: a killed holder's lock goes with its connection.
public final class StoreWriterLock {
    let connection: PostgresConnection
    /// The lock's key: a number of Shoebox's own among the server's advisory locks (the schema's lock is 7478190).
    static let key = 7_478_191

    /// Why the lock was not taken: `busy` when another process holds it and `wait` was not asked for.
    public enum Refusal: Error {
        case busy(String)
        case store(StoreError)
    }

    public init(url: String, wait: Bool) throws(Refusal) {
        do {
            connection = try PostgresConnection(url: url)
            if wait {
                try connection.execute("SELECT pg_advisory_lock(\(StoreWriterLock.key))")
                return
            }
            let taken = try connection.query("SELECT pg_try_advisory_lock(\(StoreWriterLock.key))").first?.first?.text == "t"
            guard taken else {
                throw Refusal.busy(
                    "another shoebox run, export, import, review --apply, rescore, memory forget or recurring --cancel is working on the store \(url), on this machine or another. Wait for it, or give --wait to wait."
                )
            }
        } catch let error as DatabaseError {
            throw .store(Store.failure(error, store: url))
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw .store(StoreError(message: "cannot lock the store \(url): \(error)"))
        }
    }
}
