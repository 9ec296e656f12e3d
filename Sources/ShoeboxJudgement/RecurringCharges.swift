public import ShoeboxCore

/// Recurring charges: series of charges from one shop, in one currency, at a regular cadence (subscriptions, rent,
/// insurance), found in the accepted records and the charges held in review as `charged-after-cancellation`
/// (`Charge.init(_:)`). Pure: the store gives the charges and the cancellations, the caller gives `today`, nothing
/// here reads the clock.
///
/// The rules, in order (`RecurringCharges.find`):
/// 1. **one shop, one currency**: charges are grouped by currency, then by name (`MerchantMemory.sameShop` with any
///    name already in the group). Charges in two currencies never join; a refund (an amount of zero or less) is not
///    a charge.
/// 2. **a schedule, not a chain of gaps**: a series bills on a schedule fixed by its first charge: every 7 days, or
///    on that day of every 1, 3 or 12 calendar months, clamped to the month's end (31 Jan → 28/29 Feb → 31 Mar).
///    Each charge must fall within the cadence's tolerance of its due day (`Cadence.toleranceDays`), so drift of a
///    few days never adds up, however long the series runs. At most one due day in a row may go without a charge
///    (`missedInARow`: a receipt that never reached the shoebox), and the charges must fill at least two thirds of
///    the due days they span (`fewestFilled`): every other week is not weekly.
/// 3. **the same price, or a lasting price change**: a charge joins within half of the latest charge's amount
///    (`amountBand`: 9.99 → 12.99 joins). A charge further off joins only on a due day, and only when a following
///    due day's charge (the next, or the one after) confirms its amount: the end of a 1.00 trial month joins, a
///    gift card bought on a due day does not, and a purchase of another size on any other day never does.
/// 4. **three charges**: two charges one month apart are a coincidence (`fewestCharges`).
/// 5. **not a busy shop**: between the series' first and last charge, the shop's other charges of a comparable
///    amount (between the series' lowest and highest, or within `amountBand` of either) may be at most half as
///    many as the series' own (`mostOthersPerCharge`). A supermarket visited every few days always has some visit
///    near every due day; the visits that fall off the schedule give it away. A shop's plan at a price its other
///    purchases do not come near stands out (a 2.99 monthly plan at a supermarket).
/// 6. **a steady price**: from at least half of its charges to the next, a series keeps its amount to the minor
///    unit (`fewestUnchanged`): a subscription keeps its price through a rise or two, a chain of chance visits to a
///    shop changes it every time. A series whose amount varies more (a power bill, a plan charged in another
///    currency) needs a longer run, `fewestVaryingCharges`, with no other charge of its shop in between: visits
///    at random a few days apart fall on a weekly schedule three or four times in a row by chance, six times
///    hardly ever.
/// Cadences are tried from the shortest to the longest, and a charge belongs to at most one series: a weekly
/// series' charges would otherwise also make a monthly one.
public enum RecurringCharges {
    /// Fewer charges than this are a coincidence, not a series.
    static let fewestCharges = 3
    /// Due days in a row that may pass without a charge inside a series: one lost receipt does not end it.
    static let missedInARow = 1
    /// The share of due days between its first and last charge that a series must have a charge on: two thirds
    /// lets one lost receipt in three pass, and keeps a fortnightly charge from passing as weekly (one half).
    static let fewestFilled = (numerator: 2, denominator: 3)
    /// A charge of the same price: within this share of the series' latest amount (0.5: after 9.99, up to 14.98).
    /// Also what counts as a comparable amount for the busy-shop rule (around the series' lowest and highest
    /// amounts) and after a cancellation (around its latest amount).
    static let amountBand = (numerator: 1, denominator: 2)
    /// Comparable charges of the same shop off the schedule, per charge of the series, above which the shop is a
    /// busy shop and the "series" one of its chance subsets.
    static let mostOthersPerCharge = (numerator: 1, denominator: 2)
    /// The share of a series' steps from one charge to the next that keep the amount to the minor unit, below which
    /// its amount varies.
    static let fewestUnchanged = (numerator: 1, denominator: 2)
    /// Fewest charges of a series whose amount varies, with nothing else from its shop in between.
    static let fewestVaryingCharges = 6
}

