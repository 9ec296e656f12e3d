internal import CPostgres
internal import Foundation
internal import ShoeboxCore

/// One PostgreSQL connection through libpq. Not Sendable: libpq is thread-safe, but one connection must never be used
/// by two threads at once (platform notes); a store is used from one thread.
final class PostgresConnection: SQLConnection {
    private let connection: OpaquePointer
    var dialect: SQLDialect { .postgresql }
    /// Statements sent to the server so far (each one round trip): what the store bench counts.
    private(set) var roundTrips = 0
    /// The channels this connection listens on (`LISTEN`): listened on again after a reconnection.
    private var channels: [String] = []
    /// Inside `transaction`: a statement that fails there is not sent again on its own (the transaction is).
    private var inTransaction = false
    /// Run after the connection came back from a server restart, before the statement is sent again: the session's
    /// state the server lost with it (the writers' lock) taken again, or a failure that stops the command.
    var afterReconnect: (() throws(DatabaseError) -> Void)?

    /// How long a command waits for a server that went away to accept connections again (a restart, a failover)
    /// before it stops as `store-server-gone`: `SHOEBOX_STORE_RETRY_SECONDS`, 0…3600, default 60.
    static var retrySeconds: Double {
        guard let text = ProcessInfo.processInfo.environment["SHOEBOX_STORE_RETRY_SECONDS"], let n = Double(text), n.isFinite else { return 60 }
        return min(3600, max(0, n))
    }

    /// Connects to `url` (`postgresql://…`). A password is never part of it: libpq reads `PGPASSWORD` or `~/.pgpass`.
    init(url: String) throws(DatabaseError) {
        var message = ""
        let opened = try PostgresConnection.retrying(until: Date().addingTimeInterval(PostgresConnection.retrySeconds)) {
            () throws(DatabaseError) -> OpaquePointer? in
            let conn = PQconnectdb(url)
            if let conn, PQstatus(conn) == CONNECTION_OK { return conn }
            message = conn.map { PostgresConnection.trimmed(PQerrorMessage($0)) } ?? "libpq could not allocate a connection"
            // A failed connection still holds its memory until PQfinish (libpq docs, PQconnectdb).
            PQfinish(conn)
            // A server that is starting or shutting down (a restart under way), or whose connections are all taken (other
            // workers' end frees them), is waited for; any other refusal (a wrong address, a login refused, no such
            // database) is said at once.
            guard PostgresConnection.isRestarting(message) || PostgresConnection.connectKind(message) == .serverFull else {
                throw DatabaseError(
                    operation: "connect", code: 0, message: message, system: "PostgreSQL", kind: PostgresConnection.connectKind(message))
            }
            return nil
        }
        guard let conn = opened else {
            throw DatabaseError(operation: "connect", code: 0, message: message, system: "PostgreSQL", kind: PostgresConnection.connectKind(message))
        }
        connection = conn
        // The server's notices (a table that already exists) are not the user's business: not printed on stderr.
        PQsetNoticeProcessor(conn, { _, _ in }, nil)
    }

    /// The server's answer while it starts, shuts down or recovers (SQLSTATE 57P03, which libpq does not give for a
    /// connection that failed: its message).
    static func isRestarting(_ message: String) -> Bool {
        let m = message.lowercased()
        return m.contains("the database system is starting up") || m.contains("the database system is shutting down")
            || m.contains("the database system is in recovery mode") || m.contains("the database system is not yet accepting connections")
    }

    /// A connection refused for the server's connection limit ("sorry, too many clients already", "remaining connection
    /// slots are reserved"): the server out of room, not a wrong address. libpq gives no SQLSTATE for a failed
    /// connection, only the server's message.
    static func connectKind(_ message: String) -> StoreError.Kind {
        let m = message.lowercased()
        return m.contains("too many clients") || m.contains("connection slots are reserved") ? .serverFull : .unreachable
    }

    /// Connects again after the server went away (`error`), within `retrySeconds`: a restart's few seconds pass unseen.
    /// What the session held is listened on or taken again (`channels`, `afterReconnect`); not back in time, the
    /// failure names how long it waited.
    private func reconnect(after error: DatabaseError, until deadline: Date) throws(DatabaseError) {
        let back = try PostgresConnection.retrying(until: deadline) { () throws(DatabaseError) -> Bool? in
            PQreset(connection)
            return PQstatus(connection) == CONNECTION_OK ? true : nil
        }
        guard back != nil else {
            var gone = error
            gone.message = "\(error.message); not back after \(Int(PostgresConnection.retrySeconds.rounded())) s"
            throw gone
        }
        for channel in channels { _ = try rows(PQexec(connection, "LISTEN \(channel)"), "listen \(channel)") }
        try afterReconnect?()
    }

