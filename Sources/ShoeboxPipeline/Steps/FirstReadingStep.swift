internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

extension DocumentProcessor {
    /// What First reading gives: the pages as read (and what the first page's pixels say of a phone's screen), or the
    /// document's outcome when no page can be read.
    enum FirstReading {
        case read(Reading, screen: ScreenTraits?)
        case ended(DocumentOutcome)
    }

    /// First reading: pages rendered when a pass first asks for them, each pass read once or taken from the OCR cache.
    /// A document no page of which can be read ends here, failed; an invoice whose XML can be read is taken without
    /// the page check.
    func readFirst(_ document: ReadyDocument, attached: EInvoiceStage.Attached, reader: inout PassReader) -> FirstReading {
        switch firstReading(&reader, in: ocr.firstPassLanguages(declared: document.other.declaredLanguage)) {
        case .success(let r):
            return .read(r, screen: reader.screen())
        case .failure(let f):
            reader.saveCache()
            let source = document.source
            // A page with no text (a photo of a handwritten note) that an agent filed with its values: they stand as
            // entered, each marked the agent's (`evidence.source` agent), not read from the page.
            if f.code == DocumentFailure.noTextFound.code, document.other.sidecar?.agent != nil {
                let pass = OCRPass(
                    languages: ocr.firstPassLanguages(declared: document.other.declaredLanguage), pageSegmentationMode: config.pageSegmentationMode)
                let record = merged(Extraction(), of: document, language: .unknown, pages: reader.pageCount(whole: pass) ?? 1)
                return .ended(DocumentOutcome(record: record, size: source.size, kind: source.kind, pages: []))
            }
            let failed = DocumentRecord.failed(source.relativePath, folder: source.folder, sha256: source.sha256, failure: f)
            let record = attached.isInvoice ? withAttachment(attached, record: failed, extraction: nil, document: document) : failed
            return .ended(DocumentOutcome(record: record, size: source.size, kind: source.kind, pages: []))
        }
    }

    /// OCR: the first pass. A page it could hardly read may be faint (thermal paper: binarise it adaptively) or
    /// lying on its side (turn it upright with OSD); each is read again, and kept when it reads better.
    /// Fails as no-text-found when no page has a word.
    func firstReading(_ reader: inout PassReader, in languages: [String]) -> Result<Reading, DocumentFailure> {
        let first = OCRPass(languages: languages, pageSegmentationMode: config.pageSegmentationMode)
        var best: Reading
        // With a language pass to come, the pages after the first are read in the language the first page is in.
        let read =
            config.languagePass
            ? reader.readFollowingFirstPage(first) { page in
                ocr.languagesAfterDetection(cpu.measure("language") { language.run([page]) }, readIn: languages)
            } : reader.read(first).map { Reading(pages: $0, pass: first) }
        switch read {
        case .success(let r): best = r
        case .failure(let f): return .failure(f)
        }
        if reader.hasImages, OCRStage.mean(best.pages) < 60 || OCRStage.words(best.pages) < 15 {
            let doubtful = Set(best.pages.indices.filter { OCRStage.mayBeTurned(best.pages[$0]) })
            if config.faintPass {
                var faint = first
                faint.purpose = .faint
                faint.adaptiveThreshold = true
                if case .success(let binarised) = reader.read(faint), OCRStage.readability(binarised) > OCRStage.readability(best.pages) {
                    best = Reading(pages: binarised, pass: faint)
                }
            }
            var upright = best.pass
            upright.purpose = .upright
            upright.upright = true
            if !doubtful.isEmpty, reader.needsTurning(doubtful), case .success(let turned) = reader.read(upright),
                OCRStage.readability(turned) > OCRStage.readability(best.pages)
            {
                best = Reading(pages: turned, pass: upright)
            }
        }
        // Pages tesseract could hardly read at all: read whole by the second reader, when it finds more.
        if let second, reader.hasImages, best.pages.contains(where: SecondReadingStage.unusable),
            let whole = reader.wholePageReading(of: best, by: second)
        {
            best.pages = whole
        }
        guard best.pages.contains(where: { $0.wordCount > 0 }) else { return .failure(.noTextFound) }
        return .success(best)
    }
}
