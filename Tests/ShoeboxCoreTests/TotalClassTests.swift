import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxParsing
@testable import ShoeboxReading

/// Classes of wrong totals, each on a synthetic page of the kind that showed it: the net of an invoice taken
/// for its total, the total before rounding taken for the amount paid, a tax summary table's row taken for
/// the total, and a computed total "mending" a total line that a rounding confirms.
struct TotalClassTests {
    let parser = ReceiptParser(today: today)

    func record(_ lines: [String], language: String? = "eng") -> DocumentRecord {
        mergedRecord(parser.parse(pages: [page(lines)], language: language), language: language)
    }

    func best(_ lines: [String], language: String? = "eng") -> AmountCandidate? {
        parser.parse(pages: [page(lines)], language: language).amounts.filter { $0.score > 0 }.max { $0.score < $1.score }
    }

    // MARK: 1. The net of an invoice is not its total

    /// The net's label, in the forms invoices print it, makes it a subtotal; the gross below (here with its
    /// label lost) is then confirmed by net + tax.
    @Test(
        arguments: [
            ("Total H.T. 250,00", "TVA 20 % 50,00", Int64(30000)),
            ("Gesamtbetrag zzgl. MwSt 250,00", "MwSt 19 % 47,50", 29750),
            ("Nettosumme 250,00", "USt 19 % 47,50", 29750),
            ("Total neto 250,00", "IVA 21 % 52,50", 30250),
            ("Total before tax 250.00", "VAT 20% 50.00", 30000),
            ("Taxable amount 250.00", "VAT 20% 50.00", 30000)
        ] as [(String, String, Int64)])
    func theNetsLabelMakesItASubtotal(net: String, tax: String, gross: Int64) {
        let e = parser.parse(pages: [page(["Muster Lieferant", net, tax, Money.decimalString(minorUnits: gross, digits: 2)])], language: nil)
        #expect(e.amounts.first { $0.value.minorUnits == 25000 }?.role == .subtotal, "\(net)")
        #expect(e.amounts.filter { $0.score > 0 }.max { $0.score < $1.score }?.value.minorUnits == gross, "\(net)")
    }

    /// The gross's label names it: "T.T.C.", "Endsumme", "Net payable".
    @Test func grossLabels() {
        #expect(ReceiptParser.role(of: "total t.t.c. 300,00").0 == .total)
        #expect(ReceiptParser.role(of: "endsumme 297,50").0 == .total)
        #expect(ReceiptParser.role(of: "net payable 120.00").0 == .total)
        #expect(ReceiptParser.role(of: "total inc. gst 6%: 758.70").0 == .total)
    }

    /// The net's label lost, never printed, or one that reads as a total ("Net Total" on an invoice): the
    /// arithmetic tells net from gross, also when the gross's own label is weak or lost.
    @Test(
        arguments: [
            ["Atelier Dupont SARL", "Total 250,00", "TVA 20 % 50,00", "300,00"],
            ["Acme Supplies Ltd", "Net Total 250.00", "VAT 20% 50.00", "Invoice Total 300.00"],
            ["Muster GmbH", "Summe 250,00", "MwSt 19 % 47,50", "297,50"],
            // The gross printed rounded.
            ["Kedai Maju", "Total Amount : 155.50", "GST 6% 9.31", "Rounding Adj : -0.01", "Total Amount 164.80"]
        ])
    func theArithmeticTellsTheNetFromTheGross(lines: [String]) {
        let b = best(lines, language: nil)
        let gross: Int64 = lines.last!.contains("297,50") ? 29750 : lines.last!.contains("164.80") ? 16480 : 30000
        #expect(b?.value.minorUnits == gross, "\(lines): \(String(describing: b))")
    }

