public import ShoeboxCore

extension PageImage {
    /// The page turned clockwise by 90, 180 or 270 degrees (other values leave it as it is).
    public func rotated(clockwise degrees: Int) -> PageImage {
        let d = ((degrees % 360) + 360) % 360
        guard d == 90 || d == 180 || d == 270 else { return self }
        let (w, h) = d == 180 ? (width, height) : (height, width)
        var out = [UInt8](repeating: 255, count: w * h)
        for y in 0..<height {
            for x in 0..<width {
                let (nx, ny): (Int, Int)
                switch d {
                case 90: (nx, ny) = (height - 1 - y, x)
                case 180: (nx, ny) = (width - 1 - x, height - 1 - y)
                default: (nx, ny) = (y, width - 1 - x)
                }
                out[ny * w + nx] = gray[y * width + x]
            }
        }
        return PageImage(pageNumber: pageNumber, width: w, height: h, dpi: dpi, gray: out)
    }
}
