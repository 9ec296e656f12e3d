/// Small invoice XML documents written for the tests after the specifications (CII D16B / Factur-X 1.0.7,
/// ZUGFeRD 1.0, the EN 16931 UBL binding). Their figures add up, so `EInvoice.problems()` is empty for each.
enum InvoiceDocuments {
    static let ciiHead = """
        <rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" \
        xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" \
        xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100" \
        xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
        """

    /// EN 16931 profile with an EXTENDED sub-line, header charges and allowances, a prepayment, a second tax total
    /// in the tax currency (USD), and the debtor's account before the payee's.
    static let cii = """
        <?xml version="1.0" encoding="UTF-8"?>
        \(ciiHead)
          <rsm:ExchangedDocumentContext>
            <ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
          </rsm:ExchangedDocumentContext>
          <rsm:ExchangedDocument>
            <ram:ID> RE-2024-0815 </ram:ID>
            <ram:TypeCode>380</ram:TypeCode>
            <ram:IssueDateTime><udt:DateTimeString format="102">20241115</udt:DateTimeString></ram:IssueDateTime>
          </rsm:ExchangedDocument>
          <rsm:SupplyChainTradeTransaction>
            <ram:IncludedSupplyChainTradeLineItem>
              <ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument>
              <ram:SpecifiedTradeProduct><ram:Name>Kaffeemaschine &amp; Zubehör</ram:Name></ram:SpecifiedTradeProduct>
              <ram:SpecifiedLineTradeAgreement>
                <ram:NetPriceProductTradePrice><ram:ChargeAmount>50.0000</ram:ChargeAmount></ram:NetPriceProductTradePrice>
              </ram:SpecifiedLineTradeAgreement>
              <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="H87">2.0000</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
              <ram:SpecifiedLineTradeSettlement>
                <ram:ApplicableTradeTax>
                  <ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>19.00</ram:RateApplicablePercent>
                </ram:ApplicableTradeTax>
                <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>100.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>
              </ram:SpecifiedLineTradeSettlement>
            </ram:IncludedSupplyChainTradeLineItem>
            <ram:IncludedSupplyChainTradeLineItem>
              <ram:AssociatedDocumentLineDocument>
                <ram:LineID>1.1</ram:LineID><ram:ParentLineID>1</ram:ParentLineID>
              </ram:AssociatedDocumentLineDocument>
              <ram:SpecifiedTradeProduct><ram:Name>Mahlwerk</ram:Name></ram:SpecifiedTradeProduct>
              <ram:SpecifiedLineTradeSettlement>
                <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>60.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>
              </ram:SpecifiedLineTradeSettlement>
            </ram:IncludedSupplyChainTradeLineItem>
            <ram:IncludedSupplyChainTradeLineItem>
              <ram:AssociatedDocumentLineDocument><ram:LineID>2</ram:LineID></ram:AssociatedDocumentLineDocument>
              <ram:SpecifiedTradeProduct><ram:Name>Fachbuch</ram:Name></ram:SpecifiedTradeProduct>
              <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="C62">1</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
              <ram:SpecifiedLineTradeSettlement>
                <ram:ApplicableTradeTax><ram:CategoryCode>Z</ram:CategoryCode><ram:RateApplicablePercent>0</ram:RateApplicablePercent></ram:ApplicableTradeTax>
                <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>20.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>
              </ram:SpecifiedLineTradeSettlement>
            </ram:IncludedSupplyChainTradeLineItem>
            <ram:ApplicableHeaderTradeAgreement>
              <ram:SellerTradeParty>
                <ram:Name>Handwerker GmbH</ram:Name>
                <ram:PostalTradeAddress>
                  <ram:PostcodeCode>10115</ram:PostcodeCode><ram:LineOne>Hauptstraße 1</ram:LineOne><ram:LineTwo>Hinterhaus</ram:LineTwo>
                  <ram:CityName>Berlin</ram:CityName><ram:CountryID>DE</ram:CountryID>
                </ram:PostalTradeAddress>
                <ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">201/113/40209</ram:ID></ram:SpecifiedTaxRegistration>
                <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration>
              </ram:SellerTradeParty>
              <ram:BuyerTradeParty>
                <ram:Name>Kunden AG Mitte</ram:Name>
                <ram:PostalTradeAddress><ram:PostcodeCode>69876</ram:PostcodeCode><ram:CityName>Frankfurt</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>
                <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE987654321</ram:ID></ram:SpecifiedTaxRegistration>
              </ram:BuyerTradeParty>
            </ram:ApplicableHeaderTradeAgreement>
            <ram:ApplicableHeaderTradeDelivery>
              <ram:ActualDeliverySupplyChainEvent>
                <ram:OccurrenceDateTime><udt:DateTimeString format="102">20241114</udt:DateTimeString></ram:OccurrenceDateTime>
              </ram:ActualDeliverySupplyChainEvent>
            </ram:ApplicableHeaderTradeDelivery>
            <ram:ApplicableHeaderTradeSettlement>
              <ram:TaxCurrencyCode>USD</ram:TaxCurrencyCode>
              <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
              <ram:SpecifiedTradeSettlementPaymentMeans>
                <ram:TypeCode>58</ram:TypeCode>
                <ram:PayerPartyDebtorFinancialAccount><ram:IBANID>FRDEBIT</ram:IBANID></ram:PayerPartyDebtorFinancialAccount>
                <ram:PayeePartyCreditorFinancialAccount><ram:IBANID>DE77 3707 0060 0321 9870 00</ram:IBANID></ram:PayeePartyCreditorFinancialAccount>
              </ram:SpecifiedTradeSettlementPaymentMeans>
              <ram:ApplicableTradeTax>
                <ram:CalculatedAmount>19.95</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>105.00</ram:BasisAmount>
                <ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>19.00</ram:RateApplicablePercent>
              </ram:ApplicableTradeTax>
              <ram:ApplicableTradeTax>
                <ram:CalculatedAmount>0.00</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode>
                <ram:ExemptionReason>Bücher zum Nullsatz</ram:ExemptionReason><ram:BasisAmount>20.00</ram:BasisAmount>
                <ram:CategoryCode>Z</ram:CategoryCode><ram:RateApplicablePercent>0.00</ram:RateApplicablePercent>
              </ram:ApplicableTradeTax>
              <ram:SpecifiedTradePaymentTerms>
                <ram:Description>Zahlbar innerhalb 30 Tagen netto.</ram:Description>
                <ram:DueDateDateTime><udt:DateTimeString format="102">20241215</udt:DateTimeString></ram:DueDateDateTime>
              </ram:SpecifiedTradePaymentTerms>
              <ram:SpecifiedTradePaymentTerms><ram:Description>2 % Skonto bis 25.11.2024</ram:Description></ram:SpecifiedTradePaymentTerms>
              <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
                <ram:LineTotalAmount>120.00</ram:LineTotalAmount>
                <ram:ChargeTotalAmount>10.00</ram:ChargeTotalAmount>
                <ram:AllowanceTotalAmount>5.00</ram:AllowanceTotalAmount>
                <ram:TaxBasisTotalAmount>125.00</ram:TaxBasisTotalAmount>
                <ram:TaxTotalAmount currencyID="USD">21.50</ram:TaxTotalAmount>
                <ram:TaxTotalAmount currencyID="EUR">19.95</ram:TaxTotalAmount>
                <ram:RoundingAmount>0.00</ram:RoundingAmount>
                <ram:GrandTotalAmount>144.95</ram:GrandTotalAmount>
                <ram:TotalPrepaidAmount>44.95</ram:TotalPrepaidAmount>
                <ram:DuePayableAmount>100.00</ram:DuePayableAmount>
              </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
            </ram:ApplicableHeaderTradeSettlement>
          </rsm:SupplyChainTradeTransaction>
        </rsm:CrossIndustryInvoice>
        """