    @Test func netPlusTaxConfirmsTheGross() {
        let b = best(["Atelier Dupont SARL", "Total 250,00", "TVA 20 % 50,00", "Total 300,00"], language: "fra")
        #expect(b?.checks.contains(.arithmetic(.subtotalPlusTax)) == true)
        #expect(b?.checks.contains(.arithmetic(.taxIsRateTimesNet)) == true)
        let net = parser.parse(pages: [page(["Total 250,00", "TVA 20 % 50,00", "Total 300,00"])], language: "fra").amounts
            .first { $0.value.minorUnits == 25000 }
        #expect(net?.notes.contains("net: with the tax it makes an amount below") == true)
    }

    @Test func aTotalWithoutATaxThatMakesALaterAmountIsNoNet() {
        // Two totals, but no tax joins them: nothing is a net, and the usual ranking holds.
        let e = parser.parse(
            pages: [page(["SHOP SDN BHD", "Total 25.00", "GST 6% 1.42", "Total 25.00", "CASH 30.00", "CHANGE 5.00"])], language: "eng")
        #expect(e.amounts.allSatisfy { !$0.notes.contains("net: with the tax it makes an amount below") })
        // A tax larger than any rate allows does not make a net of a small total.
        let big = parser.parse(pages: [page(["Total 10.00", "Tax 8.00", "Total 18.00"])], language: "eng")
        #expect(big.amounts.allSatisfy { !$0.notes.contains("net: with the tax it makes an amount below") })
    }

    // MARK: 2. The amount paid after rounding is the total

    @Test(
        arguments: [
            // The rounding line's sign in each way tills print it; the rounded total printed below.
            (["KEDAI MAJU SDN BHD", "Total 20.03", "Rounding Adj -0.03", "Total (rounded) 20.00"], Int64(2000)),
            (["KEDAI MAJU SDN BHD", "Total 20.03", "Rounding Adj (0.03)", "Total (rounded) 20.00"], 2000),
            (["KEDAI MAJU SDN BHD", "Total 20.03", "Rounding Adj 0.03-", "Total (rounded) 20.00"], 2000),
            (["KEDAI MAJU SDN BHD", "Total 20.03", "Rounding Adj -RM0.03", "Total (rounded) 20.00"], 2000),
            // A sign that says down beside a total rounded up.
            (["KEDAI MAJU SDN BHD", "Total Incl GST 20.03", "Rounding 0.02-", "Net Total 20.05"], 2005),
            // The label of the total before rounding lost: it is still the amount the rounding rounds.
            (["KEDAI MAJU SDN BHD", "Tota] (Inclusive of GST): 31.02", "Rounding Adj: -0.02", "TOTAL: 31.00"], 3100),
            // Rounding to whole units ("Round off") rather than to 5 cents.
            (["Sharma Stores", "Total 120.40", "Round off -0.40", "Net Payable 120.00"], 12000)
        ] as [([String], Int64)])
    func theRoundedTotalPrintedBelowWins(lines: [String], paid: Int64) {
        #expect(best(lines)?.value.minorUnits == paid, "\(lines)")
    }

    @Test(
        arguments: [
            (["Käserei Berger AG", "Total CHF 20.03", "Rundung -0.03"], Int64(2000)),
            (["Käserei Berger AG", "Total CHF 20.03", "Rundung (0.03)"], 2000),
            (["Käserei Berger AG", "Total CHF 20.03", "Rundung 0.03-"], 2000),
            // An unsigned adjustment: the way that lands on the 5-cent step.
            (["KEDAI MAJU SDN BHD", "Total Incl GST RM 20.03", "Rounding Adj RM 0.03"], 2000),
            (["KEDAI MAJU SDN BHD", "Total Incl GST RM 20.03", "Rounding Adj RM 0.02"], 2005)
        ] as [([String], Int64)])
    func theRoundingAppliedWhenNoLinePrintsTheRoundedTotal(lines: [String], paid: Int64) {
        let b = best(lines)
        #expect(b?.value.minorUnits == paid, "\(lines): \(String(describing: b))")
        #expect(b?.checks.contains(.computed(.totalPlusRounding)) == true)
    }

