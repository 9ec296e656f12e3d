internal import Foundation

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
    /// `tax_unrated` for tax lines without a rate.
    static func taxColumns(_ rows: [ExportRow]) -> [Column] {
        var rates = Set<String>()
        var unrated = false
        for row in rows { for t in row.record.tax { if let r = t.rate { rates.insert(r) } else { unrated = true } } }
        let sorted = rates.sorted { (Double($0) ?? 0, $0) < (Double($1) ?? 0, $1) }
        var out = sorted.map { rate in
            Column(name: "tax_\(rate)") { row in ExportTable.sum(row.record.tax.filter { $0.rate == rate }.map(\.amount)) }
        }
        if unrated { out.append(Column(name: "tax_unrated") { row in ExportTable.sum(row.record.tax.filter { $0.rate == nil }.map(\.amount)) }) }
        return out
    }

    /// The amounts added up, or `.empty` when there are none or the sum would overflow Int64 (an import checks
    /// every tax amount against `Review.maxTotalMinorUnits`, but a store written another way may hold anything:
    /// an empty cell, never a trap and never a wrapped number).
    static func sum(_ amounts: [Money]) -> ExportCell {
        guard let first = amounts.first, let units = checkedSum(amounts.map(\.minorUnits)) else { return .empty }
        return .amount(Money(minorUnits: units, currency: first.currency))
    }

    /// `values` added up, nil on overflow.
    static func checkedSum(_ values: [Int64]) -> Int64? {
        var total: Int64 = 0
        for v in values {
            let (s, overflow) = total.addingReportingOverflow(v)
            if overflow { return nil }
            total = s
        }
        return total
    }

    static func text(_ s: String?) -> ExportCell { s.map { .text($0) } ?? .empty }

    public init(rows: [ExportRow]) {
        self.rows = rows
        let head: [Column] = [
            Column(name: "date") { $0.record.date.map { .date($0) } ?? .empty },
            Column(name: "merchant") { ExportTable.text($0.record.merchant) },
            Column(name: "total") { $0.record.total.map { .amount($0) } ?? .empty },
            Column(name: "currency") { ExportTable.text($0.record.currency?.code) },
            // Net = total − tax − tip, in minor units, when the tax is known; the engine computes it.
            Column(name: "net") { row in
                let r = row.record
                guard let total = r.total, !r.tax.isEmpty,
                    let tax = ExportTable.checkedSum(r.tax.map(\.amount.minorUnits)),
                    let taxAndTip = ExportTable.checkedSum([tax, r.tip?.minorUnits ?? 0]),
                    case (let units, false) = total.minorUnits.subtractingReportingOverflow(taxAndTip)
                else { return .empty }
                return .amount(Money(minorUnits: units, currency: total.currency))
            }
        ]
        let tail: [Column] = [
            Column(name: "tip") { $0.record.tip.map { .amount($0) } ?? .empty },
            Column(name: "payment_method") { ExportTable.text($0.record.paymentMethod) },
            Column(name: "category") { ExportTable.text($0.category) },
            Column(name: "reference_number") { ExportTable.text($0.record.referenceNumber) },
            Column(name: "document_kind") { ExportTable.text($0.record.documentKind?.rawValue) },
            Column(name: "file") { .text($0.fileInZip) },
            Column(name: "original_path") { .text($0.record.source) },
            Column(name: "sha256") { .text($0.record.sha256) },
            Column(name: "confidence") { row in
                let r = row.record
                // A person's confirmation is certain; else the weakest required field's confidence.
                if r.reviewedBy == "person" { return .number(1, digits: 3) }
                return .number([Field.merchant, .date, .total, .currency].compactMap { r.confidence[$0] }.min() ?? 0, digits: 3)
            },
            Column(name: "reviewed_by") { ExportTable.text($0.record.reviewedBy) },
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
