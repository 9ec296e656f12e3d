import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement
@testable import ShoeboxParsing

/// Issue 34, part 3: a possible duplicate is a claim about the same purchase. Another total, another day or another
/// seller is another purchase, unless the page image and the printed numbers both say the same paper (then the
/// readings disagree: `same-paper-reads-differently`); an e-invoice is a duplicate when seller, number and total
/// agree, and a reissue (`e-invoice-reissued`) when only the total differs.
struct DuplicateClaimTests {
    let rules = DuplicateRules(windowHours: 48)
    /// Two fingerprints within `PageFingerprint.sameThreshold`: the layout of one shop, or one paper scanned twice.
    let print = PageFingerprint(aspect: 100, whole: [1, 2, 3, 4], lower: [5, 6, 7, 8])
    let near = PageFingerprint(aspect: 100, whole: [1, 2, 3, 5], lower: [5, 6, 7, 8])
    /// A receipt's first page, as the two same-paper tests read it.
    static let receiptPage = [
        "UNIHAKKA INTERNATIONAL SDN BHD", "Tel 07-555 1234  GST 001234567890", "Date 02/05/2018 13:18:48",
        "Doc No CS00412887", "NASI LEMAK 6.30", "TEH O 2.40", "TOTAL RM 8.70", "CASH 10.00 CHANGE 1.30"
    ].joined(separator: "\n")
    /// The first scan of that receipt.
    var original: DuplicateRules.Entry {
        DuplicateRules.Entry(
            record("a/1.jpg", merchant: "UNIHAKKA INTERNATIONAL SDN BHD", total: "8.70", date: "2018-05-02"), fingerprint: print,
            firstPageText: DuplicateClaimTests.receiptPage)
    }

    func record(
        _ source: String, merchant: String, total: String?, date: String?, reference: String? = nil, taxID: String? = nil, eInvoice: Bool = false
    ) -> DocumentRecord {
        var r = DocumentRecord(source: source, folder: "", sha256: source, status: .accepted)
        r.merchant = merchant
        r.merchantNormalized = ReceiptParser.normalizedMerchant(merchant)
        r.currency = .eur
        r.total = total.flatMap { Money(decimal: $0, currency: .eur) }
        r.date = date.flatMap { CalendarDay(iso: $0) }
        r.referenceNumber = reference
        r.sellerTaxID = taxID
        if eInvoice {
            var e = EInvoice(syntax: .cii)
            e.number = reference
            e.seller.name = merchant
            e.seller.vatID = taxID
            r.eInvoice = e
        }
        return r
    }

    /// A hardware shop's slip: its own numbers (phone, tax number, address) and the purchase's (time, slip number, items).
    func slip(time: String, number: String, items: [String], total: String) -> String {
        ([
            "SYARIKAT PERNIAGAAN GIN KEE", "NO 290 JALAN AIR PANAS", "TEL 03-40210276", "GST ID 000750673920", "DATE 02/01/2018 \(time)",
            "DOC \(number)"
        ]
            + items + ["TOTAL \(total)", "CASH \(total)"]).joined(separator: "\n")
    }

