import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxImaging

/// Synthetic receipts: rows of dark "words" (bars) on light paper, drawn from a seeded generator.
private struct SyntheticReceipt {
    var width = 600, height = 1500
    var paper: UInt8 = 240, ink: UInt8 = 35

    /// `headerSeed` draws the first `headerLines` lines (the shop's letterhead); `bodySeed` the rest.
    func render(headerSeed: UInt64, bodySeed: UInt64, headerLines: Int = 8, margin: Int = 30) -> PageImage {
        var g = [UInt8](repeating: paper, count: width * height)
        var seed = headerSeed
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33)
        }
        var y = margin
        var line = 0
        while y < height - margin - 20 {
            if line == headerLines { seed = bodySeed }
            let lineHeight = 12 + next() % 8
            // Header lines are centred and short; body lines are item, quantity, amount.
            var x = line < headerLines ? margin + 60 + next() % 120 : margin + next() % 10
            let end = line < headerLines ? width - x : width - margin
            while x < end {
                let len = 15 + next() % 90
                for yy in y..<(y + lineHeight) { for xx in x..<min(end, x + len) { g[yy * width + xx] = ink } }
                x += len + 12 + next() % 30
            }
            y += lineHeight + 10 + next() % 14
            line += 1
            if next() % 9 == 0 { y += 25 } // blank gap, like between item block and totals
        }
        return PageImage(pageNumber: 1, width: width, height: height, dpi: 200, gray: g)
    }
}

/// Bilinear resampling with an affine map: scale, then rotate by `degrees` about the centre (white outside).
private func transform(_ img: PageImage, scale: Double = 1, degrees: Double = 0, fill: UInt8 = 255) -> PageImage {
    let t = degrees * .pi / 180
    let c = cos(t)
    let s = sin(t)
    let sw = Double(img.width) * scale
    let sh = Double(img.height) * scale
    // Rotated canvas grows to hold the whole page, as ImageMagick's -rotate does.
    let w = Int((abs(sw * c) + abs(sh * s)).rounded())
    let h = Int((abs(sw * s) + abs(sh * c)).rounded())
    var out = [UInt8](repeating: fill, count: w * h)
    let ocx = Double(w) / 2
    let ocy = Double(h) / 2
    let icx = Double(img.width) / 2
    let icy = Double(img.height) / 2
    for y in 0..<h {
        for x in 0..<w {
            let dx = Double(x) + 0.5 - ocx
            let dy = Double(y) + 0.5 - ocy
            let sx = (dx * c + dy * s) / scale + icx - 0.5
            let sy = (-dx * s + dy * c) / scale + icy - 0.5
            guard sx >= 0, sy >= 0, sx < Double(img.width - 1), sy < Double(img.height - 1) else { continue }
            let ix = Int(sx)
            let iy = Int(sy)
            let fx = sx - Double(ix)
            let fy = sy - Double(iy)
            let p = { (xx: Int, yy: Int) in Double(img.gray[yy * img.width + xx]) }
            let v = (p(ix, iy) * (1 - fx) + p(ix + 1, iy) * fx) * (1 - fy) + (p(ix, iy + 1) * (1 - fx) + p(ix + 1, iy + 1) * fx) * fy
            out[y * w + x] = UInt8(max(0, min(255, v.rounded())))
        }
    }
    return PageImage(pageNumber: 1, width: w, height: h, dpi: img.dpi, gray: out)
}

private func crop(_ img: PageImage, fraction: Double) -> PageImage {
    let dx = Int(Double(img.width) * fraction)
    let dy = Int(Double(img.height) * fraction)
    let w = img.width - 2 * dx
    let h = img.height - 2 * dy
    var out = [UInt8](repeating: 0, count: w * h)
    for y in 0..<h { for x in 0..<w { out[y * w + x] = img.gray[(y + dy) * img.width + x + dx] } }
    return PageImage(pageNumber: 1, width: w, height: h, dpi: img.dpi, gray: out)
}

private func adjust(_ img: PageImage, gain: Double, offset: Double) -> PageImage {
    PageImage(
        pageNumber: 1, width: img.width, height: img.height, dpi: img.dpi,
        gray: img.gray.map { UInt8(max(0, min(255, (Double($0) * gain + offset).rounded()))) })
}

/// The receipt lying on a larger white sheet (a flatbed scan of a small slip).
private func onSheet(_ img: PageImage, left: Int, top: Int, width: Int, height: Int) -> PageImage {
    var out = [UInt8](repeating: 252, count: width * height)
    for y in 0..<img.height { for x in 0..<img.width { out[(y + top) * width + x + left] = img.gray[y * img.width + x] } }
    return PageImage(pageNumber: 1, width: width, height: height, dpi: img.dpi, gray: out)
}

struct PageFingerprintTests {
    let receipt = SyntheticReceipt().render(headerSeed: 7, bodySeed: 11)

