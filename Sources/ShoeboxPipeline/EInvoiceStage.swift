internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEInvoice
internal import ShoeboxEngines
import ShoeboxJudgement

/// E-invoices: the structured XML of a document, read exactly instead of (standalone XML) or beside (a PDF that
/// carries one, ZUGFeRD / Factur-X) its printed pages. The XML is untrusted: `EInvoiceReader` refuses DTDs,
/// entities, other encodings and oversized files before parsing, and PDF attachments are read with a cap.
struct EInvoiceStage {
    /// Bump when what the e-invoice reader or its merge makes of a file changes: PDFs and XML files finished by
    /// an earlier version are read again (`PipelineRunner.settingsDigest(for:)`).
    static let version = 2 // 2: values no record may hold are cut or left out; large text nodes read; two disagreeing attachments

    /// What a PDF carries.
    enum Attached {
        case none
        /// An invoice XML, read; `name` is the attachment's. `disagreeing`: another attached invoice XML that states
        /// another invoice (its name and what differs), nil when there is none.
        case invoice(EInvoice, name: String, disagreeing: String?)
        /// An attachment that should be the invoice but cannot be read: the page is read instead, with this said.
        case unreadable(String)

        /// Whether the values come from an invoice XML, exactly.
        var isInvoice: Bool {
            if case .invoice = self { return true }
            return false
        }
    }

    /// The names the standards give the invoice attachment (Factur-X, ZUGFeRD 2.x, ZUGFeRD 1.0 as ZUGFeRD-invoice.xml,
    /// XRechnung in a PDF), compared without case. An Order-X order is no invoice and is not looked for.
    static let invoiceNames: Set<String> = ["factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml"]

    /// A standalone XML file: its bytes (no more than the XML cap), checked to be the bytes intake hashed, read.
    func read(_ source: SourceFile, files: FileReader = .disk) -> Result<EInvoice, DocumentFailure> {
        let bytes: [UInt8]
        switch files.read(source, DocumentFailure.maxInvoiceXMLBytes, { .xmlTooLarge(bytes: $0) }) {
        case .success(let b): bytes = b
        case .failure(let f): return .failure(f)
        }
        guard SHA256.hex(of: bytes) == source.sha256 else { return .failure(.changedWhileRead) }
        return EInvoiceReader.read(bytes)
    }

    /// The invoice a PDF carries: the attachment with a standard name first, else any XML attachment whose root
    /// is an invoice. A standard name that holds no readable invoice is `unreadable`, named; other attachments
    /// (delivery notes, images) are not invoices and are left alone.
    /// A PDF that cannot be read carries none here (its pages fail by name).
    func attached(_ context: DocumentContext) -> Attached {
        guard case .success(let pdf) = context.pdf(), pdf.attachmentCount > 0 else { return .none }
        let all = pdf.attachments()
        let named = all.filter { EInvoiceStage.invoiceNames.contains($0.name.lowercased()) }
        var first: (invoice: EInvoice, name: String)?
        for a in named + all.filter({ !EInvoiceStage.invoiceNames.contains($0.name.lowercased()) }) {
            let standard = EInvoiceStage.invoiceNames.contains(a.name.lowercased())
            if let failure = a.failure {
                if standard && first == nil { return .unreadable("The attached \(a.name) could not be read: \(failure.message)") }
                continue
            }
            guard let xml = a.xml else {
                if standard && first == nil {
                    return .unreadable("The attached \(a.name) is not XML (it starts with \(EInvoiceStage.shown(a.head))).")
                }
                continue
            }
            switch EInvoiceReader.read(xml) {
            case .success(let e):
                // The first invoice is read; every other one must state the same invoice, or a person decides which.
                guard let (invoice, name) = first else {
                    first = (e, a.name)
                    continue
                }
                if let differs = EInvoiceStage.differences(invoice, e) {
                    return .invoice(invoice, name: name, disagreeing: "\(a.name) (\(differs))")
                }
            case .failure(let f): if standard && first == nil { return .unreadable("The attached \(a.name) was not read: \(f.message)") }
            }
        }
        return first.map { .invoice($0.invoice, name: $0.name, disagreeing: nil) } ?? .none
    }

