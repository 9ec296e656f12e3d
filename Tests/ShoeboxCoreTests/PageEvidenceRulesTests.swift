import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement
@testable import ShoeboxParsing
@testable import ShoeboxReading

/// Issue 51's classes read from the page: dates a reader nearly read (a letter for a digit, a separator lost or
/// doubled), the day to pay by against the day of issue, and a merchant that is no name.
struct PageEvidenceRulesTests {
    let rules = RealReceiptRulesTests()
    let parser = ReceiptParser(today: today)

    @Test func lettersReadForDigitsInADateAreMendedAndDoubted() {
        #expect(ReceiptParser.mendedDateToken("11/0i/2017", dateWord: false) == "11/01/2017")
        #expect(ReceiptParser.mendedDateToken("O3.1O.2O18", dateWord: false) == "03.10.2018")
        #expect(ReceiptParser.mendedDateToken("l1/02/20l7", dateWord: false) == "11/02/2017")
        // Too few digits, other letters, or no date's shape once mended: left alone.
        #expect(ReceiptParser.mendedDateToken("S/B", dateWord: true) == nil)
        #expect(ReceiptParser.mendedDateToken("SO/lS/OS", dateWord: false) == nil)
        #expect(ReceiptParser.mendedDateToken("AB12/03/2018", dateWord: false) == nil)
        #expect(ReceiptParser.mendedDateToken("12/03/2018", dateWord: false) == nil, "a clean date needs no mending")

        let mended = rules.record(["KEDAI MAJU SDN BHD", "Date: 11/0i/2017", "TOTAL RM 5.00"])
        #expect(mended.date?.iso == "2017-01-11")
        #expect(mended.reasons.contains(.lowConfidence(.date)), "\(mended.reasons)")
        // Not the "1/02/20" glued inside it: the whole token, read as a date.
        let glued = rules.record(["KEDAI MAJU SDN BHD", "Date: l1/02/20l7", "TOTAL RM 5.00"])
        #expect(glued.date?.iso == "2017-02-11" && glued.reasons.contains(.lowConfidence(.date)), "\(glued.reasons)")
        // The same day printed cleanly on another line confirms it: no reason.
        let confirmed = rules.record(["KEDAI MAJU SDN BHD", "Date: 11/0i/2017", "TOTAL RM 5.00", "11/01/2017 13:02"])
        #expect(confirmed.date?.iso == "2017-01-11")
        #expect(!confirmed.reasons.contains(.lowConfidence(.date)), "\(confirmed.reasons)")
    }

    @Test func aSeparatorLostOrDoubledIsPutRightOnlyBesideADateWord() {
        #expect(ReceiptParser.mendedDateToken("1102/2017", dateWord: true) == "11/02/2017")
        #expect(ReceiptParser.mendedDateToken("11/022017", dateWord: true) == "11/02/2017")
        #expect(ReceiptParser.mendedDateToken("11//02/2017", dateWord: true) == "11/02/2017")
        // An invoice number of the same shape, with no date word on its line, is no date.
        #expect(ReceiptParser.mendedDateToken("1102/2017", dateWord: false) == nil)
        #expect(ReceiptParser.mendedDateToken("1102/3017", dateWord: true) == nil, "no year of 19xx or 20xx")
        let lost = rules.record(["KEDAI MAJU SDN BHD", "Date: 1102/2017", "TOTAL RM 5.00"])
        #expect(lost.date?.iso == "2017-02-11" && lost.reasons.contains(.lowConfidence(.date)), "\(lost.reasons)")
        let number = parser.parse(pages: [page(["Müller GmbH", "Rechnung Nr. 1102/2017", "Summe 10,00 EUR"])], language: "deu")
        #expect(number.dates.isEmpty, "\(number.dates.map(\.value.iso))")
    }

