public import ShoeboxCore

extension PageImage {
    /// A phone screen's pixels made dark text on white, whatever the app's colours: each pixel by how far it is from
    /// its row's background (the row's commonest gray, or the last clear background where ink crowds the row). White text on a coloured banner, light text in dark mode and
    /// dark text on a light card all come out dark on white, which is what tesseract reads best (it reads white on a
    /// mid-tone banner not at all). The geometry is unchanged, so boxes stay where the screen shows them.
    public func flattenedScreen() -> PageImage {
        var out = [UInt8](repeating: 255, count: gray.count)
        var histogram = [Int](repeating: 0, count: 256)
        var settled: Int?
        gray.withUnsafeBufferPointer { g in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<height {
                    let row = y * width
                    for i in 0..<256 { histogram[i] = 0 }
                    for x in 0..<width { histogram[Int(g[row + x])] += 1 }
                    var background = 0
                    for i in 1..<256 where histogram[i] > histogram[background] { background = i }
                    // A row through dense bold text may hold more ink than background: where no gray fills most of
                    // the row, the background of the last row one did is kept while it still fills a fifth of this one.
                    if histogram[background] * 10 >= width * 6 {
                        settled = background
                    } else if let s = settled, histogram[s] * 5 >= width {
                        background = s
                    }
                    for x in 0..<width {
                        let distance = abs(Int(g[row + x]) - background) * PageImage.flatteningContrast
                        o[row + x] = UInt8(255 - min(255, distance))
                    }
                    // A run of ink wider than any letter's stroke is a shape (an icon's disc, a rule, a card's edge):
                    // left as background, so the page's layout analysis takes the text beside it for text.
                    let widest = max(8, width / PageImage.strokeWidthShare)
                    var x = 0
                    while x < width {
                        guard o[row + x] < 128 else {
                            x += 1
                            continue
                        }
                        var end = x
                        while end < width && o[row + end] < 128 { end += 1 }
                        if end - x > widest { for k in x..<end { o[row + k] = 255 } }
                        x = end
                    }
                }
            }
        }
        return PageImage(pageNumber: pageNumber, width: width, height: height, dpi: dpi, gray: out)
    }

    /// How much a gray step from the background darkens: a text stroke 85 levels from its background is black.
    static let flatteningContrast = 3
    /// The widest run of ink a letter makes, as a share of the page's width (1/16: 67 pixels of a 1080-pixel screen,
    /// wider than the bar of a 96-pixel bold "T").
    static let strokeWidthShare = 16
}
