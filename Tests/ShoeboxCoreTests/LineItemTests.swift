import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement
@testable import ShoeboxParsing

/// A receipt page laid out as a till prints it: each line a left part and a right part set flush right (the amount
/// column), 20 px per character, 40 px line pitch. A line without "|" is all left; one starting with "^" is centred.
func tillPage(_ lines: [String], width: Int = 900) -> OCRPage {
    var ocrLines: [OCRLine] = []
    for (i, line) in lines.enumerated() {
        let parts = line.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        var words: [OCRWord] = []
        func place(_ text: String, from start: Int) {
            var x = start
            for token in text.split(separator: " ") {
                words.append(
                    OCRWord(
                        text: String(token), box: BoundingBox(left: x, top: 40 * i + 5, right: x + token.count * 20, bottom: 40 * i + 35),
                        confidence: 95))
                x += token.count * 20 + 20
            }
        }
        if parts[0].hasPrefix("^") {
            let text = String(parts[0].dropFirst())
            place(text, from: (width - text.count * 20) / 2)
        } else {
            place(parts[0], from: 10)
        }
        if parts.count == 2 { place(parts[1], from: width - 10 - parts[1].count * 20) }
        ocrLines.append(OCRLine(words: words))
    }
    return OCRPage(pageNumber: 1, width: width, height: 40 * lines.count + 10, dpi: 300, source: .ocr, lines: ocrLines)
}

/// The items a page gives, as "kind description quantity×price = amount code rate" strings, and what proves them.
func items(_ lines: [String], language: String? = "eng") -> ([String], ItemsCheck?) {
    let e = ReceiptParser(today: today).parse(pages: [tillPage(lines)], language: language)
    let record = mergedRecord(e, language: language)
    let shown = record.items.map { i in
        var s = "\(i.kind.rawValue) \(i.description)"
        if let q = i.quantity, let p = i.unitPrice { s += " \(q)×\(p)" }
        s += " = \(i.amount.decimalString)"
        if let c = i.taxCode { s += " \(c)" }
        if let r = i.taxRate { s += " \(r)%" }
        return s
    }
    return (shown, record.itemsCheck)
}

struct PageItemTests {
    @Test func descriptionLinesAboveANumbersOnlyLine() {
        let (got, check) = items([
            "^MR D.I.Y. (JOHOR) SDN BHD", "^LOT 1851-A & 1851-B, JALAN KPB 6", "^-INVOICE-",
            "CHOPPING BOARD 35.5x25.5CM B03M#", "EZiOHDOS - 24", "8970669 1X 19.00 | 19.00",
            "AIR PRESSURE SPRAYER SX-575-1 1.5L", "HCO3-7 - 15", "9066468 1X 8.02 | 8.02",
            "Item(s) : 2 Qty(s) : 2", "TOTAL | RM 27.02", "CASH | RM 50.00", "CHANGE | RM 22.98", "12-01-19 21:13 SHO ZKO9 T4 R000027830"
        ])
        #expect(
            got == [
                "item CHOPPING BOARD 35.5x25.5CM B03M# EZiOHDOS - 24 1×19.00 = 19.00",
                "item AIR PRESSURE SPRAYER SX-575-1 1.5L HCO3-7 - 15 1×8.02 = 8.02"
            ])
        #expect(check == .total)
    }

    /// The block of lines items are read from (what Items read again reads when they are unproven): the lines below the
    /// transaction date down to the first line of the totals, not the header above nor the totals.
    @Test func theBlockOfAnItemSetIsTheLinesItWasReadFrom() throws {
        let e = ReceiptParser(today: today).parse(
            pages: [
                tillPage([
                    "^CORNER SHOP", "^12 HIGH STREET", "Date: 14/03/2026", "Bread | 1.20", "Whole Milk", "1L | 0.95", "Apples | 2.10",
                    "TOTAL | 4.25", "CASH | 5.00"
                ])
            ], language: "eng")
        let reading = try #require(e.items)
        #expect(reading.items.map(\.amount.minorUnits) == [120, 95, 210])
        #expect(e.itemBlock == ItemBlock(page: 1, lines: 3...6))
    }
}

