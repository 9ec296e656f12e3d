// Draws lines with cairo, in pixel units at 300 dpi, on any cairo context
// (an image surface for rasters, a scaled PDF surface for the born-digital PDF).
import CPoppler
import Foundation
import ShoeboxCore

struct PageGeometry {
    var width: Int
    /// Fixed page height; nil means "as tall as the content" (thermal roll).
    var height: Int?
    var margin: Double
    /// Font size in pixels of a normal line. 44 px at 300 dpi is 10.5 pt: capitals about 32 px high.
    var fontSize: Double = 44

    var textWidth: Double { Double(width) - 2 * margin }

    static func of(_ layout: Layout) -> PageGeometry {
        switch layout {
        case .thermal:
            // 80 mm roll at 300 dpi.
            return PageGeometry(width: 945, height: nil, margin: 36)
        case .invoice(let paper):
            let size = paper.pixels
            return PageGeometry(width: size.width, height: size.height, margin: 150, fontSize: 46)
        }
    }
}

struct Renderer {
    let font: String
    let geometry: PageGeometry
    /// Used in error messages only.
    let name: String
    var boldText = false

    private let lineSpacing = 1.45

    /// Splits lines at `.pageBreak`.
    static func pages(_ lines: [Line]) -> [[Line]] {
        var pages: [[Line]] = [[]]
        for line in lines {
            if case .pageBreak = line { pages.append([]) } else { pages[pages.count - 1].append(line) }
        }
        return pages
    }

    func height(of line: Line) -> Double {
        switch line {
        case .text(_, _, let style), .pair(_, _, let style), .cells(_, let style):
            geometry.fontSize * style.size.scale * lineSpacing
        case .rule: geometry.fontSize * 0.8
        case .gap: geometry.fontSize * 0.7
        case .pageBreak: 0
        }
    }

    /// Pixel height of a page holding `lines`.
    func pageHeight(_ lines: [Line]) -> Int {
        let content = lines.map(height(of:)).reduce(0, +)
        let needed = Int((content + 2 * geometry.margin).rounded(.up))
        guard let fixed = geometry.height else { return needed }
        precondition(needed <= fixed, "\(name): content (\(needed) px) does not fit the page (\(fixed) px)")
        return fixed
    }

    /// Draws black text on whatever is already on the context.
    func draw(_ lines: [Line], on cr: OpaquePointer) {
        cairo_set_source_rgb(cr, 0.05, 0.05, 0.05)
        var y = geometry.margin
        let left = geometry.margin
        let right = Double(geometry.width) - geometry.margin
        for line in lines {
            let h = height(of: line)
            switch line {
            case .text(let text, let align, let style):
                var size = use(style, on: cr)
                var w = advance(text, cr)
                if w > geometry.textWidth && style.size == .large {
                    // A long merchant name printed smaller, as a real printer would.
                    size *= 0.98 * geometry.textWidth / w
                    cairo_set_font_size(cr, size)
                    w = advance(text, cr)
                }
                check(w <= geometry.textWidth, text)
                let x: Double =
                    switch align {
                    case .left: left
                    case .center: left + (geometry.textWidth - w) / 2
                    case .right: right - w
                    }
                show(text, x: x, baseline: y + size, cr)
            case .pair(let l, let r, let style):
                let size = use(style, on: cr)
                let wl = advance(l, cr)
                let wr = advance(r, cr)
                check(wl + wr + size <= geometry.textWidth, "\(l) … \(r)")
                show(l, x: left, baseline: y + size, cr)
                show(r, x: right - wr, baseline: y + size, cr)
            case .cells(let cells, let style):
                let size = use(style, on: cr)
                for cell in cells {
                    let anchor = left + cell.x * geometry.textWidth
                    let x = cell.align == .right ? anchor - advance(cell.text, cr) : anchor
                    show(cell.text, x: x, baseline: y + size, cr)
                }
            case .rule:
                let dash: [Double] = [14, 8]
                cairo_set_dash(cr, dash, Int32(dash.count), 0)
                cairo_set_line_width(cr, 3)
                cairo_move_to(cr, left, y + h / 2)
                cairo_line_to(cr, right, y + h / 2)
                cairo_stroke(cr)
                cairo_set_dash(cr, nil, 0, 0)
            case .gap, .pageBreak:
                break
            }
            y += h
        }
    }

    /// Selects the font for `style` and returns its pixel size.
    private func use(_ style: Style, on cr: OpaquePointer) -> Double {
        let size = geometry.fontSize * style.size.scale
        cairo_select_font_face(
            cr, font, CAIRO_FONT_SLANT_NORMAL,
            style.bold || boldText ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
        return size
    }

    private func advance(_ text: String, _ cr: OpaquePointer) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        return extents.x_advance
    }

