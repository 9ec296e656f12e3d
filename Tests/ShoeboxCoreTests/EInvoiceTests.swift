import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement
@testable import ShoeboxParsing
@testable import ShoeboxReading

/// The e-invoice arithmetic check and the record an e-invoice makes, on invoices built in code (the XML reader
/// has its own tests; the pipeline's are end to end).
struct EInvoiceTests {
    static let eur = CurrencyCode("EUR")!
    static func m(_ s: String) -> Money { Money(decimal: s, currency: eur)! }

    /// Two lines at 19 % and 7 %, consistent: 100.00 + 50.00 net, 19.00 + 3.50 tax, 172.50 gross, 20.00 prepaid.
    static func invoice() -> EInvoice {
        var e = EInvoice(syntax: .cii)
        e.number = "RE-2026-001"
        e.typeCode = "380"
        e.issueDate = CalendarDay(year: 2026, month: 3, day: 2)
        e.dueDate = CalendarDay(year: 2026, month: 3, day: 16)
        e.currency = eur
        e.seller.name = "Muster GmbH"
        e.seller.vatID = "DE123456789"
        var a = EInvoice.Line()
        a.net = m("100.00")
        var b = EInvoice.Line()
        b.net = m("50.00")
        var sub = EInvoice.Line()
        sub.parentID = "2"
        sub.net = m("50.00")
        e.lines = [a, b, sub]
        var s = EInvoice.TaxRow()
        s.category = "S"
        s.rate = "19"
        s.basis = m("100.00")
        s.amount = m("19.00")
        var r = EInvoice.TaxRow()
        r.category = "S"
        r.rate = "7"
        r.basis = m("50.00")
        r.amount = m("3.50")
        e.taxes = [s, r]
        e.totals.lineTotal = m("150.00")
        e.totals.taxBasis = m("150.00")
        e.totals.tax = m("22.50")
        e.totals.grand = m("172.50")
        e.totals.prepaid = m("20.00")
        e.totals.due = m("152.50")
        e.paymentMeans = [EInvoice.PaymentMeans()]
        e.paymentMeans[0].code = "58"
        return e
    }

    static let source = SourceFile(path: "/x/a.xml", relativePath: "a.xml", folder: "", kind: .xml, sha256: "00", size: 1)
    static let merger = RecordMerger(acceptThreshold: 0.75, requiredFields: [.merchant, .date, .total, .currency])

    @Test func aConsistentInvoiceHasNoProblemsAndSubLinesAreNotAddedTwice() {
        #expect(EInvoiceTests.invoice().problems().isEmpty)
    }

    @Test func eachBrokenSumIsNamedWithTheStatedAndTheComputedValue() {
        var e = EInvoiceTests.invoice()
        e.totals.grand = EInvoiceTests.m("173.50")
        e.totals.due = EInvoiceTests.m("153.50")
        let p = e.problems()
        #expect(p.map(\.rule) == ["gross = net + tax"])
        #expect(p.first?.stated == EInvoiceTests.m("173.50") && p.first?.computed == EInvoiceTests.m("172.50"))
        #expect(p.first?.sentence.contains("173.50") == true && p.first?.sentence.contains("172.50") == true)

        var rate = EInvoiceTests.invoice()
        rate.taxes[0].amount = EInvoiceTests.m("18.00")
        rate.totals.tax = EInvoiceTests.m("21.50")
        rate.totals.grand = EInvoiceTests.m("171.50")
        rate.totals.due = EInvoiceTests.m("151.50")
        #expect(rate.problems().map(\.rule) == ["tax at 19 % of 100.00"])

        var lines = EInvoiceTests.invoice()
        lines.lines[1].net = EInvoiceTests.m("40.00")
        #expect(lines.problems().map(\.rule) == ["line total = sum of the lines"])

        var due = EInvoiceTests.invoice()
        due.totals.due = EInvoiceTests.m("172.50")
        #expect(due.problems().map(\.rule) == ["due = gross − prepaid + rounding"])
    }

