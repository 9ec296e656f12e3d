import Foundation
public import ShoeboxCore
public import ShoeboxJudgement

/// One document as the calibration sees it: per field the features of the chosen value and whether the value was
/// right; the reasons that send it to review whatever the probabilities say; and its fold.
public struct TrustRow: Sendable {
    public let document: String
    public let format: String
    public let features: [Field: TrustFeatures]
    public let right: [Field: Bool]
    /// Probabilities the model does not give (an e-invoice's exact values, a sidecar's): used as they are.
    public let fixedConfidence: [Field: Double]
    /// Per field: the rule confidence (`TrustFeatures.ruleConfidence`) that `acceptThreshold` is held against.
    public let ruleConfidence: [Field: Double]
    /// Reasons other than a field's probability falling short: these hold a record in review in any case.
    public let otherReasons: [ReviewReason]
    /// False for failed and duplicate records: never accepted.
    public let judged: Bool
    /// Total and date both right (where expected), against the labels with their corrections (`LabelErrata`).
    public let totalAndDateRight: Bool
    /// The same against the labels as the data set has them.
    public let rightAsLabelled: Bool

    var json: [String: Any] {
        [
            "document": document, "format": format, "judged": judged, "totalAndDateRight": totalAndDateRight, "rightAsLabelled": rightAsLabelled,
            "otherReasons": otherReasons.map(\.code), "fixedConfidence": DocumentRecord.byName(fixedConfidence),
            "right": DocumentRecord.byName(right), "features": DocumentRecord.byName(features.mapValues(\.values)),
            "ruleConfidence": DocumentRecord.byName(ruleConfidence)
        ]
    }

    /// The fold of a document: fixed by its path, whatever else the folder holds (SHA-256's first 8 bytes, mod `folds`).
    public static func fold(of document: String, folds: Int) -> Int {
        let digest = SHA256.hex(of: Array(document.utf8))
        return Int(UInt64(digest.prefix(15), radix: 16)! % UInt64(folds))
    }

    init(_ c: RegressionCase, record: DocumentRecord, right: [Field: Bool], totalAndDateRight: Bool, rightAsLabelled: Bool? = nil) {
        document = c.document
        format = c.format
        features = record.trust
        self.right = right
        fixedConfidence = record.confidence.filter { record.trust[$0.key] == nil }
        var rules = record.trust.mapValues(\.ruleConfidence).merging(fixedConfidence) { a, _ in a }
        // A value another source states alike (the folder's currency, a sidecar, the memory) is not held by the rules'
        // floor, as in the pipeline (`RecordMerger.confirmedElsewhere`).
        for f in rules.keys where RecordMerger.confirmedElsewhere(record.evidence[f]) { rules[f] = 1 }
        ruleConfidence = rules
        otherReasons = record.reasons.filter { if case .lowConfidence = $0 { false } else { true } }
        judged = record.status == .accepted || record.status == .review
        self.totalAndDateRight = totalAndDateRight
        self.rightAsLabelled = rightAsLabelled ?? totalAndDateRight
    }
}

/// What the rules ask of a record before the probability is asked at all: judged, no review reason besides a field's
/// confidence, and each required field's rule confidence at `acceptThreshold`. The joint model is fitted on these
/// records only, because it is only ever asked about them.
public struct RulesGate: Sendable {
    public let requiredFields: [Field]
    public let acceptThreshold: Double

    public init(requiredFields: [Field], acceptThreshold: Double) {
        self.requiredFields = requiredFields
        self.acceptThreshold = acceptThreshold
    }

    public func passes(_ row: TrustRow) -> Bool {
        row.judged && row.otherReasons.isEmpty && requiredFields.allSatisfy { (row.ruleConfidence[$0] ?? 0) >= acceptThreshold }
    }
}

