import Testing

@testable import ShoeboxCore

struct MoneyTests {
    @Test func decimalStringComesFromMinorUnits() {
        #expect(Money(minorUnits: 2345, currency: .eur).decimalString == "23.45")
        #expect(Money(minorUnits: -50, currency: .eur).decimalString == "-0.50")
        #expect(Money(minorUnits: 7, currency: .usd).decimalString == "0.07")
        #expect(Money(minorUnits: 1500, currency: CurrencyCode("JPY")!).decimalString == "1500")
        #expect(Money(minorUnits: 1234, currency: CurrencyCode("KWD")!).decimalString == "1.234")
    }

    @Test func parsesPlainDecimalsExactly() {
        #expect(Money(decimal: "23.45", currency: .eur)?.minorUnits == 2345)
        #expect(Money(decimal: "23.4", currency: .eur)?.minorUnits == 2340)
        #expect(Money(decimal: "7", currency: .eur)?.minorUnits == 700)
        #expect(Money(decimal: "-0.01", currency: .eur)?.minorUnits == -1)
        // 0.1 + 0.2 style drift cannot happen: no floating point on the way.
        #expect(Money(decimal: "1000000.10", currency: .eur)?.minorUnits == 100_000_010)
    }

    @Test func refusesWhatIsNotAnAmount() {
        #expect(Money(decimal: "23.456", currency: .eur) == nil)
        #expect(Money(decimal: "1,50", currency: .eur) == nil)
        #expect(Money(decimal: "", currency: .eur) == nil)
        #expect(Money(decimal: "12.", currency: .eur) == nil)
        #expect(Money(decimal: "abc", currency: .eur) == nil)
        #expect(Money(decimal: "99999999999999999999", currency: .eur) == nil)
    }

    @Test func addsOnlyTheSameCurrency() {
        let a = Money(minorUnits: 100, currency: .eur)
        let b = Money(minorUnits: 250, currency: .eur)
        #expect((a + b)?.minorUnits == 350)
        #expect(a + Money(minorUnits: 1, currency: .usd) == nil)
    }

    @Test func currencyCodesAreThreeLetters() {
        #expect(CurrencyCode("eur")?.code == "EUR")
        #expect(CurrencyCode("EU") == nil)
        #expect(CurrencyCode("E1R") == nil)
    }
}

struct CalendarDayTests {
    @Test func rejectsDaysThatDoNotExist() {
        #expect(CalendarDay(year: 2026, month: 2, day: 29) == nil)
        #expect(CalendarDay(year: 2024, month: 2, day: 29) != nil)
        #expect(CalendarDay(year: 1900, month: 2, day: 29) == nil)
        #expect(CalendarDay(year: 2000, month: 2, day: 29) != nil)
        #expect(CalendarDay(year: 2026, month: 4, day: 31) == nil)
        #expect(CalendarDay(year: 2026, month: 13, day: 1) == nil)
        #expect(CalendarDay(year: 2026, month: 0, day: 1) == nil)
    }

    @Test func isoRoundTrip() {
        let d = CalendarDay(iso: "2026-03-04")
        #expect(d?.iso == "2026-03-04")
        #expect(CalendarDay(iso: "2026-3-4") == nil)
        #expect(CalendarDay(iso: "2026-02-30") == nil)
    }

    @Test func dayArithmeticCrossesMonthsAndLeapYears() {
        #expect(CalendarDay(year: 1970, month: 1, day: 1)!.daysSinceEpoch == 0)
        #expect(CalendarDay(year: 2024, month: 2, day: 28)!.adding(days: 1).iso == "2024-02-29")
        #expect(CalendarDay(year: 2026, month: 12, day: 31)!.adding(days: 1).iso == "2027-01-01")
        #expect(CalendarDay(year: 2026, month: 3, day: 1)!.adding(days: -1).iso == "2026-02-28")
        #expect(CalendarDay(year: 2026, month: 1, day: 2)! > CalendarDay(year: 2025, month: 12, day: 31)!)
    }
}

struct SHA256Tests {
    @Test func knownDigests() {
        #expect(SHA256.hex(of: [UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // Two blocks.
        #expect(
            SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex(of: [UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func piecesOfAnySizeGiveTheSameDigest() {
        var generator = SplitMix64(seed: 7)
        let bytes = (0..<10_007).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let whole = SHA256.hex(of: bytes)
        for piece in [1, 3, 63, 64, 65, 1000] {
            var h = SHA256()
            var i = 0
            while i < bytes.count {
                h.update(bytes[i..<min(bytes.count, i + piece)])
                i += piece
            }
            #expect(h.finalizeHex() == whole, "pieces of \(piece)")
        }
        // A collection without contiguous storage goes the copying way.
        #expect(SHA256.hex(of: AnyCollection(bytes)) == whole)
    }
}

struct FileKindTests {
    @Test func sniffsByContentNotName() {
        #expect(FileKind.sniff(Array("%PDF-1.7\n".utf8)) == .pdf)
        #expect(FileKind.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(FileKind.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
        #expect(FileKind.sniff([0x49, 0x49, 0x2A, 0x00]) == .tiff)
        #expect(FileKind.sniff(Array("hello, this is text".utf8)) == nil)
        #expect(FileKind.sniff([UInt8]()) == nil)
    }

    @Test func xmlIsSniffedByItsFirstBytesWithOrWithoutDeclarationOrByteOrderMark() {
        #expect(FileKind.sniff(Array("<?xml version='1.0'?>".utf8)) == .xml)
        #expect(FileKind.sniff([0xEF, 0xBB, 0xBF] + Array("<?xml version".utf8)) == .xml)
        #expect(FileKind.sniff(Array("\n  <rsm:CrossIndustryInvoice".utf8)) == .xml)
        #expect(FileKind.sniff([0xFF, 0xFE, 0x3C, 0x00, 0x3F, 0x00]) == .xml)
        #expect(FileKind.sniff(Array("<!-- a comment".utf8)) == nil)
        #expect(FileKind.sniff(Array("< 3 is less".utf8)) == nil)
        #expect(FileKind.sniff(Array("<?php echo".utf8)) == nil)
    }

    @Test func detectsTruncatedFiles() {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 1, count: 100)
        #expect(!FileKind.isComplete(jpeg, kind: .jpeg))
        #expect(FileKind.isComplete(jpeg + [0xFF, 0xD9], kind: .jpeg))
        #expect(!FileKind.isComplete(Array("%PDF-1.4\n1 0 obj".utf8), kind: .pdf))
        #expect(FileKind.isComplete(Array("%PDF-1.4\n1 0 obj\n%%EOF\n".utf8), kind: .pdf))
    }

    @Test func folderIsTheFirstPathComponent() {
        #expect(SourceFile.folder(of: "2026-03-berlin-trip/IMG_0412.jpg") == "2026-03-berlin-trip")
        #expect(SourceFile.folder(of: "medical/2026/x.pdf") == "medical")
        #expect(SourceFile.folder(of: "loose.pdf") == "")
    }
}
