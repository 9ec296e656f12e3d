import Foundation
public import ShoeboxCore

/// How a page's fingerprint is computed (pure Swift, no C):
/// 1. A coarse copy (longest side ≤ 256, box averages of sampled pixels) finds the content: ink grouped into blobs
///    by a small dilation, the biggest blob plus every blob with ≥ 1 % of its ink lying near the growing box.
///    Specks far away, solid dark pieces on the border (background around the paper) and thin scanner edges are
///    left out, so a receipt lying on an A4 scan or with white margins is looked at, not the page.
/// 2. That region, with a margin, is box-averaged again from the full-resolution pixels (longest side ≤ 512)
///    and its content found the same way.
/// 3. The skew of the text lines is found by projection profiles (±6°, to 0.1°) and the ink's box is taken
///    in the deskewed frame, trimmed by 0.2 % of the ink on each side.
/// 4. The deskewed box is resampled to a 32 × 64 grid of ink darkness (aspect normalised; the aspect itself is
///    kept as one byte), and two DCT hashes are taken: the low 8 × 32 frequencies (horizontal × vertical) of
///    the whole box and of its lower 65 % (where receipts of the same shop differ), each 255 bits cut at their median.
extension PageFingerprint {
    public init(_ image: PageImage) {
        let a = FingerprintAnalysis(image)
        self.init(aspect: a.aspect, whole: a.whole, lower: a.lower)
    }
}

// MARK: - Computation

/// A small gray image of Float pixels (0 black … 255 white).
struct FloatGray {
    var width: Int, height: Int
    var px: [Float]

    /// Box average of the region (x0, y0, rw, rh) of `image` by an integer factor; the remainder is dropped.
    /// With `step` > 1 only every step-th row and column of each box is read (enough to find the ink's box).
    init(boxAveraging image: PageImage, x0: Int, y0: Int, rw: Int, rh: Int, factor f: Int, step: Int = 1) {
        let ow = max(1, rw / f)
        let oh = max(1, rh / f)
        let fx = min(f, rw)
        let fy = min(f, rh)
        let st = max(1, min(step, fx, fy))
        width = ow
        height = oh
        var out = [Float](repeating: 255, count: ow * oh)
        let srcW = image.width
        let samplesX = (fx + st - 1) / st
        let samplesY = (fy + st - 1) / st
        let scale = 1 / Float(samplesX * samplesY)
        let span = ow * fx
        image.gray.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                // Rows are first summed column by column (contiguous, vectorisable), then each box's columns.
                var columns = [UInt32](repeating: 0, count: span)
                columns.withUnsafeMutableBufferPointer { acc in
                    for oy in 0..<oh {
                        for i in 0..<span { acc[i] = 0 }
                        for dy in stride(from: 0, to: fy, by: st) {
                            let row = src.baseAddress! + (y0 + oy * fy + dy) * srcW + x0
                            if st == 1 {
                                for i in 0..<span { acc[i] &+= UInt32(row[i]) }
                            } else {
                                for ox in 0..<ow {
                                    for k in stride(from: ox * fx, to: ox * fx + fx, by: st) { acc[k] &+= UInt32(row[k]) }
                                }
                            }
                        }
                        let base = oy * ow
                        for ox in 0..<ow {
                            var s: UInt32 = 0
                            for k in stride(from: ox * fx, to: ox * fx + fx, by: st) { s &+= acc[k] }
                            dst[base + ox] = Float(s) * scale
                        }
                    }
                }
            }
        }
        px = out
    }

    /// Paper level (95th percentile) and the ink threshold below it.
    func levels() -> (paper: Float, ink: Float) {
        var hist = [Int](repeating: 0, count: 256)
        for v in px { hist[min(255, max(0, Int(v)))] += 1 }
        func percentile(_ p: Double) -> Float {
            let target = Int(Double(px.count) * p)
            var cum = 0
            for (i, c) in hist.enumerated() {
                cum += c
                if cum > target { return Float(i) }
            }
            return 255
        }
        let paper = percentile(0.95)
        let dark = percentile(0.01)
        return (paper, paper - max(24, 0.45 * (paper - dark)))
    }

    @inline(__always) func sample(_ x: Float, _ y: Float, outside: Float) -> Float {
        guard x >= 0, y >= 0, x <= Float(width - 1), y <= Float(height - 1) else { return outside }
        let ix = min(Int(x), width - 2 < 0 ? 0 : width - 2)
        let iy = min(Int(y), height - 2 < 0 ? 0 : height - 2)
        let fx = x - Float(ix)
        let fy = y - Float(iy)
        let ix1 = min(ix + 1, width - 1)
        let iy1 = min(iy + 1, height - 1)
        let a = px[iy * width + ix]
        let b = px[iy * width + ix1]
        let c = px[iy1 * width + ix]
        let d = px[iy1 * width + ix1]
        return (a + (b - a) * fx) * (1 - fy) + (c + (d - c) * fx) * fy
    }
}

