// Writes an EInvoiceSpec as CII (D16B), UBL 2.1 or ZUGFeRD 1.0 XML, with the elements in the order
// the schemas require. Amounts come from ETotals; text is escaped by XMLText.

/// An indented XML document built element by element.
struct XMLText {
    private(set) var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    private var open: [String] = []
    /// The length of `text` just after each open start tag.
    private var openedAt: [Int] = []

    static func escape(_ s: String, quotes: Bool = false) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    private var indent: String { String(repeating: "  ", count: open.count) }

    private func tag(_ name: String, _ attributes: [(String, String)]) -> String {
        name + attributes.map { " \($0.0)=\"\(XMLText.escape($0.1, quotes: true))\"" }.joined()
    }

    mutating func start(_ name: String, _ attributes: [(String, String)] = []) {
        text += "\(indent)<\(tag(name, attributes))>\n"
        open.append(name)
        openedAt.append(text.utf8.count)
    }

    /// Closes the innermost element; one without content becomes `<name/>`.
    mutating func end() {
        let name = open.removeLast()
        if openedAt.removeLast() == text.utf8.count {
            text.removeLast(2)
            text += "/>\n"
        } else {
            text += "\(indent)</\(name)>\n"
        }
    }

    mutating func leaf(_ name: String, _ value: String, _ attributes: [(String, String)] = []) {
        text += "\(indent)<\(tag(name, attributes))>\(XMLText.escape(value))</\(name)>\n"
    }

    /// `start`, the body, `end`.
    mutating func element(_ name: String, _ attributes: [(String, String)] = [], _ body: (inout XMLText) -> Void) {
        start(name, attributes)
        body(&self)
        end()
    }

    var finished: String {
        precondition(open.isEmpty, "unclosed \(open)")
        return text
    }
}

/// Cents as an XML decimal: 123456 -> "1234.56", -5 -> "-0.05".
func xmlAmount(_ cents: Int) -> String {
    let sign = cents < 0 ? "-" : ""
    let value = cents.magnitude
    return "\(sign)\(value / 100).\(pad2(Int(value % 100)))"
}

/// A rate in basis points with two decimals: 1900 -> "19.00", 550 -> "5.50".
func xmlPercent(_ basisPoints: Int) -> String { xmlAmount(basisPoints) }

/// A rate as the canonical expected value: 1900 -> "19", 550 -> "5.5".
func trimmedPercent(_ basisPoints: Int) -> String {
    var text = xmlAmount(basisPoints)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}

/// CII format 102 date: 20260316.
private func date102(_ d: Day) -> String { "\(d.year)\(pad2(d.month))\(pad2(d.day))" }

// MARK: - CII D16B

private let ciiNamespaces: [(String, String)] = [
    ("xmlns:rsm", "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"),
    ("xmlns:qdt", "urn:un:unece:uncefact:data:standard:QualifiedDataType:100"),
    ("xmlns:ram", "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"),
    ("xmlns:udt", "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100")
]

extension XMLText {
    fileprivate mutating func ciiDate(_ name: String, _ day: Day) {
        element(name) { $0.leaf("udt:DateTimeString", date102(day), [("format", "102")]) }
    }

