internal import Foundation
public import ShoeboxCore

/// Documents read anywhere (`shoebox worker`): a run queues each document it is to read (page 0 stands for the whole
/// document: its steps after the first reading need all of its pages) with its bytes, kept once by their SHA-256; a
/// worker claims it, reads the bytes from the store and hands the outcome back with its completion; the run stores
/// the outcomes in path order, as it stores its own.
extension WorkQueue {
    /// A document to queue: where it is, what a worker needs to read it, the settings it is read under, and its bytes
    /// (asked for only when the store does not hold them yet).
    public struct Document {
        public let path: String
        public let sha256: String
        public let job: String
        public let settings: String
        public let bytes: () -> [UInt8]?

        public init(path: String, sha256: String, job: String, settings: String, bytes: @escaping () -> [UInt8]?) {
            self.path = path
            self.sha256 = sha256
            self.job = job
            self.settings = settings
            self.bytes = bytes
        }
    }

    /// Queues `documents`, each in a transaction of its own with its bytes. One already queued with the same job is left
    /// as it is, so a killed run's work, done or being read, is taken up; one queued under another job (other settings,
    /// another sidecar), or done and stored already, is queued again. A document whose bytes cannot be had any more
    /// is not queued (nil: the caller fails it as its file). Returns the documents newly queued.
    public func enqueue(documents: [Document]) throws(StoreError) -> [String] {
        try wrap { () throws(DatabaseError) in
            var queued: [String] = []
            for d in documents {
                // Set in the transaction, used once it committed (a transaction the server's restart broke runs again).
                var isQueued = false
                try db.transaction { () throws(DatabaseError) in
                    isQueued = false
                    if try db.query("SELECT 1 FROM blobs WHERE sha256 = ?", [.text(d.sha256)]).isEmpty {
                        guard let bytes = d.bytes() else { return }
                        try db.query(
                            "INSERT INTO blobs(sha256, bytes) VALUES (?, decode(?, 'hex')) ON CONFLICT (sha256) DO NOTHING",
                            [.text(d.sha256), .text(WorkQueue.hex(bytes))])
                    }
                    let key: [Database.Value] = [.text(d.path), .text(d.sha256)]
                    let stale = """
                        SELECT id FROM work WHERE path = ? AND sha256 = ? AND page = 0 AND (job IS DISTINCT FROM ?
                            OR (state = 'done' AND NOT EXISTS (SELECT 1 FROM outcomes o WHERE o.work_id = work.id)))
                        """
                    let again = try db.query(stale, key + [.text(d.job)]).compactMap { $0[0].int }
                    for id in again {
                        try db.query("DELETE FROM outcomes WHERE work_id = ?", [.int(id)])
                        try db.query(
                            """
                            UPDATE work SET job = ?, settings = ?, state = 'queued', attempt = 0, worker = NULL, lease_until = NULL,
                                failure = NULL WHERE id = ?
                            """, [.text(d.job), .text(d.settings), .int(id)])
                    }
                    let added = try db.query(
                        """
                        INSERT INTO work(path, sha256, page, job, settings) VALUES (?, ?, 0, ?, ?)
                        ON CONFLICT (path, sha256, page) DO NOTHING RETURNING id
                        """, key + [.text(d.job), .text(d.settings)])
                    if !added.isEmpty || !again.isEmpty {
                        isQueued = true
                        // Idle workers wake (delivered when the transaction commits).
                        try db.execute("NOTIFY shoebox_work")
                    }
                }
                if isQueued { queued.append(d.path) }
            }
            return queued
        }
    }

    /// Marks a claimed document done with its outcome (JSON), in one transaction; false, changing nothing, when the
    /// claim is no longer this worker's (a late completion: another finished it after this one's lease ran out).
    public func complete(_ claim: Claim, outcome: String) throws(StoreError) -> Bool {
        try wrap { () throws(DatabaseError) in
            var held = false
            try db.transaction { () throws(DatabaseError) in
                held = try !db.query(
                    """
                    UPDATE work SET state = 'done', lease_until = NULL
                    WHERE id = ? AND attempt = ? AND worker = ? AND state = 'running' RETURNING id
                    """, [.int(claim.id), .int(Int64(claim.attempt)), .text(worker)]
                ).isEmpty
                guard held else { return }
                try db.execute("NOTIFY shoebox_done")
                try db.query(
                    "INSERT INTO outcomes(work_id, json) VALUES (?, ?) ON CONFLICT (work_id) DO UPDATE SET json = excluded.json",
                    [.int(claim.id), .text(outcome)])
            }
            return held
        }
    }

