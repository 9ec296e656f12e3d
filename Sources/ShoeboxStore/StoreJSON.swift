public import Foundation
public import ShoeboxCore

/// The whole store as one versioned JSON document, so nothing is trapped in Shoebox: every source with its
/// pipeline suggestion (the record), its pages as read, and every review decision (undone ones too).
/// `shoebox export --format json` writes it; `shoebox import` merges it into another store without
/// creating duplicates; exporting the merged store again gives the same JSON.
///
///     {"format": "shoebox-store", "version": 1, "documents": [{"path", "root", "folder", "sha256", "size",
///      "kind", "state", "failure", "fingerprint", "settings", "suggestion": {record}, "pages": [...],
///      "pageSuggestion": {record}, "decisions": [{"action", "field", "value", "at", "undone", "who", "before", "after"}]}],
///      "memory": [{"key", "merchant", "category", "currency", "paymentMethod", "source", "at"}],
///      "cancellations": [{"merchant", "on", "at"}]}
///
/// `pageSuggestion` is the record as the page gave it, when the merchant memory changed it; `memory` is what the merchant
/// memory learned (`Store.memory`); `cancellations` the series a person marked cancelled. An export without `memory` (from
/// before it) is imported by learning again from its decisions. `tables` says where each of the store's tables travels.
public enum StoreJSON {
    public static let format = "shoebox-store"
    public static let version = 1

    /// Every table of the store and where it travels in the export, or why it need not: what a person decided or the
    /// pipeline read and learned travels. A test compares this with the tables a store really has, so a new table
    /// cannot be left out of the export without a word.
    public static let tables: [String: String] = [
        "sources": "documents", "pages": "documents[].pages", "records": "documents[].suggestion and pageSuggestion",
        "decisions": "documents[].decisions", "memory": "memory", "cancellations": "cancellations",
        "runs": "not exported: when this machine ran, a log, not a reading or a decision"
    ]

    public struct ImportResult: Sendable {
        public let added: Int
        public let skipped: Int
        public let decisions: Int
    }