/// The page's content: ink pixels (darker than a threshold) grouped into blobs by a small dilation; the biggest
/// blob, plus every blob with at least 1 % of its ink lying near the growing box. Specks far from the text and thin
/// scanner edges along the border are left out.
struct InkBlob {
    var x0 = 0, y0 = 0, x1 = 0, y1 = 0
    /// Ink pixels that belong to the content.
    var keep: [Bool]
    var count = 0

    init?(_ g: FloatGray, threshold t: Float) {
        let w = g.width
        let h = g.height
        guard w >= 2, h >= 2 else { return nil }
        var ink = g.px.map { $0 < t }
        InkBlob.dropDarkBorder(&ink, width: w, height: h)
        let grown = InkBlob.dilated(ink, width: w, height: h, radius: max(1, Int(Float(max(w, h)) * 0.02)))
        let (label, blobs) = InkBlob.blobs(of: grown, ink: ink, width: w, height: h)
        guard let (accepted, box) = InkBlob.content(blobs, width: w, height: h) else { return nil }
        (x0, y0, x1, y1) = box
        var keep = [Bool](repeating: false, count: w * h)
        var c = 0
        for i in 0..<(w * h) where ink[i] && accepted[Int(label[i])] {
            keep[i] = true
            c += 1
        }
        self.keep = keep
        count = c
    }

    /// One blob of the grown mask: its ink count and ink box.
    struct Blob { var ink = 0, x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1 }

    /// Visits the 4-connected piece of `mask` that holds `start` (`seen` marks what is visited, `start` included).
    static func flood(from start: Int, width w: Int, height h: Int, in mask: [Bool], seen: inout [Bool], visit: (Int) -> Void) {
        var stack = [start]
        seen[start] = true
        while let p = stack.popLast() {
            visit(p)
            let x = p % w
            let y = p / w
            if x > 0, mask[p - 1], !seen[p - 1] {
                seen[p - 1] = true
                stack.append(p - 1)
            }
            if x < w - 1, mask[p + 1], !seen[p + 1] {
                seen[p + 1] = true
                stack.append(p + 1)
            }
            if y > 0, mask[p - w], !seen[p - w] {
                seen[p - w] = true
                stack.append(p - w)
            }
            if y < h - 1, mask[p + w], !seen[p + w] {
                seen[p + w] = true
                stack.append(p + w)
            }
        }
    }

    /// Dark background around the paper (a table, the scanner lid, a torn edge on black): solid dark pieces touching
    /// the border and bigger than any printed character are dropped from `ink`.
    static func dropDarkBorder(_ ink: inout [Bool], width w: Int, height h: Int) {
        let n = w * h
        var seen = [Bool](repeating: false, count: n)
        var piece: [Int] = []
        let big = max(16, n / 250)
        var borderPixels: [Int] = []
        for x in 0..<w {
            borderPixels.append(x)
            borderPixels.append((h - 1) * w + x)
        }
        for y in 0..<h {
            borderPixels.append(y * w)
            borderPixels.append(y * w + w - 1)
        }
        for start in borderPixels where ink[start] && !seen[start] {
            piece.removeAll(keepingCapacity: true)
            flood(from: start, width: w, height: h, in: ink, seen: &seen) { piece.append($0) }
            // Solid: text lines touching the border are big too at this resolution, but not solid.
            var px0 = w
            var px1 = 0
            var py0 = h
            var py1 = 0
            for p in piece {
                px0 = min(px0, p % w)
                px1 = max(px1, p % w)
                py0 = min(py0, p / w)
                py1 = max(py1, p / w)
            }
            let solid = piece.count * 10 >= (px1 - px0 + 1) * (py1 - py0 + 1) * 7
            if piece.count >= big && solid { for p in piece { ink[p] = false } }
        }
    }

