import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement
@testable import ShoeboxParsing
@testable import ShoeboxReading

/// A document's kind set by its sidecar or its folder's preset, and deadlines counted again when a person corrects
/// what they count from (the date, the day a fine was received).
struct DocumentKindAndRecountTests {
    let merger = RecordMerger(acceptThreshold: 0.6, requiredFields: [], acceptPrecision: 0)
    func day(_ s: String) -> CalendarDay { CalendarDay(iso: s)! }

    /// A record as the merge leaves it: accepted, of `kind`, dated `date`.
    func record(_ kind: DocumentKind, date: String?) -> DocumentRecord {
        var r = DocumentRecord(source: "f/a.pdf", folder: "f", sha256: "00", status: .accepted)
        r.documentKind = kind
        r.date = date.map(day)
        r.reviewedBy = "pipeline"
        return r
    }

    func sidecar(_ json: String) -> Sidecar { Sidecar.parse(Array(json.utf8), today: today) }

    @Test func aSidecarNamesTheKindAndAnUnknownOneIsAProblemWithItsLine() {
        #expect(sidecar(#"{"documentKind": "fine"}"#).documentKind == .fine)
        let bad = sidecar("{\n\"documentKind\": \"ticket\"\n}")
        #expect(bad.documentKind == nil)
        #expect(
            bad.problems == [
                "'documentKind' ticket (line 2) is not one of receipt, invoice, credit-note, not-a-purchase, contract, fine, payment-confirmation"
            ])
    }

    @Test func aFoldersPresetKindIsReadFromThePipelineFileAndABadOneRefused() throws {
        let good = try PipelineConfig.parse(
            Data(#"{"version": 1, "deadlines": {"fines": {"documentKind": "fine", "payReducedDays": 14}}}"#.utf8), file: "p.json")
        #expect(good.deadlinePresets["fines"]?.documentKind == .fine)
        #expect(good.settingsText.contains("fines=0,0,14,0,fine"))
        #expect(throws: PipelineConfig.ConfigError.self) {
            try PipelineConfig.parse(Data(#"{"version": 1, "deadlines": {"fines": {"documentKind": "ticket"}}}"#.utf8), file: "p.json")
        }
    }

    @Test func aFolderOfFinesMakesAPlainReceiptAFineThatWaitsForTheDayItArrived() {
        let presets = DeadlinePresets(payReducedDays: 14, objectionDays: 14, documentKind: .fine)
        let r = merger.withDeadlines(record(.receipt, date: "2026-02-20"), extraction: nil, sidecar: nil, presets: presets)
        #expect(r.documentKind == .fine && r.status == .review)
        #expect(r.reasons.map(\.code) == ["fine-received-on-missing"])
        #expect(r.deadlines.isEmpty)
    }

    @Test func theSidecarsKindBeatsTheFoldersAndAKindThePageContradictsGoesToReview() {
        let presets = DeadlinePresets(documentKind: .invoice)
        let mine = merger.withDeadlines(
            record(.receipt, date: "2026-02-20"), extraction: nil, sidecar: sidecar(#"{"documentKind": "contract"}"#), presets: presets)
        #expect(mine.documentKind == .contract && mine.reasons.map(\.code) == ["contract-terms-unread"])
        // A credit note filed among invoices: the folder's word is used, and a person checks it.
        let credit = merger.withDeadlines(record(.creditNote, date: "2026-02-20"), extraction: nil, sidecar: nil, presets: presets)
        #expect(credit.documentKind == .invoice && credit.status == .review && credit.reasons.map(\.code) == ["document-kind-disagrees"])
        // An invoice in a folder of invoices, or a receipt in one: nothing to say.
        let plain = merger.withDeadlines(record(.receipt, date: "2026-02-20"), extraction: nil, sidecar: nil, presets: presets)
        #expect(plain.documentKind == .invoice && plain.status == .accepted && plain.reasons.isEmpty)
    }

    @Test func aReceivedOnDayTypedInReviewMakesTheFinesWindowsAndClearsItsReason() throws {
        let presets = DeadlinePresets(payReducedDays: 14, objectionDays: 14, documentKind: .fine)
        let fine = merger.withDeadlines(record(.receipt, date: "2026-02-20"), extraction: nil, sidecar: nil, presets: presets)
        // Checked like a date, and not before the letter's own date.
        #expect(throws: ReviewInputError.self) { try Review.validate(field: "receivedOn", value: "2026-02-19", record: fine, today: today).get() }
        #expect(throws: ReviewInputError.self) { try Review.validate(field: "receivedOn", value: "2027-01-01", record: fine, today: today).get() }
        let typed = try Review.validate(field: "receivedOn", value: "23.02.2026", record: fine, today: today).get()
        #expect(typed == .day(day("2026-02-23")))
        let edited = Review.apply([.edit(.receivedOn, typed)], to: fine)
        #expect(edited.receivedOn == day("2026-02-23") && edited.evidence[.receivedOn]?.source == .person)
        #expect(edited.deadlines.map { "\($0.kind.rawValue) \($0.day.iso)" } == ["pay-reduced 2026-03-08", "objection 2026-03-08"])
        #expect(edited.status == .review && edited.reasons.isEmpty)
        let accepted = Review.apply([.edit(.receivedOn, typed), ReviewDecision(action: .accept)], to: fine)
        #expect(accepted.status == .accepted && accepted.deadlines.count == 2)
        // The sidecar's day is the record's, with its provenance.
        let given = merger.withDeadlines(
            record(.fine, date: "2026-02-20"), extraction: nil, sidecar: sidecar(#"{"receivedOn": "2026-02-23"}"#), presets: presets)
        #expect(given.receivedOn == day("2026-02-23") && given.evidence[.receivedOn]?.source == .sidecar && given.deadlines.count == 2)
    }

    @Test func aCorrectedInvoiceDateMovesThePaymentDayAndTheDueDate() throws {
        var extraction = Extraction()
        extraction.paymentTerm = PaymentTermReading.read(lines: ["Payable within 30 days"])
        #expect(extraction.paymentTerm != nil)
        let invoice = merger.withDeadlines(record(.invoice, date: "2025-11-28"), extraction: extraction, sidecar: nil, presets: DeadlinePresets())
        #expect(invoice.deadlines.map(\.day) == [day("2025-12-28")] && invoice.dueDate == day("2025-12-28"))
        let corrected = Review.apply([.edit(.date, .day(CalendarDay(iso: "2025-12-08")!))], to: invoice)
        #expect(corrected.deadlines.map(\.day) == [day("2026-01-07")] && corrected.dueDate == day("2026-01-07"))
        #expect(corrected.deadlines.first?.explanation.contains("invoice date 2025-12-08") == true)
        // Kept through the store's JSON, so a record read back counts the same.
        let back = try JSONDecoder().decode(DocumentRecord.self, from: Data(invoice.jsonLine().utf8))
        #expect(back.deadlineFacts == invoice.deadlineFacts)
        #expect(Review.apply([.edit(.date, .day(CalendarDay(iso: "2025-12-08")!))], to: back).dueDate == day("2026-01-07"))
    }

    @Test func aDueDateTheEInvoiceStatesStaysWhenTheDateIsCorrected() {
        var r = record(.invoice, date: "2026-03-01")
        r.dueDate = day("2026-03-31")
        let counted = merger.withDeadlines(r, extraction: nil, sidecar: nil, presets: DeadlinePresets())
        let corrected = Review.apply([.edit(.date, .day(CalendarDay(iso: "2026-03-02")!))], to: counted)
        #expect(corrected.dueDate == day("2026-03-31") && corrected.deadlines.map(\.day) == [day("2026-03-31")])
        // Counted a second time (rescore), the stated day is still the XML's, not one counted from terms.
        #expect(
            merger.withDeadlines(counted, extraction: nil, sidecar: nil, presets: DeadlinePresets()).deadlineFacts?.statedDueDate == day("2026-03-31")
        )
    }

    @Test func presetsFromAnImportOutsideTheirRangesAreNotCounted() {
        var r = record(.receipt, date: "2026-03-01")
        r.deadlineFacts = DeadlineFacts(
            kind: .receipt, documentDate: r.date, presets: DeadlinePresets(returnWindowDays: 9_999_999, warrantyMonths: 24))
        let again = r.recountingDeadlines()
        #expect(again.deadlines.map(\.kind) == [.warranty])
    }

    /// Terms no reader gives (an imported store's): dropped, not counted; a day past Int's reach would trap.
    @Test func termsFromAnImportOutsideTheirReadersRangesAreNotCounted() throws {
        let json = #"""
            {"source": "f/a.pdf", "folder": "f", "sha256": "00", "status": "review", "documentKind": "invoice", "date": "2026-03-01",
             "deadlineFacts": {"kind": "invoice", "presets": {}, "paymentTerm": {"term": {"daysAfterInvoice": 9223372036854775807},
             "wording": "x"}}}
            """#
        let invoice = try JSONDecoder().decode(DocumentRecord.self, from: Data(json.utf8))
        #expect(invoice.deadlineFacts?.paymentTerm != nil)
        let edited = Review.apply([.edit(.date, .day(CalendarDay(iso: "2026-03-02")!))], to: invoice)
        #expect(edited.deadlines.isEmpty && edited.deadlineFacts?.paymentTerm == nil)
        var contract = record(.contract, date: "2026-03-01")
        contract.deadlineFacts = DeadlineFacts(
            kind: .contract, documentDate: contract.date,
            contract: ContractTerms(notice: .months(Int.max), noticeWording: "x", endOfTerm: day("2027-12-31"), endWording: "y"))
        #expect(contract.recountingDeadlines().deadlines.isEmpty)
        var extraction = Extraction()
        extraction.paymentTerm = PaymentTermReading(term: .daysAfterInvoice(30), wording: String(repeating: "y", count: 900))
        let long = merger.withDeadlines(record(.invoice, date: "2026-03-01"), extraction: extraction, sidecar: nil, presets: DeadlinePresets())
        let wording = try #require(long.deadlineFacts?.paymentTerm?.wording)
        #expect(wording.count == 200)
    }

    /// An e-invoice's XML without a due date, its terms in words: counted from its date like a page's terms.
    @Test func anEInvoicesWordedTermsCountWhenItStatesNoDueDate() {
        var r = record(.invoice, date: "2026-01-08")
        var e = EInvoice(syntax: .cii)
        e.paymentTerms = ["Zahlbar innerhalb von 14 Tagen."]
        r.eInvoice = e
        let counted = merger.withDeadlines(r, extraction: nil, sidecar: nil, presets: DeadlinePresets())
        #expect(counted.deadlines.map { "\($0.kind.rawValue) \($0.day.iso)" } == ["payment 2026-01-22"])
        #expect(counted.dueDate == day("2026-01-22"))
        // A stated due date wins over the words.
        r.dueDate = day("2026-01-31")
        #expect(merger.withDeadlines(r, extraction: nil, sidecar: nil, presets: DeadlinePresets()).dueDate == day("2026-01-31"))
    }

    /// A contract whose terms were not read: the person types its end of term and notice period, in any of the five
    /// languages, and the cancellation day is counted; what is no day or no period is refused.
    @Test func aContractsTermsTypedInReviewGiveItsCancellationDay() throws {
        let contract = merger.withDeadlines(record(.contract, date: "2026-01-15"), extraction: nil, sidecar: nil, presets: DeadlinePresets())
        #expect(contract.reasons.map(\.code) == ["contract-terms-unread"] && contract.deadlines.isEmpty)
        for (typed, stored) in [
            ("3 months", "3 months"), ("3 Monate", "3 months"), ("6 semaines", "42 days"), ("1 mes", "1 month"), ("30 hari", "30 days")
        ] {
            #expect(try Review.validate(field: "noticePeriod", value: typed, record: contract, today: today).get().logged == stored, "\(typed)")
        }
        for bad in ["soon", "3", "3 months and 2 days", "500 days", "36 months"] {
            #expect(throws: ReviewInputError.self, "\(bad)") {
                try Review.validate(field: "noticePeriod", value: bad, record: contract, today: today).get()
            }
        }
        // The end lies ahead of today, never before the contract's date.
        #expect(try Review.validate(field: "endOfTerm", value: "31.12.2027", record: contract, today: today).get() == .day(day("2027-12-31")))
        #expect(throws: ReviewInputError.self) { try Review.validate(field: "endOfTerm", value: "2025-12-31", record: contract, today: today).get() }
        let end = ReviewDecision.edit(.endOfTerm, .day(CalendarDay(iso: "2027-12-31")!))
        let halfway = Review.apply([end], to: contract)
        #expect(halfway.deadlines.isEmpty && halfway.reasons.map(\.code) == ["contract-terms-unread"])
        let typed = Review.apply([end, ReviewDecision(logged: "edit", field: "noticePeriod", value: "3 months")!], to: contract)
        #expect(typed.deadlines.map { "\($0.kind.rawValue) \($0.day.iso)" } == ["cancellation 2027-09-30"])
        #expect(typed.reasons.isEmpty && typed.comparedValue("noticePeriod") == "3 months" && typed.comparedValue("endOfTerm") == "2027-12-31")
        #expect(typed.deadlines.first?.explanation == "Last day to cancel: 2027-09-30, 3 months' notice before the end of the term 2027-12-31.")
    }
}