    /// Factur-X MINIMUM: the totals, no lines and no tax breakdown; a UTF-8 byte-order mark and a comment before the
    /// root, single-quoted declaration.
    static let minimum = """
        \u{FEFF}<?xml version='1.0' encoding='UTF-8'?>
        <!-- a comment before the root -->
        \(ciiHead)
          <rsm:ExchangedDocumentContext>
            <ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:factur-x.eu:1p0:minimum</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
          </rsm:ExchangedDocumentContext>
          <rsm:ExchangedDocument>
            <ram:ID>M-1</ram:ID><ram:TypeCode>380</ram:TypeCode>
            <ram:IssueDateTime><udt:DateTimeString format="102">20240301</udt:DateTimeString></ram:IssueDateTime>
          </rsm:ExchangedDocument>
          <rsm:SupplyChainTradeTransaction>
            <ram:ApplicableHeaderTradeAgreement>
              <ram:SellerTradeParty><ram:Name>Kiosk am Eck</ram:Name>
                <ram:PostalTradeAddress><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>
                <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE111222333</ram:ID></ram:SpecifiedTaxRegistration>
              </ram:SellerTradeParty>
              <ram:BuyerTradeParty><ram:Name>Büro Schmidt</ram:Name></ram:BuyerTradeParty>
            </ram:ApplicableHeaderTradeAgreement>
            <ram:ApplicableHeaderTradeDelivery/>
            <ram:ApplicableHeaderTradeSettlement>
              <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
              <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
                <ram:TaxBasisTotalAmount>100.00</ram:TaxBasisTotalAmount>
                <ram:TaxTotalAmount currencyID="EUR">19.00</ram:TaxTotalAmount>
                <ram:GrandTotalAmount>119.00</ram:GrandTotalAmount>
                <ram:DuePayableAmount>119.00</ram:DuePayableAmount>
              </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
            </ram:ApplicableHeaderTradeSettlement>
          </rsm:SupplyChainTradeTransaction>
        </rsm:CrossIndustryInvoice>
        """

