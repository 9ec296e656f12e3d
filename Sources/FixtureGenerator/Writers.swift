// Output: PNG and JPEG through leptonica (they store the 300 dpi resolution), PDFs through cairo,
// and the expected-values JSON.
import CLeptonica
import CPoppler
import Foundation

enum WriteError: Error, CustomStringConvertible {
    case failed(String)
    var description: String {
        switch self {
        case .failed(let what): what
        }
    }
}

/// PDF creation date written into every PDF, so that the bytes do not change between runs.
let fixedPDFDate = "2026-01-01T00:00:00"

// MARK: - Leptonica

/// Copies a gray image into an 8-bpp Pix at 300 ppi. The caller destroys it.
private func makePix(_ image: GrayImage) -> UnsafeMutablePointer<PIX> {
    let pix = pixCreate(Int32(image.width), Int32(image.height), 8)!
    pixSetResolution(pix, 300, 300)
    let data = pixGetData(pix)!
    let wordsPerLine = Int(pixGetWpl(pix))
    // Leptonica keeps 8-bpp pixels big-endian inside 32-bit words: pixel 0 is the top byte.
    image.pixels.withUnsafeBufferPointer { pixels in
        for y in 0..<image.height {
            let row = data + y * wordsPerLine
            for word in 0..<wordsPerLine {
                var value: UInt32 = 0
                for k in 0..<4 {
                    let x = word * 4 + k
                    let byte = x < image.width ? UInt32(pixels[y * image.width + x]) : 0
                    value |= byte << UInt32(24 - 8 * k)
                }
                row[word] = value
            }
        }
    }
    return pix
}

/// Takes over a buffer that leptonica allocated with malloc.
private func takeBuffer(_ bytes: UnsafeMutablePointer<UInt8>?, _ size: Int, _ what: String) throws -> Data {
    guard let bytes, size > 0 else { throw WriteError.failed("leptonica could not encode \(what)") }
    defer { free(bytes) }
    return Data(bytes: bytes, count: size)
}

func encodePNG(_ image: GrayImage) throws -> Data {
    var pix: UnsafeMutablePointer<PIX>? = makePix(image)
    defer { pixDestroy(&pix) }
    var bytes: UnsafeMutablePointer<UInt8>?
    var size = 0
    pixWriteMem(&bytes, &size, pix, Int32(IFF_PNG))
    return try takeBuffer(bytes, size, "PNG")
}

func encodeJPEG(_ image: GrayImage, quality: Int32 = 85) throws -> Data {
    var pix: UnsafeMutablePointer<PIX>? = makePix(image)
    defer { pixDestroy(&pix) }
    var bytes: UnsafeMutablePointer<UInt8>?
    var size = 0
    // pixWriteMem(..., IFF_JFIF_JPEG) would use leptonica's default quality of 75.
    pixWriteMemJpeg(&bytes, &size, pix, quality, 0)
    return try takeBuffer(bytes, size, "JPEG")
}

// MARK: - Cairo PDF

private let pointsPerPixel = 72.0 / 300.0

private func createPDF(_ url: URL, width: Int, height: Int, title: String) throws -> OpaquePointer {
    let surface = cairo_pdf_surface_create(url.path, Double(width) * pointsPerPixel, Double(height) * pointsPerPixel)!
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
        throw WriteError.failed("cairo cannot create \(url.path)")
    }
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, fixedPDFDate)
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
    return surface
}

private func finishPDF(_ surface: OpaquePointer, _ url: URL) throws {
    cairo_surface_finish(surface)
    let status = cairo_surface_status(surface)
    cairo_surface_destroy(surface)
    guard status == CAIRO_STATUS_SUCCESS else {
        throw WriteError.failed("cairo failed writing \(url.path): \(String(cString: cairo_status_to_string(status)))")
    }
}

/// A gray image as a cairo RGB24 surface (cairo embeds an all-gray RGB24 image as DeviceGray).
private func cairoSurface(_ image: GrayImage) -> OpaquePointer {
    let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(image.width), Int32(image.height))!
    cairo_surface_flush(surface)
    let stride = Int(cairo_image_surface_get_stride(surface))
    let data = cairo_image_surface_get_data(surface)!
    for y in 0..<image.height {
        let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
        for x in 0..<image.width {
            let g = UInt32(image.pixels[y * image.width + x])
            row[x] = (g << 16) | (g << 8) | g
        }
    }
    cairo_surface_mark_dirty(surface)
    return surface
}

