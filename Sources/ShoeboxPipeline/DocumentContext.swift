internal import ShoeboxCore
internal import ShoeboxEngines

/// One document's file as the steps on its worker use it, each part made once: its bytes, read (bounded) and checked to
/// be the bytes intake hashed, and for a PDF one poppler document, for its attached invoice and its pages alike. Made
/// when a step first asks: a document every pass of which comes from the OCR cache, and that is no PDF, is not read
/// again after intake. The bytes are let go once the pages hold what they need (`PageSource` keeps its own).
final class DocumentContext {
    let source: SourceFile
    let limitMegabytes: Int
    let cpu: PhaseCPU?
    /// Where the bytes come from: the file, or the store (`FileReader`).
    let files: FileReader
    private var read: Result<[UInt8], DocumentFailure>?
    private var opened: Result<PDFRenderer, DocumentFailure>?

    init(_ source: SourceFile, limitMegabytes: Int, cpu: PhaseCPU?, files: FileReader = .disk) {
        self.source = source
        self.files = files
        self.limitMegabytes = limitMegabytes
        self.cpu = cpu
    }

    /// The file's bytes, read once: no more than `limitMegabytes`, and the bytes intake hashed, so a file still being
    /// written is not read half-way (`changed-while-read`).
    func bytes() -> Result<[UInt8], DocumentFailure> {
        if let read { return read }
        let limit = limitMegabytes
        let result = files.read(source, limit << 20, { .fileTooLarge(bytes: $0, limitMegabytes: limit) }).flatMap { bytes in
            cpu.measure("hash", { SHA256.hex(of: bytes) }) == source.sha256 ? .success(bytes) : .failure(.changedWhileRead)
        }
        read = result
        return result
    }

    /// The PDF, opened once by poppler (an encrypted or corrupt one fails as such).
    func pdf() -> Result<PDFRenderer, DocumentFailure> {
        if let opened { return opened }
        let result = bytes().flatMap { bytes in Result { () throws(DocumentFailure) in try PDFRenderer(bytes: bytes) } }
        opened = result
        return result
    }

    /// Lets the bytes go (the pages keep what they need); a later ask reads them again.
    func releaseBytes() { read = nil }
}