    /// TradePartyType: Name, DefinedTradeContact, PostalTradeAddress, URIUniversalCommunication,
    /// SpecifiedTaxRegistration.
    fileprivate mutating func ciiParty(_ name: String, _ party: EParty, profile: EProfile) {
        element(name) { x in
            x.leaf("ram:Name", party.name)
            if profile == .xrechnung, let contact = party.contact {
                x.element("ram:DefinedTradeContact") { c in
                    c.leaf("ram:PersonName", contact.name)
                    c.element("ram:TelephoneUniversalCommunication") { $0.leaf("ram:CompleteNumber", contact.phone) }
                    if let email = party.email {
                        c.element("ram:EmailURIUniversalCommunication") { $0.leaf("ram:URIID", email) }
                    }
                }
            }
            // MINIMUM gives the buyer a name only.
            if profile == .minimum && name == "ram:BuyerTradeParty" { return }
            x.element("ram:PostalTradeAddress") { a in
                if profile != .minimum {
                    a.leaf("ram:PostcodeCode", party.postcode)
                    a.leaf("ram:LineOne", party.street)
                    a.leaf("ram:CityName", party.city)
                }
                a.leaf("ram:CountryID", party.country)
            }
            if profile == .xrechnung, let email = party.email {
                x.element("ram:URIUniversalCommunication") { $0.leaf("ram:URIID", email, [("schemeID", "EM")]) }
            }
            if let fc = party.taxNumber, profile != .minimum, name == "ram:SellerTradeParty" {
                x.element("ram:SpecifiedTaxRegistration") { $0.leaf("ram:ID", fc, [("schemeID", "FC")]) }
            }
            if let vat = party.vatID, name == "ram:SellerTradeParty" || profile != .minimum {
                x.element("ram:SpecifiedTaxRegistration") { $0.leaf("ram:ID", vat, [("schemeID", "VA")]) }
            }
        }
    }

    fileprivate mutating func ciiTax(_ name: String, category: String = "S", rate: Int, amounts: (calculated: Int, basis: Int)?) {
        element(name) { t in
            if let amounts { t.leaf("ram:CalculatedAmount", xmlAmount(amounts.calculated)) }
            t.leaf("ram:TypeCode", "VAT")
            if let amounts { t.leaf("ram:BasisAmount", xmlAmount(amounts.basis)) }
            t.leaf("ram:CategoryCode", category)
            t.leaf("ram:RateApplicablePercent", xmlPercent(rate))
        }
    }
}

