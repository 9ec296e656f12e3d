import Foundation
import ShoeboxCore
import ShoeboxEngines
import ShoeboxImaging

/// A page of an original, as the browser shows it: a JPEG or PNG as it is (the browser draws it in colour), a
/// PDF page or a TIFF page rendered to gray PNG. The file is the one the store read, found through the store,
/// never named by the request; links are not followed and sizes are bounded. A page OCR turned upright before
/// reading it is shown turned the same way (gray PNG), so that it reads upright and the evidence boxes fit it.
enum PageView {
    /// PDF pages are rendered at this resolution: enough to read a receipt at 100 %, small enough to send at once.
    static let dpi = 150
    static let maxFileBytes = 256 << 20
    static let maxMegapixels = 60

    static func image(file: String, page: Int, turn: Int = 0) -> HTTPResponse {
        var st = stat()
        guard lstat(file, &st) == 0 else {
            return .text(404, "The original \(file) is not there any more; the record stays, its image cannot be shown.")
        }
        guard st.st_mode & S_IFMT == S_IFREG else { return .text(404, "The original \(file) is not a regular file (a link?): not shown.") }
        guard Int(st.st_size) <= maxFileBytes else { return .text(413, "The original \(file) is larger than \(maxFileBytes >> 20) MB: not shown.") }
        guard let data = FileManager.default.contents(atPath: file) else { return .text(404, "The original \(file) cannot be read.") }
        let bytes = [UInt8](data)
        switch FileKind.sniff(bytes.prefix(16)) {
        case .jpeg where page == 1 && turn == 0: return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: bytes)
        case .png where page == 1 && turn == 0: return HTTPResponse(status: 200, headers: [("Content-Type", "image/png")], body: bytes)
        case .jpeg where page == 1, .png where page == 1:
            let kind: FileKind = FileKind.sniff(bytes.prefix(16)) == .png ? .png : .jpeg
            return png(ImageLoader.load(bytes, kind: kind, maxMegapixels: maxMegapixels).map { $0[0] }, page: page, turn: turn)
        case .pdf:
            do {
                let renderer = try PDFRenderer(bytes: bytes)
                return png(renderer.render(page: page - 1, dpi: dpi, maxMegapixels: maxMegapixels), page: page, turn: turn)
            } catch {
                return .text(404, "The PDF \(file) cannot be rendered: \(error.message)")
            }
        case .tiff: return png(ImageLoader.tiffPage(bytes, index: page - 1, maxMegapixels: maxMegapixels), page: page, turn: turn)
        case .xml: return .text(404, "An e-invoice's XML has no page to show.")
        default: return .text(404, "There is no page \(page) to show.")
        }
    }

    static func png(_ rendered: Result<PageImage, DocumentFailure>, page: Int, turn: Int) -> HTTPResponse {
        guard case .success(let image) = rendered, let bytes = PNGWriter.png(turn == 0 ? image : image.rotated(clockwise: turn)) else {
            return .text(404, "Page \(page) cannot be rendered.")
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "image/png")], body: bytes)
    }

    /// Each page's size as it was read, and per field the box of the line its value was read from (in those
    /// pages' pixels: the browser scales them with the image).
    static func geometry(_ pages: [OCRPage], record: DocumentRecord) -> Geometry {
        var boxes: [String: Geometry.Box] = [:]
        for (field, e) in record.evidence {
            guard let n = e.page, let line = e.line, let page = pages.first(where: { $0.pageNumber == n }), line >= 1, line <= page.lines.count
            else { continue }
            let b = page.lines[line - 1].box
            boxes[field.rawValue] = Geometry.Box(page: n, left: b.left, top: b.top, right: b.right, bottom: b.bottom)
        }
        return Geometry(pages: pages.map { Geometry.Page(page: $0.pageNumber, width: $0.width, height: $0.height, turn: $0.turn ?? 0) }, boxes: boxes)
    }

    /// The pages' sizes and the fields' boxes (`GET /api/record`'s `geometry`).
    struct Geometry: Encodable {
        struct Page: Encodable {
            let page, width, height, turn: Int
        }
        struct Box: Encodable {
            let page, left, top, right, bottom: Int
        }
        let pages: [Page]
        let boxes: [String: Box]
    }
}
