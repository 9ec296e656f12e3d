internal import CPoppler
public import ShoeboxCore

/// A file attached to a PDF, as far as it was read.
public struct PDFAttachment: Sendable, Equatable {
    /// The file name the PDF gives it (/UF, else /F; not the name tree's key), in UTF-8, at most 255 bytes.
    public let name: String
    /// The bytes, when the attachment looked like XML and was read within the cap; nil for a non-XML attachment (only its first bytes were read).
    public let xml: [UInt8]?
    /// The first bytes (up to 16), for a message naming what a non-XML attachment is.
    public let head: [UInt8]
    /// Why it could not be read (over the cap, poppler error), nil when fine.
    public let failure: DocumentFailure?

    public init(name: String, xml: [UInt8]?, head: [UInt8], failure: DocumentFailure?) {
        self.name = name
        self.xml = xml
        self.head = head
        self.failure = failure
    }
}

extension PDFRenderer {
    /// The attachments looked at in one document; later ones are left out of `attachments` (a PDF can name
    /// thousands, and a Factur-X or ZUGFeRD PDF has one invoice and a few supporting files).
    public static let maxAttachments = 64

    /// The bytes read from an attachment before deciding whether it is XML.
    static let attachmentHeadLength = 16

    /// Every attachment in the document's EmbeddedFiles name tree (poppler does not read /AF), in the document's order,
    /// the first `maxAttachments` of them (poppler itself makes an object for each one the tree names).
    /// Each is first read for at most 16 bytes (the save callback returns FALSE to stop); one that starts like XML
    /// (`FileKind.looksLikeXML`: optional UTF-8 BOM/whitespace then '<'; UTF-16 BOMs too) is read in full,
    /// stopping with .xmlTooLarge as soon as it passes `maxBytes` (default DocumentFailure.maxInvoiceXMLBytes).
    /// The declared size (/Params /Size) is untrusted: used only to refuse early when it is stated and over the cap.
    /// The XML kept from one document is at most 4 × `maxBytes` together: an XML attachment past that is reported
    /// unreadable, so that a PDF of many large XML files (Flate makes them a few KB each) cannot fill memory.
    public func attachments(maxBytes: Int = DocumentFailure.maxInvoiceXMLBytes) -> [PDFAttachment] {
        readAttachments(maxBytes: maxBytes).map(\.attachment)
    }

    /// `attachments(maxBytes:)`, each with the most bytes its read held at once (what the tests check the cap by).
    func readAttachments(maxBytes: Int) -> [(attachment: PDFAttachment, held: Int)] {
        guard let document, let list = poppler_document_get_attachments(document) else { return [] }
        // The list holds one reference to each attachment.
        defer { g_list_free_full(list, g_object_unref) }
        let cap = max(0, maxBytes)
        let together = cap.multipliedReportingOverflow(by: 4).overflow ? Int.max : cap * 4
        var budget = together
        var found: [(attachment: PDFAttachment, held: Int)] = []
        var node: UnsafeMutablePointer<GList>? = list
        while let n = node, found.count < PDFRenderer.maxAttachments {
            node = n.pointee.next
            guard let data = n.pointee.data else { continue }
            let attachment = PDFRenderer.read(
                data.assumingMemoryBound(to: PopplerAttachment.self), cap: cap, budget: (left: budget, together: together))
            budget -= attachment.attachment.xml?.count ?? 0
            found.append(attachment)
        }
        return found
    }

    /// Number of attachments without reading any.
    public var attachmentCount: Int {
        guard let document else { return 0 }
        return Int(poppler_document_get_n_attachments(document))
    }

    /// The longest attachment name kept, in UTF-8 bytes (a file system's longest name).
    static let maxAttachmentNameBytes = 255

    /// One attachment read through poppler's save callback into an `AttachmentSink`.
    private static func read(
        _ attachment: UnsafeMutablePointer<PopplerAttachment>, cap: Int, budget: (left: Int, together: Int)
    ) -> (attachment: PDFAttachment, held: Int) {
        var nameBytes: [UInt8] = []
        if let cName = poppler_attachment_get_name(attachment) {
            var p = UnsafeRawPointer(cName).assumingMemoryBound(to: UInt8.self)
            while p.pointee != 0, nameBytes.count < maxAttachmentNameBytes {
                nameBytes.append(p.pointee)
                p += 1
            }
        }
        let name = String(decoding: nameBytes, as: UTF8.self)
        // (gsize)-1 when the attachment states no /Size.
        let stated = poppler_attachment_get_size(attachment)
        let declared = stated == gsize.max ? nil : Int(clamping: stated)
        let sink = AttachmentSink(cap: min(cap, max(0, budget.left)), declared: declared)
        var error: UnsafeMutablePointer<GError>?
        let saved = withExtendedLifetime(sink) {
            poppler_attachment_save_to_callback(
                attachment,
                { buffer, count, context, _ in
                    guard let context else { return 0 }
                    let sink = Unmanaged<AttachmentSink>.fromOpaque(context).takeUnretainedValue()
                    let chunk = UnsafeRawBufferPointer(start: buffer, count: Int(count))
                    return sink.take(chunk) ? 1 : 0
                }, Unmanaged.passUnretained(sink).toOpaque(), &error)
        }
        return (result(named: name, from: sink, saved: saved != 0, error: error, cap: cap, together: budget.together), sink.held)
    }