    /// `mask` dilated by a (2r+1)² box, separably with running counts.
    static func dilated(_ mask: [Bool], width w: Int, height h: Int, radius r: Int) -> [Bool] {
        let n = w * h
        var horiz = [Bool](repeating: false, count: n)
        for y in 0..<h {
            let base = y * w
            var run = 0
            for x in 0..<min(w, r) where mask[base + x] { run += 1 }
            for x in 0..<w {
                if x + r < w, mask[base + x + r] { run += 1 }
                if x - r - 1 >= 0, mask[base + x - r - 1] { run -= 1 }
                horiz[base + x] = run > 0
            }
        }
        var grown = [Bool](repeating: false, count: n)
        for x in 0..<w {
            var run = 0
            for y in 0..<min(h, r) where horiz[y * w + x] { run += 1 }
            for y in 0..<h {
                if y + r < h, horiz[(y + r) * w + x] { run += 1 }
                if y - r - 1 >= 0, horiz[(y - r - 1) * w + x] { run -= 1 }
                grown[y * w + x] = run > 0
            }
        }
        return grown
    }

    /// The connected blobs of `grown`, each with its ink count and ink box, and each pixel's blob (−1: none).
    static func blobs(of grown: [Bool], ink: [Bool], width w: Int, height h: Int) -> (label: [Int32], blobs: [Blob]) {
        var seen = [Bool](repeating: false, count: w * h)
        var label = [Int32](repeating: -1, count: w * h)
        var blobs: [Blob] = []
        for start in 0..<(w * h) where grown[start] && !seen[start] {
            let id = Int32(blobs.count)
            var b = Blob()
            flood(from: start, width: w, height: h, in: grown, seen: &seen) { p in
                label[p] = id
                guard ink[p] else { return }
                b.ink += 1
                b.x0 = min(b.x0, p % w)
                b.x1 = max(b.x1, p % w)
                b.y0 = min(b.y0, p / w)
                b.y1 = max(b.y1, p / w)
            }
            blobs.append(b)
        }
        return (label, blobs)
    }

    /// The blobs that are the page's content: the biggest usable one, then every one with at least 1 % of its ink
    /// within reach of the growing box; and that box. Nil when no blob is usable. Thin blobs along the border are
    /// scanner edges, not content.
    static func content(_ blobs: [Blob], width w: Int, height h: Int) -> (accepted: [Bool], box: (Int, Int, Int, Int))? {
        let thinX = max(2, w / 50)
        let thinY = max(2, h / 50)
        func usable(_ b: Blob) -> Bool {
            guard b.ink > 0 else { return false }
            let touches = b.x0 == 0 || b.y0 == 0 || b.x1 == w - 1 || b.y1 == h - 1
            return !(touches && (b.x1 - b.x0 < thinX || b.y1 - b.y0 < thinY))
        }
        guard let main = blobs.indices.filter({ usable(blobs[$0]) }).max(by: { blobs[$0].ink < blobs[$1].ink }) else { return nil }
        var accepted = [Bool](repeating: false, count: blobs.count)
        accepted[main] = true
        var bx0 = blobs[main].x0
        var by0 = blobs[main].y0
        var bx1 = blobs[main].x1
        var by1 = blobs[main].y1
        let minInk = max(2, blobs[main].ink / 100)
        var changed = true
        while changed {
            changed = false
            // Blank stretches between blocks of a receipt can be tall: the reach grows with the box.
            let reach = max(Int(Float(max(w, h)) * 0.06), max(bx1 - bx0, by1 - by0) / 4)
            for i in blobs.indices where !accepted[i] && blobs[i].ink >= minInk && usable(blobs[i]) {
                let b = blobs[i]
                let gapX = max(0, b.x0 - bx1, bx0 - b.x1)
                let gapY = max(0, b.y0 - by1, by0 - b.y1)
                if max(gapX, gapY) <= reach {
                    accepted[i] = true
                    changed = true
                    bx0 = min(bx0, b.x0)
                    by0 = min(by0, b.y0)
                    bx1 = max(bx1, b.x1)
                    by1 = max(by1, b.y1)
                }
            }
        }
        return (accepted, (bx0, by0, bx1, by1))
    }
}