/// More layouts of the page, each a class of receipt.
struct PageItemLayoutTests {
    /// Numbers first, the words on the line below ("9556127101331 1 1.41 1.50 1.50 SR" / "GARDENIA ... [600G]").
    @Test func wordsBelowTheirNumbers() {
        let (got, check) = items([
            "^KEDAI RUNCIT MAJU", "Date: 02/12/2017", "Item Qty S/Price Amount",
            "9556641320027 2 0.85 | 1.70 SR", "DELICIA CHOCOLATE [50G]", "9556231110045 1 3.55 | 3.55 ZRL", "GARDENIA ORIGINAL CLASSIC JUMBO",
            "Total Qty: 3", "Total Sales (Inclusive of GST) : | RM 5.25", "CASH : | RM 10.00"
        ])
        #expect(got == ["item DELICIA CHOCOLATE [50G] 2×0.85 = 1.70 SR", "item GARDENIA ORIGINAL CLASSIC JUMBO 1×3.55 = 3.55 ZRL"])
        #expect(check == .total)
    }

    /// Prices printed left of the amount column, and a line of column sums in it ("9.20 21.60"): the sum of what was
    /// read matches the subtotal, but the items were not read; nothing is proven.
    @Test func pricesOutsideTheAmountColumnProveNothing() {
        let (got, check) = items([
            "^DOMINO'S PIZZA", "Order Time : 18:07:35 Date :11/04/18", "Qty Menu Desc Coupon Disc Price",
            "1 MCWBQ LVD1P-P 3.80", "1 REV (CAN) LVD1P-P 3.50", "1 6 HT (KC) LVYD1P-P 14.30", "9.20 | 21.60",
            "Sub-Total : | RM 21.60", "Coupon Discount : | RM 9.20", "Grand Total : | RM 12.40"
        ])
        #expect(got.count == 1)
        #expect(check == .unproven)
    }

    /// An article taken back on the till ("-1 X 13.50 -13.50" under the name it was bought under) is a void; a discount
    /// line stays a discount.
    @Test func aNegativeLineRepeatingAnArticleIsAVoid() {
        let (got, check) = items([
            "^MR. D.I.Y. (M) SDN BHD", "^-TAX INVOICE-", "MOSQUITO RACKET 108", "9021485 1X 13.50 | 13.50", "CUSHION 43X43CM",
            "9032550 1X 14.90 | 14.90", "MOSQUITO RACKET 108", "9021485 -1 X 13.50 | -13.50", "MEMBER DISCOUNT | -1.40",
            "TOTAL INCL. GST | RM 13.50"
        ])
        #expect(got.map { $0.split(separator: " ")[0] } == ["item", "item", "void", "discount"], "\(got)")
        #expect(check == .total)
    }

    /// A misread column heading ("Jem ty SPrice Amount Tax") is no description; one amount line that prints only numbers
    /// under it takes its words from the line below it.
    @Test func aMisreadHeadingAboveOneNumbersLineSendsItsWordsBelow() {
        let (got, check) = items([
            "^KEDAI PAPAN YEW CHUAN", "Doc No. : CS00011351 Date: 31/03/2018", "Jem ty SPrice Amount Tax", "101756 10 17.49 | 174.90 SR",
            "SIMEN", "Total Sales (Inclusive of GST) : | RM 174.90"
        ])
        #expect(got == ["item SIMEN 10×17.49 = 174.90 SR"], "\(got)")
        #expect(check == .total)
    }

