import ShoeboxCore
import ShoeboxEInvoice
import ShoeboxJudgement
import Testing

/// Reads `text` as UTF-8 bytes; records an issue and returns nil when the reader refuses it.
func readInvoice(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> EInvoice? {
    switch EInvoiceReader.read(Array(text.utf8)) {
    case .success(let invoice): return invoice
    case .failure(let failure):
        Issue.record("refused: \(failure)", sourceLocation: sourceLocation)
        return nil
    }
}

func day(_ iso: String) -> CalendarDay? { CalendarDay(iso: iso) }

@Suite struct EInvoiceReaderTests {
    @Test func ciiHeaderFieldsAndParties() throws {
        let inv = try #require(readInvoice(InvoiceDocuments.cii))
        #expect(inv.syntax == .cii)
        #expect(inv.profile == "urn:cen.eu:en16931:2017")
        #expect(inv.number == "RE-2024-0815")
        #expect(inv.typeCode == "380" && !inv.isCredit)
        #expect(inv.issueDate == day("2024-11-15"))
        #expect(inv.deliveryDate == day("2024-11-14"))
        #expect(inv.dueDate == day("2024-12-15"))
        #expect(inv.paymentTerms == ["Zahlbar innerhalb 30 Tagen netto.", "2 % Skonto bis 25.11.2024"])
        #expect(inv.currency?.code == "EUR")
        #expect(inv.seller.name == "Handwerker GmbH")
        #expect(inv.seller.vatID == "DE123456789")
        #expect(inv.seller.taxNumber == "201/113/40209")
        #expect(inv.seller.addressLines == ["Hauptstraße 1", "Hinterhaus"])
        #expect(inv.seller.postcode == "10115" && inv.seller.city == "Berlin" && inv.seller.country == "DE")
        #expect(inv.buyer.name == "Kunden AG Mitte" && inv.buyer.vatID == "DE987654321" && inv.buyer.taxNumber == nil)
        #expect(inv.buyer.postcode == "69876" && inv.buyer.city == "Frankfurt")
        #expect(inv.readingProblems.isEmpty)
        #expect(inv.problems().isEmpty, "\(inv.problems())")
    }

    @Test func ciiLinesTaxesTotalsAndPayeeAccount() throws {
        let inv = try #require(readInvoice(InvoiceDocuments.cii))
        #expect(inv.lines.map(\.id) == ["1", "1.1", "2"])
        #expect(inv.lines.map(\.parentID) == [nil, "1", nil])
        #expect(inv.lines.map(\.name) == ["Kaffeemaschine & Zubehör", "Mahlwerk", "Fachbuch"])
        #expect(inv.lines.map(\.net?.decimalString) == ["100.00", "60.00", "20.00"])
        #expect(inv.lines[0].quantity == "2.0000" && inv.lines[0].unitCode == "H87" && inv.lines[0].unitPrice == "50.0000")
        #expect(inv.lines.map(\.taxCategory) == ["S", nil, "Z"])
        #expect(inv.lines.map(\.taxRate) == ["19", nil, "0"])
        // Only the header's ApplicableTradeTax rows, not the lines' of the same name.
        #expect(inv.taxes.map(\.category) == ["S", "Z"])
        #expect(inv.taxes.map(\.rate) == ["19", "0"])
        #expect(inv.taxes.map(\.basis?.decimalString) == ["105.00", "20.00"])
        #expect(inv.taxes.map(\.amount?.decimalString) == ["19.95", "0.00"])
        #expect(inv.taxes.map(\.exemptionReason) == [nil, "Bücher zum Nullsatz"])
        let t = inv.totals
        #expect(t.lineTotal?.decimalString == "120.00" && t.charges?.decimalString == "10.00" && t.allowances?.decimalString == "5.00")
        #expect(t.taxBasis?.decimalString == "125.00" && t.grand?.decimalString == "144.95")
        // Two TaxTotalAmount: the one in the invoice currency (EUR), not the tax currency's (USD).
        #expect(t.tax?.decimalString == "19.95" && t.tax?.currency.code == "EUR")
        #expect(t.prepaid?.decimalString == "44.95" && t.rounding?.decimalString == "0.00" && t.due?.decimalString == "100.00")
        // The debtor's account (FRDEBIT) comes first in the XML; the payee's is taken, spaces removed.
        #expect(inv.paymentMeans.count == 1)
        #expect(inv.paymentMeans.first?.code == "58" && inv.payeeIBAN == "DE77370700600321987000")
        #expect(inv.paymentMethod == "credit transfer")
    }

    @Test func minimumProfileWithBOMAndCommentBeforeTheRoot() throws {
        #expect(Array(InvoiceDocuments.minimum.utf8).starts(with: [0xEF, 0xBB, 0xBF]))
        let inv = try #require(readInvoice(InvoiceDocuments.minimum))
        #expect(inv.profile == "urn:factur-x.eu:1p0:minimum")
        #expect(inv.number == "M-1" && inv.issueDate == day("2024-03-01"))
        #expect(inv.seller.name == "Kiosk am Eck" && inv.seller.vatID == "DE111222333" && inv.seller.country == "DE")
        #expect(inv.buyer.name == "Büro Schmidt")
        #expect(inv.lines.isEmpty && inv.taxes.isEmpty && inv.paymentMeans.isEmpty)
        #expect(inv.totals.taxBasis?.decimalString == "100.00" && inv.totals.tax?.decimalString == "19.00")
        #expect(inv.totals.grand?.decimalString == "119.00" && inv.totals.due?.decimalString == "119.00")
        #expect(inv.totals.lineTotal == nil)
        #expect(inv.problems().isEmpty, "\(inv.problems())")
    }

    @Test func basicWLProfileWithoutLines() throws {
        let inv = try #require(readInvoice(InvoiceDocuments.basicWL))
        #expect(inv.profile == "urn:factur-x.eu:1p0:basicwl")
        #expect(inv.typeCode == "381" && inv.isCredit)
        // A billing month (format 610) names no day: skipped without a problem.
        #expect(inv.deliveryDate == nil && inv.readingProblems.isEmpty)
        #expect(inv.taxes.count == 1 && inv.taxes[0].rate == "5.5" && inv.taxes[0].amount?.decimalString == "11.00")
        // Values as written: the reader never negates a credit note.
        #expect(inv.totals.grand?.decimalString == "211.00")
        #expect(inv.paymentMeans.first?.iban == "12345-678")
        #expect(inv.problems().isEmpty, "\(inv.problems())")
    }

    @Test func zugferd1() throws {
        let inv = try #require(readInvoice(InvoiceDocuments.zugferd1))
        #expect(inv.syntax == .zugferd1)
        #expect(inv.profile == "urn:ferd:CrossIndustryDocument:invoice:1p0:comfort")
        #expect(inv.number == "2014-03" && inv.typeCode == "380")
        #expect(inv.issueDate == day("2014-07-11") && inv.deliveryDate == day("2014-07-10") && inv.dueDate == day("2014-08-10"))
        #expect(inv.seller.name == "Kraxi GmbH" && inv.seller.vatID == "DE123456789" && inv.seller.taxNumber == "123/456/7890")
        #expect(inv.seller.addressLines == ["Flugzeugallee 17"] && inv.seller.city == "Papierfeld")
        #expect(inv.buyer.name == "Papierflieger-Vertriebs-GmbH")
        #expect(inv.currency?.code == "EUR" && inv.paymentTerms == ["Zahlbar innerhalb von 30 Tagen netto"])
        #expect(inv.lines.map(\.net?.decimalString) == ["40.00", "805.00"])
        #expect(inv.lines[0].unitPrice == "20.0000" && inv.lines[0].quantity == "2" && inv.lines[0].taxRate == "19")
        #expect(inv.lines.map(\.name) == ["Superdrachen", "Turbo Flyer"])
        #expect(inv.taxes.count == 1 && inv.taxes[0].rate == "19" && inv.taxes[0].category == "S")
        #expect(inv.taxes[0].basis?.decimalString == "845.00" && inv.taxes[0].amount?.decimalString == "160.55")
        #expect(inv.totals.charges?.decimalString == "0.00" && inv.totals.taxBasis?.decimalString == "845.00")
        #expect(inv.totals.tax?.decimalString == "160.55" && inv.totals.grand?.decimalString == "1005.55")
        #expect(inv.totals.due?.decimalString == "1005.55")
        #expect(inv.paymentMeans.first?.code == "31" && inv.payeeIBAN == "DE08700901001234567890")
        #expect(inv.problems().isEmpty, "\(inv.problems())")
    }

    /// BASIC, EXTENDED and XRechnung CII share EN 16931's paths; only the guideline differs.
    @Test(arguments: [
        "urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic",
        "urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended",
        "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0"
    ])
    func everyCIIProfileReadsTheSame(profile: String) throws {
        let text = InvoiceDocuments.cii.replacingOccurrences(of: ">urn:cen.eu:en16931:2017<", with: ">\(profile)<")
        let inv = try #require(readInvoice(text))
        #expect(inv.profile == profile)
        #expect(inv.number == "RE-2024-0815" && inv.totals.due?.decimalString == "100.00" && inv.taxes.count == 2)
        #expect(inv.problems().isEmpty)
    }

    @Test func anAmountWithTooManyDecimalsIsLeftOutAndNamed() throws {
        let text = InvoiceDocuments.cii.replacingOccurrences(
            of: "<ram:LineTotalAmount>20.00</ram:LineTotalAmount>", with: "<ram:LineTotalAmount>20.005</ram:LineTotalAmount>")
        let inv = try #require(readInvoice(text))
        #expect(inv.lines[2].net == nil)
        #expect(inv.readingProblems.count == 1)
        let sentence = try #require(inv.readingProblems.first)
        #expect(sentence.contains("LineTotalAmount") && sentence.contains("\"20.005\"") && sentence.contains("line 2"))
        #expect(inv.problems().first?.rule == "readable")
    }

    @Test func aDayThatDoesNotExistIsAReadingProblem() throws {
        let text = InvoiceDocuments.cii.replacingOccurrences(of: ">20241115<", with: ">20240231<")
        let inv = try #require(readInvoice(text))
        #expect(inv.issueDate == nil)
        #expect(inv.readingProblems.count == 1 && inv.readingProblems[0].contains("20240231"))
    }

    @Test func elementsInAnotherNamespaceAreNotTaken() throws {
        let text = InvoiceDocuments.cii.replacingOccurrences(
            of: "<ram:ID> RE-2024-0815 </ram:ID>", with: "<x:ID xmlns:x=\"urn:example:other\">FAKE</x:ID><ram:ID>RE-1</ram:ID>")
        let inv = try #require(readInvoice(text))
        #expect(inv.number == "RE-1")
    }
}