    @Test func aRoundingLargerThanItsStepAllowsRoundsNothing() {
        // "0.02" misread as "0.07": 20.03 ± 0.07 lands on no step a 7-cent rounding could round to.
        let e = parser.parse(pages: [page(["KEDAI MAJU SDN BHD", "Total Incl GST RM 20.03", "Rounding Adj RM 0.07"])], language: "eng")
        #expect(!e.amounts.contains { $0.computed })
        #expect(ReceiptParser.TotalScoring.paidAfterRounding(12040, by: -40) == 12000)
        #expect(ReceiptParser.TotalScoring.paidAfterRounding(2003, by: 7) == nil)
    }

    @Test func thePaymentConfirmsTheRoundedAmount() {
        let r = record(["KEDAI MAJU SDN BHD", "05/03/2018", "Total Incl GST RM 20.03", "Rounding Adj RM -0.03", "CASH RM 50.00", "CHANGE RM 30.00"])
        #expect(r.total?.decimalString == "20.00")
        #expect(!r.reasons.contains(.arithmeticMismatch))
        // No rounding line read, but the payment says the total was rounded onto the 5-cent step.
        // A person looks: a change misread by one digit would look the same.
        let paid = record(["KEDAI MAJU SDN BHD", "05/03/2018", "Total Amt incl GST @ 6% 7.42", "Paid Amount: 10.00", "Change: 2.60"])
        #expect(paid.total?.decimalString == "7.40")
        #expect(paid.reasons.contains(.ambiguous(.total)))
        // A change misread by more than a rounding moves is no rounding: the total line stays.
        let misread = best(["KEDAI MAJU SDN BHD", "Total Amt incl GST @ 6% 7.42", "Paid Amount: 10.00", "Change: 2.50"])
        #expect(misread?.value.minorUnits == 742)
    }

    @Test func aTotalThatARoundingConfirmsIsNotMendedByAMisreadChange() {
        // "CHANGE 5.60" read as "5.40": tendered − change says 14.60, one digit from the rounded total 14.40.
        let b = best([
            "99 SPEED MART S/B", "Total Sales (Inclusive GST) RM 14.38", "Rounding Adjustment RM 0.02", "Rounding RM 14.40", "CASH RM 20.00",
            "CHANGE RM 5.40"
        ])
        #expect(b?.value.minorUnits == 1440)
        let e = parser.parse(
            pages: [
                page([
                    "99 SPEED MART S/B", "Total Sales (Inclusive GST) RM 14.38", "Rounding Adjustment RM 0.02", "Rounding RM 14.40", "CASH RM 20.00",
                    "CHANGE RM 5.40"
                ])
            ], language: "eng")
        #expect(e.amounts.first { $0.computed && $0.value.minorUnits == 1460 }?.score == ReceiptParser.TotalWeights.computedAlone)
    }

    // MARK: 3. A tax summary table is not the total

    /// A column heading ("Amount (RM)", as a sparse reading splits "GST Summary Amount (RM) Tax(RM)") gives no
    /// role to the table row below it.
    @Test(arguments: [["GST Summary Amount (RM) Tax(RM)"], ["GST Summary", "Amount (RM)"], ["Amount (RM)"]])
    func aColumnHeadingGivesNoRoleToTheRowBelow(heading: [String]) {
        let lines = ["PASAR MINI", "SUBTOTAL: 44.90", "CASH 100.00", "CHANGE 55.10"] + heading + ["SR (@6%) 6.70 0.38"]
        let e = parser.parse(pages: [page(lines)], language: "eng")
        #expect(e.amounts.allSatisfy { $0.value.minorUnits != 38 || $0.role != .total }, "\(heading)")
        #expect(e.amounts.filter { $0.score > 0 }.max { $0.score < $1.score }?.value.minorUnits == 4490, "\(heading)")
    }

