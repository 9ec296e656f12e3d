import Testing

@testable import ShoeboxCore
@testable import ShoeboxParsing

/// Fines and contracts told from their titles; receipts and invoices that merely mention such words stay as they were.
struct FineContractKindTests {
    let parser = ReceiptParser(today: today)

    func kind(_ lines: String...) -> DocumentKind { parser.parse(pages: [page(lines)], language: nil).documentKind }

    @Test func finesInFiveLanguages() {
        #expect(kind("Stadt Musterstadt Ordnungsamt", "Bußgeldbescheid", "Aktenzeichen 123", "Betrag 55,00 EUR") == .fine)
        #expect(kind("Landkreis X", "Verwarnung mit Verwarnungsgeld", "Betrag 30,00 EUR") == .fine)
        #expect(kind("BOROUGH COUNCIL", "PENALTY CHARGE NOTICE", "Amount £70.00") == .fine)
        #expect(kind("Police", "Parking fine", "Amount 60.00") == .fine)
        #expect(kind("Ayuntamiento de Madrid", "Multa de tráfico", "Importe 200,00 EUR") == .fine)
        #expect(kind("SANCIÓN", "Importe 90,00 EUR") == .fine)
        #expect(kind("Avis de contravention", "Amende forfaitaire 135,00 EUR") == .fine)
        #expect(kind("POLIS DIRAJA MALAYSIA", "NOTIS SAMAN", "Kompaun RM 300.00") == .fine)
        #expect(kind("MAJLIS BANDARAYA", "Kompaun RM 50.00") == .fine)
    }

    @Test func contractsInFiveLanguages() {
        #expect(kind("Mietvertrag", "zwischen A und B", "Kündigungsfrist 3 Monate") == .contract)
        #expect(kind("Service Agreement", "The term ends on 31 December 2027.") == .contract)
        #expect(kind("Contrato de arrendamiento", "Plazo de preaviso de 1 mes") == .contract)
        #expect(kind("Contrat de location", "préavis de 2 mois") == .contract)
        #expect(kind("Perjanjian Sewa", "Notis 30 hari") == .contract)
    }

    @Test func receiptsAndInvoicesStayAsTheyWere() {
        // An invoice quoting its contract, with payment terms.
        #expect(kind("Rechnung Nr. 4711", "Vertrag Nr. 123", "Kündigungsfrist 3 Monate", "Summe 100,00 EUR") == .invoice)
        #expect(kind("ACME Ltd", "Contract No. 4711", "INVOICE", "Payment terms: 30 days", "Total 100.00") == .invoice)
        #expect(kind("Hausverwaltung Meier", "Rechnung zum Wartungsvertrag", "Laufzeit bis 31.12.2027", "Summe 100,00 EUR") == .invoice)
        #expect(kind("Fine Dining Restaurant", "Steak 30.00", "TOTAL 30.00") == .receipt)
        #expect(kind("SAMAN ENTERPRISE", "Teh 2.00", "TOTAL 2.00") == .receipt)
        #expect(kind("Agreement Café", "Latte 4.50", "TOTAL 4.50") == .receipt)
        #expect(kind("Supermercado", "Leche 1,20", "TOTAL 1,20") == .receipt)
    }

    @Test func theFunctionWorksOnPlainLines() {
        #expect(DocumentKind.fineOrContract(lines: ["BUSSGELDBESCHEID"]) == .fine)
        #expect(DocumentKind.fineOrContract(lines: ["Kassenbon", "Summe 3,00"]) == nil)
        #expect(DocumentKind(rawValue: "contract") == .contract)
        #expect(DocumentKind(rawValue: "fine") == .fine)
    }
}
