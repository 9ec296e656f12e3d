import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement
@testable import ShoeboxParsing
@testable import ShoeboxReading

/// The rules that real receipts and invoices needed, each on the kind of line that needed it.
struct RealReceiptRulesTests {
    let parser = ReceiptParser(today: today)
    let merger = RecordMerger(acceptThreshold: 0.6, requiredFields: [.merchant, .date, .total, .currency])
    let source = SourceFile(path: "/x/a.jpg", relativePath: "a.jpg", folder: "", kind: .jpeg, sha256: "00", size: 1)

    func record(_ lines: [String], language: String? = "eng") -> DocumentRecord {
        merger.merge(
            parser.parse(pages: [page(lines)], language: language), source: source,
            language: LanguageGuess(language: language, confidence: 0.9), pages: 1)
    }

    @Test func ocrBreaksInsideAmountsAreMended() {
        #expect(AmountReader.mend("TOTAL RM 64. 15") == "TOTAL RM 64.15")
        #expect(AmountReader.mend("Total 12 .50") == "Total 12.50")
        #expect(AmountReader.mend("Total Sales RM 64 13") == "Total Sales RM 64.13")
        #expect(AmountReader.mend("Discount RM O.00") == "Discount RM 0.00")
        #expect(AmountReader.mend("Item 5.O0") == "Item 5.00")
        // Not amounts: left alone.
        #expect(AmountReader.mend("Tel 03 8079 0255") == "Tel 03 8079 0255")
        #expect(AmountReader.mend("NO 2 OF 3") == "NO 2 OF 3")
    }

    @Test func totalAfterRoundingWins() {
        let r = record([
            "SHOP SDN BHD", "05/03/2018", "Total Sales (Incl GST 6%) RM 64.13", "Rounding Adjustment RM 0.02",
            "TOTAL RM 64.15", "CASH RM 100.00", "CHANGE RM 35.85"
        ])
        #expect(r.total?.decimalString == "64.15")
        #expect(r.currency?.code == "MYR")
    }

    @Test func aKeywordLineWithItsAmountOnTheNextLine() {
        let r = record(["ABC HO TRADING", "81100 JOHOR BAHRU", "09/01/2019", "Total Amount:", "31.00", "Cash Received 101.00", "Change 70.00"])
        #expect(r.total?.decimalString == "31.00")
    }

    @Test func countsAreNotMoney() {
        let e = parser.parse(pages: [page(["Total Qty: 3.00", "TOTAL 9.00"])], language: "eng")
        #expect(e.amounts.filter { $0.role == .total }.map(\.value.minorUnits) == [900])
    }

    @Test func arithmeticMendsAOneDigitMisread() {
        // "37.10" read as "87.10" on the total line; cash − change says 37.10.
        let e = parser.parse(pages: [page(["MR DIY SDN BHD", "Total Incl. GST RM 87.10", "CASH RM 50.00", "CHANGE RM 12.90"])], language: "eng")
        let best = e.amounts.max { $0.score < $1.score }
        #expect(best?.value.minorUnits == 3710)
        #expect(best?.notes.contains("computed: tendered − change") == true)
        #expect(best?.checks == [.computed(.tenderedMinusChange)])
    }

    @Test func aPaymentWithoutChangeIsTheTotalWhenNoLineSaysTotal() {
        let r = record(["KEDAI RUNCIT SDN BHD", "18-10-17 15:16", "9555112901406 1X 5.90", "CASH RM 5.90"])
        #expect(r.total?.decimalString == "5.90")
    }

    @Test func severalLabelledAmountsOnOneLine() {
        let e = parser.parse(
            pages: [page(["TOTAL HT 100,00 TOTAL TVA 20,00 TOTAL 120,00 TTC", "Acompte : 20,00", "NET A PAYER 100,00 EUR"])], language: "fra")
        #expect(e.amounts.first { $0.value.minorUnits == 10000 && $0.evidence?.line == 0 }?.role == .subtotal)
        #expect(e.amounts.first { $0.value.minorUnits == 2000 && $0.evidence?.line == 0 }?.role == .tax)
        let best = e.amounts.max { $0.score < $1.score }
        #expect(best?.value.minorUnits == 12000, "the gross total beats the amount due after a prepayment")
    }

