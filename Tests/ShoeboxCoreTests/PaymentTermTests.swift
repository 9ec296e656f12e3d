import Testing

@testable import ShoeboxCore
@testable import ShoeboxParsing

/// Payment terms as invoices print them, in the five languages; each page a few synthetic lines.
struct PaymentTermTests {
    func term(_ lines: String...) -> PaymentTerm? { PaymentTermReading.read(lines: lines)?.term }
    func due(_ iso: String) -> PaymentTerm { .dueOn(CalendarDay(iso: iso)!) }

    /// A craftsman's invoice prints the due day and an early-payment discount in two sentences of one line: the day to
    /// pay without deduction is the due day; the discount's day is not (it was read as one discount clause, and no term).
    @Test func theDueDayBeforeADiscountsSentenceIsTheTerm() {
        #expect(
            term("Zahlbar bis 28.10.2025 ohne Abzug. Bei Zahlung bis 21.10.2025 gewähren wir 2 % Skonto (25,69 €).")
                == due("2025-10-28"))
        #expect(term("Payable by 28.10.2025. Pay by 21.10.2025 for a 2 % discount.") == due("2025-10-28"))
        // A day's dot before a month's name ends no sentence.
        #expect(term("Zahlbar bis 14. März 2026 ohne Abzug") == due("2026-03-14"))
    }

    @Test func englishDueDatesAndDays() {
        #expect(term("Invoice date 14.03.2026", "Due date 14.04.2026") == due("2026-04-14"))
        #expect(term("Due: 2026-04-14") == due("2026-04-14"))
        #expect(term("Payable within 14 days") == .daysAfterInvoice(14))
        #expect(term("Payment due within 30 days of invoice date") == .daysAfterInvoice(30))
        #expect(term("Terms: Net 30") == .daysAfterInvoice(30))
        // A net word also labels the net amount: its whole part is no count of days.
        for amount in ["Netto 347,73", "Net 25.00", "Summe netto 1.234,56 EUR", "netto 30 EUR", "Net € 30", "Netto 347", "Net 45 RM"] {
            #expect(term(amount) == nil, "\(amount)")
        }
        #expect(term("Terms net 30 for all orders") == .daysAfterInvoice(30))
        // Month-first when only that order gives a day.
        #expect(term("Due Date: 04/14/2026") == due("2026-04-14"))
    }

    @Test func germanDueDatesAndDays() {
        #expect(term("Zahlbar bis 14.04.2026") == due("2026-04-14"))
        #expect(term("Zahlungsziel 30 Tage netto") == .daysAfterInvoice(30))
        #expect(term("Zahlbar innerhalb von 14 Tagen ohne Abzug.") == .daysAfterInvoice(14))
        #expect(term("Fällig am 1. April 2026") == due("2026-04-01"))
    }

    @Test func spanishFrenchAndMalayDueDatesAndDays() {
        #expect(term("Fecha de vencimiento: 14/04/2026") == due("2026-04-14"))
        #expect(term("Vencimiento 30 días") == .daysAfterInvoice(30))
        #expect(term("Échéance : 14/04/2026") == due("2026-04-14"))
        #expect(term("À régler sous 30 jours") == .daysAfterInvoice(30))
        #expect(term("Payable à 30 jours") == .daysAfterInvoice(30))
        #expect(term("Tarikh akhir bayaran: 14/04/2026") == due("2026-04-14"))
        #expect(term("Sila bayar dalam tempoh 30 hari") == .daysAfterInvoice(30))
    }

    @Test func aLabelAboveItsDateReadsTheNextLine() {
        let r = PaymentTermReading.read(lines: ["Due date", "14.04.2026"])
        #expect(r?.term == due("2026-04-14"))
        #expect(r?.wording == "Due date 14.04.2026")
    }

    @Test func aDiscountTermIsNotTheDueTerm() {
        #expect(term("2 % Skonto innerhalb 10 Tagen, 30 Tage netto") == .daysAfterInvoice(30))
        #expect(term("Zahlbar innerhalb 10 Tagen mit 2% Skonto oder 30 Tage netto") == .daysAfterInvoice(30))
        #expect(term("2/10 net 30: 2 % discount within 10 days, otherwise net 30 days") == .daysAfterInvoice(30))
        #expect(term("2 % Skonto innerhalb 10 Tagen") == nil)
        // The net term wins even on a later line.
        #expect(term("Payable within 10 days less 2% discount", "or 30 days net") == .daysAfterInvoice(30))
        // A due date in a discount clause is not the due date; the one in its own clause is.
        #expect(term("Fällig am 14.04.2026, mit 2 % Skonto bis 24.03.2026") == due("2026-04-14"))
    }

    @Test func daysOutsideOneToThreeHundredSixtyFiveAreNotRead() {
        #expect(term("Payable within 0 days") == nil)
        #expect(term("Payable within 400 days") == nil)
        #expect(term("Payable within 365 days") == .daysAfterInvoice(365))
        #expect(term("Payable within 1 day") == .daysAfterInvoice(1))
    }

    @Test func daysThatSpeakOfNoPaymentAreNoTerm() {
        #expect(term("Rückgabe innerhalb von 14 Tagen") == nil)
        #expect(term("Garantie 30 Tage") == nil)
        #expect(term("Amount due 123.45 EUR") == nil)
    }

    @Test func aPrintedDueDateWinsOverACount() {
        #expect(term("Payable within 30 days", "Due date: 2026-04-20") == due("2026-04-20"))
        let r = PaymentTermReading.read(lines: ["Zahlungsziel 30 Tage netto"])
        #expect(r?.wording == "Zahlungsziel 30 Tage netto")
    }
}

