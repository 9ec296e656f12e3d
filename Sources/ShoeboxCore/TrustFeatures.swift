/// What the merge knew about a field's chosen value when it chose it: the features the calibrated model turns
/// into P(the value is right). Names are stable strings (the record's `trust`, the model file, `shoebox regress`);
/// values are small numbers, most of them 0 or 1.
public struct TrustFeatures: Hashable, Sendable, Codable {
    public var values: [String: Double]

    public init(_ values: [String: Double] = [:]) { self.values = values }

    public subscript(_ name: String) -> Double {
        get { values[name] ?? 0 }
        set { values[name] = newValue }
    }

    public init(from decoder: any Decoder) throws { values = try decoder.singleValueContainer().decode([String: Double].self) }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(values.mapValues { ($0 * 1000).rounded() / 1000 })
    }

    /// Which way a feature may move P(right): +1 evidence for the value (it can only raise P), −1 evidence against it
    /// (it can only lower P); features not named may go either way. The fit holds weights to these signs, so that a
    /// confirmation never counts against a value on documents unlike the ones it was fitted on.
    public static let direction: [String: Int] = [
        "score": 1, "ocr": 1, "margin": 1, "support": 1, "keyword": 1, "arithmetic": 1, "bothPasses": 1, "bothReaders": 1,
        "printedTwice": 1, "textLayer": 1, "totalRole": 1, "transaction": 1, "explicit": 1, "country": 1, "legal": 1,
        "rivals": -1, "readersDisagree": -1, "secondOnly": -1, "mismatch": -1, "unread": -1, "line": -1
    ]
}
