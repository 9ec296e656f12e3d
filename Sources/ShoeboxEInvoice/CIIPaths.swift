import ShoeboxCore

/// What a syntax does with the elements met under the root. A path is the local names below the root joined by "/"
/// ("ExchangedDocument/ID"); an element in a namespace the syntax does not know is "?" + its local name, so it
/// matches nothing.
protocol InvoicePaths {
    mutating func open(_ path: String, _ attributes: [String: String])
    /// An element with text (trimmed, never empty).
    mutating func leaf(_ path: String, _ attributes: [String: String], _ text: String)
    mutating func close(_ path: String)
    mutating func finish() -> EInvoice
}

/// The element names that differ between CII D16B (ZUGFeRD 2.x, Factur-X, XRechnung) and ZUGFeRD 1.0.
struct CIINames {
    let context: String
    let document: String
    let agreement: String
    let delivery: String
    let settlement: String
    let lineItem: String
    let totals: String
    let rate: String
    let lineAgreement: String
    let lineDelivery: String
    let lineSettlement: String
    let lineTotals: String

    static let d16b = CIINames(
        context: "ExchangedDocumentContext", document: "ExchangedDocument",
        agreement: "SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement",
        delivery: "SupplyChainTradeTransaction/ApplicableHeaderTradeDelivery",
        settlement: "SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement",
        lineItem: "SupplyChainTradeTransaction/IncludedSupplyChainTradeLineItem",
        totals: "SpecifiedTradeSettlementHeaderMonetarySummation", rate: "RateApplicablePercent",
        lineAgreement: "SpecifiedLineTradeAgreement", lineDelivery: "SpecifiedLineTradeDelivery",
        lineSettlement: "SpecifiedLineTradeSettlement", lineTotals: "SpecifiedTradeSettlementLineMonetarySummation")

    static let zugferd1 = CIINames(
        context: "SpecifiedExchangedDocumentContext", document: "HeaderExchangedDocument",
        agreement: "SpecifiedSupplyChainTradeTransaction/ApplicableSupplyChainTradeAgreement",
        delivery: "SpecifiedSupplyChainTradeTransaction/ApplicableSupplyChainTradeDelivery",
        settlement: "SpecifiedSupplyChainTradeTransaction/ApplicableSupplyChainTradeSettlement",
        lineItem: "SpecifiedSupplyChainTradeTransaction/IncludedSupplyChainTradeLineItem",
        totals: "SpecifiedTradeSettlementMonetarySummation", rate: "ApplicablePercent",
        lineAgreement: "SpecifiedSupplyChainTradeAgreement", lineDelivery: "SpecifiedSupplyChainTradeDelivery",
        lineSettlement: "SpecifiedSupplyChainTradeSettlement", lineTotals: "SpecifiedTradeSettlementMonetarySummation")
}

/// The rest of `path` after `prefix` + "/", or nil when the path is not below it.
func below(_ prefix: String, _ path: String) -> String? {
    guard path.utf8.count > prefix.utf8.count, path.hasPrefix(prefix) else { return nil }
    let slash = path.utf8.index(path.utf8.startIndex, offsetBy: prefix.utf8.count)
    return path.utf8[slash] == UInt8(ascii: "/") ? String(path[path.utf8.index(after: slash)...]) : nil
}

/// CII paths (ZUGFeRD 2.x / Factur-X profiles MINIMUM to EXTENDED, XRechnung CII, and ZUGFeRD 1.0 with its names).
struct CIIPaths: InvoicePaths {
    let n: CIINames
    var draft: InvoiceDraft

    init(zugferd1: Bool) {
        n = zugferd1 ? .zugferd1 : .d16b
        draft = InvoiceDraft(syntax: zugferd1 ? .zugferd1 : .cii)
    }

    mutating func open(_ path: String, _ attributes: [String: String]) {
        if path == n.lineItem {
            draft.lines.append(.init())
        } else if path == n.settlement + "/ApplicableTradeTax" {
            draft.rows.append(.init())
        } else if path == n.settlement + "/SpecifiedTradeSettlementPaymentMeans" {
            draft.means.append(.init())
        }
    }

    mutating func close(_ path: String) {}

    mutating func finish() -> EInvoice { draft.finish() }

    mutating func leaf(_ path: String, _ attributes: [String: String], _ text: String) {
        if let rest = below(n.lineItem, path) {
            lineLeaf(rest, attributes, text)
        } else if let rest = below(n.settlement, path) {
            settlementLeaf(rest, attributes, text)
        } else if let rest = below(n.agreement + "/SellerTradeParty", path) {
            partyLeaf(\.seller, rest, attributes, text)
        } else if let rest = below(n.agreement + "/BuyerTradeParty", path) {
            partyLeaf(\.buyer, rest, attributes, text)
        } else if path == n.delivery + "/ActualDeliverySupplyChainEvent/OccurrenceDateTime/DateTimeString" {
            draft.day(\.deliveryDate, draft.ciiDay(text, format: attributes["format"], element: "OccurrenceDateTime"))
        } else {
            documentLeaf(path, attributes, text)
        }
    }