    private func show(_ text: String, x: Double, baseline: Double, _ cr: OpaquePointer) {
        cairo_move_to(cr, x, baseline)
        cairo_show_text(cr, text)
    }

    private func check(_ fits: Bool, _ text: String) {
        if !fits { FileHandle.standardError.write(Data("\(name): line too wide for the page: \(text)\n".utf8)) }
        precondition(fits, "\(name): line too wide for the page: \(text)")
    }
}

// MARK: - Rasters

/// An 8-bit gray image, row-major, 0 = black.
struct GrayImage {
    var width: Int
    var height: Int
    var pixels: [UInt8]
}

extension Renderer {
    /// Renders one page at 300 dpi into a gray image, optionally made to look scanned.
    func raster(_ lines: [Line], scan: ScanLook?, seed: UInt64) -> GrayImage {
        let width = geometry.width
        let height = pageHeight(lines)
        let page = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(page) }
        let cr = cairo_create(page)!
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        draw(lines, on: cr)
        cairo_destroy(cr)

        guard let scan else { return grayPixels(of: page) }

        // Rotate the clean page about its centre onto a slightly larger white page,
        // so that the rotation does not cut off the corners.
        let pad = 48
        let outWidth = width + 2 * pad
        let outHeight = height + 2 * pad
        let rotated = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(outWidth), Int32(outHeight))!
        defer { cairo_surface_destroy(rotated) }
        let rc = cairo_create(rotated)!
        cairo_set_source_rgb(rc, 1, 1, 1)
        cairo_paint(rc)
        cairo_translate(rc, Double(outWidth) / 2, Double(outHeight) / 2)
        cairo_rotate(rc, scan.rotation * Double.pi / 180)
        cairo_translate(rc, -Double(width) / 2, -Double(height) / 2)
        cairo_set_source_surface(rc, page, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(rc), CAIRO_FILTER_BILINEAR)
        cairo_paint(rc)
        cairo_destroy(rc)

        var image = grayPixels(of: rotated)
        age(&image, scan, seed: seed)
        return image
    }

    /// Paper tone, uneven lighting, texture, grain and dust, all from a seeded PRNG.
    private func age(_ image: inout GrayImage, _ scan: ScanLook, seed: UInt64) {
        let width = image.width
        let height = image.height
        var random = SplitMix64(seed: seed)
        // Paper texture: random levels on a coarse grid, interpolated, so it stays cheap for JPEG.
        let cell = 16
        let gridWidth = width / cell + 2
        let gridHeight = height / cell + 2
        let grid = (0..<(gridWidth * gridHeight)).map { _ in
            Int(random.next() % UInt64(2 * scan.noise + 1)) - scan.noise
        }
        for y in 0..<height {
            let gy = y / cell
            let fy = y % cell
            for x in 0..<width {
                let gx = x / cell
                let fx = x % cell
                let top = grid[gy * gridWidth + gx] * (cell - fx) + grid[gy * gridWidth + gx + 1] * fx
                let bottom = grid[(gy + 1) * gridWidth + gx] * (cell - fx) + grid[(gy + 1) * gridWidth + gx + 1] * fx
                let texture = (top * (cell - fy) + bottom * fy) / (cell * cell)
                // Uneven lighting: the paper darkens by a few levels towards the bottom right.
                let shade = (x * 4) / width + (y * 6) / height
                let paper = scan.paper - shade + texture
                let grain = Int(random.next() % 3) - 1
                let ink = Int(image.pixels[y * width + x])
                image.pixels[y * width + x] = UInt8(clamping: ink * paper / 255 + grain)
            }
        }
        // A few specks of dust.
        for _ in 0..<(width * height / 40_000) {
            let x = Int(random.next() % UInt64(width - 3))
            let y = Int(random.next() % UInt64(height - 3))
            let level = UInt8(90 + random.next() % 80)
            for dy in 0..<2 { for dx in 0..<2 { image.pixels[(y + dy) * width + x + dx] = level } }
        }
    }

    /// Reads a cairo RGB24 surface (native-endian 0x00RRGGBB words) as gray levels.
    private func grayPixels(of surface: OpaquePointer) -> GrayImage {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        var pixels = [UInt8](repeating: 255, count: width * height)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let rgb = row[x]
                let r = (rgb >> 16) & 0xFF
                let g = (rgb >> 8) & 0xFF
                let b = rgb & 0xFF
                pixels[y * width + x] = UInt8((r * 299 + g * 587 + b * 114) / 1000)
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }
}

/// FNV-1a of a string: a stable seed (Swift's `hashValue` changes from run to run).
func stableHash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    return hash
}
