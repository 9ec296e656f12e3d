import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxParsing

/// The merchant from more than the top line: a misread legal form mended, the lines around a name that are not
/// it (addresses, opening hours, notices, phone, web and registration lines), and the evidence elsewhere on the
/// page (web and mail addresses, the closing greeting, a registration number). Every receipt here is made up.
struct MerchantIdentityTests {
    let parser = ReceiptParser(today: today)

    func merchants(_ lines: [String]) -> [TextCandidate] { parser.parse(pages: [page(lines)], language: nil).merchants }

    /// A page whose lines are printed in columns: each inner array is one line, its strings set far apart.
    func columns(_ lines: [[String]]) -> OCRPage {
        var ocrLines: [OCRLine] = []
        for (i, segments) in lines.enumerated() {
            var x = 10
            var words: [OCRWord] = []
            for segment in segments {
                for token in segment.split(separator: " ") {
                    words.append(
                        OCRWord(
                            text: String(token), box: BoundingBox(left: x, top: 40 * i + 5, right: x + token.count * 20, bottom: 40 * i + 35),
                            confidence: 95))
                    x += token.count * 20 + 20
                }
                x += 200
            }
            ocrLines.append(OCRLine(words: words))
        }
        return OCRPage(pageNumber: 1, width: 1600, height: 40 * lines.count + 10, dpi: 300, source: .ocr, lines: ocrLines)
    }

    // MARK: 1. The legal form, mended at the end of the name

    @Test(
        arguments: [
            ("KEDAI MAJU SDM BHD", "KEDAI MAJU SDN BHD"), ("KEDAI MAJU SUN BHD", "KEDAI MAJU SDN BHD"),
            ("KEDAI MAJU SDS BHD", "KEDAI MAJU SDN BHD"), ("KEDAI MAJU SDN BND", "KEDAI MAJU SDN BHD"),
            ("KEDAI MAJU 5DN BHD", "KEDAI MAJU SDN BHD"), ("Kedai Maju Sdn Bnd", "Kedai Maju Sdn Bhd"),
            ("Kedai Maju SdnRhd", "Kedai Maju Sdn Bhd"), ("BACKHAUS NORD GMBI-I", "BACKHAUS NORD GMBH"),
            ("Backhaus Nord GrnbH", "Backhaus Nord GmbH"), ("HARBOUR SUPPLIES LT0", "HARBOUR SUPPLIES LTD"),
            ("HARBOUR SUPPLIES 1TD", "HARBOUR SUPPLIES LTD"), ("Distribuciones Sur 5.L.", "Distribuciones Sur S.L."),
            ("Comercial Norte 5.A.", "Comercial Norte S.A."), ("Boulangerie Petit 5ARL", "Boulangerie Petit SARL"),
            ("KEDAI JAYA P1T", "KEDAI JAYA PLT"), ("HARBOUR TRADING LIMITEO", "HARBOUR TRADING LIMITED")
        ])
    func aMisreadLegalFormIsMended(printed: String, mended: String) {
        #expect(LegalFormMender.mend(printed).0 == mended)
    }

    @Test(
        arguments: [
            // Words one letter from a form stay words; a short form is never mended from another letter.
            "CAFE KARL", "CAFE SARI", "BBQ PIT", "SUN MOON", "LIM & SON",
            // Two letters off is not a misreading of one form; a letter dropped is not mended either.
            "KEDAI MAJU SEN BHE", "GARDEN BAKERIES (KLS DN BHD",
            // Only at the end of the name, where legal forms stand.
            "SDM BHD PETALING BRANCH",
            // Printed right: nothing to mend, nothing noted.
            "KEDAI MAJU SDN BHD", "Backhaus Nord GmbH", "KEDAI MAJU SDN. BHD."
        ])
    func noLegalFormIsInvented(printed: String) {
        let (name, note) = LegalFormMender.mend(printed)
        #expect(name == printed)
        #expect(note == nil)
    }

    @Test func theMendIsNotedOnTheName() {
        let best = merchants(["KEDAI MAJU SDM BHD", "LOT 3, JALAN MAWAR", "TOTAL 5.00"]).first
        #expect(best?.value == "KEDAI MAJU SDN BHD")
        #expect(best?.notes.contains("read 'SDM BHD' as 'SDN BHD'") == true)
        #expect(best?.notes.contains("legal form 'sdn bhd'") == true)
    }

