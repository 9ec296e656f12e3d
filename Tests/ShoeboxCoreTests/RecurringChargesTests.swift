import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement

/// Recurring charges on synthetic charges: the four cadences with drift, month-end clamping and a price change;
/// busy shops that are no series; cancellations; the burn and totals in minor units; currencies kept apart; and the
/// name typed for `--cancel`.
struct RecurringChargesTests {
    static func day(_ iso: String) -> CalendarDay { CalendarDay(iso: iso)! }

    static func money(_ decimal: String, _ currency: String = "EUR") -> Money { Money(decimal: decimal, currency: CurrencyCode(currency)!)! }

    /// Charges named by their day: "<merchant>-<day>.pdf".
    static func charges(_ merchant: String, _ amount: String, _ days: [String], currency: String = "EUR", paymentMethod: String? = nil) -> [Charge] {
        days.map {
            Charge(source: "\(merchant)-\($0).pdf", merchant: merchant, day: day($0), amount: money(amount, currency), paymentMethod: paymentMethod)
        }
    }

    static func find(_ charges: [Charge], cancellations: [Cancellation] = [], today: String) -> [Series] {
        RecurringCharges.find(charges, cancellations: cancellations, today: day(today))
    }

    @Test func aYearOfMonthlyChargesWithDriftAndAPriceRiseIsOneSeriesDueOnTheUsualDay() throws {
        // Billed on the 31st, clamped to the month's end, booked up to two days late or early; 12.99 → 15.49 in July.
        let before = Self.charges("NETFLIX.COM", "12.99", ["2025-01-31", "2025-03-02", "2025-03-31", "2025-04-30", "2025-06-02", "2025-06-30"])
        let after = Self.charges("Netflix.com", "15.49", ["2025-07-31", "2025-08-29", "2025-09-30", "2025-10-31", "2025-12-01", "2025-12-31"])
        // A gift card bought in the same shop on an irregular day: another purchase, not a charge of the series.
        let giftCard = Self.charges("NETFLIX.COM", "50.00", ["2025-05-15"])
        let found = Self.find(before + giftCard + after, today: "2026-01-10")
        #expect(found.count == 1)
        let s = try #require(found.first)
        #expect(s.cadence == .monthly && s.status == .active && s.merchant == "Netflix.com")
        #expect(s.history.map(\.source) == (before + after).map(\.source))
        #expect(s.amount == Self.money("15.49") && s.currency == CurrencyCode("EUR"))
        #expect(s.amountChanges == [Series.AmountChange(day: Self.day("2025-07-31"), from: Self.money("12.99"), to: Self.money("15.49"))])
        #expect(s.firstCharge == Self.day("2025-01-31") && s.lastCharge == Self.day("2025-12-31"))
        #expect(s.nextExpected == Self.day("2026-01-31"))
        #expect(s.cancelledOn == nil && s.chargesAfterCancellation.isEmpty)
    }

    @Test func aLastingPriceChangeJoinsAOneOffOnADueDayDoesNot() throws {
        // A 1.00 trial month, then the full price: the second due day confirms the new amount.
        let trial = Self.charges("Audible", "1.00", ["2025-01-10"]) + Self.charges("Audible", "9.95", ["2025-02-10", "2025-03-11", "2025-04-10"])
        let s = try #require(Self.find(trial, today: "2025-04-20").only)
        #expect(s.history.map(\.source) == trial.map(\.source))
        #expect(s.amountChanges.map(\.to) == [Self.money("9.95")])
        // A gift card bought on a due day whose own charge's receipt is lost: 9.95 comes back the month after, so
        // the gift card is another purchase and the due day counts as missed.
        let giftCard =
            Self.charges("Audible", "9.95", ["2025-01-10", "2025-02-10"]) + Self.charges("Audible", "50.00", ["2025-03-10"])
            + Self.charges("Audible", "9.95", ["2025-04-10", "2025-05-10"])
        let t = try #require(Self.find(giftCard, today: "2025-05-20").only)
        #expect(t.history.map(\.day.iso) == ["2025-01-10", "2025-02-10", "2025-04-10", "2025-05-10"])
        #expect(t.amountChanges.isEmpty)
    }