    /// What one read gave, as an attachment; frees `error`.
    private static func result(
        named name: String, from sink: AttachmentSink, saved: Bool, error: UnsafeMutablePointer<GError>?, cap: Int, together: Int
    ) -> PDFAttachment {
        var detail: String?
        if let error {
            detail = error.pointee.message.map { String(cString: $0) }
            g_error_free(error)
        }
        if saved {
            sink.finish()
        } else if sink.outcome == .reading {
            // Poppler stopped the read itself.
            return PDFAttachment(
                name: name, xml: nil, head: sink.firstBytes, failure: .attachmentUnreadable(detail ?? "poppler could not read its stream"))
        }
        switch sink.outcome {
        case .xml:
            return PDFAttachment(name: name, xml: sink.bytes, head: sink.head, failure: nil)
        case .tooLarge(let size) where sink.cap < cap:
            let total = ByteCount.text(Int64(together))
            return PDFAttachment(
                name: name, xml: nil, head: sink.head,
                failure: .attachmentUnreadable(
                    "the XML attachments before it already hold about \(total) together; \(size.map { "this one is \(ByteCount.text(Int64($0)))" } ?? "this one is larger than what is left")"
                ))
        case .tooLarge(let size):
            return PDFAttachment(name: name, xml: nil, head: sink.head, failure: .xmlTooLarge(bytes: size))
        case .notXML, .reading:
            return PDFAttachment(name: name, xml: nil, head: sink.head, failure: nil)
        }
    }
}

/// What poppler's save callback has been given of one attachment: its first bytes, and all of it while it is XML
/// within the cap. The callback returns false (poppler stops reading) once the attachment is known not to be XML
/// or passes the cap, so that memory never holds more than the cap.
private final class AttachmentSink {
    enum Outcome: Equatable {
        /// Fewer than the head's bytes seen, or XML being read.
        case reading
        case xml
        case notXML
        /// XML over the cap: its size when known (stated and over the cap), nil when the read passed the cap.
        case tooLarge(Int?)
    }

    let cap: Int
    let declared: Int?
    private(set) var bytes: [UInt8] = []
    private(set) var head: [UInt8] = []
    private(set) var outcome = Outcome.reading
    /// The most bytes held at once.
    private(set) var held = 0
    private var decided = false

    /// The first bytes seen, also when the read stopped before they were looked at.
    var firstBytes: [UInt8] { decided ? head : Array(bytes.prefix(PDFRenderer.attachmentHeadLength)) }

    init(cap: Int, declared: Int?) {
        self.cap = cap
        self.declared = declared
    }

    /// Takes one chunk; false stops the read.
    func take(_ chunk: UnsafeRawBufferPointer) -> Bool {
        var rest = chunk[...]
        if !decided {
            let wanted = min(rest.count, PDFRenderer.attachmentHeadLength - bytes.count)
            bytes.append(contentsOf: rest.prefix(wanted))
            rest = rest.dropFirst(wanted)
            held = max(held, bytes.count)
            if bytes.count < PDFRenderer.attachmentHeadLength { return true }
            guard decide(complete: false) else { return false }
        }
        guard rest.count <= cap - bytes.count else {
            stop(.tooLarge(nil))
            return false
        }
        bytes.append(contentsOf: rest)
        held = max(held, bytes.count)
        return true
    }

    /// The read reached the attachment's end.
    func finish() {
        if !decided { _ = decide(complete: true) }
        if outcome == .reading { outcome = .xml }
    }

    /// Decides on the first bytes (all of them when `complete`) whether to read on; false when not.
    private func decide(complete: Bool) -> Bool {
        decided = true
        head = bytes
        guard FileKind.looksLikeXML(head) else {
            stop(.notXML)
            return false
        }
        // The stated size only refuses early: a read that ended already knows the real one.
        if !complete, let declared, declared > cap {
            stop(.tooLarge(declared))
            return false
        }
        if bytes.count > cap {
            stop(.tooLarge(complete ? bytes.count : nil))
            return false
        }
        return true
    }

    private func stop(_ reason: Outcome) {
        outcome = reason
        bytes = []
    }
}
