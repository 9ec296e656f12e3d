import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxParsing
@testable import ShoeboxReading

/// The classes of date errors seen on receipts the rules were not tuned on, each on a synthetic page.
struct DateClassTests {
    let parser = ReceiptParser(today: today)

    func extraction(_ lines: [String], language: String? = "eng") -> Extraction {
        parser.parse(pages: [page(lines)], language: language)
    }

    func record(_ lines: [String], language: String? = "eng") -> DocumentRecord {
        mergedRecord(extraction(lines, language: language), language: language)
    }

    func days(_ line: String) -> [String] { DateReader.dates(in: line, order: .dayFirst, today: today).map(\.day.iso) }

    // MARK: 1. Article codes shaped like dates

    @Test func aCodeGluedToLettersLosesToTheDateBesideATime() {
        let r = record([
            "KEDAI PAKAIAN SDN BHD", "GB12-21-22 SHIRT 1 19.90", "A01-02-19 SOCKS 1 5.00", "TOTAL RM 24.90", "CASH RM 50.00",
            "CHANGE RM 25.10", "Thank you", "12/03/2018 14:22"
        ])
        #expect(r.date?.iso == "2018-03-12")
        let code = extraction(["GB12-21-22 SHIRT"]).dates.first
        #expect(code?.notes.contains("glued to letters: an article code") == true)
    }

    @Test func aDateShapeOnALineOfGoodsLosesToADateKeyword() {
        let r = record(["KEDAI RUNCIT SDN BHD", "10-11-19 SOCKS 2 5.00", "TOTAL RM 5.00", "CASH RM 5.00", "Tarikh: 05/06/2018"])
        #expect(r.date?.iso == "2018-06-05")
    }

    @Test func aDateGluedToItsOwnKeywordIsNoCode() {
        let e = extraction(["KEDAI SDN BHD", "DATE12/03/2018", "TOTAL RM 5.00"])
        #expect(e.dates.first?.value.iso == "2018-03-12")
        #expect(e.dates.first?.notes.contains("glued to letters: an article code") == false)
    }

    @Test func aCodeIsNoMisreadDate() {
        // "AB12-63-20" reads as no date, and is no date printed and misread either: it does not doubt the date.
        #expect(DateReader.unreadableDateShapes(in: "AB12-63-20", order: .dayFirst, today: today).isEmpty)
        #expect(DateReader.unreadableDateShapes(in: "CD41/2-63-20", order: .dayFirst, today: today).isEmpty)
        #expect(DateReader.unreadableDateShapes(in: "Date 17-66-13", order: .dayFirst, today: today) == ["17-66-13"])
    }

    // MARK: 2. A year misread by one digit

    @Test func aYearOneDigitFromAnotherPrintedYearGoesToReview() {
        let header = ["KEDAI RUNCIT SDN BHD", "Tarikh: 12/03/2016 14:22", "TOTAL RM 9.00", "CASH RM 10.00", "CHANGE RM 1.00"]
        let alone = record(header)
        #expect(alone.date?.iso == "2016-03-12")
        #expect(!alone.reasons.contains(.ambiguous(.date)))
        // The same page with its year printed elsewhere: one of the two is misread.
        for footer in ["(c) 2018 Kedai POS", "Reprint 15/03/2018", "Terima kasih 12/03/2018"] {
            let r = record(header + [footer])
            #expect(r.reasons.contains(.ambiguous(.date)), "\(footer)")
        }
        // Software older than the date is no doubt; a date before the page's copyright year is.
        #expect(!record(header + ["(c) 2015 Kedai POS"]).reasons.contains(.ambiguous(.date)))
        #expect(record(header + ["(c) 2017 Kedai POS"]).reasons.contains(.ambiguous(.date)))
    }

    @Test func anotherDatesYearDoesNotDoubtTheDate() {
        // A voucher valid until next year is no misread: dates of another role do not count.
        let r = record([
            "KEDAI RUNCIT SDN BHD", "Tarikh: 12/03/2018 14:22", "TOTAL RM 9.00", "CASH RM 10.00", "CHANGE RM 1.00", "Valid until 31/12/2019"
        ])
        #expect(r.date?.iso == "2018-03-12")
        #expect(!r.reasons.contains(.ambiguous(.date)))
    }