/// One charge: the shop, day and total of an accepted record, or of one held in review as `charged-after-cancellation`.
public struct Charge: Sendable, Hashable, Codable {
    /// The record's source, so that the caller can name it (and send it to review).
    public let source: String
    public let merchant: String
    public let day: CalendarDay
    public let amount: Money
    public let paymentMethod: String?
    /// The card or account it was paid with, where the page names its last four digits.
    public let card: CardUsed?

    public init(source: String, merchant: String, day: CalendarDay, amount: Money, paymentMethod: String? = nil, card: CardUsed? = nil) {
        self.source = source
        self.merchant = merchant
        self.day = day
        self.amount = amount
        self.paymentMethod = paymentMethod
        self.card = card
    }

    /// The charge a record with a merchant, a date and a total stands for when it is accepted, or waits in review
    /// because it came after its series' cancellation (`Rejudging.chargesAfterCancellation`): the pipeline accepted
    /// it, and the shop took the money. Left out, it would take the series' proof of the charge with it (the series
    /// would read `stopped`, or be no series at all). Nil for any other record.
    public init?(_ record: DocumentRecord) {
        let heldAfterCancellation = record.status == .review && record.reasons.contains(.chargedAfterCancellation)
        guard record.status == .accepted || heldAfterCancellation, let merchant = record.merchant, let day = record.date, let total = record.total
        else { return nil }
        self.init(source: record.source, merchant: merchant, day: day, amount: total, paymentMethod: record.paymentMethod, card: record.card)
    }

    public var currency: CurrencyCode { amount.currency }
}

/// How often a series bills.
public enum Cadence: String, Sendable, Codable, CaseIterable {
    case weekly, monthly, quarterly, yearly

    /// Days either side of the due day a charge may fall on. A card payment is booked a day or two late over a
    /// weekend or a holiday, and a failed payment is retried a few days later. Each is well under half the
    /// cadence, so that two due days' windows never touch. Weekly stays at one day: with two, a shop visited twice
    /// a week would have a visit in almost every window.
    public var toleranceDays: Int {
        switch self {
        case .weekly: 1
        case .monthly: 4
        case .quarterly: 7
        case .yearly: 10
        }
    }

    /// Charges in a year: what turns an amount into a monthly one (weekly: 52/12 of it).
    public var chargesPerYear: Int {
        switch self {
        case .weekly: 52
        case .monthly: 12
        case .quarterly: 4
        case .yearly: 1
        }
    }

    /// Calendar months between charges; nil for weekly, which counts days.
    var months: Int? {
        switch self {
        case .weekly: nil
        case .monthly: 1
        case .quarterly: 3
        case .yearly: 12
        }
    }
}

