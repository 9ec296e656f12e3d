internal import Foundation
public import ShoeboxCore

/// The pages a PostgreSQL store's workers share (issue 37): each claimed in a short transaction of its own
/// (`FOR UPDATE SKIP LOCKED`, so workers never wait on each other), held under a lease in the server's time that the
/// worker extends while it reads, and completed only where the id, the attempt and the worker still match: a worker
/// stopped past its lease whose page another finished changes nothing. A page whose lease ran out is claimable again,
/// with attempt + 1, after a back-off; past `maxAttempts` it fails by name, as a page that crashes its reader does.
/// No transaction stays open while a page is read. One connection per worker thread.
public final class WorkQueue {
    let db: PostgresConnection
    /// The store's URL (never with a password), for messages.
    let url: String
    public let worker: String
    /// How long a claim holds before another worker may take the page (the worker renews it while it reads).
    public let leaseSeconds: Double
    /// The back-off before a page whose lease ran out is claimed again: this many seconds times its attempts so far.
    public let backoffSeconds: Double
    public let maxAttempts: Int

    /// A page claimed: which, and the attempt the claim is.
    public struct Claim: Sendable, Hashable {
        public let id: Int64
        public let path: String
        public let sha256: String
        public let page: Int
        public let attempt: Int
        /// What the worker needs to read it (`WorkJob` JSON), for a document queued by a run.
        public var job: String?
    }

    /// Connects worker `worker` (a name unique to the process: host and pid) to the store at `url`.
    public init(url: String, worker: String, leaseSeconds: Double = 60, backoffSeconds: Double = 5, maxAttempts: Int = 3) throws(StoreError) {
        do { db = try PostgresConnection(url: url) } catch { throw Store.failure(error, store: url) }
        db.afterReconnect = { () throws(DatabaseError) in try StoreWriterLock.retake(url: url) }
        self.url = url
        self.worker = worker
        self.leaseSeconds = leaseSeconds
        self.backoffSeconds = backoffSeconds
        self.maxAttempts = maxAttempts
    }

    func wrap<T>(_ body: () throws(DatabaseError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw Store.failure(error, store: url) }
    }

    /// Queues pages to read (a page already queued, with the same bytes, is left as it is); returns how many were new.
    @discardableResult
    public func enqueue(_ pages: [(path: String, sha256: String, page: Int)]) throws(StoreError) -> Int {
        try wrap { () throws(DatabaseError) in
            var added = 0
            try db.transaction { () throws(DatabaseError) in
                added = 0
                for p in pages {
                    added += try db.query(
                        "INSERT INTO work(path, sha256, page) VALUES (?, ?, ?) ON CONFLICT (path, sha256, page) DO NOTHING RETURNING id",
                        [.text(p.path), .text(p.sha256), .int(Int64(p.page))]
                    ).count
                }
            }
            return added
        }
    }

    /// The next page to read, or nil when none is claimable now. Pages whose lease ran out on their last attempt fail
    /// first (`reader-crashed`: a worker died on them that often).
    /// `settings`: only pages queued under one of these (a document read under other settings would give another
    /// record); nil: any.
    public func claim(settings: [String]? = nil) throws(StoreError) -> Claim? {
        try wrap { () throws(DatabaseError) in
            try db.query(
                """
                UPDATE work SET state = 'failed', lease_until = NULL, failure = 'reader-crashed'
                WHERE state = 'running' AND lease_until < clock_timestamp() AND attempt >= ?
                """, [.int(Int64(maxAttempts))])
            let row = try db.query(
                """
                UPDATE work SET state = 'running', attempt = attempt + 1, worker = ?,
                    lease_until = clock_timestamp() + make_interval(secs => ?)
                WHERE id = (
                    SELECT id FROM work
                    WHERE ((state = 'queued')
                       OR (state = 'running' AND lease_until + make_interval(secs => ? * attempt) < clock_timestamp()))
                      \(settings.map { s in "AND settings IN (\(s.isEmpty ? "NULL" : s.map { _ in "?" }.joined(separator: ", ")))" } ?? "")
                    ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
                RETURNING id, path, sha256, page, attempt, job
                """, [.text(worker), .real(leaseSeconds), .real(backoffSeconds)] + (settings ?? []).map { .text($0) }
            ).first
            guard let row, let id = row[0].int, let path = row[1].text, let sha = row[2].text, let page = row[3].int, let attempt = row[4].int
            else { return nil }
            return Claim(id: id, path: path, sha256: sha, page: Int(page), attempt: Int(attempt), job: row[5].text)
        }
    }

    /// Extends the claim's lease; false when the claim is no longer this worker's (its lease ran out and another took it).
    public func heartbeat(_ claim: Claim) throws(StoreError) -> Bool {
        try held(claim, set: "lease_until = clock_timestamp() + make_interval(secs => ?)", [.real(leaseSeconds)])
    }

    /// Marks the page done; false, changing nothing, when the claim is no longer this worker's (a late completion).
    public func complete(_ claim: Claim) throws(StoreError) -> Bool { try held(claim, set: "state = 'done', lease_until = NULL", []) }

    /// Marks the page failed with `code`; false, changing nothing, when the claim is no longer this worker's.
    public func fail(_ claim: Claim, code: String) throws(StoreError) -> Bool {
        try held(claim, set: "state = 'failed', lease_until = NULL, failure = ?", [.text(code)])
    }

    /// Updates a page only where the id, the attempt and the worker still match and it is running.
    private func held(_ claim: Claim, set assignments: String, _ values: [Database.Value]) throws(StoreError) -> Bool {
        try wrap { () throws(DatabaseError) in
            try !db.query(
                "UPDATE work SET \(assignments) WHERE id = ? AND attempt = ? AND worker = ? AND state = 'running' RETURNING id",
                values + [.int(claim.id), .int(Int64(claim.attempt)), .text(worker)]
            ).isEmpty
        }
    }

    /// Statements this worker's connection sent to the server (round trips), for the store bench.
    public var roundTrips: Int { db.roundTrips }

    /// The queue table's dead and live row versions as the server counts them, and the connections to this database:
    /// what the store bench reports after a run.
    public func tableStatistics() throws(StoreError) -> (dead: Int, live: Int, connections: Int) {
        try wrap { () throws(DatabaseError) in
            try db.execute("SELECT pg_stat_clear_snapshot()")
            let row = try db.query(
                """
                SELECT (SELECT coalesce(n_dead_tup, 0) FROM pg_stat_user_tables WHERE relname = 'work'),
                       (SELECT coalesce(n_live_tup, 0) FROM pg_stat_user_tables WHERE relname = 'work'),
                       (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database())
                """
            ).first
            return (Int(row?[0].int ?? 0), Int(row?[1].int ?? 0), Int(row?[2].int ?? 0))
        }
    }

    /// How many pages are in each state.
    public func counts() throws(StoreError) -> [String: Int] {
        try wrap { () throws(DatabaseError) in
            var out: [String: Int] = [:]
            for row in try db.query("SELECT state, count(*) FROM work GROUP BY state") {
                if let s = row[0].text, let n = row[1].int { out[s] = Int(n) }
            }
            return out
        }
    }
}