    /// Issue 51, currency from the issuer's country: a page that prints no currency but whose hints are of two kinds
    /// (a legal form, a tax name or number, a place, a calling code) and name one country has that country's currency
    /// from evidence, with no reason; thin hints (one kind) or hints of two countries stay `currency-inferred`.
    @Test func aPagePlacedByTwoKindsOfHintHasItsCountrysCurrencyWithoutAReason() {
        let placed = record(["FUYI MINI MARKET", "GST No. : 001610720", "JALAN SAGU 18, TAMAN DAYA", "25/01/2018", "Total 9.00"])
        #expect(placed.currency?.code == "MYR")
        #expect(!placed.reasons.contains(.currencyInferred), "\(placed.reasons)")
        // Two place words are one kind of hint ("Jalan" is Indonesian too): still a guess.
        let thin = record(["FUYI MINI MARKET", "JALAN SAGU 18, TAMAN DAYA", "25/01/2018", "Total 9.00"])
        #expect(thin.currency?.code == "MYR" && thin.reasons.contains(.currencyInferred), "\(thin.reasons)")
        // Hints of two countries: a reason.
        let twoWays = record(["FUYI MINI MARKET SDN BHD", "JALAN SAGU 18", "MwSt 19%", "25/01/2018", "Total 9.00"])
        #expect(twoWays.reasons.contains(.currencyInferred), "\(twoWays.reasons)")
        // A German page: a legal form and a five-digit postcode before a town.
        let german = record(["Bäckerei Schmidt GmbH", "Hauptstr. 5, 10115 Berlin", "Datum 14.03.2026", "Summe 3,68"], language: "deu")
        #expect(german.currency?.code == "EUR" && !german.reasons.contains(.currencyInferred), "\(german.reasons)")
        // The postcode counts on a German page only, and a legal form alone is thin.
        let alone = record(["Bäckerei Schmidt GmbH", "Datum 14.03.2026", "Summe 3,68"], language: "deu")
        #expect(alone.reasons.contains(.currencyInferred), "\(alone.reasons)")
        // A calling code on a telephone line is a hint; the same digits in an amount are not.
        let called = record(["KEDAI RUNCIT AMAN", "Tel: +60 3-2141 8899", "JALAN SAGU 18", "25/01/2018", "Total 9.00"])
        #expect(!called.reasons.contains(.currencyInferred), "\(called.reasons)")
        let amount = record(["KEDAI RUNCIT AMAN", "Adjustment +60.00", "JALAN SAGU 18", "25/01/2018", "Total 9.00"])
        #expect(amount.reasons.contains(.currencyInferred), "\(amount.reasons)")
        // On a placed page one mark of another currency on its own is a misread (a speck read as "£."), however surely
        // read: the country's currency, still a reason (the page points two ways). By an amount, or written twice, it
        // is a purchase in that currency.
        let stray = record(["KEDAI RUNCIT AMAN SDN BHD", "JALAN SAGU 18", "25/01/2018", "£.&.0.F", "Total 9.00"])
        #expect(stray.currency?.code == "MYR" && stray.reasons.contains(.currencyInferred), "\(stray.currency?.code ?? "none") \(stray.reasons)")
        let byAmount = record(["KEDAI RUNCIT AMAN SDN BHD", "JALAN SAGU 18", "25/01/2018", "Total £9.00"])
        #expect(byAmount.currency?.code == "GBP", "\(byAmount.currency?.code ?? "none")")
    }

    @Test func germanPostcodesAreFiveDigitsBeforeATown() {
        #expect(ReceiptParser.germanPostcodeAndTown("hauptstr. 5, 10115 berlin") == "10115 berlin")
        #expect(ReceiptParser.germanPostcodeAndTown("bon 123456 kasse") == nil)
        #expect(ReceiptParser.germanPostcodeAndTown("8001 zurich") == nil)
        #expect(ReceiptParser.germanPostcodeAndTown("summe 10115 eu") == nil)
        #expect(ReceiptParser.germanPostcodeAndTown("de10115 berlin") == nil)
    }

    @Test func aBareDollarOnAMalaysianReceiptIsRinggit() {
        let r = record(["UNIHAKKA INTERNATIONAL SDN BHD", "12 JALAN TUN RAZAK", "29/03/2018", "Nett Total: $7.10"], language: "eng")
        #expect(r.currency?.code == "MYR")
        let us = record(["Blue Ridge Hardware Inc", "03/14/2026", "TOTAL $26.87"], language: "eng")
        #expect(us.currency?.code == "USD")
        #expect(us.date?.iso == "2026-03-14")
    }