/// A series of charges from one shop in one currency at one cadence.
public struct Series: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// Charged on schedule, or its latest due day not yet two cadences (and the tolerance) past.
        case active
        /// Cancelled, and its first due day after the cancellation (with the tolerance) not yet past: a charge may
        /// still come.
        case cancelled
        /// No charge for more than two cadences (and the tolerance) before today, or cancelled with no charge on the
        /// first due day after the cancellation (and the tolerance).
        case stopped
        /// Cancelled, and charged after that day: `chargesAfterCancellation` names the charges.
        case chargedAfterCancellation = "charged-after-cancellation"
    }

    /// The shop's name on its latest charge.
    public let merchant: String
    public let cadence: Cadence
    /// The latest charge's amount.
    public let amount: Money
    public var currency: CurrencyCode { amount.currency }
    /// Every charge of the series, oldest first.
    public let history: [Charge]
    /// The latest payment method a charge names.
    public let paymentMethod: String?
    /// The latest card a charge names.
    public let card: CardUsed?
    public let lastCharge: CalendarDay
    /// The next due day on the series' schedule after its last charge.
    public let nextExpected: CalendarDay
    public let status: Status
    /// The day of the cancellation that applies to the series.
    public let cancelledOn: CalendarDay?
    /// The sources of the charges after `cancelledOn`, oldest first: the series' own, and the shop's other
    /// charges in the same currency within `amountBand` of its latest amount that no series holds (an off-schedule
    /// charge of a cancelled subscription).
    public let chargesAfterCancellation: [String]

    public var firstCharge: CalendarDay { history.first?.day ?? lastCharge }

    /// Where the amount changed from one charge to the next.
    public struct AmountChange: Sendable, Hashable, Codable {
        public let day: CalendarDay
        public let from: Money
        public let to: Money
    }

    public var amountChanges: [AmountChange] {
        zip(history, history.dropFirst()).compactMap { a, b in a.amount == b.amount ? nil : AmountChange(day: b.day, from: a.amount, to: b.amount) }
    }
}

extension RecurringCharges {
    /// The series in these charges, sorted by merchant, currency and first charge. `cancellations` say which were
    /// cancelled when; `today` decides which have stopped.
    ///
    /// A cancellation applies to each series of its shop (`MerchantMemory.sameShop`) that began on or before its
    /// day; of several, the earliest such day counts. A series begun after it is a new subscription.
    public static func find(_ charges: [Charge], cancellations: [Cancellation], today: CalendarDay) -> [Series] {
        var found: [Series] = []
        for shop in shops(charges.filter { $0.amount.minorUnits > 0 }) {
            var used = [Bool](repeating: false, count: shop.count)
            var chains: [Chain] = []
            for cadence in Cadence.allCases {
                for start in shop.indices where !used[start] {
                    guard let chain = chain(from: start, in: shop, used: used, cadence: cadence), isSeries(chain, in: shop) else { continue }
                    for i in chain.members { used[i] = true }
                    chains.append(chain)
                }
            }
            let strays = shop.indices.filter { !used[$0] }.map { shop[$0] }
            found += chains.map { series($0, in: shop, strays: strays, cancellations: cancellations, today: today) }
        }
        return found.sorted {
            ($0.merchant, $0.currency, $0.firstCharge, $0.cadence.chargesPerYear) < (
                $1.merchant, $1.currency, $1.firstCharge, $1.cadence.chargesPerYear
            )
        }
    }

    /// The charges grouped into shops (rule 1), each sorted by day, then source.
    static func shops(_ charges: [Charge]) -> [[Charge]] {
        let sorted = charges.sorted { ($0.day, $0.source) < ($1.day, $1.source) }
        var shops: [(currency: CurrencyCode, names: [String], charges: [Charge])] = []
        for c in sorted where !MerchantMemory.squeezed(c.merchant).isEmpty {
            if let i = shops.firstIndex(where: { $0.currency == c.currency && $0.names.contains { MerchantMemory.sameShop($0, c.merchant) } }) {
                shops[i].charges.append(c)
                if !shops[i].names.contains(c.merchant) { shops[i].names.append(c.merchant) }
            } else {
                shops.append((c.currency, [c.merchant], [c]))
            }
        }
        return shops.map(\.charges)
    }

    /// A series' due days: the first charge's day, then every 7 days or every 1, 3 or 12 months on that day of the
    /// month, clamped to the month's end.
    struct Schedule: Sendable {
        let first: CalendarDay
        let dayOfMonth: Int
        let cadence: Cadence

        init(first: CalendarDay, cadence: Cadence, dayOfMonth: Int? = nil) {
            self.first = first
            self.cadence = cadence
            self.dayOfMonth = dayOfMonth ?? first.day
        }