/// Fits the trust model (`TrustModel`): an L2-regularised logistic regression per field, by Newton's method, the
/// same result on every machine for the same rows.
public enum TrustFit {
    /// The fields the model calibrates.
    public static let fields: [Field] = [.total, .date, .currency, .merchant]
    /// L2 penalty on the weights (not on the bias): small data, so weights stay modest and no feature that happens to
    /// separate the fitting rows perfectly gets an infinite weight. Chosen by cross-validation on the devset among 0.01,
    /// 0.1 and 1 (docs/calibration.md): 1 pulls every probability below 0.99, 0.01 let one-off features decide.
    static let l2 = 0.1

    public static func fit(_ rows: [TrustRow], fittedOn: String, gate: RulesGate) -> TrustModel {
        var models: [String: TrustModel.FieldModel] = [:]
        for field in fields {
            let samples = rows.compactMap { r in r.features[field].flatMap { f in r.right[field].map { (f, $0) } } }
            guard !samples.isEmpty else { continue }
            models[field.rawValue] = fit(samples)
        }
        return TrustModel(fittedOn: fittedOn, fields: models, joint: fitJoint(rows.filter(gate.passes)))
    }

    /// The joint model of "total, date and currency all right" over the three fields' features together
    /// (`TrustModel.joint`), fitted on the rows given (the caller passes those `RulesGate` lets through: fitted on every
    /// row, the hard cases the rules send to review anyway held the clean records' probability near the devset's
    /// overall rate, under 0.99); nil without rows that have all three.
    static func fitJoint(_ rows: [TrustRow]) -> TrustModel.FieldModel? {
        let samples = rows.compactMap { r in
            TrustModel.jointFeatures(r.features).map { ($0, r.totalAndDateRight && (r.right[.currency] ?? true)) }
        }
        return samples.isEmpty ? nil : fit(samples)
    }

    /// One field's logistic model over every feature name its samples carry, each weight of the sign
    /// `TrustFeature.direction` allows: a feature whose fitted weight has the other sign is left out (weight 0) and
    /// the rest fitted again, until every weight agrees.
    static func fit(_ samples: [(TrustFeatures, Bool)]) -> TrustModel.FieldModel {
        var names = Array(Set(samples.flatMap { $0.0.values.keys })).sorted()
        let all = names
        while true {
            let model = fit(samples, names: names)
            let wrong = names.filter { n in
                guard let sign = TrustFeature(weightName: n)?.direction, sign != 0, let w = model.weights[n] else { return false }
                return Double(sign) * w < 0
            }
            if wrong.isEmpty {
                var weights = model.weights
                for n in all where weights[n] == nil { weights[n] = 0 }
                return TrustModel.FieldModel(bias: model.bias, weights: weights)
            }
            // The most wrong one first: leaving it out moves the others.
            let worst = wrong.max { abs(model.weights[$0]!) < abs(model.weights[$1]!) }!
            names.removeAll { $0 == worst }
        }
    }

    static func fit(_ samples: [(TrustFeatures, Bool)], names: [String]) -> TrustModel.FieldModel {
        let d = names.count + 1
        let x = samples.map { s in [1.0] + names.map { s.0.value(named: $0) } }
        let y = samples.map { $0.1 ? 1.0 : 0.0 }
        var w = [Double](repeating: 0, count: d)
        for _ in 0..<100 {
            var g = [Double](repeating: 0, count: d)
            var h = [[Double]](repeating: [Double](repeating: 0, count: d), count: d)
            for (xi, yi) in zip(x, y) {
                let z = zip(w, xi).reduce(0) { $0 + $1.0 * $1.1 }
                let p = 1 / (1 + exp(-z))
                let v = p * (1 - p)
                for j in 0..<d {
                    g[j] += (yi - p) * xi[j]
                    for k in 0..<d { h[j][k] += v * xi[j] * xi[k] }
                }
            }
            for j in 1..<d {
                g[j] -= l2 * w[j]
                h[j][j] += l2
            }
            // A tiny ridge on the bias keeps the system solvable when every sample is right.
            h[0][0] += 1e-6
            guard let step = solve(h, g) else { break }
            for j in 0..<d { w[j] += step[j] }
            if step.map(abs).max() ?? 0 < 1e-10 { break }
        }
        let weights = Dictionary(uniqueKeysWithValues: zip(names, w.dropFirst()).map { ($0, rounded($1)) })
        return TrustModel.FieldModel(bias: rounded(w[0]), weights: weights)
    }

