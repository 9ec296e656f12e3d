/// RFC 4180 CSV: CRLF line ends, a header, the same number of fields on every row,
/// fields holding a comma, quote, CR or LF quoted with quotes doubled. UTF-8.
public struct CSVWriter: Sendable {
    public let header: [String]
    private(set) var rows: [[String]] = []

    public init(header: [String]) { self.header = header }

    public enum RowError: Error, CustomStringConvertible {
        case wrongFieldCount(expected: Int, got: Int)
        public var description: String {
            switch self {
            case let .wrongFieldCount(e, g): return "CSV row has \(g) fields, the header has \(e)"
            }
        }
    }

    public mutating func append(_ row: [String]) throws(RowError) {
        guard row.count == header.count else { throw .wrongFieldCount(expected: header.count, got: row.count) }
        rows.append(row)
    }

    public static func field(_ value: String) -> String {
        let needsQuotes = value.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard needsQuotes else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    public var text: String {
        ([header] + rows).map { $0.map(CSVWriter.field).joined(separator: ",") + "\r\n" }.joined()
    }
}

import Foundation