    @Test func aYearTheTaxOnThePageWasNotLeviedInIsPutRightAndHeld() {
        // Malaysian GST (April 2015 to August 2018) on a receipt read as of 2013: "3" is the misread "8".
        let gst = ["KEDAI MAJU SDN BHD", "JALAN AMPANG, KUALA LUMPUR", "GST ID: 000123456789", "04-05-2013 16:07", "TOTAL RM 5.30"]
        let mended = rules.record(gst)
        #expect(mended.date?.iso == "2018-05-04")
        #expect(mended.reasons.contains(.lowConfidence(.date)), "\(mended.reasons)")
        // Printed twice alike, still one inference: held.
        let twice = rules.record(gst + ["04-05-2013 16:07"])
        #expect(twice.date?.iso == "2018-05-04" && twice.reasons.contains(.lowConfidence(.date)), "\(twice.reasons)")
        // A date inside GST's days, or a page that names SST too, or no Malaysian page: as read.
        #expect(rules.record(gst.map { $0.replacingOccurrences(of: "2013", with: "2017") }).date?.iso == "2017-05-04")
        #expect(rules.record(gst + ["SST 6%"]).date?.iso == "2013-05-04")
        let singapore = rules.record(["KEDAI MAJU PTE LTD", "GST Reg No: 201234567K", "04-05-2013 16:07", "TOTAL 5.30"])
        #expect(singapore.date?.iso == "2013-05-04")
        // No misread digit puts 2012 inside GST's days: left as read, in doubt.
        let unsure = rules.record(gst.map { $0.replacingOccurrences(of: "04-05-2013", with: "04-05-2012") })
        #expect(unsure.date?.iso == "2012-05-04")
        #expect(unsure.reasons.contains(.ambiguous(.date)), "\(unsure.reasons)")
    }

    @Test func aTaxItsLineSaysIsIncludedIsNotAddedToTheSubtotal() {
        let lines = [
            "KEDAI MAKAN SDN BHD", "05/03/2018", "NASI LEMAK 9.80", "TEH 4.30", "SUBTOTAL 14.10", "INC 6% GST 0.80", "CASH 20.00", "CHANGE 5.90"
        ]
        let e = parser.parse(pages: [page(lines)], language: "eng")
        #expect(!e.amounts.contains { $0.computed && $0.value.minorUnits == 1490 }, "\(e.amounts.map(\.value.minorUnits))")
        #expect(rules.record(lines).total?.decimalString == "14.10")
        // A tax line that does not say so is added: subtotal + tax is the total.
        let added = parser.parse(pages: [page(lines.map { $0.replacingOccurrences(of: "INC 6% GST", with: "GST 6%") })], language: "eng")
        #expect(added.amounts.contains { $0.computed && $0.value.minorUnits == 1490 })
        #expect(ReceiptParser.saysTaxIncluded("inkl. mwst 19% 1,60") && ReceiptParser.saysTaxIncluded("iva incluido 2,10"))
        #expect(!ReceiptParser.saysTaxIncluded("gst 6% 0.80"))
    }

    @Test func anInclWordWithALetterMisreadStillMakesTheTotalInclusive() {
        for label in ["Total Inci. of GST", "Total lncl GST", "Total Inc1. GST"] {
            #expect(ReceiptParser.role(of: TextFolding.fold("\(label) 104.00")).0 == .total, "\(label)")
        }
        #expect(ReceiptParser.misreadInclWord("total incl gst") == nil, "spelt right, the keyword list finds it")
        #expect(ReceiptParser.misreadInclWord("zinc1 gst 2.00") == nil)
        // Without a total word it is no total: a tax line.
        #expect(ReceiptParser.role(of: TextFolding.fold("Inci. GST 5.89")).0 == .tax)
    }

    @Test func aScreensReferenceIsItsCodeEvenWhenAReaderSplitIt() {
        #expect(ReceiptParser.screenReference("A7X2K9QW 3R") == "A7X2K9QW3R")
        #expect(ReceiptParser.screenReference("2611151405230017") == "2611151405230017")
        #expect(ReceiptParser.screenReference("dinner with Ali") == nil, "a transfer's own words are no reference")
        #expect(ReceiptParser.screenReference("MB2610211944 ref copy") == "MB2610211944")
        #expect(ReceiptParser.startingLabel("top up rm50", Keywords.screenPayee) == nil, "'to' is a word of its own")
        #expect(ReceiptParser.startingLabel("paid to kedai maju", Keywords.screenPayee) == "paid to")
    }

    @Test func theDayToPayByIsNotTheDayOfIssue() {
        for (lines, language) in [
            (["Garage Dupont SARL", "Date limite de paiement : 15/04/2026", "Date : 15/03/2026", "TOTAL TTC 120,00 EUR"], "fra"),
            (["Taller López S.L.", "Fecha límite de pago: 15/04/2026", "Fecha: 15/03/2026", "TOTAL 120,00 EUR"], "spa"),
            (["Müller GmbH", "Zahlbar bis 15.04.2026", "Rechnungsdatum 15.03.2026", "Summe 120,00 EUR"], "deu"),
            (["Northwind Ltd", "Payment due 15/04/2026", "Invoice date 15/03/2026", "TOTAL DUE £120.00"], "eng")
        ] {
            let r = rules.record(lines, language: language)
            #expect(r.date?.iso == "2026-03-15", "\(lines[1]): \(r.date?.iso ?? "none")")
        }
    }

