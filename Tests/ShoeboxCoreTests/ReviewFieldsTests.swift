import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxExport
@testable import ShoeboxJudgement
@testable import ShoeboxParsing
@testable import ShoeboxReading

/// Issue 19: the category, a note and the payment method are a person's to set, checked like every typed value
/// (a category only among those its folder allows), kept on the record, and what the export shows; a sidecar may
/// give the category and the note too.
struct ReviewFieldsTests {
    let day = CalendarDay(iso: "2026-11-30")!
    let record = DocumentRecord(source: "trip/a.jpg", folder: "trip", sha256: String(repeating: "a", count: 64), status: .accepted)

    func validate(_ field: String, _ value: String, categories: [String] = []) -> Result<String, ReviewInputError> {
        Review.validate(field: field, value: value, record: record, today: day, categories: categories).map(\.logged)
    }

    @Test func aCategoryMustBeOneTheFolderAllows() throws {
        #expect(try validate("category", " meals ", categories: ["work trip", "meals"]).get() == "meals")
        guard case .failure(let e) = validate("category", "groceries", categories: ["work trip", "meals"]) else {
            Issue.record("a category the folder does not list was taken")
            return
        }
        #expect(e.message == "'groceries' is not one of this folder's categories: work trip, meals.")
        // A folder that lists none allows any (within the length every way in checks).
        #expect(try validate("category", "groceries").get() == "groceries")
        #expect(throws: ReviewInputError.self) { try validate("category", String(repeating: "x", count: 101)).get() }
    }

    @Test func aNoteMaySpanLinesAndRunLongerThanAValue() throws {
        let note = "Client dinner with A. and B.\nBilled to project 17."
        #expect(try validate("note", note + "\n").get() == note)
        #expect(try validate("note", String(repeating: "n", count: 1000)).get().count == 1000)
        #expect(throws: ReviewInputError.self) { try validate("note", String(repeating: "n", count: 1001)).get() }
        #expect(throws: ReviewInputError.self) { try validate("note", "a\u{1B}[31m").get() }
    }

    @Test func theRecordKeepsThemAndTheExportShowsThem() throws {
        var r = record
        r.merchant = "Café Einstein"
        let decided = Review.apply(
            [
                .edit(.category, .text("meals")), .edit(.note, .text("team lunch")),
                .edit(.paymentMethod, .text("company card"))
            ], to: r)
        #expect(decided.category == "meals" && decided.note == "team lunch" && decided.paymentMethod == "company card")
        #expect(decided.evidence[.category]?.source == .person)
        // Through the record's JSON and back.
        let back = try JSONDecoder().decode(DocumentRecord.self, from: Data(decided.jsonLine().utf8))
        #expect(back.category == "meals" && back.note == "team lunch")
        // A record without them writes neither key: records.jsonl of every other record reads as before.
        #expect(!r.jsonLine().contains("\"category\"") && !r.jsonLine().contains("\"note\""))
        // The export: the person's category over the folder's rules, the note in its own column.
        let row = ExportRow(record: decided, category: decided.category ?? "work trip", fileInZip: "receipts/x.jpg", originalPath: "trip/a.jpg")
        let table = ExportTable(rows: [row])
        let cells = Dictionary(uniqueKeysWithValues: zip(table.header, table.cells(row)))
        #expect(cells["category"] == .text("meals") && cells["note"] == .text("team lunch") && cells["payment_method"] == .text("company card"))
        // The decision log's before and after for such an edit.
        let change = ReviewDecision.edit(.category, .text("work trip")).change(on: decided)
        #expect(change.before == "meals" && change.after == "work trip")
    }

