import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxParsing
@testable import ShoeboxReading

/// Issue 51, dates: German till receipts since 2020 print the TSE block (the signing unit's start and stop times as ISO
/// timestamps), and many print the day with a two-digit year beside the time.
struct TSEDateTests {
    let parser = ReceiptParser(today: today)

    func record(_ lines: [String]) -> DocumentRecord { mergedRecord(parser.parse(pages: [page(lines)], language: "deu"), language: "deu") }

    static let body = [
        "Domstr. 20", "50668 Köln", "BANANEN 1,99 A", "MILCH 1,15 A", "SUMME EUR 3,14", "Geg. BAR EUR 5,00", "Rückgeld BAR EUR 1,86",
        "Steuer % Netto Steuer Brutto", "A= 7,0% 2,93 0,21 3,14"
    ]

    @Test func theTSEBlocksTimestampsDateAReceiptThatPrintsNoOtherDate() {
        let r = record(
            ["Frischmarkt GmbH"] + Self.body + [
                "TSE-Transaktion: 123456", "TSE-Start: 2023-03-02T12:41:07.000", "TSE-Stop: 2023-03-02T12:41:32.000",
                "Seriennummer Kasse: e4:5f:01", "Vielen Dank für Ihren Einkauf"
            ])
        #expect(r.date?.iso == "2023-03-02", "\(r.date?.iso ?? "none")")
    }

    @Test func aTwoDigitYearBesideATimeIsRead() {
        let r = record(["Frischmarkt GmbH"] + Self.body + ["02.03.20 12:41 Bon 1234 Kasse 2", "Vielen Dank für Ihren Einkauf"])
        #expect(r.date?.iso == "2020-03-02", "\(r.date?.iso ?? "none")")
    }

    /// A page that prints its tax per rate: the subtotal plus one rate's tax ("4,99 + 0,24") is no total, though it is
    /// one digit from the total line ("5,53").
    @Test func oneRatesTaxPlusTheNetIsNoTotal() {
        let r = record(
            [
                "Frischmarkt GmbH", "Lindenallee 7", "30159 Hannover", "27.02.26 18:22", "Äpfel Elstar 2,49", "Vollmilch 1 l 1,19", "Spülmittel 1,85",
                "Netto 4,99", "MwSt 7% 0,24", "MwSt 19% 0,30", "SUMME 5,53 EUR", "Girocard 5,53"
            ])
        #expect(r.total?.decimalString == "5.53", "\(r.total?.decimalString ?? "none")")
    }

    /// A legal name ending in "GmbH & Co. KG", printed only in the imprint: its "KG" is no Malaysian "Kg." (an address
    /// word), so the imprint names the shop whose name is a logo.
    @Test func aGmbHAndCoKGInTheImprintNamesTheShop() {
        let r = record(
            [
                "Lindenallee 7", "30159 Hannover", "Tel. 0511 445566", "27.02.26 18:22", "Äpfel Elstar 2,49", "SUMME 2,49 EUR", "Girocard 2,49",
                "Vielen Dank für Ihren Einkauf!", "Markthalle Weber GmbH & Co. KG", "USt-IdNr. DE287654321"
            ])
        #expect(r.merchant == "Markthalle Weber GmbH & Co. KG", "\(r.merchant ?? "none")")
        #expect(ReceiptParser.looksLikeAddress("kg. baru, 17000 pasir mas"), "a kampung stays an address")
    }
}