    public static func export(_ store: Store) throws(StoreError) -> [UInt8] {
        let db = store.db
        let sources = try wrap(store) { () throws(DatabaseError) in
            try db.query(
                """
                SELECT s.id, s.path, s.root, s.folder, s.sha256, s.size, s.kind, \(db.dialect.status("r.json")), s.failure_code, s.failure_message,
                       s.fingerprint, s.settings, r.json, r.page_json FROM sources s LEFT JOIN records r ON r.source_id = s.id
                ORDER BY s.path \(db.dialect.bytewise)
                """)
        }
        var documents: [[String: Any]] = []
        for row in sources {
            guard let id = row[0].int, let path = row[1].text else { continue }
            var doc: [String: Any] = [
                "path": path, "root": row[2].text ?? "", "folder": row[3].text ?? "", "sha256": row[4].text ?? "",
                "size": row[5].int ?? 0, "kind": any(row[6].text), "state": row[7].text ?? "",
                "failure": row[8].text.map { ["code": $0, "message": row[9].text ?? ""] as [String: Any] } ?? NSNull(),
                "fingerprint": any(row[10].text), "settings": any(row[11].text)
            ]
            doc["suggestion"] = row[12].text.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } ?? NSNull()
            if let page = row[13].text.flatMap({ try? JSONSerialization.jsonObject(with: Data($0.utf8)) }) { doc["pageSuggestion"] = page }
            let pages = try wrap(store) { () throws(DatabaseError) in
                try db.query(
                    "SELECT page_number, width, height, dpi, text_source, lines_json, turn FROM pages WHERE source_id = ? ORDER BY page_number",
                    [.int(id)])
            }
            doc["pages"] = pages.map { p -> [String: Any] in
                [
                    "pageNumber": p[0].int ?? 0, "width": p[1].int ?? 0, "height": p[2].int ?? 0, "dpi": p[3].int ?? 0,
                    "source": p[4].text ?? "", "lines": p[5].text.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } ?? [],
                    "turn": p[6].int ?? 0
                ]
            }
            let decisions = try wrap(store) { () throws(DatabaseError) in
                try db.query(
                    "SELECT action, field, value, at, undone, who, before, after FROM decisions WHERE path = ? AND sha256 = ? ORDER BY id",
                    [.text(path), .text(row[4].text ?? "")])
            }
            doc["decisions"] = decisions.map { d -> [String: Any] in
                [
                    "action": d[0].text ?? "", "field": any(d[1].text), "value": any(d[2].text), "at": d[3].text ?? "",
                    "undone": (d[4].int ?? 0) != 0,
                    "who": any(d[5].text), "before": any(d[6].text), "after": any(d[7].text)
                ]
            }
            documents.append(doc)
        }
        let object: [String: Any] = [
            "format": format, "version": version, "documents": documents, "memory": try memoryRows(store),
            "cancellations": try cancellationRows(store)
        ]
        do {
            return [UInt8](try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) + [0x0A]
        } catch {
            throw StoreError(message: "the store could not be written as JSON: a stored value is not valid JSON (\(SystemReason.of(error)))")
        }
    }

    static func any(_ s: String?) -> Any { s ?? NSNull() }

    public enum ImportError: Error, CustomStringConvertible, Sendable {
        case notAnExport(String)
        case newerVersion(file: String, version: Int)
        case badVersion(file: String, version: String)
        case invalid(file: String, document: Int, problem: String)
        /// A document's value that a run would never have written: the document, its path and the field.
        case invalidValue(file: String, document: Int, path: String, field: String, problem: String)

        public var description: String {
            switch self {
            case .notAnExport(let file):
                return "\(StoredPath.shown(file)) is not a Shoebox store export (write one with `shoebox export --format json`)."
            case .newerVersion(let file, let v):
                return
                    "\(StoredPath.shown(file)) is format version \(v); this Shoebox reads up to version \(StoreJSON.version). Update Shoebox to import it."
            case .badVersion(let file, let v):
                return
                    "\(StoredPath.shown(file)) says format version \(v); Shoebox writes versions 1 to \(StoreJSON.version), so this is no export of it. Nothing was imported."
            case .invalid(let file, let n, let problem):
                return "\(StoredPath.shown(file)): document \(n) is invalid (\(problem)); nothing was imported."
            case .invalidValue(let file, let n, let path, let field, let problem):
                return
                    "\(StoredPath.shown(file)): document \(n) (\(StoredPath.shown(path))): \"\(field)\" \(problem). Nothing was imported; fix or remove that document and import again."
            }
        }
    }

    /// Merges an export into `store`, all or nothing: documents already there with the same path and content
    /// are skipped (with their decisions, which the store already holds); a document whose bytes the store
    /// holds under another path comes in as a duplicate of it; the rest are added.
    /// Dates after `today` (by more than a day: the exporting machine may be ahead) are refused like any value a
    /// run would not have written.
    /// `learn`: what a document's decisions teach the merchant memory, for an export from before the memory (the
    /// caller's judgement, `MerchantMemory.relearned`: the store keeps what it is given and decides nothing).
    public static func importInto(
        _ store: Store, data: Data, file: String, today: CalendarDay,
        learn: (_ suggestion: DocumentRecord, _ pages: [OCRPage], _ decided: [DecisionInForce]) -> [MerchantMemory.Sighting]
    ) throws -> ImportResult {
        let (documents, memoryItems, cancellationItems) = try exportedDocuments(data: data, file: file)
        // Validate everything before writing anything: every value as strictly as a run would make it.
        let parsed = try parseDocuments(documents, file: file, today: today)
        let memory = try memoryItems.map { items throws in try parseMemory(items, file: file) }
        let cancellations =
            try cancellationItems.map { items throws in try parseCancellations(items, file: file, latest: today.adding(days: 1)) } ?? []
        let db = store.db
        var added = 0
        var skipped = 0
        var decisionCount = 0
        try wrap(store) { () throws(DatabaseError) in
            try db.transaction { () throws(DatabaseError) in
                (added, skipped, decisionCount) = (0, 0, 0)
                for doc in parsed {
                    guard let (decisions, record) = try insert(doc, into: store) else {
                        skipped += 1
                        continue
                    }
                    decisionCount += decisions
                    added += 1
                    // An export from before the memory: what the document's decisions teach, learned again.
                    if memory == nil {
                        let decided = try store.inForce(path: doc.path, sha256: nil)[doc.path] ?? []
                        let learned = record.map { learn($0, pages(of: doc.fields), decided) }
                        try store.replaceMemory(path: doc.path, with: learned ?? [])
                    }
                }
                for s in memory ?? [] { try insertMemory(s, db: db) }
                for c in cancellations { try insertCancellation(c, db: db) }
            }
        }
        return ImportResult(added: added, skipped: skipped, decisions: decisionCount)
    }

    /// A document of an export that passed every check, ready to be written.
    struct ParsedDocument {
        let fields: [String: Any]
        let path: String
        let sha: String
        let record: DocumentRecord?
        let pageRecord: DocumentRecord?
    }

    /// The documents of an export whose format and version this Shoebox reads.
    static func exportedDocuments(data: Data, file: String) throws -> (documents: [Any], memory: Any?, cancellations: Any?) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object["format"] as? String == format,
            let versionNumber = object["version"] as? NSNumber, let documents = object["documents"] as? [Any]
        else {
            throw ImportError.notAnExport(file)
        }
        guard let v = integer(versionNumber, 1...Int.max) else {
            throw ImportError.badVersion(file: file, version: versionNumber.stringValue)
        }
        guard v <= version else { throw ImportError.newerVersion(file: file, version: v) }
        return (documents, object["memory"], object["cancellations"])
    }

    /// Every document checked as strictly as a run would make it, in order; the first problem is thrown.
    static func parseDocuments(_ documents: [Any], file: String, today: CalendarDay) throws -> [ParsedDocument] {
        var parsed: [ParsedDocument] = []
        var seen: [String: Int] = [:]
        for (i, item) in documents.enumerated() {
            guard let d = item as? [String: Any] else { throw ImportError.invalid(file: file, document: i + 1, problem: "it is not an object") }
            let shownPath = (d["path"] as? String).map { StoredPath.shown($0, limit: 120) } ?? "no path"
            do { try check(d, latest: today.adding(days: 1)) } catch {
                throw ImportError.invalidValue(file: file, document: i + 1, path: shownPath, field: error.field, problem: error.message)
            }
            guard let path = d["path"] as? String, let sha = d["sha256"] as? String else { throw ImportError.notAnExport(file) } // checked above
            if let first = seen[path] {
                throw ImportError.invalidValue(
                    file: file, document: i + 1, path: shownPath, field: "path", problem: "is the path of document \(first) too")
            }
            seen[path] = i + 1
            var record: DocumentRecord?
            var pageRecord: DocumentRecord?
            for key in ["suggestion", "pageSuggestion"] {
                guard let s = d[key], !(s is NSNull) else { continue }
                do {
                    let r = try JSONDecoder().decode(DocumentRecord.self, from: JSONSerialization.data(withJSONObject: s))
                    if key == "suggestion" { record = r } else { pageRecord = r }
                } catch {
                    throw ImportError.invalidValue(
                        file: file, document: i + 1, path: shownPath, field: key, problem: "is not a record (\(describe(error)))")
                }
            }
            // A suggestion's text met import's own 1,000-character bound in `check` (a run may write a long line read
            // from the page as a merchant); the values a person typed met TextLimits there, in `checkDecision`.
            for decision in d["decisions"] as? [[String: Any]] ?? [] {
                guard let a = decision["action"] as? String, ReviewDecision.Action(rawValue: a) != nil else {
                    throw ImportError.invalid(file: file, document: i + 1, problem: "a review decision with an unknown action")
                }
            }
            parsed.append(ParsedDocument(fields: d, path: path, sha: sha, record: record, pageRecord: pageRecord))
        }
        return parsed
    }

    /// Writes one checked document into `store`, inside the import's transaction: nil when the store already holds
    /// it with the same content (skipped), else the number of review decisions written with it and its record as
    /// written.
    static func insert(_ doc: ParsedDocument, into store: Store) throws(DatabaseError) -> (decisions: Int, record: DocumentRecord?)? {
        let db = store.db
        let existing = try db.query("SELECT sha256 FROM sources WHERE path = ?", [.text(doc.path)]).first?.first?.text
        if existing == doc.sha { return nil }
        if existing != nil { try db.query("DELETE FROM sources WHERE path = ?", [.text(doc.path)]) }
        var d = doc.fields
        var record = doc.record
        try markDuplicate(&d, record: &record, doc: doc, db: db)
        let id = try insertSource(d, doc: doc, db: db)
        try store.insertContent(sourceID: id, pages: pages(of: d), record: record, pageRecord: record?.status == .duplicate ? nil : doc.pageRecord)
        return (try insertDecisions(of: d, doc: doc, db: db), record)
    }

    /// The same bytes under another path in this store: a known duplicate, as a run would record it.
    static func markDuplicate(_ d: inout [String: Any], record: inout DocumentRecord?, doc: ParsedDocument, db: any SQLConnection)
        throws(DatabaseError)
    {
        if record?.status != .duplicate, record?.status != .failed,
            let first = try db.query(
                """
                SELECT s.path FROM sources s LEFT JOIN records r ON r.source_id = s.id
                WHERE s.sha256 = ? AND s.path != ? AND coalesce(\(db.dialect.status("r.json")), '') != 'duplicate'
                ORDER BY s.path \(db.dialect.bytewise) LIMIT 1
                """,
                [.text(doc.sha), .text(doc.path)]
            ).first?.first?.text
        {
            record?.status = .duplicate
            record?.duplicateOf = first
            record?.reasons = []
            record?.reviewedBy = nil
            d["state"] = "duplicate"
            // Its review decisions were about a record the store already holds under the other path.
            d["decisions"] = []
        }
    }

    /// Inserts the document's source row; returns its id.
    static func insertSource(_ d: [String: Any], doc: ParsedDocument, db: any SQLConnection) throws(DatabaseError) -> Int64 {
        func text(_ k: String) -> Database.Value { (d[k] as? String).map { .text($0) } ?? .null }
        let failure = d["failure"] as? [String: Any]
        return try db.query(
            """
            INSERT INTO sources(path, root, folder, sha256, size, kind, failure_code, failure_message, fingerprint, settings)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """,
            [
                .text(doc.path), text("root"), text("folder"), .text(doc.sha), .int(Int64(d["size"] as? Int ?? 0)), text("kind"),
                (failure?["code"] as? String).map { .text($0) } ?? .null,
                (failure?["message"] as? String).map { .text($0) } ?? .null, text("fingerprint"), text("settings")
            ]
        ).first?.first?.int ?? 0
    }

    /// The document's pages as read, with the lines it carries.
    static func pages(of d: [String: Any]) -> [OCRPage] {
        (d["pages"] as? [[String: Any]] ?? []).map { p -> OCRPage in
            let linesData = (try? JSONSerialization.data(withJSONObject: p["lines"] ?? [], options: [.sortedKeys])) ?? Data("[]".utf8)
            var page = OCRPage(
                pageNumber: p["pageNumber"] as? Int ?? 1, width: p["width"] as? Int ?? 0, height: p["height"] as? Int ?? 0,
                dpi: p["dpi"] as? Int ?? 0, source: TextSource(rawValue: p["source"] as? String ?? "") ?? .ocr,
                lines: (try? JSONDecoder().decode([OCRLine].self, from: linesData)) ?? [])
            // Only a quarter, half or three-quarter turn is kept; anything else shows the page as scanned.
            page.turn = (p["turn"] as? Int).flatMap { [90, 180, 270].contains($0) ? $0 : nil }
            return page
        }
    }

    /// Inserts the document's review decisions; returns how many.
    static func insertDecisions(of d: [String: Any], doc: ParsedDocument, db: any SQLConnection) throws(DatabaseError) -> Int {
        var count = 0
        for decision in d["decisions"] as? [[String: Any]] ?? [] {
            try db.query(
                "INSERT INTO decisions(path, sha256, action, field, value, at, undone, who, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .text(doc.path), .text(doc.sha), .text(decision["action"] as? String ?? ""),
                    (decision["field"] as? String).map { .text($0) } ?? .null, (decision["value"] as? String).map { .text($0) } ?? .null,
                    .text(decision["at"] as? String ?? ""), .int((decision["undone"] as? Bool ?? false) ? 1 : 0),
                    (decision["who"] as? String).map { .text($0) } ?? .null, (decision["before"] as? String).map { .text($0) } ?? .null,
                    (decision["after"] as? String).map { .text($0) } ?? .null
                ])
            count += 1
        }
        return count
    }

    static func wrap<T>(_ store: Store, _ body: () throws(DatabaseError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw Store.failure(error, store: store.path) }
    }
}