    @Test func differentTotalsFromOneShopOnOneDayAreTwoPurchases() {
        // Two slips of one shop on one day: the same layout (the images as close as a re-scan), the shop's own
        // numbers in common, another time, slip number, items and total.
        let a = DuplicateRules.Entry(
            record("s/1.jpg", merchant: "SYARIKAT PERNIAGAAN GIN KEE", total: "13.25", date: "2018-01-02"), fingerprint: print,
            firstPageText: slip(time: "10:12:33", number: "CS24932", items: ["NAIL 3 INCH 1.50 3.00", "HINGE 4 PCS 10.25"], total: "13.25"))
        let b = DuplicateRules.Entry(
            record("s/2.jpg", merchant: "SYARIKAT PERNIAGAAN GIN KEE", total: "2.12", date: "2018-01-02"), fingerprint: near,
            firstPageText: slip(time: "15:40:02", number: "CS24957", items: ["TAPE 18MM 2.12"], total: "2.12"))
        #expect(DuplicateRules.numbersShare(a, b)! >= DuplicateRules.sameNumbersShare, "the shop's own numbers and the day are shared")
        #expect(DuplicateRules.timesDiffer(a.times, b.times), "10:12 and 15:40 are two receipts")
        #expect(rules.match(b, in: [a]) == nil, "another total on the same day is another purchase")
        // Without text, the image alone as close as a re-scan: another total is another purchase.
        let imageOnly = DuplicateRules.Entry(
            record("s/2.jpg", merchant: "SYARIKAT PERNIAGAAN GIN KEE", total: "2.12", date: "2018-01-02"), fingerprint: near)
        #expect(
            rules.match(
                imageOnly,
                in: [
                    DuplicateRules.Entry(
                        record(
                            "s/1.jpg", merchant: "SYARIKAT PERNIAGAAN GIN KEE", total: "13.25",
                            date: "2018-01-02"), fingerprint: print)
                ]) == nil)
        // Without text or image, the same merchant and day with another total is not a suspect either.
        let c = DuplicateRules.Entry(record("s/3.jpg", merchant: "SYARIKAT PERNIAGAAN GIN KEE", total: "21.20", date: "2018-01-02", reference: "CS1"))
        let d = DuplicateRules.Entry(record("s/4.jpg", merchant: "SYARIKAT PERNIAGAAN GIN KEE", total: "39.75", date: "2018-01-02", reference: "CS1"))
        #expect(rules.match(d, in: [c]) == nil, "a shared reference number with another total is another purchase")
    }

    @Test func differentDaysWithTheSameTotalAreTwoPurchases() {
        // The same canteen meal a week apart, each slip numbered from 0001 every day: the same merchant, total and
        // reference number, the same layout; another day.
        let a = DuplicateRules.Entry(
            record("u/1.jpg", merchant: "UNIHAKKA INTERNATIONAL SDN BHD", total: "8.20", date: "2018-04-11", reference: "0001"), fingerprint: print)
        let b = DuplicateRules.Entry(
            record("u/2.jpg", merchant: "UNIHAKKA INTERNATIONAL SDN BHD", total: "8.20", date: "2018-04-18", reference: "0001"), fingerprint: near)
        #expect(rules.match(b, in: [a]) == nil, "another day (outside the window) is another purchase")
        // Within the window the same merchant and total are still a suspect: a day read a day off is a misread.
        let c = DuplicateRules.Entry(record("u/3.jpg", merchant: "UNIHAKKA INTERNATIONAL SDN BHD", total: "8.20", date: "2018-04-12"))
        #expect(rules.match(c, in: [a])?.why == "the same merchant and total within 2 days")
        #expect(rules.match(c, in: [a])?.reason == .possibleDuplicate)
    }

    @Test func eInvoicesOfDifferentSellersWithOneNumberAreNotDuplicates() {
        // Sample invoices of two sellers: one generator's layout (the images alike), the sample number 471102, the
        // same date and total, and most printed numbers in common (the generator's sample addresses and bank).
        let page = "Rechnung 471102\nDatum 30.05.2026\nIBAN DE02120300000000202051\nNetto 1500.00\nUSt 285.00\nBrutto 1785.00\nPLZ 12345"
        let a = DuplicateRules.Entry(
            record(
                "z/hardware.pdf", merchant: "Musterbetrieb Systemhaus AG", total: "1785.00", date: "2026-05-30", reference: "471102",
                taxID: "DE123456789", eInvoice: true), fingerprint: print, firstPageText: page)
        let b = DuplicateRules.Entry(
            record(
                "z/kaffee.pdf", merchant: "Musterbetrieb Kaffee AG", total: "1785.00", date: "2026-05-30", reference: "471102",
                taxID: "DE987654321", eInvoice: true), fingerprint: near, firstPageText: page)
        #expect(rules.match(b, in: [a]) == nil, "another seller is never the same invoice")
        // The same without tax IDs: the names decide, exactly.
        let c = DuplicateRules.Entry(
            record("z/kaffee.xml", merchant: "Musterbetrieb Kaffee AG", total: "1785.00", date: "2026-05-30", reference: "471102", eInvoice: true))
        let d = DuplicateRules.Entry(
            record(
                "z/hardware.xml", merchant: "Musterbetrieb Systemhaus AG", total: "1785.00", date: "2026-05-30", reference: "471102", eInvoice: true))
        #expect(rules.match(d, in: [c]) == nil)
        // One seller, two invoice numbers, one day and total, one layout: two invoices.
        let e = DuplicateRules.Entry(
            record(
                "z/F20220024.pdf", merchant: "LE FOURNISSEUR", total: "108.00", date: "2022-01-31", reference: "F20220024", taxID: "FR11123456782",
                eInvoice: true), fingerprint: near, firstPageText: page)
        let f = DuplicateRules.Entry(
            record(
                "z/F20220023.pdf", merchant: "LE FOURNISSEUR", total: "108.00", date: "2022-01-31", reference: "F20220023", taxID: "FR11123456782",
                eInvoice: true), fingerprint: print, firstPageText: page)
        #expect(rules.match(e, in: [f]) == nil, "another invoice number of one seller is another invoice")
    }

    @Test func theSameSellerAndNumberWithAnotherTotalIsAReissue() {
        let first = DuplicateRules.Entry(
            record(
                "z/R-100.xml", merchant: "Kiosk am Eck", total: "119.00", date: "2026-11-01", reference: "R-100", taxID: "DE111222333", eInvoice: true
            ))
        // The same invoice again (a PDF of it, the seller's name written otherwise, its tax ID the same): a duplicate.
        let again = DuplicateRules.Entry(
            record(
                "z/R-100.pdf", merchant: "Kiosk am Eck GmbH", total: "119.00", date: "2026-11-01", reference: "R 100", taxID: "DE 111 222 333",
                eInvoice: true))
        let same = rules.match(again, in: [first])
        #expect(same == DuplicateRules.Suspect(source: "z/R-100.xml", why: "the same seller, invoice number and total", reason: .possibleDuplicate))
        // Another total under the same number, a week later: corrected or reissued; its own reason, naming the other.
        let corrected = DuplicateRules.Entry(
            record(
                "z/R-100-korr.xml", merchant: "Kiosk am Eck", total: "238.00", date: "2026-11-08", reference: "R-100", taxID: "DE111222333",
                eInvoice: true))
        let reissue = rules.match(corrected, in: [first])
        #expect(reissue?.reason == .eInvoiceReissued)
        #expect(reissue?.source == "z/R-100.xml")
        #expect(
            reissue?.sentence(for: "z/R-100-korr.xml")
                == "z/R-100-korr.xml has the same seller and invoice number as z/R-100.xml with another total: a correction or reissue; "
                + "check which one to keep")
        // A true duplicate among the earlier records is named before a reissue.
        #expect(
            rules.match(
                corrected,
                in: [
                    first,
                    DuplicateRules.Entry(
                        record(
                            "z/copy.xml", merchant: "Kiosk am Eck", total: "238.00",
                            date: "2026-11-08", reference: "R-100", taxID: "DE111222333", eInvoice: true))
                ])?.source == "z/copy.xml")
    }

    @Test func theSamePaperScannedAgainIsStillFound() {
        let page = DuplicateClaimTests.receiptPage
        let a = original
        // Re-scanned: the image within the threshold, the shop's name read shorter, the values the same.
        let rescan = DuplicateRules.Entry(
            record("b/1.jpg", merchant: "UNIHAKKA INTL", total: "8.70", date: "2018-05-02"), fingerprint: near, firstPageText: page)
        #expect(rules.match(rescan, in: [a]) == DuplicateRules.Suspect(source: "a/1.jpg", why: "the same page image", reason: .possibleDuplicate))
        // Cropped: no image match, the numbers left are the same, the total not read at all.
        let cropped = DuplicateRules.Entry(
            record("b/2.jpg", merchant: "UNIHAKKA INTERNATIONAL", total: nil, date: "2018-05-02"),
            firstPageText: page.replacingOccurrences(of: "Tel 07-555 1234  ", with: ""))
        #expect(rules.match(cropped, in: [a])?.why == "the same printed numbers")
        // A name OCR misread a letter of is still the same seller.
        let misspelt = DuplicateRules.Entry(
            record("b/3.jpg", merchant: "UN1HAKKA INTERNATI0NAL", total: "8.70", date: "2018-05-02"), fingerprint: near)
        #expect(rules.match(misspelt, in: [a])?.reason == .possibleDuplicate)
        #expect(!DuplicateRules.sellersDiffer(misspelt, a))
        // The currency inferred otherwise (the page prints "$"), the time's last digit misread: the same total and time.
        var dollars = record("b/4.jpg", merchant: "UNIHAKKA INTERNATIONAL SDN BHD", total: nil, date: "2018-05-02")
        dollars.total = Money(decimal: "8.70", currency: .usd)
        let misreadTime = DuplicateRules.Entry(dollars, fingerprint: near, firstPageText: page.replacingOccurrences(of: "13:18:48", with: "13:16:48"))
        #expect(rules.match(misreadTime, in: [a])?.why == "the same page image")
    }

    @Test func timesOfDayAreReadFromThePage() {
        #expect(DuplicateRules.printedTimes(in: "Date 02/05/2018 13:18:48") == ["1318"])
        #expect(DuplicateRules.printedTimes(in: "9:05 PM, TOTAL 13.25, TEL 03-4021") == ["0905"])
        #expect(DuplicateRules.printedTimes(in: "Open 08:00-22:00\n25:10 12:75 123:45") == ["0800", "2200"])
        #expect(!DuplicateRules.timesDiffer(["2126"], ["2128"]), "one digit read otherwise")
        #expect(DuplicateRules.timesDiffer(["1842"], ["1321"]))
        #expect(!DuplicateRules.timesDiffer([], ["1321"]), "a page that prints no time says nothing")
    }

    @Test func theSamePaperWithAMisreadTotalIsItsOwnReason() {
        let page = DuplicateClaimTests.receiptPage
        let a = original
        // The re-scan's total read 3.70: the image and the printed numbers both say the same paper.
        let misread = DuplicateRules.Entry(
            record("b/1.jpg", merchant: "UNIHAKKA INTERNATIONAL SDN BHD", total: "3.70", date: "2018-05-02"), fingerprint: near,
            firstPageText: page.replacingOccurrences(of: "RM 8.70", with: "RM 3.70"))
        let found = rules.match(misread, in: [a])
        #expect(found?.reason == .samePaperReadsDifferently)
        #expect(found?.source == "a/1.jpg")
        #expect(found?.why == "the same page image and printed numbers, another total read")
        #expect(
            found?.sentence(for: "b/1.jpg")
                == "b/1.jpg may be a/1.jpg scanned again, read otherwise: the same page image and printed numbers, another total read; "
                + "check which reading is right")
        // Another day read too: two values read otherwise on a slip of the same layout are more often another purchase.
        let twice = DuplicateRules.Entry(
            record("b/2.jpg", merchant: "UNIHAKKA INTERNATIONAL SDN BHD", total: "3.70", date: "2018-05-03"), fingerprint: near, firstPageText: page)
        #expect(rules.match(twice, in: [a]) == nil)
        // The seller read otherwise (the customer's name printed larger than the shop's): the reason names the seller.
        let seller = DuplicateRules.Entry(
            record("b/5.jpg", merchant: "MAKASSAR FRESH MARKET", total: "8.70", date: "2018-05-02"), fingerprint: near, firstPageText: page)
        #expect(rules.match(seller, in: [a])?.why == "the same page image and printed numbers, another seller read")
        // The image alone, or the numbers alone, do not say it.
        #expect(
            rules.match(DuplicateRules.Entry(record("b/3.jpg", merchant: "UNIHAKKA", total: "3.70", date: "2018-05-02"), fingerprint: near), in: [a])
                == nil)
        #expect(
            rules.match(
                DuplicateRules.Entry(record("b/4.jpg", merchant: "UNIHAKKA", total: "3.70", date: "2018-05-02"), firstPageText: page), in: [a]) == nil
        )
    }

    @Test func theNewReasonsAreCodesThatReviewClearsAndNames() {
        #expect(ReviewReason(code: "same-paper-reads-differently") == .samePaperReadsDifferently)
        #expect(ReviewReason(code: "e-invoice-reissued") == .eInvoiceReissued)
        if case .other = ReviewReason(code: "e-invoice-reissued") { Issue.record("e-invoice-reissued is a reason of its own") }
        #expect(RecordMerger.addedAfterMerge(.samePaperReadsDifferently) && RecordMerger.addedAfterMerge(.eInvoiceReissued))
        // "Not a duplicate" clears whichever reason named the other record.
        for reason in [ReviewReason.possibleDuplicate, .samePaperReadsDifferently, .eInvoiceReissued] {
            var r = record("b/1.jpg", merchant: "Kiosk", total: "1.00", date: "2026-11-01")
            r.status = .review
            r.reasons = [reason, .currencyInferred]
            r.duplicateOf = "a/1.jpg"
            let denied = Review.apply([ReviewDecision(action: .notDuplicate)], to: r)
            #expect(denied.reasons == [.currencyInferred], "\(reason)")
            #expect(denied.duplicateOf == nil)
        }
        #expect(DuplicateRules.naming("a/1.xml", reasons: [.eInvoiceReissued]) == "the same seller and invoice number as a/1.xml, another total")
        #expect(DuplicateRules.naming("a/1.jpg", reasons: [.samePaperReadsDifferently]) == "the same paper as a/1.jpg, read otherwise")
        #expect(DuplicateRules.naming("a/1.jpg", reasons: [.possibleDuplicate]) == "possible duplicate of a/1.jpg")
    }
}
