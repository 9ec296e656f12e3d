import Foundation
import ShoeboxCore

/// An amount as written, with the element it came from (for a reading problem's sentence). Amounts are converted
/// only once the whole document is read: CII states the currency after the lines.
struct WrittenAmount {
    let element: String
    let text: String
}

/// What a syntax's paths fill while the document is read: the invoice's plain fields directly, its amounts as
/// written until `finish()` knows the currency.
struct InvoiceDraft {
    struct DraftLine {
        var line = EInvoice.Line()
        var net: WrittenAmount?
    }

    struct DraftRow {
        var row = EInvoice.TaxRow()
        var basis: WrittenAmount?
        var amount: WrittenAmount?
        /// UBL: the `cac:TaxTotal` the row belongs to (a second one may state the tax in the tax currency).
        var group: Int?
    }

    struct DraftMeans {
        var code: String?
        var iban: String?
        var proprietaryID: String?
    }

    /// A stated tax total and the currency its `currencyID` names.
    struct TaxTotal {
        let currency: String?
        let amount: WrittenAmount
        var group: Int?
    }

    var invoice: EInvoice
    var currencyText: String?
    var lines: [DraftLine] = []
    var rows: [DraftRow] = []
    var means: [DraftMeans] = []
    var totals: [(WritableKeyPath<EInvoice.Totals, Money?>, WrittenAmount)] = []
    var taxTotals: [TaxTotal] = []

    init(syntax: EInvoice.Syntax) {
        invoice = EInvoice(syntax: syntax)
    }

    mutating func line(_ change: (inout DraftLine) -> Void) {
        guard !lines.isEmpty else { return }
        change(&lines[lines.count - 1])
    }

    mutating func row(_ change: (inout DraftRow) -> Void) {
        guard !rows.isEmpty else { return }
        change(&rows[rows.count - 1])
    }

    mutating func paymentMeans(_ change: (inout DraftMeans) -> Void) {
        guard !means.isEmpty else { return }
        change(&means[means.count - 1])
    }

    mutating func total(_ field: WritableKeyPath<EInvoice.Totals, Money?>, _ element: String, _ text: String) {
        totals.append((field, WrittenAmount(element: element, text: text)))
    }

    /// The first day a field states wins (EXTENDED may repeat payment terms with their own due dates).
    mutating func day(_ field: WritableKeyPath<EInvoice, CalendarDay?>, _ day: CalendarDay?) {
        if invoice[keyPath: field] == nil { invoice[keyPath: field] = day }
    }

    /// CII `udt:DateTimeString`: format 102 is YYYYMMDD; 610 (a month) and 616 (a week) name no day and are skipped.
    mutating func ciiDay(_ text: String, format: String?, element: String) -> CalendarDay? {
        switch format {
        case "610", "616": return nil
        case nil, "102":
            let digits = Array(text.utf8)
            if digits.count == 8, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let y = Int(text.prefix(4)), let m = Int(text.dropFirst(4).prefix(2)), let d = Int(text.suffix(2)),
                let day = CalendarDay(year: y, month: m, day: d)
            {
                return day
            }
        default: break
        }
        let named = format.map { " (format \($0))" } ?? ""
        invoice.readingProblems.append("The date \"\(text)\"\(named) in \(element) is not a day in YYYYMMDD form; it was left out.")
        return nil
    }

    /// UBL `xsd:date`: YYYY-MM-DD, possibly followed by a time zone ("Z", "+01:00").
    mutating func isoDay(_ text: String, element: String) -> CalendarDay? {
        if let day = CalendarDay(iso: String(text.prefix(10))), text.count == 10 || "Z+-".contains(text.dropFirst(10).prefix(1)) {
            return day
        }
        invoice.readingProblems.append("The date \"\(text)\" in \(element) is not a day in YYYY-MM-DD form; it was left out.")
        return nil
    }

    /// A rate as a plain decimal without trailing zeros: "19.00" → "19", "5.50" → "5.5", "0.00" → "0".
    /// Text that is not a plain decimal is kept as written.
    static func rate(_ text: String) -> String {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return text }
        var fraction = parts[1]
        while fraction.last == "0" { fraction = fraction.dropLast() }
        return fraction.isEmpty ? String(parts[0]) : "\(parts[0]).\(fraction)"
    }

    /// An account number without the spaces people group IBANs with.
    static func account(_ text: String) -> String {
        String(text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
    }
}
