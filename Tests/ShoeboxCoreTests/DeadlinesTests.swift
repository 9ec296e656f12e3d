import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxParsing

/// Deadlines of each kind, the day-one rule, the problems that send a document to review, and days that do
/// not depend on where or when they are computed.
struct DeadlinesTests {
    func day(_ iso: String) -> CalendarDay { CalendarDay(iso: iso)! }

    func compute(
        _ kind: DocumentKind, date: String?, term: PaymentTermReading? = nil, stated: String? = nil,
        presets: DeadlinePresets = DeadlinePresets(), received: String? = nil, contract: ContractTerms? = nil
    ) -> DeadlineResult {
        Deadlines.compute(
            DeadlineFacts(
                kind: kind, documentDate: date.map(day), paymentTerm: term, statedDueDate: stated.map(day), presets: presets,
                receivedOn: received.map(day), contract: contract))
    }

    func only(_ r: DeadlineResult, _ kind: Deadline.Kind) -> Deadline? {
        let found = r.deadlines.filter { $0.kind == kind }
        return found.count == 1 ? found[0] : nil
    }

    // MARK: Payment

    @Test func aTermInDaysCountsFromTheInvoiceDate() {
        let term = PaymentTermReading.read(lines: ["Zahlungsziel 30 Tage netto"])
        let r = compute(.invoice, date: "2026-03-14", term: term)
        let d = only(r, .payment)
        #expect(d?.day.iso == "2026-04-13")
        #expect(d?.anchor == Deadline.Anchor(kind: .invoiceDate, day: day("2026-03-14")))
        #expect(d?.explanation == "Payment due 30 days after the invoice date 2026-03-14 (Zahlungsziel 30 Tage netto).")
        #expect(r.problems.isEmpty)
    }

    @Test func aPrintedDueDateIsTheDay() {
        let term = PaymentTermReading.read(lines: ["Zahlbar bis 14.04.2026"])
        let d = only(compute(.invoice, date: "2026-03-14", term: term), .payment)
        #expect(d?.day.iso == "2026-04-14")
        #expect(d?.anchor.kind == .dueDatePrinted)
        #expect(d?.explanation == "Payment due on 2026-04-14, the due date printed on the invoice (Zahlbar bis 14.04.2026).")
    }

    @Test func anEInvoicesStatedDueDateWinsOverThePagesWording() {
        let term = PaymentTermReading(term: .daysAfterInvoice(30), wording: "30 days net")
        let d = only(compute(.invoice, date: "2026-03-14", term: term, stated: "2026-04-01"), .payment)
        #expect(d?.day.iso == "2026-04-01")
        #expect(d?.explanation == "Payment due on 2026-04-01, the due date the e-invoice states.")
    }

    @Test func aDueDateBeforeTheDocumentGoesToReview() {
        let term = PaymentTermReading(term: .dueOn(day("2026-03-01")), wording: "Due date 01.03.2026")
        let r = compute(.invoice, date: "2026-03-14", term: term)
        #expect(r.problems == [.dueDateBeforeDocument])
        #expect(r.problems.map(\.code) == ["due-date-before-document"])
        // The day is kept, so review shows it.
        #expect(only(r, .payment)?.day.iso == "2026-03-01")
    }

    @Test func aDueDateMoreThanTwoYearsOutGoesToReview() {
        let exactlyTwo = PaymentTermReading(term: .dueOn(day("2028-03-14")), wording: "")
        #expect(compute(.invoice, date: "2026-03-14", term: exactlyTwo).problems.isEmpty)
        let oneDayMore = PaymentTermReading(term: .dueOn(day("2028-03-15")), wording: "")
        #expect(compute(.invoice, date: "2026-03-14", term: oneDayMore).problems == [.dueDateTooFar])
        // A year after is fine.
        let oneYear = PaymentTermReading(term: .dueOn(day("2027-03-14")), wording: "")
        #expect(compute(.invoice, date: "2026-03-14", term: oneYear).problems.isEmpty)
    }