    /// A header field that lost its colon ("CASH SALES COUNTER") ends what stands above it: neither it nor the seller's
    /// name over it goes into the first item's words.
    @Test func aHeaderFieldIsNoDescription() {
        let (got, _) = items([
            "^SANYO STATIONERY SHOP", "GST ID No: 001531760640", "SANYU SUPPLY SDN BHD (1135772-K)", "CASH SALES COUNTER",
            "RESTAURANT ORDER CHIT NCR", "2 X 2.90 | 5.80 SR", "Total Sales Inclusive GST @6% | RM 5.80"
        ])
        #expect(got == ["item RESTAURANT ORDER CHIT NCR 2×2.90 = 5.80 SR"], "\(got)")
    }

    /// "2 Item(s) Total (MYR): 17.93" that the tax below makes into the net total is the items' subtotal; prices that include
    /// the tax make the total with the rounding alone; a section's "Total" with more items below it proves nothing.
    @Test func aTotalTheTaxMakesLargerIsTheSubtotal() {
        let (got, check) = items([
            "^CW KHOO HARDWARE SDN BHD", "Date : 04-05-18 12:50:51 PM", "Item Name Qty Unit Price Amount", "ENERGIZER BATTERY (PC)",
            "1 6.40 | 6.40 SR", "ENERGIZER BATTERY (522BP1G)", "1 11.53 | 11.53 SR", "2 Item(s) Total (MYR): | 17.93",
            "GST @ 6% : | 1.08", "Net Total (MYR): | 19.01", "Rounding Adj. : | -0.01", "Net Total Rounded (MYR) : | RM 19.00"
        ])
        #expect(got.count == 2)
        #expect(check == .subtotal)

        let (_, inclusive) = items([
            "^KHE ELECTRICAL TRADING", "Date: 22/05/2018", "Item Qty S/Price Amount Tax", "1113 2 50.88 | 101.76 SR", "105W T5 PL TUBE",
            "Total Sales (Excluding GST) : | 96.00", "Total GST : | 5.76", "Rounding : | -0.01", "Total Sales (Inclusive of GST) : | RM 101.75"
        ])
        #expect(inclusive == .totalLessCharges)

        let (_, section) = items([
            "^GARDENIA BAKERIES (KL) SDN BHD", "Date: 25/08/2017", "Description U.P Sale Amt", "O.C. WHITE 2.13 3 | 6.39",
            "WHOLEMEAL 2.78 3 | 8.34", "Total 0% supplies: | 14.73", "KAYA ROLL 1.00 1 | 1.00", "GST: | 0.06",
            "Total 6% supplies (Inc. GST): | 1.06", "Total Payable: | RM 15.79"
        ])
        #expect(section != .subtotal)
    }

    /// "1471 1 477 477 SR": an amount and unit price both read without their points are repaired where quantity × price
    /// gives the amount digit for digit.
    @Test func anAmountAndPriceThatLostTheirPoints() {
        let (got, check) = items([
            "^SYARIKAT PERNIAGAAN GIN KEE", "Date: 03/02/2018", "Item Qty Price Amount Tax", "2786 2 4.77 | 9.54 SR", "12M WIRE ROPE CLIP",
            "1471 1 477 | 477 SR", "KINKI 2 WAY SCREWDRIVER", "Total Sales (Inclusive of GST) : | RM 14.31"
        ])
        #expect(got.map { $0.components(separatedBy: " = ").last ?? "" } == ["9.54 SR", "4.77 SR"], "\(got)")
        #expect(check == .total)
    }