    @Test func identicalImagesHaveDistanceZero() {
        let a = PageFingerprint(receipt)
        let b = PageFingerprint(receipt)
        #expect(a == b)
        #expect(a.distance(to: b) == 0)
        #expect(a.isSamePaper(as: b))
    }

    @Test(arguments: [0.5, 0.7, 1.5, 2.0])
    func scaledCopyIsTheSamePaper(scale: Double) {
        let a = PageFingerprint(receipt)
        let b = PageFingerprint(transform(receipt, scale: scale))
        #expect(a.isSamePaper(as: b), "scale \(scale): distance \(a.distance(to: b))")
    }

    @Test(arguments: [-3.0, -2.0, 2.0, 3.0])
    func rotatedCopyIsTheSamePaper(degrees: Double) {
        let a = PageFingerprint(receipt)
        let b = PageFingerprint(transform(receipt, degrees: degrees))
        #expect(a.isSamePaper(as: b), "\(degrees)°: distance \(a.distance(to: b))")
    }

    @Test func croppedCopyIsTheSamePaper() {
        let a = PageFingerprint(receipt)
        let b = PageFingerprint(crop(receipt, fraction: 0.03))
        #expect(a.isSamePaper(as: b), "distance \(a.distance(to: b))")
    }

    @Test func combinedChangesAreStillTheSamePaper() {
        let changed = adjust(crop(transform(receipt, scale: 0.8, degrees: 2), fraction: 0.02), gain: 0.85, offset: 20)
        let a = PageFingerprint(receipt)
        let b = PageFingerprint(changed)
        #expect(a.isSamePaper(as: b), "distance \(a.distance(to: b))")
    }

    @Test func brightnessAndContrastDoNotMatter() {
        let a = PageFingerprint(receipt)
        for (gain, offset) in [(0.8, 30.0), (1.2, -20.0), (0.9, 0.0)] {
            let b = PageFingerprint(adjust(receipt, gain: gain, offset: offset))
            #expect(a.isSamePaper(as: b), "gain \(gain) offset \(offset): distance \(a.distance(to: b))")
        }
    }

    @Test func receiptOnALargeSheetMatchesTheTightScan() {
        let sheet = onSheet(receipt, left: 700, top: 400, width: 2000, height: 2600)
        let a = PageFingerprint(receipt)
        let b = PageFingerprint(sheet)
        #expect(a.isSamePaper(as: b), "distance \(a.distance(to: b))")
    }

    @Test func differentReceiptsAreNotTheSamePaper() {
        let a = PageFingerprint(receipt)
        for seed in [UInt64(3), 5, 99] {
            let other = PageFingerprint(SyntheticReceipt().render(headerSeed: seed, bodySeed: seed &+ 1000))
            #expect(!a.isSamePaper(as: other), "seed \(seed): distance \(a.distance(to: other))")
        }
    }

    @Test func sameLetterheadDifferentItemsIsNotTheSamePaper() {
        let a = PageFingerprint(receipt)
        for body in [UInt64(12), 13, 14] {
            let other = PageFingerprint(SyntheticReceipt().render(headerSeed: 7, bodySeed: body))
            #expect(!a.isSamePaper(as: other), "body \(body): distance \(a.distance(to: other))")
        }
    }

    @Test func hexRoundTrips() {
        let a = PageFingerprint(receipt)
        #expect(a.hex.count == 132)
        #expect(PageFingerprint(hex: a.hex) == a)
        #expect(PageFingerprint(hex: a.hex.uppercased()) == a)
        #expect(PageFingerprint(hex: "") == nil)
        #expect(PageFingerprint(hex: String(a.hex.dropLast())) == nil)
        #expect(PageFingerprint(hex: String(a.hex.dropLast()) + "g") == nil)
        #expect(PageFingerprint(hex: "ff" + a.hex.dropFirst(2)) == nil) // unknown format version
    }

    @Test func codableRoundTrips() throws {
        let a = PageFingerprint(receipt)
        let data = try JSONEncoder().encode(a)
        #expect(try JSONDecoder().decode(PageFingerprint.self, from: data) == a)
    }

    @Test func blankAndTinyPagesDoNotCrash() {
        let blank = PageImage(pageNumber: 1, width: 300, height: 400, dpi: 100, gray: [UInt8](repeating: 255, count: 300 * 400))
        let tiny = PageImage(pageNumber: 1, width: 3, height: 2, dpi: 100, gray: [0, 255, 0, 255, 0, 255])
        #expect(PageFingerprint(blank).distance(to: PageFingerprint(blank)) == 0)
        #expect(PageFingerprint(tiny).hex.count == 132)
    }
}