func ciiXML(_ spec: EInvoiceSpec) -> String {
    let totals = ETotals(spec)
    let profile = spec.profile
    var x = XMLText()
    x.element("rsm:CrossIndustryInvoice", ciiNamespaces) { x in
        x.element("rsm:ExchangedDocumentContext") { c in
            if profile == .xrechnung {
                c.element("ram:BusinessProcessSpecifiedDocumentContextParameter") {
                    $0.leaf("ram:ID", "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0")
                }
            }
            c.element("ram:GuidelineSpecifiedDocumentContextParameter") { $0.leaf("ram:ID", profile.guideline) }
        }
        x.element("rsm:ExchangedDocument") { d in
            d.leaf("ram:ID", spec.number)
            d.leaf("ram:TypeCode", String(spec.typeCode))
            d.ciiDate("ram:IssueDateTime", spec.issueDate)
        }
        x.element("rsm:SupplyChainTradeTransaction") { t in
            if profile.hasLines {
                for (index, line) in spec.lines.enumerated() {
                    t.element("ram:IncludedSupplyChainTradeLineItem") { l in
                        l.element("ram:AssociatedDocumentLineDocument") { $0.leaf("ram:LineID", String(index + 1)) }
                        l.element("ram:SpecifiedTradeProduct") { $0.leaf("ram:Name", line.name) }
                        l.element("ram:SpecifiedLineTradeAgreement") { a in
                            a.element("ram:NetPriceProductTradePrice") { $0.leaf("ram:ChargeAmount", xmlAmount(line.unitCents)) }
                        }
                        l.element("ram:SpecifiedLineTradeDelivery") {
                            $0.leaf("ram:BilledQuantity", "\(line.quantity).0000", [("unitCode", "H87")])
                        }
                        l.element("ram:SpecifiedLineTradeSettlement") { s in
                            s.ciiTax("ram:ApplicableTradeTax", rate: line.rate, amounts: nil)
                            s.element("ram:SpecifiedTradeSettlementLineMonetarySummation") {
                                $0.leaf("ram:LineTotalAmount", xmlAmount(line.amountCents))
                            }
                        }
                    }
                }
            }
            t.element("ram:ApplicableHeaderTradeAgreement") { a in
                if let reference = spec.buyerReference { a.leaf("ram:BuyerReference", reference) }
                a.ciiParty("ram:SellerTradeParty", spec.seller, profile: profile)
                a.ciiParty("ram:BuyerTradeParty", spec.buyer, profile: profile)
            }
            t.element("ram:ApplicableHeaderTradeDelivery") { d in
                if let delivery = spec.deliveryDate, profile != .minimum {
                    d.element("ram:ActualDeliverySupplyChainEvent") { $0.ciiDate("ram:OccurrenceDateTime", delivery) }
                }
            }
            t.element("ram:ApplicableHeaderTradeSettlement") { s in
                if let taxCurrency = spec.taxCurrency { s.leaf("ram:TaxCurrencyCode", taxCurrency.code) }
                s.leaf("ram:InvoiceCurrencyCode", spec.currency)
                if profile.hasBreakdown, let iban = spec.payeeIBAN {
                    s.element("ram:SpecifiedTradeSettlementPaymentMeans") { m in
                        m.leaf("ram:TypeCode", "58")
                        m.element("ram:PayeePartyCreditorFinancialAccount") { $0.leaf("ram:IBANID", iban) }
                    }
                }
                if profile.hasBreakdown {
                    for row in totals.rows {
                        s.ciiTax("ram:ApplicableTradeTax", rate: row.rate, amounts: (row.taxCents, row.basisCents))
                    }
                    for adjustment in spec.adjustments {
                        s.element("ram:SpecifiedTradeAllowanceCharge") { c in
                            c.element("ram:ChargeIndicator") { $0.leaf("udt:Indicator", adjustment.isCharge ? "true" : "false") }
                            c.leaf("ram:ActualAmount", xmlAmount(adjustment.cents))
                            c.leaf("ram:Reason", adjustment.reason)
                            c.ciiTax("ram:CategoryTradeTax", rate: adjustment.rate, amounts: nil)
                        }
                    }
                    if spec.paymentTerms != nil || spec.dueDate != nil {
                        s.element("ram:SpecifiedTradePaymentTerms") { p in
                            if let terms = spec.paymentTerms { p.leaf("ram:Description", terms) }
                            if let due = spec.dueDate { p.ciiDate("ram:DueDateDateTime", due) }
                        }
                    }
                }
                s.element("ram:SpecifiedTradeSettlementHeaderMonetarySummation") { m in
                    if profile != .minimum {
                        m.leaf("ram:LineTotalAmount", xmlAmount(totals.lineTotal))
                        if totals.charges > 0 { m.leaf("ram:ChargeTotalAmount", xmlAmount(totals.charges)) }
                        if totals.allowances > 0 { m.leaf("ram:AllowanceTotalAmount", xmlAmount(totals.allowances)) }
                    }
                    m.leaf("ram:TaxBasisTotalAmount", xmlAmount(totals.net))
                    m.leaf("ram:TaxTotalAmount", xmlAmount(totals.tax), [("currencyID", spec.currency)])
                    if let taxCurrency = spec.taxCurrency, let converted = totals.taxInTaxCurrency {
                        m.leaf("ram:TaxTotalAmount", xmlAmount(converted), [("currencyID", taxCurrency.code)])
                    }
                    m.leaf("ram:GrandTotalAmount", xmlAmount(totals.gross + spec.grossError))
                    if totals.prepaid != 0 { m.leaf("ram:TotalPrepaidAmount", xmlAmount(totals.prepaid)) }
                    m.leaf("ram:DuePayableAmount", xmlAmount(totals.due + spec.grossError))
                }
                if let preceding = spec.precedingInvoice, profile != .minimum {
                    s.element("ram:InvoiceReferencedDocument") { $0.leaf("ram:IssuerAssignedID", preceding) }
                }
            }
        }
    }
    return x.finished
}

// MARK: - UBL 2.1

private let cac = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
private let cbc = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"