    /// Two misreadings arithmetic repairs: a quantity and unit price read as one amount with a space between its groups
    /// ("1 148.40"), and a tax code glued to the amount read as one more digit ("5.20S" as "5.205").
    @Test func aQuantityReadIntoThePriceAndACodeReadAsADigit() {
        let (grouped, groupedCheck) = items([
            "^SYARIKAT PERNIAGAAN GIN KEE", "Date. 28/12/2017", "Item Qty S/Price Amount Tax", "1971 1 148.40 14840 | SR",
            "PASIR HALUS 1 LOAD (SMALL)", "Total Sales (Inclusive of GST) : | RM 148.40"
        ])
        #expect(grouped == ["item PASIR HALUS 1 LOAD (SMALL) 1×148.40 = 148.40 SR"], "\(grouped)")
        #expect(groupedCheck == .total)

        let (glued, gluedCheck) = items([
            "^SAM SAM TRADING CO", "29-12-2017 20:17", "UNICORN TWIN SUPER GLUE", "9557368063013 1X 5.20 | 5.205", "CYBER MIX COLOR PAPER",
            "2208 1X 8.90 | 8.905", "No. Items: 2", "TOTAL | RM 14.10"
        ])
        #expect(glued.map { $0.components(separatedBy: " = ").last ?? "" } == ["5.20", "8.90"], "\(glued)")
        #expect(gluedCheck == .total)
    }

    /// Items that make the printed total before a cash rounding whose amount OCR lost are proven by the rounded total.
    @Test func aCashRoundingWhoseAmountWasLost() {
        let (got, check) = items([
            "^99 SPEED MART S/B (519537-X)", "02:49PM 565287 08-05-17", "8019 MARIGOLD HL MILK 1L | RM13.58", "TIGER BEER BOTTLE 640ML | RM13.70",
            "Total Sales (Inclusive GST) | RM 27.28", "Rounding Adjustment | RM «02", "Rounding | RM 27.30", "CASH | RM 27.30"
        ])
        #expect(got.count == 2, "\(got)")
        #expect(check == .total)
    }

    /// Two short words beside the numbers are a unit or a code, not the name: the line above names the item ("SC Acr Frame"
    /// over "2pc @ 5.50 11.00" read "ape @ 5.50"), or the lines below do when every amount line prints such a code ("1 FRO
    /// 12.90" / "BELACAN FRIED RICE").
    @Test func shortWordsBesideTheNumbersAreNoName() {
        let (above, aboveCheck) = items([
            "^POPULAR BOOK", "06/02/18 18:47 Slip No. : 0010201725", "Description Amount", "SC Acr Frame S103M", "ape @ 5.50 | 11.00 T",
            "Member Discount | -1.10", "Total RM Incl. of GST | RM 9.90"
        ])
        #expect(above == ["item SC Acr Frame S103M = 11.00 T", "discount Member Discount = -1.10"], "\(above)")
        #expect(aboveCheck == .total)

        let (below, _) = items([
            "^De Maximum Thai Express Sdn Bhd", "Date: 14/04/2018 11:28:59 PM", "Qty Code/Desc Unit Price Total RM", "1 D165 8.90 | 8.90",
            "THAI ICE TEA", "1 FRO 12.90 | 12.90", "BELACAN FRIED RICE", "Total Amount: | RM 21.80"
        ])
        #expect(below.map { $0.components(separatedBy: " 1×").first ?? "" } == ["item THAI ICE TEA", "item BELACAN FRIED RICE"], "\(below)")
    }

    /// A description at the margin that ends in a number ("Sushi 1,80" over "4x 1.80 7.20 SR") is no price column.
    @Test func aNameEndingInANumberIsNoPriceColumn() {
        let (got, check) = items([
            "^SUSHI KING", "Date: 11/03/2018 13:02", "Description Qty U.price Total TAX", "Tori Teriyaki Don", "1x 12.80 | 12.80 SR",
            "Sushi 1,80", "4x 1.80 | 7.20 SR", "Total (Excluding GST): | RM 20.00"
        ])
        #expect(got.count == 2, "\(got)")
        #expect(check == .subtotal)
    }

    /// Below the first item, a name with a column word in it ("Chicken Item", "Price Label (PLAIN)") is an item's name, not
    /// a heading the items start after.
    @Test func aNameWithAColumnWordIsNoHeadingBelowTheFirstItem() {
        let (got, check) = items([
            "^RESTORAN WAN SHENG", "Date : 06-05-2018 12:22:06", "Description Qty U.price Total", "Chicken Item", "1x 20.00 | 20.00",
            "Vege Item", "1x 15.00 | 15.00", "Total (Excluding GST): | RM 35.00"
        ])
        #expect(got.count == 2, "\(got)")
        #expect(check == .subtotal)
    }

