import ShoeboxCore

/// `totals.csv` and `ledger.beancount`: sums and bookings computed from the same rows as the summary, in
/// minor units (never in floating point).
public enum ExportSummaries {
    /// Per currency, then per category and currency, then per card paid with and currency: record count, total, tax and net summed exactly, signs kept
    /// (a credit note's negative amounts lower the sums). Amounts in different currencies are never added together.
    /// The net of a group is left empty when a row of it has none (no tax read): a partial sum would pass for
    /// the whole.
    public static func totals(_ table: ExportTable, profile: CSVWriter.Profile) -> String {
        // nil once a sum would overflow Int64: its cell is left empty (a store written outside Shoebox may hold
        // amounts no import lets in); the other cells are still right.
        struct Sum {
            var count = 0
            var total: Int64? = 0
            var tax: Int64? = 0
            var net: Int64? = 0
            var digits = 2
        }
        var byCurrency: [String: Sum] = [:]
        var byCategory: [String: [String: Sum]] = [:]
        var byCard: [String: [String: Sum]] = [:]
        for row in table.rows {
            guard let total = row.record.total else { continue }
            let code = total.currency.code
            func add(_ s: inout Sum) {
                s.count += 1
                s.total = s.total.flatMap { Money.checkedSum([$0, total.minorUnits]) }
                s.tax = s.tax.flatMap { sum in
                    Money.checkedSum(row.record.tax.map(\.amount.minorUnits)).flatMap { Money.checkedSum([sum, $0]) }
                }
                s.net = s.net.flatMap { sum in
                    guard case .amount(let net) = ExportTable.net(row.record), net.currency == total.currency else { return nil }
                    return Money.checkedSum([sum, net.minorUnits])
                }
                s.digits = total.currency.minorDigits
            }
            add(&byCurrency[code, default: Sum()])
            add(&byCategory[row.category ?? "", default: [:]][code, default: Sum()])
            if let card = row.record.card { add(&byCard[card.display, default: [:]][code, default: Sum()]) }
        }
        var csv = CSVWriter(header: ["group", "category", "currency", "records", "total", "tax", "net"], profile: profile)
        func line(_ group: String, _ category: String, _ code: String, _ s: Sum) {
            let amount = { (u: Int64?) in u.map { CSVWriter.decimal(Money.decimalString(minorUnits: $0, digits: s.digits), profile) } ?? "" }
            try? csv.append([group, SpreadsheetText.neutralised(category), code, String(s.count), amount(s.total), amount(s.tax), amount(s.net)])
        }
        for code in byCurrency.keys.sorted() { line("currency", "", code, byCurrency[code]!) }
        for category in byCategory.keys.sorted() {
            for code in byCategory[category]!.keys.sorted() { line("category", category, code, byCategory[category]![code]!) }
        }
        // Per card paid with ("VISA ••••4242"), in the category column: what each card carried.
        for card in byCard.keys.sorted() {
            for code in byCard[card]!.keys.sorted() { line("card", card, code, byCard[card]![code]!) }
        }
        return csv.text
    }

    /// A beancount file: one transaction per record, flagged `!` for the bookkeeper to complete, booked to
    /// `Expenses:<Category>` (or `Expenses:Uncategorized`) against `Liabilities:ToReconcile`, with a
    /// `document` line pointing at the receipt inside the zip.
    public static func beancount(_ table: ExportTable) -> String {
        let dated = table.rows.filter { $0.record.date != nil && $0.record.total != nil }
        var accounts = Set<String>()
        var body = ""
        for row in dated {
            let r = row.record
            let total = r.total!
            let account = expenseAccount(row.category)
            accounts.insert(account)
            let narration = [r.documentKind?.rawValue, r.referenceNumber].compactMap { $0 }.joined(separator: " ")
            body += "\(r.date!.iso) ! \(quoted(r.merchant ?? "unknown")) \(quoted(narration))\n"
            // An expense entered by hand has no document to name.
            if !row.fileInZip.isEmpty { body += "  document: \(quoted(row.fileInZip))\n" }
            body += "  shoebox_id: \(quoted(row.recordID))\n"
            body += "  \(account)  \(total.decimalString) \(total.currency.code)\n"
            body +=
                "  Liabilities:ToReconcile  \(Money(minorUnits: -total.minorUnits, currency: total.currency).decimalString) \(total.currency.code)\n\n"
        }
        // A record without a date or total cannot be a transaction; it is named, so none goes missing.
        let undated = table.rows.filter { $0.record.date == nil || $0.record.total == nil }
            .map {
                "; not booked (no \($0.record.date == nil ? "date" : "total")): \($0.fileInZip.isEmpty ? $0.record.source : $0.fileInZip) \($0.record.total?.description ?? "")\n"
            }.joined()
        guard let first = dated.compactMap(\.record.date).min() else { return "; no dated records with a total\n" + undated }
        var head = "; Shoebox export: every transaction is flagged ! for the bookkeeper to complete.\n" + undated + "\n"
        for account in (accounts.sorted() + ["Liabilities:ToReconcile"]) { head += "\(first.iso) open \(account)\n" }
        return head + "\n" + body
    }

    /// `Expenses:` and the category in words starting with a capital, ASCII letters and digits only.
    static func expenseAccount(_ category: String?) -> String {
        // Beancount account names are ASCII: accents are folded away ("médical" → "Medical").
        let words = TextFolding.fold(category ?? "").split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        let name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = name.first, first.isLetter else { return "Expenses:Uncategorized" }
        return "Expenses:\(name)"
    }

    static func quoted(_ s: String) -> String {
        "\""
            + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ") + "\""
    }
}