    @Test func theTotalRowOfATaxSummarySumsItsColumns() {
        let lines = [
            "RESTORAN MAJU", "Sub Total (Excluded GST) 10.94", "Total GST 0.66", "TOTAL 11.60", "GST SUMMARY", "TaxCode % Amount GST",
            "SR 6 10.94 0.66", "Total : 10.94 0.66"
        ]
        let e = parser.parse(pages: [page(lines)], language: "eng")
        let row = e.amounts.filter { $0.evidence?.line == 7 }
        #expect(row.map(\.role) == [.subtotal, .tax])
        #expect(e.amounts.filter { $0.score > 0 }.max { $0.score < $1.score }?.value.minorUnits == 1160)
        // A summary with a gross column keeps the gross as a total: net + tax = gross.
        #expect(ReceiptParser.summaryColumns([1971, 374, 2345]) == [.subtotal, .tax, .total])
        // Two amounts whose second is no tax of the first are not read as a summary row.
        #expect(ReceiptParser.summaryColumns([374, 2345]) == nil)
    }

    @Test func labelsAndItemTablesAreNoSummaryHeadings() {
        #expect(ReceiptParser.isTaxSummaryHeading("gst summary amount(rm) tax(rm)"))
        #expect(ReceiptParser.isTaxSummaryHeading("amount (rm) tax (rm)"))
        #expect(ReceiptParser.isTaxSummaryHeading("mwst-ubersicht netto mwst brutto"))
        #expect(!ReceiptParser.isTaxSummaryHeading("total incl. gst"))
        #expect(!ReceiptParser.isTaxSummaryHeading("total gst:"))
        #expect(!ReceiptParser.isTaxSummaryHeading("description qty u.price total tax"))
        // "Total incl. GST" with its amount on the next line is still a label.
        let b = best(["SHOP SDN BHD", "Total incl. GST", "12.50", "CASH 20.00", "CHANGE 7.50"])
        #expect(b?.value.minorUnits == 1250)
    }

    // MARK: 4. A tax rate's total is not the amount payable

    /// The page with the lines at `lowRead` read at OCR confidence `confidence` (the rest at 95).
    func fainter(_ lines: [String], lowRead: Set<Int>, confidence: Double) -> OCRPage {
        let p = page(lines)
        let relined = p.lines.enumerated().map { (i, l) in
            lowRead.contains(i) ? OCRLine(words: l.words.map { OCRWord(text: $0.text, box: $0.box, confidence: confidence) }) : l
        }
        return OCRPage(pageNumber: p.pageNumber, width: p.width, height: p.height, dpi: p.dpi, source: p.source, lines: relined)
    }

