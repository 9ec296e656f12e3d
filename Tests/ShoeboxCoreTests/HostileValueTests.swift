import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxExport
@testable import ShoeboxJudgement
@testable import ShoeboxParsing
@testable import ShoeboxReading

/// Issue 15, classes 4, 10 and 14: typed values are stored as typed or refused with a reason; settings have
/// ranges; sizes are printed so that they mean something. The end-to-end side is in HostileReviewTests.
struct HostileValueTests {
    let day = CalendarDay(iso: "2026-11-30")!

    func record(currency: String? = nil, total: String? = nil) -> DocumentRecord {
        var r = DocumentRecord(source: "shop/a.pdf", folder: "shop", sha256: String(repeating: "a", count: 64), status: .review)
        r.currency = currency.flatMap(CurrencyCode.init)
        if let total, let c = r.currency { r.total = Money(decimal: total, currency: c) }
        return r
    }

    func refusal(_ field: String, _ value: String, _ r: DocumentRecord) -> String? {
        if case .failure(let e) = Review.validate(field: field, value: value, record: r, today: day) { return e.message }
        return nil
    }

    func accepted(_ field: String, _ value: String, _ r: DocumentRecord) -> String? {
        if case .success(let v) = Review.validate(field: field, value: value, record: r, today: day) { return v.logged }
        return nil
    }

    @Test func theCurrencyTypedWithAnAmountIsRead() {
        #expect(FieldInput.currency(typedWith: "15.00 EUR") == .code(.eur))
        #expect(FieldInput.currency(typedWith: "eur 15") == .code(.eur))
        #expect(FieldInput.currency(typedWith: "15,00 €") == .code(.eur))
        #expect(FieldInput.currency(typedWith: "£9") == .code(.gbp))
        #expect(FieldInput.currency(typedWith: "RM 12.50") == .code(.myr))
        #expect(FieldInput.currency(typedWith: "15.00") == FieldInput.TypedCurrency.none)
        #expect(FieldInput.currency(typedWith: "$15") == .unclear("$"))
        #expect(FieldInput.currency(typedWith: "ab 15") == .unclear("ab"))
        #expect(FieldInput.currency(typedWith: "€ 15 USD") == .unclear("EUR and USD"))
        #expect(FieldInput.amount("15.00 EUR")?.currencyHint == "EUR", "the amount keeps the currency it was typed with")
        #expect(FieldInput.amount("1.234,56 €")?.currencyHint == "EUR")
        #expect(FieldInput.amount("15.00")?.currencyHint == nil)
    }

