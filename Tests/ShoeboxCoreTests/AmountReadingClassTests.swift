import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxParsing
@testable import ShoeboxReading

/// Classes of wrong totals that come from how the amount itself was read: a gap OCR put between the digits
/// after a currency mark, and a country's currency mark that was not known (so the total could not be kept).
struct AmountReadingClassTests {
    func record(_ lines: [String], language: String? = "eng") -> DocumentRecord {
        mergedRecord(ReceiptParser(today: today).parse(pages: [page(lines)], language: language), language: language)
    }

    // MARK: 1. A gap inside the digits after a currency mark

    @Test func aGapBetweenDigitsAfterACurrencyMarkIsMended() {
        #expect(AmountReader.mend("Grand Total RM5 1 .30") == "Grand Total RM51.30")
        #expect(AmountReader.mend("Grand Total RM 5 1.30") == "Grand Total RM 51.30")
        #expect(AmountReader.mend("Total $1 2.50") == "Total $12.50")
        // Thousands grouped by a space read the same either way.
        #expect(AmountReader.amounts(in: AmountReader.mend("Total RM 1 234.50")).map(\.reading.minorUnits) == [123_450])
        // No currency mark, or no decimal part: a quantity and a price, or a phone number, left alone.
        #expect(AmountReader.mend("2 6.88") == "2 6.88")
        #expect(AmountReader.mend("Tel RM 03 2026 6366") == "Tel RM 03 2026 6366")
    }

    @Test func theMendedAmountIsTheTotal() {
        let r = record([
            "KEDAI KEK SDN BHD", "Date: 2026/05/01", "Cheese Slice 1 RM12.60", "Coffee Slice 1 RM13.50", "Tea Slice 1 RM12.60",
            "Plain Slice 1 RM12.60", "Grand Total RM5 1 .30", "Cash RM51.30"
        ])
        #expect(r.total?.decimalString == "51.30")
    }

    // MARK: 2. A country's currency mark

    @Test func theDirhamMarkGivesTheTotalItsCurrency() {
        #expect(AmountReader.amounts(in: "Total Facture : 56.00 DH.").first?.reading.currencyHint == "MAD")
        #expect(AmountReader.amounts(in: "Total AED 56.00").first?.reading.currencyHint == "AED")
        let r = record(["CAFE DE LA GARE", "Le 12/03/2026 a 12:36", "CAFE CREME 12.00 2 24.00", "Total Facture : 24.00 DH", "ESPECES 24.00 DH"])
        #expect(r.total?.decimalString == "24.00")
        #expect(r.currency?.code == "MAD")
    }

    /// "DH" only as a word of its own beside the amount: not inside a longer word.
    @Test func dhInsideAWordIsNoCurrency() {
        #expect(AmountReader.amounts(in: "DHL Express 56.00").first?.reading.currencyHint == nil)
        #expect(AmountReader.amounts(in: "56.00 DHL").first?.reading.currencyHint == nil)
    }
}
