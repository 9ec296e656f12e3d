import Testing

@testable import ShoeboxCore

/// Month and day arithmetic on calendar days: month ends, leap years, the turn of the year.
struct DeadlineCalendarTests {
    func day(_ iso: String) -> CalendarDay { CalendarDay(iso: iso)! }

    @Test func addingAMonthToTheThirtyFirstOfJanuaryClampsToFebruarysEnd() {
        #expect(day("2026-01-31").adding(months: 1).iso == "2026-02-28")
        #expect(day("2028-01-31").adding(months: 1).iso == "2028-02-29")
        // 2100 is no leap year, 2000 was.
        #expect(day("2100-01-31").adding(months: 1).iso == "2100-02-28")
        #expect(day("2000-01-31").adding(months: 1).iso == "2000-02-29")
    }

    @Test func subtractingAMonthFromTheThirtyFirstOfMarchClampsToFebruarysEnd() {
        #expect(day("2026-03-31").subtracting(months: 1).iso == "2026-02-28")
        #expect(day("2028-03-31").subtracting(months: 1).iso == "2028-02-29")
        #expect(day("2026-03-31").adding(months: -1) == day("2026-03-31").subtracting(months: 1))
    }

    @Test func theTwentyNinthOfFebruaryPlusAYearIsTheTwentyEighth() {
        #expect(day("2028-02-29").adding(months: 12).iso == "2029-02-28")
        #expect(day("2028-02-29").adding(months: 48).iso == "2032-02-29")
        #expect(day("2028-02-29").subtracting(months: 12).iso == "2027-02-28")
    }

    @Test func monthsCrossTheNewYearBothWays() {
        #expect(day("2026-11-30").adding(months: 3).iso == "2027-02-28")
        #expect(day("2026-12-31").adding(months: 1).iso == "2027-01-31")
        #expect(day("2027-01-15").subtracting(months: 2).iso == "2026-11-15")
        #expect(day("2027-02-28").subtracting(months: 14).iso == "2025-12-28")
        #expect(day("2026-12-31").adding(days: 1).iso == "2027-01-01")
        #expect(day("2027-01-01").adding(days: -1).iso == "2026-12-31")
    }

    @Test func aMonthThereAndBackMayEndEarlierButNeverLater() {
        // Clamping is one-way: 31 Jan → 28 Feb → 28 Jan. A deadline counted so moves earlier, never later.
        let start = day("2026-01-31")
        #expect(start.adding(months: 1).subtracting(months: 1).iso == "2026-01-28")
        for offset in 0..<400 {
            let d = day("2026-01-01").adding(days: offset)
            #expect(d.adding(months: 1).subtracting(months: 1) <= d)
        }
    }

    @Test func daysSinceCountsWholeDays() {
        #expect(day("2027-01-01").days(since: day("2026-12-31")) == 1)
        #expect(day("2028-03-01").days(since: day("2028-02-28")) == 2)
        #expect(day("2026-03-01").days(since: day("2026-02-28")) == 1)
        #expect(day("2026-01-01").days(since: day("2027-01-01")) == -365)
    }
}
