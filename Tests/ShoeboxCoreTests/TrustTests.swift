import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement
@testable import ShoeboxParsing
@testable import ShoeboxReading

/// The merge policy and routing: every reason on the kind of document that earns it, the other sources
/// (sidecar, file name), alternates and provenance, and the review decisions applied to a suggestion.
struct TrustTests {
    let parser = ReceiptParser(today: today)
    let merger = RecordMerger(acceptThreshold: 0.6, requiredFields: [.merchant, .date, .total, .currency])
    let clean = ["REWE Markt GmbH", "Domstr. 20, 50668 Köln", "Datum 14.03.2026", "Brot 2,49", "Milch 1,19", "SUMME EUR 3,68"]

    func record(_ lines: [String], confidence: Double = 95, name: String = "a.jpg", other: OtherSources = OtherSources()) -> DocumentRecord {
        let source = SourceFile(path: "/x/\(name)", relativePath: name, folder: "", kind: .jpeg, sha256: "00", size: 1)
        return merger.merge(
            parser.parse(pages: [page(lines, confidence: confidence)], language: "deu"), source: source,
            language: LanguageGuess(language: "deu", confidence: 0.9), pages: 1, other: other)
    }

    @Test func aCleanReceiptIsAcceptedWithProvenance() {
        let r = record(clean)
        #expect(r.status == .accepted, "\(r.reasons)")
        #expect(r.reviewedBy == "pipeline")
        #expect(r.evidence[.total]?.source == .ocr)
        #expect(r.evidence[.total]?.line == 6)
        #expect(r.evidence[.total]?.text == "SUMME EUR 3,68")
        #expect(r.evidence[.date]?.text == "Datum 14.03.2026")
    }

    @Test func missingFieldsAreNamed() {
        let r = record(["REWE Markt GmbH", "Brot 2,49"])
        #expect(r.reasons.contains(.missing(.date)))
        let s = record(["REWE Markt GmbH", "Datum 14.03.2026", "Danke"])
        #expect(s.reasons.contains(.missing(.total)))
        #expect(s.status == .review)
    }

    @Test func arithmeticThatComputesAnotherTotalIsAMismatch() {
        // Tendered − change says 8.35; the total line says 7.90: one of them was misread.
        let r = record(["YAM FRESH SDN BHD", "Date: 2016-07-31", "Total RM7.90", "Cash RM10.50", "Change RM2.15"])
        #expect(r.reasons.contains(.arithmeticMismatch), "\(r.reasons)")
        #expect(r.alternates[.total]?.contains { $0.value == "8.35" && $0.source == .arithmetic } == true)
        // The same page with the change that fits: confirmed, no mismatch.
        let ok = record(["YAM FRESH SDN BHD", "Date: 2016-07-31", "Total RM7.90", "Cash RM10.00", "Change RM2.10"])
        #expect(!ok.reasons.contains(.arithmeticMismatch), "\(ok.reasons)")
    }

    @Test func aTotalReadWithLowConfidenceGoesToAPerson() {
        let r = record(clean, confidence: 50)
        #expect(r.reasons.contains(.lowOCRConfidence), "\(r.reasons)")
    }

    @Test func aDateThePageAlsoPrintsMisreadIsAmbiguous() {
        // The footer prints the same date again, misread into no date at all: the header's "16" may be
        // a misread "18" too (SROIE X51005719904), so a person looks.
        let r = record(["YAM FRESH SDN BHD", "Date: 2018-03-16 13:18:48", "Total RM7.90", "001-2918-03-18 13:21:02"])
        #expect(r.reasons == [.ambiguous(.date)], "\(r.reasons)")
        #expect(r.date?.iso == "2018-03-16")
        let month = record(["YAM FRESH SDN BHD", "Date: 17-06-18", "Total RM7.90", "17-66-18 12:56 SH01"])
        #expect(month.reasons.contains(.ambiguous(.date)), "\(month.reasons)")
        // A due date that reads as nothing is not the purchase date; times, amounts and IDs are no date shapes.
        let fine = record([
            "YAM FRESH SDN BHD", "Date: 17-06-18 12:56:01", "Total RM7.90", "Due date 31-02-18",
            "Invoice 17664/103/T0027", "Tel 03-7845-1234", "GST 12.50.00x"
        ])
        #expect(fine.status == .accepted, "\(fine.reasons)")
    }

