import Testing

@testable import ShoeboxCore

/// The pure checks behind issue 15's classes 7 and 14: a PDF's end, a TIFF directory, sizes.
struct HostileInputTests {
    let pdf = Array("%PDF-1.4\n1 0 obj\n<</Type/Catalog>>\nendobj\ntrailer\n<</Root 1 0 R>>\n%%EOF\n".utf8)

    /// Before: more than 2 KB after %%EOF was "truncated".
    @Test func bytesAfterTheEndOfAPDFAreNoTruncationButAnUpdateCutOffIs() {
        var generator = SplitMix64(seed: 7)
        let noise = (0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(FileKind.isComplete(pdf, kind: .pdf))
        #expect(FileKind.isComplete(pdf + noise, kind: .pdf))
        #expect(FileKind.isComplete(pdf + [UInt8](repeating: 0, count: 1 << 20), kind: .pdf))
        #expect(!FileKind.isComplete(Array(pdf.prefix(40)), kind: .pdf))
        #expect(!FileKind.isComplete(pdf + Array("2 0 obj\n<</Type/Page".utf8) + [UInt8](repeating: 0x20, count: 3000), kind: .pdf))
        #expect(!FileKind.isComplete(pdf + [UInt8](repeating: 0x20, count: 3000) + Array("xref\n0 3\n".utf8), kind: .pdf))
        #expect(!FileKind.isComplete([], kind: .pdf))
    }

    /// A TIFF of one directory: `entries` as (tag, type, count, value), little- or big-endian.
    func tiff(_ entries: [(Int, Int, Int, Int)], little: Bool = true) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { little ? [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] : [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { little ? u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) : u16(v >> 16 & 0xFFFF) + u16(v & 0xFFFF) }
        var b: [UInt8] = (little ? Array("II".utf8) : Array("MM".utf8)) + u16(42) + u32(8) + u16(entries.count)
        for (tag, type, count, value) in entries {
            b += u16(tag) + u16(type) + u32(count) + (type == 3 ? u16(value) + u16(0) : u32(value))
        }
        return b + u32(0)
    }

    @Test func aTIFFDirectoryNamesWhatLeptonicaDoesNotRead() {
        let float = TIFFLayout.read(
            tiff([(256, 4, 1, 100), (257, 4, 1, 50), (258, 3, 1, 32), (277, 3, 1, 1), (339, 3, 1, 3)], little: false), page: 0)
        #expect(float == TIFFLayout(width: 100, height: 50, bitsPerSample: 32, samplesPerPixel: 1, sampleFormat: 3))
        #expect(float?.unsupportedName == "TIFF of 32-bit floating-point gray")
        let grayAlpha = TIFFLayout.read(tiff([(256, 3, 1, 10), (257, 3, 1, 10), (258, 3, 2, 0x0010_0010), (277, 3, 1, 2)]), page: 0)
        #expect(grayAlpha?.unsupportedName == "TIFF of 16-bit gray with an alpha channel")
        #expect(TIFFLayout.read(tiff([(256, 4, 1, 10), (258, 3, 1, 8)]), page: 0)?.unsupportedName == nil)
        let huge = TIFFLayout.read(tiff([(256, 4, 1, 0xFFFF_FFFF), (257, 4, 1, 0xFFFF_FFFF)]), page: 0)
        #expect(huge?.width == 4_294_967_295 && !PageGeometry.fits(width: huge!.width, height: huge!.height, megapixels: 60))
        #expect(TIFFLayout.read(tiff([(256, 4, 1, 10)]), page: 1) == nil, "there is no second page")
        #expect(TIFFLayout.read(Array(tiff([(256, 4, 1, 10)]).prefix(12)), page: 0) == nil, "a directory cut short")
        #expect(TIFFLayout.read([0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0x7F], page: 0) == nil, "a directory beyond the file")
    }
}
