import Foundation

/// A perceptual fingerprint of a page image: recognises "the same paper scanned or photographed again"
/// (rescaled, re-encoded, rotated a few degrees, cropped a little, lighter or darker) and is compact enough
/// to store as a hex string. Computed from a page by ShoeboxImaging (`PageFingerprint(image)`).
///
/// `distance` is the sum of both Hamming distances (0…510) plus a penalty when the aspect ratios disagree by
/// more than ≈ 15 %. Its limits: a crop that cuts printed text off a tightly cropped scan, receipts on dark
/// backgrounds, and same-shop receipts with the same layout (distance down to 36) — combine with the OCR'd date
/// and total before calling two pages one paper.
public struct PageFingerprint: Sendable, Hashable, Codable {
    /// Format of `hex`; bump when the computation changes so stored fingerprints are recomputed.
    static let formatVersion: UInt8 = 1
    /// `isSamePaper` holds at or below this distance: on real receipts rescanned, rotated, cropped, re-encoded or
    /// relit, few different receipts come this close (see the tests).
    public static let sameThreshold = 150

    /// log2(height / width) of the deskewed content box × 32, offset 128.
    let aspect: UInt8
    /// 256 bits (the last one always 0): DCT hash of the whole content box.
    let whole: [UInt64]
    /// 256 bits (the last one always 0): DCT hash of the lower part of the content box.
    let lower: [UInt64]

    public init(aspect: UInt8, whole: [UInt64], lower: [UInt64]) {
        precondition(whole.count == Self.words && lower.count == Self.words, "PageFingerprint: 4 words per hash")
        self.aspect = aspect
        self.whole = whole
        self.lower = lower
    }

    static let words = 4

    /// Hamming distance of the whole-box hashes (0…255).
    func wholeDistance(to other: PageFingerprint) -> Int { Self.hamming(whole, other.whole) }
    /// Hamming distance of the lower-part hashes (0…255).
    func lowerDistance(to other: PageFingerprint) -> Int { Self.hamming(lower, other.lower) }
    /// Difference of the aspect bytes (32 per factor of two).
    func aspectDifference(to other: PageFingerprint) -> Int { abs(Int(aspect) - Int(other.aspect)) }

    /// Aspect differences up to this many steps (≈ 15 %) are free; each step beyond costs `aspectPenalty`.
    static let aspectTolerance = 6
    static let aspectPenalty = 8

    /// 0 for identical fingerprints; unrelated pages land near 255.
    public func distance(to other: PageFingerprint) -> Int {
        let excess = max(0, aspectDifference(to: other) - Self.aspectTolerance)
        return wholeDistance(to: other) + lowerDistance(to: other) + excess * Self.aspectPenalty
    }

    func isSamePaper(as other: PageFingerprint) -> Bool { distance(to: other) <= Self.sameThreshold }

    static func hamming(_ a: [UInt64], _ b: [UInt64]) -> Int {
        var d = 0
        for i in 0..<min(a.count, b.count) { d += (a[i] ^ b[i]).nonzeroBitCount }
        return d
    }

    // MARK: hex

    /// Version byte, aspect byte, then the two hashes: 132 lowercase hex digits.
    public var hex: String {
        var bytes: [UInt8] = [Self.formatVersion, aspect]
        for w in whole + lower { for s in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: w >> UInt64(s))) } }
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public init?(hex: String) {
        let chars = Array(hex.utf8)
        guard chars.count == 2 * (2 + 16 * Self.words) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(chars.count / 2)
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        for i in stride(from: 0, to: chars.count, by: 2) {
            guard let hi = nibble(chars[i]), let lo = nibble(chars[i + 1]) else { return nil }
            bytes.append(hi << 4 | lo)
        }
        guard bytes[0] == Self.formatVersion else { return nil }
        var words: [UInt64] = []
        for w in 0..<(2 * Self.words) {
            var v: UInt64 = 0
            for k in 0..<8 { v = v << 8 | UInt64(bytes[2 + w * 8 + k]) }
            words.append(v)
        }
        self.init(aspect: bytes[1], whole: Array(words[0..<Self.words]), lower: Array(words[Self.words...]))
    }
}