    /// An invoice that totals its items per tax rate: each section sums to the total under it, and the sections' totals
    /// (the taxed one with its tax) make the total payable. A section whose items miss its total proves nothing.
    @Test func itemsTotalledPerTaxRateInSections() {
        let page = [
            "^GARDENIA BAKERIES (KL) SDN BHD", "Date: 25/08/2017", "Description U.P Qty Amount", "BREAD WHITE 2.13 3 | 6.39",
            "BREAD WHOLEMEAL 2.78 3 | 8.34", "Total 0% supplies: | 14.73", "CREAM ROLL CHOCOLATE 0.72 10 | 7.20",
            "Total 6% supplies (excl. GST): | 7.20", "GST: | 0.43", "Total 6% supplies (Inc. GST): | 7.63", "Total Payable: | RM 22.36"
        ]
        let (got, check) = items(page)
        #expect(got.count == 3, "\(got)")
        #expect(check == .total)

        var misread = page
        misread[6] = "CREAM ROLL CHOCOLATE 0.72 10 | 7.80"
        let (_, misreadCheck) = items(misread)
        #expect(misreadCheck == .unproven)
    }

    /// A service charge counts as one whatever role its line's other words gave it ("Discount" above it, a percent in it).
    @Test func aServiceChargeIsAChargeWhateverItsRole() {
        let (got, check) = items([
            "^SUSHI TEI", "Date: 12/05/2018 19:20", "Qty Description Amount", "1 UROKO SALAD @ 28.00 | 28.00 SR",
            "1 NIKU SHOGAYAKI SET @ 38.68 | 38.68 SR", "4 GREEN TEA @ 2.00 | 8.00 SR", "5 Total: | 74.68", "Discount : | (.00)",
            "service Chg 10.00% : | 7.47", "GST : | 4.93", "Grand Total : | 87.08", "Net Total : | RM 87.10"
        ])
        #expect(got.count == 3, "\(got)")
        #expect(check?.proven == true, "\(String(describing: check))")
    }

    /// A total whose label OCR misread ("Totd/Sales") proves the items when the record's total is that amount; a subtotal
    /// above a total that a cash rounding lowered ("Sub-total 88.97" / "Total 88.95") proves them too.
    @Test func aMisreadTotalLabelAndASubtotalAboveItsRounding() {
        let (misreadItems, misread) = items([
            "^KEDAI PAPAN YEW CHUAN", "Date: 15/06/2018", "Item Qty S/Price Amount", "COKE 24 X 325ML 2 26.00 | 52.00",
            "SUN SOS TIRAM 4 15.95 | 63.80", "GST @6% included | 6.55", "| 115.80", "CASH : | RM 120.00", "CHANGE : | RM 4.20"
        ])
        #expect(misread == .total, "\(misreadItems)")

        let (_, rounded) = items([
            "^99 SPEED MART", "Date: 15/06/2018", "Description Amount", "BERAS WANGI 10KG | 42.97", "MINYAK MASAK 5KG | 46.00",
            "Sub-total | 88.97", "Rounding Adj | -0.02", "Total Sales Incl GST | RM 88.95"
        ])
        #expect(rounded == .subtotal || rounded == .totalLessCharges)
    }

