/// Why the store cannot be used: a problem of the output folder or its database, not of one document.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public let message: String
    /// What kind of failure, where the user's next step depends on it (each its own exit code).
    public var kind: Kind
    public var description: String { message }

    public enum Kind: Sendable {
        /// The output folder or its store cannot be used (the message names why).
        case unusable
        /// A PostgreSQL store that cannot be reached or refused the login (wrong URL, server down, no such user or
        /// database).
        case unreachable
        /// The PostgreSQL server went away while it was used (restarted, network gone).
        case serverGone
        /// The PostgreSQL server is out of room (disk full, out of memory, too many connections).
        case serverFull
        /// The store's schema is from a newer Shoebox.
        case newerSchema
        /// The PostgreSQL server restarted under a command holding the writers' lock, and another command took it
        /// before this one came back.
        case lockLost
    }

    public init(message: String, kind: Kind = .unusable) {
        self.message = message
        self.kind = kind
    }
}

/// What a store keeps, and nothing it decides: the sources and their records, the pages as read, the decisions people
/// made, what the merchant memory learned, the series people marked cancelled, and the runs. Every write is one typed
/// value written in one transaction, whole or not at all. What a record is worth once people decided on it, what the
/// memory learns from a decision, which charge came after a cancellation: those are judged by the code that calls the
/// store (`RecordStore+Judging.swift`), from what it reads here, and handed back as values to write.
///
/// One class implements it, `Store` (ShoeboxStore): the same SQL over either connection, SQLite's (one file in the
/// output folder) or PostgreSQL's (`--store postgresql://…`), with the differences between the two (reading a JSON
/// column, ordering text by its bytes) in `SQLDialect` and the rest in each connection. The pipeline, the review
/// desks and the exports do not know which database they have. A store is used from one thread at a time (the run's
/// writer thread, one desk).
public protocol RecordStore: AnyObject {
    /// Where the store is, for messages (a file path, or a database named without its password).
    var path: String { get }

    // MARK: runs

    func beginRun(root: String, pipeline: String, started: String) throws(StoreError) -> Int64
    func finishRun(_ id: Int64, finished: String) throws(StoreError)

    // MARK: sources and records

    /// The sha256 and settings digest a path had when the store finished it, if it did.
    func finished(path: String) throws(StoreError) -> (sha256: String, settings: String?)?
    /// What the store holds of each path, by relative path.
    func held() throws(StoreError) -> [String: StoredSource]
    /// Other finished (not failed, not duplicate) paths with the same bytes, oldest first.
    func originalPaths(sha256: String, excluding path: String) throws(StoreError) -> [String]
    /// Forgets the sources whose stored record cannot be read (a damaged or hand-edited store), so that the run reads
    /// their files again; returns their paths.
    func dropUnreadableRecords() throws(StoreError) -> [String]
    /// Writes one document's outcome: its source, pages and record replace what the path held, and what the memory
    /// learns from it (`memory`, judged by the caller) replaces what it learned from the path before.
    func write(_ outcome: DocumentOutcome, root: String, runID: Int64, settings: String?, memory: [MerchantMemory.Sighting]) throws(StoreError)
    /// Every record, ordered by source path; `path`: that source's record only.
    func records(path: String?) throws(StoreError) -> [DocumentRecord]
    /// Each record as the page gave it before the merchant memory changed it, by path (only those it changed).
    func pageRecords() throws(StoreError) -> [String: DocumentRecord]
    /// Replaces stored records (a record judged again: the memory, a cancellation), all or none.
    func rewrite(_ updates: [RecordUpdate]) throws(StoreError)
    /// A record entered without a document, with the person's accept of it (nil: an agent's, waiting in review): a
    /// source without a file.
    func writeByHand(_ record: DocumentRecord, decision: DecisionEntry?) throws(StoreError)

    // MARK: what was read

    /// Each source's first-page fingerprint, by relative path.
    func fingerprints() throws(StoreError) -> [String: PageFingerprint]
    /// Each source's first-page text, by relative path.
    func firstPageTexts() throws(StoreError) -> [String: String]
    /// The scan root each source was found under, by relative path.
    func roots() throws(StoreError) -> [String: String]
    /// The scan root the first source of `folder` read from a scan root was found under.
    func root(ofFolder folder: String) throws(StoreError) -> String?
    /// The pages of a document as they were read; empty for a path the store does not hold.
    func pages(path: String) throws(StoreError) -> [OCRPage]

