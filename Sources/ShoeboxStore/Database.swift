internal import CSQLite
internal import Foundation
public import ShoeboxCore

/// A database error: the database (SQLite, PostgreSQL), the operation, its result code and its own message.
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    public let operation: String
    public let code: Int32
    public var message: String
    public var system = "SQLite"
    /// What kind of failure it is, where a user's next step depends on it (a PostgreSQL server's).
    public var kind: StoreError.Kind = .unusable
    public var description: String { "\(system) \(operation) failed (\(code)): \(message)" }
}

/// A connection the store's SQL runs on: SQLite's (`Database`) or PostgreSQL's (`PostgresConnection`). The store writes
/// one SQL for both, with `?` placeholders (`?1`, `?2` where one is used twice); where the two differ, `dialect` says.
protocol SQLConnection: AnyObject {
    var dialect: SQLDialect { get }
    func execute(_ sql: String) throws(DatabaseError)
    @discardableResult func query(_ sql: String, _ arguments: [Database.Value]) throws(DatabaseError) -> [[Database.Value]]
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws. PostgreSQL's runs `body`
    /// again when the server restarted before the commit (`PostgresConnection.transaction`): a body sets what it
    /// finds, it does not add to what an earlier try found.
    func transaction(_ body: () throws(DatabaseError) -> Void) throws(DatabaseError)
}

extension SQLConnection {
    @discardableResult func query(_ sql: String) throws(DatabaseError) -> [[Database.Value]] { try query(sql, []) }

    /// SQLite's transaction takes the write lock at once, so two writers wait rather than fail half-way.
    func transaction(_ body: () throws(DatabaseError) -> Void) throws(DatabaseError) {
        try execute(dialect == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}

/// Where SQLite's SQL and PostgreSQL's differ in what the store asks.
enum SQLDialect: Sendable {
    case sqlite, postgresql

    /// A record's status, from its JSON text in `column`.
    func status(_ column: String) -> String {
        switch self {
        case .sqlite: "json_extract(\(column), '$.status')"
        case .postgresql: "(\(column)::json ->> 'status')"
        }
    }

    /// Text ordered by its bytes (SQLite's order; a PostgreSQL database's own collation may order otherwise).
    var bytewise: String {
        switch self {
        case .sqlite: "COLLATE BINARY"
        case .postgresql: "COLLATE \"C\""
        }
    }
}

/// sqliteTransient does not import (platform notes).
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection. Not Sendable: used from one thread (the run's aggregator) at a time.
final class Database: SQLConnection {
    var dialect: SQLDialect { .sqlite }
    private var connection: OpaquePointer?

    init(path: String) throws(DatabaseError) {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            // A failed open still allocates a handle that must be closed (SQLite docs, sqlite3_open).
            sqlite3_close(db)
            throw DatabaseError(operation: "open \(path)", code: rc, message: message)
        }
        connection = db
        sqlite3_busy_timeout(db, 5000)
    }

    deinit { sqlite3_close_v2(connection) }

    private func check(_ rc: Int32, _ operation: String) throws(DatabaseError) {
        guard rc == SQLITE_OK || rc == SQLITE_DONE || rc == SQLITE_ROW else {
            throw DatabaseError(operation: operation, code: rc, message: String(cString: sqlite3_errmsg(connection)))
        }
    }

    func execute(_ sql: String) throws(DatabaseError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(connection, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? "unknown"
            sqlite3_free(errorMessage)
            throw DatabaseError(operation: "exec", code: rc, message: message)
        }
    }

    enum Value {
        case int(Int64)
        case real(Double)
        case text(String)
        case null
    }

    /// Runs a statement with bound values; returns every row as an array of values.
    @discardableResult
    func query(_ sql: String, _ arguments: [Value]) throws(DatabaseError) -> [[Value]] {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(connection, sql, -1, &statement, nil), "prepare \(sql.prefix(60))")
        defer { sqlite3_finalize(statement) }
        for (i, argument) in arguments.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch argument {
            case .int(let v): rc = sqlite3_bind_int64(statement, index, v)
            case .real(let v): rc = sqlite3_bind_double(statement, index, v)
            case .text(let v): rc = sqlite3_bind_text(statement, index, v, -1, sqliteTransient)
            case .null: rc = sqlite3_bind_null(statement, index)
            }
            try check(rc, "bind")
        }
        var rows: [[Value]] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                try check(rc, "step \(sql.prefix(60))")
                break
            }
            let columns = sqlite3_column_count(statement)
            var row: [Value] = []
            for c in 0..<columns {
                switch sqlite3_column_type(statement, c) {
                case SQLITE_INTEGER: row.append(.int(sqlite3_column_int64(statement, c)))
                case SQLITE_FLOAT: row.append(.real(sqlite3_column_double(statement, c)))
                case SQLITE_NULL: row.append(.null)
                default: row.append(.text(sqlite3_column_text(statement, c).map { String(cString: $0) } ?? ""))
                }
            }
            rows.append(row)
        }
        return rows
    }

    static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}

extension Database.Value {
    var text: String? {
        if case .text(let s) = self { return s }
        return nil
    }
    var int: Int64? {
        if case .int(let v) = self { return v }
        return nil
    }
    var real: Double? {
        switch self {
        case .real(let v): return v
        case .int(let v): return Double(v)
        default: return nil
        }
    }
}