struct PageSizeRuleTests {
    @Test func bigJPEGsAreDecodedSmallerButKeepHalfTheReadSize() {
        #expect(PageImage.decodeReduction(width: 4000, height: 3000) == 1) // 12 MP: whole
        #expect(PageImage.decodeReduction(width: 5000, height: 5000) == 1) // 25 MP: 1/2 would leave 6.25
        #expect(PageImage.decodeReduction(width: 4961, height: 7016) == 2) // 600-dpi A4: 8.7 MP
        #expect(PageImage.decodeReduction(width: 20000, height: 20000) == 4) // 400 MP: 1/8 would leave 6.25
    }

    @Test func halvingAveragesFourPixels() {
        let page = PageImage(
            pageNumber: 2, width: 5, height: 3, dpi: 300,
            gray: [
                0, 255, 10, 20, 99,
                255, 0, 30, 40, 99,
                7, 7, 7, 7, 7
            ])
        let half = page.halved()
        #expect(half.width == 2 && half.height == 1 && half.dpi == 150 && half.pageNumber == 2)
        #expect(half.gray == [128, 25])
    }

    @Test func scalingInterpolatesBetweenNeighbours() {
        let page = PageImage(pageNumber: 1, width: 2, height: 2, dpi: 150, gray: [0, 255, 0, 255])
        let double = page.scaled(by: 2)
        #expect(double.width == 4 && double.height == 4 && double.dpi == 300)
        #expect(Array(double.gray[0..<4]) == [0, 64, 191, 255])
        #expect(Array(double.gray[12..<16]) == [0, 64, 191, 255])
    }

    // Scaling rounds without libm's `round`, and must round exactly as `rounded()` did: a gray level moved
    // here and there changed SROIE totals once.
    @Test func scalingRoundsHalvesUpExactlyAsRoundedDid() {
        var generator = SplitMix64(seed: 7)
        var values: [Double] = [
            0, 0.5, 1.5, 2.5, 127.5, 254.5, 255, 0.49999999999999994, 1.4999999999999998,
            254.49999999999997, 2.5000000000000004, 0.5.nextDown, 0.5.nextUp
        ]
        for _ in 0..<100_000 { values.append(Double.random(in: 0..<256, using: &generator)) }
        for n in 0..<256 { values += [Double(n) + 0.5, (Double(n) + 0.5).nextDown, (Double(n) + 0.5).nextUp] }
        let wrong = values.filter { PageImage.clampedByte($0) != UInt8(min(255, Int($0.rounded()))) }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    // Scaling blends each source row across once and keeps it for the output rows that use it; every pixel
    // must still be exactly what blending its four source pixels at once gives (the arithmetic of the reads
    // that the devset's scores were measured with), up and down, on odd sizes.
    @Test func scaledRowsAreExactlyTheFourNeighbourBlend() {
        var generator = SplitMix64(seed: 11)
        for (width, height) in [(37, 23), (1, 9), (64, 1), (101, 77)] {
            let gray = (0..<width * height).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let page = PageImage(pageNumber: 1, width: width, height: height, dpi: 200, gray: gray)
            for factor in [0.5, 0.75, 1.25, 1.5, 2, 2.75, 4] {
                let (w, h) = page.scaledSize(by: factor)
                func source(_ i: Int, _ size: Int) -> (Int, Int, Double) {
                    let s = min(Double(size - 1), max(0, (Double(i) + 0.5) / factor - 0.5))
                    return (Int(s), min(size - 1, Int(s) + 1), s - Double(Int(s)))
                }
                var expected = [UInt8](repeating: 0, count: w * h)
                for y in 0..<h {
                    let (y0, y1, fy) = source(y, height)
                    for x in 0..<w {
                        let (x0, x1, fx) = source(x, width)
                        let upper = Double(gray[y0 * width + x0]) * (1 - fx) + Double(gray[y0 * width + x1]) * fx
                        let lower = Double(gray[y1 * width + x0]) * (1 - fx) + Double(gray[y1 * width + x1]) * fx
                        expected[y * w + x] = UInt8(min(255, Int((upper * (1 - fy) + lower * fy).rounded())))
                    }
                }
                #expect(page.scaled(by: factor).gray == expected, "\(width)×\(height) by \(factor)")
            }
        }
    }

    @Test func smallPrintIsScaledUpButNotPastTheReadSize() {
        #expect(PageImage.upscaleFactor(textHeight: 30) == nil)
        #expect(PageImage.upscaleFactor(textHeight: 15) == 2)
        #expect(PageImage.upscaleFactor(textHeight: 5) == 4)
        // 10-px text wants 3×: on an 8-megapixel page that would make 72 MP, so 1.25× (12.5 MP) it is; a
        // 12-megapixel photo cannot grow by a quarter within 16 MP, so it gets no scaled pass.
        #expect(PageImage.upscaleFactor(textHeight: 10, megapixels: 8) == 1.25)
        #expect(PageImage.upscaleFactor(textHeight: 10, megapixels: 12) == nil)
        #expect(PageImage.upscaleFactor(textHeight: 10, megapixels: 2) == 2.75)
    }
}