/// Lowest and highest bin holding ink after dropping overfull bins (rules, scanner edges) and `trim` of the mass
/// on each side (specks).
func trimmedRange(_ hist: [Int], overfull: Int, trim: Double) -> (lo: Int, hi: Int)? {
    var h = hist
    for i in h.indices where h[i] > overfull { h[i] = 0 }
    let total = h.reduce(0, +)
    guard total > 0 else { return nil }
    let cut = Int(Double(total) * trim)
    var cum = 0
    var lo = 0
    for i in h.indices {
        cum += h[i]
        if cum > cut {
            lo = i
            break
        }
    }
    cum = 0
    var hi = h.count - 1
    for i in h.indices.reversed() {
        cum += h[i]
        if cum > cut {
            hi = i
            break
        }
    }
    return hi > lo ? (lo, hi) : nil
}

struct FingerprintAnalysis {
    static let coarseSide = 256, workSide = 512
    static let gridW = 32, gridH = 64
    static let keepU = 8, keepV = 32
    /// The lower hash covers the content box from this fraction of its height down.
    static let lowerFrom: Float = 0.35

    var aspect: UInt8 = 128
    var whole: [UInt64] = [0, 0, 0, 0]
    var lower: [UInt64] = [0, 0, 0, 0]

    init(_ image: PageImage) {
        guard image.width >= 8, image.height >= 8 else { return }
        // 1. Coarse ink box.
        let f1 = max(1, (max(image.width, image.height) + Self.coarseSide - 1) / Self.coarseSide)
        let coarse = FloatGray(boxAveraging: image, x0: 0, y0: 0, rw: image.width, rh: image.height, factor: f1, step: 3)
        var rx0 = 0
        var ry0 = 0
        var rx1 = image.width
        var ry1 = image.height
        // Thin print fades when box-averaged: the coarse threshold is close to the paper.
        let cl = coarse.levels()
        if let c = InkBlob(coarse, threshold: cl.paper - max(10, (cl.paper - cl.ink) / 2)) {
            let mx = (c.x1 - c.x0) / 8 + 3
            let my = (c.y1 - c.y0) / 8 + 3
            rx0 = max(0, (c.x0 - mx) * f1)
            rx1 = min(image.width, (c.x1 + 1 + mx) * f1)
            ry0 = max(0, (c.y0 - my) * f1)
            ry1 = min(image.height, (c.y1 + 1 + my) * f1)
        }
        // 2. Working copy of that region, and its ink (the main blob and what lies close to it).
        let rw = rx1 - rx0
        let rh = ry1 - ry0
        let f2 = max(1, (max(rw, rh) + Self.workSide - 1) / Self.workSide)
        let work = FloatGray(boxAveraging: image, x0: rx0, y0: ry0, rw: rw, rh: rh, factor: f2)
        let levels = work.levels()
        var xs: [Float] = []
        var ys: [Float] = []
        let cx = Float(work.width) / 2
        let cy = Float(work.height) / 2
        if let blob = InkBlob(work, threshold: levels.ink) {
            xs.reserveCapacity(blob.count)
            ys.reserveCapacity(blob.count)
            for y in 0..<work.height {
                for x in 0..<work.width where blob.keep[y * work.width + x] {
                    xs.append(Float(x) - cx)
                    ys.append(Float(y) - cy)
                }
            }
        }
        // 3. Deskew by projection profiles, then the ink box in the deskewed frame.
        let theta = xs.count >= 32 ? Self.skew(xs, ys, span: work.width + work.height) : 0
        let cosT = cos(theta)
        let sinT = sin(theta)
        var bx0 = -cx
        var bx1 = cx
        var by0 = -cy
        var by1 = cy
        if xs.count >= 32 {
            let diag = Int((Float(work.width * work.width + work.height * work.height)).squareRoot()) + 4
            let off = Float(diag / 2)
            var hx = [Int](repeating: 0, count: diag)
            var hy = [Int](repeating: 0, count: diag)
            for i in xs.indices {
                let xr = xs[i] * cosT + ys[i] * sinT
                let yr = -xs[i] * sinT + ys[i] * cosT
                hx[min(diag - 1, max(0, Int(xr + off)))] += 1
                hy[min(diag - 1, max(0, Int(yr + off)))] += 1
            }
            if let rx = trimmedRange(hx, overfull: work.height * 6 / 10, trim: 0.002),
                let ry = trimmedRange(hy, overfull: work.width * 9 / 10, trim: 0.002)
            {
                bx0 = Float(rx.lo) - off
                bx1 = Float(rx.hi + 1) - off
                by0 = Float(ry.lo) - off
                by1 = Float(ry.hi + 1) - off
            }
        }
        let boxW = max(1, bx1 - bx0)
        let boxH = max(1, by1 - by0)
        let la = (log2(boxH / boxW) * 32).rounded() + 128
        aspect = UInt8(min(255, max(0, la)))
        // 4. Grids of ink darkness and their DCT hashes.
        let paper = levels.paper
        func grid(fromY fy0: Float, gw: Int = Self.gridW, gh: Int = Self.gridH) -> [Float] {
            let ss = 4
            let top = by0 + boxH * fy0
            let height = boxH * (1 - fy0)
            let stepX = boxW / Float(gw * ss)
            let stepY = height / Float(gh * ss)
            var g = [Float](repeating: 0, count: gw * gh)
            for gy in 0..<gh {
                for gx in 0..<gw {
                    var s: Float = 0
                    for sy in 0..<ss {
                        let yr = top + (Float(gy * ss + sy) + 0.5) * stepY
                        for sx in 0..<ss {
                            let xr = bx0 + (Float(gx * ss + sx) + 0.5) * stepX
                            let x = xr * cosT - yr * sinT + cx
                            let y = xr * sinT + yr * cosT + cy
                            s += max(0, paper - work.sample(x, y, outside: paper))
                        }
                    }
                    g[gy * gw + gx] = s
                }
            }
            return g
        }
        whole = Self.dctHash(grid(fromY: 0))
        lower = Self.dctHash(grid(fromY: Self.lowerFrom))
    }