    static func rounded(_ x: Double) -> Double { (x * 1e6).rounded() / 1e6 }

    /// Solves a · s = b by Gaussian elimination with partial pivoting; nil when a is singular.
    static func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        var m = a
        var r = b
        let n = b.count
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(m[$0][col]) < abs(m[$1][col]) }), abs(m[pivot][col]) > 1e-12 else { return nil }
            m.swapAt(col, pivot)
            r.swapAt(col, pivot)
            for row in (col + 1)..<n {
                let f = m[row][col] / m[col][col]
                if f == 0 { continue }
                for k in col..<n { m[row][k] -= f * m[col][k] }
                r[row] -= f * r[col]
            }
        }
        var s = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var acc = r[row]
            for k in (row + 1)..<n { acc -= m[row][k] * s[k] }
            s[row] = acc / m[row][row]
        }
        return s
    }
}

/// Cross-validated figures: each document's probabilities come from a model fitted on the other folds only.
public struct CrossValidation: Sendable {
    public struct Bin: Sendable {
        public let low: Double
        public let high: Double
        public var count = 0
        public var predicted = 0.0
        public var right = 0
    }

    public struct Point: Sendable {
        public let cut: Double
        public var accepted = 0
        public var right = 0
        /// Right against the labels as the data set has them (`right` is against the corrected labels).
        public var rightAsLabelled = 0
        public var acceptedSROIE = 0
    }

    public let folds: Int
    public let acceptPrecision: Double
    /// Per field: reliability bins (predicted against observed).
    public private(set) var bins: [Field: [Bin]] = [:]
    /// Per field: how many values were scored, and how many right.
    public private(set) var scored: [Field: (count: Int, right: Int)] = [:]
    /// Per cut of P(all right) (`GateCurve.cuts`), as the pipeline decides (`RecordMerger.allRight`: the joint model):
    /// how many of the documents the model judges (read from a page) the rules and the cut let through, and how many of
    /// those have total and date right. What `make calibrate` stores in the model as its `gate`.
    public private(set) var curve: [Point] = []
    /// The same by the product of the per-field probabilities, for comparison.
    public private(set) var productCurve: [Point] = []
    public private(set) var documents = 0
    public private(set) var sroieDocuments = 0
    /// Documents whose P(all right) comes from the model: what the curve's shares are of.
    public private(set) var modelDocuments = 0
    /// Documents whose values the model does not judge (an e-invoice's), and how many of them the rules let through.
    public private(set) var fixedDocuments = 0
    public private(set) var fixedAccepted = 0

    /// Upper edges of the reliability bins: fine near 1, where auto-accepting decides.
    static let edges: [Double] = [0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 1.0000001]
    /// The cuts printed (every cut is in the report and the model).
    static let printedCuts: Set<Double> = [0, 0.5, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.999]

    public init(rows: [TrustRow], folds: Int, requiredFields: [Field], acceptThreshold: Double, acceptPrecision: Double) {
        let gate = RulesGate(requiredFields: requiredFields, acceptThreshold: acceptThreshold)
        self.folds = folds
        self.acceptPrecision = acceptPrecision
        var low = 0.0
        let template = CrossValidation.edges.map { high in
            defer { low = high }
            return Bin(low: low, high: high)
        }
        for f in TrustFit.fields { bins[f] = template }
        curve = GateCurve.cuts.map { Point(cut: $0) }
        productCurve = curve
        let foldOf = rows.map { TrustRow.fold(of: $0.document, folds: folds) }
        for k in 0..<folds {
            let fitting = zip(rows, foldOf).filter { $0.1 != k }.map(\.0)
            let model = TrustFit.fit(fitting, fittedOn: "fold \(k)", gate: gate)
            for (row, fold) in zip(rows, foldOf) where fold == k {
                add(row, model: model, gate: gate)
            }
        }
    }