    @Test func aTotalIsStoredWithItsCurrencyOrRefused() {
        let none = record()
        #expect(accepted("total", "15.00 EUR", none) == "15.00 EUR")
        #expect(refusal("total", "15.00", none)?.hasPrefix("the record has no currency, so '15.00' cannot be stored alone.") == true)
        #expect(refusal("total", "$15", none)?.contains("is not one currency") == true)
        #expect(refusal("total", "0 EUR", none)?.contains("not more than 0") == true)
        #expect(refusal("total", "-5 EUR", none)?.contains("not more than 0") == true)
        // A credit note's or refund's total keeps its sign: a person may type it negative there, and only there.
        var credit = record()
        credit.documentKind = .creditNote
        #expect(accepted("total", "-101.97 EUR", credit) == "-101.97 EUR")
        #expect(accepted("total", "− 5,00 €", credit) == "-5.00 EUR")
        #expect(refusal("total", "-0 EUR", credit)?.contains("not more than 0") == true)
        var refund = record()
        refund.currency = .eur
        refund.total = Money(decimal: "-3.20", currency: .eur)
        #expect(accepted("total", "-3.50", refund) == "-3.50 EUR")
        #expect(Review.apply([ReviewDecision(logged: "edit", field: "total", value: "-3.50 EUR")!], to: refund).total?.minorUnits == -350)
        #expect(refusal("total", "15.50 JPY", none)?.hasPrefix("JPY has 0 decimal places") == true)
        #expect(accepted("total", "1500 JPY", none) == "1500 JPY")
        #expect(refusal("total", "1.234.567.890.123.456,78 EUR", none)?.contains("more than any receipt") == true)
        let euro = record(currency: "EUR", total: "9.99")
        #expect(accepted("total", "15.00", euro) == "15.00 EUR")
        #expect(accepted("total", "15.00 USD", euro) == "15.00 USD", "the typed currency wins")

        // What validate accepts, apply stores: total and currency, marked as a person's.
        let applied = Review.apply([ReviewDecision(logged: "edit", field: "total", value: "15.00 EUR")!], to: none)
        #expect(applied.total == Money(decimal: "15.00", currency: .eur) && applied.currency == .eur)
        #expect(applied.evidence[.total]?.source == .person && applied.evidence[.currency]?.source == .person)
        // A decision stored before totals carried their currency cannot be applied to such a record: it changes
        // nothing and does not claim the field was set.
        let old = Review.apply([ReviewDecision(logged: "edit", field: "total", value: "15.00")!], to: none)
        #expect(old.total == nil && old.evidence[.total] == nil)
        // In the record's own currency, "15.00" still applies.
        #expect(
            Review.apply([ReviewDecision(logged: "edit", field: "total", value: "15.00")!], to: euro).total == Money(decimal: "15.00", currency: .eur)
        )
    }

    @Test func aCurrencyEditCarriesTheAmountsOverExactlyOrIsRefused() {
        let euro = record(currency: "EUR", total: "15.50")
        #expect(refusal("currency", "JPY", euro)?.contains("cannot hold exactly") == true)
        #expect(accepted("currency", "usd", euro) == "USD")
        #expect(accepted("currency", "€", euro) == "EUR" && accepted("currency", "RM", euro) == "MYR")
        #expect(refusal("currency", "$", euro) != nil && refusal("currency", "EURO", euro) != nil && refusal("currency", "15 EUR", euro) != nil)
        let usd = Review.apply([.edit(.currency, .currency(CurrencyCode("USD")!))], to: euro)
        #expect(usd.total == Money(decimal: "15.50", currency: .usd))
        let whole = record(currency: "EUR", total: "15.00")
        #expect(Review.apply([.edit(.currency, .currency(CurrencyCode("JPY")!))], to: whole).total?.description == "15 JPY")
        #expect(Review.redenominate(Money(decimal: "15.50", currency: .eur)!, to: CurrencyCode("JPY")!) == nil)
    }

    @Test func controlCharactersAndImplausibleDatesAreRefused() {
        let r = record(currency: "EUR")
        for bad in ["A\u{0}B", "A\u{1B}[31mB", "A\nB", "A\u{2028}B", "A\tB"] {
            #expect(refusal("merchant", bad, r)?.contains("control character (U+") == true, "\(bad.debugDescription)")
            #expect(refusal("referenceNumber", bad, r)?.contains("control character") == true)
        }
        #expect(refusal("total", "15\u{0}.00", r)?.contains("control character (U+0000)") == true)
        #expect(refusal("merchant", String(repeating: "x", count: 201), r)?.contains("at most 200") == true)
        #expect(accepted("merchant", "Café Einstein", r) == "Café Einstein")
        #expect(refusal("date", "0001-01-01", r)?.contains("is not a date from 1900-01-01 to 2026-11-30") == true)
        #expect(refusal("date", "1899-12-31", r) != nil)
        #expect(accepted("date", "1900-01-01", r) == "1900-01-01")
        #expect(refusal("date", "2026-12-01", r) != nil, "after today")
        #expect(refusal("colour", "red", r)?.contains("cannot be edited") == true)
    }

    @Test func aSidecarNamesNULsAndOldDatesAndKeepsItsCurrency() {
        let s = Sidecar.parse(
            Array(#"{"merchant": "A\u0000B", "referenceNumber": "x\u001by", "date": "0001-01-01", "total": "15.00 EUR"}"#.utf8), today: day)
        #expect(s.merchant == nil && s.referenceNumber == nil && s.date == nil)
        #expect(s.problems.contains("'merchant' holds a control character (U+0000), which no document has"), "\(s.problems)")
        #expect(s.problems.contains("'referenceNumber' holds a control character (U+001B), which no document has"), "\(s.problems)")
        #expect(s.problems.contains("'date' 0001-01-01 is not a date from 1900-01-01 to 2026-11-30"), "\(s.problems)")
        #expect(s.total?.currencyHint == "EUR")
    }

    @Test func sizesAreWrittenSoThatTheyMeanSomething() {
        #expect(ByteCount.text(0) == "0 bytes")
        #expect(ByteCount.text(1) == "1 byte")
        #expect(ByteCount.text(1023) == "1023 bytes")
        #expect(ByteCount.text(1049) == "1.02 KiB")
        #expect(ByteCount.text(10486) == "10.2 KiB")
        #expect(ByteCount.text(512 << 20) == "512 MiB")
        #expect(ByteCount.text(3_932_160) == "3.75 MiB")
        #expect(ByteCount.text(2 << 30) == "2.00 GiB")
        #expect(ByteCount.text(Int64.max) == "8192 PiB")
    }

    @Test func everyPipelineNumberHasARange() throws {
        func message(_ json: String) -> String? {
            do {
                _ = try PipelineConfig.parse(Data(json.utf8), file: "p.json")
                return nil
            } catch { return error.message }
        }
        #expect(message(#"{"version": 1, "jobs": 1e18}"#) == #"key "jobs" is 1e+18, outside its range 0 to 64 (0: one per core)"#)
        #expect(message(#"{"version": 1, "maxMegapixels": 1e13}"#) == #"key "maxMegapixels" is 10000000000000, outside its range 1 to 500"#)
        #expect(
            message(#"{"version": 1, "extraPassSegmentationModes": [3.7]}"#)
                == #"key "extraPassSegmentationModes[0]" must be a whole number from 1 to 13, not 3.7"#)
        #expect(message(#"{"version": 1, "maxFileMegabytes": 1e6}"#) == #"key "maxFileMegabytes" is 1000000, outside its range 1 to 4096 MiB"#)
        #expect(message(#"{"version": 1, "acceptThreshold": 1.5}"#) == #"key "acceptThreshold" is 1.5, outside its range 0 to 1"#)
        #expect(message(#"{"version": -1}"#)?.hasPrefix("version -1 is not supported") == true)
        #expect(message(#"{"version": 1, "name": "a\u0000b"}"#)?.contains("without control characters") == true)
        let c = try PipelineConfig.parse(
            Data(#"{"version": 1, "jobs": 64, "extraPassSegmentationModes": [3.0], "maxExportMegabytes": 0.001, "textHeightTarget": 0}"#.utf8),
            file: "p.json")
        #expect(c.jobs == 64 && c.extraPassSegmentationModes == [3] && c.maxExportBytes == 1049 && c.textHeightTarget == 0)
    }

    /// Review round 2 of issue 15: sums and currency changes of amounts near Int64's end never trap (a store
    /// written outside Shoebox may hold them; import now refuses them): a sum that would overflow leaves its
    /// cell empty, and an amount that cannot be carried into another currency is refused in review.
    @Test func overflowingTaxSumsAndCurrencyChangesNeverTrap() {
        let huge = Int64.max / 2 + 1
        var r = record(currency: "EUR", total: "100.00")
        r.status = .accepted
        r.tax = [
            TaxLine(rate: "19", amount: Money(minorUnits: huge, currency: .eur)), TaxLine(rate: "19", amount: Money(minorUnits: huge, currency: .eur))
        ]
        let table = ExportTable(rows: [ExportRow(record: r, category: nil, fileInZip: "receipts/a.pdf", originalPath: "/scans/shop/a.pdf")])
        let cells = Dictionary(uniqueKeysWithValues: table.columns.map { ($0.name, $0.cell(table.rows[0])) })
        #expect(cells["tax_19"] == .empty, "an overflowing sum leaves the cell empty: \(String(describing: cells["tax_19"]))")
        #expect(cells["net"] == .empty, "\(String(describing: cells["net"]))")
        #expect(cells["total"] == .amount(Money(minorUnits: 10_000, currency: .eur)))
        let totals = ExportSummaries.totals(table, profile: .rfc4180)
        #expect(totals.contains("currency,,EUR,1,100.00,,\r\n"), "the total is summed, the overflowing tax and net left empty: \(totals)")
        // Two records whose totals overflow together: the total cell is empty, the tax still right.
        var big = record(currency: "EUR")
        big.status = .accepted
        big.total = Money(minorUnits: huge, currency: .eur)
        big.tax = [TaxLine(rate: "7", amount: Money(minorUnits: 700, currency: .eur))]
        let two = ExportTable(rows: [big, big].map { ExportRow(record: $0, category: nil, fileInZip: "receipts/b.pdf", originalPath: "/b.pdf") })
        // The nets (each total − 7.00) still fit in Int64 together, so their sum is exact.
        #expect(ExportSummaries.totals(two, profile: .rfc4180).contains("currency,,EUR,2,,14.00,92233720368547744.08\r\n"))
        #expect((Money(minorUnits: huge, currency: .eur) + Money(minorUnits: huge, currency: .eur)) == nil)

        // Yen to euros multiplies by 100: an amount that would overflow is not "the same amount" in euros.
        let yen = Money(minorUnits: Int64.max / 10, currency: CurrencyCode("JPY")!)
        #expect(Review.redenominate(yen, to: .eur) == nil)
        var inYen = record(currency: "JPY")
        inYen.total = yen
        inYen.tax = [TaxLine(rate: "10", amount: yen)]
        #expect(refusal("currency", "EUR", inYen)?.contains("cannot hold exactly") == true)
        let moved = Review.apply([.edit(.currency, .currency(CurrencyCode("EUR")!))], to: inYen)
        #expect(moved.currency == .eur && moved.total == nil && moved.tax.isEmpty, "what cannot be carried over is dropped, as documented")
        #expect(AmountReading(minorUnits: Int64.max / 10, fractionDigits: 0, currencyHint: nil).exactMoney(in: .eur) == nil)
    }
}
