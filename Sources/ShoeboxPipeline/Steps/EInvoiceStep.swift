internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

extension DocumentProcessor {
    /// E-invoice: a PDF may carry its invoice as XML (ZUGFeRD, Factur-X), read exactly and checked against the pages.
    func readAttachment(of source: SourceFile, in context: DocumentContext) -> EInvoiceStage.Attached {
        guard source.kind == .pdf else { return .none }
        return cpu.measure("e-invoice") { eInvoices.attached(context) }
    }
}
