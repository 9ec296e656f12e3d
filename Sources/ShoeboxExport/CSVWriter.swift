import ShoeboxCore

/// RFC 4180 CSV: CRLF line ends, a header, the same number of fields on every row,
/// fields holding the separator, a quote, CR or LF quoted with quotes doubled. UTF-8.
/// The `excel-eu` profile is the variant a European spreadsheet opens on double-click: a UTF-8 byte-order
/// mark, `;` between fields and a decimal comma in amounts.
public struct CSVWriter: Sendable {
    public enum Profile: String, Sendable, CaseIterable {
        case rfc4180 = "rfc4180"
        case excelEU = "excel-eu"

        var separator: Character { self == .excelEU ? ";" : "," }
        var decimalSeparator: Character { self == .excelEU ? "," : "." }
    }

    public let header: [String]
    let profile: Profile
    private(set) var rows: [[String]] = []

    init(header: [String], profile: Profile = .rfc4180) {
        self.header = header
        self.profile = profile
    }

    public enum RowError: Error, CustomStringConvertible {
        case wrongFieldCount(expected: Int, got: Int)
        public var description: String {
            switch self {
            case .wrongFieldCount(let e, let g): return "CSV row has \(g) fields, the header has \(e)"
            }
        }
    }

    mutating func append(_ row: [String]) throws(RowError) {
        guard row.count == header.count else { throw .wrongFieldCount(expected: header.count, got: row.count) }
        rows.append(row)
    }

    public static func field(_ value: String, separator: Character = ",") -> String {
        let needsQuotes = value.contains { $0 == separator || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard needsQuotes else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    public var text: String {
        let sep = String(profile.separator)
        let body = ([header] + rows).map { $0.map { CSVWriter.field($0, separator: profile.separator) }.joined(separator: sep) + "\r\n" }.joined()
        return profile == .excelEU ? "\u{FEFF}" + body : body
    }

    /// One cell as CSV text: text neutralised against formulas, amounts as plain decimal numbers (a leading
    /// minus stays: it is a number), dates ISO 8601.
    static func render(_ cell: ExportCell, profile: Profile) -> String {
        switch cell {
        case .text(let s): return SpreadsheetText.neutralised(s)
        case .amount(let m): return decimal(m.decimalString, profile)
        case .date(let d): return d.iso
        case .number(let x, let digits): return decimal(String(format: "%.\(digits)f", x), profile)
        case .empty: return ""
        }
    }

    static func decimal(_ s: String, _ profile: Profile) -> String {
        profile.decimalSeparator == "." ? s : s.replacingOccurrences(of: ".", with: String(profile.decimalSeparator))
    }

    /// A whole table in this profile.
    public static func text(of table: ExportTable, profile: Profile) -> String { text(of: table.grid, profile: profile) }

    /// A sheet of cells in this profile.
    public static func text(of grid: CellGrid, profile: Profile) -> String {
        var csv = CSVWriter(header: grid.header, profile: profile)
        for row in grid.rows { csv.rows.append(row.map { render($0, profile: profile) }) }
        return csv.text
    }
}