    /// An adjustment note (goods returned) prints the total of each tax rate, one of them negative, and then what
    /// is payable: the payable is the total, confirmed by the page's arithmetic (the rates' totals, or a total
    /// less the adjustment, make it), even when its own words read faintly or its label is misread, and a rate's
    /// total printed twice does not win by its second print.
    @Test(
        arguments: [
            // Malaysian GST adjustment note: 0 % supplies + the negative 6 % supplies = payable; payable read faintly.
            (
                [
                    "KILANG ROTI SDN BHD", "TAX INVOICE / ADJUSTMENT NOTE", "Date: 30/07/2017", "TOTAL 6% SUPPLIES (EXCL. GST): -17.73",
                    "GST: -1.07", "TOTAL 6% SUPPLIES (INC. GST): -18.80", "TOTAL 0% SUPPLIES: 39.01", "TOTAL 0% SUPPLIES: 39.01",
                    "TOTAL PAYABLE: 20.21"
                ], 8, "eng", Int64(2021)
            ),
            // The same with the payable's label misread ("PAYABIE"): no strong label, but the arithmetic speaks.
            (
                [
                    "KILANG ROTI SDN BHD", "TAX INVOICE / ADJUSTMENT NOTE", "Date: 30/07/2017", "TOTAL 6% SUPPLIES (INC. GST): -18.80",
                    "TOTAL 0% SUPPLIES: 39.01", "TOTAL 0% SUPPLIES: 39.01", "TOTAL PAYABIE: 20.21"
                ], -1, "eng", 2021
            ),
            // Tax codes instead of rates, and an adjustment line too large for a rounding.
            (
                [
                    "KEDAI BEKALAN SDN BHD", "ADJUSTMENT NOTE", "Date: 02/05/2018", "TOTAL SR: 26.50", "TOTAL SR: 26.50",
                    "ADJUSTMENT: -5.30", "TOTAL PAYABLE: 21.20"
                ], 6, "eng", 2120
            ),
            // Malay: "Jumlah 0% bekalan" and "Jumlah perlu dibayar".
            (
                [
                    "KILANG ROTI SDN BHD", "NOTA PELARASAN", "Tarikh: 30/07/2017", "JUMLAH 6% BEKALAN: -18.80", "JUMLAH 0% BEKALAN: 39.01",
                    "JUMLAH 0% BEKALAN: 39.01", "JUMLAH PERLU DIBAYAR: 20.21"
                ], 6, "msa", 2021
            ),
            // German: the 7 % sum printed twice, a return taken off, "Zu zahlen" read faintly.
            (
                [
                    "Bäckerei Huber GmbH", "Korrekturbeleg", "Datum: 14.03.2018", "Summe 7 % 53,50", "Summe 7 % 53,50", "Retoure -10,70",
                    "Zu zahlen 42,80"
                ], 6, "deu", 4280
            )
        ] as [([String], Int, String, Int64)])
    func thePayableBeatsARatesTotal(lines: [String], faint: Int, language: String, payable: Int64) {
        let e = parser.parse(pages: [fainter(lines, lowRead: faint >= 0 ? [faint] : [], confidence: 40)], language: language)
        let r = mergedRecord(e, language: language)
        #expect(r.total?.minorUnits == payable, "\(lines)")
        let chosen = e.amounts.filter { $0.score > 0 && $0.value.minorUnits == payable && !$0.computed }.max { $0.score < $1.score }
        #expect(chosen?.arithmeticConfirmed == true, "\(chosen?.notes ?? [])")
        #expect(!r.reasons.contains(.arithmeticMismatch))
    }