    @Test func paymentTermsCrossTheNewYearAndLeapDays() {
        let thirty = PaymentTermReading(term: .daysAfterInvoice(30), wording: "net 30")
        #expect(only(compute(.invoice, date: "2026-12-15", term: thirty), .payment)?.day.iso == "2027-01-14")
        #expect(only(compute(.invoice, date: "2028-02-15", term: thirty), .payment)?.day.iso == "2028-03-16")
        #expect(only(compute(.invoice, date: "2027-02-15", term: thirty), .payment)?.day.iso == "2027-03-17")
    }

    @Test func noPaymentDeadlineWithoutATermOrForOtherKinds() {
        let term = PaymentTermReading(term: .daysAfterInvoice(30), wording: "net 30")
        #expect(compute(.invoice, date: "2026-03-14").deadlines.isEmpty)
        #expect(compute(.invoice, date: nil, term: term).deadlines.isEmpty)
        #expect(compute(.receipt, date: "2026-03-14", term: term).deadlines.isEmpty)
        #expect(compute(.creditNote, date: "2026-03-14", term: term).deadlines.isEmpty)
        #expect(compute(.notAPurchase, date: "2026-03-14", term: term).deadlines.isEmpty)
    }

    // MARK: Return window and warranty: the purchase day is day one

    @Test func aReturnWindowCountsThePurchaseDayAsDayOne() {
        let presets = DeadlinePresets(returnWindowDays: 14)
        let d = only(compute(.receipt, date: "2026-03-14", presets: presets), .returnWindow)
        #expect(d?.day.iso == "2026-03-27")
        #expect(d?.anchor == Deadline.Anchor(kind: .purchaseDate, day: day("2026-03-14")))
        #expect(d?.explanation == "Last day to return: 2026-03-27, 14 days counting the purchase date 2026-03-14 as day one.")
        // One day: the purchase day itself.
        #expect(only(compute(.receipt, date: "2026-03-14", presets: DeadlinePresets(returnWindowDays: 1)), .returnWindow)?.day.iso == "2026-03-14")
        #expect(only(compute(.receipt, date: "2026-12-20", presets: presets), .returnWindow)?.day.iso == "2027-01-02")
    }

    @Test func aWarrantyInMonthsEndsTheDayBeforeTheSameDate() {
        let presets = DeadlinePresets(warrantyMonths: 24)
        let d = only(compute(.invoice, date: "2026-03-14", presets: presets), .warranty)
        #expect(d?.day.iso == "2028-03-13")
        #expect(d?.explanation == "Warranty ends 2028-03-13, 24 months counting the purchase date 2026-03-14 as day one.")
        // Month ends: 31 January + 1 month clamps to February's end, then one day back (a day earlier than a
        // count that skips the purchase day: the day-one rule errs early, never late).
        let month = DeadlinePresets(warrantyMonths: 1)
        #expect(only(compute(.receipt, date: "2026-01-31", presets: month), .warranty)?.day.iso == "2026-02-27")
        #expect(only(compute(.receipt, date: "2028-01-31", presets: month), .warranty)?.day.iso == "2028-02-28")
        // 29 February + a year: 28 February, then one day back.
        #expect(only(compute(.receipt, date: "2028-02-29", presets: DeadlinePresets(warrantyMonths: 12)), .warranty)?.day.iso == "2029-02-27")
        // 1 January: the warranty ends on 31 December.
        #expect(only(compute(.receipt, date: "2026-01-01", presets: DeadlinePresets(warrantyMonths: 12)), .warranty)?.day.iso == "2026-12-31")
    }

    @Test func creditNotesGetNoPurchaseWindows() {
        let presets = DeadlinePresets(returnWindowDays: 14, warrantyMonths: 24)
        #expect(compute(.creditNote, date: "2026-03-14", presets: presets).deadlines.isEmpty)
        #expect(compute(.receipt, date: nil, presets: presets).deadlines.isEmpty)
        #expect(compute(.receipt, date: "2026-03-14", presets: DeadlinePresets(returnWindowDays: 0)).deadlines.isEmpty)
    }

    // MARK: Fines: the received-on day is day one

