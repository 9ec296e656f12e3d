import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxParsing

/// Classes of wrong totals that come from what a line's label says: money paid in printed under a total word,
/// one charge of the bill totalled, the word "total" itself misread, and a total per tax rate taken for the
/// invoice's total. Each on synthetic lines.
struct TotalLabelClassTests {
    let parser = ReceiptParser(today: today)

    func best(_ lines: [String], language: String? = "eng") -> AmountCandidate? {
        parser.parse(pages: [page(lines)], language: language).amounts.filter { $0.score > 0 }.max { $0.score < $1.score }
    }

    // MARK: 1. The money paid in, printed under a total word

    /// A parking machine: "Accepted total" is the cash put in; the price is tendered − change.
    @Test func aMachinesAcceptedTotalIsThePayment() {
        let lines = [
            "CITY CAR PARK LTD", "02/11/26 09:40", "Parking fee 4.50", "Amount incl. VAT 4.50", "Accepted total 10.00",
            "Change 5.50"
        ]
        let e = parser.parse(pages: [page(lines)], language: "eng")
        #expect(e.amounts.first { $0.value.minorUnits == 1000 }?.role == .tendered)
        #expect(best(lines)?.value.minorUnits == 450)
    }

    /// The same with a plain "Total": no payment line, change right below, and total − change printed above.
    @Test(
        arguments: [
            ["Ticket machine 7", "Ticket zone A-B 3.20", "TOTAL 5.00", "CHANGE 1.80"],
            ["PARKHAUS MITTE", "Parkgebühr 2,50", "Gesamt 5,00", "Rückgeld 2,50"]
        ])
    func aTotalFollowedByChangeWithoutPaymentIsThePayment(lines: [String]) {
        let price: Int64 = lines.contains("TOTAL 5.00") ? 320 : 250
        #expect(best(lines)?.value.minorUnits == price, "\(lines)")
    }

    /// A till that prints total, then change, having lost the cash line: total − change is printed nowhere, so the
    /// total stays the total. A payment line on the page also leaves the total alone.
    @Test(
        arguments: [
            ["KEDAI MAJU", "Item A 12.00", "Item B 25.70", "TOTAL 37.70", "CHANGE 12.30"],
            ["KEDAI MAJU", "Item A 25.40", "TOTAL 37.70", "CASH 50.00", "CHANGE 12.30"]
        ])
    func aTotalStaysATotalWhenNothingSaysItWasPaidIn(lines: [String]) {
        #expect(best(lines)?.value.minorUnits == 3770, "\(lines)")
    }

    // MARK: 2. One charge of the bill, totalled

    @Test(
        arguments: [
            "TOTAL LOADING CHARGES 6.00", "Total service charge 6.00", "Total delivery fee 6.00", "Total Srv Chg 6.00"
        ])
    func aTotalledChargeIsNoTotal(line: String) {
        let lines = ["CHECKPOINT MART", "Rice 5kg 19.99", "TOTAL 19.99", "CASH 20.00", "CHANGE 0.01", line]
        #expect(ReceiptParser.role(of: TextFolding.fold(line)).0 == .lineItem, "\(line)")
        #expect(best(lines)?.value.minorUnits == 1999, "\(line)")
    }

    @Test func totalChargesAndAnInclusiveTotalStayTotals() {
        #expect(ReceiptParser.role(of: "total charges 120.00").0 == .total)
        #expect(ReceiptParser.role(of: "total incl. service charge 66.00").0 == .total)
    }

    // MARK: 3. The word "total" misread

    @Test(arguments: ["Tetel Sales (inclusive GST) RM 11.50", "Fotal 11.50", "Tota] 11.50", "T0tal: 11.50", "IUIAL (GSI INCL) 11.50"])
    func aMisreadTotalWordStillLabelsTheTotal(line: String) {
        let e = parser.parse(pages: [page(["KEDAI MAJU SDN BHD", "Bread 4.80", "Milk 6.70", line, "CASH 20.00"])], language: "eng")
        #expect(e.amounts.first { $0.value.minorUnits == 1150 }?.role == .total, "\(line)")
        #expect(e.amounts.filter { $0.score > 0 }.max { $0.score < $1.score }?.value.minorUnits == 1150, "\(line)")
    }

    @Test func wordsThatOnlyLookLikeTotalAreNot() {
        #expect(ReceiptParser.misreadTotalWord("hotel 11.50") == nil)
        #expect(ReceiptParser.misreadTotalWord("metal 11.50") == nil)
        #expect(ReceiptParser.misreadTotalWord("tidal 11.50") == nil)
        #expect(ReceiptParser.misreadTotalWord("bread tetel 11.50") == nil)
        #expect(ReceiptParser.misreadTotalWord("total 11.50") == nil)
    }

