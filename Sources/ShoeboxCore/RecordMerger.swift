/// Chooses one value per field from the parser's candidates, gives each a confidence, and routes the record:
/// accepted when every required field clears the threshold, else review with named reasons.
///
/// Confidence = rule score × OCR factor, where the OCR factor is the evidence line's mean word confidence
/// (text-layer words count as 100) mapped onto 0.8…1. A field whose runner-up differs in value and scores
/// within `ambiguityMargin` of the winner is ambiguous and goes to review.
public struct RecordMerger: Sendable {
    public let acceptThreshold: Double
    public let requiredFields: [String]
    public let ambiguityMargin: Double

    public init(acceptThreshold: Double, requiredFields: [String], ambiguityMargin: Double = 0.05) {
        self.acceptThreshold = acceptThreshold
        self.requiredFields = requiredFields
        self.ambiguityMargin = ambiguityMargin
    }

    static func ocrFactor(_ evidence: Evidence?) -> Double {
        guard let e = evidence else { return 1 }
        return 0.8 + 0.2 * min(1, max(0, e.ocrConfidence / 100))
    }

    static func best<V>(_ candidates: [Candidate<V>]) -> (Candidate<V>, Double, ambiguous: Bool)? {
        let ranked = candidates.filter { $0.score > 0 }.map { ($0, $0.score * ocrFactor($0.evidence)) }.sorted { $0.1 > $1.1 }
        guard let first = ranked.first else { return nil }
        let ambiguous = ranked.dropFirst().contains { $0.0.value != first.0.value && first.1 - $0.1 < 0.05 }
        return (first.0, min(1, first.1), ambiguous)
    }

    public func merge(_ extraction: Extraction, source: SourceFile, language: LanguageGuess, pages: Int) -> DocumentRecord {
        var record = DocumentRecord(source: source.relativePath, folder: source.folder, sha256: source.sha256, status: .review)
        record.pages = pages
        record.language = language.language
        record.documentKind = extraction.documentKind
        var reasons: [String] = []

        if let (c, conf, ambiguous) = RecordMerger.best(extraction.currencies) {
            record.currency = CurrencyCode(c.value)
            record.confidence["currency"] = conf
            if c.role == "inferred" { reasons.append("currency-inferred") }
            if ambiguous { reasons.append("currency-ambiguous") }
        }
        let totals = extraction.amounts.filter { $0.score > 0 }
        if let (c, conf, ambiguous) = RecordMerger.best(totals) {
            let currency = record.currency ?? c.value.currencyHint.flatMap(CurrencyCode.init)
            if let currency {
                record.total = c.value.money(in: currency)
                record.currency = currency
            }
            record.confidence["total"] = conf
            if ambiguous { reasons.append("total-ambiguous") }
        }
        if let cur = record.currency {
            if let sub = extraction.amounts(withRole: .subtotal).last { record.subtotal = sub.value.money(in: cur) }
            // No tax rate in use anywhere exceeds 27 % of the net, about 21 % of the gross: a larger "tax" is the
            // net or gross amount printed on the tax line, not the tax.
            record.tax = extraction.taxes.map { TaxLine(rate: $0.rate, amount: $0.amount.money(in: cur)) }
                .filter { t in record.total.map { abs(t.amount.minorUnits) * 100 <= abs($0.minorUnits) * 30 } ?? true }
        }
        if let (c, conf, ambiguous) = RecordMerger.best(extraction.dates.filter { $0.role == "transaction" } + extraction.dates.filter { $0.role != "transaction" }) {
            record.date = c.value
            record.confidence["date"] = conf
            if ambiguous { reasons.append("date-ambiguous") }
        }
        if let (c, conf, _) = RecordMerger.best(extraction.merchants) {
            record.merchant = c.value
            record.merchantNormalized = ReceiptParser.normalizedMerchant(c.value)
            record.confidence["merchant"] = conf
        }
        record.referenceNumber = RecordMerger.best(extraction.references)?.0.value
        record.sellerTaxID = RecordMerger.best(extraction.sellerTaxIDs)?.0.value
        if extraction.documentKind == .notAPurchase { reasons.append("not-a-purchase") }
        record.paymentMethod = RecordMerger.best(extraction.paymentMethods)?.0.value

        for field in requiredFields {
            let present: Bool
            switch field {
            case "total": present = record.total != nil
            case "date": present = record.date != nil
            case "merchant": present = record.merchant != nil
            case "currency": present = record.currency != nil
            default: present = true
            }
            if !present {
                reasons.append("\(field)-missing")
            } else if let conf = record.confidence[field], conf < acceptThreshold {
                reasons.append("\(field)-low-confidence")
            }
        }
        record.reasons = Array(NSOrderedSetLike(reasons))
        record.status = record.reasons.isEmpty ? .accepted : .review
        return record
    }
}

/// Keeps first occurrences, in order.
private func NSOrderedSetLike(_ items: [String]) -> [String] {
    var seen = Set<String>()
    return items.filter { seen.insert($0).inserted }
}