        /// The `n`th due day (the 0th is the first charge's).
        func due(_ n: Int) -> CalendarDay {
            guard let months = cadence.months else { return first.adding(days: 7 * n) }
            let index = first.year * 12 + first.month - 1 + months * n
            let (year, month) = (index / 12, index % 12 + 1)
            let day = min(dayOfMonth, CalendarDay.daysIn(month: month, year: year))
            // Past year 9999 there is no calendar day to name: count whole days instead.
            return CalendarDay(year: year, month: month, day: day) ?? first.adding(days: n * 365 * months / 12)
        }
    }

    /// Charges of one shop on one schedule: their indices in the shop's charges and the due day each stands for.
    struct Chain: Sendable {
        let schedule: Schedule
        var members: [Int]
        var slots: [Int]
    }

    /// The longest chain on the schedule of the charge at `start` (rules 2 and 3), before it is judged.
    static func chain(from start: Int, in shop: [Charge], used: [Bool], cadence: Cadence) -> Chain? {
        var chain = Chain(schedule: Schedule(first: shop[start].day, cadence: cadence), members: [start], slots: [0])
        func closest(to slot: Int, after: Int, _ amountFits: (Int64) -> Bool) -> Int? {
            let due = chain.schedule.due(slot)
            var best: Int?
            var i = after + 1
            while i < shop.count, shop[i].day.daysSince(due) <= cadence.toleranceDays {
                let off = abs(shop[i].day.daysSince(due))
                if !used[i], off <= cadence.toleranceDays, shop[i].day > shop[after].day, amountFits(shop[i].amount.minorUnits),
                    best.map({ off < abs(shop[$0].day.daysSince(due)) }) ?? true
                {
                    best = i
                }
                i += 1
            }
            return best
        }
        grow: while true {
            let (last, lastSlot) = (chain.members.last!, chain.slots.last!)
            let price = shop[last].amount.minorUnits
            for slot in (lastSlot + 1)...(lastSlot + 1 + missedInARow) {
                if let same = closest(to: slot, after: last, { comparable($0, price) }) {
                    chain.members.append(same)
                    chain.slots.append(slot)
                    continue grow
                }
                // Another price joins when a following due day confirms it: a lasting change, not a one-off.
                if let changed = closest(to: slot, after: last, { !comparable($0, price) }),
                    ((slot + 1)...(slot + 1 + missedInARow)).contains(where: { next in
                        closest(to: next, after: changed) { comparable($0, shop[changed].amount.minorUnits) } != nil
                    })
                {
                    chain.members.append(changed)
                    chain.slots.append(slot)
                    continue grow
                }
            }
            break
        }
        return chain.members.count >= fewestCharges ? chain : nil
    }

    /// Rules 2 (the share of due days filled), 4, 5 and 6.
    static func isSeries(_ chain: Chain, in shop: [Charge]) -> Bool {
        let count = chain.members.count
        guard count >= fewestCharges, count * fewestFilled.denominator >= (chain.slots.last! + 1) * fewestFilled.numerator else { return false }
        // Comparable: within the series' own amounts, or within `amountBand` of its lowest or highest. A chain picked
        // out of a busy shop wanders in price, and then most of the shop's other charges are comparable.
        let amounts = chain.members.map { shop[$0].amount.minorUnits }
        let (lowest, highest) = (amounts.min()!, amounts.max()!)
        let members = Set(chain.members)
        let others = (chain.members.first!...chain.members.last!).filter { i in
            let a = shop[i].amount.minorUnits
            return !members.contains(i) && ((lowest...highest).contains(a) || comparable(a, lowest) || comparable(a, highest))
        }.count
        guard others * mostOthersPerCharge.denominator <= count * mostOthersPerCharge.numerator else { return false }
        // Rule 6: a steady price, or a longer run in a shop that charges nothing else meanwhile.
        let unchanged = zip(amounts, amounts.dropFirst()).filter { $0 == $1 }.count
        if unchanged * fewestUnchanged.denominator >= (count - 1) * fewestUnchanged.numerator { return true }
        return count >= fewestVaryingCharges && chain.members.last! - chain.members.first! + 1 == count
    }