    /// Where a queued document stands: running or queued (nil outcome), done with its outcome, or failed by name.
    public struct Progress: Sendable {
        public let state: String
        public let failure: String?
        public let outcome: String?
    }

    /// The document `path` with bytes `sha256` as the queue holds it; nil when it is not queued.
    public func progress(path: String, sha256: String) throws(StoreError) -> Progress? {
        try wrap { () throws(DatabaseError) in
            guard
                let row = try db.query(
                    """
                    SELECT w.state, w.failure, o.json FROM work w LEFT JOIN outcomes o ON o.work_id = w.id
                    WHERE w.path = ? AND w.sha256 = ? AND w.page = 0
                    """, [.text(path), .text(sha256)]
                ).first, let state = row[0].text
            else { return nil }
            return Progress(state: state, failure: row[1].text, outcome: row[2].text)
        }
    }

    /// Lets a stored outcome go once the run has stored its record (the queue's row stays, done).
    public func stored(path: String, sha256: String) throws(StoreError) {
        _ = try wrap { () throws(DatabaseError) in
            try db.query(
                "DELETE FROM outcomes WHERE work_id IN (SELECT id FROM work WHERE path = ? AND sha256 = ? AND page = 0)", [.text(path), .text(sha256)]
            )
        }
    }

    /// Lets go at once the claims of workers `isGone` names (processes of this machine that no longer run: a killed run
    /// or worker started again here), instead of when their leases run out; returns how many.
    @discardableResult
    public func releaseClaims(of isGone: (String) -> Bool) throws(StoreError) -> Int {
        try wrap { () throws(DatabaseError) in
            var released = 0
            for row in try db.query("SELECT id, worker FROM work WHERE state = 'running'") {
                guard let id = row[0].int, let worker = row[1].text, isGone(worker) else { continue }
                released +=
                    try db.query(
                        """
                        UPDATE work SET lease_until = clock_timestamp() - make_interval(secs => ? * attempt + 1)
                        WHERE id = ? AND worker = ? AND state = 'running' RETURNING id
                        """, [.real(backoffSeconds), .int(id), .text(worker)]
                    ).count
            }
            return released
        }
    }

    /// Whether a command holds the store's writers' lock (`StoreWriterLock`): a run taking in documents, or storing
    /// what the workers read. A worker told to stop when the queue is empty waits for it.
    public func writerActive() throws(StoreError) -> Bool {
        try wrap { () throws(DatabaseError) in
            try db.query(
                """
                SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = 0 AND objid = ?
                    AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))
                """, [.int(Int64(StoreWriterLock.key))]
            ).first?.first?.text == "t"
        }
    }

    /// Listens on `channel` (`shoebox_work`: documents queued; `shoebox_done`: documents read), for `wait`.
    public func listen(_ channel: String) throws(StoreError) {
        try wrap { () throws(DatabaseError) in try db.execute("LISTEN \(channel)") }
    }

    /// Waits up to `seconds` for what `listen` asked for, or for the time to pass: LISTEN/NOTIFY wakes a waiting worker
    /// or run at once, and polling after `seconds` is the fallback (a notification is lost with a broken connection).
    public func wait(seconds: Double) { _ = db.waitForNotification(seconds: seconds) }

    /// The bytes the store keeps under `sha256`; nil when it keeps none.
    public func bytes(sha256: String) throws(StoreError) -> [UInt8]? {
        try wrap { () throws(DatabaseError) in
            guard let hex = try db.query("SELECT encode(bytes, 'hex') FROM blobs WHERE sha256 = ?", [.text(sha256)]).first?.first?.text else {
                return nil
            }
            return WorkQueue.bytes(hex: hex)
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: bytes.count * 2)
        for (i, b) in bytes.enumerated() {
            out[2 * i] = digits[Int(b >> 4)]
            out[2 * i + 1] = digits[Int(b & 0x0f)]
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func bytes(hex: String) -> [UInt8]? {
        let utf8 = Array(hex.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            default: nil
            }
        }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count / 2)
        var i = 0
        while i < utf8.count {
            guard let h = nibble(utf8[i]), let l = nibble(utf8[i + 1]) else { return nil }
            out.append(h << 4 | l)
            i += 2
        }
        return out
    }
}
