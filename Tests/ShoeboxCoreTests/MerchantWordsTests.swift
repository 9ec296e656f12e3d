import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxParsing

/// A shop's name the two readers read apart in a few letters on the same line, joined word by word
/// (`Extraction.joinedNameWords`). Every name here is made up.
extension SecondReadingTests {
    @Test func aNameTheReadersReadApartInAFewLettersIsJoinedWordByWord() {
        // Tesseract swaps a letter of upper-case print ("HAJU"); the second reader drops one ("RUNCT").
        var misread = receipt
        misread[0] = "KEDAI RUNCIT HAJU SDN BHD"
        let (r, e) = merged(misread, again: [0: "KEDAI RUNCT MAJU SDN BHD"])
        #expect(r.merchant.map(ReceiptParser.normalizedMerchant) == "KEDAI RUNCIT MAJU SDN BHD", "\(e.merchants.map { ($0.value, $0.score) })")
        // Both readings of the line now name the shop alike; they still disagreed, which the score keeps.
        let onLine = e.merchants.filter { $0.evidence?.line == 0 }
        #expect(onLine.count == 2)
        #expect(onLine.allSatisfy { $0.value == "KEDAI RUNCIT MAJU SDN BHD" && $0.checks.contains(.readersDisagree) })
    }

    @Test func aNameReadWithAnotherWordCountIsLeftAsEachReaderReadIt() {
        var misread = receipt
        misread[0] = "KEDAI RUNCIT HAJU SDN BHD"
        let (_, e) = merged(misread, again: [0: "KEDAI RUN CIT MAJU SDN BHD"])
        #expect(Set(e.merchants.filter { $0.evidence?.line == 0 }.map(\.value)) == ["KEDAI RUNCIT HAJU SDN BHD", "KEDAI RUN CIT MAJU SDN BHD"])
    }

    @Test(
        arguments: [
            ("SPEEDY", "SPEDY", "SPEEDY"), // the second reader collapses a doubled letter
            ("TOKO", "TOKOO", "TOKOO"), // either reader may drop one
            ("HART", "MART", "MART"), // upper-case letters one apart: the second reader's
            ("Sdn", "SDN", "Sdn"), // alike but for case
            ("(M)", "(MH)", nil), // one letter: the extra may be noise
            ("S/B", "/B", nil),
            ("HARTA", "MARTO", nil), // two letters apart
            ("F&B", "F&E", nil), // not letters alone
            ("Hart", "Mart", nil), // not upper-case print
            ("CONFECTIONERY", "CONFECTEONERY", "CONFECTIONERY"), // the trade word, although tesseract read it
            ("Bakerles", "Bakeries", "Bakeries"), // the trade word, in any case
            ("HARDWAKE", "HARUWARE", nil) // neither is a trade word as read
        ] as [(String, String, String?)])
    func aWordIsSettledOnlyByAClassOfMisreading(tesseract: String, second: String, chosen: String?) {
        #expect(Extraction.chosenWord(tesseract: tesseract, second: second) == chosen)
    }
}
