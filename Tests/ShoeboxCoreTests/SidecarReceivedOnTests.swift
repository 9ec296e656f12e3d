import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement
@testable import ShoeboxParsing
@testable import ShoeboxReading

/// A sidecar's `receivedOn`: the day a letter arrived, what a fine's windows count from; a malformed one is a problem
/// naming its line, and the record says why its sidecar was not taken whole.
struct SidecarReceivedOnTests {
    @Test func aDayWrittenYearFirstIsTaken() {
        let s = Sidecar.parse(Array(#"{"receivedOn": "2026-03-02"}"#.utf8), today: today)
        #expect(s.receivedOn == CalendarDay(year: 2026, month: 3, day: 2) && s.problems.isEmpty)
    }

    @Test func aMalformedDayIsAProblemWithItsLine() {
        let text = "{\n  \"note\": \"Strafzettel\",\n  \"receivedOn\": \"02.03.2026\"\n}"
        let s = Sidecar.parse(Array(text.utf8), today: today)
        #expect(s.receivedOn == nil)
        #expect(s.problems == ["'receivedOn' 02.03.2026 (line 3) is not a day written YYYY-MM-DD from 1900-01-01 to \(today.iso)"])
        for bad in ["2026-02-30", "2026-3-2", "2999-01-01"] {
            #expect(Sidecar.parse(Array(#"{"receivedOn": "\#(bad)"}"#.utf8), today: today).problems.count == 1, "\(bad)")
        }
    }

    @Test func theRecordKeepsTheSidecarsProblems() throws {
        var sidecar = Sidecar.parse(Array(#"{"receivedOn": "soon", "colour": "red"}"#.utf8), today: today)
        sidecar.merchant = nil
        let merger = RecordMerger(acceptThreshold: 0.6, requiredFields: [.total], acceptPrecision: 0)
        let r = merger.merge(
            Extraction(), source: SourceFile(path: "/x/a.jpg", relativePath: "a.jpg", folder: "", kind: .jpeg, sha256: "00", size: 1),
            language: LanguageGuess(language: "deu", confidence: 0.9), pages: 1, other: OtherSources(sidecar: sidecar))
        #expect(r.reasons.contains(.sidecarInvalid))
        #expect(r.sidecarProblems.count == 2 && r.sidecarProblems.contains("unknown key 'colour'"))
        let back = try JSONDecoder().decode(DocumentRecord.self, from: Data(r.jsonLine().utf8))
        #expect(back.sidecarProblems == r.sidecarProblems)
    }
}
