import ShoeboxCore
internal import ShoeboxReading

/// The scoring weights of every field the parser reads, one table per field. A candidate's score starts at a
/// base weight and each rule that fires adds or subtracts its weight (penalties are stored positive and
/// subtracted); the merge turns the score into a confidence. The order in which the rules apply is the
/// order of the code that applies them, and changing a weight changes records.
extension ReceiptParser {
    /// Totals: the amount a receipt asks to be paid.
    enum TotalWeights {
        /// Base: a total line with a strong or tax-inclusive keyword ("Total à payer", "Gesamtbetrag", "incl.").
        static let strongKeyword = 0.8
        /// Base: a total line with a plain total keyword ("Total", "Summe").
        static let keyword = 0.7
        /// The gross total ("Bruttobetrag"), which beats an amount due after a prepayment.
        static let grossTotal = 0.04
        /// The largest of several totals.
        static let largestOfTotals = 0.05
        /// The last of several total lines.
        static let lastTotalLine = 0.03
        /// Penalty: a total of zero.
        static let zero = 0.3
        /// Base: the largest amount on a page without any total line.
        static let largestWithoutTotalLine = 0.35
        /// Base: any other unlabelled amount (only the arithmetic can make it a total).
        static let unlabelled = 0.02
        /// Base: a payment without change on a page without a total line ("CASH RM 5.90").
        static let paymentWithoutChange = 0.5
        /// Floor of an unlabelled amount that a cross-check confirms (a total whose label OCR lost), before its bonus.
        static let confirmedUnlabelled = 0.45

        /// Cross-check: subtotal + tax = total.
        static let subtotalPlusTax = 0.1
        /// Cross-check, with subtotal + tax: the tax is its rate times the net.
        static let taxIsRateTimesNet = 0.05
        /// Cross-check, with subtotal + tax: the item lines above sum to the subtotal.
        static let itemsSumToSubtotal = 0.03
        /// Cross-check: subtotal + tax + tip − discount = total.
        static let subtotalTaxTipDiscount = 0.1
        /// Cross-check: the item lines above sum to this total (the largest one).
        static let itemsSumToTotal = 0.08
        /// Cross-check: an earlier total plus a rounding line gives this total.
        static let totalPlusRounding = 0.15
        /// A total on a 5-cent step a few cents from an earlier total off the step: that total rounded.
        static let roundedFromTotalAbove = 0.1
        /// Penalty: a total off the 5-cent step that a later total rounds.
        static let roundedBelow = 0.1
        /// Cross-check: the total lines of two tax rates sum to this total ("Total 0% supplies", "Total 6% supplies").
        static let rateBandsSumToTotal = 0.1
        /// Penalty: the total of one tax rate or code ("Total 0% supplies") on a page that prints another total below it
        /// or labels one payable: that one is what the page comes to.
        static let oneRatesTotal = 0.15
        /// Cross-check: a total above less an adjustment (a negative line, a discount) gives this total
        /// ("Total 0% supplies 39.01", "Total 6% supplies −18.80", "Total payable 20.21").
        static let totalLessAdjustment = 0.1
        /// Cross-check: tendered − change = total.
        static let tenderedMinusChange = 0.12
        /// Penalty: a total that a later line and a rounding line turn into another total (not the amount paid).
        /// A total above plus the tip: the amount charged (`tipCheck`).
        static let totalPlusTip = 0.15
        /// The bill before the tip a later total adds.
        static let beforeTip = 0.2
        static let beforeRounding = 0.2
        /// Penalty: a total whose leading digit is likely a misread currency sign ("$8.20" read as "98.20").
        static let misreadCurrencySign = 0.15

        /// Computed total (tendered − change, subtotal + tax) replacing a total line misread by one digit: at most this…
        static let computedOverMisreadCap = 0.95
        /// … and this much above the best total read.
        static let computedOverMisread = 0.03
        /// Computed total that no line reads: a weak candidate.
        static let computedAlone = 0.4

        // Invoices and rounding: which of two related amounts is the one paid.