    @Test func yearsOneDigitApart() {
        #expect(DateReader.oneDigitApart(2016, 2018))
        #expect(DateReader.oneDigitApart(2019, 2018))
        #expect(DateReader.oneDigitApart(2014, 2016))
        #expect(!DateReader.oneDigitApart(2018, 2018))
        #expect(!DateReader.oneDigitApart(2018, 2081))
        #expect(!DateReader.oneDigitApart(2009, 2010))
        #expect(ReceiptParser.copyrightYears("(c) 2018 kedai pos", today: today) == [2018])
        #expect(ReceiptParser.copyrightYears("© 2017", today: today) == [2017])
        #expect(ReceiptParser.copyrightYears("inv 2018", today: today).isEmpty)
    }

    // MARK: 2b. A misread year that the page's other dates contradict

    /// An invoice's date read with its year misread (2018 as 2013, 2018 as 2016), the page printing its year in its
    /// delivery and due dates: the same day and month delivered in the year the other dates agree on is the date.
    @Test(
        arguments: [
            (
                [
                    "ACME TRADING SDN BHD", "TAX INVOICE", "Invoice No: INV-2018-0042", "Invoice Date: 12/03/2013", "Delivery Date: 12/03/2018",
                    "Due Date: 11/04/2018", "TOTAL RM 120.00"
                ], "eng", "2018-03-12"
            ),
            (
                [
                    "Müller Handel GmbH", "Rechnung Nr. 4711", "Rechnungsdatum: 12.03.2016", "Lieferdatum: 12.03.2018",
                    "Zahlbar bis 11.04.2018", "Gesamtbetrag 119,00 EUR"
                ], "deu", "2018-03-12"
            ),
            (
                [
                    "KEDAI MAJU SDN BHD", "INVOIS CUKAI", "Tarikh: 05/11/2010", "Tarikh Akhir: 05/12/2019", "Tarikh Penghantaran: 05/11/2019",
                    "JUMLAH RM 80.00"
                ],
                "msa", "2019-11-05"
            )
        ] as [([String], String, String)])
    func theYearTheOtherDatesAgreeOnWins(lines: [String], language: String, day: String) {
        let r = record(lines, language: language)
        #expect(r.date?.iso == day)
        #expect(r.alternates[.date]?.contains { $0.value != day } == true, "the misread date stays an alternate")
    }

    /// The same without the day printed again: which year is right the page does not say, so a person looks.
    @Test(
        arguments: [
            (["ACME TRADING SDN BHD", "TAX INVOICE", "Invoice Date: 12/03/2013", "Due Date: 11/04/2018", "TOTAL RM 120.00"], "eng"),
            (["Müller Handel GmbH", "Rechnung Nr. 4711", "Rechnungsdatum: 05.11.2010", "Fällig am 05.12.2019", "Gesamtbetrag 119,00 EUR"], "deu"),
            (["KEDAI MAJU SDN BHD", "INVOIS CUKAI", "Tarikh: 05/11/2011", "Tarikh Akhir: 05/12/2017", "JUMLAH RM 80.00"], "msa")
        ] as [([String], String)])
    func aYearTheOtherDatesContradictGoesToReview(lines: [String], language: String) {
        #expect(record(lines, language: language).reasons.contains(.ambiguous(.date)), "\(lines)")
    }

    /// Dates of another year that are normal: a due date next year, a warranty or validity years later, a service
    /// period of last year, a year only in the invoice number.
    @Test(
        arguments: [
            (["ACME TRADING SDN BHD", "Invoice Date: 20/12/2018", "Due Date: 19/01/2019", "TOTAL RM 120.00"], "eng", "2018-12-20"),
            (["ACME TRADING SDN BHD", "Date: 12/03/2018", "Warranty until 12/03/2019", "TOTAL RM 120.00"], "eng", "2018-03-12"),
            (["ACME TRADING SDN BHD", "Date: 12/03/2018", "Warranty expires 12/03/2021", "TOTAL RM 120.00"], "eng", "2018-03-12"),
            (
                ["Müller Handel GmbH", "Rechnungsdatum: 15.01.2019", "Leistungszeitraum 01.01.2018 - 31.12.2018", "Gesamtbetrag 119,00 EUR"], "deu",
                "2019-01-15"
            ),
            (["ACME TRADING SDN BHD", "Invoice No: INV-2018-0042", "Invoice Date: 12/03/2013", "TOTAL RM 120.00"], "eng", "2013-03-12"),
            (
                ["ACME TRADING SDN BHD", "Invoice Date: 12/03/2018", "Order Date: 01/03/2018", "Due Date: 11/04/2018", "TOTAL RM 120.00"], "eng",
                "2018-03-12"
            )
        ] as [([String], String, String)])
    func otherDatesOfAnotherYearThatAreNormal(lines: [String], language: String, day: String) {
        let r = record(lines, language: language)
        #expect(r.date?.iso == day)
        #expect(!r.reasons.contains(.ambiguous(.date)), "\(lines)")
    }

