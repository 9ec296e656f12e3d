import Testing

@testable import ShoeboxCore
@testable import ShoeboxParsing

/// Notice periods and ends of term as contracts word them; neither is guessed.
struct ContractTermTests {
    func terms(_ lines: String...) -> ContractTerms { ContractTerms.read(lines: lines) }
    func day(_ iso: String) -> CalendarDay { CalendarDay(iso: iso)! }

    @Test func noticePeriodsInFiveLanguages() {
        #expect(terms("Kündigungsfrist 3 Monate").notice == .months(3))
        #expect(terms("Die Kündigungsfrist beträgt 6 Wochen.").notice == .days(42))
        #expect(terms("with a notice period of 30 days").notice == .days(30))
        #expect(terms("Either party may terminate with three (3) months' written notice.").notice == .months(3))
        #expect(terms("avec un préavis de 2 mois").notice == .months(2))
        #expect(terms("Plazo de preaviso de 1 mes").notice == .months(1))
        #expect(terms("plazo de preaviso de un mes").notice == .months(1))
        #expect(terms("Notis 30 hari").notice == .days(30))
        #expect(terms("Kündigungsfrist 3 Monate").noticeWording == "Kündigungsfrist 3 Monate")
    }

    @Test func endsOfTermInFiveLanguages() {
        #expect(terms("Laufzeit bis 31.12.2027").endOfTerm == day("2027-12-31"))
        #expect(terms("The term ends on 31 December 2027.").endOfTerm == day("2027-12-31"))
        #expect(terms("Fin du contrat le 31/12/2027").endOfTerm == day("2027-12-31"))
        #expect(terms("Vigencia hasta el 31/12/2027").endOfTerm == day("2027-12-31"))
        #expect(terms("Perjanjian ini tamat pada 31/12/2027").endOfTerm == day("2027-12-31"))
        // A range gives its last day, not its first.
        #expect(terms("Laufzeit: 01.01.2026 bis 31.12.2027").endOfTerm == day("2027-12-31"))
    }

    @Test func nothingIsGuessed() {
        let t = terms("Mietvertrag", "Die Miete beträgt 800 EUR monatlich.", "Beginn: 01.01.2026")
        #expect(t.notice == nil)
        #expect(t.endOfTerm == nil)
        // A start date is no end; a notice word without a period is no period.
        #expect(terms("Laufzeit ab 01.01.2026").endOfTerm == nil)
        #expect(terms("Kündigung schriftlich").notice == nil)
        // Out of bounds: a year-long count of months is a duration, not a notice.
        #expect(terms("Kündigungsfrist 36 Monate").notice == nil)
    }
}
