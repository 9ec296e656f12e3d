internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxImaging

/// A document's pages, rendered when a pass asks for them and kept only within a memory budget, so a scanned
/// PDF or TIFF of thousands of pages is read in the memory of a few: text-layer pages are kept (they are
/// small); images are kept while they fit `imageBudget` bytes, and rendered again for a later pass otherwise.
final class PageSource {
    enum Backing {
        case pdf(PDFRenderer)
        case image(PageImage)
        case tiff([UInt8])
    }

    let backing: Backing
    let count: Int
    let render: RenderStage
    let cpu: PhaseCPU?
    /// Text-layer pages by index (PDF only); the other pages are images.
    private var textPages: [Int: OCRPage] = [:]
    private var kept: [Int: PageImage] = [:]
    /// What the first page's pixels say of a phone's screen, measured when a photo or screenshot is opened, or when
    /// the page of a one-page PDF is first rendered.
    private(set) var screen: ScreenTraits?
    private var keptBytes = 0
    /// Gray bytes of page images kept between passes (a 300-dpi A4 page is 8.7 MB).
    static let imageBudget = 96 << 20

    private init(backing: Backing, count: Int, render: RenderStage, cpu: PhaseCPU?) {
        self.backing = backing
        self.count = count
        self.render = render
        self.cpu = cpu
    }

    var hasImages: Bool { textPages.count < count }

    func isText(_ index: Int) -> Bool { textPages[index] != nil }

    /// Opens a document: checks it, counts its pages, sorts PDF pages into text layer and image.
    /// `cpu`: the run's phase counters, if any. `pdf`: the PDF as poppler opens it once for the document
    /// (`DocumentContext.pdf`), asked only for a PDF.
    static func open(
        _ source: SourceFile, bytes: [UInt8], render: RenderStage, cpu: PhaseCPU? = nil, pdf opened: () -> Result<PDFRenderer, DocumentFailure>
    ) -> Result<PageSource, DocumentFailure> {
        switch source.kind {
        case .pdf:
            guard FileKind.isComplete(bytes, kind: .pdf) else { return .failure(.truncatedPDF()) }
            let pdf: PDFRenderer
            switch opened() {
            case .success(let p): pdf = p
            case .failure(let f): return .failure(f)
            }
            guard pdf.pageCount > 0 else { return .failure(.noPages) }
            if let failure = pdf.badPage() { return .failure(failure) }
            let pages = PageSource(backing: .pdf(pdf), count: pdf.pageCount, render: render, cpu: cpu)
            for index in 0..<pdf.pageCount {
                if let text = pdf.textLayer(page: index, dpi: render.dpi), TextLayerCheck.isReal(text) { pages.textPages[index] = text }
            }
            return .success(pages)
        case .tiff:
            let n = ImageLoader.tiffPageCount(bytes)
            guard n > 0 else {
                // leptonica cannot count it: decode the first page for the reason.
                if case .failure(let f) = ImageLoader.tiffPage(bytes, index: 0, maxMegapixels: render.maxMegapixels) { return .failure(f) }
                return .failure(.corruptImage("leptonica cannot read the TIFF"))
            }
            let pages = PageSource(backing: .tiff(bytes), count: n, render: render, cpu: cpu)
            // The first page is read now, so a TIFF that cannot be decoded fails before any OCR.
            if case .failure(let f) = pages.page(0) { return .failure(f) }
            return .success(pages)
        case .xml:
            // An XML e-invoice has no pages: the e-invoice stage reads it (`EInvoiceStage`), never this.
            return .failure(.noPages)
        case .jpeg, .png:
            return ImageLoader.load(bytes, kind: source.kind, maxMegapixels: render.maxMegapixels).flatMap { images in
                guard let first = images.first else { return .failure(.corruptImage("no image in the file")) }
                // A phone's screen is read with its app's colours taken away (`PageImage.flattenedScreen`).
                let screen = cpu.measure("screen") { ScreenTraits.measure(gray: first.gray, width: first.width, height: first.height) }
                let image = screen.looksLikeScreen ? cpu.measure("screen") { first.flattenedScreen() } : first
                let pages = PageSource(backing: .image(image), count: 1, render: render, cpu: cpu)
                pages.screen = screen
                return .success(pages)
            }
        }
    }

    /// Page `index` (0-based): the text layer, or the image, rendered now unless kept.
    func page(_ index: Int) -> Result<RenderedPage, DocumentFailure> {
        if let text = textPages[index] { return .success(.text(text)) }
        if let image = kept[index] { return .success(.image(image)) }
        let result: Result<PageImage, DocumentFailure>
        switch backing {
        case .image(let image): return .success(.image(image))
        case .tiff(let bytes):
            result = cpu.measure("render") { ImageLoader.tiffPage(bytes, index: index, maxMegapixels: render.maxMegapixels) }
        case .pdf(let pdf):
            // A page that is one scanned image is read from that image as it is, unless it has more pixels than
            // needed; other scanned pages are rendered at their scan's own resolution when that is lower:
            // upscaling adds no detail, only time and memory (small print gets its own scaled pass when needed).
            result = cpu.measure("render") { () -> Result<PageImage, DocumentFailure> in
                switch pdf.scan(page: index, highestDPI: render.dpi, maxMegapixels: render.maxMegapixels) {
                case .image(let image): return .success(image)
                case .failed(let failure): return .failure(failure)
                case .render(let scanDPI):
                    let dpi = scanDPI.map { min(render.dpi, max(RenderStage.lowestScanDPI, $0)) } ?? render.dpi
                    return pdf.render(page: index, dpi: pdf.readResolution(page: index, dpi: dpi), maxMegapixels: render.maxMegapixels)
                }
            }
        }
        return result.map { rendered in
            var image = rendered
            // A one-page PDF that is a screenshot (an app's "share as PDF" of its screen, a screenshot printed to PDF) is
            // read as the screenshot would be, its colours taken away.
            if index == 0, count == 1, case .pdf = backing {
                let traits = screen ?? cpu.measure("screen") { ScreenTraits.measure(gray: image.gray, width: image.width, height: image.height) }
                screen = traits
                if traits.looksLikeScreen { image = cpu.measure("screen") { image.flattenedScreen() } }
            }
            if keptBytes + image.gray.count <= PageSource.imageBudget {
                kept[index] = image
                keptBytes += image.gray.count
            }
            return .image(image)
        }
    }
}
