internal import Foundation
public import ShoeboxCore

/// The store: one SQLite file (`store.sqlite`, WAL) in the output folder, with a schema version and migrations.
/// Tables: sources (path, folder, sha256, failure), pages (OCR text and words per page), records (the machine-readable
/// record: its status is stored there and nowhere else), decisions, memory, cancellations, runs. It keeps what it is given (`RecordStore`); what is judged from it is judged by its callers.
public final class Store: RecordStore {
    let db: any SQLConnection
    /// Where the store is: its SQLite file, or its PostgreSQL URL (which never holds a password).
    public let path: String

    /// Migrations in order; `PRAGMA user_version` is the number applied. Never edit one that has shipped: add another.
    static let migrations: [String] = [
        """
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            started TEXT NOT NULL,
            finished TEXT,
            root TEXT NOT NULL,
            pipeline TEXT NOT NULL
        );
        CREATE TABLE sources (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL UNIQUE,
            root TEXT NOT NULL,
            folder TEXT NOT NULL,
            sha256 TEXT NOT NULL,
            size INTEGER NOT NULL,
            kind TEXT,
            state TEXT NOT NULL CHECK (state IN ('accepted', 'review', 'duplicate', 'failed')),
            failure_code TEXT,
            failure_message TEXT,
            run_id INTEGER REFERENCES runs(id)
        );
        CREATE INDEX sources_sha256 ON sources(sha256);
        CREATE TABLE pages (
            source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
            page_number INTEGER NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            dpi INTEGER NOT NULL,
            text_source TEXT NOT NULL,
            mean_confidence REAL NOT NULL,
            text TEXT NOT NULL,
            lines_json TEXT NOT NULL,
            PRIMARY KEY (source_id, page_number)
        );
        CREATE TABLE records (
            source_id INTEGER PRIMARY KEY REFERENCES sources(id) ON DELETE CASCADE,
            status TEXT NOT NULL,
            json TEXT NOT NULL
        );
        CREATE TABLE review_items (
            source_id INTEGER PRIMARY KEY REFERENCES sources(id) ON DELETE CASCADE,
            reasons TEXT NOT NULL
        );
        """,
        // 2: what people decide in review, kept apart from what the pipeline suggested (records.json is never
        // changed by a decision). Keyed by path and content, so a decision outlives a re-run of the same file
        // and does not apply to a changed one. Undo marks a decision undone; nothing is deleted.
        """
        CREATE TABLE decisions (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL,
            sha256 TEXT NOT NULL,
            action TEXT NOT NULL CHECK (action IN ('accept', 'edit', 'reject', 'duplicate', 'not-duplicate')),
            field TEXT,
            value TEXT,
            at TEXT NOT NULL,
            undone INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX decisions_path ON decisions(path, sha256);
        """,
        // 3: the first page's fingerprint (PageFingerprint.hex), for "the same paper scanned again".
        """
        ALTER TABLE sources ADD COLUMN fingerprint TEXT;
        """,
        // 4: the settings a source was read under (a digest of the pipeline and the engine versions):
        // finished under other settings, it is read again.
        """
        ALTER TABLE sources ADD COLUMN settings TEXT;
        """,
        // 5: the decision log: where each decision was made (terminal, browser, apply) and what it changed (the field's
        // value, or the record's state, before and after). Decisions from before have none.
        """
        ALTER TABLE decisions ADD COLUMN who TEXT;
        ALTER TABLE decisions ADD COLUMN before TEXT;
        ALTER TABLE decisions ADD COLUMN after TEXT;
        """,
        // 6: the turn each page was given before it was read (the review page is shown the same way).
        """
        ALTER TABLE pages ADD COLUMN turn INTEGER NOT NULL DEFAULT 0;
        """,
        // 7: the merchant memory (one row per key of each record a person confirmed), and the record as the page gave
        // it before the memory weighed in, when the memory changed it (`shoebox rescore` starts from it).
        """
        CREATE TABLE memory (
            kind TEXT NOT NULL,
            value TEXT NOT NULL,
            merchant TEXT NOT NULL,
            category TEXT,
            currency TEXT,
            payment_method TEXT,
            path TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (kind, value, path)
        );
        CREATE INDEX memory_path ON memory(path);
        ALTER TABLE records ADD COLUMN page_json TEXT;
        """,
        // 8: a decision may settle a deadline (SQLite cannot change a CHECK: the table is made again, rows kept).
        """
        CREATE TABLE decisions_8 (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL,
            sha256 TEXT NOT NULL,
            action TEXT NOT NULL CHECK (action IN ('accept', 'edit', 'reject', 'duplicate', 'not-duplicate', 'settle')),
            field TEXT,
            value TEXT,
            at TEXT NOT NULL,
            undone INTEGER NOT NULL DEFAULT 0,
            who TEXT,
            before TEXT,
            after TEXT
        );
        INSERT INTO decisions_8(id, path, sha256, action, field, value, at, undone, who, before, after)
            SELECT id, path, sha256, action, field, value, at, undone, who, before, after FROM decisions;
        DROP TABLE decisions;
        ALTER TABLE decisions_8 RENAME TO decisions;
        CREATE INDEX decisions_path ON decisions(path, sha256);
        """,
        // 9: recurring series a person marked cancelled, by merchant, from a day.
        """
        CREATE TABLE cancellations (
            merchant TEXT PRIMARY KEY,
            day TEXT NOT NULL,
            at TEXT NOT NULL
        );
        """,
        // 10: a record's status is stored once, in the record (`records.json`). Its copies in sources.state and
        // records.status, and review_items (never read), were kept in step by hand by every writer; the review queue
        // is a query of the records as they stand.
        """
        DROP TABLE review_items;
        ALTER TABLE records DROP COLUMN status;
        ALTER TABLE sources DROP COLUMN state;
        """
    ]

