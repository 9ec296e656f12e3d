internal import CXlsxWriter
internal import Foundation
internal import ShoeboxCore

/// `summary.xlsx` with libxlsxwriter, one worksheet per sheet of cells (the summary, the items), from the same cells as
/// the CSV files: amounts as numeric cells with the
/// currency's decimals, dates as date cells, text as text cells (never formulas, and neutralised like the
/// CSV), a frozen header row. Written to a scratch file with a fixed creation time, so the same table gives
/// the same bytes.
enum XLSXWriter {
    static func bytes(of sheets: [CellGrid], scratchDirectory: String) throws(ExportError) -> [UInt8] {
        let path = PathText.joined(scratchDirectory, ".summary-\(getpid()).xlsx")
        defer { unlink(path) }
        guard let workbook = workbook_new(path) else {
            throw ExportError(message: "libxlsxwriter could not start \(StoredPath.shown(path)) (disk full or not writable?)")
        }
        var properties = lxw_doc_properties()
        properties.created = time_t(ZipWriter.fixedTime)
        _ = workbook_set_properties(workbook, &properties)
        let bold = workbook_add_format(workbook)
        format_set_bold(bold)
        let dateFormat = workbook_add_format(workbook)
        format_set_num_format(dateFormat, "yyyy-mm-dd")
        var amountFormats: [Int: UnsafeMutablePointer<lxw_format>] = [:]
        func amountFormat(_ digits: Int) -> UnsafeMutablePointer<lxw_format>? {
            if let f = amountFormats[digits] { return f }
            let f = workbook_add_format(workbook)
            format_set_num_format(f, digits == 0 ? "0" : "0." + String(repeating: "0", count: digits))
            amountFormats[digits] = f
            return f
        }
        var failed: lxw_error = LXW_NO_ERROR
        func note(_ rc: lxw_error) { if rc != LXW_NO_ERROR && failed == LXW_NO_ERROR { failed = rc } }
        for grid in sheets {
            guard let sheet = workbook_add_worksheet(workbook, grid.name) else {
                workbook_close(workbook)
                throw ExportError(message: "libxlsxwriter could not add the worksheet \(grid.name)")
            }
            write(grid, to: sheet, bold: bold, dateFormat: dateFormat, amountFormat: amountFormat, note: note)
        }
        let closed = workbook_close(workbook)
        guard failed == LXW_NO_ERROR, closed == LXW_NO_ERROR else {
            let rc = failed != LXW_NO_ERROR ? failed : closed
            throw ExportError(message: "writing summary.xlsx failed: \(String(cString: lxw_strerror(rc)))")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ExportError(message: "summary.xlsx vanished from \(StoredPath.shown(path))")
        }
        return [UInt8](data)
    }

    /// One worksheet: a bold, frozen header row, then the cells.
    static func write(
        _ grid: CellGrid, to sheet: UnsafeMutablePointer<lxw_worksheet>, bold: UnsafeMutablePointer<lxw_format>?,
        dateFormat: UnsafeMutablePointer<lxw_format>?, amountFormat: (Int) -> UnsafeMutablePointer<lxw_format>?, note: (lxw_error) -> Void
    ) {
        for (c, name) in grid.header.enumerated() { note(worksheet_write_string(sheet, 0, lxw_col_t(c), name, bold)) }
        for (i, row) in grid.rows.enumerated() {
            let r = lxw_row_t(i + 1)
            for (c, cell) in row.enumerated() {
                let col = lxw_col_t(c)
                switch cell {
                case .text(let s):
                    // Within Excel's cell limit even after neutralising (the table already cut it; this is the writer's own guard).
                    note(worksheet_write_string(sheet, r, col, TextLimits.cell(SpreadsheetText.neutralised(s), reserve: 0), nil))
                case .amount(let m):
                    // The nearest double to the printed decimal ("12.34"), as a spreadsheet stores a typed amount.
                    note(worksheet_write_number(sheet, r, col, Double(m.decimalString) ?? 0, amountFormat(m.currency.minorDigits)))
                case .date(let d):
                    var dt = lxw_datetime(year: Int32(d.year), month: Int32(d.month), day: Int32(d.day), hour: 0, min: 0, sec: 0)
                    note(worksheet_write_datetime(sheet, r, col, &dt, dateFormat))
                case .number(let x, let digits): note(worksheet_write_number(sheet, r, col, x, amountFormat(digits)))
                case .empty: break
                }
            }
        }
        worksheet_freeze_panes(sheet, 1, 0)
        note(worksheet_set_column(sheet, 0, lxw_col_t(max(0, grid.header.count - 1)), 14, nil))
    }

    static var version: String { LXW_VERSION }
}