    @Test func headingsAddressesAndNumbersAreNoName() {
        for text in [
            "TAX INVOICE", "Transaction Details", "Company Reg #1101083-T", "GST ID: 001610720", "Tel: 03-7734 3668",
            "03 8079 0255", "12, Jalan Ampang", "Hauptstraße 12, 10115 Berlin"
        ] {
            #expect(ReceiptParser.isNotAName(text), "\(text)")
        }
        for text in ["MR. D.I.Y. (M) SDN BHD", "Frischmarkt Berger GmbH", "TED HENG STATIONERY & BOOKS", "99 SPEEDMART", "Taste Of The WorId SDN BHD"]
        {
            #expect(!ReceiptParser.isNotAName(text), "\(text)")
        }
    }

    @Test func aRecordWhoseMerchantIsNoNameWaitsForAPerson() {
        var e = parser.parse(pages: [page(["Date: 12/03/2018", "TOTAL RM 5.00"])], language: "eng")
        e.merchants = [TextCandidate(value: "Transaction Details", role: .merchant, score: 0.9, evidence: nil, notes: [])]
        let source = SourceFile(path: "/x/a.png", relativePath: "a.png", folder: "", kind: .png, sha256: "00", size: 1)
        let r = rules.merger.merge(e, source: source, language: LanguageGuess(language: "eng", confidence: 0.9), pages: 1)
        #expect(r.merchant == "Transaction Details" && r.reasons.contains(.merchantNotAName), "\(r.reasons)")
        #expect(ReviewReason(code: "merchant-not-a-name") == .merchantNotAName)
        // A name: no such reason.
        e.merchants = [TextCandidate(value: "Kedai Maju Sdn Bhd", role: .merchant, score: 0.9, evidence: nil, notes: [])]
        let named = rules.merger.merge(e, source: source, language: LanguageGuess(language: "eng", confidence: 0.9), pages: 1)
        #expect(!named.reasons.contains(.merchantNotAName), "\(named.reasons)")
    }

    /// German chains whose name is a logo: the header starts with the street, and the name is printed in the imprint
    /// below, or in the sign-off.
    @Test func aShopWhoseNameIsALogoIsNamedByItsImprintOrSignOff() {
        let imprint = rules.record(
            [
                "Musterstr. 5", "12345 Berlin", "Tel 030 123456", "Milch 1,19 A", "Brot 2,49 A", "SUMME EUR 3,68", "Geg. Bar 5,00",
                "Rückgeld 1,32", "Vielen Dank für Ihren Einkauf", "REWE Markt GmbH", "Domstr. 20, 50668 Köln", "USt-IdNr. DE812706034"
            ], language: "deu")
        #expect(imprint.merchant == "REWE Markt GmbH", "\(imprint.merchant ?? "none")")
        let signed = rules.record(
            ["17.03.2026 14:12", "Bon 4711", "Milch 1,19 A", "Summe EUR 1,19", "Vielen Dank für Ihren Besuch!", "Ihr EDEKA Team"], language: "deu")
        #expect(signed.merchant == "EDEKA", "\(signed.merchant ?? "none")")
        let hyphen = rules.record(["17.03.2026 14:12", "Milch 1,19 A", "Summe EUR 1,19", "Ihr REWE-Team"], language: "deu")
        #expect(hyphen.merchant == "REWE", "\(hyphen.merchant ?? "none")")
        // A header that prints a name keeps it over the imprint.
        let named = rules.record(
            [
                "Frischmarkt Berger", "Hauptstraße 12", "10115 Berlin", "Tel. 030 1234567", "Milch 1,19 A", "Brot 2,49 A", "Butter 1,99 A",
                "Käse 3,49 A", "Summe EUR 9,16", "Geg. Bar 10,00", "Rückgeld 0,84", "Vielen Dank für Ihren Einkauf", "Berger Handels GmbH"
            ], language: "deu")
        #expect(named.merchant == "Frischmarkt Berger", "\(named.merchant ?? "none")")
        // "Your feedback is important," is no sign-off.
        #expect(rules.record(["Your feedback is important,", "TOTAL RM 5.00"]).merchant != "important")
    }

    @Test func aCompoundStreetWithItsNumberIsAnAddress() {
        for text in ["musterstr. 5", "hauptstrasse 12a", "hohenzollernring 4", "schillerplatz 2", "lindenallee 10, 50968 koln"] {
            #expect(ReceiptParser.looksLikeStreetAndNumber(text), "\(text)")
        }
        for text in ["kiosk am ring gmbh", "frischmarkt berger", "ring 4", "bistro 12"] {
            #expect(!ReceiptParser.looksLikeStreetAndNumber(text), "\(text)")
        }
    }

