internal import Foundation
public import ShoeboxCore

/// One value of an export, typed once: every encoding (CSV, XLSX, JSON) renders the same cells, so the
/// files of one export cannot drift apart.
public enum ExportCell: Equatable, Sendable {
    /// Stays text in every encoding (names, reference numbers, IDs, paths).
    case text(String)
    /// Money: a number with the currency's decimals, from minor units.
    case amount(Money)
    case date(CalendarDay)
    /// A plain number shown with `digits` decimals (confidence).
    case number(Double, digits: Int)
    case empty
}

/// What one exported record brings besides the record itself.
public struct ExportRow: Sendable {
    public let record: DocumentRecord
    public let category: String?
    /// The original's name inside the zip (`receipts/2026-03-14_REWE_3.68-EUR.jpg`).
    public let fileInZip: String
    public let originalPath: String

    public init(record: DocumentRecord, category: String?, fileInZip: String, originalPath: String) {
        self.record = record
        self.category = category
        self.fileInZip = fileInZip
        self.originalPath = originalPath
    }

    /// A stable ID of the record: the first 16 hex digits of SHA-256 over its source path and content hash.
    var recordID: String { ExportRow.recordID(of: record) }

    static func recordID(of r: DocumentRecord) -> String { String(SHA256.hex(of: Data("\(r.source)\n\(r.sha256)".utf8)).prefix(16)) }
}

/// The columns of `summary.csv`, `summary.xlsx` and `summary.json`, defined once.
public struct ExportTable: Sendable {
    public struct Column: Sendable {
        let name: String
        public let cell: @Sendable (ExportRow) -> ExportCell
    }

    let columns: [Column]
    public let rows: [ExportRow]

    /// The tax rates printed on these records, in numeric order; one `tax_<rate>` column each, and
    /// `tax_unrated` for tax lines without a rate. Then, for the rates whose lines carry the net they are computed
    /// on (an e-invoice's tax breakdown), one `net_<rate>` column each (`net_unrated` likewise): only when some
    /// row has one, so an export of receipts keeps the columns it always had.
    static func taxColumns(_ rows: [ExportRow]) -> [Column] {
        var rates = Set<String>()
        var unrated = false
        var basisRates = Set<String>()
        var basisUnrated = false
        for row in rows {
            for t in row.record.tax {
                if let r = t.rate { rates.insert(r) } else { unrated = true }
                if t.basis != nil { if let r = t.rate { basisRates.insert(r) } else { basisUnrated = true } }
            }
        }
        func byRate(_ rates: Set<String>) -> [String] { rates.sorted { (Double($0) ?? 0, $0) < (Double($1) ?? 0, $1) } }
        var out = byRate(rates).map { rate in
            Column(name: "tax_\(rate)") { row in ExportTable.sum(row.record.tax.filter { $0.rate == rate }.map(\.amount)) }
        }
        if unrated { out.append(Column(name: "tax_unrated") { row in ExportTable.sum(row.record.tax.filter { $0.rate == nil }.map(\.amount)) }) }
        out += byRate(basisRates).map { rate in
            Column(name: "net_\(rate)") { row in ExportTable.basisSum(row.record.tax.filter { $0.rate == rate }) }
        }
        if basisUnrated { out.append(Column(name: "net_unrated") { row in ExportTable.basisSum(row.record.tax.filter { $0.rate == nil }) }) }
        return out
    }

    /// The bases of these tax lines added up; `.empty` unless every one states its basis (a partial sum would
    /// pass for the whole net).
    static func basisSum(_ lines: [TaxLine]) -> ExportCell {
        let bases = lines.compactMap(\.basis)
        guard bases.count == lines.count else { return .empty }
        return sum(bases)
    }

    /// The record's net: the sum of its tax lines' bases when every line states one (an e-invoice says exactly
    /// what the tax is computed on), else total − tax − tip when the tax is known; in minor units, overflow-checked.
    static func net(_ r: DocumentRecord) -> ExportCell {
        if !r.tax.isEmpty, case .amount(let m) = basisSum(r.tax) { return .amount(m) }
        guard let total = r.total, !r.tax.isEmpty,
            let tax = Money.checkedSum(r.tax.map(\.amount.minorUnits)),
            let taxAndTip = Money.checkedSum([tax, r.tip?.minorUnits ?? 0]),
            case (let units, false) = total.minorUnits.subtractingReportingOverflow(taxAndTip)
        else { return .empty }
        return .amount(Money(minorUnits: units, currency: total.currency))
    }