    @Test func aShortLegalFormCountsOnlyAtTheEndOfTheName() {
        #expect(ReceiptParser.legalForm(in: "seri sa, off jln klang lama") == nil)
        #expect(ReceiptParser.legalForm(in: "uni ab note book") == nil)
        #expect(ReceiptParser.legalForm(in: "comercial norte sa") == "sa")
        #expect(ReceiptParser.legalForm(in: "meier gmbh & co. kg") == "gmbh")
        #expect(ReceiptParser.legalForm(in: "lim & co. (m)") == "co.")
        #expect(ReceiptParser.legalForm(in: "backerei schmidt e.k.") == "e.k")
        // So an address line holding "SA" is an address, not a company.
        let names = merchants(["KEDAI MAJU", "SERI SA, OFF JLN KLANG LAMA", "TOTAL 5.00"]).map(\.value)
        #expect(names.first == "KEDAI MAJU")
        #expect(!names.contains { $0.contains("JLN") })
    }

    // MARK: 2. What is printed around a name and is never it

    @Test(
        arguments: [
            "OPEN DAILY 10AM-10PM", "Mo-Sa 8-20 Uhr", "Mon - Sun 9:00 - 22:00", "Lun-Sam 8h-19h", "Öffnungszeiten",
            "WUNSCHLOS GLÜCKLICH", "THANK YOU PLEASE COME AGAIN", "Your satisfaction is our priority",
            "Goods sold are not returnable", "For feedback or complaint please call", "Co. Reg. No. 123456-X", "ROC 123456-X",
            "Amtsgericht Hamburg HRB 1234"
        ])
    func aNoticeHoursOrRegistrationLineIsNoName(line: String) {
        #expect(ReceiptParser.isNoName(TextFolding.fold(line), legal: nil))
    }

    @Test(
        arguments: [
            "Tel: 03-8079 0255", "Fax 089 123 456", "Customer Service 1-300-22-2828", "Hotline +6012-918 7937", "info@example.de",
            "www.example.com.my", "Order online: example.com.my", "GST Reg No: 001234567890"
        ])
    func aPhoneWebOrTaxLineIsNoName(line: String) {
        #expect(ReceiptParser.merchantName(line, today: today) == nil)
    }

    @Test func namesThatLookLikeNoticesStay() {
        for name in ["KEDAI BUKU MAJU", "Backhaus Nord GmbH", "THE ROTI MAN", "SUN & MOON CAFE"] {
            #expect(!ReceiptParser.isNoName(TextFolding.fold(name), legal: ReceiptParser.legalForm(in: TextFolding.fold(name))), "\(name)")
        }
    }

    @Test func anAddressOverSeveralLinesIsNoName() {
        // The logo is a picture: the page starts with the address. A place name between two address lines, or
        // under one that goes on (a comma), is part of it.
        let names = merchants([
            "No. 12, Jalan Bunga Raya 3/1,", "Seri Kembangan Utama", "43300 Seri Kembangan", "25/01/2018 10:21", "TOTAL 9.00",
            "Thank you for shopping at KEDAI MAJU JAYA"
        ]).map(\.value)
        #expect(names.first == "KEDAI MAJU JAYA")
        #expect(!names.contains("Seri Kembangan Utama"))
        let comma = merchants(["No. 12,", "Bukit Indah 3/1,", "Kuchai Lama", "TOTAL 9.00"]).map(\.value)
        #expect(!comma.contains("Bukit Indah 3/1"))
        #expect(!comma.contains("Kuchai Lama"))
    }

    @Test func theRightColumnOfAnAddressLineIsNoName() {
        let e = parser.parse(pages: [columns([["KEDAI MAJU"], ["LOT P, 211", "BUKIT INDAH"], ["TOTAL 9.00"]])], language: nil)
        #expect(e.merchants.first?.value == "KEDAI MAJU")
        #expect(!e.merchants.contains { $0.value == "BUKIT INDAH" })
    }

    @Test func aNameOverTwoColumnsIsJoined() {
        // "… (MALAYSIA" on the left, "SDN BHD" far to its right: one name, not "SDN BHD" alone.
        let e = parser.parse(pages: [columns([["THE SHOP (MALAYSIA", "SDN BHD"], ["TOTAL 9.00"]])], language: nil)
        #expect(e.merchants.first?.value == "THE SHOP (MALAYSIA SDN BHD")
        #expect(e.merchants.first?.notes.contains("joined with the segment on its left") == true)
    }

    // MARK: 3. Evidence for the name from elsewhere on the page

    @Test func aWebOrMailAddressConfirmsTheNameThatHoldsIt() {
        let without = merchants(["HAPPY CORNER", "MAJU ELEKTRIK", "TOTAL 9.00"])
        #expect(without.first?.value == "HAPPY CORNER")
        let with = merchants(["HAPPY CORNER", "MAJU ELEKTRIK", "TOTAL 9.00", "www.majuelektrik.com.my"])
        #expect(with.first?.value == "MAJU ELEKTRIK")
        #expect(with.first?.notes.contains("the web or mail address names 'majuelektrik'") == true)
        #expect(merchants(["Genuss am Eck", "Musterhof Feinkost", "Summe 9,00"]).first?.value == "Genuss am Eck")
        #expect(merchants(["Genuss am Eck", "Musterhof Feinkost", "Summe 9,00", "info@musterhof.de"]).first?.value == "Musterhof Feinkost")
    }