    /// What two invoice XMLs of one PDF state differently, among what a record takes from one (number, date, seller,
    /// currency, totals), in words; nil when they state the same invoice (Factur-X and XRechnung copies of it).
    static func differences(_ a: EInvoice, _ b: EInvoice) -> String? {
        let compared: [(String, String?, String?)] = [
            ("invoice number", a.number, b.number), ("issue date", a.issueDate?.iso, b.issueDate?.iso),
            ("seller", a.seller.name, b.seller.name), ("seller VAT ID", a.seller.vatID, b.seller.vatID),
            ("currency", a.currency?.code, b.currency?.code), ("gross total", a.totals.grand?.decimalString, b.totals.grand?.decimalString),
            ("amount due", a.totals.due?.decimalString, b.totals.due?.decimalString), ("due date", a.dueDate?.iso, b.dueDate?.iso)
        ]
        let differing = compared.filter { $0.1 != $0.2 }.map { "\($0.0) \($0.1 ?? "none") against \($0.2 ?? "none")" }
        return differing.isEmpty ? nil : differing.prefix(3).joined(separator: ", ")
    }

    /// The first bytes of a file as people can read them: printable ASCII, a dot for the rest.
    static func shown(_ head: [UInt8]) -> String {
        "\"" + head.prefix(8).map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "·" }.joined() + "\""
    }
}

extension DocumentProcessor {
    /// A standalone XML e-invoice: read, checked and merged without pages; a file that is not one fails by name.
    func processXML(_ document: ReadyDocument) -> DocumentOutcome {
        let source = document.source
        let record: DocumentRecord
        switch cpu.measure("e-invoice", { eInvoices.read(source, files: files) }) {
        case .success(let e):
            record = deadlines(
                merge.merger.merge(eInvoice: e, pageRecord: nil, page: nil, source: source, other: document.other, today: today), extraction: nil,
                document: document)
        case .failure(let f): record = .failed(source.relativePath, folder: source.folder, sha256: source.sha256, failure: f)
        }
        return DocumentOutcome(record: record, size: source.size, kind: source.kind, pages: [])
    }

    /// Deadlines: from the page's terms or the e-invoice's due date, the sidecar's received-on day and the folder's
    /// presets (`RecordMerger.withDeadlines`).
    func deadlines(_ record: DocumentRecord, extraction: Extraction?, document: ReadyDocument) -> DocumentRecord {
        merge.merger.withDeadlines(
            record, extraction: extraction, sidecar: document.other.sidecar,
            presets: config.deadlinePresets[document.source.folder] ?? DeadlinePresets())
    }

    /// The record of a PDF whose pages were read, with what its attachment says: the XML's values checked
    /// against the page, or the page's record with the reason the attachment was not read.
    func withAttachment(_ attached: EInvoiceStage.Attached, record: DocumentRecord, extraction: Extraction?, document: ReadyDocument)
        -> DocumentRecord
    {
        switch attached {
        case .none: return record
        case .invoice(let e, let name, let disagreeing):
            var r = merge.merger.merge(
                eInvoice: e, pageRecord: record, page: extraction, source: document.source, other: document.other, today: today)
            if let disagreeing {
                r.eInvoiceProblems.append("The PDF carries two invoice XMLs that disagree: \(name) was read; \(disagreeing).")
                Verdict.hold(&r, for: [.eInvoiceAttachmentsDisagree])
            }
            return r
        case .unreadable(let why):
            guard record.status != .failed else { return record }
            var r = record
            r.eInvoiceProblems.append(why)
            Verdict.hold(&r, for: [.eInvoiceUnreadable])
            return r
        }
    }
}