    @Test func aSeriesOnThe31stIsDueOnTheLastDayOfShorterMonths() throws {
        let common = Self.find(Self.charges("Rent", "950.00", ["2025-10-31", "2025-11-30", "2025-12-31", "2026-01-31"]), today: "2026-02-05")
        #expect(common.map(\.nextExpected) == [Self.day("2026-02-28")])
        let leap = Self.find(Self.charges("Rent", "950.00", ["2027-10-31", "2027-11-30", "2027-12-31", "2028-01-31"]), today: "2028-02-05")
        #expect(leap.map(\.nextExpected) == [Self.day("2028-02-29")])
        // After February's clamped day the series is due on the 31st again, not on the 28th.
        let march = Self.find(Self.charges("Rent", "950.00", ["2025-12-31", "2026-01-31", "2026-02-28"]), today: "2026-03-05")
        #expect(march.map(\.nextExpected) == [Self.day("2026-03-31")])
        // Billed on the 31st and booked a day later: still due in the month it bills, not on the 1st of it.
        let booked = Self.find(Self.charges("Rent", "950.00", ["2025-10-31", "2025-12-01", "2026-01-01", "2026-02-01"]), today: "2026-02-05")
        #expect(booked.map(\.nextExpected) == [Self.day("2026-02-28")])
    }

    @Test func weeklyWithADayOfDriftAndOneLostReceiptUnderTwoSpellingsOfTheName() throws {
        let charges =
            Self.charges("Kita Sonnenschein", "25.00", ["2026-01-05", "2026-01-12", "2026-01-20", "2026-01-26"])
            // 2 February: the receipt never reached the shoebox.
            + Self.charges("KITA SONNENSCHEIN e.V.", "25.00", ["2026-02-09", "2026-02-16", "2026-02-23", "2026-03-02", "2026-03-09", "2026-03-16"])
        let s = try #require(Self.find(charges, today: "2026-03-20").only)
        #expect(s.cadence == .weekly && s.status == .active && s.history.count == 10)
        #expect(s.nextExpected == Self.day("2026-03-23"))
    }

    @Test func quarterlyAndYearly() throws {
        let insurance = Self.charges("Allianz", "120.00", ["2025-01-15", "2025-04-14", "2025-07-18", "2025-10-15"])
        let domain = Self.charges("Gandi SAS", "15.00", ["2023-03-10", "2024-03-12", "2025-03-07"])
        let found = Self.find(insurance + domain, today: "2025-12-01")
        #expect(found.map(\.merchant) == ["Allianz", "Gandi SAS"])
        #expect(found.map(\.cadence) == [.quarterly, .yearly])
        #expect(found.map(\.nextExpected) == [Self.day("2026-01-15"), Self.day("2026-03-10")])
        #expect(found.allSatisfy { $0.status == .active })
    }

    @Test func twoChargesAreACoincidenceAndABusyShopIsNoSeries() {
        #expect(Self.find(Self.charges("Spotify", "9.99", ["2025-01-05", "2025-02-05"]), today: "2025-02-10").isEmpty)
        // A supermarket every 2 to 6 days for half a year, amounts all within half of each other: some visit falls
        // near every weekly (and monthly) due day, but most visits fall off any schedule.
        let gaps = [2, 3, 5, 4, 3, 2, 6]
        let amounts = ["23.40", "31.10", "27.80", "41.00", "25.50", "29.99", "33.20", "28.75"]
        var day = Self.day("2025-01-02")
        var visits: [Charge] = []
        for i in 0..<50 {
            visits.append(Charge(source: "lidl-\(i).jpg", merchant: "LIDL", day: day, amount: Self.money(amounts[i % amounts.count])))
            day = day.adding(days: gaps[i % gaps.count])
        }
        #expect(Self.find(visits, today: "2025-07-01").isEmpty)
        // The same shop on the same weekday six weeks running, and on no other day, is regular: a series, though
        // its amount varies.
        let bakery = (0..<6).map { i in
            Charge(
                source: "bakery-\(i).jpg", merchant: "Bäckerei Kamps", day: Self.day("2025-03-01").adding(days: 7 * i),
                amount: Self.money(i % 2 == 0 ? "6.40" : "7.10"))
        }
        #expect(Self.find(bakery, today: "2025-04-10").map(\.cadence) == [.weekly])
    }

