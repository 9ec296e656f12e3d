import Testing

@testable import ShoeboxCore
@testable import ShoeboxExport

struct CSVWriterTests {
    @Test func writesCRLFAndQuotesOnlyWhatNeedsIt() throws {
        var csv = CSVWriter(header: ["merchant", "total"])
        try csv.append(["REWE Markt GmbH", "23.45"])
        try csv.append(["Smith, Jones & Co", "1.00"])
        try csv.append(["The \"Best\" Café", "2.00"])
        try csv.append(["two\nlines", "3.00"])
        try csv.append(["", "4.00"])
        #expect(
            csv.text
                == "merchant,total\r\nREWE Markt GmbH,23.45\r\n\"Smith, Jones & Co\",1.00\r\n\"The \"\"Best\"\" Café\",2.00\r\n\"two\nlines\",3.00\r\n,4.00\r\n"
        )
    }

    @Test func refusesRowsOfTheWrongWidth() {
        var csv = CSVWriter(header: ["a", "b"])
        #expect(throws: CSVWriter.RowError.self) { try csv.append(["only one"]) }
    }

    @Test func crAloneIsQuoted() {
        #expect(CSVWriter.field("a\rb") == "\"a\rb\"")
        #expect(CSVWriter.field("plain") == "plain")
    }
}

struct ExportNamingTests {
    @Test func sanitisesButKeepsUnicode() {
        #expect(ExportNaming.sanitize("Bäckerei Sonnenschein GmbH") == "Bäckerei-Sonnenschein-GmbH")
        #expect(ExportNaming.sanitize("../../etc/passwd") == "etcpasswd")
        #expect(ExportNaming.sanitize("a\u{0}b\u{7}c") == "abc")
        #expect(ExportNaming.sanitize("///") == "unknown")
        #expect(ExportNaming.sanitize(String(repeating: "x", count: 100)).count == 40)
    }

    @Test func namesFromRecord() {
        var r = DocumentRecord(source: "a/b.jpg", folder: "a", sha256: "x", status: .accepted)
        r.date = CalendarDay(iso: "2026-03-14")
        r.merchant = "REWE Markt GmbH"
        r.total = Money(minorUnits: 2345, currency: .eur)
        #expect(ExportNaming.baseName(for: r) == "2026-03-14_REWE-Markt-GmbH_23.45-EUR")
    }

    @Test func collisionsGetSuffixes() {
        let names = ExportNaming.uniqueNames([("x", "jpg"), ("x", "jpg"), ("X", "jpg"), ("x", "pdf")])
        #expect(names == ["x.jpg", "x_2.jpg", "X_3.jpg", "x.pdf"])
    }
}
