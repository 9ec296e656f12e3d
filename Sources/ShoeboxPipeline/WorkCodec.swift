internal import Foundation
public import ShoeboxCore
internal import ShoeboxParsing
public import ShoeboxReading

/// What a worker needs to read a document it claims from a PostgreSQL store's queue, as the queue keeps it (JSON): the
/// file as intake found it, what intake knew of it besides its bytes (file-name date, sidecar, what its folder says),
/// the day the run read it on, and the settings it is to be read under (a worker reads only a document its own
/// settings match: the same pipeline file, tesseract and second reader give the same record).
public struct WorkJob: Codable, Sendable, Equatable {
    public let relativePath: String
    public let folder: String
    public let kind: FileKind
    public let sha256: String
    public let size: Int
    public let other: OtherSources
    public let today: CalendarDay
    public let settings: String

    public init(_ document: ReadyDocument, today: CalendarDay, settings: String) {
        relativePath = document.source.relativePath
        folder = document.source.folder
        kind = document.source.kind
        sha256 = document.source.sha256
        size = document.source.size
        other = document.other
        self.today = today
        self.settings = settings
    }

    /// The document as the worker's steps take it: no path on this machine (its bytes come from the store).
    public var document: ReadyDocument {
        ReadyDocument(
            source: SourceFile(path: "", relativePath: relativePath, folder: folder, kind: kind, sha256: sha256, size: size), other: other)
    }

    public var json: String { WorkCodec.encode(self) }

    public init?(json: String) {
        guard let job = try? JSONDecoder().decode(WorkJob.self, from: Data(json.utf8)) else { return nil }
        self = job
    }
}

/// A document's outcome as a worker hands it back through the queue (JSON), for the run to store in path order: what
/// the store keeps of it (the record, the pages as read, the first page's fingerprint, the page's own record when the
/// memory changed it, the sidecar's digest), not what only `extract` shows.
struct StoredOutcome: Codable {
    let record: DocumentRecord
    let size: Int
    let kind: FileKind?
    let pages: [OCRPage]
    let fingerprint: PageFingerprint?
    let pageRecord: DocumentRecord?
    let sidecarDigest: String?

    init(_ o: DocumentOutcome) {
        record = o.record
        size = o.size
        kind = o.kind
        pages = o.pages
        fingerprint = o.fingerprint
        pageRecord = o.pageRecord
        sidecarDigest = o.sidecarDigest
    }

    var outcome: DocumentOutcome {
        var o = DocumentOutcome(record: record, size: size, kind: kind, pages: pages, fingerprint: fingerprint)
        o.pageRecord = pageRecord
        o.sidecarDigest = sidecarDigest
        return o
    }
}

enum WorkCodec {
    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Values of strings, numbers and arrays only: encoding cannot fail.
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    static func outcome(_ json: String) -> DocumentOutcome? {
        (try? JSONDecoder().decode(StoredOutcome.self, from: Data(json.utf8)))?.outcome
    }
}
