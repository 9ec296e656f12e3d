/// What a TIFF page declares about its pixels, read from its directory (IFD) without decoding anything: its size
/// (as unsigned 32-bit numbers, which leptonica's signed ones cannot hold) and how its samples are stored. Used to
/// refuse a page too large before decoding it, and to name a format that leptonica does not decode (16-bit gray
/// with alpha, floating-point samples) instead of calling it damaged.
public struct TIFFLayout: Equatable, Sendable {
    public var width = 0
    public var height = 0
    var bitsPerSample = 1
    var samplesPerPixel = 1
    /// 1 unsigned integers, 2 signed integers, 3 IEEE floating point (tag 339).
    var sampleFormat = 1

    init(width: Int = 0, height: Int = 0, bitsPerSample: Int = 1, samplesPerPixel: Int = 1, sampleFormat: Int = 1) {
        self.width = width
        self.height = height
        self.bitsPerSample = bitsPerSample
        self.samplesPerPixel = samplesPerPixel
        self.sampleFormat = sampleFormat
    }

    /// The layout of page `page` (0-based), or nil when the directories cannot be followed to it.
    public static func read(_ bytes: [UInt8], page: Int) -> TIFFLayout? {
        guard bytes.count >= 8, page >= 0 else { return nil }
        let little: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at <= bytes.count - 2 else { return nil }
            let a = Int(bytes[at])
            let b = Int(bytes[at + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, var ifd = u32(4) else { return nil }
        // `page` steps at most, so a loop of directories ends too.
        for _ in 0..<page {
            guard let n = u16(ifd), let next = u32(ifd + 2 + 12 * n), next != 0 else { return nil }
            ifd = next
        }
        guard let entries = u16(ifd) else { return nil }
        var layout = TIFFLayout()
        for i in 0..<entries {
            let e = ifd + 2 + 12 * i
            guard let tag = u16(e), let type = u16(e + 2), let count = u32(e + 4) else { return nil }
            // The first value: in the entry when it fits its 4 bytes, else at the offset the entry holds.
            let size = type == 3 ? 2 : type == 4 ? 4 : 0
            guard size > 0, count >= 1 else { continue }
            let at = size * count <= 4 ? e + 8 : (u32(e + 8) ?? -1)
            guard let value = size == 2 ? u16(at) : u32(at) else { continue }
            switch tag {
            case 256: layout.width = value
            case 257: layout.height = value
            case 258: layout.bitsPerSample = value
            case 277: layout.samplesPerPixel = value
            case 339: layout.sampleFormat = value
            default: break
            }
        }
        return layout
    }

    /// The format's name when it is one leptonica does not decode ("TIFF of 32-bit floating-point samples"),
    /// nil for one it decodes (a page of such a layout that does not decode is damaged).
    public var unsupportedName: String? {
        let channels =
            samplesPerPixel == 2
            ? " gray with an alpha channel"
            : samplesPerPixel == 4
                ? " colour with an alpha channel"
                : samplesPerPixel == 3 ? " colour" : samplesPerPixel == 1 ? " gray" : " with \(samplesPerPixel) samples a pixel"
        if sampleFormat == 3 { return "TIFF of \(bitsPerSample)-bit floating-point\(channels)" }
        if sampleFormat == 2 { return "TIFF of signed \(bitsPerSample)-bit\(channels)" }
        if ![1, 2, 4, 8, 16].contains(bitsPerSample) { return "TIFF of \(bitsPerSample)-bit\(channels)" }
        if bitsPerSample == 16 && samplesPerPixel != 1 { return "TIFF of 16-bit\(channels)" }
        if samplesPerPixel == 2 || samplesPerPixel > 4 { return "TIFF of \(bitsPerSample)-bit\(channels)" }
        return nil
    }
}