extension XMLText {
    /// PartyType: EndpointID, PostalAddress, PartyTaxScheme, PartyLegalEntity, Contact.
    fileprivate mutating func ublParty(_ name: String, _ party: EParty) {
        element(name) { p in
            p.element("cac:Party") { x in
                if let email = party.email { x.leaf("cbc:EndpointID", email, [("schemeID", "EM")]) }
                x.element("cac:PostalAddress") { a in
                    a.leaf("cbc:StreetName", party.street)
                    a.leaf("cbc:CityName", party.city)
                    a.leaf("cbc:PostalZone", party.postcode)
                    a.element("cac:Country") { $0.leaf("cbc:IdentificationCode", party.country) }
                }
                if let vat = party.vatID {
                    x.element("cac:PartyTaxScheme") { s in
                        s.leaf("cbc:CompanyID", vat)
                        s.element("cac:TaxScheme") { $0.leaf("cbc:ID", "VAT") }
                    }
                }
                if let fc = party.taxNumber, name == "cac:AccountingSupplierParty" {
                    x.element("cac:PartyTaxScheme") { s in
                        s.leaf("cbc:CompanyID", fc)
                        s.element("cac:TaxScheme") { $0.leaf("cbc:ID", "FC") }
                    }
                }
                x.element("cac:PartyLegalEntity") { $0.leaf("cbc:RegistrationName", party.name) }
                if let contact = party.contact {
                    x.element("cac:Contact") { c in
                        c.leaf("cbc:Name", contact.name)
                        c.leaf("cbc:Telephone", contact.phone)
                        if let email = party.email { c.leaf("cbc:ElectronicMail", email) }
                    }
                }
            }
        }
    }

    fileprivate mutating func ublCategory(_ name: String, rate: Int) {
        element(name) { c in
            c.leaf("cbc:ID", "S")
            c.leaf("cbc:Percent", xmlPercent(rate))
            c.element("cac:TaxScheme") { $0.leaf("cbc:ID", "VAT") }
        }
    }
}

func ublXML(_ spec: EInvoiceSpec) -> String {
    precondition(spec.adjustments.isEmpty && spec.taxCurrency == nil && spec.profile.hasLines, "\(spec.id): not written in UBL")
    let totals = ETotals(spec)
    let root = spec.isCredit ? "CreditNote" : "Invoice"
    let money = [("currencyID", spec.currency)]
    var x = XMLText()
    let namespaces = [
        ("xmlns", "urn:oasis:names:specification:ubl:schema:xsd:\(root)-2"), ("xmlns:cac", cac), ("xmlns:cbc", cbc)
    ]
    x.element(root, namespaces) { x in
        x.leaf("cbc:CustomizationID", spec.profile.guideline)
        x.leaf("cbc:ProfileID", "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0")
        x.leaf("cbc:ID", spec.number)
        x.leaf("cbc:IssueDate", spec.issueDate.iso)
        if let due = spec.dueDate, !spec.isCredit { x.leaf("cbc:DueDate", due.iso) }
        x.leaf(spec.isCredit ? "cbc:CreditNoteTypeCode" : "cbc:InvoiceTypeCode", String(spec.typeCode))
        x.leaf("cbc:DocumentCurrencyCode", spec.currency)
        if let reference = spec.buyerReference { x.leaf("cbc:BuyerReference", reference) }
        if let preceding = spec.precedingInvoice {
            x.element("cac:BillingReference") { b in
                b.element("cac:InvoiceDocumentReference") { $0.leaf("cbc:ID", preceding) }
            }
        }
        x.ublParty("cac:AccountingSupplierParty", spec.seller)
        x.ublParty("cac:AccountingCustomerParty", spec.buyer)
        if let delivery = spec.deliveryDate {
            x.element("cac:Delivery") { $0.leaf("cbc:ActualDeliveryDate", delivery.iso) }
        }
        if let iban = spec.payeeIBAN {
            x.element("cac:PaymentMeans") { m in
                m.leaf("cbc:PaymentMeansCode", "58")
                if let due = spec.dueDate, spec.isCredit { m.leaf("cbc:PaymentDueDate", due.iso) }
                m.element("cac:PayeeFinancialAccount") { $0.leaf("cbc:ID", iban) }
            }
        }
        if let terms = spec.paymentTerms {
            x.element("cac:PaymentTerms") { $0.leaf("cbc:Note", terms) }
        }
        x.element("cac:TaxTotal") { t in
            t.leaf("cbc:TaxAmount", xmlAmount(totals.tax), money)
            for row in totals.rows {
                t.element("cac:TaxSubtotal") { s in
                    s.leaf("cbc:TaxableAmount", xmlAmount(row.basisCents), money)
                    s.leaf("cbc:TaxAmount", xmlAmount(row.taxCents), money)
                    s.ublCategory("cac:TaxCategory", rate: row.rate)
                }
            }
        }
        x.element("cac:LegalMonetaryTotal") { m in
            m.leaf("cbc:LineExtensionAmount", xmlAmount(totals.lineTotal), money)
            m.leaf("cbc:TaxExclusiveAmount", xmlAmount(totals.net), money)
            m.leaf("cbc:TaxInclusiveAmount", xmlAmount(totals.gross + spec.grossError), money)
            if totals.prepaid != 0 { m.leaf("cbc:PrepaidAmount", xmlAmount(totals.prepaid), money) }
            m.leaf("cbc:PayableAmount", xmlAmount(totals.due + spec.grossError), money)
        }
        for (index, line) in spec.lines.enumerated() {
            x.element(spec.isCredit ? "cac:CreditNoteLine" : "cac:InvoiceLine") { l in
                l.leaf("cbc:ID", String(index + 1))
                l.leaf(spec.isCredit ? "cbc:CreditedQuantity" : "cbc:InvoicedQuantity", String(line.quantity), [("unitCode", "H87")])
                l.leaf("cbc:LineExtensionAmount", xmlAmount(line.amountCents), money)
                l.element("cac:Item") { i in
                    i.leaf("cbc:Name", line.name)
                    i.ublCategory("cac:ClassifiedTaxCategory", rate: line.rate)
                }
                l.element("cac:Price") { $0.leaf("cbc:PriceAmount", xmlAmount(line.unitCents), money) }
            }
        }
    }
    return x.finished
}