    /// What is left to pay on an e-invoice (its due amount) with the sign the record gives the invoice: the
    /// record's total is the invoice's gross, negated for a credit note stated in positive amounts, and the due
    /// amount follows it (when the total is no longer the gross, say edited in review: negated for a credit
    /// note). `.empty` for everything else.
    static func amountDue(_ r: DocumentRecord) -> ExportCell {
        guard let e = r.eInvoice, let due = e.totals.due else { return .empty }
        let flip: Bool
        if let total = r.total, let grand = e.totals.grand, grand.minorUnits != 0, total.minorUnits.magnitude == grand.minorUnits.magnitude {
            flip = (total.minorUnits < 0) != (grand.minorUnits < 0)
        } else {
            flip = e.isCredit
        }
        guard flip else { return .amount(due) }
        let (units, overflow) = Int64(0).subtractingReportingOverflow(due.minorUnits)
        return overflow ? .empty : .amount(Money(minorUnits: units, currency: due.currency))
    }

    /// The amounts added up, or `.empty` when there are none or the sum would overflow Int64 (an import checks
    /// every tax amount against `ReviewLimits.maxTotalMinorUnits`, but a store written another way may hold anything:
    /// an empty cell, never a trap and never a wrapped number).
    static func sum(_ amounts: [Money]) -> ExportCell {
        guard let first = amounts.first, let units = Money.checkedSum(amounts.map(\.minorUnits)) else { return .empty }
        return .amount(Money(minorUnits: units, currency: first.currency))
    }

    static func text(_ s: String?) -> ExportCell { s.map { .text($0) } ?? .empty }

    public init(rows: [ExportRow]) {
        self.rows = rows
        let head: [Column] = [
            Column(name: "date") { $0.record.date.map { .date($0) } ?? .empty },
            Column(name: "merchant") { ExportTable.text($0.record.merchant) },
            Column(name: "total") { $0.record.total.map { .amount($0) } ?? .empty },
            Column(name: "currency") { ExportTable.text($0.record.currency?.code) },
            // The tax lines' bases, else total − tax − tip; the engine computes it, in minor units.
            Column(name: "net") { ExportTable.net($0.record) }
        ]
        let tail: [Column] = [
            Column(name: "tip") { $0.record.tip.map { .amount($0) } ?? .empty },
            Column(name: "amount_due") { ExportTable.amountDue($0.record) },
            Column(name: "payment_method") { ExportTable.text($0.record.paymentMethod) },
            // The card or account paid with: its scheme and last four digits, never more of the number.
            Column(name: "card_scheme") { ExportTable.text($0.record.card?.scheme) },
            Column(name: "card_last4") { ExportTable.text($0.record.card?.last4) },
            // A payment screen's app or bank, and what it was paid from (docs/screens.md).
            Column(name: "provider") { ExportTable.text($0.record.payment?.provider) },
            Column(name: "paid_from") { ExportTable.text($0.record.payment?.paidFrom) },
            Column(name: "category") { ExportTable.text($0.category) },
            Column(name: "note") { ExportTable.text($0.record.note) },
            // The invoice number (an e-invoice's BT-1) or a receipt's reference: one column for both.
            Column(name: "reference_number") { ExportTable.text($0.record.referenceNumber) },
            Column(name: "seller_tax_id") { ExportTable.text($0.record.sellerTaxID) },
            Column(name: "document_kind") { ExportTable.text($0.record.documentKind?.rawValue) },
            Column(name: "due_date") { $0.record.dueDate.map { .date($0) } ?? .empty },
            Column(name: "file") { .text($0.fileInZip) },
            Column(name: "original_path") { .text($0.record.source) },
            Column(name: "sha256") { .text($0.record.sha256) },
            Column(name: "confidence") { row in
                let r = row.record
                // A person's confirmation is certain; else the weakest required field's confidence.
                if r.reviewedBy == "person" { return .number(1, digits: 3) }
                return .number([Field.merchant, .date, .total, .currency].compactMap { r.confidence[$0] }.min() ?? 0, digits: 3)
            },
            // "pipeline" or "person"; a record an agent filed says so after it ("pipeline; entered by agent Claude Code").
            Column(name: "reviewed_by") { row in
                let by = [row.record.reviewedBy, row.record.agentSentence].compactMap { $0 }.joined(separator: "; ")
                return ExportTable.text(by.isEmpty ? nil : by)
            },
            Column(name: "record_id") { .text($0.recordID) }
        ]
        columns = head + ExportTable.taxColumns(rows) + tail
    }

    public var header: [String] { columns.map(\.name) }

    /// A row's cells; a text cell longer than a spreadsheet cell holds is cut with a marker (`TextLimits.cell`),
    /// in every encoding alike, so one over-long value never stops a folder's export.
    public func cells(_ row: ExportRow) -> [ExportCell] {
        columns.map { column in
            let cell = column.cell(row)
            if case .text(let s) = cell { return .text(TextLimits.cell(s)) }
            return cell
        }
    }
}

/// Text a spreadsheet could run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading apostrophe:
/// OWASP's CSV-injection advice. Applied to text cells of CSV and XLSX alike; numbers are never text.
public enum SpreadsheetText {
    public static func neutralised(_ s: String) -> String {
        guard let first = s.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return s }
        return "'" + s
    }
}
