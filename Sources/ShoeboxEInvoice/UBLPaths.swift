import ShoeboxCore

/// UBL 2.1 `Invoice` and `CreditNote` paths, after the EN 16931 UBL binding (XRechnung UBL, Peppol BIS).
struct UBLPaths: InvoicePaths {
    let creditNote: Bool
    var draft = InvoiceDraft(syntax: .ubl)
    /// The `cac:TaxTotal` being read (counted from 0) and the `cac:PartyTaxScheme` being read.
    private var taxGroup = -1
    private var companyID: String?
    private var taxScheme: String?

    init(creditNote: Bool) {
        self.creditNote = creditNote
    }

    private var lineElement: String { creditNote ? "CreditNoteLine" : "InvoiceLine" }

    mutating func open(_ path: String, _ attributes: [String: String]) {
        switch path {
        case lineElement: draft.lines.append(.init())
        case "TaxTotal": taxGroup += 1
        case "TaxTotal/TaxSubtotal": draft.rows.append(.init(group: taxGroup))
        case "PaymentMeans": draft.means.append(.init())
        default: break
        }
    }

    /// A party's tax scheme ends: its CompanyID is the VAT ID under scheme "VAT", else a tax number.
    mutating func close(_ path: String) {
        guard path.hasSuffix("/Party/PartyTaxScheme"), let id = companyID else { return }
        let party: WritableKeyPath<EInvoice, EInvoice.Party>? =
            path.hasPrefix("AccountingSupplierParty/") ? \.seller : path.hasPrefix("AccountingCustomerParty/") ? \.buyer : nil
        if let party {
            if taxScheme == "VAT" { draft.invoice[keyPath: party].vatID = id } else { draft.invoice[keyPath: party].taxNumber = id }
        }
        companyID = nil
        taxScheme = nil
    }

    mutating func finish() -> EInvoice {
        // A CreditNote is a credit note whatever its code; BT-3 is mandatory, so this only fills a missing one.
        if creditNote && draft.invoice.typeCode == nil { draft.invoice.typeCode = "381" }
        return draft.finish()
    }

    mutating func leaf(_ path: String, _ attributes: [String: String], _ text: String) {
        if let rest = below(lineElement, path) {
            lineLeaf(rest, attributes, text)
        } else if let rest = below("AccountingSupplierParty/Party", path) {
            partyLeaf(\.seller, rest, text)
        } else if let rest = below("AccountingCustomerParty/Party", path) {
            partyLeaf(\.buyer, rest, text)
        } else if let rest = below("TaxTotal", path) {
            taxLeaf(rest, attributes, text)
        } else if let rest = below("LegalMonetaryTotal", path) {
            if let field = UBLPaths.totalField(rest) { draft.total(field, rest, text) }
        } else {
            documentLeaf(path, text)
        }
    }

    private mutating func documentLeaf(_ path: String, _ text: String) {
        switch path {
        case "CustomizationID": draft.invoice.profile = text
        case "ID": draft.invoice.number = text
        case "InvoiceTypeCode", "CreditNoteTypeCode": draft.invoice.typeCode = text
        case "IssueDate": draft.day(\.issueDate, draft.isoDay(text, element: "IssueDate"))
        case "DueDate": draft.day(\.dueDate, draft.isoDay(text, element: "DueDate"))
        case "PaymentMeans/PaymentDueDate": draft.day(\.dueDate, draft.isoDay(text, element: "PaymentDueDate"))
        case "Delivery/ActualDeliveryDate": draft.day(\.deliveryDate, draft.isoDay(text, element: "ActualDeliveryDate"))
        case "DocumentCurrencyCode": draft.currencyText = text
        case "PaymentTerms/Note": draft.invoice.paymentTerms.append(text)
        case "PaymentMeans/PaymentMeansCode": draft.paymentMeans { $0.code = text }
        case "PaymentMeans/PayeeFinancialAccount/ID": draft.paymentMeans { $0.iban = InvoiceDraft.account(text) }
        default: break
        }
    }

    private mutating func partyLeaf(_ party: WritableKeyPath<EInvoice, EInvoice.Party>, _ rest: String, _ text: String) {
        switch rest {
        // The legal name (BT-27) wins over the trading name, whichever comes first.
        case "PartyLegalEntity/RegistrationName": draft.invoice[keyPath: party].name = text
        case "PartyName/Name": if draft.invoice[keyPath: party].name == nil { draft.invoice[keyPath: party].name = text }
        case "PartyTaxScheme/CompanyID": companyID = text
        case "PartyTaxScheme/TaxScheme/ID": taxScheme = text
        case "PostalAddress/StreetName", "PostalAddress/AdditionalStreetName", "PostalAddress/AddressLine/Line":
            draft.invoice[keyPath: party].addressLines.append(text)
        case "PostalAddress/PostalZone": draft.invoice[keyPath: party].postcode = text
        case "PostalAddress/CityName": draft.invoice[keyPath: party].city = text
        case "PostalAddress/Country/IdentificationCode": draft.invoice[keyPath: party].country = text
        default: break
        }
    }
}

extension UBLPaths {
    fileprivate static func totalField(_ element: String) -> WritableKeyPath<EInvoice.Totals, Money?>? {
        switch element {
        case "LineExtensionAmount": \.lineTotal
        case "TaxExclusiveAmount": \.taxBasis
        case "TaxInclusiveAmount": \.grand
        case "AllowanceTotalAmount": \.allowances
        case "ChargeTotalAmount": \.charges
        case "PrepaidAmount": \.prepaid
        case "PayableRoundingAmount": \.rounding
        case "PayableAmount": \.due
        default: nil
        }
    }

    fileprivate mutating func taxLeaf(_ rest: String, _ attributes: [String: String], _ text: String) {
        switch rest {
        case "TaxAmount":
            let written = WrittenAmount(element: "TaxTotal/TaxAmount", text: text)
            draft.taxTotals.append(.init(currency: attributes["currencyID"], amount: written, group: taxGroup))
        case "TaxSubtotal/TaxableAmount": draft.row { $0.basis = WrittenAmount(element: "TaxSubtotal/TaxableAmount", text: text) }
        case "TaxSubtotal/TaxAmount": draft.row { $0.amount = WrittenAmount(element: "TaxSubtotal/TaxAmount", text: text) }
        case "TaxSubtotal/TaxCategory/ID": draft.row { $0.row.category = text }
        case "TaxSubtotal/TaxCategory/Percent": draft.row { $0.row.rate = InvoiceDraft.rate(text) }
        case "TaxSubtotal/TaxCategory/TaxExemptionReason": draft.row { $0.row.exemptionReason = text }
        default: break
        }
    }

    fileprivate mutating func lineLeaf(_ rest: String, _ attributes: [String: String], _ text: String) {
        switch rest {
        case "ID": draft.line { $0.line.id = text }
        case "InvoicedQuantity", "CreditedQuantity":
            draft.line {
                $0.line.quantity = text
                $0.line.unitCode = attributes["unitCode"]
            }
        case "LineExtensionAmount": draft.line { $0.net = WrittenAmount(element: "LineExtensionAmount", text: text) }
        case "Item/Name": draft.line { $0.line.name = text }
        case "Item/ClassifiedTaxCategory/ID": draft.line { $0.line.taxCategory = text }
        case "Item/ClassifiedTaxCategory/Percent": draft.line { $0.line.taxRate = InvoiceDraft.rate(text) }
        case "Price/PriceAmount": draft.line { $0.line.unitPrice = text }
        default: break
        }
    }
}
