import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement
@testable import ShoeboxParsing

/// `MerchantKey.keys(of:)` on lines written for the test: each kind in the languages it serves, OCR's misreadings,
/// the buyer's numbers and shared mail providers left out.
struct MerchantKeysTests {
    func keys(_ lines: [String]) -> [String] { MerchantKey.keys(of: [page(lines)]).map(\.description) }

    func values(_ kind: MerchantKey.Kind, _ lines: [String]) -> [String] {
        MerchantKey.keys(of: [page(lines)]).filter { $0.kind == kind }.map(\.value)
    }

    @Test(
        arguments: [
            ("GST REG NO : 000123456789", "123456789"), ("(GST ID No: 000504664064)", "504664064"),
            ("CO. REG NO : 654321-K", "654321"), ("USt-IdNr. DE123456789", "DE123456789"),
            ("Steuernummer 12/345/67890", "1234567890"), ("NIF/CIF B12345678", "B12345678"), ("CIF: ESB12345678", "B12345678"),
            ("SIRET : 123 456 789 00012", "123456789"), ("N° TVA intracommunautaire : FR 11 123 456 789", "123456789"),
            ("VAT Reg No GB 123 4567 89", "GB123456789")
        ])
    func readsTaxIDsInEveryLanguage(line: String, expected: String) {
        #expect(values(.taxID, ["Shop", line]) == [expected])
    }

    @Test func readsABareMalaysianCompanyNumberUnderTheName() {
        #expect(values(.taxID, ["KEDAI BUKU MAJU SDN BHD", "(001234 567-X)", "NO. 5, JALAN MAJU"]) == ["1234567"])
        #expect(values(.taxID, ["KEDAI BUKU MAJU SDN BHD 1234567-X"]) == ["1234567"])
    }

    @Test func mendsOCRLettersInsideANumberAfterItsKeyword() {
        #expect(values(.taxID, ["Shop", "GST REG NO : 0O0l23456789"]) == ["123456789"])
        #expect(values(.taxID, ["Shop", "GST ID. N0 : 000123S56789"]) == ["123556789"])
        #expect(values(.taxID, ["Shop", "(GST NO, G00150511616)"]) == ["150511616"])
        // Without a keyword, letters stay letters: an item code is no tax number.
        #expect(values(.taxID, ["Shop", "BOX O0l23456789"]).isEmpty)
    }

    @Test func readsTheNumberOnTheLineBelowItsKeyword() {
        #expect(values(.taxID, ["Shop", "GST No. :", "000889913856"]) == ["889913856"])
    }

    @Test func skipsTheBuyersTaxID() {
        let invoice = [
            "Muster Elektro GmbH", "USt-IdNr. DE111111111", "Rechnung Nr. 4711", "Kunde", "Beispiel AG", "Kunde USt-IdNr. DE222222222"
        ]
        #expect(values(.taxID, invoice) == ["DE111111111"])
        #expect(values(.taxID, ["Acme Ltd", "Customer VAT No: GB 999 9999 99"]).isEmpty)
    }

    @Test(
        arguments: [
            ("TEL : 03-3271 9872", "332719872"), ("Tel: +60 3-3271 9872", "332719872"), ("FAX: 603-3271 9872", "332719872"),
            ("H/P: 012-659 9829", "126599829"), ("Telefon: +49 (0)30 1234567", "301234567"), ("Tel. 030 1234567", "301234567"),
            ("Tél. : 01 23 45 67 89", "123456789"), ("Teléfono: +34 912 345 678", "912345678"), ("Tel + 03-4021 0276", "340210276")
        ])
    func readsPhonesWithoutCountryCodeAndTrunkZero(line: String, expected: String) {
        #expect(values(.phone, ["Shop", line]) == [expected])
    }

    @Test func readsAPhoneByItsShapeInTheHeaderAndNotADateOrAnAmount() {
        #expect(values(.phone, ["Shop", "Pel: 03- 5542 3228"]) == ["355423228"])
        #expect(values(.phone, ["Shop", "Date: 02/03/2018 10:30", "TOTAL 1,234.50"]).isEmpty)
        #expect(values(.phone, ["Shop", "03:16PM 569337 07-02-18"]).isEmpty)
    }

    @Test func readsPhonesFromTheFirstPageOnly() {
        let second = page(["Bank: Tel. 030 9999999"])
        #expect(MerchantKey.keys(of: [page(["Shop", "Tel. 030 1234567"]), second]).filter { $0.kind == .phone }.map(\.value) == ["301234567"])
    }