    public static var schemaVersion: Int { migrations.count }

    /// The same schema on PostgreSQL, versioned on its own (`shoebox_schema`); the store's SQL runs on both
    /// (`SQLConnection`). Never edit one that has shipped: add another.
    static let postgresMigrations: [String] = [
        // 1: SQLite's schema 10.
        """
        CREATE TABLE runs (id BIGSERIAL PRIMARY KEY, started TEXT NOT NULL, finished TEXT, root TEXT NOT NULL, pipeline TEXT NOT NULL);
        CREATE TABLE sources (
            id BIGSERIAL PRIMARY KEY,
            path TEXT NOT NULL UNIQUE,
            root TEXT NOT NULL,
            folder TEXT NOT NULL,
            sha256 TEXT NOT NULL,
            size BIGINT NOT NULL,
            kind TEXT,
            failure_code TEXT,
            failure_message TEXT,
            run_id BIGINT REFERENCES runs(id),
            fingerprint TEXT,
            settings TEXT
        );
        CREATE INDEX sources_sha256 ON sources(sha256);
        CREATE TABLE pages (
            source_id BIGINT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
            page_number INTEGER NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            dpi INTEGER NOT NULL,
            text_source TEXT NOT NULL,
            mean_confidence DOUBLE PRECISION NOT NULL,
            text TEXT NOT NULL,
            lines_json TEXT NOT NULL,
            turn INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (source_id, page_number)
        );
        CREATE TABLE records (source_id BIGINT PRIMARY KEY REFERENCES sources(id) ON DELETE CASCADE, json TEXT NOT NULL, page_json TEXT);
        CREATE TABLE decisions (
            id BIGSERIAL PRIMARY KEY,
            path TEXT NOT NULL,
            sha256 TEXT NOT NULL,
            action TEXT NOT NULL CHECK (action IN ('accept', 'edit', 'reject', 'duplicate', 'not-duplicate', 'settle')),
            field TEXT,
            value TEXT,
            at TEXT NOT NULL,
            undone INTEGER NOT NULL DEFAULT 0,
            who TEXT,
            before TEXT,
            after TEXT
        );
        CREATE INDEX decisions_path ON decisions(path, sha256);
        CREATE TABLE memory (
            kind TEXT NOT NULL,
            value TEXT NOT NULL,
            merchant TEXT NOT NULL,
            category TEXT,
            currency TEXT,
            payment_method TEXT,
            path TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (kind, value, path)
        );
        CREATE INDEX memory_path ON memory(path);
        CREATE TABLE cancellations (merchant TEXT PRIMARY KEY, day TEXT NOT NULL, at TEXT NOT NULL);
        """,
        // 2: the pages workers share (`WorkQueue`): a claim's worker, attempt and lease in the server's time. Rows are
        // updated in place several times each: room left in every page (fillfactor) and vacuumed early.
        """
        CREATE TABLE work (
            id BIGSERIAL PRIMARY KEY,
            path TEXT NOT NULL,
            sha256 TEXT NOT NULL,
            page INTEGER NOT NULL,
            state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
            attempt INTEGER NOT NULL DEFAULT 0,
            worker TEXT,
            lease_until TIMESTAMPTZ,
            failure TEXT,
            UNIQUE (path, sha256, page)
        ) WITH (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.02);
        CREATE INDEX work_open ON work (id) WHERE state IN ('queued', 'running');
        """,
        // 3: documents read anywhere (`shoebox worker`): the scans' bytes by their SHA-256, each kept once, so a worker
        // needs no shared folder; what a worker needs to read a document (`job`, JSON) and the settings it is read
        // under; the outcome it hands back, in a table of its own (the queue's rows stay small).
        """
        CREATE TABLE blobs (sha256 TEXT PRIMARY KEY, bytes BYTEA NOT NULL);
        ALTER TABLE work ADD COLUMN job TEXT;
        ALTER TABLE work ADD COLUMN settings TEXT;
        CREATE TABLE outcomes (work_id BIGINT PRIMARY KEY REFERENCES work(id) ON DELETE CASCADE, json TEXT NOT NULL);
        """
    ]