    /// Factur-X BASIC WL: header totals and the tax breakdown, no lines; a billing month (format 610) for delivery.
    static let basicWL = """
        <?xml version="1.0" encoding="utf-8"?>
        \(ciiHead)
          <rsm:ExchangedDocumentContext>
            <ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:factur-x.eu:1p0:basicwl</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
          </rsm:ExchangedDocumentContext>
          <rsm:ExchangedDocument>
            <ram:ID>WL-7</ram:ID><ram:TypeCode>381</ram:TypeCode>
            <ram:IssueDateTime><udt:DateTimeString format="102">20240405</udt:DateTimeString></ram:IssueDateTime>
          </rsm:ExchangedDocument>
          <rsm:SupplyChainTradeTransaction>
            <ram:ApplicableHeaderTradeAgreement>
              <ram:SellerTradeParty><ram:Name>Librairie Dupont</ram:Name>
                <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">FR11123456789</ram:ID></ram:SpecifiedTaxRegistration>
              </ram:SellerTradeParty>
              <ram:BuyerTradeParty><ram:Name>Client SA</ram:Name></ram:BuyerTradeParty>
            </ram:ApplicableHeaderTradeAgreement>
            <ram:ApplicableHeaderTradeDelivery>
              <ram:ActualDeliverySupplyChainEvent>
                <ram:OccurrenceDateTime><udt:DateTimeString format="610">202403</udt:DateTimeString></ram:OccurrenceDateTime>
              </ram:ActualDeliverySupplyChainEvent>
            </ram:ApplicableHeaderTradeDelivery>
            <ram:ApplicableHeaderTradeSettlement>
              <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
              <ram:SpecifiedTradeSettlementPaymentMeans>
                <ram:TypeCode>30</ram:TypeCode>
                <ram:PayeePartyCreditorFinancialAccount><ram:ProprietaryID>12345-678</ram:ProprietaryID></ram:PayeePartyCreditorFinancialAccount>
              </ram:SpecifiedTradeSettlementPaymentMeans>
              <ram:ApplicableTradeTax>
                <ram:CalculatedAmount>11.00</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>200.00</ram:BasisAmount>
                <ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>5.50</ram:RateApplicablePercent>
              </ram:ApplicableTradeTax>
              <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
                <ram:LineTotalAmount>200.00</ram:LineTotalAmount>
                <ram:TaxBasisTotalAmount>200.00</ram:TaxBasisTotalAmount>
                <ram:TaxTotalAmount currencyID="EUR">11.00</ram:TaxTotalAmount>
                <ram:GrandTotalAmount>211.00</ram:GrandTotalAmount>
                <ram:DuePayableAmount>211.00</ram:DuePayableAmount>
              </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
            </ram:ApplicableHeaderTradeSettlement>
          </rsm:SupplyChainTradeTransaction>
        </rsm:CrossIndustryInvoice>
        """
}
