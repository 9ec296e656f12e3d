import Foundation
public import ShoeboxCore

extension TrustFeatures {
    /// The rule score weighed by OCR confidence (0–1), as the merge ranks candidates: what decides reading a page
    /// again, whatever the calibrated model makes of it.
    public var ruleConfidence: Double { min(1, self[.score] * RecordMerger.ocrFactor(self[.ocr])) }

    /// The features of a chosen candidate, from what the merge saw: the candidate, its margin over the best
    /// candidate with another value, how many other values there were and how many candidates read its value.
    static func of<V, R>(_ c: Candidate<V, R>, margin: Double?, rivals: Int, support: Int) -> TrustFeatures {
        var f = TrustFeatures()
        f[.score] = min(1.5, max(0, c.score))
        f[.ocr] = c.evidence.map { e in e.source == .textLayer ? 1 : min(100, max(0, c.wordConfidence ?? e.ocrConfidence)) / 100 } ?? 1
        f[.margin] = margin.map { min(1, max(0, $0)) } ?? 1
        f[.rivals] = Double(min(3, rivals)) / 3
        f[.support] = Double(min(4, max(1, support)) - 1) / 3
        f[.keyword] = c.keyword == nil ? 0 : 1
        f[.arithmetic] = c.arithmeticConfirmed ? 1 : 0
        f[.computed] = c.computed ? 1 : 0
        f[.bothPasses] = c.checks.contains(.bothOCRPasses) ? 1 : 0
        f[.bothReaders] = c.checks.contains(.bothReaders) ? 1 : 0
        f[.readersDisagree] = c.checks.contains(.readersDisagree) ? 1 : 0
        f[.secondOnly] = c.evidence?.source == .secondReader && !c.checks.contains(.bothReaders) ? 1 : 0
        f[.printedTwice] = c.checks.contains { if case .printed(let n) = $0 { n > 1 } else { false } } ? 1 : 0
        f[.textLayer] = c.evidence?.source == .textLayer ? 1 : 0
        f[.joinedWords] = c.checks.contains(.joinedWords) ? 1 : 0
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

        enum CodingKeys: String, CodingKey { case bias, weights }

        /// A weight whose name is no `TrustFeature` (a misspelt or retired one) refuses the file: read as 0 it would
        /// change every probability unseen.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            bias = try c.decode(Double.self, forKey: .bias)
            weights = try c.decode([String: Double].self, forKey: .weights)
            if let unknown = weights.keys.sorted().first(where: { TrustFeature(weightName: $0) == nil }) {
                throw DecodingError.dataCorruptedError(forKey: .weights, in: c, debugDescription: "no trust feature is named '\(unknown)'")
            }
        }

