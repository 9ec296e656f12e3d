import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement
@testable import ShoeboxParsing

/// The merchant memory: which keys name a shop (alone or together), shared keys and conflicting corrections, and how
/// `RecordMerger.remember` weighs what it recalls against what the page says.
struct MerchantMemoryTests {
    let parser = ReceiptParser(today: today)
    let source = SourceFile(path: "/x/a.jpg", relativePath: "a.jpg", folder: "", kind: .jpeg, sha256: "00", size: 1)
    let merger = RecordMerger(acceptThreshold: 0.6, requiredFields: [.merchant, .date, .total, .currency], acceptPrecision: 0)

    static let tax = MerchantKey(.taxID, "001234567890")
    static let phone = MerchantKey(.phone, "62827311")
    static let address = MerchantKey(.address, "75000MELAKA")

    static func seen(
        _ key: MerchantKey, _ name: String, source: String, at: String = "2026-11-01T10:00:00Z", currency: String? = "MYR", category: String? = nil
    ) -> MerchantMemory.Sighting {
        MerchantMemory.Sighting(key: key, merchant: name, category: category, currency: currency, paymentMethod: nil, source: source, at: at)
    }

    @Test func aTaxIDOrPhoneNamesAShopAloneAnAddressNeedsAnotherKey() throws {
        let memory = MerchantMemory([
            Self.seen(Self.tax, "Kedai Buku Cahaya SDN BHD", source: "a.jpg"), Self.seen(Self.phone, "Kedai Buku Cahaya SDN BHD", source: "a.jpg"),
            Self.seen(Self.address, "Kedai Buku Cahaya SDN BHD", source: "a.jpg"),
            Self.seen(MerchantKey(.head, "kedaibukucahaya"), "Kedai Buku Cahaya SDN BHD", source: "a.jpg")
        ])
        let byTax = try #require(memory.recall([Self.tax]))
        #expect(byTax.merchant == "Kedai Buku Cahaya SDN BHD" && byTax.confirmations == 1)
        #expect(byTax.evidence == "same tax ID as 1 confirmed record")
        #expect(memory.recall([Self.phone])?.merchant == "Kedai Buku Cahaya SDN BHD")
        #expect(memory.recall([Self.address]) == nil)
        let together = try #require(memory.recall([Self.address, MerchantKey(.head, "kedaibukucahaya"), MerchantKey(.domain, "elsewhere.example")]))
        #expect(together.evidence == "same address and letterhead as 1 confirmed record")
        #expect(memory.recall([MerchantKey(.head, "kedaibukucahaya")]) == nil)
        #expect(memory.recall([Self.address, Self.phone])?.evidence == "same address and phone as 1 confirmed record")
        #expect(memory.recall([MerchantKey(.taxID, "999")]) == nil)
        #expect(MerchantMemory().recall([Self.tax]) == nil)
    }

    @Test func aKeyConfirmedWithTwoShopsNamesNeitherAlone() throws {
        // A mall's phone: printed by two shops in it.
        let mall = MerchantKey(.phone, "60312345")
        let memory = MerchantMemory([
            Self.seen(mall, "Kedai Kasut Aman", source: "a.jpg"), Self.seen(mall, "Restoran Sri Murni", source: "b.jpg"),
            Self.seen(Self.tax, "Restoran Sri Murni", source: "b.jpg")
        ])
        let entry = try #require(memory.entries().first { $0.key == mall })
        #expect(entry.isShared && entry.shops.count == 2)
        #expect(memory.recall([mall]) == nil)
        #expect(memory.recall([mall, Self.tax])?.merchant == "Restoran Sri Murni")
    }

    @Test func conflictingCorrectionsOfOneShopKeepTheLatestAndShowTheOther() throws {
        let memory = MerchantMemory([
            Self.seen(Self.tax, "SANYU STATIONERY", source: "a.jpg", at: "2026-11-01T10:00:00Z"),
            Self.seen(Self.tax, "SANYU STATIONERY SHOP", source: "b.jpg", at: "2026-11-02T10:00:00Z")
        ])
        let entry = try #require(memory.entries().first)
        #expect(!entry.isShared)
        #expect(entry.shops[0].name == "SANYU STATIONERY SHOP" && entry.shops[0].names == ["SANYU STATIONERY SHOP", "SANYU STATIONERY"])
        #expect(memory.recall([Self.tax])?.merchant == "SANYU STATIONERY SHOP")
        #expect(memory.recall([Self.tax])?.confirmations == 2)
    }

