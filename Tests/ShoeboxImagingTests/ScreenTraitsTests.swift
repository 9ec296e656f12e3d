import Testing

@testable import ShoeboxCore
@testable import ShoeboxImaging

/// Issue 52: a phone's screen told from paper by its pixels, and its app colours taken away before it is read.
struct ScreenTraitsTests {
    /// A 1080 × 2340 page: `background`, a band of `band` gray over rows 100–299, and "text" strokes of `ink`.
    func page(background: UInt8, band: UInt8?, ink: UInt8, grain: Bool = false, width: Int = 1080, height: Int = 2340) -> PageImage {
        var g = [UInt8](repeating: background, count: width * height)
        var seed: UInt32 = 7
        for y in 0..<height {
            for x in 0..<width {
                var v = band != nil && (100..<300).contains(y) ? band! : background
                if y % 60 < 20 && x % 40 < 8 && x > 100 && x < 900 { v = ink }
                if grain {
                    seed = seed &* 1_103_515_245 &+ 12345
                    v = UInt8(clamping: Int(v) + Int(seed >> 29) - 3)
                }
                g[y * width + x] = v
            }
        }
        return PageImage(pageNumber: 1, width: width, height: height, dpi: 300, gray: g)
    }

    func traits(_ p: PageImage) -> ScreenTraits { ScreenTraits.measure(gray: p.gray, width: p.width, height: p.height) }

    @Test func anAppsFlatColoursAtAPhonesShapeAreAScreen() {
        #expect(traits(page(background: 243, band: 74, ink: 20)).looksLikeScreen, "light mode with a coloured header")
        #expect(traits(page(background: 18, band: nil, ink: 237)).looksLikeScreen, "dark mode")
    }

    @Test func paperIsNoScreen() {
        // Clean black on white (a rendered receipt), paper with grain, and a screen's colours at an A4 page's shape.
        #expect(!traits(page(background: 255, band: nil, ink: 10)).looksLikeScreen)
        #expect(!traits(page(background: 236, band: 74, ink: 10, grain: true)).looksLikeScreen)
        #expect(!traits(page(background: 243, band: 74, ink: 20, width: 1240, height: 1754)).looksLikeScreen)
        #expect(!ScreenTraits.measure(gray: [], width: 0, height: 0).looksLikeScreen, "no pixels")
    }

    @Test func flatteningMakesAnyAppTextDarkOnWhite() {
        // White text on a mid-gray banner, and light text in dark mode: dark on white once flattened.
        let banner = page(background: 243, band: 113, ink: 255).flattenedScreen()
        let onBanner = 120 * 1080 + 120 // a stroke inside the band
        #expect(banner.gray[onBanner] < 60)
        #expect(banner.gray[150 * 1080 + 50] == 255, "the banner itself is background")
        let dark = page(background: 18, band: nil, ink: 237).flattenedScreen()
        #expect(dark.gray[1020 * 1080 + 120] < 60 && dark.gray[1020 * 1080 + 50] == 255)
        #expect(dark.width == 1080 && dark.height == 2340)
    }
}