        public func probability(_ f: TrustFeatures) -> Double {
            var z = bias
            for (name, w) in weights { z += w * f.value(named: name) }
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

    /// What each cut of P(total, date and currency all right) gave when cross-validated on the fitting documents
    /// (`make calibrate`): the curve `acceptPrecision` is read against (`cut(for:)`). Nil in a model fitted without folds.
    public var gate: GateCurve?

    public init(fittedOn: String, fields: [String: FieldModel], joint: FieldModel? = nil, gate: GateCurve? = nil) {
        self.fittedOn = fittedOn
        self.fields = fields
        self.joint = joint
        self.gate = gate
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
            for (name, value) in f.values { out[field: field.rawValue, feature: name] = value }
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

    /// The model fitted on the devset and committed (`Sources/ShoeboxJudgement/calibration.json`).
    public static let committed: TrustModel = {
        let bytes = PackageResources.calibration_json
        // The file is the project's own, checked by a test; a broken one leaves every field uncalibrated (review).
        return (try? JSONDecoder().decode(TrustModel.self, from: Data(bytes))) ?? TrustModel(fittedOn: "nothing", fields: [:])
    }()
}

/// The cross-validated accept curve: for each cut of P(total, date and currency all right), how many of the records
/// the rules let through reach it and how many of those have total and date right, each record scored by a model that
/// did not see it. Only records the model judges (read from a page) are counted: an e-invoice's exact values would
/// raise the precision without saying anything about the model.
public struct GateCurve: Sendable, Equatable, Codable {
    public struct Point: Sendable, Equatable, Codable {
        public let cut: Double
        public var accepted: Int
        public var right: Int
        public init(cut: Double, accepted: Int = 0, right: Int = 0) {
            self.cut = cut
            self.accepted = accepted
            self.right = right
        }
        /// Right among the accepted (1 when none is accepted).
        public var precision: Double { accepted == 0 ? 1 : Double(right) / Double(accepted) }
    }

    public var folds: Int
    /// The records the model judges, whether the rules let them through or not: what a share is of.
    public var documents: Int
    /// Ascending by cut.
    public var points: [Point]

    public init(folds: Int, documents: Int, points: [Point]) {
        self.folds = folds
        self.documents = documents
        self.points = points.sorted { $0.cut < $1.cut }
    }

    /// The cuts the curve is measured at: coarse where little is decided, fine from 0.9, where the records the rules let
    /// through cluster.
    public static let cuts: [Double] = {
        let coarse: [Double] = [0, 0.5, 0.6, 0.7, 0.8, 0.85]
        let fine: [Double] = (0..<18).map { (900 + Double($0) * 5) / 1000 }
        let finest: [Double] = (0...9).map { (990 + Double($0)) / 1000 }
        return coarse + fine + finest
    }()

    /// How many accepted records it takes before a precision of `target` says anything: one wrong record must move the
    /// share by no more than the room the target leaves (100 for 0.99), and never fewer than 30.
    public static func support(for target: Double) -> Int { max(30, Int((1 / max(1e-6, 1 - target)).rounded(.up))) }

    /// The lowest cut whose accepted set, of at least `support(for:)` records, reaches `target` when cross-validated; nil
    /// when none does.
    public func lowestCut(reaching target: Double) -> Point? {
        let n = GateCurve.support(for: target)
        return points.first { $0.accepted >= n && $0.precision >= target - 1e-12 }
    }

    /// The point of highest precision among those with at least `support(for: target)` records (else any with one), the
    /// lowest such cut: what the curve can promise at best.
    public func best(for target: Double) -> Point? {
        let n = GateCurve.support(for: target)
        let supported = points.filter { $0.accepted >= n }
        return (supported.isEmpty ? points.filter { $0.accepted > 0 } : supported).max { ($0.precision, -$0.cut) < ($1.precision, -$1.cut) }
    }
}

/// What `acceptPrecision` means with a given model: the per-record cut of P(total, date and currency all right) whose
/// accepted set was that precise when cross-validated (`TrustModel.cut(for:)`).
public struct AcceptGate: Sendable, Equatable {
    public enum Basis: Sendable, Equatable {
        /// `acceptPrecision` 0: the rules alone decide.
        case off
        /// The lowest cut of the model's cross-validated curve that reaches the target.
        case curve(GateCurve.Point, documents: Int)
        /// No cut of the curve reaches the target: the most precise cut it has is used (`best`; none: nothing read from a
        /// page is accepted), and every run, `regress` and `--version` say so.
        case unreachable(best: GateCurve.Point?, documents: Int)
        /// The model carries no curve (fitted without folds): the target is taken as the cut itself.
        case noCurve
    }

    public let target: Double
    public let basis: Basis

    /// The P a record must reach (above 1: none does).
    public var cut: Double {
        switch basis {
        case .off: 0
        case .curve(let p, _): p.cut
        case .unreachable(let best, _): best?.cut ?? 2
        case .noCurve: target
        }
    }

    /// False when the target is out of the curve's reach: what a run's summary warns of.
    public var reached: Bool { if case .unreachable = basis { false } else { true } }

    /// One sentence for `--version`, `regress` and the run's summary.
    public var sentence: String {
        func share(_ p: GateCurve.Point, _ n: Int) -> String {
            String(format: "%.1f %% right, %ld of %ld page-read documents accepted", 100 * p.precision, p.accepted, n)
        }
        let t = String(format: "%g", target)
        switch basis {
        case .off: return "acceptPrecision 0: the rules alone accept (no probability asked)"
        case .curve(let p, let n):
            return String(format: "acceptPrecision %@: records are accepted at P(all right) ≥ %.3f (cross-validated: ", t, p.cut) + share(p, n) + ")"
        case .unreachable(let best, let n):
            let most =
                best.map {
                    String(format: "records are accepted at P(all right) ≥ %.3f, its most precise cut (cross-validated: ", $0.cut) + share($0, n)
                        + ")"
                } ?? "nothing read from a page is accepted without review"
            return "acceptPrecision \(t) cannot be reached: no cut of the model's cross-validated curve is that precise over "
                + "\(GateCurve.support(for: target)) records or more, so \(most). Lower acceptPrecision, or fit the model on more documents"
        case .noCurve:
            return "acceptPrecision \(t): the model has no cross-validated curve (fit it with --folds), so the cut is P ≥ \(t)"
        }
    }
}

extension GateCurve {
    /// The gate `acceptPrecision` (`target`, above 0) stands for by this curve.
    public func gate(for target: Double) -> AcceptGate {
        guard target > 0 else { return AcceptGate(target: target, basis: .off) }
        if let p = lowestCut(reaching: target) { return AcceptGate(target: target, basis: .curve(p, documents: documents)) }
        return AcceptGate(target: target, basis: .unreachable(best: best(for: target), documents: documents))
    }
}

extension TrustModel {
    /// The gate `acceptPrecision` stands for with this model: by its curve, or the target itself without one.
    public func gate(for target: Double) -> AcceptGate {
        guard target > 0 else { return AcceptGate(target: target, basis: .off) }
        return gate?.gate(for: target) ?? AcceptGate(target: target, basis: .noCurve)
    }
}

extension PipelineConfig {
    /// The settings text (`settingsText(modelDigest:)`) with the committed trust model's digest.
    public var settingsText: String { settingsText(modelDigest: TrustModel.committedDigest) }
}