    private static func count(_ row: TrustRow, probability: Double, in curve: inout [Point]) {
        for i in curve.indices where probability >= curve[i].cut {
            curve[i].accepted += 1
            if row.totalAndDateRight { curve[i].right += 1 }
            if row.rightAsLabelled { curve[i].rightAsLabelled += 1 }
            if row.format == "sroie" { curve[i].acceptedSROIE += 1 }
        }
    }

    private mutating func add(_ row: TrustRow, model: TrustModel, gate: RulesGate) {
        documents += 1
        if row.format == "sroie" { sroieDocuments += 1 }
        var p: [Field: Double] = row.fixedConfidence
        for (field, features) in row.features {
            guard let probability = model.probability(field, features) else { continue }
            p[field] = probability
            guard let right = row.right[field], let i = bins[field]?.firstIndex(where: { probability < $0.high }) else { continue }
            bins[field]![i].count += 1
            bins[field]![i].predicted += probability
            if right { bins[field]![i].right += 1 }
            scored[field, default: (0, 0)].count += 1
            if right { scored[field, default: (0, 0)].right += 1 }
        }
        let judgedByModel = TrustModel.jointFields.contains { row.features[$0] != nil }
        if judgedByModel { modelDocuments += 1 } else { fixedDocuments += 1 }
        guard gate.passes(row) else { return }
        guard judgedByModel else {
            fixedAccepted += 1
            return
        }
        let product = gate.requiredFields.filter(TrustModel.jointFields.contains).reduce(1.0) { $0 * (p[$1] ?? 0) }
        CrossValidation.count(row, probability: product, in: &productCurve)
        let allRight = RecordMerger.allRight(required: gate.requiredFields, trust: row.features, confidence: p, model: model)
        CrossValidation.count(row, probability: allRight, in: &curve)
    }

    /// The curve as the model stores it (`TrustModel.gate`).
    public var gateCurve: GateCurve {
        GateCurve(
            folds: folds, documents: modelDocuments, points: curve.map { GateCurve.Point(cut: $0.cut, accepted: $0.accepted, right: $0.right) })
    }

    /// The gate this run's curve gives the pipeline's `acceptPrecision`.
    public var chosen: AcceptGate { gateCurve.gate(for: acceptPrecision) }

    /// Expected calibration error of a field over the reliability bins: Σ (bin share) × |mean predicted − observed|.
    public func calibrationError(_ field: Field) -> Double? {
        guard let bins = bins[field] else { return nil }
        let n = bins.reduce(0) { $0 + $1.count }
        guard n > 0 else { return nil }
        return bins.filter { $0.count > 0 }.reduce(0) { acc, b in
            acc + Double(b.count) / Double(n) * abs(b.predicted / Double(b.count) - Double(b.right) / Double(b.count))
        }
    }

    /// The curve's point at the cut the pipeline's `acceptPrecision` chooses (nil: unreachable, or no gate asked).
    public var atSetting: Point? {
        switch chosen.basis {
        case .curve(let p, _), .unreachable(let p?, _): curve.first { $0.cut == p.cut }
        case .off: curve.first
        case .unreachable(nil, _), .noCurve: nil
        }
    }

