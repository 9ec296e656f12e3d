public import ShoeboxCore

/// What the recurring charges cost: the monthly burn and the totals per month and per payment method, in minor units
/// (never in floating point), per currency (never added across currencies).
extension RecurringCharges {
    /// A sum of series charges in one group (a month "2026-03", or a payment method) and one currency.
    public struct Total: Sendable, Hashable, Codable {
        public let group: String
        public let amount: Money
        public let charges: Int
    }

    /// The group of charges whose record names no payment method.
    public static let unknownPaymentMethod = "unknown"

    /// What the series that still charge cost in a month, per currency: each series' current amount times its
    /// charges in a year (weekly 52, monthly 12, quarterly 4, yearly 1), summed exactly, then divided by 12 once,
    /// rounded half away from zero to the minor unit. Active series count, and so do series charged after their
    /// cancellation (money still going out until someone settles it); cancelled and stopped ones do not. A currency
    /// whose sum would overflow is left out rather than given wrong.
    public static func monthlyBurn(_ series: [Series]) -> [CurrencyCode: Money] {
        var yearly: [CurrencyCode: Int64?] = [:]
        for s in series where s.status == .active || s.status == .chargedAfterCancellation {
            let (perYear, overflow) = s.amount.minorUnits.multipliedReportingOverflow(by: Int64(s.cadence.chargesPerYear))
            let sum = yearly[s.currency, default: 0]
            yearly[s.currency] = overflow ? nil : sum.flatMap { Money.checkedSum([$0, perYear]) }
        }
        var burn: [CurrencyCode: Money] = [:]
        for case (let currency, let units?) in yearly {
            burn[currency] = Money(minorUnits: dividedRounded(units, by: 12), currency: currency)
        }
        return burn
    }

    /// `value / divisor`, rounded half away from zero.
    static func dividedRounded(_ value: Int64, by divisor: Int64) -> Int64 {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        guard remainder.magnitude * 2 >= divisor.magnitude else { return quotient }
        return value < 0 ? quotient - 1 : quotient + 1
    }

    /// Every series charge summed per calendar month ("2026-03") and currency, sorted by month, then currency.
    public static func totalsByMonth(_ series: [Series]) -> [Total] {
        totals(series) { String($0.day.iso.prefix(7)) }
    }

    /// Every series charge summed per payment method (as its record names it, else `unknownPaymentMethod`) and
    /// currency, sorted by method, then currency.
    public static func totalsByPaymentMethod(_ series: [Series]) -> [Total] {
        totals(series) { $0.paymentMethod ?? unknownPaymentMethod }
    }

    /// Every series charge that names the card it was paid with ("VISA ••••4242"), summed per card and currency, sorted
    /// by card, then currency; a charge that names no card is in no group.
    public static func totalsByCard(_ series: [Series]) -> [Total] {
        totals(series) { $0.card?.display }
    }

    /// A group whose sum would overflow is left out rather than given wrong.
    static func totals(_ series: [Series], by group: (Charge) -> String?) -> [Total] {
        var sums: [String: [CurrencyCode: (units: Int64?, count: Int)]] = [:]
        for charge in series.flatMap(\.history) {
            guard let key = group(charge) else { continue }
            let old = sums[key, default: [:]][charge.currency, default: (0, 0)]
            sums[key, default: [:]][charge.currency] = (
                old.units.flatMap { Money.checkedSum([$0, charge.amount.minorUnits]) }, old.count + 1
            )
        }
        return sums.keys.sorted().flatMap { key in
            sums[key]!.keys.sorted().compactMap { currency in
                let sum = sums[key]![currency]!
                return sum.units.map { Total(group: key, amount: Money(minorUnits: $0, currency: currency), charges: sum.count) }
            }
        }
    }
}

/// A merchant name typed for `--cancel` that names no one series.
public struct UnknownMerchant: Error, Sendable, Hashable, CustomStringConvertible {
    public let typed: String
    /// The series names the typed name may have meant, closest first; when `isAmbiguous`, every series it names.
    public let suggestions: [String]
    /// The typed name names more than one series.
    public let isAmbiguous: Bool

    public var description: String {
        let quoted = suggestions.map { "'\($0)'" }
        let listed = quoted.count <= 1 ? quoted.joined() : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
        if isAmbiguous { return "merchant '\(typed)' names more than one series: \(listed); type more of the name" }
        if suggestions.isEmpty { return "unknown merchant '\(typed)'; no recurring series has a name like it" }
        return "unknown merchant '\(typed)'; did you mean \(listed)?"
    }
}