    /// A column heading OCR misread into a total word ("kem aly Total") above any amount ends nothing and names nothing.
    @Test func aMisreadHeadingWithATotalWordAboveTheItems() {
        let (got, check) = items([
            "^UNIHAKKA INTERNATIONAL SDN BHD", "22 Mar 2018 18:24", "Invoice # : OR18032202170428", "kem aly Total",
            "SR 100100000036- 1 Meat + 3 Vege", "$7.10 1 | $7.10", "SR 100100000084-Add Vegetable", "$0.50 1 | $0.50",
            "Total Amount: | $7.60", "Nett Total: | RM 7.60"
        ])
        #expect(
            got.map { $0.components(separatedBy: " = ").first ?? "" }
                == ["item SR 100100000036- 1 Meat + 3 Vege", "item SR 100100000084-Add Vegetable"], "\(got)")
        #expect(check == .total)
    }

    /// A total whose amount OCR misread ("RM 106.50" for 108.50): what was paid less the change proves the items (for the
    /// record, where that is the total it chose); a payment the change does not reduce to the items' sum proves nothing.
    @Test func whatWasPaidLessTheChangeProvesTheItems() {
        func reading(change: String) -> ItemsReading? {
            let page = tillPage([
                "^99 SPEED MART S/B", "INVOICE NO : 18311/102/T0395", "07:44PM 566890 17-02-18", "489 TIGER BEER CAN 4X6X320ML | RM108.50",
                "Total Sales (Inclusive GST) | RM 106.50", "CASH | RM 150.00", "CHANGE | RM \(change)"
            ])
            return ReceiptParser(today: today).parse(pages: [page], language: "eng").items
        }
        let paid = reading(change: "41.50")
        #expect(paid?.items.map(\.amount.minorUnits) == [10850])
        #expect(paid?.check == .total && paid?.target == 10850)
        #expect(reading(change: "43.50")?.check == .unproven)
    }

    /// Amounts misread on lines that print their quantity and unit price ("1 0.00 9.00" for 0.00, "2x 0.20 u.du"): quantity ×
    /// unit price in their place proves the set; where it does not either, the amounts stay as read, unproven.
    @Test func quantityTimesPriceWhereTheAmountIsMisread() {
        func read(_ subtotal: String) -> ([String], ItemsCheck?) {
            items([
                "^SUSHI KING", "Date: 17/04/2018", "Item Qty U.Price Amount Tax", "Green Tea 2 1.50 | 3.00 SR", "Katsu Sauce 1 0.00 | 9.00 SR",
                "Take Away 2x 0.20 | u.du SR", "SubTotal | \(subtotal)", "Total | RM \(subtotal)"
            ])
        }
        let (got, check) = read("3.40")
        #expect(got == ["item Green Tea 2×1.50 = 3.00 SR", "item Katsu Sauce 1×0.00 = 0.00 SR", "item Take Away 2×0.20 = 0.40 SR"], "\(got)")
        #expect(check == .subtotal)
        let (kept, unproven) = read("12.40")
        #expect(kept == ["item Green Tea 2×1.50 = 3.00 SR", "item Katsu Sauce = 9.00 SR"], "\(kept)")
        #expect(unproven == .unproven)
    }

    /// A column heading OCR misread down to a third of its words ("Romi ClymaeeSiPriceme mount ea Tax") above the first
    /// amount is still a heading: the item's words are the ones below its numbers, not the heading.
    @Test func aHeadingMisreadToAThirdOfItsWordsAboveTheItems() {
        let (got, check) = items([
            "^SIMPLIFIED TAX INVOICE", "Doc No. : CS00011926 Date: 02/12/2017", "Cashier : USER Time: 08:44:00",
            "Romi ClymaeeSiPriceme mount ea Tax", "3122 1 29.68 | 29.68 SR", "(W33) 105MM/4' CUTTING DISC",
            "Total Sales (Inclusive of GST) : | RM 29.68", "CASH : | 29.68"
        ])
        #expect(got == ["item (W33) 105MM/4' CUTTING DISC 1×29.68 = 29.68 SR"], "\(got)")
        #expect(check == .total)
    }

    /// Letters OCR read for digits in the amount column ("RMLL.40", "RM6.8SS": 6.85 with its code S glued on) are read as
    /// the digits they stand for where the set then closes on the page's figures; where it does not, nothing is made of them.
    @Test func lettersReadForDigitsInTheAmountColumn() {
        func read(_ total: String) -> ([String], ItemsCheck?) {
            items([
                "^99 SPEED MART S/B", "INVOICE NO : 18028/103/T0269", "02:31PM 565497 10-05-17", "35S CRISPI ROLL 12 GRAIN | RM6.8SS",
                "9413 CS 1002 A5H/COVER NOT | RMLL.40 S", "Total Sales (Inclusive GST) | RM \(total)", "CASH | RM 52.00"
            ])
        }
        let (got, check) = read("18.25")
        #expect(got == ["item 35S CRISPI ROLL 12 GRAIN = 6.85 S", "item CS 1002 A5H/COVER NOT = 11.40 S"], "\(got)")
        #expect(check == .total)
        // Unproven: the line as the reader read it ("6.8" and a code "SS"), the unreadable one left out.
        let (asRead, unproven) = read("18.95")
        #expect(asRead == ["item 35S CRISPI ROLL 12 GRAIN = 6.80 SS"], "\(asRead)")
        #expect(unproven == .unproven)
    }

    /// The heading's second line of units misread into two short words ("(RM) (RM)" as "(RH) ie") above a numbers-only
    /// line is no name: the item's words are below its numbers.
    @Test func aHeadingsUnitLineMisreadIsNoName() {
        let (got, check) = items([
            "^SIMPLIFIED TAX INVOICE", "RECEIPT #: CSPN392398 DATE: 30/03/2017", "SALESPERSON : AH002 TIME: 16:44:00", "ITEM QTY U/P AMOUNT",
            "(RH) ie", "9552900000085 1 6.00 | 6.00", "BLACK CABLE TIES 3.6MM (100PCS)", "TOTAL QUANTITY 1", "SUB-TOTAL | 6.00",
            "TOTAL | RM 6.00"
        ])
        #expect(got == ["item BLACK CABLE TIES 3.6MM (100PCS) 1×6.00 = 6.00"], "\(got)")
        #expect(check == .subtotal || check == .total)
    }

    /// A subtotal whose label OCR misread ("SUB TO01.") under a single item repeats its amount: it ends the items and is
    /// their subtotal. A second article that merely costs the same ("SUBWAY COOKIE") is no subtotal.
    @Test func aMisreadSubtotalUnderOneItem() {
        let (got, check) = items([
            "^B-BEST RESTAURANT", "BIZDATE: 10/02/2017", "FISHBALL NOODLE | 7.00", "1 SUB TO01.: | 7.00", "GST 6% aan",
            "ROUNDING ADJ | -0.02", "NET TOTAL | RM 7.40"
        ])
        #expect(got == ["item FISHBALL NOODLE = 7.00"], "\(got)")
        #expect(check == .subtotal)
        let (two, unproven) = items([
            "^B-BEST RESTAURANT", "BIZDATE: 10/02/2017", "FISHBALL NOODLE | 7.00", "SUBWAY COOKIE | 7.00", "NET TOTAL | RM 14.90"
        ])
        #expect(two == ["item FISHBALL NOODLE = 7.00", "item SUBWAY COOKIE = 7.00"], "\(two)")
        #expect(unproven == .unproven)
    }

    /// "CAFE CREME 12.00 2 24.00": a quantity column between the unit price and the amount, kept where their product is the
    /// amount.
    @Test func aQuantityBetweenThePriceAndTheAmount() {
        let (got, check) = items(
            [
                "^RELAIS TOTAL OULMES", "Le 30/03/2018 a 12:36", "DESIGNATION PU QTE TOTAL", "CAFE CREME 12.00 2 | 24.00",
                "CHOCOLAT CHAUD 12.00 1 | 12.00", "Total Facture : | 36.00 EUR"
            ], language: "fra")
        #expect(got == ["item CAFE CREME 2×12.00 = 24.00", "item CHOCOLAT CHAUD 1×12.00 = 12.00"], "\(got)")
        #expect(check == .total)
    }

    /// A quote OCR glued to the subtotal's label ("Sub-Total‘") still ends the items: the subtotal and the coupon below it
    /// are no items.
    @Test func aLabelWithAMarkOCRGluedToItStillEndsTheItems() {
        let (got, check) = items([
            "^DOMINO'S PIZZA", "Order Time :17:57:32 Date :27/04/18", "Qty Menu Desc Price", "1 HAWAIIAN CHICKEN (XL) | 15.60",
            "Sub-Total\u{2018} : | RM 15.60", "Coupon Discount : | RM 8.40", "Grand Total : | RM 7.20"
        ])
        #expect(got == ["item HAWAIIAN CHICKEN (XL) = 15.60"])
        #expect(check == .subtotal)
    }
}