    @Test func transactionDateBeatsOtherDates() {
        let e = parser.parse(
            pages: [
                page([
                    "Stylesheet-Version: 2.6 vom 10.11.2025", "Handelsrechnung (380) Nr. 471102 vom 15.11.2024",
                    "Liefer- und Leistungsdatum: 14.11.2024", "Zahlbar bis 15.12.2024"
                ])
            ], language: "deu")
        let best = e.dates.max { $0.score < $1.score }
        #expect(best?.value.iso == "2024-11-15")
    }

    @Test func datesWithOCRSpacesAndGluedTimes() {
        #expect(DateReader.dates(in: ReceiptParser.mendDate("18-10- 17 15:16"), order: .dayFirst, today: today).first?.day.iso == "2017-10-18")
        #expect(DateReader.dates(in: "25/12/201808:13:39", order: .dayFirst, today: today).first?.day.iso == "2018-12-25")
    }

    @Test(
        arguments: [
            (["Handelsrechnung (380) Nr. 471102 vom 15.11.2024"], "471102"),
            (["LOGO LE FOURNISSEUR FACTURE N° : F20220024"], "F20220024"),
            (["Invoice 103767"], "103767"),
            (["INV NO: CS-SA-0079030 Date:"], "CS-SA-0079030"),
            (["Teilrechnung Bau (875) Nr. 210112 vom 06.06.2025"], "210112"),
            (["Rechnung Nr. 210111 mit LV vom 30.05.2026"], "210111 mit LV"),
            (["N° BON DE COMMANDE : PO201925478", "Factura n* F-2025/0921"], "F-2025/0921")
        ] as [([String], String)])
    func referenceNumbers(lines: [String], expected: String) {
        #expect(parser.parse(pages: [page(lines)], language: nil).references.first?.value == expected)
    }

