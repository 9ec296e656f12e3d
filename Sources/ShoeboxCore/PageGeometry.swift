/// Sizes read from files are untrusted: a PDF can declare a page of 1e30 points or an image of 2^31 × 2^31
/// pixels. Every conversion from such a size to pixels goes through here, so none traps (a Double too large for
/// an Int, a product that overflows) and none reaches an allocation.
public enum PageGeometry {
    /// The largest side of a PDF page, in points: 200 inches, the limit of the PDF format (ISO 32000-1, annex C).
    static let largestPagePoints = 14_400.0

    /// True when `points` is a page side a real page can have: finite, at least 1 point, at most
    /// `largestPagePoints` (with a little room for rounding).
    public static func isBelievable(points: Double) -> Bool {
        points.isFinite && points >= 1 && points <= largestPagePoints * 1.001
    }

    /// A page side of `points` in pixels at `dpi`: ceil(points × dpi / 72), nil when it is not a finite number of
    /// pixels that fits an `Int32` (cairo's surface sizes).
    public static func pixels(_ points: Double, dpi: Int) -> Int? {
        let value = (points * Double(dpi) / 72 - 1e-6).rounded(.up)
        guard value.isFinite, value >= 0, value <= Double(Int32.max) else { return nil }
        return Int(value)
    }

    /// `value` as an Int, clamped into ±2^24 (NaN is 0): for coordinates of boxes and figures read from a file,
    /// where a hostile value must not trap. 2^24 pixels is far beyond any page (14,400 points at 1,200 dpi is
    /// 240,000), and small enough that products and sums of such figures cannot overflow either.
    public static func clamped(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        return Int(min(max(value, -0x1p24), 0x1p24))
    }

    /// No page is read above this many megapixels, whatever the pipeline's maxMegapixels says: a gigapixel of gray
    /// is a gigabyte, and poppler aborts on images of a few gigapixels.
    static let largestMegapixels = 1_000

    /// True when `width` × `height` pixels are within `megapixels` million (and `largestMegapixels`): checked
    /// arithmetic, so sizes of any magnitude (and negative ones, which never fit) give an answer instead of a trap.
    public static func fits(width: Int, height: Int, megapixels: Int) -> Bool {
        guard width >= 0, height >= 0, megapixels >= 0 else { return false }
        let area = width.multipliedReportingOverflow(by: height)
        return !area.overflow && area.partialValue <= min(megapixels, largestMegapixels) * 1_000_000
    }

    /// A declared size for a message: whole numbers as they are, others in %g.
    static func describe(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "infinity" : "-infinity" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}
