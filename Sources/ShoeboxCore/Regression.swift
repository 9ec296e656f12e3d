public import Foundation

/// Expected values of one fixture (`<name>.expected.json`).
public struct ExpectedFields: Sendable, Equatable {
    public let file: String
    public let merchant: String?
    public let date: String?
    public let total: String?
    public let currency: String?

    public init(file: String, merchant: String?, date: String?, total: String?, currency: String?) {
        self.file = file; self.merchant = merchant; self.date = date; self.total = total; self.currency = currency
    }

    /// Reads the project's fixture format; nil with a reason when it is not one.
    public static func parse(_ data: Data) -> ExpectedFields? {
        guard let o = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], let file = o["file"] as? String else { return nil }
        return ExpectedFields(file: file, merchant: o["merchant"] as? String, date: o["date"] as? String,
                              total: o["total"] as? String, currency: o["currency"] as? String)
    }
}

/// Field-by-field comparison of records with expected values.
public struct RegressionReport: Sendable {
    public struct Miss: Sendable, Equatable {
        public let file: String
        public let field: String
        public let expected: String
        public let found: String
    }

    public static let fields = ["merchant", "date", "total", "currency"]
    public private(set) var right: [String: Int] = [:]
    public private(set) var rightNormalised: [String: Int] = [:]
    public private(set) var checked: [String: Int] = [:]
    public private(set) var misses: [Miss] = []

    public init() {}

    public mutating func add(expected: ExpectedFields, record: DocumentRecord) {
        let pairs: [(String, String?, String?, (String) -> String)] = [
            ("merchant", expected.merchant, record.merchant, ReceiptParser.normalizedMerchant),
            ("date", expected.date, record.date?.iso, { $0 }),
            ("total", expected.total, record.total?.decimalString, { $0 }),
            ("currency", expected.currency, record.currency?.code, { $0.uppercased() }),
        ]
        for (field, want, got, normalise) in pairs {
            guard let want else { continue }
            checked[field, default: 0] += 1
            if want == got { right[field, default: 0] += 1 }
            if let got, normalise(want) == normalise(got) {
                rightNormalised[field, default: 0] += 1
            } else {
                misses.append(Miss(file: expected.file, field: field, expected: want, found: got ?? "(none)"))
            }
        }
    }

    public var allRight: Bool { misses.isEmpty }

    public var text: String {
        var lines = ["field       exact      normalised"]
        for f in RegressionReport.fields where (checked[f] ?? 0) > 0 {
            let n = checked[f]!
            func pct(_ k: Int) -> String { String(format: "%3d/%-3d %5.1f%%", k, n, 100 * Double(k) / Double(n)) }
            lines.append(f.padding(toLength: 10, withPad: " ", startingAt: 0) + "  " + pct(right[f] ?? 0) + "  " + pct(rightNormalised[f] ?? 0))
        }
        if !misses.isEmpty {
            lines.append("")
            lines.append("wrong (normalised):")
            for m in misses { lines.append("  \(m.file)  \(m.field): expected \"\(m.expected)\", found \"\(m.found)\"") }
        }
        return lines.joined(separator: "\n")
    }
}
