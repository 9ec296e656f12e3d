import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement
@testable import ShoeboxParsing

/// Issue 52: the card paid with, by scheme and last four, on paper and on screens; full card numbers cut to their
/// last four before any rule reads them or anything is stored. Card numbers here are the schemes' test numbers.
struct CardNumbersTests {
    let rules = RealReceiptRulesTests()

    func line(_ text: String) -> OCRLine {
        OCRLine(
            words: text.split(separator: " ").map {
                OCRWord(text: String($0), box: BoundingBox(left: 0, top: 0, right: 1, bottom: 1), confidence: 90)
            })
    }

    @Test func aFullCardNumberIsCutToItsLastFour() {
        #expect(CardNumbers.masked(line("VISA 4111 1111 1111 1111")).text == "VISA **** **** **** 1111")
        #expect(CardNumbers.masked(line("Card No: 5555555555554444 SALE")).text == "Card No: ************4444 SALE")
        #expect(CardNumbers.masked(line("4242-4242-4242-4242")).text == "****-****-****-4242", "four groups need no card word")
        // Not card numbers: the Luhn check fails, a tax number, a wallet's reference with no card word.
        #expect(CardNumbers.masked(line("VISA 4111 1111 1111 1112")).text == "VISA 4111 1111 1111 1112")
        #expect(CardNumbers.masked(line("GST ID: 000123456789")).text == "GST ID: 000123456789")
        #expect(CardNumbers.masked(line("Reference No. 2611151405230017")).text == "Reference No. 2611151405230017")
        #expect(CardNumbers.isCardNumber(Array("378282246310005".utf8).map { $0 - 48 }), "an Amex test number")
    }

    @Test func theCardPaidWithIsReadByItsSchemeAndLastFour() {
        for (text, scheme, last4) in [
            ("VISA ****4242", "VISA", "4242"), ("MasterCard •••• 9876", "MASTERCARD", "9876"),
            ("Kartennr. ************1234", nil, "1234"), ("XXXXXXXXXXXX5678 AMEX", "AMEX", "5678"), ("Card ending in 3344", nil, "3344"),
            ("girocard xxxx xxxx xxxx 0011", "GIROCARD", "0011")
        ] as [(String, String?, String)] {
            let r = rules.record(["KEDAI MAJU SDN BHD", "05/03/2018", "TOTAL RM 5.00", text])
            #expect(r.card == CardUsed(scheme: scheme, last4: last4), "\(text): \(String(describing: r.card))")
        }
        // A full number on the page: only its last four are in the record, and in the evidence.
        let full = rules.record(["KEDAI MAJU SDN BHD", "05/03/2018", "TOTAL RM 5.00", "VISA 4111 1111 1111 1111"])
        #expect(full.card == CardUsed(scheme: "VISA", last4: "1111"))
        #expect(!full.evidence.values.contains { ($0.text ?? "").contains("4111") })
        // No card on the page: none.
        #expect(rules.record(["KEDAI MAJU SDN BHD", "05/03/2018", "TOTAL RM 5.00", "CASH RM 10.00"]).card == nil)
        #expect(ReceiptParser.accountLastFour("Savings Account-i 1234") == CardUsed(scheme: nil, last4: "1234"))
        #expect(ReceiptParser.accountLastFour("eWallet Balance") == nil)
    }

    @Test func howItWasPaidIsOneLine() {
        var r = DocumentRecord(source: "a.png", folder: "", sha256: "00", status: .review)
        #expect(r.paidWithText == nil)
        r.payment = PaymentScreen(purpose: .payment, provider: "MAE (Maybank)", paidFrom: "Savings Account-i 1234")
        r.card = CardUsed(scheme: nil, last4: "1234")
        #expect(r.paidWithText == "paid with MAE (Maybank) · from Savings Account-i 1234 · card ••••1234")
        r.payment = PaymentScreen(purpose: .topUp, provider: "Touch 'n Go eWallet")
        r.card = CardUsed(scheme: "VISA", last4: "4242")
        #expect(r.paidWithText == "paid with Touch 'n Go eWallet · card VISA ••••4242 · screen shows: top-up")
    }
}
