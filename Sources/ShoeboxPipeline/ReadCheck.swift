internal import Foundation
public import ShoeboxCore

/// Reads a file as a run reads it up to OCR, and no further: the intake's sniff and hash, then the document
/// opened and its pages decoded or rendered (an XML e-invoice read, a PDF's attached invoice taken out). The crashes, hangs and leaks of hostile files live here (OCR only
/// ever sees a gray page of bounded size), so the fuzz target (`make fuzz`, Sources/ShoeboxFuzz) runs tens of
/// thousands of mutated files through this in minutes.
public enum ReadCheck {
    /// What became of the file: "ok N pages" or "failed CODE" (with the page for a page's failure).
    /// `maxPages`: pages read at most (the first ones).
    public static func read(_ path: String, config: PipelineConfig = PipelineConfig(), maxPages: Int = 4) -> String {
        let absolute = PathText.absolute(path)
        let source: SourceFile
        switch IntakeStage(maxFileMegabytes: config.maxFileMegabytes).inspect(
            root: PathText.parent(of: absolute), relativePath: PathText.lastComponent(of: absolute))
        {
        case .failed(let record, _): return "failed \(record.failure?.code ?? "unknown")"
        case .ready(let s): source = s
        }
        // An XML e-invoice is read by the e-invoice reader, as a run reads it; a PDF's attachments are taken out too.
        if source.kind == .xml {
            switch EInvoiceStage().read(source) {
            case .success: return "ok e-invoice"
            case .failure(let f): return "failed \(f.code)"
            }
        }
        let context = DocumentContext(source, limitMegabytes: config.maxFileMegabytes, cpu: nil)
        let attached = source.kind == .pdf ? EInvoiceStage().attached(context) : .none
        switch RenderStage(dpi: config.dpi, maxMegapixels: config.maxMegapixels).run(context, cpu: nil) {
        case .failure(let f): return "failed \(f.code)"
        case .success(let pages):
            if case .invoice = attached { return "ok e-invoice \(pages.count) pages" }
            for index in 0..<min(pages.count, maxPages) {
                if case .failure(let f) = pages.page(index) { return "failed \(f.code) page \(index + 1)" }
            }
            return "ok \(pages.count) pages"
        }
    }
}