    @Test func readsDomainsAndSkipsSharedMailProviders() {
        #expect(values(.domain, ["Shop", "www.Popular.com.my"]) == ["popular.com.my"])
        #expect(values(.domain, ["Shop", "www. popular. com. my"]) == ["popular.com.my"])
        #expect(values(.domain, ["Shop", "E-Mail: info@mueller-baeckerei.de"]) == ["mueller-baeckerei.de"])
        #expect(values(.domain, ["Shop", "https://www.boulangerie-paul.fr/contact"]) == ["boulangerie-paul.fr"])
        #expect(values(.domain, ["Shop", "tienda.ejemplo.es"]) == ["ejemplo.es"])
        #expect(values(.domain, ["Shop", "Email: kedaimaju@gmail.com", "kedaimaju@gnail.com", "shop@yahoo.com.my"]).isEmpty)
        // Dotted words that are no domain: a legal form, an amount.
        #expect(values(.domain, ["KEDAI SDN.BHD", "TOTAL 12.50"]).isEmpty)
    }

    @Test(
        arguments: [
            (["NO. 53, JALAN BESAR,", "45600 BATANG BERJUNTAI"], "4560053"), (["Hauptstraße 12", "10115 Berlin"], "1011512"),
            (["12 rue de la Paix", "75002 Paris"], "7500212"), (["Calle Mayor 15", "28013 Madrid"], "2801315"),
            (["No 3, Jalan Permas 10/8, 81750 Masai"], "817503108")
        ])
    func readsThePostcodeWithTheStreetNumbers(lines: [String], expected: String) {
        #expect(values(.address, ["Shop"] + lines) == [expected])
    }

    @Test func aPostcodeWithoutStreetNumbersOrAReceiptNumberIsNoAddress() {
        #expect(values(.address, ["Shop", "43300 SERI KEMBANGAN"]).isEmpty)
        #expect(values(.address, ["Shop", "Receipt No.: CS1801/26874 Date: 18/01/2018"]).isEmpty)
    }

    @Test func readsTheHeadSkippingSpecks() {
        #expect(values(.head, ["' . ~", "KEDAI BUKU MAJU", "SDN BHD", "NO. 5"]) == ["kedaibukumajusdn"])
    }

    @Test func twoReadingsOfOneReceiptGiveTheSameKeys() {
        let clean = [
            "KEDAI BUKU MAJU SDN BHD", "(001451637-M)", "NO. 53, JALAN BESAR,", "45600 BATANG BERJUNTAI", "TEL : 03-3271 9872",
            "GST No. : 000889913856", "www.kedaimaju.com.my", "TOTAL 12.50"
        ]
        let misread = [
            "KEDAI BUKU MAJU SDN BHD", "(OO1451 637-M)", "NO. 53, JALAN BESAR,", "45600 BATANG BERJUNTAY", "TEL : O3-3271 9872",
            "GST No, : 0OO8899 13856", "www. kedaimaju. com. my", "T0TAL 12.5O"
        ]
        #expect(keys(clean) == keys(misread))
        #expect(Set(keys(clean).map { String($0.prefix { $0 != ":" }) }) == ["tax-id", "phone", "domain", "address", "head"])
    }

    @Test func twoShopsGiveDifferentKeys() {
        let a = ["KEDAI BUKU MAJU SDN BHD", "NO. 53, JALAN BESAR,", "45600 BATANG BERJUNTAI", "TEL : 03-3271 9872", "GST No. : 000889913856"]
        let b = ["RESTORAN WAN SHENG", "NO. 2, JALAN TEMENGGUNG 19/9,", "43200 CHERAS, SELANGOR", "TEL: 03-9080 3208", "GST REG NO: 001335787520"]
        #expect(Set(keys(a)).isDisjoint(with: keys(b)))
    }

    @Test func emptyPagesGiveNoKeys() {
        #expect(MerchantKey.keys(of: []).isEmpty)
        #expect(keys([]).isEmpty)
        #expect(keys(["", "   "]).isEmpty)
    }

    @Test func keysAreSortedAndEachOnce() {
        let k = MerchantKey.keys(of: [page(["Shop", "TEL : 03-3271 9872", "FAX : 03-3271 9872", "GST ID : 000123456789"])])
        #expect(k == k.sorted() && Set(k).count == k.count)
    }

    @Test func descriptionReadsBack() {
        let key = MerchantKey(.taxID, "DE123456789")
        #expect(key.description == "tax-id:DE123456789" && MerchantKey(key.description) == key && MerchantKey("nokind:1") == nil)
    }

    @Test func theParserReadsTheSameSellerTaxIDs() {
        let e = ReceiptParser(today: today).parse(pages: [page(["Tienda Sol S.L.", "NIF/CIF B12345678", "TOTAL 12,50"])], language: nil)
        #expect(e.sellerTaxIDs.first?.value == "B12345678")
    }
}