    @Test func dateShapesThatReadAsNoDateAreFound() {
        func shapes(_ s: String) -> [String] { DateReader.unreadableDateShapes(in: s, order: .dayFirst, today: today) }
        #expect(shapes("001-2918-03-18 13:21:02") == ["2918-03-18"])
        #expect(shapes("17-66-13 12:56") == ["17-66-13"])
        #expect(shapes("32/13/2025") == ["32/13/2025"])
        #expect(shapes("Date: 17-06-13 12:56").isEmpty)
        #expect(shapes("12.50 3.20 1.5.2026").isEmpty)
        #expect(shapes("Tel 03-7845-1234 ref 12-34").isEmpty)
    }

    @Test func ambiguityInferredCurrencyAndNoPurchaseAreNamed() {
        // Two totals the rules cannot tell apart.
        var e = parser.parse(pages: [page(clean)], language: "deu")
        let best = e.amounts.filter { $0.role == .total }.max { $0.score < $1.score }!
        e.amounts.append(
            AmountCandidate(
                value: AmountReading(minorUnits: 386, fractionDigits: 2, currencyHint: "EUR"), role: .total,
                score: best.score, evidence: best.evidence, notes: ["keyword 'summe'"]))
        let source = SourceFile(path: "/x/a.jpg", relativePath: "a.jpg", folder: "", kind: .jpeg, sha256: "00", size: 1)
        let two = merger.merge(e, source: source, language: LanguageGuess(language: "deu", confidence: 0.9), pages: 1)
        #expect(two.reasons.contains(.ambiguous(.total)), "\(two.reasons)")
        let inferred = record(["Bäckerei Schmidt GmbH", "Datum 14.03.2026", "Summe 3,68"])
        #expect(inferred.reasons.contains(.currencyInferred), "\(inferred.reasons)")
        let quote = record(["Handwerker GmbH", "ANGEBOT", "Datum 14.03.2026", "Summe EUR 3,68"])
        #expect(quote.reasons.contains(.notAPurchase), "\(quote.reasons)")
        let dates = record(["SHOP SDN BHD", "05/03/2018", "06/03/2018", "TOTAL RM 10.00"])
        #expect(dates.reasons.contains(.ambiguous(.date)), "\(dates.reasons)")
    }

