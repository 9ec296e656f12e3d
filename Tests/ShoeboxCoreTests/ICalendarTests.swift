import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxExport

/// The iCalendar writer: CRLF lines of at most 75 octets, folded between characters, text escaped, stable bytes.
struct ICalendarTests {
    let event = ICalendar.Event(
        uid: "payment-3f2a@shoebox", day: CalendarDay(year: 2026, month: 4, day: 13)!,
        summary: "Pay Bürobedarf Müller GmbH, 1.234,56 EUR; invoice RE-2026-0342",
        description: "Payment due 30 days after the invoice date 2026-03-14 (Zahlungsziel 30 Tage netto).\nNot legal advice.",
        stamp: Date(timeIntervalSince1970: 1_773_446_400))

    @Test func linesEndInCRLFAndFoldAt75OctetsBetweenCharacters() throws {
        let text = ICalendar.write([event], name: "office-supplies")
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        let lines = text.components(separatedBy: "\r\n").dropLast()
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        // A long line of two-octet letters folds without splitting one.
        let folded = ICalendar.fold("SUMMARY:" + String(repeating: "ü", count: 80))
        #expect(folded.components(separatedBy: "\r\n").dropLast().allSatisfy { $0.utf8.count <= 75 && String(validatingUTF8: $0) != nil })
        #expect(folded.replacingOccurrences(of: "\r\n ", with: "") == "SUMMARY:" + String(repeating: "ü", count: 80) + "\r\n")
    }

    @Test func anAllDayEventWithThreeAlarmsAndEscapedText() throws {
        let text = ICalendar.write([event], name: "office-supplies").replacingOccurrences(of: "\r\n ", with: "")
        #expect(text.contains("DTSTART;VALUE=DATE:20260413\r\nDTEND;VALUE=DATE:20260414\r\n"))
        #expect(text.contains("DTSTAMP:20260314T000000Z\r\n"))
        #expect(text.contains("SUMMARY:Pay Bürobedarf Müller GmbH\\, 1.234\\,56 EUR\\; invoice RE-2026-0342\r\n"))
        #expect(text.contains("(Zahlungsziel 30 Tage netto).\\nNot legal advice.\r\n"))
        #expect(text.components(separatedBy: "TRIGGER:").count == 4)
        #expect(text.contains("TRIGGER:-P7D") && text.contains("TRIGGER:-P3D") && text.contains("TRIGGER:-P1D"))
        #expect(ICalendar.write([event], name: "office-supplies") == ICalendar.write([event], name: "office-supplies"))
    }

    @Test func controlCharactersAndBackslashesAreEscapedOrDropped() {
        #expect(ICalendar.escape("a\\b\u{7}c\r\nd") == "a\\\\bc\\nd")
    }
}