    /// One total printed with its currency mark ("SUMME EUR 3,93") and without it (the tax table's gross column) is one
    /// value, not two rivals: no `total-ambiguous`.
    @Test func aTotalPrintedWithAndWithoutItsCurrencyIsOneTotal() {
        let r = rules.record(
            [
                "REWE", "Domstr. 20", "50668 Köln", "UID Nr.: DE812706034", "MILCH 1,5% 1,19 B", "BROT 2,49 B", "PFAND 0,25 A",
                "SUMME EUR 3,93", "Geg. EC-Cash EUR 3,93", "Steuer % Netto Steuer Brutto", "A= 19,0% 0,21 0,04 0,25",
                "B= 7,0% 3,44 0,24 3,68", "Gesamtbetrag 3,65 0,28 3,93", "02.03.2024 12:41 Bon-Nr.:1234"
            ], language: "deu")
        #expect(r.total?.decimalString == "3.93" && r.total?.currency.code == "EUR")
        #expect(!r.reasons.contains(.ambiguous(.total)), "\(r.reasons)")
    }

    /// "Total Payable" with a letter of its label misread is still what was paid: it beats the unrounded figure.
    @Test func aPaidLabelWithALetterMisreadIsStillStrong() {
        #expect(ReceiptParser.misreadPaidWord("total ammt psyable : 7.40") == "payable (read 'psyable')")
        #expect(ReceiptParser.misreadPaidWord("total payable 7.40") == nil, "spelt right, the keyword list finds it")
        #expect(ReceiptParser.misreadPaidWord("portable speaker 7.40") == nil)
        // The line's amounts are a total by the paid word, which counts as a strong keyword.
        let role = ReceiptParser.role(of: "total ammt psyable : 7.40")
        #expect(role.0 == .total && role.1 == "payable (read 'psyable')", "\(role)")
        let e = parser.parse(pages: [page(["KEDAI MAJU SDN BHD", "Total Ammt Psyable : 7.40"])], language: "eng")
        let paid = try? #require(e.amounts.first { $0.value.minorUnits == 740 })
        #expect(paid.map { ReceiptParser.TotalScoring.keywordStrength($0).strong } == true)
        let r = rules.record([
            "KEDAI MAJU SDN BHD", "12/03/2018", "SIMILI 8920 1 7.00 7.42", "Total Amt incl GST @ 6% : 7.42", "Rounding Adj -0.02",
            "Total Ammt Psyable : 7.40", "Cash 10.00", "Change 2.60"
        ])
        #expect(r.total?.decimalString == "7.40", "\(r.total?.decimalString ?? "none")")
    }

    /// A till's "Net Amt" under its "Gross Amt" is what was paid; an invoice's spelt-out "Net amount" is before tax.
    @Test func aTillsNetAmtIsThePaidTotal() {
        let till = rules.record([
            "LIAN CHI RESTAURANT SDN BHD", "Date 06/01/18 12:17:26 PM", "CURRY MIXED VEGE 1 12.72 12.72 SR", "Gross Amt 47.80",
            "Svr Tax 2.87", "GST (6%) 2.86", "Net Amt : 53.55", "THANK YOU"
        ])
        #expect(till.total?.decimalString == "53.55", "\(till.total?.decimalString ?? "none")")
        let invoice = rules.record(["Northwind Ltd", "Invoice date 15/03/2026", "Net amount 100.00", "VAT 20% 20.00", "Total £120.00"])
        #expect(invoice.total?.decimalString == "120.00", "\(invoice.total?.decimalString ?? "none")")
    }

    /// "Sub-Total" with its "Sub" damaged ("ub- Total", "Sun- Tota |") or spaced ("Sub- Total") is a sub-total, not the
    /// total: the amount paid (here cash less change) stands.
    @Test func aSubTotalWithItsSubDamagedIsNoTotal() {
        for line in ["ub- total rm7.90", "sun- total rm7.90", "sub- total rm7.90", "5ub- total 7.90"] {
            #expect(ReceiptParser.role(of: line).0 == .subtotal, "\(line): \(ReceiptParser.role(of: line))")
        }
        #expect(ReceiptParser.role(of: "ab- total 7.90").0 == .total, "one letter from 'sub' at most, and 'ab' is two")
        #expect(ReceiptParser.misreadSubWord("club- total 7.90") == nil)
        let r = rules.record([
            "TEALIVE SDN BHD", "12/03/2018 13:02", "208 Yam Fresh Signature-C 1 RM7.90", "ub- Total RM7.90", "6% GST RM0.47",
            "Cash RM10.50", "Change RM2.15"
        ])
        #expect(r.total?.decimalString == "8.35", "\(r.total?.decimalString ?? "none") \(r.reasons)")
    }