struct ItemRecordTests {
    static func record() -> DocumentRecord {
        var r = DocumentRecord(source: "a.jpg", folder: "", sha256: "00", status: .review)
        let eur = CurrencyCode("EUR")!
        r.currency = eur
        r.total = Money(minorUnits: 357, currency: eur)
        r.items = [
            LineItem(
                description: "Milch 3,5 %", quantity: "2", unitPrice: "1.19", amount: Money(minorUnits: 238, currency: eur), taxRate: "7",
                taxCode: "B", page: 1, line: 4, box: BoundingBox(left: 10, top: 120, right: 880, bottom: 150), source: .ocr),
            LineItem(kind: .deposit, description: "Pfand", amount: Money(minorUnits: 25, currency: eur), source: .ocr),
            LineItem(kind: .discount, description: "Rabatt", amount: Money(minorUnits: -50, currency: eur), source: .secondReader)
        ]
        r.itemsCheck = .total
        return r
    }

    @Test func itemsReadBackFromTheRecordsJSON() throws {
        let r = ItemRecordTests.record()
        let back = try JSONDecoder().decode(DocumentRecord.self, from: Data(r.jsonLine().utf8))
        #expect(back.items == r.items)
        #expect(back.itemsCheck == .total)
        #expect(r.jsonLine().contains(#""amount":"-0.50""#))
        // A record without items writes neither key: records read as before.
        var none = r
        none.items = []
        #expect(!none.jsonLine().contains("items"))
    }