    @Test func aRoundingCentIsToleratedPerTaxRowButNotTwo() {
        var e = EInvoiceTests.invoice()
        e.taxes[1].basis = EInvoiceTests.m("50.07") // 7 % = 3.5049 → 3.50
        e.taxes[0].basis = EInvoiceTests.m("99.93")
        #expect(e.problems().isEmpty)
        e.taxes[1].amount = EInvoiceTests.m("3.52")
        e.totals.tax = EInvoiceTests.m("22.52")
        e.totals.grand = EInvoiceTests.m("172.52")
        e.totals.due = EInvoiceTests.m("152.52")
        #expect(e.problems().map(\.rule) == ["tax at 7 % of 50.07"])
    }

    @Test func minimumProfileWithoutLinesOrRowsIsCheckedOnWhatItStates() {
        var e = EInvoiceTests.invoice()
        e.lines = []
        e.taxes = []
        e.totals.lineTotal = nil
        #expect(e.problems().isEmpty)
        e.totals.grand = nil
        #expect(e.problems().map(\.rule) == ["gross"])
    }

    @Test func aConsistentStandaloneInvoiceIsAcceptedExactlyWithProvenanceEInvoice() {
        let r = EInvoiceTests.merger.merge(
            eInvoice: EInvoiceTests.invoice(), pageRecord: nil, page: nil, source: EInvoiceTests.source, other: OtherSources(),
            today: CalendarDay(year: 2026, month: 12, day: 3)!)
        #expect(r.status == .accepted && r.reasons.isEmpty && r.reviewedBy == "pipeline")
        #expect(r.total == EInvoiceTests.m("172.50") && r.subtotal == EInvoiceTests.m("150.00"))
        #expect(r.date == CalendarDay(year: 2026, month: 3, day: 2) && r.dueDate == CalendarDay(year: 2026, month: 3, day: 16))
        #expect(r.merchant == "Muster GmbH" && r.sellerTaxID == "DE123456789" && r.referenceNumber == "RE-2026-001")
        #expect(r.paymentMethod == "credit transfer" && r.documentKind == .invoice)
        #expect(r.evidence[.total]?.source == .eInvoice && r.confidence[.total] == 1)
        #expect(r.comparedValue("taxByRate") == "7=3.50; 19=19.00")
        #expect(r.tax.map(\.basis) == [EInvoiceTests.m("100.00"), EInvoiceTests.m("50.00")])
    }

    /// A final invoice whose XML states due days before its issue date (the instalments already billed): its dates are
    /// exact, so that is the invoice's own statement, not a misread date: accepted, the deadline shown as stated. The same
    /// dates read from a page are a misreading to check (`due-date-before-document`).
    @Test func anEInvoicesDueDayBeforeItsDateIsItsOwnStatement() {
        var e = EInvoiceTests.invoice()
        e.issueDate = CalendarDay(year: 2025, month: 6, day: 30)
        e.dueDate = CalendarDay(year: 2025, month: 6, day: 20)
        let merged = EInvoiceTests.merger.merge(
            eInvoice: e, pageRecord: nil, page: nil, source: EInvoiceTests.source, other: OtherSources(),
            today: CalendarDay(year: 2026, month: 12, day: 3)!)
        let r = EInvoiceTests.merger.withDeadlines(merged, extraction: nil, sidecar: nil, presets: DeadlinePresets())
        #expect(r.status == .accepted, "\(r.reasons)")
        #expect(r.dueDate == CalendarDay(year: 2025, month: 6, day: 20))
        #expect(r.deadlines.contains { $0.kind == .payment && $0.day == CalendarDay(year: 2025, month: 6, day: 20) })
        // A person's date (or a page's) makes the same due day a problem again.
        var edited = r
        edited.evidence[.date]?.source = .person
        let recounted = edited.recountingDeadlines(sendProblemsToReview: true)
        #expect(recounted.status == .review && recounted.reasons.map(\.code).contains("due-date-before-document"))
    }