    @Test func namesOfOneShopAreTheSameLettersOrAnOCRVariantNotAnotherShop() {
        #expect(MerchantMemory.sameShop("S.H.H. Motor (Sungai Rengit) Sdn. Bhd.", "SHH MOTOR SUNGAI RENGIT SDN BHD"))
        #expect(MerchantMemory.sameShop("SANYO STAT1ONERY SHOP", "SANYU STATIONERY SHOP"))
        #expect(MerchantMemory.sameShop("Gardenia Bakeries", "GARDENIA BAKERIES (KL) SDN BHD"))
        #expect(!MerchantMemory.sameShop("Restoran Sri Murni", "Kedai Kasut Aman"))
        #expect(!MerchantMemory.sameShop("", "Kedai Kasut Aman"))
    }

    @Test func theUsualCurrencyAndCategoryAreOnlyThoseAlwaysSettledOn() throws {
        let memory = MerchantMemory([
            Self.seen(Self.tax, "Kedai A", source: "a.jpg", category: "office"), Self.seen(Self.tax, "Kedai A", source: "b.jpg", category: "office"),
            Self.seen(Self.tax, "Kedai A", source: "c.jpg", currency: "SGD", category: "office")
        ])
        let r = try #require(memory.recall([Self.tax]))
        #expect(r.category == "office" && r.currency == nil && r.confirmations == 3)
    }

    @Test func keysReadBackFromTheirText() {
        #expect(MerchantKey("tax-id:001234567890") == Self.tax)
        #expect(MerchantKey("phone:") == nil && MerchantKey("fax:123") == nil && MerchantKey("no colon") == nil)
        #expect(Self.tax.description == "tax-id:001234567890")
    }

    // MARK: remember

    func pageRecord(_ lines: [String]) -> DocumentRecord {
        merger.merge(
            parser.parse(pages: [page(lines)], language: "msa"), source: source, language: LanguageGuess(language: "msa", confidence: 0.9), pages: 1)
    }

    static func recall(_ name: String, currency: String? = "MYR", confirmations: Int = 3) -> MerchantMemory.Recall {
        MerchantMemory.Recall(merchant: name, keys: [tax], confirmations: confirmations, currency: currency, category: "books", paymentMethod: nil)
    }

    let receipt = [
        "SANYU STATIONERY SHOP", "NO. 31G&33G, JALAN SETIA INDAH", "GST ID NO: 001531760640", "Date: 19/10/2017", "PEN 2.50", "TOTAL RM 2.50"
    ]

    @Test func thePagesNameSpelledAsConfirmedRisesAndIsKept() throws {
        let page = pageRecord(receipt)
        let r = merger.remember(Self.recall("Sanyu Stationery Shop"), in: page)
        #expect(r.merchant == "Sanyu Stationery Shop")
        #expect(r.evidence[.merchant]?.confirmedBy.contains(.memory) == true)
        #expect((r.confidence[.merchant] ?? 0) > (page.confidence[.merchant] ?? 1))
        #expect(r.category == "books" && r.evidence[.category]?.source == .memory)
    }

    @Test func anOCRVariantTakesTheConfirmedNameAndKeepsTheReadingBesideIt() throws {
        var lines = receipt
        lines[0] = "SANYO STATIONERY SHOP"
        let r = merger.remember(Self.recall("SANYU STATIONERY SHOP"), in: pageRecord(lines))
        #expect(r.merchant == "SANYU STATIONERY SHOP")
        #expect(r.evidence[.merchant]?.source == .memory)
        #expect(r.evidence[.merchant]?.text?.contains("same tax ID as 3 confirmed records; the page reads “SANYO STATIONERY SHOP”") == true)
        #expect(r.alternates[.merchant]?.first?.value == "SANYO STATIONERY SHOP")
        #expect(!r.reasons.contains(.memoryDisagrees(.merchant)))
    }