        /// Penalty: a total that with a tax of the page makes an amount printed below it: the net of an invoice
        /// ("Total HT", "Summe netto" read as a plain total, or "Net Total" on an invoice). Large enough that a
        /// plain total line loses to its gross even when the gross's label is lost (`confirmedUnlabelled`).
        static let netOfALaterTotal = 0.3
        /// The amount paid after rounding that no line prints, over the score of the total it rounds.
        static let paidAfterRounding = 0.1
        /// The same when no rounding line was read, only tendered − change a few cents off the total: less than the
        /// merge's ambiguity margin, so the record goes to review (a change misread by a digit looks the same).
        static let paidAfterUnreadRounding = 0.03
    }

    /// Merchant: the seller's name near the top of the first page.
    enum MerchantWeights {
        /// A name is looked for down to this fraction of the first page…
        static let searchedDown = 0.45
        /// … or on its first this many lines (or in the seller block).
        static let searchedLines = 8
        /// Base of the first name candidate on the page…
        static let first = 0.6
        /// … less this for each earlier candidate…
        static let perEarlierCandidate = 0.03
        /// … counting at most this many.
        static let earlierCandidatesCounted = 10
        /// On the first two lines.
        static let topTwoLines = 0.08
        /// On the third or fourth line.
        static let topFourLines = 0.04
        /// Penalty: below the first line with a date or an amount (the header has ended).
        static let belowHeader = 0.15
        /// A legal form ("GmbH", "SDN BHD") near the top or in the seller block.
        static let legalFormNear = 0.3
        /// A legal form far below the top (the operating company under a brand).
        static let legalFormFar = 0.15
        /// The first legal name on the page (later ones are customers or suppliers).
        static let firstLegalName = 0.1
        /// A business word ("restaurant", "trading") without a legal form.
        static let businessWord = 0.12
        /// Inside the seller block of an invoice.
        static let sellerBlock = 0.15
        /// A company registration number on the next line.
        static let companyNumberBelow = 0.1
        /// A company registration number printed after a name without a legal form ("KEDAI MAJU (123456-X)"):
        /// the number says it is the registered name, as a legal form would.
        static let companyNumberOnLine = 0.1
        /// Text at least `largerTextRatio` times the median line height.
        static let largerText = 0.05
        /// Height ratio over the median that counts as larger text.
        static let largerTextRatio = 1.3
        /// OCR confidence below which a line loses (floor − confidence) / `confidenceScale`.
        static let confidenceFloor = 85.0
        /// Divisor of the confidence penalty.
        static let confidenceScale = 100.0
        /// Penalty: only fragments of one or two letters.
        static let fragments = 0.3
        /// Penalty: more than five words without a legal form (a sentence).
        static let sentence = 0.15
        /// Penalty: nothing but a legal form and joining words ("SDN BHD").
        static let onlyLegalForm = 0.3
        /// Penalty: nothing but trade words ("BISTRO & CAFE"): the kind of shop, not its name.
        static let onlyTradeWords = 0.2
        /// Penalty: all lower case without a legal form.
        static let allLowerCase = 0.1
        /// Penalty: three letters or fewer without a legal form.
        static let tooShort = 0.2
        /// The lowest score a name candidate keeps.
        static let floor = 0.05
        /// A name joined with the line above ("POPULAR BOOK" / "CO. (M) SDN BHD"), over the lower line's score.
        static let joinedWithLineAbove = 0.08
        /// A name joined over lines has at most this many words: a longer run is a name and an address.
        static let joinedWords = 8
        /// A name after a greeting ("Thank you for shopping at …").
        static let afterGreeting = 0.72
        /// A legal name printed below the header, the imprint of a receipt whose name is a logo (`imprintName`):
        /// under any name the header prints.
        static let imprint = 0.45

        // Evidence for a name from elsewhere on the page (`ReceiptParser.confirmNames`).

        /// A web or mail address on the page names it ("www.mrdiy.com" under "MR. D.I.Y. (M) SDN BHD").
        static let namedByWebAddress = 0.1
        /// The closing greeting names it, or a shorter form of it ("Thank you for visiting Domino's" under
        /// "DOMINO'S PIZZA").
        static let namedByGreeting = 0.1
    }