    @Test func aSidecarGivesTheCategoryAndTheNote() {
        let s = Sidecar.parse(Array(#"{"category": "meals", "note": "with the client\nproject 17"}"#.utf8), today: day)
        #expect(s.problems.isEmpty && s.category == "meals" && s.note == "with the client\nproject 17")
        let merged = RecordMerger(acceptThreshold: 0.6, requiredFields: [.total]).merge(
            Extraction(), source: SourceFile(path: "/x/a.jpg", relativePath: "a.jpg", folder: "", kind: .jpeg, sha256: "00", size: 1),
            language: .unknown, pages: 1, other: OtherSources(sidecar: s))
        #expect(merged.category == "meals" && merged.note == "with the client\nproject 17")
    }
}

/// Issue 19: an expense without a receipt, entered by hand: every value checked as an edit is, in one of the store's
/// folders, waiting as `entered-by-hand` until the person's accept (which the store saves with it).
struct HandEntryTests {
    let day = CalendarDay(iso: "2026-11-30")!

    func entry(_ fields: [String: String], folder: String = "trip", categories: [String] = []) -> Result<DocumentRecord, ReviewInputError> {
        Review.handEntry(folder: folder, fields: fields, id: "0123456789ab", today: day, folders: ["", "trip"], categories: categories)
    }

    @Test func anEntryIsCheckedAsEditsAre() throws {
        let r = try entry(["date": "14.03.2026", "merchant": "Taxi Berlin", "total": "23,40 €", "note": "airport", "category": "work trip"]).get()
        #expect(r.source == "trip/entered-by-hand-0123456789ab" && r.enteredByHand && r.pages == 0)
        #expect(r.date?.iso == "2026-03-14" && r.total?.description == "23.40 EUR" && r.currency == .eur && r.merchant == "Taxi Berlin")
        #expect(r.note == "airport" && r.category == "work trip")
        #expect(r.status == .review && r.reasons.map(\.code) == ["entered-by-hand"])
        #expect(r.evidence.values.allSatisfy { $0.source == .person })
        #expect(Review.apply([ReviewDecision(action: .accept)], to: r).status == .accepted)
        // Written to JSON and back, it is still the person's entry.
        #expect(try JSONDecoder().decode(DocumentRecord.self, from: Data(r.jsonLine().utf8)).enteredByHand)
    }

    @Test func whatAnEntryMayNotBeIsSaid() {
        func refusal(_ r: Result<DocumentRecord, ReviewInputError>) -> String? {
            if case .failure(let e) = r { return e.message }
            return nil
        }
        #expect(refusal(entry(["date": "2026-03-14", "merchant": "Taxi"])) == "an expense entered by hand needs a total.")
        #expect(refusal(entry(["date": "2026-03-14", "merchant": "Taxi", "total": "12.00"]))?.contains("has no currency") == true)
        #expect(refusal(entry(["date": "2026-03-14", "merchant": "Taxi", "total": "-12.00 EUR"]))?.contains("not more than 0") == true)
        #expect(refusal(entry(["date": "2027-01-01", "merchant": "Taxi", "total": "12.00 EUR"]))?.contains("is not a date") == true)
        #expect(refusal(entry(["date": "2026-03-14", "merchant": "Taxi", "total": "12 EUR", "tip": "2"]))?.hasPrefix("'tip' is not a field") == true)
        #expect(
            refusal(entry(["date": "2026-03-14", "merchant": "Taxi", "total": "12 EUR"], folder: "elsewhere"))?.contains("not a folder of this store")
                == true)
        #expect(
            refusal(entry(["date": "2026-03-14", "merchant": "Taxi", "total": "12 EUR", "category": "fun"], categories: ["work trip"]))?.contains(
                "not one of this folder's categories") == true)
        // The top level is a folder too.
        #expect(
            (try? entry(["date": "2026-03-14", "merchant": "Taxi", "total": "12 EUR"], folder: "").get())?.source == "entered-by-hand-0123456789ab")
    }
}

/// Issue 19: tax lines are a person's to correct, "rate=amount; …" in the record's currency, read back as the export
/// writes them.
struct TaxLineEditTests {
    let day = CalendarDay(iso: "2026-11-30")!