    public var text: String {
        var lines = ["cross-validated over \(folds) folds (each document scored by a model fitted on the other folds):"]
        for field in TrustFit.fields {
            guard let s = scored[field], s.count > 0, let bins = bins[field] else { continue }
            lines.append(
                "  \(field.rawValue): "
                    + String(
                        format: "%ld values, %.1f%% right, expected calibration error %.3f", s.count, 100 * Double(s.right) / Double(s.count),
                        calibrationError(field) ?? 0))
            for b in bins where b.count > 0 {
                lines.append(
                    String(
                        format: "    P %.2f–%.2f  %3ld values  predicted %.3f  observed %.3f", b.low, min(1, b.high), b.count,
                        b.predicted / Double(b.count), Double(b.right) / Double(b.count)))
            }
        }
        lines.append(
            "  auto-accept at each cut of P(all right), of the \(modelDocuments) documents read from a page: accepted, of them total and date right,"
                + " share of SROIE receipts")
        let cut = atSetting?.cut
        lines += curveLines(curve, marked: cut)
        lines.append("  the same by the product of the per-field probabilities (not used by the pipeline):")
        lines += curveLines(productCurve, marked: nil)
        lines.append("  the gate this curve gives: " + chosen.sentence)
        if fixedDocuments > 0 {
            lines.append("  documents whose values the model does not judge (e-invoices): \(fixedAccepted) of \(fixedDocuments) pass the rules")
        }
        return lines.joined(separator: "\n")
    }

    func curveLines(_ curve: [Point], marked: Double?) -> [String] {
        var lines: [String] = []
        for pt in curve where CrossValidation.printedCuts.contains(pt.cut) || pt.cut == marked {
            let mark =
                (pt.cut == marked ? "  <- the pipeline's cut" : "")
                + (pt.rightAsLabelled == pt.right ? "" : "  (\(pt.rightAsLabelled) right as labelled)")
            let precision = pt.accepted == 0 ? 100 : 100 * Double(pt.right) / Double(pt.accepted)
            let share = sroieDocuments == 0 ? 0 : 100 * Double(pt.acceptedSROIE) / Double(sroieDocuments)
            lines.append(
                String(format: "    P ≥ %.3f  %3ld/%ld accepted, %3ld right (%5.1f%%), ", pt.cut, pt.accepted, modelDocuments, pt.right, precision)
                    + String(format: "SROIE %3ld/%ld (%4.1f%%)", pt.acceptedSROIE, sroieDocuments, share) + mark)
        }
        return lines
    }

    public var json: [String: Any] {
        var fieldsOut: [String: Any] = [:]
        for field in TrustFit.fields {
            guard let s = scored[field], s.count > 0, let bins = bins[field] else { continue }
            fieldsOut[field.rawValue] = [
                "values": s.count, "right": s.right, "calibrationError": ((calibrationError(field) ?? 0) * 10000).rounded() / 10000,
                "bins": bins.filter { $0.count > 0 }.map { b in
                    [
                        "low": b.low, "high": min(1, b.high), "count": b.count,
                        "predicted": (b.predicted / Double(b.count) * 10000).rounded() / 10000, "right": b.right
                    ] as [String: Any]
                }
            ]
        }
        return [
            "folds": folds, "documents": documents, "sroieDocuments": sroieDocuments, "modelDocuments": modelDocuments,
            "fixedDocuments": fixedDocuments, "fixedAccepted": fixedAccepted, "acceptPrecision": acceptPrecision, "fields": fieldsOut,
            "cut": atSetting.map { $0.cut as Any } ?? NSNull(),
            "gate": atSetting.map { ["cut": $0.cut, "accepted": $0.accepted, "right": $0.right, "acceptedSROIE": $0.acceptedSROIE] as Any }
                ?? NSNull(),
            "curve": curve.map {
                ["cut": $0.cut, "accepted": $0.accepted, "right": $0.right, "rightAsLabelled": $0.rightAsLabelled, "acceptedSROIE": $0.acceptedSROIE]
            },
            "productCurve": productCurve.map { ["cut": $0.cut, "accepted": $0.accepted, "right": $0.right, "acceptedSROIE": $0.acceptedSROIE] }
        ]
    }
}