    // MARK: 3. Day and month order

    @Test func dayFirstLanguagesAndCountriesReadTheDayFirst() {
        // French and German pages, even with a dollar sign (a Canadian receipt) or no currency at all.
        #expect(record(["Boulangerie Martin SARL", "03/11/2017", "TOTAL 12,40 €"], language: "fra").date?.iso == "2017-11-03")
        #expect(record(["Dépanneur Tremblay", "03/11/2017", "TOTAL 12,40 $"], language: "fra").date?.iso == "2017-11-03")
        #expect(record(["Bäckerei Huber", "03/11/2017", "Summe 4,20"], language: "deu").date?.iso == "2017-11-03")
        // A Malaysian receipt in English with a bare dollar.
        #expect(record(["KEDAI RUNCIT SDN BHD", "GST Reg No 000123456789", "03/11/2017", "Total $12.40"]).date?.iso == "2017-11-03")
    }

    @Test func monthFirstNeedsEvidenceOfAUSDocument() {
        let us = record(["Blue Ridge Hardware Inc", "03/11/2017", "TOTAL $26.87"])
        #expect(us.date?.iso == "2017-03-11")
        #expect(!us.reasons.contains(.ambiguous(.date)))
        // The page's own dates tell the order, whatever the currency.
        let told = extraction(["Corner Cafe", "03/11/2017", "TOTAL 26.87", "Return by 12/25/2017"], language: nil)
        #expect(told.dates.first?.value.iso == "2017-03-11")
        let dayFirst = extraction(["Corner Cafe", "03/11/2017", "TOTAL $26.87", "Printed 25/11/2017"])
        #expect(dayFirst.dates.first?.value.iso == "2017-11-03")
    }

    @Test func anUnsettledOrderIsNotAcceptedSilently() {
        let e = extraction(["Corner Cafe", "03/11/2017", "TOTAL 12.40"], language: nil)
        #expect(e.dates.first?.value.iso == "2017-11-03")
        #expect(e.dates.first?.notes.contains("day/month order unknown") == true)
        let r = record(["Corner Cafe", "03/11/2017", "TOTAL 12.40"], language: nil)
        #expect(r.reasons.contains(.ambiguous(.date)))
        // A date only one order reads is no doubt.
        #expect(!record(["Corner Cafe", "23/11/2017", "TOTAL 12.40"], language: nil).reasons.contains(.ambiguous(.date)))
    }

    // MARK: 4. Dates glued to their neighbours or split by OCR

    @Test func aDateGluedToATimeIsRead() {
        #expect(days("12/03/201814:22") == ["2018-03-12"])
        #expect(days("2018-03-1214:22:01") == ["2018-03-12"])
        #expect(days("12/03/1814:22") == ["2018-03-12"])
        #expect(days("12/03/2014:22") == ["2014-03-12"], "a four-digit year stays one")
    }

    @Test func aDateGluedToANumberBeforeItIsRead() {
        #expect(days("CASHIER:0112/03/2018") == ["2018-03-12"])
        #expect(days("T1 12/03/18") == ["2018-03-12"])
        #expect(days("T112/03/18") == ["2018-03-12"])
        // An ISO shape is never cut so: "2918-03-18" stays a misread date.
        #expect(days("2918-03-18").isEmpty)
        #expect(DateReader.unreadableDateShapes(in: "2918-03-18", order: .dayFirst, today: today) == ["2918-03-18"])
        #expect(days("Tel 012-345 6789").isEmpty)
        let r = record(["KEDAI RUNCIT SDN BHD", "CASHIER:0112/03/2018 14:22", "TOTAL RM 9.00"])
        #expect(r.date?.iso == "2018-03-12")
    }

    @Test func aMonthNameWithAZeroForItsOIsRead() {
        #expect(days("Date: 0ct 3, 2016 12:16 PM") == ["2016-10-03"])
        #expect(days("3 N0V 2016") == ["2016-11-03"])
        #expect(days("Table 10 0f 20").isEmpty)
    }

    @Test func aDateSplitByOCRIsRead() {
        #expect(ReceiptParser.mendDate("12 / 03 / 2018") == "12/03/2018")
        #expect(ReceiptParser.mendDate("Date: 12/03/ 2018 14:22") == "Date: 12/03/2018 14:22")
        #expect(ReceiptParser.mendDate("12 - 03 - 2018") == "12-03-2018")
        let r = record(["KEDAI RUNCIT SDN BHD", "Date 12 / 03 / 2018", "TOTAL RM 9.00"])
        #expect(r.date?.iso == "2018-03-12")
    }
}
