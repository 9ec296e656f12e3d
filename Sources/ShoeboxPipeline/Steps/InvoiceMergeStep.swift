internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

extension DocumentProcessor {
    /// Invoice merge: the invoice XML attached to a PDF (read by E-invoice), its values checked against its own
    /// arithmetic and the page's record, which it then stands for (`withAttachment`); a PDF without one keeps the page's.
    func mergeInvoice(_ attached: EInvoiceStage.Attached, record: DocumentRecord, extraction: Extraction, document: ReadyDocument) -> DocumentRecord {
        withAttachment(attached, record: record, extraction: extraction, document: document)
    }
}
