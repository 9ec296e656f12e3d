internal import Foundation
public import ShoeboxCore
internal import Synchronization

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

    let url: String

    /// `verb`: the command taking the lock ("run", "export"), named with this machine and process in the lock's
    /// session (`application_name`), so that a command refused names the holder.
    public init(url: String, wait: Bool, verb: String = "command") throws(Refusal) {
        self.url = url
        do {
            connection = try PostgresConnection(url: url)
            let name = String("shoebox \(verb) \(ProcessInfo.processInfo.hostName) \(getpid())".utf8.prefix(63)) ?? "shoebox \(verb)"
            try connection.query("SELECT set_config('application_name', ?, false)", [.text(name)])
            // The server forgets a session's locks when it restarts: taken again when the connection comes back, unless
            // another command took it meanwhile (this one must then stop: two writers at once is what the lock is for).
            connection.afterReconnect = { [connection] () throws(DatabaseError) in
                guard try connection.query("SELECT pg_try_advisory_lock(\(StoreWriterLock.key))").first?.first?.text == "t" else {
                    throw DatabaseError(
                        operation: "lock", code: 0,
                        message: "another shoebox command took the store's writers' lock while the server restarted", system: "PostgreSQL",
                        kind: .lockLost)
                }
            }
            defer { StoreWriterLock.register(self) }
            if wait {
                try connection.execute("SELECT pg_advisory_lock(\(StoreWriterLock.key))")
                return
            }
            let taken = try connection.query("SELECT pg_try_advisory_lock(\(StoreWriterLock.key))").first?.first?.text == "t"
            guard taken else {
                // The holder as its session names itself: "shoebox run office-pc 4711".
                let holder = try connection.query(
                    """
                    SELECT a.application_name, to_char(a.backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') FROM pg_locks l
                    JOIN pg_stat_activity a ON a.pid = l.pid
                    WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = ?
                        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                    """, [.int(Int64(StoreWriterLock.key))]
                ).first
                let parts = (holder?[0].text ?? "").split(separator: " ").map(String.init)
                let named =
                    parts.count >= 4 && parts[0] == "shoebox"
                    ? "`shoebox \(parts[1..<(parts.count - 2)].joined(separator: " "))` on \(parts[parts.count - 2]) (process \(parts[parts.count - 1]), since \(holder?[1].text ?? "?") UTC)"
                    : "another shoebox run, export, import, review --apply, rescore, memory forget or recurring --cancel"
                throw Refusal.busy("\(named) is working on the store \(url), on this machine or another. Wait for it, or give --wait to wait.")
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

extension StoreWriterLock {
    /// The writers' locks this process holds, by store URL, so that any of its connections that came back from a server
    /// restart has the lock checked (and taken again) before it writes (`retake`).
    private static let held = Mutex<[String: WeakLock]>([:])

    private struct WeakLock: @unchecked Sendable {
        weak var lock: StoreWriterLock?
    }

    fileprivate static func register(_ lock: StoreWriterLock) {
        held.withLock { $0[lock.url] = WeakLock(lock: lock) }
    }

    /// After a connection of this process to `url` came back: the writers' lock this process holds there (if any) still
    /// held, or taken again on its own connection, or `lockLost`. Its connection answers `SELECT 1` while its session
    /// lives; one that died with the restart connects again and takes the lock (`afterReconnect`).
    static func retake(url: String) throws(DatabaseError) {
        try held.withLock { (locks: inout [String: WeakLock]) throws(DatabaseError) in
            guard let lock = locks[url]?.lock else { return }
            try lock.connection.query("SELECT 1")
        }
    }
}