    @Test func aFinesWindowsCountTheDayReceivedAsDayOne() {
        let presets = DeadlinePresets(payReducedDays: 14, objectionDays: 14)
        let r = compute(.fine, date: "2026-02-20", presets: presets, received: "2026-02-23")
        #expect(r.problems.isEmpty)
        #expect(only(r, .payReduced)?.day.iso == "2026-03-08")
        #expect(only(r, .objection)?.day.iso == "2026-03-08")
        #expect(only(r, .objection)?.anchor == Deadline.Anchor(kind: .receivedOn, day: day("2026-02-23")))
        #expect(
            only(r, .payReduced)?.explanation
                == "Last day to pay the reduced amount: 2026-03-08, 14 days counting the day received 2026-02-23 as day one.")
        // In a leap year the window crosses 29 February.
        #expect(only(compute(.fine, date: nil, presets: presets, received: "2028-02-23"), .payReduced)?.day.iso == "2028-03-07")
        // Across the new year.
        #expect(only(compute(.fine, date: nil, presets: presets, received: "2026-12-25"), .objection)?.day.iso == "2027-01-07")
    }

    @Test func aFineWithoutItsReceivedOnDayHasNoDeadlinesAndGoesToReview() {
        let r = compute(.fine, date: "2026-02-20", presets: DeadlinePresets(payReducedDays: 14, objectionDays: 14))
        #expect(r.deadlines.isEmpty)
        #expect(r.problems == [.fineReceivedOnMissing])
        #expect(DeadlineProblem.fineReceivedOnMissing.code == "fine-received-on-missing")
    }

    // MARK: Contracts: end of term minus notice

    @Test func theCancellationDayIsTheEndOfTermMinusTheNotice() {
        let terms = ContractTerms.read(lines: ["Mietvertrag", "Laufzeit bis 31.12.2027", "Kündigungsfrist 3 Monate"])
        let r = compute(.contract, date: "2026-01-01", contract: terms)
        let d = only(r, .cancellation)
        #expect(d?.day.iso == "2027-09-30")
        #expect(d?.anchor == Deadline.Anchor(kind: .endOfTerm, day: day("2027-12-31")))
        #expect(
            d?.explanation
                == "Last day to cancel: 2027-09-30, 3 months' notice before the end of the term 2027-12-31 (Kündigungsfrist 3 Monate; Laufzeit bis 31.12.2027)."
        )
        #expect(r.problems.isEmpty)
    }

    @Test func cancellationMonthsClampAndDaysCount() {
        func cancel(_ notice: NoticePeriod, _ end: String) -> String? {
            only(compute(.contract, date: nil, contract: ContractTerms(notice: notice, endOfTerm: day(end))), .cancellation)?.day.iso
        }
        #expect(cancel(.months(1), "2027-03-31") == "2027-02-28")
        #expect(cancel(.months(1), "2028-03-31") == "2028-02-29")
        #expect(cancel(.months(1), "2028-01-15") == "2027-12-15")
        #expect(cancel(.days(30), "2027-12-31") == "2027-12-01")
        #expect(cancel(.days(30), "2028-03-15") == "2028-02-14")
        #expect(cancel(.months(12), "2029-02-28") == "2028-02-28")
        let one = compute(.contract, date: nil, contract: ContractTerms(notice: .months(1), endOfTerm: day("2027-12-31")))
        #expect(one.deadlines.first?.explanation == "Last day to cancel: 2027-11-30, 1 month's notice before the end of the term 2027-12-31.")
    }

    @Test func aContractWithUnreadTermsHasNoDeadlineAndGoesToReview() {
        for terms in [nil, ContractTerms(), ContractTerms(notice: .months(3)), ContractTerms(endOfTerm: day("2027-12-31"))] {
            let r = compute(.contract, date: "2026-01-01", contract: terms)
            #expect(r.deadlines.isEmpty)
            #expect(r.problems == [.contractTermsUnread])
        }
    }

    // MARK: Values

    @Test func deadlinesEncodeWithStableCodes() throws {
        let d = Deadline(
            kind: .returnWindow, day: day("2026-03-27"), anchor: .init(kind: .purchaseDate, day: day("2026-03-14")), explanation: "x")
        let json = String(decoding: try JSONEncoder().encode(d), as: UTF8.self)
        #expect(json.contains("\"return-window\""))
        #expect(json.contains("\"purchase-date\""))
        #expect(json.contains("\"2026-03-27\""))
        #expect(try JSONDecoder().decode(Deadline.self, from: Data(json.utf8)) == d)
        #expect(Deadline.Kind.allCases.map(\.rawValue) == ["payment", "return-window", "warranty", "pay-reduced", "objection", "cancellation"])
        #expect(
            Deadline.Anchor.Kind.allCases.map(\.rawValue) == ["invoice-date", "due-date-printed", "purchase-date", "received-on", "end-of-term"])
        #expect(
            DeadlineProblem.allCases.map(\.code) == [
                "due-date-before-document", "due-date-too-far", "fine-received-on-missing", "contract-terms-unread"
            ])
    }
}