    /// Dates: the transaction or issue date.
    enum DateWeights {
        /// Base of a date at the top of the page…
        static let top = 0.85
        /// … less this times its position down the page (0 at the top, 1 at the bottom).
        static let perPageHeight = 0.2
        /// Penalty: day and month order taken from the locale (both readings valid).
        static let orderAmbiguous = 0.1
        /// Penalty: a line about another date (due, delivery, valid until).
        static let otherDate = 0.4
        /// An issue-date keyword on the line ("Rechnungsdatum").
        static let issueKeyword = 0.1
        /// The lowest score a date keeps.
        static let floor = 0.05
        /// The highest score a date reaches.
        static let cap = 0.99
        /// The same day printed on several lines.
        static let printedAgain = 0.05
        /// Penalty: a year one digit from the year every due, delivery or order date of the page prints, the same day
        /// and month printed among them: the year misread (`ReceiptParser.yearsAgainstOtherDates`).
        static let yearContradicted = 0.3
    }

    /// Dates: what tells the printed date from a date-shaped code, and a date glued to its neighbours.
    enum DateShapeWeights {
        /// Penalty: letters touch the date's digits ("GB12-21-22"), no date word on the line: an article code.
        /// Larger than the whole page's fall (`DateWeights.perPageHeight`), so a code at the top stays below
        /// a date at the bottom.
        static let gluedToLetters = 0.3
        /// Penalty: a date shape on a line of goods (amounts, no date word, no time): an article code.
        static let onItemLine = 0.25
        /// Penalty: a number glued before the date ("CASHIER:0112/03/2018"): read, but a cleanly printed date
        /// elsewhere is surer.
        static let gluedToNumber = 0.05
        /// Penalty: a date read only with letters taken for digits or a separator put right (`DateReader.Found.mended`).
        static let mended = 0.1
    }

    /// Currency: the ISO code of the amounts.
    enum CurrencyWeights {
        /// Base of a code or symbol written on the page…
        static let written = 0.8
        /// … plus this for each time it is written…
        static let perWriting = 0.05
        /// … plus this when the country hints agree…
        static let countryAgrees = 0.02
        /// … up to this.
        static let writtenCap = 0.99
        /// A mark written once, doubtfully read, against the country hints.
        static let strayMark = 0.4
        /// A "$" resolved by the country hints to a local dollar (ringgit, Singapore dollar …).
        static let localDollar = 0.6
        /// A "$" read as the US dollar, with no other currency on the page.
        static let usDollarAlone = 0.8
        /// A "$" read as the US dollar beside another currency on the page.
        static let usDollarBesideOthers = 0.4
        /// Base of a currency inferred from country hints alone…
        static let inferredFromCountry = 0.45
        /// … plus this per hint…
        static let perCountryHint = 0.05
        /// … up to this.
        static let inferredFromCountryCap = 0.75
        /// A currency inferred from the language alone.
        static let inferredFromLanguage = 0.5
    }

    /// Reference: the receipt's or invoice's own number.
    enum ReferenceWeights {
        /// A document word and a number marker ("Rechnung Nr.").
        static let withMarker = 0.8
        /// A document word without a number marker ("Invoice 103767").
        static let withoutMarker = 0.6
        /// The document's own word (invoice, receipt) rather than an order or ride number.
        static let ownDocument = 0.05
        /// Penalty: the line names another document ("Auftrag", "order").
        static let otherDocument = 0.4
    }

    /// Seller tax ID.
    enum TaxIDWeights {
        /// Base of an ID at the top of the page…
        static let top = 0.8
        /// … less this per line down.
        static let perLine = 0.002
        /// An ID in the buyer's block.
        static let inBuyerBlock = 0.3
        /// A VAT number format (country letters, then digits).
        static let vatFormat = 0.1
    }

    /// Payment method.
    enum PaymentWeights {
        /// A card keyword.
        static let card = 0.8
        /// A cash keyword.
        static let cash = 0.7
    }
}

/// The scores of what a payment screen's labels give: above every paper rule (a screen's label says what the value is).
enum ScreenWeights {
    static let payee = 1.6
    /// A name heading a screen with no payee label: weaker than a label's word.
    static let headingPayee = 1.0
    static let amount = 1.5
    static let reference = 1.2
}