extension PaymentTermTests {
    @Test func aDateAfterACountIsTheAnchorNotTheDueDay() {
        #expect(term("Payment due within 30 days of invoice date 14.03.2026") == .daysAfterInvoice(30))
    }
}

extension PaymentTermTests {
    @Test func daysOfAnotherSubjectAreNoTerm() {
        #expect(term("Lieferung innerhalb von 14 Tagen, Zahlung sofort") == nil)
        #expect(term("Returns accepted within 30 days, payment on delivery") == nil)
        #expect(term("Payment within 14 days, returns within 30 days") == .daysAfterInvoice(14))
    }

    @Test func anInterestRateIsNoDiscount() {
        #expect(term("Payable within 30 days. Interest of 1.5 % per month on late payment") == .daysAfterInvoice(30))
    }

    @Test func aCountGluedToItsUnitIsRead() {
        #expect(term("Zahlbar innerhalb 14Tagen") == .daysAfterInvoice(14))
        #expect(term("Terms: NET30") == .daysAfterInvoice(30))
    }
}

extension PaymentTermTests {
    @Test func aSentenceAboutPayingByADayReadsTheDay() {
        #expect(term("Bitte überweisen Sie den Betrag bis zum 14.04.2026.") == due("2026-04-14"))
        #expect(term("Please pay before 14 April 2026") == due("2026-04-14"))
        #expect(term("Merci de régler avant le 14/04/2026") == due("2026-04-14"))
        #expect(term("Zahlung per Lastschrift, Leistungszeitraum 01.03.2026 bis 31.03.2026") == nil)
        #expect(term("Bei Zahlung bis 24.03.2026 2 % Skonto") == nil)
    }
}

extension PaymentTermTests {
    @Test func underARowOfHeadingsTheDueDatesColumnIsRead() {
        #expect(term("Invoice date    Due date", "14.03.2026    14.04.2026") == due("2026-04-14"))
        #expect(term("Rechnungsdatum  Fälligkeitsdatum  Kundennr.", "14.03.2026  14.04.2026  4711") == due("2026-04-14"))
        #expect(term("Due date    Invoice date", "14.04.2026    14.03.2026") == due("2026-04-14"))
    }
}

extension PaymentTermTests {
    @Test func aSentenceAboveADateDoesNotTakeIt() {
        #expect(term("Payment due upon receipt", "Invoice date 14.03.2026") == nil)
    }
}
