/// One thing the merge knew about a field's chosen value, by its stable name (the record's `trust`, the model file,
/// `shoebox regress`). Named once here: a feature the code sets, the fit weighs and the model file carries is one of
/// these, so a misspelt name is a compile error or a model file refused, never a feature silently read as 0.
public enum TrustFeature: String, CaseIterable, Sendable, Codable {
    // Every field's (`TrustFeatures.of`).
    case score, ocr, margin, rivals, support, keyword, arithmetic, computed, bothPasses, bothReaders, readersDisagree, secondOnly
    case printedTwice, textLayer, joinedWords
    // The currency's: printed on the page, or the country's.
    case explicit, country
    // The total's: another figure the page's arithmetic gives, the candidate labelled as the total.
    case mismatch, totalRole
    // The date's: a date-like text left unread, the candidate labelled as the transaction's day.
    case unread, transaction
    // The merchant's: its line from the top, a legal form in it, its words.
    case line, legal, words

    /// Which way it may move P(right): +1 evidence for the value (it can only raise P), −1 evidence against it (it can
    /// only lower P), 0 either way. The fit holds weights to these signs, so that a confirmation never counts against a
    /// value on documents unlike the ones it was fitted on.
    public var direction: Int {
        switch self {
        case .score, .ocr, .margin, .support, .keyword, .arithmetic, .bothPasses, .bothReaders, .printedTwice, .textLayer, .totalRole,
            .transaction, .explicit, .country, .legal:
            1
        case .rivals, .readersDisagree, .secondOnly, .mismatch, .unread, .line: -1
        case .computed, .joinedWords, .words: 0
        }
    }

    /// The feature a model weight's name stands for: "score", or in the joint model "total.score".
    public init?(weightName: String) {
        self.init(rawValue: String(weightName.split(separator: ".").last ?? ""))
    }
}

/// What the merge knew about a field's chosen value when it chose it: the features the calibrated model turns
/// into P(the value is right). Values are small numbers, most of them 0 or 1.
public struct TrustFeatures: Hashable, Sendable, Codable {
    /// By name: a feature's (`TrustFeature.rawValue`), or in the joint model's features "total.score".
    public private(set) var values: [String: Double]

    public init(_ values: [TrustFeature: Double] = [:]) {
        self.values = Dictionary(uniqueKeysWithValues: values.map { ($0.key.rawValue, $0.value) })
    }

    public subscript(_ feature: TrustFeature) -> Double {
        get { values[feature.rawValue] ?? 0 }
        set { values[feature.rawValue] = newValue }
    }

    /// A joint model's feature: `feature` of `field`'s features ("total.score").
    public subscript(field field: String, feature feature: String) -> Double {
        get { values["\(field).\(feature)"] ?? 0 }
        set { values["\(field).\(feature)"] = newValue }
    }

    /// By a model weight's name, as `TrustModel` reads it.
    public func value(named name: String) -> Double { values[name] ?? 0 }

    public init(from decoder: any Decoder) throws { values = try decoder.singleValueContainer().decode([String: Double].self) }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(values.mapValues { ($0 * 1000).rounded() / 1000 })
    }
}