    @Test func aCreditNoteStoresItsAmountsNegatedWhateverSignTheXMLWrites() {
        var e = EInvoiceTests.invoice()
        e.typeCode = "381"
        let r = EInvoiceTests.merger.merge(
            eInvoice: e, pageRecord: nil, page: nil, source: EInvoiceTests.source, other: OtherSources(),
            today: CalendarDay(year: 2026, month: 12, day: 3)!)
        #expect(r.documentKind == .creditNote && r.status == .accepted)
        #expect(r.total?.decimalString == "-172.50" && r.subtotal?.decimalString == "-150.00")
        #expect(r.comparedValue("taxByRate") == "7=-3.50; 19=-19.00")
        // An invoice (380) with negative amounts keeps them as written: no double flip.
        var negative = EInvoiceTests.invoice()
        negative.totals.grand = EInvoiceTests.m("-10.00")
        #expect(
            EInvoiceTests.merger.merge(
                eInvoice: negative, pageRecord: nil, page: nil, source: EInvoiceTests.source, other: OtherSources(),
                today: CalendarDay(year: 2026, month: 12, day: 3)!
            ).total?
            .decimalString == "-10.00")
    }

    @Test func anInconsistentInvoiceGoesToReviewShowingBothValues() {
        var e = EInvoiceTests.invoice()
        e.totals.grand = EInvoiceTests.m("173.50")
        e.totals.due = EInvoiceTests.m("153.50")
        let r = EInvoiceTests.merger.merge(
            eInvoice: e, pageRecord: nil, page: nil, source: EInvoiceTests.source, other: OtherSources(),
            today: CalendarDay(year: 2026, month: 12, day: 3)!)
        #expect(r.status == .review && r.reasons.map(\.code) == ["e-invoice-inconsistent"])
        #expect(r.total?.decimalString == "173.50")
        #expect(r.alternates[.total]?.first?.value == "172.50")
        #expect(r.eInvoiceProblems.count == 1 && r.eInvoiceProblems[0].contains("173.50"))
    }

    @Test func aPageThatDoesNotPrintTheXMLsTotalOrDateSendsItToReview() {
        let parser = ReceiptParser(today: today)
        let page = parser.parse(
            pages: [ShoeboxCoreTests.page(["Muster GmbH", "Rechnung RE-2026-001 vom 02.03.2026", "Netto 150,00", "MwSt 22,50", "Gesamt 172,50 EUR"])],
            language: "deu")
        let pageRecord = EInvoiceTests.merger.merge(
            page, source: EInvoiceTests.source, language: LanguageGuess(language: "deu", confidence: 1), pages: 1)
        let agreed = EInvoiceTests.merger.merge(
            eInvoice: EInvoiceTests.invoice(), pageRecord: pageRecord, page: page, source: EInvoiceTests.source, other: OtherSources(),
            today: CalendarDay(year: 2026, month: 12, day: 3)!)
        #expect(agreed.status == .accepted, "the page prints 172,50 and 02.03.2026: \(agreed.eInvoiceProblems)")

        let other = parser.parse(
            pages: [ShoeboxCoreTests.page(["Muster GmbH", "Rechnung RE-2026-001 vom 03.03.2026", "Netto 150,00", "MwSt 12,50", "Gesamt 162,50 EUR"])],
            language: "deu")
        let otherRecord = EInvoiceTests.merger.merge(
            other, source: EInvoiceTests.source, language: LanguageGuess(language: "deu", confidence: 1), pages: 1)
        let r = EInvoiceTests.merger.merge(
            eInvoice: EInvoiceTests.invoice(), pageRecord: otherRecord, page: other, source: EInvoiceTests.source, other: OtherSources(),
            today: CalendarDay(year: 2026, month: 12, day: 3)!)
        #expect(r.status == .review && r.reasons.map(\.code) == ["e-invoice-page-disagrees"])
        #expect(r.total?.decimalString == "172.50", "the XML's value stays; the page's is the alternate")
        #expect(r.alternates[.total]?.contains { $0.value == "162.50" } == true)
        #expect(r.alternates[.date]?.contains { $0.value == "2026-03-03" } == true)
        #expect(r.eInvoiceProblems.count == 2)
    }

    @Test func taxByRateAddsUpARateAndSortsRatesNumerically() {
        #expect(TaxByRate.text([("19.00", 1520), ("7", 105), ("19", 100), ("0.00", 0)], digits: 2) == "0=0.00; 7=1.05; 19=16.20")
        #expect(TaxByRate.plainRate("5.50") == "5.5" && TaxByRate.plainRate("20") == "20" && TaxByRate.plainRate("7 %") == "7")
        #expect(TaxByRate.text([], digits: 2) == nil)
    }
}