    @Test func aSidecarConfirmsFillsOrDisagreesButNeverOverrides() {
        var agree = Sidecar()
        agree.total = FieldInput.amount("3.68")
        let confirmed = record(clean, other: OtherSources(sidecar: agree))
        #expect(confirmed.status == .accepted)
        #expect(confirmed.evidence[.total]?.confirmedBy == [.sidecar])

        var disagree = Sidecar()
        disagree.total = FieldInput.amount("36.80")
        let r = record(clean, other: OtherSources(sidecar: disagree))
        #expect(r.total?.decimalString == "3.68", "the document's reading stays")
        #expect(r.reasons == [.sourcesDisagree])
        #expect(r.alternates[.total]?.first == Alternate(value: "36.80", confidence: 0.7, source: .sidecar, reason: "the sidecar says 36.80"))

        var fills = Sidecar()
        fills.date = CalendarDay(iso: "2026-03-14")
        let filled = record(["REWE Markt GmbH", "SUMME EUR 3,68"], other: OtherSources(sidecar: fills))
        #expect(filled.date?.iso == "2026-03-14")
        #expect(filled.evidence[.date]?.source == .sidecar)

        let invalid = Sidecar.parse(Array(#"{"total": "12,3x", "date": "2031-01-01", "colour": "red"}"#.utf8), today: today)
        #expect(invalid.total == nil && invalid.date == nil)
        #expect(invalid.problems.count == 3, "\(invalid.problems)")
        #expect(record(clean, other: OtherSources(sidecar: invalid)).reasons == [.sidecarInvalid])
        #expect(Sidecar.parse(Array("not json".utf8), today: today).problems == ["the sidecar is not a JSON object"])
        // The language the scan is written in: one of the codes Shoebox reads, else a named problem.
        let german = Sidecar.parse(Array(#"{"language": "deu"}"#.utf8), today: today)
        #expect(german.language == "deu" && german.problems.isEmpty)
        let named = Sidecar.parse(Array("{\n  \"total\": \"3,68\",\n  \"language\": \"German\"\n}".utf8), today: today)
        #expect(named.language == nil && named.total != nil)
        #expect(named.problems == ["'language' German (line 3) is not one of eng, deu, spa, fra, msa (Tesseract's language codes)"])
    }

    @Test func theDateInTheFileNameConfirmsOrIsAnAlternate() {
        #expect(OtherSources.date(inFileName: "trip/IMG_20260314_120301.jpg", today: today)?.iso == "2026-03-14")
        #expect(OtherSources.date(inFileName: "scan_2026-03-17_001.pdf", today: today)?.iso == "2026-03-17")
        #expect(OtherSources.date(inFileName: "2026_03_17 rewe.png", today: today)?.iso == "2026-03-17")
        #expect(OtherSources.date(inFileName: "scan_0007.png", today: today) == nil)
        #expect(OtherSources.date(inFileName: "X51005361895.jpg", today: today) == nil)
        #expect(OtherSources.date(inFileName: "IMG_20291231.jpg", today: today) == nil, "after today")
        let same = record(clean, other: OtherSources(fileNameDate: CalendarDay(iso: "2026-03-14")))
        #expect(same.evidence[.date]?.confirmedBy == [.filename])
        let other = record(clean, other: OtherSources(fileNameDate: CalendarDay(iso: "2026-03-20")))
        #expect(other.date?.iso == "2026-03-14")
        #expect(other.status == .accepted, "a photo taken later is no disagreement: \(other.reasons)")
        #expect(other.alternates[.date]?.contains { $0.value == "2026-03-20" && $0.source == .filename } == true)
        let only = record(["REWE Markt GmbH", "SUMME EUR 3,68"], other: OtherSources(fileNameDate: CalendarDay(iso: "2026-03-20")))
        #expect(only.date?.iso == "2026-03-20")
        #expect(only.reasons.contains(.lowConfidence(.date)))
    }

    @Test func typedValuesAreReadByTheParsersRules() {
        #expect(FieldInput.amount("23.45")?.minorUnits == 2345)
        #expect(FieldInput.amount("23,45")?.minorUnits == 2345)
        #expect(FieldInput.amount("1.234,56")?.minorUnits == 123456)
        #expect(FieldInput.amount("RM 12.50")?.minorUnits == 1250)
        #expect(FieldInput.amount("12.50 EUR")?.minorUnits == 1250)
        #expect(FieldInput.amount("9")?.minorUnits == 900)
        #expect(FieldInput.amount("12,3x") == nil)
        #expect(FieldInput.amount("abc") == nil)
        #expect(FieldInput.amount("12.50 and 3.00") == nil)
        #expect(FieldInput.date("2026-03-14", today: today)?.iso == "2026-03-14")
        #expect(FieldInput.date("14.03.2026", today: today)?.iso == "2026-03-14")
        #expect(FieldInput.date("2027-01-01", today: today) == nil)
        #expect(FieldInput.date("31.02.2026", today: today) == nil)
    }

    @Test func decisionsApplyToACopyOfTheSuggestion() {
        let suggestion = record(["REWE Markt GmbH", "Datum 14.03.2026", "SUMME EUR 3,68"], confidence: 50)
        #expect(suggestion.status == .review)
        guard case .success(let v) = Review.validate(field: "total", value: "3,86", record: suggestion, today: today) else {
            Issue.record("3,86 must validate")
            return
        }
        let confirmed = Review.apply([.edit(.total, v), ReviewDecision(action: .accept)], to: suggestion)
        #expect(confirmed.total?.decimalString == "3.86")
        #expect(confirmed.status == .accepted && confirmed.reviewedBy == "person")
        #expect(confirmed.evidence[.total]?.source == .person)
        #expect(suggestion.total?.decimalString == "3.68", "the suggestion is a value: unchanged")
        #expect(Review.apply([ReviewDecision(action: .reject)], to: suggestion).status == .rejected)
        if case .success = Review.validate(field: "total", value: "12,3x", record: suggestion, today: today) { Issue.record("12,3x must be refused") }
        let agreement = Review.agreement([(suggestion, confirmed)], fields: ["total", "date"])
        #expect(agreement["total"]! == (0, 1))
        #expect(agreement["date"]! == (1, 1))
    }
}

struct DuplicateRulesTests {
    func record(_ source: String, merchant: String, total: String, date: String, reference: String? = nil) -> DocumentRecord {
        var r = DocumentRecord(source: source, folder: "", sha256: source, status: .accepted)
        r.merchant = merchant
        r.merchantNormalized = ReceiptParser.normalizedMerchant(merchant)
        r.currency = .eur
        r.total = Money(decimal: total, currency: .eur)
        r.date = CalendarDay(iso: date)
        r.referenceNumber = reference
        return r
    }

    @Test func onePaymentSeenTwiceOnScreensIsOneAndLookalikeScreensAreNot() {
        let rules = DuplicateRules(windowHours: 48)
        func screen(_ source: String, _ merchant: String, _ total: String, reference: String?) -> DocumentRecord {
            var r = record(source, merchant: merchant, total: total, date: "2026-11-15", reference: reference)
            r.payment = PaymentScreen(purpose: .payment, provider: "Touch 'n Go eWallet")
            return r
        }
        let paid = DuplicateRules.Entry(screen("p/a.png", "KEDAI KOPI MAJU", "23.50", reference: "2611151405230017"), firstPageText: "9:41\n14:05")
        // The history entry of the same payment: the same reference and amount.
        let history = DuplicateRules.Entry(screen("p/b.png", "KEDAI KOPI MAJU", "23.50", reference: "2611151405230017"), firstPageText: "10:02")
        #expect(rules.match(history, in: [paid])?.source == "p/a.png")
        // No reference: the same payee and amount at times within minutes is one; hours apart, two coffees.
        let shared = DuplicateRules.Entry(screen("p/c.png", "KEDAI KOPI MAJU", "23.50", reference: nil), firstPageText: "9:44 14:05")
        #expect(rules.match(shared, in: [paid])?.source == "p/a.png")
        let later = DuplicateRules.Entry(screen("p/d.png", "KEDAI KOPI MAJU", "23.50", reference: nil), firstPageText: "17:30 17:31")
        #expect(rules.match(later, in: [paid]) == nil)
        // Another payee on a screen of the same app (same image, same status bar): none.
        let other = DuplicateRules.Entry(screen("p/e.png", "PASAR MINI", "45.00", reference: "MB2610211944000123"), firstPageText: "9:41\n14:05")
        #expect(rules.match(other, in: [paid]) == nil)
        // The shop's paper receipt of the same purchase: a possible duplicate as two receipts are, by merchant and total
        // within the window, whatever times, numbers and references each prints.
        let paper = DuplicateRules.Entry(
            record("p/receipt.jpg", merchant: "Kedai Kopi Maju", total: "23.50", date: "2026-11-16", reference: "INV-0042"), firstPageText: "13:58")
        #expect(rules.match(paper, in: [paid])?.why == "the same merchant and total within 2 days (a payment screen and a receipt)")
        #expect(rules.match(paid, in: [paper])?.source == "p/receipt.jpg")
        let otherTotal = DuplicateRules.Entry(
            record("p/receipt2.jpg", merchant: "Kedai Kopi Maju", total: "32.50", date: "2026-11-15", reference: "2611151405230017"))
        #expect(rules.match(otherTotal, in: [paid]) == nil)
    }

    @Test func theSamePurchaseIsSuspectedAndOtherPurchasesAreNot() {
        let rules = DuplicateRules(windowHours: 48)
        let first = DuplicateRules.Entry(record("a/1.jpg", merchant: "REWE Markt GmbH", total: "23.45", date: "2026-03-14", reference: "4711"))
        // Same reference number from the same merchant, the total not read.
        var unread = record("b/2.jpg", merchant: "REWE MARKT GMBH.", total: "23.54", date: "2026-03-14", reference: "47-11")
        unread.total = nil
        let sameRef = DuplicateRules.Entry(unread)
        #expect(rules.match(sameRef, in: [first])?.source == "a/1.jpg")
        #expect(rules.match(sameRef, in: [first])?.why == "the same reference number from the same merchant")
        // The same reference number with another total is another purchase (`DuplicateClaimTests`).
        #expect(
            rules.match(
                DuplicateRules.Entry(record("b/2.jpg", merchant: "REWE MARKT GMBH.", total: "23.54", date: "2026-03-14", reference: "47-11")),
                in: [first])
                == nil)
        // Same merchant and total, two days later: inside 48 hours counted as two days either way.
        let twoDays = DuplicateRules.Entry(record("b/3.jpg", merchant: "REWE Markt GmbH", total: "23.45", date: "2026-03-16"))
        #expect(rules.match(twoDays, in: [first])?.why == "the same merchant and total within 2 days")
        // Not suspects: three days later; another total; another merchant; the same record itself.
        #expect(
            rules.match(DuplicateRules.Entry(record("b/4.jpg", merchant: "REWE Markt GmbH", total: "23.45", date: "2026-03-17")), in: [first]) == nil)
        #expect(
            rules.match(DuplicateRules.Entry(record("b/5.jpg", merchant: "REWE Markt GmbH", total: "23.46", date: "2026-03-14")), in: [first]) == nil)
        #expect(rules.match(DuplicateRules.Entry(record("b/6.jpg", merchant: "Aldi GmbH", total: "23.45", date: "2026-03-14")), in: [first]) == nil)
        #expect(rules.match(first, in: [first]) == nil)
        // The window is configurable.
        #expect(DuplicateRules(windowHours: 0).match(twoDays, in: [first]) == nil)
        #expect(DuplicateRules(windowHours: 72).windowDays == 3)
    }

    @Test func aCloseImageIsTheSamePaperUnlessDateOrTotalSayOtherwise() {
        let rules = DuplicateRules(windowHours: 48)
        let print = PageFingerprint(aspect: 100, whole: [1, 2, 3, 4], lower: [5, 6, 7, 8])
        let near = PageFingerprint(aspect: 100, whole: [1, 2, 3, 5], lower: [5, 6, 7, 8])
        let a = DuplicateRules.Entry(record("a/1.jpg", merchant: "UNIHAKKA", total: "8.70", date: "2018-05-02"), fingerprint: print)
        // Merchant read differently (OCR), same date and total, same image: the same paper.
        let rescan = DuplicateRules.Entry(record("b/1.jpg", merchant: "UNIHAKKA INTL", total: "8.70", date: "2018-05-02"), fingerprint: near)
        #expect(rules.match(rescan, in: [a])?.why == "the same page image")
        // Another slip of the same shop, same layout, another day: not a duplicate.
        let other = DuplicateRules.Entry(record("b/2.jpg", merchant: "UNIHAKKA INTL", total: "8.70", date: "2018-05-09"), fingerprint: near)
        #expect(rules.match(other, in: [a]) == nil)
        // Another total read is another purchase as far as the image tells: only the image and the printed numbers
        // together say a misread (`same-paper-reads-differently`, `DuplicateClaimTests`).
        let otherTotal = DuplicateRules.Entry(record("b/3.jpg", merchant: "UNIHAKKA INTL", total: "9.10", date: "2018-05-02"), fingerprint: near)
        #expect(rules.match(otherTotal, in: [a]) == nil)
    }

    @Test func thePrintedNumbersFindACroppedRescanAndTellOtherPurchasesApart() {
        let rules = DuplicateRules(windowHours: 48)
        let page = [
            "UNIHAKKA INTERNATIONAL SDN BHD", "Tel 07-555 1234  GST 001234567890", "Date 02/05/2018 13:18:48",
            "Doc No CS00412887", "NASI LEMAK 6.30", "TEH O 2.40", "TOTAL RM 8.70", "CASH 10.00 CHANGE 1.30"
        ].joined(separator: "\n")
        #expect(DuplicateRules.printedNumbers(in: "Date 02/05/2018 13:18:48 RM8.70 No 7") == ["02052018", "131848", "RM870"])
        let a = DuplicateRules.Entry(record("a/1.jpg", merchant: "UNIHAKKA", total: "8.70", date: "2018-05-02"), firstPageText: page)
        // Cropped and tilted: the image no longer matches, the merchant was read otherwise, the edge of the page
        // lost a few numbers; the numbers that are left are the same paper.
        let cropped = page.replacingOccurrences(of: "Tel 07-555 1234  ", with: "")
        let b = DuplicateRules.Entry(record("b/1.jpg", merchant: "UNIHAKKA INTL", total: "8.70", date: "2018-05-02"), firstPageText: cropped)
        #expect(rules.match(b, in: [a])?.why == "the same printed numbers")
        // The numbers alone do not outweigh another total read: without the image, that is another purchase.
        let misread = DuplicateRules.Entry(
            record("b/1.jpg", merchant: "UNIHAKKA INTL", total: "3.70", date: "2018-05-02"),
            firstPageText: cropped.replacingOccurrences(of: "8.70", with: "3.70"))
        #expect(rules.match(misread, in: [a]) == nil)
        // The same purchase a week later: same shop, items and total, another time, number and date.
        let later = page.replacingOccurrences(of: "02/05/2018 13:18:48", with: "09/05/2018 12:02:11")
            .replacingOccurrences(of: "CS00412887", with: "CS00413501")
        let c = DuplicateRules.Entry(record("b/2.jpg", merchant: "UNIHAKKA", total: "8.70", date: "2018-05-09"), firstPageText: later)
        #expect(rules.match(c, in: [a]) == nil)
        // Two pages that look alike but print other numbers are not the same paper.
        let print = PageFingerprint(aspect: 100, whole: [1, 2, 3, 4], lower: [5, 6, 7, 8])
        let other = "SHOP 11 22\nNO 9981 12.00\n5.50 17.50\n2018 0099\nTEL 55 66"
        let x = DuplicateRules.Entry(
            record("a/1.jpg", merchant: "UNIHAKKA", total: "8.70", date: "2018-05-02"), fingerprint: print, firstPageText: page)
        let y = DuplicateRules.Entry(
            record("b/3.jpg", merchant: "KEDAI", total: "17.50", date: "2018-05-02"), fingerprint: print, firstPageText: other)
        #expect(rules.match(y, in: [x]) == nil)
        #expect(
            rules.match(
                DuplicateRules.Entry(record("b/3.jpg", merchant: "UNIHAKKA", total: "8.70", date: "2018-05-02"), fingerprint: print), in: [x])?
                .why
                == "the same page image", "without text to compare, the image decides")
    }

    @Test func dayNumbersCountCalendarDays() {
        #expect(CalendarDay(iso: "1970-01-01")!.dayNumber == 0)
        #expect(CalendarDay(iso: "2024-03-01")!.daysSince(CalendarDay(iso: "2024-02-28")!) == 2)
        #expect(CalendarDay(iso: "2026-01-01")!.daysSince(CalendarDay(iso: "2025-12-31")!) == 1)
    }
}
