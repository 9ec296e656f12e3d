/// Month arithmetic on calendar days, for deadlines counted in months (warranties, notice periods).
/// Pure: no `Date`, no `Calendar`, no time zone — a deadline is a day on paper, the same wherever it is computed.
extension CalendarDay {
    /// The same day of the month `months` months later (earlier when negative), clamped to the last day of
    /// the target month: 31 January + 1 month is 28 February (29 in a leap year), 31 March − 1 month likewise.
    /// Clamping moves a deadline earlier, never later, which is the safe direction for a person acting on it.
    public func adding(months: Int) -> CalendarDay {
        let index = year * 12 + (month - 1) + months
        // Floor division, so that a month before year 0 still lands on a real month.
        let y = index >= 0 ? index / 12 : (index - 11) / 12
        let m = index - y * 12 + 1
        let d = min(day, CalendarDay.daysIn(month: m, year: y))
        return CalendarDay(daysSinceEpoch: CalendarDay.civilDayNumber(year: y, month: m, day: d))
    }

    /// `adding(months: -months)`.
    public func subtracting(months: Int) -> CalendarDay { adding(months: -months) }

    /// Whole days from `other` to this day (negative when this day is earlier).
    public func days(since other: CalendarDay) -> Int { daysSinceEpoch - other.daysSinceEpoch }

    /// Days since 1970-01-01 of any year, month and day (Howard Hinnant's days_from_civil, as `daysSinceEpoch`),
    /// for days the failable initialiser would refuse (a year outside 1…9999 after absurd arithmetic).
    static func civilDayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }
}