    /// `attempt` again and again until it gives a value, pausing 0.2 s, 0.4 s, … up to 2 s between tries; nil once the
    /// next pause would pass `deadline`. A failure `attempt` throws ends it at once.
    static func retrying<T>(until deadline: Date, _ attempt: () throws(DatabaseError) -> T?) throws(DatabaseError) -> T? {
        var pause = 0.2
        while true {
            if let value = try attempt() { return value }
            guard Date().addingTimeInterval(pause) < deadline else { return nil }
            Thread.sleep(forTimeInterval: pause)
            pause = min(2, pause * 2)
        }
    }

    /// Whether a statement that failed with `error` may be sent again on a new connection: the server said it was
    /// shutting down or the connection was gone before the statement ran (a SQLSTATE of class 08 or 57P0x: nothing of
    /// it was done), or it only reads. A write whose answer was lost with the connection may have been committed:
    /// never sent twice.
    static func mayResend(_ sql: String, after error: DatabaseError) -> Bool {
        guard error.kind == .serverGone else { return false }
        if error.message.contains("(SQLSTATE 08") || error.message.contains("(SQLSTATE 57P0") { return true }
        let head = sql.drop { $0.isWhitespace }.prefix(7).uppercased()
        return head.hasPrefix("SELECT ") && !sql.uppercased().contains("FOR UPDATE") || head.hasPrefix("LISTEN ")
    }

    /// Sends a statement; where the server went away before it ran (a restart), connects again and sends it again,
    /// within `retrySeconds`.
    private func send(_ sql: String, _ operation: String, _ statement: () -> OpaquePointer?) throws(DatabaseError) -> [[Database.Value]] {
        var deadline: Date?
        while true {
            roundTrips += 1
            do {
                return try rows(statement(), operation)
            } catch {
                guard !inTransaction, PostgresConnection.mayResend(sql, after: error) else { throw error }
                let until = deadline ?? Date().addingTimeInterval(PostgresConnection.retrySeconds)
                deadline = until
                try reconnect(after: error, until: until)
            }
        }
    }

    /// One transaction; when the server went away before `COMMIT` was sent (a restart: the server rolled it back),
    /// connects again and runs `body` again from the start, within `retrySeconds`. A `COMMIT` whose answer was lost is
    /// not sent twice.
    func transaction(_ body: () throws(DatabaseError) -> Void) throws(DatabaseError) {
        var deadline: Date?
        while true {
            var committing = false
            inTransaction = true
            do {
                try execute("BEGIN")
                try body()
                committing = true
                try execute("COMMIT")
                inTransaction = false
                return
            } catch {
                if error.kind != .serverGone { try? execute("ROLLBACK") }
                inTransaction = false
                guard error.kind == .serverGone, !committing else { throw error }
                let until = deadline ?? Date().addingTimeInterval(PostgresConnection.retrySeconds)
                deadline = until
                try reconnect(after: error, until: until)
            }
        }
    }

    deinit { PQfinish(connection) }