    /// A total read with one digit off ("TOTAL 19.00" for 14.00) where the sub-total and the cash paid print the right
    /// figure: that figure is proposed on the total's line and the record waits for a person.
    @Test func aTotalReadOneDigitOffIsProposedFromThePagesOtherFigures() {
        let lines = ["KEDAI SDN BHD", "12/03/2018", "ITEM A 1 14.00 14.00", "TOTAL 19.00", "CASH 14.00", "SUB-TOTAL (GST) 14.00"]
        let r = rules.record(lines)
        #expect(r.total?.decimalString == "14.00", "\(r.total?.decimalString ?? "none")")
        #expect(r.reasons.contains(.lowConfidence(.total)), "\(r.reasons)")
        #expect(r.alternates[.total]?.contains { $0.value == "19.00" } == true)
        // Printed once elsewhere is not enough; a last digit apart is cash rounding, not a misread.
        #expect(rules.record(["KEDAI SDN BHD", "12/03/2018", "TOTAL 19.00", "CASH 14.00"]).total?.decimalString == "19.00")
        #expect(Extraction.oneDigitApart(1400, 1900) && !Extraction.oneDigitApart(4654, 4655) && !Extraction.oneDigitApart(1400, 14000))
        let rounded = rules.record([
            "KEDAI SDN BHD", "12/03/2018", "Total Sales Incl GST 46.54", "Rounding Adj 0.01", "Total After Adj 46.55", "CASH 46.55"
        ])
        #expect(rounded.total?.decimalString == "46.55", "\(rounded.total?.decimalString ?? "none")")
    }

    /// The date printed twice, one printing read by tesseract alone while the second reader read no date there, the
    /// other read alike by both one digit apart: the day both read wins.
    @Test func theDayBothReadersReadAlikeBeatsOneReadByTesseractAlone() {
        func evidence(_ line: Int, _ source: TextSource) -> Evidence {
            Evidence(
                page: 1, line: line, box: BoundingBox(left: 10, top: line * 40, right: 400, bottom: line * 40 + 30), text: "",
                source: source, ocrConfidence: 90)
        }
        let alone = DateCandidate(
            value: CalendarDay(year: 2017, month: 2, day: 19)!, role: .transaction, score: 0.9, evidence: evidence(8, .ocr), checks: [],
            notes: [])
        let both = DateCandidate(
            value: CalendarDay(year: 2017, month: 9, day: 19)!, role: .transaction, score: 0.8, evidence: evidence(14, .ocr),
            checks: [.bothReaders], notes: [])
        var e = Extraction()
        e.dates = [alone, both]
        e.preferDayBothReadersRead(secondUnread: [evidence(8, .secondReader)])
        #expect(e.dates.max { $0.score < $1.score }?.value.iso == "2017-09-19")
        // Without the second reader's unread date on the first line, nothing changes.
        var kept = Extraction()
        kept.dates = [alone, both]
        kept.preferDayBothReadersRead(secondUnread: [])
        #expect(kept.dates.max { $0.score < $1.score }?.value.iso == "2017-02-19")
    }

    /// A text layer's endless line is read only up to the bound of a line of print.
    @Test func anEndlessLineIsReadUpToTheBoundOfALine() {
        let words = (0..<5_000).map {
            OCRWord(text: "12/03/2018", box: BoundingBox(left: $0 * 10, top: 0, right: $0 * 10 + 9, bottom: 20), confidence: 90)
        }
        let cut = ReceiptParser.bounded(OCRLine(words: words))
        #expect(cut.words.count <= ReceiptParser.maxWordsPerLine && cut.text.utf8.count <= ReceiptParser.maxCharactersPerLine)
        let one = ReceiptParser.bounded(
            OCRLine(words: [
                OCRWord(text: String(repeating: "9", count: 100_000), box: BoundingBox(left: 0, top: 0, right: 9, bottom: 9), confidence: 90)
            ]))
        #expect(one.text.utf8.count == ReceiptParser.maxCharactersPerLine)
        let short = OCRLine(words: Array(words.prefix(3)))
        #expect(ReceiptParser.bounded(short).text == short.text)
    }
}