/// The same deadlines under every time zone: the computation works on calendar days only.
/// Serialized: it changes the process's TZ, and restores it.
@Suite(.serialized) struct DeadlinesTimeZoneTests {
    func everyKind() -> [DeadlineResult] {
        let d = { (iso: String) in CalendarDay(iso: iso)! }
        let presets = DeadlinePresets(returnWindowDays: 30, warrantyMonths: 24, payReducedDays: 14, objectionDays: 14)
        return [
            Deadlines.compute(
                DeadlineFacts(
                    kind: .invoice, documentDate: d("2026-12-31"), paymentTerm: PaymentTermReading.read(lines: ["Payable within 30 days"]),
                    presets: presets)),
            Deadlines.compute(DeadlineFacts(kind: .receipt, documentDate: d("2028-02-29"), presets: presets)),
            Deadlines.compute(DeadlineFacts(kind: .fine, documentDate: nil, presets: presets, receivedOn: d("2026-12-31"))),
            Deadlines.compute(
                DeadlineFacts(
                    kind: .contract, documentDate: nil,
                    contract: ContractTerms.read(lines: ["Laufzeit bis 31.03.2028", "Kündigungsfrist 1 Monat"])))
        ]
    }

    @Test func theSameDaysUnderEveryTimeZone() {
        let saved = getenv("TZ").map { String(cString: $0) }
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        setenv("TZ", "UTC", 1)
        tzset()
        let reference = everyKind()
        #expect(reference.allSatisfy { $0.problems.isEmpty })
        #expect(reference.flatMap(\.deadlines).count == 8)
        // Zones a day apart at the same instant (Kiritimati +14, Pago Pago −11), one with a half hour, one with DST.
        for zone in ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kolkata", "America/St_Johns", "Europe/Berlin", "Asia/Kuala_Lumpur"] {
            setenv("TZ", zone, 1)
            tzset()
            #expect(everyKind() == reference, "TZ=\(zone)")
        }
    }

    /// The deadline sources use no clock, time zone or Foundation calendar: nothing for a TZ to change.
    @Test func theDeadlineSourcesTouchNoClockOrTimeZone() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let files = [
            "ShoeboxCore/Deadlines.swift", "ShoeboxJudgement/Deadlines+Compute.swift", "ShoeboxJudgement/DeadlineFacts+Bounds.swift",
            "ShoeboxCore/CalendarDay+Months.swift", "ShoeboxCore/DocumentTerms.swift", "ShoeboxReading/PaymentTerms.swift",
            "ShoeboxReading/ContractTerms.swift", "ShoeboxReading/TermWording.swift", "ShoeboxParsing/DocumentKind+FineContract.swift"
        ]
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            // Code only: comments may say what the code does not use.
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            let identifiers = Set(code.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init))
            let forbidden: Set = ["Date", "TimeZone", "Calendar", "DateFormatter", "ISO8601DateFormatter", "DateComponents", "tzset"]
            #expect(identifiers.isDisjoint(with: forbidden), "\(file) uses \(identifiers.intersection(forbidden).sorted())")
        }
    }
}