    // MARK: decisions

    /// The decisions in force (not undone, made on the content held now: `sha256`, when given, instead), per path, in
    /// the order they were made; `path`: that path's only.
    func decisionsInForce(path: String?, sha256: String?) throws(StoreError) -> [String: [DecisionInForce]]
    /// Every decision ever made (undone ones too), oldest first; for `path` only when given.
    func decisionLog(path: String?) throws(StoreError) -> [LoggedDecision]
    /// Appends decisions to the log, and replaces what the memory learned from each path in `memory`, all or none.
    func writeDecisions(_ entries: [DecisionEntry], memory: [String: [MerchantMemory.Sighting]]) throws(StoreError)
    /// The latest decision not undone (whatever content it was made on), with its id and the content it was made on.
    func lastDecisionNotUndone() throws(StoreError) -> (id: Int64, path: String, sha256: String, decision: ReviewDecision)?
    /// Marks decision `id` undone, and replaces what the memory learned from `path` with `memory`, all or none.
    func writeUndo(_ id: Int64, path: String, memory: [MerchantMemory.Sighting]) throws(StoreError)

    // MARK: the merchant memory and cancellations

    /// What the memory holds now.
    func memory() throws(StoreError) -> MerchantMemory
    /// Forgets a key: every record's sighting of it; returns how many were forgotten.
    func forget(_ key: MerchantKey) throws(StoreError) -> Int
    func cancellations() throws(StoreError) -> [Cancellation]
    /// Marks the series of `merchant` cancelled from `day` (a later mark replaces an earlier one).
    func cancel(_ merchant: String, on day: CalendarDay, at: String) throws(StoreError)
}

/// What the store holds of a path: its bytes, settings and state, and for a duplicate the path it copies.
public struct StoredSource: Sendable {
    public let sha256: String
    public let settings: String?
    public let state: RecordStatus
    public let duplicateOf: String?
    /// The scan root it was found under.
    public let root: String
    /// For a failed source, its failure's code.
    public let failureCode: String?

    public init(sha256: String, settings: String?, state: RecordStatus, duplicateOf: String?, root: String, failureCode: String?) {
        self.sha256 = sha256
        self.settings = settings
        self.state = state
        self.duplicateOf = duplicateOf
        self.root = root
        self.failureCode = failureCode
    }
}

/// A decision in force, and when it was made.
public struct DecisionInForce: Sendable, Hashable {
    public let decision: ReviewDecision
    /// When it was made (ISO 8601).
    public let at: String

    public init(_ decision: ReviewDecision, at: String) {
        self.decision = decision
        self.at = at
    }
}

/// One decision to append to the log: on which content, where and when it was made, and what it changed.
public struct DecisionEntry: Sendable, Hashable {
    public let path: String
    public let sha256: String
    public let decision: ReviewDecision
    public let at: String
    public let desk: ReviewDecision.Desk
    /// The field's value, or the record's state, before and after.
    public let before: String?
    public let after: String?

    public init(path: String, sha256: String, decision: ReviewDecision, at: String, desk: ReviewDecision.Desk, before: String?, after: String?) {
        self.path = path
        self.sha256 = sha256
        self.decision = decision
        self.at = at
        self.desk = desk
        self.before = before
        self.after = after
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

    public init(path: String, decision: ReviewDecision, at: String, desk: ReviewDecision.Desk?, before: String?, after: String?, undone: Bool) {
        self.path = path
        self.decision = decision
        self.at = at
        self.desk = desk
        self.before = before
        self.after = after
        self.undone = undone
    }
}

/// A stored record judged again: its new record and what becomes of the record as the page gave it.
public struct RecordUpdate: Sendable {
    public enum PageRecord: Sendable {
        /// The record as the page gave it stays as stored.
        case kept
        /// It is this one (nil: the record is the page's own).
        case set(DocumentRecord?)
    }

    public let path: String
    public let record: DocumentRecord
    public let pageRecord: PageRecord

    public init(path: String, record: DocumentRecord, pageRecord: PageRecord = .kept) {
        self.path = path
        self.record = record
        self.pageRecord = pageRecord
    }
}
