public import ShoeboxCore

extension PageImage {
    /// A phone screen's pixels made dark text on white, whatever the app's colours: each pixel by how far it is from
    /// its row's background (the row's commonest gray). White text on a coloured banner, light text in dark mode and
    /// dark text on a light card all come out dark on white, which is what tesseract reads best (it reads white on a
    /// mid-tone banner not at all). The geometry is unchanged, so boxes stay where the screen shows them.
    public func flattenedScreen() -> PageImage {
        var out = [UInt8](repeating: 255, count: gray.count)
        var histogram = [Int](repeating: 0, count: 256)
        gray.withUnsafeBufferPointer { g in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<height {
                    let row = y * width
                    for i in 0..<256 { histogram[i] = 0 }
                    for x in 0..<width { histogram[Int(g[row + x])] += 1 }
                    var background = 0
                    for i in 1..<256 where histogram[i] > histogram[background] { background = i }
                    for x in 0..<width {
                        let distance = abs(Int(g[row + x]) - background) * PageImage.flatteningContrast
                        o[row + x] = UInt8(255 - min(255, distance))
                    }
                }
            }
        }
        return PageImage(pageNumber: pageNumber, width: width, height: height, dpi: dpi, gray: out)
    }

    /// How much a gray step from the background darkens: a text stroke 85 levels from its background is black.
    static let flatteningContrast = 3
}