    /// A total word whose last letter OCR split off ("Tota | RM7.00", "Tota 1 M7.00", "Summ e 7,00", "Jumla h
    /// RM7.00") still labels the total: below a net "Amount" line (a parking machine's "Amount RM6.60",
    /// "ST(Included) 6.00 % RM0.40", "TOTAL RM7.00"), the total, not the net, also when its amount stands on the next
    /// line and when the tax or change line is misread.
    @Test(
        arguments: [
            (["Parking Fee Rate A RM7.00", "Amount RM6.60", "3T(Included) 6.00 % Ro. 40", "Tota | RM7.00", "Paid RM7.00", "Changse RMO.00"], "eng"),
            (["Parking Fee Rate A RM7.00", "Amount RM6.60", "ST(Included) 6.00 % RM0.40", "Tota 1 RM7.00", "Paid RM7.00", "Change RM0.00"], "eng"),
            (["Parking Fee", "RM7.00", "Amount", "RM6.60", "ST(Included)", "RM0.40", "Tota |", "RM7.00", "Paid", "RM7.00"], "eng"),
            (["Bayaran Letak Kereta RM7.00", "Jumlah RM6.60", "Cukai 6% RM0.40", "Jumla h RM7.00", "Tunai RM7.00"], "msa"),
            (["Parkgebühr 7,00", "Betrag 5,88", "MwSt 19 % 1,12", "Summ e 7,00", "Bar 7,00"], "deu")
        ] as [([String], String)])
    func aTotalWordSplitByOCRLabelsTheTotalBelowTheNet(lines: [String], language: String) {
        let all = ["FIRST CITY PARKING SDN BHD", "TAX INVOICE", "16/04/2018 9:49"] + lines
        let e = parser.parse(pages: [page(all)], language: language)
        #expect(e.amounts.contains { $0.value.minorUnits == 700 && $0.role == .total && $0.keyword != nil }, "\(lines)")
        #expect(best(all, language: language)?.value.minorUnits == 700, "\(lines)")
        #expect(mergedRecord(e, language: language).total?.minorUnits == 700, "\(lines)")
    }

    @Test func aSplitWordThatMakesNoTotalWordIsNone() {
        #expect(ReceiptParser.misreadTotalWord("tota | rm7.00") != nil)
        #expect(ReceiptParser.misreadTotalWord("summ e 7,00") != nil)
        #expect(ReceiptParser.misreadTotalWord("tata | 7.00") == nil)
        #expect(ReceiptParser.misreadTotalWord("hote l 11.50") == nil)
        #expect(ReceiptParser.misreadTotalWord("tota 2 x 3.50") == nil)
        #expect(ReceiptParser.misreadTotalWord("sum a 3.50") == nil)
    }

    // MARK: 4. A total per tax rate

    /// An invoice that prints a total for each rate, then what is payable: the two bands' sum confirms the payable
    /// amount (on real pages its line is the one read with a digit dropped by one reader), and only it.
    @Test(
        arguments: [
            (["Bäckerei Huber GmbH", "Summe 7 %: 10,70", "Summe 19 %: 23,80", "Zu zahlen 34,50"], Int64(3450)),
            (["Bäckerei Huber GmbH", "Summe 7 %: 10,70", "Summe 19 %: 23,80", "34,50"], 3450),
            (
                [
                    "KILANG ROTI SDN BHD", "Total 0% supplies: 17.50", "Total 6% supplies (excl. GST): 40.00",
                    "Total 6% supplies (Inc. GST): 42.40", "Total Payable: 59.90"
                ], 5990
            )
        ] as [([String], Int64)])
    func theRateBandsSumToThePayableTotal(lines: [String], payable: Int64) {
        let e = parser.parse(pages: [page(lines)], language: nil)
        let confirmed = e.amounts.filter { $0.checks.contains(.arithmetic(.rateBandsSumToTotal)) }.map(\.value.minorUnits)
        #expect(confirmed == [payable], "\(lines)")
    }

    /// A net band ("excl.") is no band total, and one band alone confirms nothing.
    @Test func aNetBandOrASingleBandConfirmsNothing() {
        let e = parser.parse(
            pages: [page(["KILANG ROTI SDN BHD", "Total 6% supplies (excl. GST): 40.00", "Total 0% supplies: 17.50", "57.50"])], language: nil)
        #expect(e.amounts.allSatisfy { !$0.checks.contains(.arithmetic(.rateBandsSumToTotal)) })
    }

    // MARK: 5. What is to be paid, printed with the word "paid"

    /// Issue 51 (class: a label that says what is to be paid): "Amount To Be Paid" is the total, not a payment,
    /// although it holds "paid"; the cash handed over beside it is the payment.
    @Test(arguments: [
        ["Total Sales Inclusive GST @6%: 25.44", "Rounding Adjustment: 0.01", "Amount To Be Paid : 25.45", "Cash Received : 25.50", "Change 0.05"],
        ["Amount to be paid 25.45", "Cash 30.00", "Change 4.55"],
        ["Total to be paid: 25.45", "Paid amount: 50.00", "Change: 24.55"]
    ])
    func anAmountToBePaidIsTheTotal(lines: [String]) {
        let e = parser.parse(pages: [page(["KEDAI RUNCIT SDN BHD", "25/12/2017 10:12"] + lines)], language: "eng")
        #expect(e.amounts.first { $0.value.minorUnits == 2545 }?.role == .total, "\(lines)")
        #expect(best(["KEDAI RUNCIT SDN BHD", "25/12/2017 10:12"] + lines)?.value.minorUnits == 2545, "\(lines)")
    }
}