// MARK: - ZUGFeRD 1.0

private let zugferd1Namespaces: [(String, String)] = [
    ("xmlns:rsm", "urn:ferd:CrossIndustryDocument:invoice:1p0"),
    ("xmlns:ram", "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12"),
    ("xmlns:udt", "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15")
]

func zugferd1XML(_ spec: EInvoiceSpec) -> String {
    precondition(spec.adjustments.isEmpty && spec.taxCurrency == nil, "\(spec.id): not written in ZUGFeRD 1.0")
    let totals = ETotals(spec)
    let money = [("currencyID", spec.currency)]
    var x = XMLText()
    func party(_ x: inout XMLText, _ name: String, _ p: EParty) {
        x.element(name) { x in
            x.leaf("ram:Name", p.name)
            x.element("ram:PostalTradeAddress") { a in
                a.leaf("ram:PostcodeCode", p.postcode)
                a.leaf("ram:LineOne", p.street)
                a.leaf("ram:CityName", p.city)
                a.leaf("ram:CountryID", p.country)
            }
            if let fc = p.taxNumber, name == "ram:SellerTradeParty" {
                x.element("ram:SpecifiedTaxRegistration") { $0.leaf("ram:ID", fc, [("schemeID", "FC")]) }
            }
            if let vat = p.vatID, name == "ram:SellerTradeParty" {
                x.element("ram:SpecifiedTaxRegistration") { $0.leaf("ram:ID", vat, [("schemeID", "VA")]) }
            }
        }
    }
    x.element("rsm:CrossIndustryDocument", zugferd1Namespaces) { x in
        x.element("rsm:SpecifiedExchangedDocumentContext") { c in
            c.element("ram:GuidelineSpecifiedDocumentContextParameter") { $0.leaf("ram:ID", spec.profile.guideline) }
        }
        x.element("rsm:HeaderExchangedDocument") { d in
            d.leaf("ram:ID", spec.number)
            d.leaf("ram:Name", spec.isCredit ? "GUTSCHRIFT" : "RECHNUNG")
            d.leaf("ram:TypeCode", String(spec.typeCode))
            d.element("ram:IssueDateTime") { $0.leaf("udt:DateTimeString", date102(spec.issueDate), [("format", "102")]) }
        }
        x.element("rsm:SpecifiedSupplyChainTradeTransaction") { t in
            t.element("ram:ApplicableSupplyChainTradeAgreement") { a in
                party(&a, "ram:SellerTradeParty", spec.seller)
                party(&a, "ram:BuyerTradeParty", spec.buyer)
            }
            t.element("ram:ApplicableSupplyChainTradeDelivery") { d in
                if let delivery = spec.deliveryDate {
                    d.element("ram:ActualDeliverySupplyChainEvent") { e in
                        e.element("ram:OccurrenceDateTime") {
                            $0.leaf("udt:DateTimeString", date102(delivery), [("format", "102")])
                        }
                    }
                }
            }
            t.element("ram:ApplicableSupplyChainTradeSettlement") { s in
                s.leaf("ram:PaymentReference", spec.number)
                s.leaf("ram:InvoiceCurrencyCode", spec.currency)
                if let iban = spec.payeeIBAN {
                    s.element("ram:SpecifiedTradeSettlementPaymentMeans") { m in
                        m.leaf("ram:TypeCode", "58")
                        m.element("ram:PayeePartyCreditorFinancialAccount") { $0.leaf("ram:IBANID", iban) }
                    }
                }
                for row in totals.rows {
                    s.element("ram:ApplicableTradeTax") { r in
                        r.leaf("ram:CalculatedAmount", xmlAmount(row.taxCents), money)
                        r.leaf("ram:TypeCode", "VAT")
                        r.leaf("ram:BasisAmount", xmlAmount(row.basisCents), money)
                        r.leaf("ram:ApplicablePercent", xmlPercent(row.rate))
                    }
                }
                if spec.paymentTerms != nil || spec.dueDate != nil {
                    s.element("ram:SpecifiedTradePaymentTerms") { p in
                        if let terms = spec.paymentTerms { p.leaf("ram:Description", terms) }
                        if let due = spec.dueDate {
                            p.element("ram:DueDateDateTime") { $0.leaf("udt:DateTimeString", date102(due), [("format", "102")]) }
                        }
                    }
                }
                s.element("ram:SpecifiedTradeSettlementMonetarySummation") { m in
                    m.leaf("ram:LineTotalAmount", xmlAmount(totals.lineTotal), money)
                    m.leaf("ram:ChargeTotalAmount", xmlAmount(totals.charges), money)
                    m.leaf("ram:AllowanceTotalAmount", xmlAmount(totals.allowances), money)
                    m.leaf("ram:TaxBasisTotalAmount", xmlAmount(totals.net), money)
                    m.leaf("ram:TaxTotalAmount", xmlAmount(totals.tax), money)
                    m.leaf("ram:GrandTotalAmount", xmlAmount(totals.gross + spec.grossError), money)
                    if totals.prepaid != 0 { m.leaf("ram:TotalPrepaidAmount", xmlAmount(totals.prepaid), money) }
                    m.leaf("ram:DuePayableAmount", xmlAmount(totals.due + spec.grossError), money)
                }
            }
            for (index, line) in spec.lines.enumerated() {
                t.element("ram:IncludedSupplyChainTradeLineItem") { l in
                    l.element("ram:AssociatedDocumentLineDocument") { $0.leaf("ram:LineID", String(index + 1)) }
                    l.element("ram:SpecifiedSupplyChainTradeDelivery") {
                        $0.leaf("ram:BilledQuantity", "\(line.quantity).0000", [("unitCode", "C62")])
                    }
                    l.element("ram:SpecifiedSupplyChainTradeSettlement") { s in
                        s.element("ram:SpecifiedTradeSettlementMonetarySummation") {
                            $0.leaf("ram:LineTotalAmount", xmlAmount(line.amountCents), money)
                        }
                    }
                    l.element("ram:SpecifiedTradeProduct") { $0.leaf("ram:Name", line.name) }
                }
            }
        }
    }
    return x.finished
}

/// The spec in its syntax.
func eInvoiceXML(_ spec: EInvoiceSpec) -> String {
    switch spec.syntax {
    case .cii: ciiXML(spec)
    case .ubl: ublXML(spec)
    case .zugferd1: zugferd1XML(spec)
    }
}