    @Test func aNameThePagePrintsClearlyAndBothReadersReadKeepsItsSpelling() throws {
        // An earlier record's name was confirmed without the "(M)": the page's clear print stands, confirmed.
        var lines = receipt
        lines[0] = "MR. D.I.Y. (M) SDN BHD"
        var page = pageRecord(lines)
        page.evidence[.merchant]?.confirmedBy.append(.secondReader)
        try #require((page.trust[.merchant]?.ruleConfidence ?? 0) >= 0.6)
        let r = merger.remember(Self.recall("MR. D.I.Y. SDN BHD"), in: page)
        #expect(r.merchant == "MR. D.I.Y. (M) SDN BHD" && r.evidence[.merchant]?.source == .ocr)
        #expect(r.evidence[.merchant]?.confirmedBy.contains(.memory) == true)
        #expect(r.alternates[.merchant]?.first?.value == "MR. D.I.Y. SDN BHD" && r.alternates[.merchant]?.first?.source == .memory)
        // Read by one reader only, the same line gives way to the confirmed name.
        page.evidence[.merchant]?.confirmedBy = []
        #expect(merger.remember(Self.recall("MR. D.I.Y. SDN BHD"), in: page).merchant == "MR. D.I.Y. SDN BHD")
    }

    @Test func anotherNameAltogetherGoesToReviewShowingBoth() throws {
        var lines = receipt
        lines[0] = "POPULAR BOOK CO"
        let page = pageRecord(lines)
        let r = merger.remember(Self.recall("SANYU STATIONERY SHOP"), in: page)
        #expect(r.status == .review && r.reasons.contains(.memoryDisagrees(.merchant)))
        #expect(r.merchant == "SANYU STATIONERY SHOP" && r.alternates[.merchant]?.first?.value == "POPULAR BOOK CO")
        #expect(ReviewReason(code: "merchant-memory-disagrees") == .memoryDisagrees(.merchant))
    }

    @Test func anInferredCurrencyTheShopsRecordsConfirmIsNoLongerAReason() throws {
        // One kind of country hint (a place): the currency is a guess (a tax number beside it would place the page).
        let lines = ["KEDAI BUKU CAHAYA", "75000 Melaka", "Tarikh: 19/10/2026", "PEN 2.50", "JUMLAH 2.50"]
        let page = pageRecord(lines)
        #expect(page.reasons.contains(.currencyInferred))
        let r = merger.remember(Self.recall("Kedai Buku Cahaya", currency: page.currency?.code), in: page)
        #expect(!r.reasons.contains(.currencyInferred))
        #expect(r.evidence[.currency]?.confirmedBy.contains(.memory) == true)
        // The shop's records were in another currency: the country's guess gives way, the guess stays beside it.
        let other = merger.remember(Self.recall("Kedai Buku Cahaya", currency: "SGD"), in: page)
        #expect(other.currency?.code == "SGD" && other.total?.currency.code == "SGD" && other.total?.decimalString == "2.50")
        #expect(!other.reasons.contains(.currencyInferred) && other.evidence[.currency]?.source == .memory)
    }

    @Test func aPrintedCurrencyTheMemoryContradictsStaysAndAPersonLooks() throws {
        let r = merger.remember(Self.recall("Sanyu Stationery Shop", currency: "SGD"), in: pageRecord(receipt))
        #expect(r.currency?.code == "MYR" && r.reasons.contains(.memoryDisagrees(.currency)) && r.status == .review)
        #expect(r.alternates[.currency]?.first?.value == "SGD")
    }

    @Test func aMissingNameIsFilledAndTheRecordRoutedAgain() throws {
        var page = pageRecord(receipt)
        page.merchant = nil
        page.evidence[.merchant] = nil
        page.confidence[.merchant] = nil
        page.trust[.merchant] = nil
        page.reasons = [.missing(.merchant)]
        page.status = .review
        let r = merger.remember(Self.recall("Sanyu Stationery Shop"), in: page)
        #expect(r.merchant == "Sanyu Stationery Shop" && r.evidence[.merchant]?.source == .memory)
        #expect(!r.reasons.contains(.missing(.merchant)))
        #expect(r.status == (r.reasons.isEmpty ? .accepted : .review))
        // Nothing recalled: the record as the page gave it.
        #expect(merger.remember(nil, in: page) == page)
    }

    @Test func aSidecarsNameIsAPersonsWordAndTheMemoryStaysOut() throws {
        var page = pageRecord(receipt)
        page.merchant = "My Own Name"
        page.evidence[.merchant] = FieldEvidence(source: .sidecar)
        let r = merger.remember(Self.recall("SANYU STATIONERY SHOP"), in: page)
        #expect(r.merchant == "My Own Name" && r.evidence[.merchant]?.source == .sidecar)
        #expect(!r.reasons.contains(.memoryDisagrees(.merchant)))
    }
}
