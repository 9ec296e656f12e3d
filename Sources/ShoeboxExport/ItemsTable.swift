internal import Foundation
internal import ShoeboxCore

/// A sheet of cells: a name, a header and rows, each cell typed once (`ExportCell`), that CSV and XLSX render alike.
public struct CellGrid: Sendable {
    public let name: String
    public let header: [String]
    public let rows: [[ExportCell]]

    public init(name: String, header: [String], rows: [[ExportCell]]) {
        self.name = name
        self.header = header
        self.rows = rows
    }
}

extension ExportTable {
    /// The summary as a sheet of cells.
    public var grid: CellGrid { CellGrid(name: "summary", header: header, rows: rows.map(cells)) }
}

/// `items.csv` and the XLSX's Items sheet: one row per line item of the exported records, in the records' order, with
/// the record's ID (the summary's `record_id`) and the item's number within its record.
public enum ItemsTable {
    public static let header = [
        "record_id", "item", "kind", "description", "quantity", "unit", "unit_price", "amount", "currency", "tax_rate", "tax_code",
        "items_check", "page", "line", "reader"
    ]

    /// A decimal as printed ("2", "0.532"), as a number cell with as many decimals.
    static func decimal(_ text: String?) -> ExportCell {
        guard let text, let x = Double(text) else { return .empty }
        let digits = text.split(separator: ".").dropFirst().first?.count ?? 0
        return .number(x, digits: digits)
    }

    public static func grid(_ rows: [ExportRow]) -> CellGrid {
        var out: [[ExportCell]] = []
        for row in rows {
            let r = row.record
            for (k, item) in r.items.enumerated() {
                out.append([
                    .text(row.recordID), .number(Double(k + 1), digits: 0), .text(item.kind.rawValue), .text(TextLimits.cell(item.description)),
                    decimal(item.quantity), ExportTable.text(item.unit), decimal(item.unitPrice), .amount(item.amount),
                    .text(item.amount.currency.code), decimal(item.taxRate), ExportTable.text(item.taxCode),
                    ExportTable.text(r.itemsCheck?.rawValue), item.page.map { .number(Double($0), digits: 0) } ?? .empty,
                    item.line.map { .number(Double($0), digits: 0) } ?? .empty, .text(item.source.rawValue)
                ])
            }
        }
        return CellGrid(name: "items", header: header, rows: out)
    }

    /// A record's items as `summary.json` gives them: amounts and decimals as strings (exact), as in the record.
    static func json(_ r: DocumentRecord) -> [[String: Any]] {
        func value(_ s: String?) -> Any { s ?? NSNull() }
        return r.items.enumerated().map { k, item in
            [
                "item": k + 1, "kind": item.kind.rawValue, "description": item.description, "quantity": value(item.quantity),
                "unit": value(item.unit), "unitPrice": value(item.unitPrice), "amount": item.amount.decimalString,
                "taxRate": value(item.taxRate), "taxCode": value(item.taxCode), "page": item.page.map { $0 as Any } ?? NSNull(),
                "line": item.line.map { $0 as Any } ?? NSNull(), "reader": item.source.rawValue
            ]
        }
    }
}