    private mutating func documentLeaf(_ path: String, _ attributes: [String: String], _ text: String) {
        switch path {
        case n.context + "/GuidelineSpecifiedDocumentContextParameter/ID": draft.invoice.profile = text
        case n.document + "/ID": draft.invoice.number = text
        case n.document + "/TypeCode": draft.invoice.typeCode = text
        case n.document + "/IssueDateTime/DateTimeString":
            draft.day(\.issueDate, draft.ciiDay(text, format: attributes["format"], element: "IssueDateTime"))
        default: break
        }
    }

    private mutating func partyLeaf(
        _ party: WritableKeyPath<EInvoice, EInvoice.Party>, _ rest: String, _ attributes: [String: String], _ text: String
    ) {
        switch rest {
        case "Name": draft.invoice[keyPath: party].name = text
        case "SpecifiedTaxRegistration/ID":
            switch attributes["schemeID"] {
            case "VA": draft.invoice[keyPath: party].vatID = text
            case "FC": draft.invoice[keyPath: party].taxNumber = text
            default: break
            }
        case "PostalTradeAddress/LineOne", "PostalTradeAddress/LineTwo", "PostalTradeAddress/LineThree":
            draft.invoice[keyPath: party].addressLines.append(text)
        case "PostalTradeAddress/PostcodeCode": draft.invoice[keyPath: party].postcode = text
        case "PostalTradeAddress/CityName": draft.invoice[keyPath: party].city = text
        case "PostalTradeAddress/CountryID": draft.invoice[keyPath: party].country = text
        default: break
        }
    }
}

extension CIIPaths {
    fileprivate static func totalField(_ element: String) -> WritableKeyPath<EInvoice.Totals, Money?>? {
        switch element {
        case "LineTotalAmount": \.lineTotal
        case "ChargeTotalAmount": \.charges
        case "AllowanceTotalAmount": \.allowances
        case "TaxBasisTotalAmount": \.taxBasis
        case "GrandTotalAmount": \.grand
        case "TotalPrepaidAmount": \.prepaid
        case "RoundingAmount": \.rounding
        case "DuePayableAmount": \.due
        default: nil
        }
    }

    /// Elements under the header settlement; its `ApplicableTradeTax` rows only (a line's have the same name, and an
    /// EXTENDED advance payment's `IncludedTradeTax` is not part of the breakdown).
    fileprivate mutating func settlementLeaf(_ rest: String, _ attributes: [String: String], _ text: String) {
        if let field = below(n.totals, rest) {
            if field == "TaxTotalAmount" {
                draft.taxTotals.append(.init(currency: attributes["currencyID"], amount: WrittenAmount(element: "TaxTotalAmount", text: text)))
            } else if let key = CIIPaths.totalField(field) {
                draft.total(key, field, text)
            }
            return
        }
        switch rest {
        case "InvoiceCurrencyCode": draft.currencyText = text
        case "ApplicableTradeTax/CalculatedAmount": draft.row { $0.amount = WrittenAmount(element: "CalculatedAmount", text: text) }
        case "ApplicableTradeTax/BasisAmount": draft.row { $0.basis = WrittenAmount(element: "BasisAmount", text: text) }
        case "ApplicableTradeTax/CategoryCode": draft.row { $0.row.category = text }
        case "ApplicableTradeTax/" + n.rate: draft.row { $0.row.rate = InvoiceDraft.rate(text) }
        case "ApplicableTradeTax/ExemptionReason": draft.row { $0.row.exemptionReason = text }
        case "SpecifiedTradePaymentTerms/Description": draft.invoice.paymentTerms.append(text)
        case "SpecifiedTradePaymentTerms/DueDateDateTime/DateTimeString":
            draft.day(\.dueDate, draft.ciiDay(text, format: attributes["format"], element: "DueDateDateTime"))
        case "SpecifiedTradeSettlementPaymentMeans/TypeCode": draft.paymentMeans { $0.code = text }
        case "SpecifiedTradeSettlementPaymentMeans/PayeePartyCreditorFinancialAccount/IBANID":
            draft.paymentMeans { $0.iban = InvoiceDraft.account(text) }
        case "SpecifiedTradeSettlementPaymentMeans/PayeePartyCreditorFinancialAccount/ProprietaryID":
            draft.paymentMeans { $0.proprietaryID = InvoiceDraft.account(text) }
        default: break
        }
    }

    fileprivate mutating func lineLeaf(_ rest: String, _ attributes: [String: String], _ text: String) {
        switch rest {
        case "AssociatedDocumentLineDocument/LineID": draft.line { $0.line.id = text }
        case "AssociatedDocumentLineDocument/ParentLineID": draft.line { $0.line.parentID = text }
        case "SpecifiedTradeProduct/Name": draft.line { $0.line.name = text }
        case n.lineAgreement + "/NetPriceProductTradePrice/ChargeAmount": draft.line { $0.line.unitPrice = text }
        case n.lineDelivery + "/BilledQuantity":
            draft.line {
                $0.line.quantity = text
                $0.line.unitCode = attributes["unitCode"]
            }
        case n.lineSettlement + "/ApplicableTradeTax/CategoryCode": draft.line { $0.line.taxCategory = text }
        case n.lineSettlement + "/ApplicableTradeTax/" + n.rate: draft.line { $0.line.taxRate = InvoiceDraft.rate(text) }
        case n.lineSettlement + "/" + n.lineTotals + "/LineTotalAmount":
            draft.line { $0.net = WrittenAmount(element: "LineTotalAmount", text: text) }
        default: break
        }
    }
}
