/// What the pipeline produced for one input file: its record (in any state) and the text of its pages.
public struct DocumentOutcome: Sendable {
    public var record: DocumentRecord
    public let size: Int
    public let kind: FileKind?
    public let pages: [OCRPage]
    /// Every candidate the parser found (not stored; for `extract --explain`).
    public let extraction: Extraction?
    /// The first page image's fingerprint (for "the same paper scanned again"); nil for text-layer pages.
    public var fingerprint: PageFingerprint?
    /// The pages as parsed a second time, with the lines the second reader read again (`OCRLine.reader`); empty
    /// when it read none (not stored; for `extract --text` and `--explain`).
    public var secondReading: [OCRPage] = []
    /// The record as the page gave it, when the merchant memory changed it (`RecordMerger.remember`); nil otherwise.
    public var pageRecord: DocumentRecord?
    /// What the file's sidecar held when the record was judged (`IntakeStage.sidecarDigest`); nil: none, or not read.
    public var sidecarDigest: String?

    public init(
        record: DocumentRecord, size: Int, kind: FileKind?, pages: [OCRPage], extraction: Extraction? = nil,
        fingerprint: PageFingerprint? = nil
    ) {
        self.record = record
        self.size = size
        self.kind = kind
        self.pages = pages
        self.extraction = extraction
        self.fingerprint = fingerprint
    }
}
