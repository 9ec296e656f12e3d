internal import Foundation
public import ShoeboxCore
public import ShoeboxJudgement

/// Why the store cannot be used: a problem of the output folder, not of one document.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}

/// The store: one SQLite file (`store.sqlite`, WAL) in the output folder, with a schema version and migrations.
/// Tables: sources (path, folder, sha256, state, failure), pages (OCR text and words per page),
/// records (the machine-readable record), review_items (what waits for a person, with reasons), runs.
public final class Store {
    let db: Database
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
        """
    ]

    public static var schemaVersion: Int { migrations.count }

    public init(directory: String) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError(message: "cannot create the output folder \(directory): \(SystemReason.of(error)). Choose another folder with --out.")
        }
        path = (directory as NSString).appendingPathComponent("store.sqlite")
        do {
            db = try Database(path: path)
            try db.execute("PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL;")
            try migrate()
        } catch let error as DatabaseError {
            throw StoreError(
                message: "cannot use the store \(path): \(error.message). Check that the output folder is writable, or choose another with --out.")
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(
                message:
                    "cannot use the store \(path): \(SystemReason.of(error)). Check that the output folder is writable, or choose another with --out."
            )
        }
    }

    private func migrate() throws {
        let current = Int(try db.query("PRAGMA user_version").first?.first?.int ?? 0)
        if current > Store.migrations.count {
            throw StoreError(
                message:
                    "the store \(path) has schema version \(current), newer than this Shoebox understands (\(Store.migrations.count)). Use a newer Shoebox or another --out folder."
            )
        }
        for version in current..<Store.migrations.count {
            try db.transaction { () throws(DatabaseError) in
                try db.execute(Store.migrations[version])
                try db.execute("PRAGMA user_version = \(version + 1)")
            }
        }
    }

    @discardableResult
    func wrap<T>(_ body: () throws(DatabaseError) -> T) throws(StoreError) -> T {
        do { return try body() } catch {
            throw StoreError(message: "the store \(path) failed: \(error.description)")
        }
    }

    // MARK: runs

    public func beginRun(root: String, pipeline: String, started: String) throws(StoreError) -> Int64 {
        try wrap { () throws(DatabaseError) in
            try db.query("INSERT INTO runs(started, root, pipeline) VALUES (?, ?, ?)", [.text(started), .text(root), .text(pipeline)])
            return try db.query("SELECT last_insert_rowid()").first?.first?.int ?? 0
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

    /// What the store holds of a path: its bytes, settings and state, and for a duplicate the path it copies.
    public struct Held: Sendable {
        public let sha256: String
        public let settings: String?
        public let state: RecordStatus
        public let duplicateOf: String?
        /// The scan root it was found under.
        public let root: String
        /// For a failed source, its failure's code.
        public let failureCode: String?
    }

    /// What the store holds of each path, by relative path.
    public func held() throws(StoreError) -> [String: Held] {
        let rows = try wrap { () throws(DatabaseError) in
            try db.query(
                "SELECT s.path, s.sha256, s.settings, s.state, r.json, s.root, s.failure_code FROM sources s LEFT JOIN records r ON r.source_id = s.id"
            )
        }
        var out: [String: Held] = [:]
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
            out[path] = Held(sha256: sha, settings: row[2].text, state: state, duplicateOf: duplicateOf, root: root, failureCode: row[6].text)
        }
        return out
    }

    /// Other finished (not failed, not duplicate) paths with the same bytes, oldest first.
    public func originalPaths(sha256: String, excluding path: String) throws(StoreError) -> [String] {
        try wrap { () throws(DatabaseError) in
            try db.query(
                "SELECT path FROM sources WHERE sha256 = ? AND path <> ? AND state IN ('accepted', 'review') ORDER BY id",
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

    /// Saves one document's outcome in one transaction: its source row, pages, record and review item.
    public func save(_ outcome: DocumentOutcome, root: String, runID: Int64, settings: String? = nil) throws(StoreError) {
        let r = outcome.record
        try wrap { () throws(DatabaseError) in
            try db.transaction { () throws(DatabaseError) in
                try db.query("DELETE FROM sources WHERE path = ?", [.text(r.source)])
                try db.query(
                    """
                    INSERT INTO sources(path, root, folder, sha256, size, kind, state, failure_code, failure_message, run_id, fingerprint, settings)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(r.source), .text(root), .text(r.folder), .text(r.sha256), .int(Int64(outcome.size)),
                        outcome.kind.map { .text($0.rawValue) } ?? .null, .text(r.status.rawValue),
                        r.failure.map { .text($0.code) } ?? .null, r.failure.map { .text($0.message) } ?? .null, .int(runID),
                        outcome.fingerprint.map { .text($0.hex) } ?? .null, settings.map { .text($0) } ?? .null
                    ])
                let id = try db.query("SELECT last_insert_rowid()").first?.first?.int ?? 0
                try insertContent(sourceID: id, pages: outcome.pages, record: r, pageRecord: outcome.pageRecord)
                // A changed file's earlier decisions no longer apply, nor what they taught.
                try relearn(path: r.source)
            }
        }
    }

    /// A source's pages, its record and, when it waits for a person, its review item (inside the caller's
    /// transaction): one place for what `save` and `StoreJSON.importInto` both write.
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
            "INSERT INTO records(source_id, status, json, page_json) VALUES (?, ?, ?, ?)",
            [.int(id), .text(r.status.rawValue), .text(r.jsonLine()), pageRecord.map { .text($0.jsonLine()) } ?? .null])
        if r.status == .review {
            try db.query(
                "INSERT INTO review_items(source_id, reasons) VALUES (?, ?)", [.int(id), .text(r.reasons.map(\.code).joined(separator: ","))])
        }
    }

    /// Every record, ordered by source path; `path`: that source's record only.
    public func records(path source: String? = nil) throws(StoreError) -> [DocumentRecord] {
        let rows = try wrap { () throws(DatabaseError) in
            if let source {
                return try db.query("SELECT r.json FROM records r JOIN sources s ON s.id = r.source_id WHERE s.path = ?", [.text(source)])
            }
            return try db.query("SELECT r.json FROM records r JOIN sources s ON s.id = r.source_id ORDER BY s.path")
        }
        let decoder = JSONDecoder()
        var out: [DocumentRecord] = []
        for row in rows {
            guard let json = row.first?.text else { continue }
            do { out.append(try decoder.decode(DocumentRecord.self, from: Data(json.utf8))) } catch {
                throw StoreError(
                    message:
                        "the store \(path) holds a record that cannot be read (\(StoreJSON.describe(error))). Run `shoebox run` on the scan folder again: it reads that file again and replaces the broken record."
                )
            }
        }
        return out
    }

    // MARK: review decisions

    /// Saves decisions at once, all or none (one transaction): the one path every way of deciding takes (the terminal,
    /// the browser, `--apply`), into one log of who decided where, when, and what changed. Each record is the record
    /// as it stands when its decision is made.
    public func decide(_ decisions: [(record: DocumentRecord, decision: ReviewDecision)], at: String, by desk: ReviewDecision.Desk)
        throws(StoreError)
    {
        try wrap { () throws(DatabaseError) in
            try db.transaction { () throws(DatabaseError) in
                var working: [String: DocumentRecord] = [:]
                for (r, d) in decisions {
                    // Several decisions on one record in one batch: each sees the record the ones before left.
                    let current = working[r.source] ?? r
                    let (before, after) = d.change(on: current)
                    try db.query(
                        "INSERT INTO decisions(path, sha256, action, field, value, at, who, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [
                            .text(r.source), .text(r.sha256), .text(d.action.rawValue), d.field.map { .text($0.rawValue) } ?? .null,
                            d.value.map { .text($0) } ?? .null, .text(at), .text(desk.rawValue), before.map { .text($0) } ?? .null,
                            after.map { .text($0) } ?? .null
                        ])
                    working[r.source] = Review.apply([d], to: current)
                }
                for path in working.keys.sorted() { try relearn(path: path) }
            }
        }
    }

    /// Adds an expense a person entered by hand (`Review.handEntry`): a source without a file, its record, and the
    /// person's accept of it in the log (undo takes it back to review, where it can be rejected).
    public func addByHand(_ r: DocumentRecord, at: String, by desk: ReviewDecision.Desk) throws(StoreError) {
        guard r.enteredByHand else { throw StoreError(message: "only a record entered by hand is added this way") }
        let taken = try wrap { () throws(DatabaseError) in try !db.query("SELECT 1 FROM sources WHERE path = ?", [.text(r.source)]).isEmpty }
        guard !taken else { throw StoreError(message: "\(r.source) is already in the store") }
        try wrap { () throws(DatabaseError) in
            try db.transaction { () throws(DatabaseError) in
                try db.query(
                    "INSERT INTO sources(path, root, folder, sha256, size, kind, state) VALUES (?, '', ?, ?, 0, NULL, ?)",
                    [.text(r.source), .text(r.folder), .text(r.sha256), .text(r.status.rawValue)])
                try db.query(
                    "INSERT INTO records(source_id, status, json) SELECT id, ?, ? FROM sources WHERE path = ?",
                    [.text(r.status.rawValue), .text(r.jsonLine()), .text(r.source)])
                let (before, after) = ReviewDecision(action: .accept).change(on: r)
                try db.query(
                    "INSERT INTO decisions(path, sha256, action, at, who, before, after) VALUES (?, ?, 'accept', ?, ?, ?, ?)",
                    [.text(r.source), .text(r.sha256), .text(at), .text(desk.rawValue), .text(before ?? ""), .text(after ?? "")])
            }
        }
    }

    /// One line of the decision log.
    public struct LoggedDecision: Sendable {
        public let path: String
        public let decision: ReviewDecision
        public let at: String
        /// Where it was made; nil for a decision saved before the log kept it.
        public let desk: ReviewDecision.Desk?
        public let before: String?
        public let after: String?
        public let undone: Bool
    }

    /// Every decision ever made (undone ones too), oldest first; for `path` only when given.
    public func decisionLog(path: String? = nil) throws(StoreError) -> [LoggedDecision] {
        let rows = try wrap { () throws(DatabaseError) in
            try db.query(
                "SELECT path, action, field, value, at, who, before, after, undone FROM decisions"
                    + (path == nil ? "" : " WHERE path = ?") + " ORDER BY id", path.map { [.text($0)] } ?? [])
        }
        return rows.compactMap { row in
            guard let p = row[0].text, let action = row[1].text.flatMap(ReviewDecision.Action.init(rawValue:)) else { return nil }
            return LoggedDecision(
                path: p, decision: ReviewDecision(action: action, field: row[2].text.flatMap(Field.init(rawValue:)), value: row[3].text),
                at: row[4].text ?? "", desk: row[5].text.flatMap(ReviewDecision.Desk.init(rawValue:)), before: row[6].text, after: row[7].text,
                undone: (row[8].int ?? 0) != 0)
        }
    }

    /// Marks the latest decision that is not undone as undone; returns its record's path and the decision.
    public func undoLastDecision() throws(StoreError) -> (path: String, decision: ReviewDecision)? {
        try wrap { () throws(DatabaseError) in
            var undone: (path: String, decision: ReviewDecision)?
            try db.transaction { () throws(DatabaseError) in
                guard let row = try db.query("SELECT id, path, action, field, value FROM decisions WHERE undone = 0 ORDER BY id DESC LIMIT 1").first,
                    let id = row[0].int, let path = row[1].text, let action = row[2].text.flatMap(ReviewDecision.Action.init(rawValue:))
                else { return }
                try db.query("UPDATE decisions SET undone = 1 WHERE id = ?", [.int(id)])
                try relearn(path: path)
                undone = (path, ReviewDecision(action: action, field: row[3].text.flatMap(Field.init(rawValue:)), value: row[4].text))
            }
            return undone
        }
    }

    /// The decisions in force, per path, in the order they were made (for the content the store holds now).
    public func decisions(path source: String? = nil) throws(StoreError) -> [String: [ReviewDecision]] {
        let rows = try wrap { () throws(DatabaseError) in
            try db.query(
                """
                SELECT d.path, d.action, d.field, d.value FROM decisions d JOIN sources s ON s.path = d.path AND s.sha256 = d.sha256
                WHERE d.undone = 0 AND (?1 IS NULL OR d.path = ?1) ORDER BY d.id
                """, [source.map { .text($0) } ?? .null])
        }
        var out: [String: [ReviewDecision]] = [:]
        for row in rows {
            guard let path = row[0].text, let action = row[1].text.flatMap(ReviewDecision.Action.init(rawValue:)) else { continue }
            out[path, default: []].append(ReviewDecision(action: action, field: row[2].text.flatMap(Field.init(rawValue:)), value: row[3].text))
        }
        return out
    }

    /// Every record as it stands: the pipeline's suggestion with the decisions in force applied.
    public func effectiveRecords() throws(StoreError) -> [(suggestion: DocumentRecord, record: DocumentRecord)] {
        let decided = try decisions()
        return try records().map { ($0, Review.apply(decided[$0.source] ?? [], to: $0)) }
    }

    /// One source's record as it stands, beside the pipeline's suggestion; nil when the store has none for it.
    public func effectiveRecord(path: String) throws(StoreError) -> (suggestion: DocumentRecord, record: DocumentRecord)? {
        guard let r = try records(path: path).first else { return nil }
        return (r, Review.apply(try decisions(path: path)[path] ?? [], to: r))
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

    /// Absolute path of each source's original, by relative path.
    public func originalPaths() throws(StoreError) -> [String: String] {
        let rows = try wrap { () throws(DatabaseError) in try db.query("SELECT path, root FROM sources") }
        var out: [String: String] = [:]
        for row in rows {
            guard row.count == 2, let path = row[0].text, let root = row[1].text else { continue }
            out[path] = (root as NSString).appendingPathComponent(path)
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