    @Test func merchantRules() {
        // Company number cut, SDN BHD mended.
        #expect(
            parser.parse(pages: [page(["TRI SHAAS SON BHD (728515-M)", "LOT 3, JALAN X"])], language: nil).merchants.first?.value
                == "TRI SHAAS SDN BHD")
        // A name over two lines.
        #expect(
            parser.parse(pages: [page(["POPULAR BOOK", "CO. (M) SDN BHD", "(Co. No. 113825-W)"])], language: nil).merchants.first?.value
                == "POPULAR BOOK CO. (M) SDN BHD")
        // The seller block of an invoice, not the buyer's.
        let invoice = parser.parse(
            pages: [
                page([
                    "Lesbarmachung der XML-Daten von elektronischen Rechnungen", "Käufer", "Name: Kunden AG Mitte",
                    "Verkäufer", "Name: Handwerker GmbH"
                ])
            ], language: "deu")
        #expect(invoice.merchants.first?.value == "Handwerker GmbH")
        // Column headers and misread headers are no names.
        #expect(ReceiptParser.isMisreadHeader("taxinvoige"))
        #expect(!ReceiptParser.isMisreadHeader("fuyi mini market"))
    }

    @Test func moreArithmeticConfirmsTheTotal() {
        func totalNotes(_ lines: [String]) -> [String] {
            let e = parser.parse(pages: [page(lines)], language: "deu")
            return e.amounts.filter { $0.role == .total }.max { $0.score < $1.score }?.notes ?? []
        }
        // Rate × net = tax, beside net + tax = total.
        let vat = totalNotes(["REWE Markt GmbH", "Netto 19,71", "MwSt 19 % 3,74", "SUMME 23,45"])
        #expect(vat.contains("subtotal + tax = total") && vat.contains("tax = rate × net"), "\(vat)")
        // The item lines above add up to the total.
        let items = totalNotes(["Cafe Central", "Kaffee 3,20", "Kuchen 4,10", "SUMME 7,30"])
        #expect(items.contains("line items sum = total"), "\(items)")
        // Subtotal + tax + tip − discount.
        let tip = totalNotes(["Bistro SARL", "Sous-total 20,00", "TVA 10 % 2,00", "Pourboire 3,00", "Remise 1,00", "Total 24,00"])
        #expect(tip.contains("subtotal + tax + tip − discount = total"), "\(tip)")
        // A later total a few cents off, on a 5-cent step, is the rounded amount paid (the rounding line misread).
        let rounded = record([
            "99 SPEED MART S/B", "11-05-16", "Total Sales (Inclusive GST) RM 177.22", "Rounding Adjustment RM 0,0Z",
            "Rounding RM 177.20", "CHANGE RM .00"
        ])
        #expect(rounded.total?.decimalString == "177.20", "\(String(describing: rounded.total))")
        // Cash back is not spent: its own role, never the total.
        let cashback = parser.parse(pages: [page(["SHOP LTD", "TOTAL 12.00", "CASHBACK 20.00", "CARD 32.00"])], language: "eng")
        #expect(cashback.amounts.contains { $0.role == .cashback && $0.value.minorUnits == 2000 })
        // What the till advertises ("You saved") is not the total either.
        let saved = record(["SHOP SDN BHD", "05/03/2018", "TOTAL RM 12.00", "YOU SAVED RM 30.00"])
        #expect(saved.total?.decimalString == "12.00")
        #expect(parser.parse(pages: [page(["TOTAL 12.00", "Sie sparen 3,20"])], language: "deu").amounts.contains { $0.role == .advert })
    }

    @Test func misreadNameWordsAreMendedFromThePageAndTheTradeVocabulary() {
        func merchant(_ lines: [String], confidence: Double) -> TextCandidate? {
            parser.parse(pages: [page(lines, confidence: confidence)], language: nil).merchants.first
        }
        func mended(_ name: String, on lines: [String], confidence: Double = 96) -> String {
            let prepared = ReceiptParser.prepare([page(lines, confidence: confidence)])
            var mender = NameMender(lines: prepared)
            return mender.mend(name, line: prepared.first?.line).0
        }
        // The name printed again lower down (twice) outvotes one misread letter in the header.
        let receipt = [
            "SANYO STATIONERY SHOP", "NO. 31G, JALAN SETIA", "SANYU SUPPLY SDN BHD (413577-K)", "TOTAL 5.00",
            "Follow us in Facebook: Sanyu.Stationery"
        ]
        #expect(mended("SANYO STATIONERY SHOP", on: receipt) == "SANYU STATIONERY SHOP")
        // Printed once each: no majority, nothing changes.
        #expect(mended("SANYO STATIONERY SHOP", on: ["SANYO STATIONERY SHOP", "SANYU SUPPLY SDN BHD"]) == "SANYO STATIONERY SHOP")
        // A trade word tesseract doubted is mended; the same letters read with confidence are left alone,
        // and so is a surname one letter from a trade word.
        #expect(merchant(["VERBENA CONFECTIUNERY SDN BHD", "TOTAL 5.00"], confidence: 80)?.value == "VERBENA CONFECTIONERY SDN BHD")
        #expect(merchant(["VERBENA CONFECTIUNERY SDN BHD", "TOTAL 5.00"], confidence: 96)?.value == "VERBENA CONFECTIUNERY SDN BHD")
        #expect(merchant(["Frischmarkt Berger GmbH", "Summe 5,00"], confidence: 80)?.value == "Frischmarkt Berger GmbH")
        #expect(
            merchant(["VERBENA CONFECTIUNERY SDN BHD", "TOTAL 5.00"], confidence: 80)?.notes.contains("read 'CONFECTIUNERY' as 'CONFECTIONERY'")
                == true)
        // A trade word with an ending is not a misread of a word in another language.
        #expect(merchant(["GERBANG ALAF RESTAURANTS SDN BHD", "TOTAL 5.00"], confidence: 60)?.value == "GERBANG ALAF RESTAURANTS SDN BHD")
    }

    @Test func keywordListsMatchWholeWordsInListOrder() {
        let list: KeywordList = ["total ttc", "total", "ttc"]
        #expect(list.first(in: "montant total ttc") == "total ttc")
        #expect(list.first(in: "subtotal 12") == nil)
        #expect(list.first(in: "total: 12") == "total")
        #expect(TextFolding.fold("À PAYER Rückgeld") == "a payer ruckgeld")
        // Typographic marks OCR glues to a word are ASCII marks, character for character, so the word is found.
        #expect(TextFolding.fold("Sub-Total\u{2018} : 15.60 \u{2014} Préc.") == "sub-total' : 15.60 - prec.")
        #expect((["subtotal", "sub-total"] as KeywordList).any(in: TextFolding.fold("Sub-Total\u{2019}")))
    }
}