/// Writes rasters as PDF pages with no text layer. With `asJPEG` the pages are embedded as JPEG
/// (as a scanner app would do); otherwise cairo compresses them losslessly.
func writeImagePDF(_ pages: [GrayImage], to url: URL, title: String, asJPEG: Bool) throws {
    let first = pages[0]
    let pdf = try createPDF(url, width: first.width, height: first.height, title: title)
    let cr = cairo_create(pdf)!
    for page in pages {
        cairo_pdf_surface_set_size(pdf, Double(page.width) * pointsPerPixel, Double(page.height) * pointsPerPixel)
        let image = cairoSurface(page)
        if asJPEG {
            // cairo copies nothing: hand it a malloc'd buffer and `free` to release it.
            let jpeg = try encodeJPEG(page, quality: 75)
            let buffer = malloc(jpeg.count)!.assumingMemoryBound(to: UInt8.self)
            jpeg.copyBytes(to: buffer, count: jpeg.count)
            cairo_surface_set_mime_data(image, CAIRO_MIME_TYPE_JPEG, buffer, UInt(jpeg.count), free, buffer)
        }
        cairo_save(cr)
        cairo_scale(cr, pointsPerPixel, pointsPerPixel)
        cairo_set_source_surface(cr, image, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
        cairo_surface_destroy(image)
        cairo_show_page(cr)
    }
    cairo_destroy(cr)
    try finishPDF(pdf, url)
}

/// Writes a colour screenshot as a one-page PDF of the phone's shape with no text layer (an app's "share receipt").
func writeScreenPDF(_ image: OpaquePointer, width: Int, height: Int, to url: URL, title: String) throws {
    let pdf = try createPDF(url, width: width, height: height, title: title)
    let cr = cairo_create(pdf)!
    cairo_scale(cr, pointsPerPixel, pointsPerPixel)
    cairo_set_source_surface(cr, image, 0, 0)
    cairo_paint(cr)
    cairo_show_page(cr)
    cairo_destroy(cr)
    try finishPDF(pdf, url)
}

/// Writes a born-digital PDF: the lines are drawn as text, so `pdftotext` can read them.
func writeTextPDF(_ renderer: Renderer, pages: [[Line]], to url: URL, title: String) throws {
    let width = renderer.geometry.width
    let pdf = try createPDF(url, width: width, height: renderer.pageHeight(pages[0]), title: title)
    let cr = cairo_create(pdf)!
    for lines in pages {
        let height = renderer.pageHeight(lines)
        cairo_pdf_surface_set_size(pdf, Double(width) * pointsPerPixel, Double(height) * pointsPerPixel)
        cairo_save(cr)
        cairo_scale(cr, pointsPerPixel, pointsPerPixel)
        renderer.draw(lines, on: cr)
        cairo_restore(cr)
        cairo_show_page(cr)
    }
    cairo_destroy(cr)
    try finishPDF(pdf, url)
}

// MARK: - Expected JSON

enum JSONValue {
    case string(String)
    case int(Int)
    case null
    /// JSON text written as it is (an array of objects).
    case raw(String)

    var text: String {
        switch self {
        case .string(let s): jsonQuote(s)
        case .int(let n): String(n)
        case .null: "null"
        case .raw(let text): text
        }
    }
}

/// Pretty-printed JSON object with sorted keys and a trailing newline.
func jsonObject(_ fields: [String: JSONValue]) -> String {
    let body = fields.keys.sorted().map { "  \(jsonQuote($0)): \(fields[$0]!.text)" }
    return "{\n" + body.joined(separator: ",\n") + "\n}\n"
}

func jsonQuote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

/// Amount as a plain decimal string with two minor digits: 2345 -> "23.45", -50 -> "-0.50".
func decimalString(_ cents: Int) -> String {
    (cents < 0 ? "-" : "") + "\(abs(cents) / 100).\(pad2(abs(cents) % 100))"
}

/// A rate in basis points as a plain decimal: 1900 -> "19", 550 -> "5.5".
func rateString(_ basisPoints: Int) -> String {
    var text = decimalString(basisPoints)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}

/// The items a reader should give for the receipt, as `shoebox regress` compares them, one object per line.
func expectedItems(_ receipt: Receipt) -> String {
    let objects = receipt.items.map { item -> String in
        let quantity: JSONValue =
            if let grams = item.grams { .string("\(grams / 1000).\(String(grams % 1000 + 1000).dropFirst())") } else if item.quantity != 1 {
                .string("\(item.quantity)")
            } else { .null }
        let pricePrinted = item.grams != nil || item.quantity != 1 && item.quantityStyle != .inline
        let fields: [String: JSONValue] = [
            "kind": .string(item.kind.rawValue), "description": .string(item.fullName), "quantity": quantity,
            "unitPrice": pricePrinted ? .string(decimalString(item.unitCents)) : .null, "amount": .string(decimalString(item.amountCents)),
            "taxCode": receipt.taxCodes.map { .string($0[item.taxClass]) } ?? .null,
            "taxRate": receipt.taxCodes == nil ? .null : .string(rateString(receipt.taxRates[item.taxClass].basisPoints))
        ]
        return "    {" + fields.keys.sorted().map { "\(jsonQuote($0)): \(fields[$0]!.text)" }.joined(separator: ", ") + "}"
    }
    return "[\n" + objects.joined(separator: ",\n") + "\n  ]"
}

func expectedJSON(_ receipt: Receipt, _ totals: Totals) -> String {
    jsonObject(
        [
            "file": .string(receipt.fileName),
            "merchant": .string(receipt.merchant),
            "date": .string(receipt.date.iso),
            "total": .string(decimalString(totals.paidCents)),
            "currency": .string(receipt.money.code),
            "language": .string(receipt.language.rawValue),
            "subtotal": receipt.showSubtotal ? .string(decimalString(totals.subtotalCents)) : .null,
            "tax": .string(decimalString(totals.taxCents)),
            "referenceNumber": receipt.reference.map { .string($0.value) } ?? .null,
            "paymentMethod": receipt.payment.jsonValue.map { .string($0) } ?? .null,
            "documentKind": .string(receipt.kind.rawValue),
            "layout": .string(receipt.layout.name),
            "pages": .int(receipt.pages)
        ].merging(itemFields(receipt)) { a, _ in a })
}

/// A line-item fixture's items and what proves them: gross prices sum to the total, net prices to the subtotal.
private func itemFields(_ receipt: Receipt) -> [String: JSONValue] {
    guard case .items = receipt.destination else { return [:] }
    let check = receipt.pricing == .gross ? "total" : receipt.showSubtotal ? "subtotal" : "total-less-charges"
    return ["items": .raw(expectedItems(receipt)), "itemsCheck": .string(check)]
}
