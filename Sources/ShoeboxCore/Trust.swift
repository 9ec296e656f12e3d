import Foundation

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

    /// The rule score weighed by OCR confidence (0–1), as the merge ranks candidates: what decides reading a page
    /// again, whatever the calibrated model makes of it.
    public var ruleConfidence: Double { min(1, self["score"] * RecordMerger.ocrFactor(self["ocr"])) }

    /// The features of a chosen candidate, from what the merge saw: the candidate, its margin over the best
    /// candidate with another value, how many other values there were and how many candidates read its value.
    static func of<V, R>(_ c: Candidate<V, R>, margin: Double?, rivals: Int, support: Int) -> TrustFeatures {
        var f = TrustFeatures()
        f["score"] = min(1.5, max(0, c.score))
        f["ocr"] = c.evidence.map { e in e.source == .textLayer ? 1 : min(100, max(0, c.wordConfidence ?? e.ocrConfidence)) / 100 } ?? 1
        f["margin"] = margin.map { min(1, max(0, $0)) } ?? 1
        f["rivals"] = Double(min(3, rivals)) / 3
        f["support"] = Double(min(4, max(1, support)) - 1) / 3
        f["keyword"] = c.keyword == nil ? 0 : 1
        f["arithmetic"] = c.arithmeticConfirmed ? 1 : 0
        f["computed"] = c.computed ? 1 : 0
        f["bothPasses"] = c.checks.contains(.bothOCRPasses) ? 1 : 0
        f["bothReaders"] = c.checks.contains(.bothReaders) ? 1 : 0
        f["readersDisagree"] = c.checks.contains(.readersDisagree) ? 1 : 0
        f["secondOnly"] = c.evidence?.source == .secondReader && !c.checks.contains(.bothReaders) ? 1 : 0
        f["printedTwice"] = c.checks.contains { if case .printed(let n) = $0 { n > 1 } else { false } } ? 1 : 0
        f["textLayer"] = c.evidence?.source == .textLayer ? 1 : 0
        f["joinedWords"] = c.checks.contains(.joinedWords) ? 1 : 0
        return f
    }
}

/// A logistic model per field: P(right) = 1 / (1 + e^−(bias + Σ weight × feature)). Fitted by `shoebox regress
/// --fit` on documents with known values; the fitted parameters are data (`calibration.json`, embedded in the binary).
public struct TrustModel: Sendable, Equatable, Codable {
    public struct FieldModel: Sendable, Equatable, Codable {
        public var bias: Double
        public var weights: [String: Double]
        public init(bias: Double, weights: [String: Double]) {
            self.bias = bias
            self.weights = weights
        }

        public func probability(_ f: TrustFeatures) -> Double {
            var z = bias
            for (name, w) in weights { z += w * f[name] }
            return 1 / (1 + exp(-z))
        }
    }

    public var version = 1
    /// What the model was fitted on, for people ("364 SROIE receipts, …").
    public var fittedOn: String
    public var fields: [String: FieldModel]
    /// P(total, date and currency all right) from the three fields' features together (`jointFeatures`): what
    /// auto-accepting asks for. One model of the three at once, because their errors are not independent (a bad scan
    /// misreads all of them), so the product of the per-field probabilities is not P(all right).
    public var joint: FieldModel?

    public init(fittedOn: String, fields: [String: FieldModel], joint: FieldModel? = nil) {
        self.fittedOn = fittedOn
        self.fields = fields
        self.joint = joint
    }

    /// P(the value is right) for a field the model knows; nil for one it does not.
    public func probability(_ field: Field, _ features: TrustFeatures) -> Double? {
        fields[field.rawValue]?.probability(features)
    }

    /// The fields the joint model covers: those that change what the books say.
    public static let jointFields: [Field] = [.total, .date, .currency]

    /// The features of total, date and currency together, named "total.arithmetic", "date.margin", …; nil when one of
    /// the three has none (a value the model does not judge: an e-invoice's exact value, a sidecar's).
    public static func jointFeatures(_ trust: [Field: TrustFeatures]) -> TrustFeatures? {
        var out = TrustFeatures()
        for field in jointFields {
            guard let f = trust[field] else { return nil }
            for (name, value) in f.values { out["\(field.rawValue).\(name)"] = value }
        }
        return out
    }

    /// P(total, date and currency all right) by the joint model; nil without one, or when a field has no features.
    public func jointProbability(_ trust: [Field: TrustFeatures]) -> Double? {
        guard let joint, let f = TrustModel.jointFeatures(trust) else { return nil }
        return joint.probability(f)
    }

    /// The first 12 hex digits of the committed model file's SHA-256: part of the settings a record was judged under.
    public static let committedDigest = String(SHA256.hex(of: PackageResources.calibration_json).prefix(12))

    /// The model fitted on the devset and committed (`Sources/ShoeboxCore/calibration.json`).
    public static let committed: TrustModel = {
        let bytes = PackageResources.calibration_json
        // The file is the project's own, checked by a test; a broken one leaves every field uncalibrated (review).
        return (try? JSONDecoder().decode(TrustModel.self, from: Data(bytes))) ?? TrustModel(fittedOn: "nothing", fields: [:])
    }()
}