    /// The longest full path of a store file SQLite's unix file layer opens (measured on SQLite 3.40 with WAL: 505
    /// bytes fail with "unable to open database file").
    public static let maxSQLitePathBytes = 504

    public init(directory: String) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError(
                message:
                    "cannot create the output folder \(StoredPath.shown(directory)): \(SystemReason.of(error)). Choose another folder with --out.")
        }
        path = PathText.joined(directory, "store.sqlite")
        let whole = PathText.absolute(path).utf8.count
        guard whole <= Store.maxSQLitePathBytes else {
            throw StoreError(
                message:
                    "cannot use the store \(StoredPath.shown(path)): its full path is \(whole) bytes long, and SQLite opens a store by a path of at most \(Store.maxSQLitePathBytes) bytes. Choose an output folder with a shorter path (--out), or a PostgreSQL store (--store)."
            )
        }
        do {
            db = try Database(path: path)
            try db.execute("PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL;")
            try migrate()
        } catch let error as DatabaseError {
            throw StoreError(
                message:
                    "cannot use the store \(StoredPath.shown(path)): \(error.message). Check that the output folder is writable, or choose another with --out."
            )
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(
                message:
                    "cannot use the store \(StoredPath.shown(path)): \(SystemReason.of(error)). Check that the output folder is writable, or choose another with --out."
            )
        }
    }

    /// A store on a PostgreSQL server (`postgresql://…`), shared by the processes on many machines that point at it. A
    /// password is never part of the URL (it would show in process lists and logs): libpq reads `PGPASSWORD` or
    /// `~/.pgpass`.
    public init(postgresURL url: String) throws(StoreError) {
        path = url
        if PostgresURL.hasPassword(url) {
            throw StoreError(
                message:
                    "the store's URL holds a password, which would show in process lists and logs. Leave it out of the URL and put it in PGPASSWORD or ~/.pgpass."
            )
        }
        do {
            let connection = try PostgresConnection(url: url)
            connection.afterReconnect = { () throws(DatabaseError) in try StoreWriterLock.retake(url: url) }
            db = connection
            try migrate()
        } catch let error as DatabaseError where error.kind == .unusable {
            throw StoreError(
                message: "cannot use the store \(url): \(error.message). Check the URL, that the server runs and that its user may create tables.")
        } catch let error as DatabaseError {
            throw Store.failure(error, store: url)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(message: "cannot use the store \(url): \(SystemReason.of(error)).")
        }
    }

    private func migrate() throws {
        let migrations = db.dialect == .sqlite ? Store.migrations : Store.postgresMigrations
        func newer(_ current: Int) -> StoreError {
            StoreError(
                message:
                    "the store \(StoredPath.shown(path)) has schema version \(current), newer than this Shoebox understands (\(migrations.count)). Use a newer Shoebox or another \(db.dialect == .sqlite ? "--out folder" : "store").",
                kind: .newerSchema)
        }
        switch db.dialect {
        case .sqlite:
            let current = Int(try db.query("PRAGMA user_version").first?.first?.int ?? 0)
            if current > migrations.count { throw newer(current) }
            for version in current..<migrations.count {
                try db.transaction { () throws(DatabaseError) in
                    try db.execute(migrations[version])
                    try db.execute("PRAGMA user_version = \(version + 1)")
                }
            }
        case .postgresql:
            // One process migrates at a time: the others wait on the lock, then find the schema made.
            var current = 0
            try db.transaction { () throws(DatabaseError) in
                try db.execute("SELECT pg_advisory_xact_lock(7478190); CREATE TABLE IF NOT EXISTS shoebox_schema (version INTEGER NOT NULL)")
                current = Int(try db.query("SELECT coalesce(max(version), 0) FROM shoebox_schema").first?.first?.int ?? 0)
                guard current <= migrations.count else { return }
                for version in current..<migrations.count {
                    try db.execute(migrations[version])
                    try db.query("INSERT INTO shoebox_schema(version) VALUES (?)", [.int(Int64(version + 1))])
                }
            }
            if current > migrations.count { throw newer(current) }
        }
    }

    @discardableResult
    func wrap<T>(_ body: () throws(DatabaseError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw Store.failure(error, store: path) }
    }

    /// `text` ended as a sentence: a full stop added unless it ends in one, or in ? or !.
    static func sentence(_ text: String) -> String {
        guard let last = text.last, !".?!".contains(last) else { return text }
        return text + "."
    }

    /// A failure of the store at `path` as the user reads it: what happened, what is kept, what to do.
    static func failure(_ error: DatabaseError, store path: String) -> StoreError {
        switch error.kind {
        case .serverGone:
            StoreError(
                message:
                    "the PostgreSQL server of the store \(StoredPath.shown(path)) went away (\(error.message)). Every transaction it finished stays, a half-done one is rolled back. Run the command again when the server is back: it takes up where it stopped (SHOEBOX_STORE_RETRY_SECONDS sets how long a command waits for it to come back, default 60).",
                kind: .serverGone)
        case .serverFull where PostgresConnection.connectKind(error.message) == .serverFull:
            StoreError(
                message:
                    "the PostgreSQL server of the store \(StoredPath.shown(path)) has no connection left (\(error.message)) and none came free within \(Int(PostgresConnection.retrySeconds.rounded())) s. Nothing was changed by this command. Run fewer workers (each takes up to three connections), or raise the server's max_connections, then run it again.",
                kind: .serverFull)
        case .serverFull:
            StoreError(
                message:
                    "the PostgreSQL server of the store \(StoredPath.shown(path)) is out of room (\(error.message)). Nothing half-written is kept. Free space on the server, or raise its limits, then run the command again.",
                kind: .serverFull)
        case .lockLost:
            StoreError(
                message:
                    "the PostgreSQL server of the store \(StoredPath.shown(path)) restarted, and \(error.message): this command stops so that two do not write at once. Every transaction it finished stays. Run it again when the other is done (or give --wait).",
                kind: .lockLost)
        case .unreachable:
            StoreError(
                message:
                    "cannot reach the store \(StoredPath.shown(path)): \(Store.sentence(error.message)) Check the URL, that the server runs and that its user may log in.",
                kind: .unreachable)
        default: StoreError(message: "the store \(StoredPath.shown(path)) failed: \(error.description)", kind: error.kind)
        }
    }

    // MARK: runs

    public func beginRun(root: String, pipeline: String, started: String) throws(StoreError) -> Int64 {
        try wrap { () throws(DatabaseError) in
            try db.query("INSERT INTO runs(started, root, pipeline) VALUES (?, ?, ?) RETURNING id", [.text(started), .text(root), .text(pipeline)])
                .first?.first?.int ?? 0
        }
    }

    public func finishRun(_ id: Int64, finished: String) throws(StoreError) {
        try wrap { () throws(DatabaseError) in
            try db.query("UPDATE runs SET finished = ? WHERE id = ?", [.text(finished), .int(id)])
        }
    }

    // MARK: sources

    /// The sha256 a path had when the store finished it, if it did.
    public func finishedSHA(path: String) throws(StoreError) -> String? {
        try finished(path: path)?.sha256
    }

    /// The sha256 and settings digest a path had when the store finished it, if it did.
    public func finished(path: String) throws(StoreError) -> (sha256: String, settings: String?)? {
        try wrap { () throws(DatabaseError) in
            guard let row = try db.query("SELECT sha256, settings FROM sources WHERE path = ?", [.text(path)]).first,
                let sha = row[0].text
            else { return nil }
            return (sha, row[1].text)
        }
    }

    /// What the store holds of each path, by relative path.
    public func held() throws(StoreError) -> [String: StoredSource] {
        let rows = try wrap { () throws(DatabaseError) in
            try db.query(
                """
                SELECT s.path, s.sha256, s.settings, \(db.dialect.status("r.json")), r.json, s.root, s.failure_code
                FROM sources s LEFT JOIN records r ON r.source_id = s.id
                """
            )
        }
        var out: [String: StoredSource] = [:]
        for row in rows {
            guard row.count == 7, let path = row[0].text, let sha = row[1].text, let root = row[5].text,
                let state = row[3].text.flatMap(RecordStatus.init(rawValue:))
            else { continue }
            var duplicateOf: String?
            if state == .duplicate, let json = row[4].text,
                let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            {
                duplicateOf = object["duplicateOf"] as? String
            }
            out[path] = StoredSource(sha256: sha, settings: row[2].text, state: state, duplicateOf: duplicateOf, root: root, failureCode: row[6].text)
        }
        return out
    }

    /// Other finished (not failed, not duplicate) paths with the same bytes, oldest first.
    public func originalPaths(sha256: String, excluding path: String) throws(StoreError) -> [String] {
        try wrap { () throws(DatabaseError) in
            try db.query(
                """
                SELECT s.path FROM sources s JOIN records r ON r.source_id = s.id
                WHERE s.sha256 = ? AND s.path <> ? AND \(db.dialect.status("r.json")) IN ('accepted', 'review') ORDER BY s.id
                """,
                [.text(sha256), .text(path)]
            ).compactMap { $0.first?.text }
        }
    }

    /// Forgets the sources whose stored record cannot be read (a damaged or hand-edited store), so that the run
    /// reads their files again; their review decisions (kept by path and content) apply again then. Returns
    /// their paths.
    public func dropUnreadableRecords() throws(StoreError) -> [String] {
        let rows = try wrap { () throws(DatabaseError) in
            try db.query("SELECT s.id, s.path, r.json FROM sources s JOIN records r ON r.source_id = s.id")
        }
        let decoder = JSONDecoder()
        var broken: [(id: Int64, path: String)] = []
        for row in rows {
            guard row.count == 3, let id = row[0].int, let path = row[1].text else { continue }
            if let json = row[2].text, (try? decoder.decode(DocumentRecord.self, from: Data(json.utf8))) != nil { continue }
            broken.append((id, path))
        }
        guard !broken.isEmpty else { return [] }
        try wrap { () throws(DatabaseError) in
            try db.transaction { () throws(DatabaseError) in
                for b in broken { try db.query("DELETE FROM sources WHERE id = ?", [.int(b.id)]) }
            }
        }
        return broken.map { $0.path }
    }

    /// Writes one document's outcome in one transaction: its source row, pages and record, and what the memory learned
    /// from the path.
    public func write(_ outcome: DocumentOutcome, root: String, runID: Int64, settings: String?, memory: [MerchantMemory.Sighting])
        throws(StoreError)
    {
        let r = outcome.record
        try wrap { () throws(DatabaseError) in
            try db.transaction { () throws(DatabaseError) in
                try db.query("DELETE FROM sources WHERE path = ?", [.text(r.source)])
                let id =
                    try db.query(
                        """
                        INSERT INTO sources(path, root, folder, sha256, size, kind, failure_code, failure_message, run_id, fingerprint, settings)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                        """,
                        [
                            .text(r.source), .text(root), .text(r.folder), .text(r.sha256), .int(Int64(outcome.size)),
                            outcome.kind.map { .text($0.rawValue) } ?? .null,
                            r.failure.map { .text($0.code) } ?? .null, r.failure.map { .text($0.message) } ?? .null, .int(runID),
                            outcome.fingerprint.map { .text($0.hex) } ?? .null, settings.map { .text($0) } ?? .null
                        ]
                    ).first?.first?.int ?? 0
                try insertContent(sourceID: id, pages: outcome.pages, record: r, pageRecord: outcome.pageRecord)
                try replaceMemory(path: r.source, with: memory)
            }
        }
    }

    /// A source's pages and its record (inside the caller's transaction): one place for what `write` and
    /// `StoreJSON.importInto` both write.
    /// `pageRecord`: the record as the page gave it, when the merchant memory changed it.
    func insertContent(sourceID id: Int64, pages: [OCRPage], record r: DocumentRecord?, pageRecord: DocumentRecord? = nil) throws(DatabaseError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for page in pages {
            let lines = (try? encoder.encode(page.lines)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
            try db.query(
                """
                INSERT INTO pages(source_id, page_number, width, height, dpi, text_source, mean_confidence, text, lines_json, turn)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .int(id), .int(Int64(page.pageNumber)), .int(Int64(page.width)), .int(Int64(page.height)),
                    .int(Int64(page.dpi)), .text(page.source.rawValue), .real(page.meanConfidence), .text(page.text), .text(lines),
                    .int(Int64(page.turn ?? 0))
                ])
        }
        guard let r else { return }
        try db.query(
            "INSERT INTO records(source_id, json, page_json) VALUES (?, ?, ?)",
            [.int(id), .text(r.jsonLine()), pageRecord.map { .text($0.jsonLine()) } ?? .null])
    }

    /// Every record, ordered by source path; `path`: that source's record only.
    public func records(path source: String?) throws(StoreError) -> [DocumentRecord] {
        let rows = try wrap { () throws(DatabaseError) in
            if let source {
                return try db.query("SELECT r.json FROM records r JOIN sources s ON s.id = r.source_id WHERE s.path = ?", [.text(source)])
            }
            return try db.query("SELECT r.json FROM records r JOIN sources s ON s.id = r.source_id ORDER BY s.path \(db.dialect.bytewise)")
        }
        let decoder = JSONDecoder()
        var out: [DocumentRecord] = []
        for row in rows {
            guard let json = row.first?.text else { continue }
            do { out.append(try decoder.decode(DocumentRecord.self, from: Data(json.utf8))) } catch {
                throw StoreError(
                    message:
                        "the store \(StoredPath.shown(path)) holds a record that cannot be read (\(StoreJSON.describe(error))). Run `shoebox run` on the scan folder again: it reads that file again and replaces the broken record."
                )
            }
        }
        return out
    }

    // MARK: review decisions

    /// Appends decisions to the log and replaces what the memory learned from each path in `memory`, in one transaction.
    public func writeDecisions(_ entries: [DecisionEntry], memory: [String: [MerchantMemory.Sighting]]) throws(StoreError) {
        try wrap { () throws(DatabaseError) in
            try db.transaction { () throws(DatabaseError) in
                for e in entries { try insert(e) }
                for path in memory.keys.sorted() { try replaceMemory(path: path, with: memory[path] ?? []) }
            }
        }
    }

    /// One decision into the log (inside the caller's transaction).
    func insert(_ e: DecisionEntry) throws(DatabaseError) {
        let d = e.decision
        try db.query(
            "INSERT INTO decisions(path, sha256, action, field, value, at, who, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                .text(e.path), .text(e.sha256), .text(d.action.rawValue), d.field.map { .text($0.rawValue) } ?? .null,
                d.logged.map { .text($0) } ?? .null, .text(e.at), .text(e.desk.rawValue), e.before.map { .text($0) } ?? .null,
                e.after.map { .text($0) } ?? .null
            ])
    }

    /// A record entered by hand: a source without a file, its record, and the person's decision (none for an agent's
    /// expense, which waits in review), in one transaction.
    public func writeByHand(_ r: DocumentRecord, decision: DecisionEntry?) throws(StoreError) {
        let taken = try wrap { () throws(DatabaseError) in try !db.query("SELECT 1 FROM sources WHERE path = ?", [.text(r.source)]).isEmpty }
        guard !taken else { throw StoreError(message: "\(r.source) is already in the store") }
        try wrap { () throws(DatabaseError) in
            try db.transaction { () throws(DatabaseError) in
                try db.query(
                    "INSERT INTO sources(path, root, folder, sha256, size, kind) VALUES (?, '', ?, ?, 0, NULL)",
                    [.text(r.source), .text(r.folder), .text(r.sha256)])
                try db.query("INSERT INTO records(source_id, json) SELECT id, ? FROM sources WHERE path = ?", [.text(r.jsonLine()), .text(r.source)])
                if let decision { try insert(decision) }
            }
        }
    }

    /// Every decision ever made (undone ones too), oldest first; for `path` only when given.
    public func decisionLog(path: String?) throws(StoreError) -> [LoggedDecision] {
        let rows = try wrap { () throws(DatabaseError) in
            try db.query(
                "SELECT path, action, field, value, at, who, before, after, undone FROM decisions"
                    + (path == nil ? "" : " WHERE path = ?") + " ORDER BY id", path.map { [.text($0)] } ?? [])
        }
        return rows.compactMap { row in
            guard let p = row[0].text, let action = row[1].text, let decision = ReviewDecision(logged: action, field: row[2].text, value: row[3].text)
            else { return nil }
            return LoggedDecision(
                path: p, decision: decision,
                at: row[4].text ?? "", desk: row[5].text.flatMap(ReviewDecision.Desk.init(rawValue:)), before: row[6].text, after: row[7].text,
                undone: (row[8].int ?? 0) != 0)
        }
    }

    /// The latest decision that is not undone, with its id and the content it was made on.
    public func lastDecisionNotUndone() throws(StoreError) -> (id: Int64, path: String, sha256: String, decision: ReviewDecision)? {
        try wrap { () throws(DatabaseError) in
            guard
                let row = try db.query("SELECT id, path, sha256, action, field, value FROM decisions WHERE undone = 0 ORDER BY id DESC LIMIT 1")
                    .first,
                let id = row[0].int, let path = row[1].text, let sha = row[2].text,
                let action = row[3].text, let decision = ReviewDecision(logged: action, field: row[4].text, value: row[5].text)
            else { return nil }
            return (id, path, sha, decision)
        }
    }

    /// Marks decision `id` undone and replaces what the memory learned from `path`, in one transaction.
    public func writeUndo(_ id: Int64, path: String, memory: [MerchantMemory.Sighting]) throws(StoreError) {
        try wrap { () throws(DatabaseError) in
            try db.transaction { () throws(DatabaseError) in
                try db.query("UPDATE decisions SET undone = 1 WHERE id = ?", [.int(id)])
                try replaceMemory(path: path, with: memory)
            }
        }
    }

    /// The decisions in force, per path, in the order they were made: not undone, and made on the content the store
    /// holds (`sha256`, when given, instead).
    public func decisionsInForce(path source: String?, sha256: String?) throws(StoreError) -> [String: [DecisionInForce]] {
        try wrap { () throws(DatabaseError) in try inForce(path: source, sha256: sha256) }
    }

    /// `decisionsInForce`, inside the caller's transaction.
    func inForce(path source: String?, sha256: String?) throws(DatabaseError) -> [String: [DecisionInForce]] {
        let rows = try db.query(
            """
            SELECT d.path, d.action, d.field, d.value, d.at FROM decisions d LEFT JOIN sources s ON s.path = d.path
            WHERE d.undone = 0 AND (?1 IS NULL OR d.path = ?1) AND d.sha256 = coalesce(?2, s.sha256) ORDER BY d.id
            """, [source.map { .text($0) } ?? .null, sha256.map { .text($0) } ?? .null])
        var out: [String: [DecisionInForce]] = [:]
        for row in rows {
            guard let path = row[0].text, let action = row[1].text,
                let decision = ReviewDecision(logged: action, field: row[2].text, value: row[3].text)
            else { continue }
            out[path, default: []].append(DecisionInForce(decision, at: row[4].text ?? ""))
        }
        return out
    }

    /// Each source's first-page fingerprint, by relative path.
    public func fingerprints() throws(StoreError) -> [String: PageFingerprint] {
        let rows = try wrap { () throws(DatabaseError) in try db.query("SELECT path, fingerprint FROM sources WHERE fingerprint IS NOT NULL") }
        var out: [String: PageFingerprint] = [:]
        for row in rows {
            guard let path = row[0].text, let hex = row[1].text, let f = PageFingerprint(hex: hex) else { continue }
            out[path] = f
        }
        return out
    }

    /// Each source's first-page text, by relative path.
    public func firstPageTexts() throws(StoreError) -> [String: String] {
        let rows = try wrap { () throws(DatabaseError) in
            try db.query("SELECT s.path, p.text FROM sources s JOIN pages p ON p.source_id = s.id AND p.page_number = 1")
        }
        var out: [String: String] = [:]
        for row in rows {
            guard row.count == 2, let path = row[0].text, let text = row[1].text else { continue }
            out[path] = text
        }
        return out
    }

    /// The scan root each source was found under, by relative path.
    public func roots() throws(StoreError) -> [String: String] {
        let rows = try wrap { () throws(DatabaseError) in try db.query("SELECT path, root FROM sources") }
        var out: [String: String] = [:]
        for row in rows {
            guard row.count == 2, let path = row[0].text, let root = row[1].text else { continue }
            out[path] = root
        }
        return out
    }

    /// The pages of a document as they were read (size, resolution, lines with their boxes), for showing where a value
    /// was read; empty for a path the store does not hold.
    public func pages(path: String) throws(StoreError) -> [OCRPage] {
        let rows = try wrap { () throws(DatabaseError) in
            try db.query(
                """
                SELECT p.page_number, p.width, p.height, p.dpi, p.text_source, p.lines_json, p.turn FROM pages p
                JOIN sources s ON s.id = p.source_id WHERE s.path = ? ORDER BY p.page_number
                """, [.text(path)])
        }
        return rows.compactMap { row in
            guard row.count == 7, let n = row[0].int, let w = row[1].int, let h = row[2].int, let dpi = row[3].int,
                let source = row[4].text.flatMap(TextSource.init(rawValue:))
            else { return nil }
            // Lines that do not decode (a store written by hand) show the page without boxes.
            let lines = row[5].text.flatMap { try? JSONDecoder().decode([OCRLine].self, from: Data($0.utf8)) } ?? []
            var page = OCRPage(pageNumber: Int(n), width: Int(w), height: Int(h), dpi: Int(dpi), source: source, lines: lines)
            page.turn = row[6].int.map(Int.init).flatMap { [90, 180, 270].contains($0) ? $0 : nil }
            return page
        }
    }

    public static var sqliteVersion: String { Database.sqliteVersion }
}