    /// A rate's total that is the only total, or whose label includes the tax ("Total Sales (Inclusive of GST) @6%"),
    /// stays the total; two rates' totals still confirm a plain "Summe" below them.
    @Test func aRatesTotalAloneOrInclusiveStaysTheTotal() {
        #expect(best(["KEDAI SDN BHD", "TOTAL 6% SUPPLIES (INC. GST): 42.35", "CASH 50.00", "CHANGE 7.65"])?.value.minorUnits == 4235)
        #expect(
            best(["KEDAI SDN BHD", "Total Sales (Inclusive of GST) @6% 27.30", "Total Excl. GST 25.75", "GST @6% 1.55", "Total 27.30"])?.value
                .minorUnits == 2730)
        #expect(best(["Laden GmbH", "Summe 7 % 10,70", "Summe 19 % 23,80", "Summe 34,50"], language: "deu")?.value.minorUnits == 3450)
        // A rounding that rounds: still a rounding, not an adjustment.
        #expect(best(["KEDAI SDN BHD", "TOTAL 12.52", "ROUNDING ADJ -0.02", "TOTAL ROUNDED 12.50"])?.value.minorUnits == 1250)
    }

    /// An adjustment note whose returns outweigh its sales: what is payable is negative ("TOTAL PAYABLE: -1.73",
    /// "JUMLAH PERLU DIBAYAR", "Zu zahlen"), and it still beats the positive total of one rate printed twice, also when
    /// OCR misreads that rate's digit ("Total @% supplies", "Summe O%", "o%") and when labels and amounts stand on
    /// separate lines. A band total plus the negative rate's total makes the payable.
    @Test(
        arguments: [
            (
                [
                    "KILANG ROTI SDN BHD", "TAX INVOICE / ADJUSTMENT NOTE", "DATE: 29/09/2017", "ROTI PUTIH 2.13 2 4.26", "ROTI GANDUM 2.78 1 2.78",
                    "ROTI JUMBO 2.97 2 5.94", "TOTAL @% SUPPLIES: 12.98", "KEK COKLAT 3.72 -1 -3.72", "MUFFIN 1.25 -9 -11.25",
                    "TOTAL 6% SUPPLIES (EXCL. GST): -13.87", "GST: -0.84", "TOTAL 6% SUPPLIES (INC. GST): -14.71", "TOTAL 0% SUPPLIES: 12.98",
                    "TOTAL PAYABLE: -1.73"
                ], "eng"
            ),
            (
                [
                    "KILANG ROTI SDN BHD", "TAX INVOICE / ADJUSTMENT NOTE", "DATE: 29/09/2017", "ROTI PUTIH 2.13 2 4.26", "ROTI GANDUM 2.78 1 2.78",
                    "ROTI JUMBO 2.97 2 5.94", "TOTAL @% SUPPLIES:", "12.98", "TOTAL 6% SUPPLIES (INC. GST):", "-14.71", "TOTAL 0% SUPPLIES:", "12.98",
                    "TOTAL PAYABLE:", "-1.73"
                ], "eng"
            ),
            (
                [
                    "KILANG ROTI SDN BHD", "ADJUSTMENT NOTE", "DATE: 29/09/2017", "TOTAL O%: 12.98", "TOTAL 6%: -14.71", "TOTAL o%: 12.98",
                    "TOTAL PAYABLE: -1.73"
                ], "eng"
            ),
            (
                [
                    "KILANG ROTI SDN BHD", "NOTA PELARASAN", "TARIKH: 29/09/2017", "JUMLAH @% BEKALAN: 12.98", "JUMLAH 6% BEKALAN: -14.71",
                    "JUMLAH @% BEKALAN: 12.98", "JUMLAH PERLU DIBAYAR: -1.73"
                ], "msa"
            ),
            (
                [
                    "Bäckerei Huber GmbH", "Korrekturbeleg", "Datum: 14.03.2018", "Summe O% 12,98", "Summe 7 % -14,71", "Summe O% 12,98",
                    "Zu zahlen -1,73"
                ], "deu"
            )
        ] as [([String], String)])
    func aNegativePayableBeatsARatesTotal(lines: [String], language: String) {
        let e = parser.parse(pages: [page(lines)], language: language)
        let r = mergedRecord(e, language: language)
        #expect(r.total?.minorUnits == -173, "\(lines)")
        #expect(!r.reasons.contains(.ambiguous(.total)), "\(r.reasons)")
        let payable = e.amounts.filter { $0.score > 0 && $0.value.minorUnits == -173 }.max { $0.score < $1.score }
        #expect(payable?.checks.contains(.arithmetic(.totalLessAdjustment)) == true, "\(payable?.notes ?? [])")
        #expect(e.amounts.filter { $0.value.minorUnits == 1298 && $0.role == .total }.allSatisfy { $0.checks.contains(.rateBand) })
    }

    @Test func aMisreadRateDigitStillNamesOneRate() {
        for label in ["total @% supplies:", "total o%:", "summe o %", "total @ %:", "jumlah 1o%"] {
            #expect(ReceiptParser.namesOneRate(label), "\(label)")
        }
        for label in ["total payable:", "total promo%:", "total amount"] {
            #expect(!ReceiptParser.namesOneRate(label), "\(label)")
        }
    }

    // MARK: Signs

    @Test func signsAsTillsPrintThem() {
        func cents(_ line: String) -> [Int64] { AmountReader.amounts(in: line).filter { !$0.isRate }.map(\.reading.minorUnits) }
        #expect(cents("Rounding -0.03") == [-3])
        #expect(cents("Rounding (0.03)") == [-3])
        #expect(cents("Rounding 0.03-") == [-3])
        #expect(cents("Rounding -RM0.03") == [-3])
        #expect(cents("Rounding (RM 0.03)") == [-3])
        #expect(cents("Rounding RM-0.03") == [-3])
        // A dash between a label and its amount is no sign.
        #expect(cents("Total Amt incl GST @ 6% - 7.42") == [742])
        #expect(cents("TOTAL RM 5.00") == [500])
    }
}