    @Test func twoYearsOfShoppingWithOneSubscriptionInItFindsTheSubscriptionAlone() {
        // A shop visited one to three days apart for two years, amounts 5.00 to 80.00, and a 2.99 monthly plan
        // billed by the same shop: the plan is the only series.
        var random = SplitMix64(seed: 7)
        var charges: [Charge] = []
        var day = Self.day("2024-01-01")
        while day < Self.day("2026-01-01") {
            let cents = Int64.random(in: 500...8000, using: &random)
            charges.append(
                Charge(source: "rewe-\(day.iso).jpg", merchant: "REWE", day: day, amount: Money(minorUnits: cents, currency: CurrencyCode("EUR")!)))
            day = day.adding(days: Int.random(in: 1...3, using: &random))
        }
        let schedule = RecurringCharges.Schedule(first: Self.day("2024-01-15"), cadence: .monthly)
        let plan = (0..<24).map { Charge(source: "rewe-plus-\($0).pdf", merchant: "REWE", day: schedule.due($0), amount: Self.money("2.99")) }
        let found = Self.find(charges + plan, today: "2026-01-05")
        #expect(found.map(\.cadence) == [.monthly])
        #expect(found.first?.history.map(\.source) == plan.map(\.source))
    }

    @Test func anAmountThatVariesNeedsSixChargesAndNothingElseFromTheShopInBetween() {
        let bills = ["2025-01-03", "2025-02-03", "2025-03-04", "2025-04-03", "2025-05-02", "2025-06-03"].enumerated().map { i, day in
            Charge(
                source: "power-\(i).pdf", merchant: "Stadtwerke", day: Self.day(day),
                amount: Self.money(["84.10", "91.35", "77.80", "69.95", "62.40", "58.75"][i]))
        }
        #expect(Self.find(Array(bills.prefix(5)), today: "2025-06-01").isEmpty)
        #expect(Self.find(bills, today: "2025-06-10").map(\.cadence) == [.monthly])
        let meterReading = Charge(source: "meter.pdf", merchant: "Stadtwerke", day: Self.day("2025-03-20"), amount: Self.money("25.00"))
        #expect(Self.find(bills + [meterReading], today: "2025-06-10").isEmpty)
    }

    @Test func aFortnightlyChargeIsNotWeekly() {
        let days = (0..<8).map { Self.day("2025-01-06").adding(days: 14 * $0).iso }
        #expect(Self.find(Self.charges("Cleaner", "60.00", days), today: "2025-04-30").isEmpty)
    }