/// A cancellation a person asked for that cannot apply, refused with the sentence they read: a name that names no
/// one series, or a day the series cannot have been cancelled on (`RecurringCharges.cancellation`).
public enum CancellationRefused: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownMerchant(UnknownMerchant)
    /// Before 1900 (`FieldInput.earliestYear`), as no day a person types may be.
    case beforeEarliestYear(day: CalendarDay, today: CalendarDay)
    /// After today.
    case afterToday(day: CalendarDay, today: CalendarDay)
    /// Before the first charge of every series the name stands for: the mark would apply to none of them.
    case beforeFirstCharge(day: CalendarDay, merchant: String, firstCharge: CalendarDay, today: CalendarDay)

    public var description: String {
        switch self {
        case .unknownMerchant(let e): e.description
        case .beforeEarliestYear(let day, let today):
            "\(day.iso) is before \(FieldInput.earliestYear): type the day the series was cancelled, from "
                + "\(FieldInput.earliestYear)-01-01 to today (\(today.iso))"
        case .afterToday(let day, let today):
            "\(day.iso) is after today (\(today.iso)): a series is marked cancelled from a day that has come; type the day "
                + "it was cancelled, or for a cancellation that takes effect later, mark it on that day"
        case .beforeFirstCharge(let day, let merchant, let first, let today):
            "\(day.iso) is before \(merchant)'s first charge (\(first.iso)): a cancellation then was an earlier "
                + "subscription's and changes nothing in this one; type the day the series was cancelled, from \(first.iso) to today (\(today.iso))"
        }
    }
}

extension RecurringCharges {
    /// The cancellation a person asks for, checked once for every desk that marks one (`recurring --cancel`, a
    /// `review --apply` line, the browser, all through this): `typed` resolved among `series` (`resolveMerchant`),
    /// on a day the series can have been cancelled on:
    /// - from 1900 (`FieldInput.earliestYear`) to `today`, as every day a person types: a cancellation is marked
    ///   once it was made, and a day to come would call the series cancelled while it still rightly charges;
    /// - on or after the first charge of a series of that name: a cancellation before it applies to none of them
    ///   (`find` takes it for an earlier subscription's), and "marked cancelled" would then be said of nothing.
    /// A day before the series' last charge is taken: the charges after it are what a cancellation that did not take
    /// leaves, and the mark is there to catch them (they go to review as `charged-after-cancellation`).
    public static func cancellation(
        of typed: String, on day: CalendarDay, among series: [Series], today: CalendarDay
    ) -> Result<Cancellation, CancellationRefused> {
        guard day.year >= FieldInput.earliestYear else { return .failure(.beforeEarliestYear(day: day, today: today)) }
        guard day <= today else { return .failure(.afterToday(day: day, today: today)) }
        let merchant: String
        switch resolveMerchant(typed, among: series) {
        case .failure(let e): return .failure(.unknownMerchant(e))
        case .success(let m): merchant = m
        }
        let cancellation = Cancellation(merchant: merchant, day: day)
        guard series.contains(where: { applies(cancellation, to: $0.history) }) else {
            let named = series.filter { s in s.history.contains { MerchantMemory.sameShop($0.merchant, merchant) } }
            let first = named.map(\.firstCharge).min() ?? day
            return .failure(.beforeFirstCharge(day: day, merchant: merchant, firstCharge: first, today: today))
        }
        return .success(cancellation)
    }

    /// Fewest letters and digits a typed name needs to be taken as part of a series' name.
    static let shortestPart = 3
    /// Most suggestions an unknown name gets.
    static let mostSuggestions = 3

    /// The series name a person's typed name stands for (letters and digits compared, case and accents folded):
    /// 1. the same name ("netflix" for "Netflix");
    /// 2. else part of exactly one series' name, three letters or more ("spotify" for "Spotify AB"); part of
    ///    several is ambiguous, and the error names them all.
    /// A misspelling is never taken for a name, since a cancellation recorded against the wrong series would hide
    /// the charges it should catch: it fails with the names at most one edit in three letters of the typed name
    /// away (from the whole name or its beginning: "Netflx" → "Netflix", "Netflix International B.V."), closest first.
    public static func resolveMerchant(_ typed: String, among series: [Series]) -> Result<String, UnknownMerchant> {
        let key = MerchantMemory.squeezed(typed)
        var names: [(name: String, key: String)] = []
        for s in series where !names.contains(where: { $0.key == MerchantMemory.squeezed(s.merchant) }) {
            names.append((s.merchant, MerchantMemory.squeezed(s.merchant)))
        }
        guard !key.isEmpty else { return .failure(UnknownMerchant(typed: typed, suggestions: [], isAmbiguous: false)) }
        if let same = names.first(where: { $0.key == key }) { return .success(same.name) }
        if key.count >= shortestPart {
            let containing = names.filter { $0.key.contains(key) }.map(\.name)
            if containing.count == 1 { return .success(containing[0]) }
            if containing.count > 1 { return .failure(UnknownMerchant(typed: typed, suggestions: containing.sorted(), isAmbiguous: true)) }
        }
        let typedBytes = Array(key.utf8)
        let limit = max(1, typedBytes.count / 3)
        let near = names.compactMap { n -> (name: String, distance: Int)? in
            let bytes = Array(n.key.utf8)
            let distance = min(editDistance(typedBytes, bytes), editDistance(typedBytes, Array(bytes.prefix(typedBytes.count))))
            return distance <= limit ? (n.name, distance) : nil
        }
        let suggestions = near.sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }.prefix(mostSuggestions).map(\.name)
        return .failure(UnknownMerchant(typed: typed, suggestions: suggestions, isAmbiguous: false))
    }

    /// Insertions, deletions and substitutions that turn `a` into `b` (Levenshtein).
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int { ShoeboxCore.editDistance(a, b) }
}
