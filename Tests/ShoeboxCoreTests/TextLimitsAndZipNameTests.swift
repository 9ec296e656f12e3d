import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxExport
@testable import ShoeboxParsing
@testable import ShoeboxReading

/// Issue 15, classes 2 and 5, in the pure core: the zip name rule and the text limits.
struct ZipNameTests {
    func hash8(_ s: String) -> String { String(SHA256.hex(of: Array(s.utf8)).prefix(8)) }

    @Test func aNameThatIsSafeAsItStandsIsKept() {
        #expect(ExportNaming.zipStem(forFolder: "office-supplies") == "office-supplies")
        #expect(ExportNaming.zipStem(forFolder: "Bäckerei") == "Bäckerei")
        #expect(ExportNaming.zipStem(forFolder: "") == "unsorted")
    }

    @Test func aNameThatSanitisingChangedOrThatIsReservedGetsTheHashOfTheExactName() {
        #expect(ExportNaming.zipStem(forFolder: "trip:1") == "trip1_" + hash8("trip:1"))
        #expect(ExportNaming.zipStem(forFolder: "trip1") == "trip1")
        #expect(ExportNaming.zipStem(forFolder: "2026 berlin") == "2026-berlin_" + hash8("2026 berlin"))
        #expect(ExportNaming.zipStem(forFolder: "unsorted") == "unsorted_" + hash8("unsorted"))
        #expect(ExportNaming.zipStem(forFolder: "Unsorted") == "Unsorted_" + hash8("Unsorted"))
        #expect(ExportNaming.zipStem(forFolder: "CON") == "CON_" + hash8("CON"))
        #expect(ExportNaming.zipStem(forFolder: "lpt1") == "lpt1_" + hash8("lpt1"))
        #expect(ExportNaming.zipStem(forFolder: "???") == "unknown_" + hash8("???"))
        // A plain name never holds "_", so it cannot take the name a hashed one has.
        #expect(ExportNaming.zipStem(forFolder: "trip1_" + hash8("trip:1")) != ExportNaming.zipStem(forFolder: "trip:1"))
    }

    @Test func namesAlikeInTheirFirst80CharactersOrTooManyBytesStayApartAndShort() {
        let a = String(repeating: "a", count: 80)
        #expect(ExportNaming.zipStem(forFolder: a + "x") != ExportNaming.zipStem(forFolder: a + "y"))
        #expect(ExportNaming.zipStem(forFolder: a) == a)
        // 85 CJK characters are 255 bytes, the most a file name may hold: the zip's name stays well under it.
        let cjk = String(repeating: "領", count: 85)
        let stem = ExportNaming.zipStem(forFolder: cjk)
        #expect(stem.utf8.count <= ExportNaming.maxZipStemBytes + 9)
        #expect(stem.hasSuffix("_" + hash8(cjk)))
    }

    @Test func foldersThatDifferOnlyInCaseBothGetTheirHashWhateverTheOrder() {
        func stems(_ folders: [String]) -> [String: String] {
            let byBytes = ExportNaming.zipStems(forFolders: folders)
            return Dictionary(uniqueKeysWithValues: byBytes.map { ($0.key.map { String(format: "%02x", $0) }.joined(), $0.value) })
        }
        func key(_ s: String) -> String { s.utf8.map { String(format: "%02x", $0) }.joined() }
        let s = stems(["Trip", "office", "trip", ""])
        #expect(s[key("Trip")] == "Trip_" + hash8("Trip"))
        #expect(s[key("trip")] == "trip_" + hash8("trip"))
        #expect(s[key("office")] == "office")
        #expect(s[key("")] == "unsorted")
        #expect(stems(["trip", "Trip", "", "office"]) == s, "the same names whatever the order")
        // Without its twin, the folder keeps its plain name.
        #expect(stems(["trip", "office"])[key("trip")] == "trip")
        let all = stems(["trip1", "trip:1", "unsorted", "", "Trip1"])
        #expect(Set(all.values.map { $0.lowercased() }).count == 5, "\(all)")
        // "café" composed and decomposed: two folders on Linux, one name on a Mac; each gets its own hash.
        let nfc = "caf\u{E9}"
        let nfd = "cafe\u{301}"
        let cafe = stems([nfc, nfd])
        #expect(cafe.count == 2)
        #expect(cafe[key(nfc)] == nfc + "_" + hash8(nfc))
        #expect(cafe[key(nfd)] == nfd + "_" + hash8(nfd))
    }
}

struct TextLimitsTests {
    @Test func overLongOrMultiLineValuesAreRefusedWithTheLimitNamed() {
        #expect(TextLimits.problem(field: "referenceNumber", value: String(repeating: "7", count: 100)) == nil)
        #expect(
            TextLimits.problem(field: "referenceNumber", value: String(repeating: "7", count: 101))
                == "a referenceNumber is at most 100 characters; this one has 101. Type a shorter one.")
        #expect(TextLimits.problem(field: "merchant", value: String(repeating: "m", count: 201))?.contains("at most 200 characters") == true)
        #expect(TextLimits.problem(field: "merchant", value: "REWE\nMarkt")?.contains("one line") == true)
        #expect(TextLimits.problem(field: "merchant", value: "RE\u{0}WE")?.contains("control characters") == true)
        #expect(TextLimits.problem(field: "note", value: "two\nlines") == nil)
        #expect(TextLimits.problem(field: "note", value: "nul\u{0}") != nil)
        #expect(TextLimits.problem(field: "total", value: String(repeating: "1", count: 5000)) == nil, "not a text field: its own parser decides")
    }

    @Test func aSidecarsOverLongValuesAreNamedAndLeftOut() {
        let json = try! JSONSerialization.data(withJSONObject: [
            "referenceNumber": String(repeating: "R", count: 40_000), "merchant": "REWE", "category": "c\u{1B}[31m",
            "note": String(repeating: "n", count: 1_001)
        ])
        let s = Sidecar.parse(Array(json), today: CalendarDay(year: 2026, month: 11, day: 30)!)
        #expect(s.referenceNumber == nil)
        #expect(s.category == nil)
        #expect(s.merchant == "REWE")
        #expect(s.problems.count == 3, "\(s.problems)")
        #expect(s.problems.contains { $0.hasPrefix("'referenceNumber' refused: a referenceNumber is at most 100 characters; this one has 40000") })
    }

    @Test func anOverLongCellIsCutWithAMarkerWithinTheSpreadsheetLimit() {
        #expect(TextLimits.cell("short") == "short")
        let exact = String(repeating: "x", count: 32_766)
        #expect(TextLimits.cell(exact) == exact)
        let cut = TextLimits.cell(String(repeating: "x", count: 40_000))
        #expect(cut.unicodeScalars.count == 32_766)
        #expect(cut.hasSuffix("…[truncated]"))
        #expect(("'" + cut).unicodeScalars.count <= TextLimits.spreadsheetCell, "room for the apostrophe before a would-be formula")
        // Characters of several scalars (a flag is two) are never split; the limit counts scalars, as Excel does.
        let flags = TextLimits.cell(String(repeating: "🇩🇪", count: 20_000))
        #expect(flags.unicodeScalars.count <= 32_766)
        #expect(flags.dropLast("…[truncated]".count).allSatisfy { $0 == "🇩🇪" })
    }
}