    @Test func taxLinesAreTypedAsRatesAndAmounts() throws {
        var r = DocumentRecord(source: "trip/a.jpg", folder: "trip", sha256: String(repeating: "a", count: 64), status: .review)
        func typed(_ v: String) -> Result<FieldValue, ReviewInputError> { Review.validate(field: "tax", value: v, record: r, today: day) }
        #expect(throws: ReviewInputError.self) { try typed("19=2.65").get() } // no currency yet
        r.currency = .eur
        r.total = Money(decimal: "16.60", currency: .eur)
        #expect(try typed("19 % = 2,65; 7=1.05").get().logged == "7=1.05; 19=2.65")
        #expect(try typed("none").get() == .tax([]))
        for bad in ["19", "19=x", "150=1.00", "19=1.00; 19=2.00", "19=1.005", "19=2.00 USD"] {
            #expect(throws: ReviewInputError.self, "\(bad)") { try typed(bad).get() }
        }
        let edited = Review.apply([.edit(.tax, try typed("19=2.65").get())], to: r)
        #expect(edited.tax.map(\.amount.minorUnits) == [265] && edited.tax.first?.rate == "19")
        #expect(edited.comparedValue("tax") == "19=2.65" && edited.evidence[.tax]?.source == .person)
        #expect(Review.apply([ReviewDecision(logged: "edit", field: "tax", value: "none")!], to: edited).tax.isEmpty)
        // A credit note's tax is negative, as its total.
        var credit = r
        credit.documentKind = .creditNote
        credit.total = Money(decimal: "-16.60", currency: .eur)
        #expect(try Review.validate(field: "tax", value: "19=2.65", record: credit, today: day).get().logged == "19=-2.65")
    }
}

/// A review edit is a typed value from the desk to the store: what `validate` returns is what the decision log keeps
/// (`logged`) and reads back unchanged, for every editable field; a value of another field's kind sets nothing.
struct TypedEditTests {
    let today = CalendarDay(iso: "2026-11-30")!

    @Test func everyCheckedValueReadsBackFromTheLogUnchanged() throws {
        var r = DocumentRecord(source: "a.jpg", folder: "", sha256: String(repeating: "a", count: 64), status: .review)
        r.currency = .eur
        r.total = Money(decimal: "16.60", currency: .eur)
        r.date = CalendarDay(iso: "2026-01-10")
        r.items = [LineItem(description: "Brot", amount: Money(decimal: "16.60", currency: .eur)!, source: .ocr)]
        let typed: [(String, String)] = [
            ("merchant", " Café Zentral "), ("date", "14.03.2026"), ("total", "15,00"), ("total", "12.00 USD"), ("currency", "€"),
            ("referenceNumber", "R-1"), ("paymentMethod", "card"), ("category", "meals"), ("note", "line one\nline two"),
            ("tax", "19=2.65; 7 % = 1,05"), ("tax", "none"), ("receivedOn", "2026-02-01"), ("endOfTerm", "31.12.2027"),
            ("noticePeriod", "3 Monate"), ("item", "1 amount=2,50"), ("item", "1 description=Vollkornbrot")
        ]
        #expect(Set(typed.map(\.0)) == Set(ReviewLimits.editableFields.map(\.rawValue)))
        for (field, text) in typed {
            let d = try Review.edit(field: field, value: text, record: r, today: today).get()
            let logged = try #require(d.logged, "\(field)")
            let back = try #require(ReviewDecision(logged: "edit", field: field, value: logged), "\(field) \(logged)")
            #expect(back == d, "\(field): \(logged)")
            // Applied from the log, the same record as applied from the desk.
            #expect(Review.apply([back], to: r) == Review.apply([d], to: r), "\(field)")
        }
        #expect(
            try Review.edit(field: "total", value: "15,00", record: r, today: today).get().value == .total(Money(decimal: "15.00", currency: .eur)!))
    }

    @Test func aValueOfAnotherKindOrAnUnreadableLogEntrySetsNothing() {
        var r = DocumentRecord(source: "a.jpg", folder: "", sha256: String(repeating: "a", count: 64), status: .review)
        r.merchant = "Kiosk"
        let wrongKind = Review.apply([.edit(.date, .text("yesterday"))], to: r)
        #expect(wrongKind == r)
        let unreadable = ReviewDecision(logged: "edit", field: "date", value: "14/03/26")
        #expect(unreadable != nil && unreadable?.value == nil && unreadable?.field == .date)
        #expect(Review.apply([unreadable!], to: r) == r)
        #expect(ReviewDecision(logged: "shrug", field: nil, value: nil) == nil)
        #expect(ReviewDecision(logged: "settle", field: nil, value: "payment")?.deadline == .payment)
    }
}
