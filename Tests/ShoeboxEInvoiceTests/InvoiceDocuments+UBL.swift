extension InvoiceDocuments {
    /// ZUGFeRD 1.0 COMFORT: its own element names (HeaderExchangedDocument, ApplicableSupplyChainTradeSettlement,
    /// ApplicablePercent, SpecifiedTradeSettlementMonetarySummation), amounts with currencyID.
    static let zugferd1 = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" \
        xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" \
        xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
          <rsm:SpecifiedExchangedDocumentContext>
            <ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:ferd:CrossIndustryDocument:invoice:1p0:comfort</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
          </rsm:SpecifiedExchangedDocumentContext>
          <rsm:HeaderExchangedDocument>
            <ram:ID>2014-03</ram:ID><ram:Name>Rechnung</ram:Name><ram:TypeCode>380</ram:TypeCode>
            <ram:IssueDateTime><udt:DateTimeString format="102">20140711</udt:DateTimeString></ram:IssueDateTime>
          </rsm:HeaderExchangedDocument>
          <rsm:SpecifiedSupplyChainTradeTransaction>
            <ram:ApplicableSupplyChainTradeAgreement>
              <ram:SellerTradeParty>
                <ram:Name>Kraxi GmbH</ram:Name>
                <ram:PostalTradeAddress>
                  <ram:PostcodeCode>12345</ram:PostcodeCode><ram:LineOne>Flugzeugallee 17</ram:LineOne>
                  <ram:CityName>Papierfeld</ram:CityName><ram:CountryID>DE</ram:CountryID>
                </ram:PostalTradeAddress>
                <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration>
                <ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">123/456/7890</ram:ID></ram:SpecifiedTaxRegistration>
              </ram:SellerTradeParty>
              <ram:BuyerTradeParty><ram:Name>Papierflieger-Vertriebs-GmbH</ram:Name></ram:BuyerTradeParty>
            </ram:ApplicableSupplyChainTradeAgreement>
            <ram:ApplicableSupplyChainTradeDelivery>
              <ram:ActualDeliverySupplyChainEvent>
                <ram:OccurrenceDateTime><udt:DateTimeString format="102">20140710</udt:DateTimeString></ram:OccurrenceDateTime>
              </ram:ActualDeliverySupplyChainEvent>
            </ram:ApplicableSupplyChainTradeDelivery>
            <ram:ApplicableSupplyChainTradeSettlement>
              <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
              <ram:SpecifiedTradeSettlementPaymentMeans>
                <ram:TypeCode>31</ram:TypeCode>
                <ram:PayeePartyCreditorFinancialAccount><ram:IBANID>DE08700901001234567890</ram:IBANID></ram:PayeePartyCreditorFinancialAccount>
              </ram:SpecifiedTradeSettlementPaymentMeans>
              <ram:ApplicableTradeTax>
                <ram:CalculatedAmount currencyID="EUR">160.55</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode>
                <ram:BasisAmount currencyID="EUR">845.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode>
                <ram:ApplicablePercent>19.0</ram:ApplicablePercent>
              </ram:ApplicableTradeTax>
              <ram:SpecifiedTradePaymentTerms>
                <ram:Description>Zahlbar innerhalb von 30 Tagen netto</ram:Description>
                <ram:DueDateDateTime><udt:DateTimeString format="102">20140810</udt:DateTimeString></ram:DueDateDateTime>
              </ram:SpecifiedTradePaymentTerms>
              <ram:SpecifiedTradeSettlementMonetarySummation>
                <ram:LineTotalAmount currencyID="EUR">845.00</ram:LineTotalAmount>
                <ram:ChargeTotalAmount currencyID="EUR">0</ram:ChargeTotalAmount>
                <ram:AllowanceTotalAmount currencyID="EUR">0</ram:AllowanceTotalAmount>
                <ram:TaxBasisTotalAmount currencyID="EUR">845.00</ram:TaxBasisTotalAmount>
                <ram:TaxTotalAmount currencyID="EUR">160.55</ram:TaxTotalAmount>
                <ram:GrandTotalAmount currencyID="EUR">1005.55</ram:GrandTotalAmount>
                <ram:DuePayableAmount currencyID="EUR">1005.55</ram:DuePayableAmount>
              </ram:SpecifiedTradeSettlementMonetarySummation>
            </ram:ApplicableSupplyChainTradeSettlement>
            <ram:IncludedSupplyChainTradeLineItem>
              <ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument>
              <ram:SpecifiedSupplyChainTradeAgreement>
                <ram:NetPriceProductTradePrice><ram:ChargeAmount currencyID="EUR">20.0000</ram:ChargeAmount></ram:NetPriceProductTradePrice>
              </ram:SpecifiedSupplyChainTradeAgreement>
              <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">2</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
              <ram:SpecifiedSupplyChainTradeSettlement>
                <ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>19.00</ram:ApplicablePercent></ram:ApplicableTradeTax>
                <ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">40.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation>
              </ram:SpecifiedSupplyChainTradeSettlement>
              <ram:SpecifiedTradeProduct><ram:Name>Superdrachen</ram:Name></ram:SpecifiedTradeProduct>
            </ram:IncludedSupplyChainTradeLineItem>
            <ram:IncludedSupplyChainTradeLineItem>
              <ram:AssociatedDocumentLineDocument><ram:LineID>2</ram:LineID></ram:AssociatedDocumentLineDocument>
              <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">7</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
              <ram:SpecifiedSupplyChainTradeSettlement>
                <ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">805.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation>
              </ram:SpecifiedSupplyChainTradeSettlement>
              <ram:SpecifiedTradeProduct><ram:Name>Turbo Flyer</ram:Name></ram:SpecifiedTradeProduct>
            </ram:IncludedSupplyChainTradeLineItem>
          </rsm:SpecifiedSupplyChainTradeTransaction>
        </rsm:CrossIndustryDocument>
        """

    static let ublNamespaces = """
        xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" \
        xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
        """

    /// A party as XRechnung UBL states it: trading name, address, VAT ID and tax number, legal name.
    static func ublParty(_ trading: String, _ legal: String, vat: String, fc: String?, street: String, zone: String, city: String) -> String {
        let fcScheme = fc.map {
            "<cac:PartyTaxScheme><cbc:CompanyID>\($0)</cbc:CompanyID><cac:TaxScheme><cbc:ID>FC</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>"
        }
        return """
            <cac:Party>
              <cac:PartyName><cbc:Name>\(trading)</cbc:Name></cac:PartyName>
              <cac:PostalAddress>
                <cbc:StreetName>\(street)</cbc:StreetName><cbc:CityName>\(city)</cbc:CityName><cbc:PostalZone>\(zone)</cbc:PostalZone>
                <cac:Country><cbc:IdentificationCode>DE</cbc:IdentificationCode></cac:Country>
              </cac:PostalAddress>
              \(fcScheme ?? "")
              <cac:PartyTaxScheme><cbc:CompanyID>\(vat)</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
              <cac:PartyLegalEntity><cbc:RegistrationName>\(legal)</cbc:RegistrationName></cac:PartyLegalEntity>
            </cac:Party>
            """
    }

    /// XRechnung 3.0 UBL Invoice: two rates, a line allowance-free order, payee IBAN, due date.
    static let ublInvoice = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ubl:Invoice xmlns:ubl="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" \(ublNamespaces)>
          <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</cbc:CustomizationID>
          <cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>
          <cbc:ID>UBL-4711</cbc:ID>
          <cbc:IssueDate>2024-06-03</cbc:IssueDate>
          <cbc:DueDate>2024-07-03</cbc:DueDate>
          <cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
          <cbc:Note>Leitweg-ID siehe BuyerReference</cbc:Note>
          <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
          <cbc:BuyerReference>04011000-12345-34</cbc:BuyerReference>
          <cac:AccountingSupplierParty>
            \(ublParty("Muster Software", "Muster Software GmbH", vat: "DE123456789", fc: "12/345/67890", street: "Musterweg 5", zone: "80331", city: "München"))
          </cac:AccountingSupplierParty>
          <cac:AccountingCustomerParty>
            \(ublParty("Stadt Beispiel", "Stadtverwaltung Beispiel", vat: "DE999999999", fc: nil, street: "Rathausplatz 1", zone: "50667", city: "Köln"))
          </cac:AccountingCustomerParty>
          <cac:Delivery><cbc:ActualDeliveryDate>2024-05-31</cbc:ActualDeliveryDate></cac:Delivery>
          <cac:PaymentMeans>
            <cbc:PaymentMeansCode>58</cbc:PaymentMeansCode>
            <cac:PayeeFinancialAccount><cbc:ID>DE02 1203 0000 0000 2020 51</cbc:ID><cbc:Name>Muster Software GmbH</cbc:Name></cac:PayeeFinancialAccount>
          </cac:PaymentMeans>
          <cac:PaymentTerms><cbc:Note>Zahlbar bis 03.07.2024 ohne Abzug</cbc:Note></cac:PaymentTerms>
          <cac:TaxTotal>
            <cbc:TaxAmount currencyID="EUR">209.00</cbc:TaxAmount>
            <cac:TaxSubtotal>
              <cbc:TaxableAmount currencyID="EUR">1000.00</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">190.00</cbc:TaxAmount>
              <cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory>
            </cac:TaxSubtotal>
            <cac:TaxSubtotal>
              <cbc:TaxableAmount currencyID="EUR">271.43</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">19.00</cbc:TaxAmount>
              <cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>7.00</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory>
            </cac:TaxSubtotal>
          </cac:TaxTotal>
          <cac:LegalMonetaryTotal>
            <cbc:LineExtensionAmount currencyID="EUR">1281.43</cbc:LineExtensionAmount>
            <cbc:TaxExclusiveAmount currencyID="EUR">1271.43</cbc:TaxExclusiveAmount>
            <cbc:TaxInclusiveAmount currencyID="EUR">1480.43</cbc:TaxInclusiveAmount>
            <cbc:AllowanceTotalAmount currencyID="EUR">10.00</cbc:AllowanceTotalAmount>
            <cbc:ChargeTotalAmount currencyID="EUR">0.00</cbc:ChargeTotalAmount>
            <cbc:PrepaidAmount currencyID="EUR">480.00</cbc:PrepaidAmount>
            <cbc:PayableRoundingAmount currencyID="EUR">-0.43</cbc:PayableRoundingAmount>
            <cbc:PayableAmount currencyID="EUR">1000.00</cbc:PayableAmount>
          </cac:LegalMonetaryTotal>
          <cac:InvoiceLine>
            <cbc:ID>1</cbc:ID>
            <cbc:InvoicedQuantity unitCode="HUR">8</cbc:InvoicedQuantity>
            <cbc:LineExtensionAmount currencyID="EUR">1000.00</cbc:LineExtensionAmount>
            <cac:Item>
              <cbc:Name>Beratung</cbc:Name>
              <cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19.00</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>
            </cac:Item>
            <cac:Price><cbc:PriceAmount currencyID="EUR">125.00</cbc:PriceAmount></cac:Price>
          </cac:InvoiceLine>
          <cac:InvoiceLine>
            <cbc:ID>2</cbc:ID>
            <cbc:InvoicedQuantity unitCode="C62">3</cbc:InvoicedQuantity>
            <cbc:LineExtensionAmount currencyID="EUR">281.43</cbc:LineExtensionAmount>
            <cac:Item>
              <cbc:Name>Handbuch</cbc:Name>
              <cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>7</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>
            </cac:Item>
            <cac:Price><cbc:PriceAmount currencyID="EUR">93.81</cbc:PriceAmount></cac:Price>
          </cac:InvoiceLine>
        </ubl:Invoice>
        """

    /// Peppol BIS 3 UBL CreditNote, in CHF with the tax restated in EUR (a second TaxTotal without subtotals), due
    /// date under PaymentMeans, a tax-exempt row with its reason.
    static let ublCreditNote = """
        <?xml version="1.0" encoding="UTF-8"?>
        <CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2" \(ublNamespaces)>
          <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>
          <cbc:ID>CN-12</cbc:ID>
          <cbc:IssueDate>2024-02-29</cbc:IssueDate>
          <cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>
          <cbc:DocumentCurrencyCode>CHF</cbc:DocumentCurrencyCode>
          <cbc:TaxCurrencyCode>EUR</cbc:TaxCurrencyCode>
          <cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>INV-99</cbc:ID></cac:InvoiceDocumentReference></cac:BillingReference>
          <cac:AccountingSupplierParty>
            <cac:Party>
              <cac:PartyLegalEntity><cbc:RegistrationName>Alpen Handel AG</cbc:RegistrationName></cac:PartyLegalEntity>
              <cac:PartyName><cbc:Name>Alpen Shop</cbc:Name></cac:PartyName>
              <cac:PartyTaxScheme><cbc:CompanyID>CHE-123.456.789 MWST</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
            </cac:Party>
          </cac:AccountingSupplierParty>
          <cac:AccountingCustomerParty>
            <cac:Party><cac:PartyName><cbc:Name>Kunde GmbH</cbc:Name></cac:PartyName></cac:Party>
          </cac:AccountingCustomerParty>
          <cac:PaymentMeans>
            <cbc:PaymentMeansCode>30</cbc:PaymentMeansCode>
            <cbc:PaymentDueDate>2024-03-15</cbc:PaymentDueDate>
            <cac:PayeeFinancialAccount><cbc:ID>CH9300762011623852957</cbc:ID></cac:PayeeFinancialAccount>
          </cac:PaymentMeans>
          <cac:TaxTotal>
            <cbc:TaxAmount currencyID="CHF">8.10</cbc:TaxAmount>
            <cac:TaxSubtotal>
              <cbc:TaxableAmount currencyID="CHF">100.00</cbc:TaxableAmount><cbc:TaxAmount currencyID="CHF">8.10</cbc:TaxAmount>
              <cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>8.1</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory>
            </cac:TaxSubtotal>
            <cac:TaxSubtotal>
              <cbc:TaxableAmount currencyID="CHF">50.00</cbc:TaxableAmount><cbc:TaxAmount currencyID="CHF">0.00</cbc:TaxAmount>
              <cac:TaxCategory>
                <cbc:ID>E</cbc:ID><cbc:Percent>0</cbc:Percent><cbc:TaxExemptionReason>Exempt per Art. 21 MWSTG</cbc:TaxExemptionReason>
                <cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme>
              </cac:TaxCategory>
            </cac:TaxSubtotal>
          </cac:TaxTotal>
          <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">8.45</cbc:TaxAmount></cac:TaxTotal>
          <cac:LegalMonetaryTotal>
            <cbc:LineExtensionAmount currencyID="CHF">150.00</cbc:LineExtensionAmount>
            <cbc:TaxExclusiveAmount currencyID="CHF">150.00</cbc:TaxExclusiveAmount>
            <cbc:TaxInclusiveAmount currencyID="CHF">158.10</cbc:TaxInclusiveAmount>
            <cbc:PayableAmount currencyID="CHF">158.10</cbc:PayableAmount>
          </cac:LegalMonetaryTotal>
          <cac:CreditNoteLine>
            <cbc:ID>1</cbc:ID>
            <cbc:CreditedQuantity unitCode="C62">4</cbc:CreditedQuantity>
            <cbc:LineExtensionAmount currencyID="CHF">100.00</cbc:LineExtensionAmount>
            <cac:Item>
              <cbc:Name>Wanderschuh, retourniert</cbc:Name>
              <cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>8.10</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>
            </cac:Item>
            <cac:Price><cbc:PriceAmount currencyID="CHF">25.0000</cbc:PriceAmount></cac:Price>
          </cac:CreditNoteLine>
          <cac:CreditNoteLine>
            <cbc:ID>2</cbc:ID>
            <cbc:CreditedQuantity unitCode="HUR">1</cbc:CreditedQuantity>
            <cbc:LineExtensionAmount currencyID="CHF">50.00</cbc:LineExtensionAmount>
            <cac:Item>
              <cbc:Name>Kurs</cbc:Name>
              <cac:ClassifiedTaxCategory><cbc:ID>E</cbc:ID><cbc:Percent>0</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>
            </cac:Item>
            <cac:Price><cbc:PriceAmount currencyID="CHF">50</cbc:PriceAmount></cac:Price>
          </cac:CreditNoteLine>
        </CreditNote>
        """
}