    @Test func anItemAmountWithTooManyDecimalsIsRefused() {
        let bad = ItemRecordTests.record().jsonLine().replacingOccurrences(of: #""amount":"2.38""#, with: #""amount":"2.385""#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DocumentRecord.self, from: Data(bad.utf8)) }
    }

    @Test func aPersonCorrectsAnItemsAmountAndDescription() throws {
        let r = ItemRecordTests.record()
        let amount = try Review.edit(field: "item", value: "3 amount=-0.60", record: r, today: today).get()
        #expect(amount.logged == "3 amount=-0.60")
        #expect(amount.change(on: r).before == "3 amount=-0.50")
        let words = try Review.edit(field: "item", value: "1 description=Vollmilch 3,5 %", record: r, today: today).get()
        let after = Review.apply([amount, words], to: r)
        #expect(after.items[2].amount.minorUnits == -60)
        #expect(after.items[2].source == .person)
        #expect(after.items[0].description == "Vollmilch 3,5 %")
        #expect(after.itemsCheck == .person)
        // The log's text reads back as the same typed value.
        #expect(FieldValue(logged: "3 amount=-0.60", field: .item) == amount.value)
    }

    @Test(arguments: [
        ("9 amount=1.00", "has no item 9"), ("2 amount=1.005", "no amount in the record's currency"), ("2 price=1.00", "no item correction"),
        ("amount=1.00", "no item correction")
    ])
    func aWrongItemCorrectionIsRefusedWithItsReason(typed: String, reason: String) {
        switch Review.edit(field: "item", value: typed, record: ItemRecordTests.record(), today: today) {
        case .success: Issue.record("accepted \(typed)")
        case .failure(let e): #expect(e.message.contains(reason), "\(e.message)")
        }
    }
}
