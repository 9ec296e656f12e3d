import ShoeboxCore
import ShoeboxEInvoice
import ShoeboxJudgement
import Testing

@Suite struct UBLReaderTests {
    @Test func invoiceHeaderAndParties() throws {
        let inv = try #require(readInvoice(InvoiceDocuments.ublInvoice))
        #expect(inv.syntax == .ubl)
        #expect(inv.profile == "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0")
        #expect(inv.number == "UBL-4711" && inv.typeCode == "380")
        #expect(inv.issueDate == day("2024-06-03") && inv.dueDate == day("2024-07-03") && inv.deliveryDate == day("2024-05-31"))
        #expect(inv.currency?.code == "EUR")
        // The legal name (RegistrationName) over the trading name (PartyName).
        #expect(inv.seller.name == "Muster Software GmbH")
        #expect(inv.seller.vatID == "DE123456789" && inv.seller.taxNumber == "12/345/67890")
        #expect(inv.seller.addressLines == ["Musterweg 5"] && inv.seller.postcode == "80331")
        #expect(inv.seller.city == "München" && inv.seller.country == "DE")
        #expect(inv.buyer.name == "Stadtverwaltung Beispiel" && inv.buyer.vatID == "DE999999999" && inv.buyer.taxNumber == nil)
        #expect(inv.paymentTerms == ["Zahlbar bis 03.07.2024 ohne Abzug"])
        #expect(inv.paymentMeans.first?.code == "58" && inv.payeeIBAN == "DE02120300000000202051")
        #expect(inv.problems().isEmpty, "\(inv.problems())")
    }

    @Test func invoiceLinesTaxesAndTotals() throws {
        let inv = try #require(readInvoice(InvoiceDocuments.ublInvoice))
        #expect(inv.lines.map(\.id) == ["1", "2"])
        #expect(inv.lines.map(\.name) == ["Beratung", "Handbuch"])
        #expect(inv.lines.map(\.quantity) == ["8", "3"] && inv.lines.map(\.unitCode) == ["HUR", "C62"])
        #expect(inv.lines.map(\.net?.decimalString) == ["1000.00", "281.43"])
        #expect(inv.lines.map(\.unitPrice) == ["125.00", "93.81"])
        #expect(inv.lines.map(\.taxCategory) == ["S", "S"] && inv.lines.map(\.taxRate) == ["19", "7"])
        #expect(inv.taxes.map(\.rate) == ["19", "7"])
        #expect(inv.taxes.map(\.basis?.decimalString) == ["1000.00", "271.43"])
        #expect(inv.taxes.map(\.amount?.decimalString) == ["190.00", "19.00"])
        let t = inv.totals
        #expect(t.lineTotal?.decimalString == "1281.43" && t.allowances?.decimalString == "10.00" && t.charges?.decimalString == "0.00")
        #expect(t.taxBasis?.decimalString == "1271.43" && t.tax?.decimalString == "209.00" && t.grand?.decimalString == "1480.43")
        #expect(t.prepaid?.decimalString == "480.00" && t.rounding?.decimalString == "-0.43" && t.due?.decimalString == "1000.00")
    }

    @Test func creditNote() throws {
        let inv = try #require(readInvoice(InvoiceDocuments.ublCreditNote))
        #expect(inv.syntax == .ubl && inv.typeCode == "381" && inv.isCredit)
        #expect(inv.number == "CN-12" && inv.issueDate == day("2024-02-29"))
        #expect(inv.dueDate == day("2024-03-15"))
        #expect(inv.currency?.code == "CHF")
        #expect(inv.seller.name == "Alpen Handel AG" && inv.seller.vatID == "CHE-123.456.789 MWST")
        #expect(inv.buyer.name == "Kunde GmbH")
        #expect(inv.lines.map(\.quantity) == ["4", "1"] && inv.lines.map(\.unitCode) == ["C62", "HUR"])
        #expect(inv.lines.map(\.net?.decimalString) == ["100.00", "50.00"] && inv.lines[0].unitPrice == "25.0000")
        #expect(inv.taxes.map(\.category) == ["S", "E"] && inv.taxes.map(\.rate) == ["8.1", "0"])
        #expect(inv.taxes[1].exemptionReason == "Exempt per Art. 21 MWSTG")
        // The tax restated in the tax currency (EUR 8.45) is not the invoice's tax.
        #expect(inv.totals.tax?.decimalString == "8.10" && inv.totals.tax?.currency.code == "CHF")
        #expect(inv.totals.grand?.decimalString == "158.10" && inv.totals.due?.decimalString == "158.10")
        #expect(inv.payeeIBAN == "CH9300762011623852957" && inv.paymentMethod == "credit transfer")
        #expect(inv.problems().isEmpty, "\(inv.problems())")
    }

    @Test func creditNoteWithoutTypeCodeIsStillACredit() throws {
        let text = InvoiceDocuments.ublCreditNote.replacingOccurrences(of: "<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>", with: "")
        let inv = try #require(readInvoice(text))
        #expect(inv.isCredit)
    }

    @Test func isInvoiceRecognisesEveryRoot() {
        for text in [
            InvoiceDocuments.cii, InvoiceDocuments.minimum, InvoiceDocuments.zugferd1, InvoiceDocuments.ublInvoice, InvoiceDocuments.ublCreditNote
        ] {
            #expect(EInvoiceReader.isInvoice(Array(text.utf8)))
        }
        #expect(!EInvoiceReader.isInvoice(Array("<html><body>no</body></html>".utf8)))
        #expect(!EInvoiceReader.isInvoice([]))
        #expect(!EInvoiceReader.isInvoice(Array("%PDF-1.7".utf8)))
        // The right local name in another namespace is no invoice.
        #expect(!EInvoiceReader.isInvoice(Array("<Invoice xmlns=\"urn:example:invoice\"><ID>1</ID></Invoice>".utf8)))
    }
}