    /// Whether an amount is within `amountBand` of a reference amount.
    static func comparable(_ amount: Int64, _ reference: Int64) -> Bool {
        let (difference, overflow) = amount.subtractingReportingOverflow(reference)
        guard !overflow else { return false }
        let (off, tooFar) = difference.magnitude.multipliedReportingOverflow(by: UInt64(amountBand.denominator))
        let (band, wide) = reference.magnitude.multipliedReportingOverflow(by: UInt64(amountBand.numerator))
        return !tooFar && (wide || off <= band)
    }

    /// The series a judged chain is, with its status as of `today`.
    static func series(_ chain: Chain, in shop: [Charge], strays: [Charge], cancellations: [Cancellation], today: CalendarDay) -> Series {
        let history = chain.members.map { shop[$0] }
        let latest = history.last!
        // Month-based due days fall on the day of the month most charges fell on (the first charge's, on a tie):
        // a series begun on 28 February that bills on the 31st is due on the 31st. Only within the tolerance of the
        // first charge's day: a series billed on the 31st and booked on the 1st stays due in the month it bills.
        let tolerance = chain.schedule.cadence.toleranceDays
        let usual = usualDayOfMonth(history)
        let dayOfMonth = abs(usual - chain.schedule.first.day) <= tolerance ? usual : chain.schedule.first.day
        let schedule = Schedule(first: chain.schedule.first, cadence: chain.schedule.cadence, dayOfMonth: dayOfMonth)
        let lastSlot = chain.slots.last!
        let next = schedule.due(lastSlot + 1)
        let cancelledOn = cancellations.filter { applies($0, to: history) }.map(\.day).min()
        var after: [Charge] = []
        let status: Series.Status
        if let cancelledOn {
            after = (history + strays.filter { comparable($0.amount.minorUnits, latest.amount.minorUnits) }).filter { $0.day > cancelledOn }
                .sorted { ($0.day, $0.source) < ($1.day, $1.source) }
            if !after.isEmpty {
                status = .chargedAfterCancellation
            } else {
                // A charge may still come on the first due day after the cancellation (with the tolerance): the
                // shop bills the period already begun. Past that day, nothing came: stopped.
                var slot = lastSlot + 1
                while schedule.due(slot) <= cancelledOn { slot += 1 }
                status = today.daysSince(schedule.due(slot)) > tolerance ? .stopped : .cancelled
            }
        } else {
            status = today.daysSince(schedule.due(lastSlot + 2)) > tolerance ? .stopped : .active
        }
        return Series(
            merchant: latest.merchant, cadence: chain.schedule.cadence, amount: latest.amount, history: history,
            paymentMethod: history.last { $0.paymentMethod != nil }?.paymentMethod, card: history.last { $0.card != nil }?.card,
            lastCharge: latest.day, nextExpected: next, status: status,
            cancelledOn: cancelledOn, chargesAfterCancellation: after.map(\.source))
    }

    /// Whether a cancellation applies to the series of these charges: it names the series' shop (`MerchantMemory.sameShop`
    /// with a name on one of its charges) and its day is on or after the first charge (before it, it was an earlier
    /// subscription's).
    static func applies(_ c: Cancellation, to history: [Charge]) -> Bool {
        guard let first = history.first, c.day >= first.day else { return false }
        return Set(history.map(\.merchant)).contains { MerchantMemory.sameShop($0, c.merchant) }
    }

    /// The day of the month most charges fell on; of equally many, the first charge's (then the latest day).
    static func usualDayOfMonth(_ history: [Charge]) -> Int {
        var counts: [Int: Int] = [:]
        for c in history { counts[c.day.day, default: 0] += 1 }
        let most = counts.values.max() ?? 0
        if counts[history[0].day.day] == most { return history[0].day.day }
        return counts.filter { $0.value == most }.keys.max() ?? history[0].day.day
    }
}