    /// The kind of a failed statement (PostgreSQL's error codes, appendix A): the connection gone or the server shutting
    /// down (class 08, 57P01–57P03) is the server gone, and so is an error without a SQLSTATE: libpq's own, which the
    /// store meets when the connection broke ("server closed the connection unexpectedly"; libpq 15 still reports the
    /// connection as OK then, measured); class 53 (53100 disk full, 53200 out of memory, 53300 too many connections) is
    /// the server out of room; any other is the statement's own.
    static func kind(sqlState: String?, connectionLost: Bool) -> StoreError.Kind {
        guard !connectionLost, let state = sqlState else { return .serverGone }
        if state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state) { return .serverGone }
        if state.hasPrefix("53") { return .serverFull }
        return .unusable
    }

    /// libpq's message on one line: its lines and runs of spaces joined by one space, no trailing full stop (the
    /// sentence around it adds its own).
    static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "unknown error" }
        var text = String(cString: message).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        while text.hasSuffix(".") { text.removeLast() }
        return text.isEmpty ? "unknown error" : text
    }

    /// Turns a result into rows, or its error into a `DatabaseError` naming the SQLSTATE; the result is cleared.
    private func rows(_ result: OpaquePointer?, _ operation: String) throws(DatabaseError) -> [[Database.Value]] {
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard let result, status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message =
                result.map { PostgresConnection.trimmed(PQresultErrorMessage($0)) } ?? PostgresConnection.trimmed(PQerrorMessage(connection))
            // 'C' is PG_DIAG_SQLSTATE, a macro that does not import.
            let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
            let lost = PQstatus(connection) != CONNECTION_OK
            throw DatabaseError(
                operation: operation, code: 0, message: state.map { "\(message) (SQLSTATE \($0))" } ?? message, system: "PostgreSQL",
                kind: PostgresConnection.kind(sqlState: state, connectionLost: lost))
        }
        var out: [[Database.Value]] = []
        let columns = PQnfields(result)
        for r in 0..<PQntuples(result) {
            var row: [Database.Value] = []
            for c in 0..<columns {
                guard PQgetisnull(result, r, c) == 0, let raw = PQgetvalue(result, r, c) else {
                    row.append(.null)
                    continue
                }
                let text = String(cString: raw)
                switch PQftype(result, c) {
                case 20, 21, 23: row.append(Int64(text).map { .int($0) } ?? .text(text)) // int8, int2, int4
                case 700, 701, 1700: row.append(Double(text).map { .real($0) } ?? .text(text)) // float4, float8, numeric
                default: row.append(.text(text))
                }
            }
            out.append(row)
        }
        return out
    }

    func execute(_ sql: String) throws(DatabaseError) {
        _ = try send(sql, "exec \(sql.prefix(60))") { PQexec(connection, sql) }
        if sql.hasPrefix("LISTEN "), !channels.contains(String(sql.dropFirst(7))) { channels.append(String(sql.dropFirst(7))) }
    }

    @discardableResult
    func query(_ sql: String, _ arguments: [Database.Value]) throws(DatabaseError) -> [[Database.Value]] {
        let statement = PostgresConnection.numbered(sql)
        // Typed parameters in text form: int8, float8, text; a null is a text null (the store binds nulls to text only).
        var types: [UInt32] = []
        var values: [String?] = []
        for argument in arguments {
            switch argument {
            case .int(let v):
                types.append(20)
                values.append(String(v))
            case .real(let v):
                types.append(701)
                values.append(String(v))
            case .text(let v):
                types.append(25)
                values.append(v)
            case .null:
                types.append(25)
                values.append(nil)
            }
        }
        let cStrings = values.map { $0.map { strdup($0) } ?? nil }
        defer { for c in cStrings { free(c) } }
        return try send(sql, "query \(sql.prefix(60))") {
            cStrings.withUnsafeBufferPointer { pointers in
                types.withUnsafeBufferPointer { typePointer in
                    pointers.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: max(1, pointers.count)) { p in
                        PQexecParams(connection, statement, Int32(arguments.count), typePointer.baseAddress, p, nil, nil, 0)
                    }
                }
            }
        }
    }

    /// Waits up to `seconds` for a notification on a channel this connection listens to (`LISTEN`); true when one
    /// came (all that came are taken), false when the time ran out or the connection failed (the caller polls).
    func waitForNotification(seconds: Double) -> Bool {
        var got = drainNotifications()
        guard !got else { return true }
        var pfd = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
        guard pfd.fd >= 0 else { return false }
        let ready = poll(&pfd, 1, Int32(max(0, seconds) * 1000))
        guard ready > 0, PQconsumeInput(connection) == 1 else { return false }
        got = drainNotifications()
        return got
    }

    private func drainNotifications() -> Bool {
        var any = false
        while let n = PQnotifies(connection) {
            any = true
            PQfreemem(n)
        }
        return any
    }

    /// The store's SQL with PostgreSQL's placeholders: each `?` the next `$n`, a `?n` `$n`; quoted text is left alone.
    static func numbered(_ sql: String) -> String {
        var out = ""
        var next = 0
        var quote: Character?
        var characters = sql.makeIterator()
        var pending = characters.next()
        while let c = pending {
            pending = characters.next()
            if let q = quote {
                if c == q { quote = nil }
                out.append(c)
                continue
            }
            if c == "'" || c == "\"" {
                quote = c
                out.append(c)
                continue
            }
            guard c == "?" else {
                out.append(c)
                continue
            }
            var digits = ""
            while let d = pending, d.isASCII, d.isNumber {
                digits.append(d)
                pending = characters.next()
            }
            if digits.isEmpty {
                next += 1
                digits = String(next)
            }
            out += "$" + digits
        }
        return out
    }
}