    /// Angle (radians) that makes the text lines horizontal: maximises the sum of squared row counts.
    static func skew(_ xs: [Float], _ ys: [Float], span: Int) -> Float {
        let n = xs.count
        let stride = max(1, n / 10000)
        let bins = span * 2 + 8
        let off = Float(span + 4)
        var hist = [Float](repeating: 0, count: bins + 1)
        // Each point is split between its two nearest bins, so the score varies smoothly with the angle.
        func score(_ deg: Float) -> Float {
            let t = deg * .pi / 180
            let c = cos(t)
            let s = sin(t)
            for i in hist.indices { hist[i] = 0 }
            var i = 0
            while i < n {
                let yr = min(Float(bins - 1), max(0, -xs[i] * s + ys[i] * c + off))
                let k = Int(yr)
                let f = yr - Float(k)
                hist[k] += 1 - f
                hist[k + 1] += f
                i += stride
            }
            var total: Float = 0
            for v in hist { total += v * v }
            return total
        }
        // Coarse to fine: 1° over ±6°, then 0.25°, then 0.1°.
        var best: Float = 0
        var bestScore = score(0)
        for (step, reach) in [(Float(1), 6), (0.25, 3), (0.1, 2)] {
            let centre = best
            for k in -reach...reach where k != 0 {
                let d = centre + Float(k) * step
                let sc = score(d)
                if sc > bestScore {
                    best = d
                    bestScore = sc
                }
            }
        }
        return best * .pi / 180
    }

    /// The low keepU × keepV DCT coefficients without DC, cut at their median: 255 bits in 4 words.
    static func dctHash(_ g: [Float]) -> [UInt64] {
        let gw = gridW
        let gh = gridH
        let ku = keepU
        let kv = keepV
        var rows = [Float](repeating: 0, count: gh * ku)
        for y in 0..<gh {
            for u in 0..<ku {
                var s: Float = 0
                for x in 0..<gw { s += g[y * gw + x] * cosTableX[u * gw + x] }
                rows[y * ku + u] = s
            }
        }
        var coeffs: [Float] = []
        coeffs.reserveCapacity(ku * kv)
        for v in 0..<kv {
            for u in 0..<ku where !(u == 0 && v == 0) {
                var s: Float = 0
                for y in 0..<gh { s += rows[y * ku + u] * cosTableY[v * gh + y] }
                coeffs.append(s)
            }
        }
        let median = coeffs.sorted()[coeffs.count / 2]
        var words: [UInt64] = [0, 0, 0, 0]
        for (i, c) in coeffs.enumerated() where c > median { words[i >> 6] |= 1 << UInt64(i & 63) }
        return words
    }

    static let cosTableX: [Float] = table(n: gridW, k: keepU)
    static let cosTableY: [Float] = table(n: gridH, k: keepV)
    static func table(n: Int, k: Int) -> [Float] {
        var t = [Float](repeating: 0, count: n * k)
        for u in 0..<k { for x in 0..<n { t[u * n + x] = cos(Float.pi * Float(2 * x + 1) * Float(u) / Float(2 * n)) } }
        return t
    }
}