struct TextLayerCheckTests {
    @Test func realTextPasses() {
        #expect(
            TextLayerCheck.isReal(
                page([
                    "Northwind Web Services Ltd", "Invoice INV-2025-0187", "Date 28 Nov 2025",
                    "Hosting 1,249.00", "VAT 20% 249.80", "TOTAL 1,498.80 GBP"
                ])))
        #expect(TextLayerCheck.isReal(page(["Bäckerei Sonnenschein GmbH", "Rückgeld 9,60", "McDonald's Straße 12", "Summe 10,40 €", "Vielen Dank"])))
    }

    @Test func junkLeftByAnOldOCRFails() {
        #expect(
            !TextLayerCheck.isReal(
                page(["Tbe tota1 ~s Rl\\/1 12.5O", "xkcdq wrtzp tHiS Wa1k3r", "~~ ^^ {} ||| ¦¦", "qwrtz bcdfg mnbvc", "Ba1ance dUe h3re"])))
        #expect(!TextLayerCheck.isPlausibleWord("tHiS"))
        #expect(!TextLayerCheck.isPlausibleWord("Wa1k3r"))
        #expect(!TextLayerCheck.isPlausibleWord("wrtzpq"))
        #expect(TextLayerCheck.isPlausibleWord("GmbH"))
        #expect(TextLayerCheck.isPlausibleWord("INV-2025-0187"))
        #expect(TextLayerCheck.isPlausibleWord("Straße"))
    }
}

struct TaxIDAndKindTests {
    let parser = ReceiptParser(today: today)

    @Test func sellerVATNumberBeatsTheNationalTaxNumber() {
        let e = parser.parse(pages: [page(["Handwerker GmbH", "Steuernummer: 201/113/40209", "USt.-Id.-Nr.: DE123456789"])], language: "deu")
        #expect(e.sellerTaxIDs.first?.value == "DE123456789")
        let fr = parser.parse(pages: [page(["LE FOURNISSEUR", "N° TVA : FR 11 123 456 782 Contact: 01 01"])], language: "fra")
        #expect(fr.sellerTaxIDs.first?.value == "FR11123456782")
        let my = parser.parse(pages: [page(["TASTE OF THE WORLD SDN BHD", "GST REG NO: 000136577024"])], language: "eng")
        #expect(my.sellerTaxIDs.first?.value == "000136577024")
    }

    @Test func aQuoteIsNotAPurchase() {
        let merger = RecordMerger(acceptThreshold: 0.6, requiredFields: [.merchant, .date, .total, .currency])
        let source = SourceFile(path: "/q.pdf", relativePath: "q.pdf", folder: "", kind: .pdf, sha256: "0", size: 1)
        let e = parser.parse(pages: [page(["Schreinerei Holz GmbH", "ANGEBOT Nr. 2026-17", "14.03.2026", "Summe 1.200,00 EUR"])], language: "deu")
        #expect(e.documentKind == .notAPurchase)
        let r = merger.merge(e, source: source, language: .unknown, pages: 1)
        #expect(r.reasons.contains(.notAPurchase))
        #expect(r.status == .review)
    }
}

struct GreetingNameTests {
    @Test func theNameInTheClosingGreeting() {
        let parser = ReceiptParser(today: today)
        let e = parser.parse(
            pages: [page(["are X N", "+ 132, -", "25/01/2018 1:22:56PM", "Total 9.00", "Thank you for shopping at FUYI MINI", "MARKET"])],
            language: "eng")
        #expect(e.merchants.first?.value == "FUYI MINI MARKET")
        #expect(e.merchants.first?.notes.contains("after 'shopping at'") == true)
    }
}

struct TaxSanityTests {
    @Test func aTaxLargerThanAnyRateAllowsIsDropped() {
        let parser = ReceiptParser(today: today)
        let merger = RecordMerger(acceptThreshold: 0.6, requiredFields: [.merchant, .date, .total, .currency])
        let source = SourceFile(path: "/a.jpg", relativePath: "a.jpg", folder: "", kind: .jpeg, sha256: "0", size: 1)
        let e = parser.parse(
            pages: [page(["SAM SAM TRADING CO", "29/12/2017", "GST 6% incl 13.30", "Total RM 14.10", "Cash 20.00", "Change 5.90"])], language: "eng")
        #expect(e.taxes.map(\.amount.minorUnits).contains(1330))
        let r = merger.merge(e, source: source, language: .unknown, pages: 1)
        #expect(r.total?.decimalString == "14.10")
        #expect(r.tax.isEmpty, "13.30 cannot be the tax of 14.10")
    }
}