    @Test func aChargeAfterTheCancellationIsNamedWithItsSource() throws {
        let charges =
            Self.charges("Spotify AB", "9.99", ["2025-01-05", "2025-02-05", "2025-03-05", "2025-04-05", "2025-05-05", "2025-06-05"])
            // Off the schedule, the same price: the cancelled subscription charging again.
            + Self.charges("Spotify AB", "9.99", ["2025-06-21"])
        let s = try #require(
            Self.find(charges, cancellations: [Cancellation(merchant: "spotify", day: Self.day("2025-05-20"))], today: "2025-07-01").only)
        #expect(s.status == .chargedAfterCancellation)
        #expect(s.cancelledOn == Self.day("2025-05-20"))
        #expect(s.chargesAfterCancellation == ["Spotify AB-2025-06-05.pdf", "Spotify AB-2025-06-21.pdf"])
        #expect(s.lastCharge == Self.day("2025-06-05"))
        // A cancellation before the series began is an earlier subscription's: this one is active.
        let resubscribed = Self.find(charges, cancellations: [Cancellation(merchant: "Spotify", day: Self.day("2024-12-01"))], today: "2025-07-01")
        #expect(resubscribed.map(\.status) == [.active])
    }

    /// Issue 33, class 7 (b): the charge a cancellation sent to review is still the shop's charge.
    @Test func aChargeHeldInReviewAfterTheCancellationStillCountsAndTheSeriesSaysSo() throws {
        func record(_ day: String, _ status: RecordStatus, _ reasons: [ReviewReason] = []) -> DocumentRecord {
            var r = DocumentRecord(source: "hulu-\(day).pdf", folder: "", sha256: day, status: status)
            (r.merchant, r.date, r.total, r.reasons) = ("Hulu", Self.day(day), Self.money("7.99"), reasons)
            return r
        }
        let accepted = ["2025-01-10", "2025-02-10", "2025-03-10"].map { record($0, .accepted) }
        let flagged = record("2025-04-10", .review, [.chargedAfterCancellation])
        #expect(Charge(flagged)?.source == "hulu-2025-04-10.pdf")
        // In review for another reason, or rejected: no charge.
        #expect(Charge(record("2025-04-10", .review, [.lowConfidence(.total)])) == nil)
        #expect(Charge(record("2025-04-10", .rejected, [.chargedAfterCancellation])) == nil)
        let cancelled = [Cancellation(merchant: "Hulu", day: Self.day("2025-03-20"))]
        let s = try #require(
            RecurringCharges.find((accepted + [flagged]).compactMap { Charge($0) }, cancellations: cancelled, today: Self.day("2025-06-20")).only)
        #expect(s.status == .chargedAfterCancellation && s.chargesAfterCancellation == ["hulu-2025-04-10.pdf"])
        // Without it the series would read stopped: what the same records said before.
        let without = RecurringCharges.find(accepted.compactMap { Charge($0) }, cancellations: cancelled, today: Self.day("2025-06-20"))
        #expect(without.map(\.status) == [.stopped])
    }

    /// Issue 33, class 7 (a): the day a series is marked cancelled from, as every desk checks it.
    @Test func aCancellationIsTakenFromTheFirstChargeToTodayAndRefusedOnAnyOtherDay() {
        let charges = Self.charges("Disney Plus", "8.99", ["2025-01-10", "2025-02-10", "2025-03-10", "2025-04-10"])
        let series = Self.find(charges, today: "2025-06-20")
        func check(_ day: String, _ typed: String = "disney") -> Result<Cancellation, CancellationRefused> {
            RecurringCharges.cancellation(of: typed, on: Self.day(day), among: series, today: Self.day("2025-06-20"))
        }
        // The first charge's day, one before the last charge (its later charges are what the mark catches), today.
        for day in ["2025-01-10", "2025-03-01", "2025-06-20"] {
            #expect(check(day) == .success(Cancellation(merchant: "Disney Plus", day: Self.day(day))), "\(day)")
        }
        let today = Self.day("2025-06-20")
        #expect(check("0001-01-01") == .failure(.beforeEarliestYear(day: Self.day("0001-01-01"), today: today)))
        #expect(check("1899-12-31") == .failure(.beforeEarliestYear(day: Self.day("1899-12-31"), today: today)))
        #expect(check("2025-06-21") == .failure(.afterToday(day: Self.day("2025-06-21"), today: today)))
        #expect(
            check("2025-01-09")
                == .failure(
                    .beforeFirstCharge(day: Self.day("2025-01-09"), merchant: "Disney Plus", firstCharge: Self.day("2025-01-10"), today: today)))
        guard case .failure(let e) = check("2025-01-01", "Disny") else { return #expect(Bool(false)) }
        #expect(e == .unknownMerchant(UnknownMerchant(typed: "Disny", suggestions: ["Disney Plus"], isAmbiguous: false)), "\(e)")
        // Two series of one name (the other in pounds, begun later): a day from the earlier one's first charge applies
        // to that one; a day before both, to neither.
        let gbp = Self.charges("Disney Plus", "9.99", ["2025-03-15", "2025-04-15", "2025-05-15"], currency: "GBP")
        let both = Self.find(charges + gbp, today: "2025-06-20")
        #expect(both.count == 2)
        let earlier = RecurringCharges.cancellation(of: "disney", on: Self.day("2025-02-01"), among: both, today: today)
        #expect(earlier == .success(Cancellation(merchant: "Disney Plus", day: Self.day("2025-02-01"))))
        let before = RecurringCharges.cancellation(of: "disney", on: Self.day("2024-12-31"), among: both, today: today)
        #expect(
            before
                == .failure(
                    .beforeFirstCharge(day: Self.day("2024-12-31"), merchant: "Disney Plus", firstCharge: Self.day("2025-01-10"), today: today)))
    }

    @Test func aCancelledSeriesIsCancelledUntilItsNextDueDayHasPassedThenStopped() {
        let charges = Self.charges("Disney Plus", "8.99", ["2025-01-10", "2025-02-10", "2025-03-10", "2025-04-10"])
        let cancelled = [Cancellation(merchant: "Disney Plus", day: Self.day("2025-04-20"))]
        // Due on 10 May, give or take 4 days.
        #expect(Self.find(charges, cancellations: cancelled, today: "2025-05-14").map(\.status) == [.cancelled])
        #expect(Self.find(charges, cancellations: cancelled, today: "2025-05-15").map(\.status) == [.stopped])
        // Not cancelled: stopped once two due days (10 May, 10 June) and the tolerance have passed without a charge.
        #expect(Self.find(charges, today: "2025-06-14").map(\.status) == [.active])
        #expect(Self.find(charges, today: "2025-06-15").map(\.status) == [.stopped])
    }

    @Test func twoCurrenciesAreTwoSeriesAndNeverJoin() {
        let eur = Self.charges("Spotify", "9.99", ["2025-01-05", "2025-02-05", "2025-03-05"])
        let gbp = Self.charges("Spotify", "8.99", ["2025-01-05", "2025-02-05", "2025-03-05"], currency: "GBP")
        let found = Self.find(eur + gbp, today: "2025-03-10")
        #expect(found.map(\.currency.code) == ["EUR", "GBP"])
        #expect(found.allSatisfy { Set($0.history.map(\.currency)).count == 1 })
        // Alternating currencies: each alone charges every other month, and together they are no one series.
        let alternating =
            Self.charges("Spotify", "9.99", ["2025-01-05", "2025-03-05", "2025-05-05"])
            + Self.charges("Spotify", "9.99", ["2025-02-05", "2025-04-05"], currency: "USD")
        #expect(Self.find(alternating, today: "2025-05-10").isEmpty)
    }

    static func series(
        _ merchant: String, _ cadence: Cadence, _ amount: String, currency: String = "EUR", status: Series.Status = .active, history: [Charge] = []
    ) -> Series {
        let money = money(amount, currency)
        return Series(
            merchant: merchant, cadence: cadence, amount: money, history: history, paymentMethod: nil, card: history.last { $0.card != nil }?.card,
            lastCharge: day("2026-03-01"),
            nextExpected: day("2026-04-01"), status: status, cancelledOn: nil, chargesAfterCancellation: [])
    }

    @Test func monthlyBurnSumsExactlyPerCurrencyAndRoundsOnce() {
        let burn = RecurringCharges.monthlyBurn([
            Self.series("Cleaner", .weekly, "10.00"), Self.series("Netflix", .monthly, "12.99"), Self.series("Allianz", .quarterly, "30.00"),
            Self.series("Gandi", .yearly, "100.00"), Self.series("Spotify", .monthly, "5.00", currency: "USD"),
            Self.series("Gym", .monthly, "40.00", status: .chargedAfterCancellation),
            Self.series("Disney", .monthly, "8.99", status: .cancelled), Self.series("Hulu", .monthly, "7.99", status: .stopped)
        ])
        // (1000 × 52 + 1299 × 12 + 3000 × 4 + 10000 + 4000 × 12) / 12 = 137588 / 12 = 11465.67 → 11466.
        #expect(burn == [CurrencyCode("EUR")!: Self.money("114.66"), CurrencyCode("USD")!: Self.money("5.00", "USD")])
        // Half a minor unit rounds away from zero: 0.01 weekly is 52/12 = 4.33 → 4; 0.03 yearly 0.25 → 0; 0.06 yearly 0.5 → 1.
        #expect(RecurringCharges.monthlyBurn([Self.series("A", .yearly, "0.06")]) == [CurrencyCode("EUR")!: Self.money("0.01")])
        #expect(RecurringCharges.monthlyBurn([Self.series("A", .yearly, "0.03")]) == [CurrencyCode("EUR")!: Self.money("0.00")])
        #expect(RecurringCharges.monthlyBurn([Self.series("A", .weekly, "0.01")]) == [CurrencyCode("EUR")!: Self.money("0.04")])
        #expect(RecurringCharges.dividedRounded(-6, by: 12) == -1 && RecurringCharges.dividedRounded(-5, by: 12) == 0)
        #expect(RecurringCharges.monthlyBurn([]).isEmpty)
    }

    @Test func totalsPerMonthAndPaymentMethodPerCurrency() {
        let netflix = Self.charges("Netflix", "12.99", ["2026-02-01", "2026-03-01"], paymentMethod: "Visa")
        let cleaner = Self.charges("Cleaner", "5.00", ["2026-03-02", "2026-03-09"])
        let spotify = Self.charges("Spotify", "5.00", ["2026-03-05"], currency: "USD", paymentMethod: "Visa")
        let series = [
            Self.series("Netflix", .monthly, "12.99", history: netflix), Self.series("Cleaner", .weekly, "5.00", history: cleaner),
            Self.series("Spotify", .monthly, "5.00", currency: "USD", history: spotify)
        ]
        #expect(
            RecurringCharges.totalsByMonth(series) == [
                RecurringCharges.Total(group: "2026-02", amount: Self.money("12.99"), charges: 1),
                RecurringCharges.Total(group: "2026-03", amount: Self.money("22.99"), charges: 3),
                RecurringCharges.Total(group: "2026-03", amount: Self.money("5.00", "USD"), charges: 1)
            ])
        #expect(
            RecurringCharges.totalsByPaymentMethod(series) == [
                RecurringCharges.Total(group: "Visa", amount: Self.money("25.98"), charges: 2),
                RecurringCharges.Total(group: "Visa", amount: Self.money("5.00", "USD"), charges: 1),
                RecurringCharges.Total(group: "unknown", amount: Self.money("10.00"), charges: 2)
            ])
    }

    @Test func chargesSumPerCardTheirPagesNameAndASeriesNamesItsLatestCard() throws {
        let visa = CardUsed(scheme: "VISA", last4: "4242")
        let master = CardUsed(scheme: "MASTERCARD", last4: "9876")
        func charge(_ day: String, _ card: CardUsed?) -> Charge {
            Charge(source: "gym-\(day).jpg", merchant: "Gym", day: Self.day(day), amount: Self.money("40.00"), card: card)
        }
        // The card changed in March; one receipt names none.
        let history = [charge("2026-01-03", visa), charge("2026-02-03", nil), charge("2026-03-03", master), charge("2026-04-03", master)]
        let found = try #require(Self.find(history, today: "2026-04-10").only)
        #expect(found.card == master)
        #expect(
            RecurringCharges.totalsByCard([found]) == [
                RecurringCharges.Total(group: "MASTERCARD ••••9876", amount: Self.money("80.00"), charges: 2),
                RecurringCharges.Total(group: "VISA ••••4242", amount: Self.money("40.00"), charges: 1)
            ])
        #expect(
            RecurringCharges.totalsByCard([Self.series("Cleaner", .weekly, "5.00", history: Self.charges("Cleaner", "5.00", ["2026-03-02"]))]).isEmpty
        )
        var record = DocumentRecord(source: "a.jpg", folder: "", sha256: "00", status: .accepted)
        (record.merchant, record.date, record.total, record.card) = ("Gym", Self.day("2026-03-03"), Self.money("40.00"), master)
        #expect(Charge(record)?.card == master)
    }

    @Test func aTypedNameIsTheSeriesItNamesOrAnErrorWithTheClosestNames() {
        let series = ["Netflix", "Spotify AB", "Apple Music", "Apple iCloud"].map { Self.series($0, .monthly, "9.99") }
        #expect(RecurringCharges.resolveMerchant("netflix", among: series) == .success("Netflix"))
        #expect(RecurringCharges.resolveMerchant("SPOTIFY", among: series) == .success("Spotify AB"))
        #expect(RecurringCharges.resolveMerchant("apple icloud", among: series) == .success("Apple iCloud"))
        let typo = RecurringCharges.resolveMerchant("Netflx", among: series)
        #expect(typo == .failure(UnknownMerchant(typed: "Netflx", suggestions: ["Netflix"], isAmbiguous: false)))
        #expect(typo.failureDescription == "unknown merchant 'Netflx'; did you mean 'Netflix'?")
        #expect(
            RecurringCharges.resolveMerchant("Spotfy", among: series).failureDescription == "unknown merchant 'Spotfy'; did you mean 'Spotify AB'?")
        #expect(
            RecurringCharges.resolveMerchant("apple", among: series).failureDescription
                == "merchant 'apple' names more than one series: 'Apple Music' or 'Apple iCloud'; type more of the name")
        #expect(
            RecurringCharges.resolveMerchant("Zalando", among: series).failureDescription
                == "unknown merchant 'Zalando'; no recurring series has a name like it")
        #expect(
            RecurringCharges.resolveMerchant("", among: series).failureDescription == "unknown merchant ''; no recurring series has a name like it")
    }

    @Test func hugeAmountsAndTheLastYearOfTheCalendarDoNotTrap() throws {
        let huge = Money(minorUnits: Int64.max - 1, currency: CurrencyCode("EUR")!)
        let charges = ["9999-09-15", "9999-10-15", "9999-11-15", "9999-12-15"].map {
            Charge(source: $0, merchant: "Vault", day: Self.day($0), amount: huge)
        }
        let found = Self.find(charges, cancellations: [Cancellation(merchant: "Vault", day: Self.day("9999-12-31"))], today: "9999-12-31")
        let s = try #require(found.only)
        #expect(s.status == .cancelled && s.nextExpected > Self.day("9999-12-31"))
        // Twelve times the amount does not fit: the currency is left out of the burn, the month's sum out of the totals.
        #expect(RecurringCharges.monthlyBurn(found).isEmpty)
        #expect(RecurringCharges.totalsByMonth(found).count == 4)
        #expect(RecurringCharges.totalsByPaymentMethod(found).isEmpty)
    }

    @Test func aChargeIsAnAcceptedRecordWithMerchantDateAndTotal() throws {
        var record = DocumentRecord(source: "a.pdf", folder: "", sha256: "00", status: .accepted)
        record.merchant = "Netflix"
        record.date = Self.day("2026-03-01")
        record.total = Self.money("12.99")
        record.paymentMethod = "Visa"
        #expect(
            Charge(record)
                == Charge(source: "a.pdf", merchant: "Netflix", day: Self.day("2026-03-01"), amount: Self.money("12.99"), paymentMethod: "Visa"))
        record.status = .review
        #expect(Charge(record) == nil)
    }

    @Test func aSeriesTravelsAsJSON() throws {
        let charges = Self.charges("Spotify AB", "9.99", ["2025-01-05", "2025-02-05", "2025-03-05", "2025-04-05"])
        let s = try #require(
            Self.find(charges, cancellations: [Cancellation(merchant: "Spotify", day: Self.day("2025-03-20"))], today: "2025-04-10").only)
        let json = try JSONEncoder().encode(s)
        #expect(String(decoding: json, as: UTF8.self).contains("\"charged-after-cancellation\""))
        #expect(try JSONDecoder().decode(Series.self, from: json) == s)
    }
}

extension Array {
    fileprivate var only: Element? { count == 1 ? first : nil }
}

extension Result where Failure: CustomStringConvertible {
    fileprivate var failureDescription: String? {
        if case .failure(let e) = self { return e.description }
        return nil
    }
}