    @Test func webNamesAreTheLabelBeforeTheHostsEnding() {
        let lines = ReceiptParser.prepare([
            page(["www.example.com.my", "Mail: info@muster-hof.de", "kedai@gmail.com", "Distribuciones Sur S.L.", "shop.bestbuy.co.uk"])
        ])
        #expect(ReceiptParser.webNames(lines) == ["example", "musterhof", "bestbuy"])
    }

    @Test(
        arguments: [
            ("Merci de votre visite chez Boulangerie Dupont", "Boulangerie Dupont"),
            ("Vielen Dank für Ihren Einkauf bei Getränke Lenz", "Getränke Lenz"),
            ("Gracias por su compra en Ferretería Sol", "Ferretería Sol"),
            ("Terima kasih kerana berbelanja di Kedai Maju", "Kedai Maju")
        ])
    func theClosingGreetingNamesTheShop(greeting: String, name: String) {
        let names = merchants(["No. 12, Jalan Bunga Raya,", "TOTAL 9.00", greeting]).map(\.value)
        #expect(names.first == name)
    }

    @Test func aGreetingConfirmsTheLongerNamePrintedAbove() {
        let best = merchants(["LUCKY STAR PIZZA", "D-08, Jalan Kenari 5", "TOTAL 9.00", "Thank you for visiting Lucky Star!"]).first
        #expect(best?.value == "LUCKY STAR PIZZA")
        #expect(best?.notes.contains("the closing greeting names 'luckystar'") == true)
    }

    @Test func aGreetingDoesNotTakeThePhoneLineUnderIt() {
        let names = merchants(["TOTAL 50.00", "Thank You For Shopping At PETROMAS", "Customer Service 1-300-22-2828"]).map(\.value)
        #expect(names.first == "PETROMAS")
    }

    @Test func aRegistrationNumberMarksTheLegalName() {
        // Printed with the name, bracketed or not, and cut from it; a name without a printed legal form is marked
        // as the registered one by it (a legal form already says so).
        let with = merchants(["KEDAI MAJU JAYA (123456-X)", "TOTAL 9.00"]).first
        #expect(with?.value == "KEDAI MAJU JAYA")
        #expect(with?.notes.contains("company number with it") == true)
        let legal = merchants(["KEDAI MAJU SDN BHD (123456-X)", "TOTAL 9.00"]).first
        #expect(legal?.value == "KEDAI MAJU SDN BHD")
        #expect(legal?.notes.contains("legal form 'sdn bhd'") == true)
        #expect(ReceiptParser.cutCompanyNumber("kedai roti sdn bhd 1234567-W") == "kedai roti sdn bhd")
        #expect(ReceiptParser.cutCompanyNumber("99 SPEED MART") == "99 SPEED MART")
        // Issue 51 (class: a bare company number followed by the branch's code): the name is still a candidate.
        #expect(ReceiptParser.cutCompanyNumber("ROTI MAJU S/B 123456-K (RMJ)") == "ROTI MAJU S/B")
        #expect(merchants(["ROTI MAJU S/B 123456-K (RMJ)", "NO. 7, JALAN MERAH", "TOTAL 9.00"]).first?.value == "ROTI MAJU S/B")
        // Printed under it.
        let below = merchants(["KEDAI MAJU SDN BHD", "Co. Reg. No. 123456-X", "TOTAL 9.00"]).first
        #expect(below?.notes.contains("company number below") == true)
        // The owner's label is not part of the name.
        #expect(ReceiptParser.merchantName("Dimiliki oleh: Kedai Roti Sdn Bhd 1234567-W", today: today) == "Kedai Roti SDN BHD")
        #expect(ReceiptParser.merchantName("Owned By .", today: today) == nil)
    }

    @Test func aChainReceiptWithoutItsLogoGetsTheRegisteredName() {
        // The top is a slogan and an address; the registered name below them is the merchant.
        let names = merchants([
            "Your satisfaction is our priority", "OPEN DAILY 10AM-10PM", "No. 8, Jalan Mawar 2,", "Taman Bunga Raya",
            "MAJU MART SDN BHD", "(123456-X)", "25/01/2018", "TOTAL 5.00"
        ]).map(\.value)
        #expect(names.first == "MAJU MART SDN BHD")
    }
}
