import Foundation

/// Chooses one value per field from every source, gives each a confidence, keeps up to three alternates
/// and the provenance of each value, and routes the record: accepted when every required field clears the
/// threshold and nothing needs a person, else review with named reasons.
///
/// The merge policy, in one place (the README's "Trust" section says the same):
/// 1. **The document decides.** The value of a field is the best candidate read from the document itself
///    (PDF text layer, OCR passes, and the arithmetic of its own lines). Confidence = rule score × OCR factor,
///    the OCR factor being the confidence of the words that print the value (else the line's mean) mapped
///    onto 0.8…1; text-layer words count as 100.
/// 2. **Other sources confirm or disagree, never override.** A JSON sidecar (`IMG_0412.jpg.json`) and the
///    date in the file name are independent sources. Agreeing with the document adds to the confidence.
///    A sidecar that disagrees leaves the document's value in place, puts its own value first among the
///    alternates, and sends the record to review (`sources-disagree`). A file name date that disagrees is
///    only an alternate: a file name usually records when the photo was taken, not the purchase.
/// 3. **Gaps are filled, visibly.** A field the document lacks takes the sidecar's value (confidence 0.7,
///    provenance `sidecar`) or the file name's date (0.5: below any sensible threshold, so it goes to review).
/// 4. **Doubt goes to a person.** A runner-up within `ambiguityMargin` (`<field>-ambiguous`), a page
///    arithmetic that computes another total than the one chosen (`arithmetic-mismatch`), the total's or
///    date's own words read with low OCR confidence (`low-ocr-confidence`), a missing or weak required field
///    (`<field>-missing`, `<field>-low-confidence`), an inferred currency (`currency-inferred`), paper that is
///    no purchase (`not-a-purchase`), a sidecar that does not validate (`sidecar-invalid`), a document so long
///    that only its first and last pages were parsed (`long-document`).
public struct RecordMerger: Sendable {
    public let acceptThreshold: Double
    public let requiredFields: [String]
    public let ambiguityMargin: Double
    /// Below this OCR confidence of its own words (0–100), a total is `low-ocr-confidence`.
    public static let totalWordConfidenceFloor = 75.0
    /// The same for a date (dates are printed in smaller type and read lower, measured on SROIE).
    public static let dateWordConfidenceFloor = 60.0
    static let sidecarConfidence = 0.7
    static let fileNameConfidence = 0.5
    static let agreementBonus = 0.15

    public init(acceptThreshold: Double, requiredFields: [String], ambiguityMargin: Double = 0.05) {
        self.acceptThreshold = acceptThreshold
        self.requiredFields = requiredFields
        self.ambiguityMargin = ambiguityMargin
    }

    static func ocrFactor<V>(_ c: Candidate<V>) -> Double {
        guard let e = c.evidence else { return 1 }
        return 0.8 + 0.2 * min(1, max(0, (c.wordConfidence ?? e.ocrConfidence) / 100))
    }

    /// One field's choice: the winner, its confidence, whether a different runner-up is close, and the
    /// best candidates with other values.
    struct Choice<V: Hashable & Sendable & Codable> {
        let candidate: Candidate<V>
        var confidence: Double
        let ambiguous: Bool
        var alternates: [Alternate]
    }

    func choose<V>(_ candidates: [Candidate<V>], _ render: (V) -> String) -> Choice<V>? {
        // Equal confidences go to the value more lines print, then to the earlier candidate: the same reading
        // every time, whatever order the passes came in.
        let live = candidates.filter { $0.score > 0 }
        let support = Dictionary(grouping: live, by: \.value).mapValues(\.count)
        let ranked = live.enumerated().map { (i, c) in (c, c.score * RecordMerger.ocrFactor(c), support[c.value] ?? 0, i) }
            .sorted { ($0.1, $0.2, -$0.3) > ($1.1, $1.2, -$1.3) }.map { ($0.0, $0.1) }
        guard let first = ranked.first else { return nil }
        let ambiguous = ranked.dropFirst().contains { $0.0.value != first.0.value && first.1 - $0.1 < ambiguityMargin }
        var seen: Set<String> = [render(first.0.value)]
        var alternates: [Alternate] = []
        for (c, conf) in ranked.dropFirst() where alternates.count < 3 && seen.insert(render(c.value)).inserted {
            alternates.append(
                Alternate(
                    value: render(c.value), confidence: RecordMerger.rounded(min(1, conf)),
                    source: RecordMerger.source(of: c), reason: c.notes.first ?? c.role))
        }
        return Choice(candidate: first.0, confidence: min(1, first.1), ambiguous: ambiguous, alternates: alternates)
    }

    static func source<V>(of c: Candidate<V>) -> String {
        if c.notes.contains(where: { $0.hasPrefix("computed:") }) { return "arithmetic" }
        return c.evidence?.source.rawValue ?? "document"
    }

    static func evidence<V>(of c: Candidate<V>) -> FieldEvidence {
        FieldEvidence(
            source: source(of: c), page: c.evidence?.page, line: c.evidence.map { $0.line + 1 }, text: c.evidence?.text,
            ocrConfidence: (c.wordConfidence ?? c.evidence?.ocrConfidence).map(rounded))
    }

    static func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

    /// Backwards-compatible entry for callers without other sources.
    public func merge(_ extraction: Extraction, source: SourceFile, language: LanguageGuess, pages: Int) -> DocumentRecord {
        merge(extraction, source: source, language: language, pages: pages, other: OtherSources())
    }

    public func merge(_ extraction: Extraction, source: SourceFile, language: LanguageGuess, pages: Int, other: OtherSources) -> DocumentRecord {
        var record = DocumentRecord(source: source.relativePath, folder: source.folder, sha256: source.sha256, status: .review)
        record.pages = pages
        record.language = language.language
        record.documentKind = extraction.documentKind
        var reasons: [String] = []
        let sidecar = other.sidecar

        // Currency.
        if let ch = choose(extraction.currencies, { $0 }) {
            record.currency = CurrencyCode(ch.candidate.value)
            record.confidence["currency"] = ch.confidence
            record.evidence["currency"] = RecordMerger.evidence(of: ch.candidate)
            record.alternates["currency"] = ch.alternates
            if ch.candidate.role == "inferred" { reasons.append("currency-inferred") }
            if ch.ambiguous { reasons.append("currency-ambiguous") }
        }
        if let given = sidecar?.currency {
            if reconcile("currency", document: record.currency?.code, given: given.code, source: "sidecar", record: &record, reasons: &reasons) {
                record.currency = given
            }
            // A currency the sidecar confirms is no longer only inferred.
            if record.currency == given { reasons.removeAll { $0 == "currency-inferred" } }
        }

        // Total.
        let totals = extraction.amounts.filter { $0.score > 0 }
        if let ch = choose(totals, { $0.decimalString }) {
            let c = ch.candidate
            if let currency = record.currency ?? c.value.currencyHint.flatMap(CurrencyCode.init) {
                record.total = c.value.money(in: currency)
                record.currency = currency
            }
            record.confidence["total"] = ch.confidence
            record.evidence["total"] = RecordMerger.evidence(of: c)
            record.alternates["total"] = ch.alternates
            if ch.ambiguous { reasons.append("total-ambiguous") }
            // The page's own arithmetic (tendered − change, subtotal + tax) gives another total, and none
            // confirms the chosen one: one of the lines was misread, and a person must look.
            let confirmed = c.notes.contains { $0.contains(" = ") }
            if !confirmed, totals.contains(where: { $0.value.minorUnits != c.value.minorUnits && $0.notes.contains { $0.hasPrefix("computed:") } }) {
                reasons.append("arithmetic-mismatch")
            }
            if c.evidence?.source == .ocr, let w = c.wordConfidence ?? c.evidence?.ocrConfidence, w < RecordMerger.totalWordConfidenceFloor {
                reasons.append("low-ocr-confidence")
            }
        }
        if let given = sidecar?.total {
            let currency = record.currency ?? sidecar?.currency ?? given.currencyHint.flatMap(CurrencyCode.init)
            let document = record.total?.decimalString
            if reconcile(
                "total", document: document, given: currency.map { given.money(in: $0).decimalString } ?? given.decimalString,
                source: "sidecar", record: &record, reasons: &reasons), let currency
            {
                record.total = given.money(in: currency)
                record.currency = currency
            }
        }
        if let cur = record.currency {
            if let sub = extraction.amounts(withRole: .subtotal).last { record.subtotal = sub.value.money(in: cur) }
            if let tip = extraction.amounts(withRole: .tip).last, tip.value.minorUnits > 0 { record.tip = tip.value.money(in: cur) }
            // No tax rate in use anywhere exceeds 27 % of the net, about 21 % of the gross: a larger "tax" is the
            // net or gross amount printed on the tax line, not the tax.
            record.tax = extraction.taxes.map { TaxLine(rate: $0.rate, amount: $0.amount.money(in: cur)) }
                .filter { t in record.total.map { abs(t.amount.minorUnits) * 100 <= abs($0.minorUnits) * 30 } ?? true }
        }

        // Date: transaction dates first.
        if let ch = choose(extraction.dates.filter { $0.role == "transaction" } + extraction.dates.filter { $0.role != "transaction" }, { $0.iso }) {
            record.date = ch.candidate.value
            record.confidence["date"] = ch.confidence
            record.evidence["date"] = RecordMerger.evidence(of: ch.candidate)
            record.alternates["date"] = ch.alternates
            // A date shape elsewhere on the page that reads as no date ("17-66-13", "2918-03-18") is the date
            // printed again and misread, or this date misread in another pass: a digit misread with confidence
            // is told apart only by the page reading its date differently. Measured on SROIE: it caught all
            // three wrong auto-accepted records and cost two right ones.
            if ch.ambiguous || !extraction.unreadDates.isEmpty { reasons.append("date-ambiguous") }
            if ch.candidate.evidence?.source == .ocr, let w = ch.candidate.wordConfidence, w < RecordMerger.dateWordConfidenceFloor {
                reasons.append("low-ocr-confidence")
            }
        }
        if let given = sidecar?.date {
            let document = record.date?.iso
            if reconcile("date", document: document, given: given.iso, source: "sidecar", record: &record, reasons: &reasons) { record.date = given }
        }
        if let named = other.fileNameDate {
            if record.date == named {
                record.confidence["date"] = min(1, (record.confidence["date"] ?? 0) + RecordMerger.agreementBonus)
                record.evidence["date"]?.confirmedBy.append("filename")
            } else if record.date == nil {
                record.date = named
                record.confidence["date"] = RecordMerger.fileNameConfidence
                record.evidence["date"] = FieldEvidence(source: "filename", text: (source.relativePath as NSString).lastPathComponent)
            } else {
                var alts = record.alternates["date"] ?? []
                alts.removeAll { $0.value == named.iso }
                alts.append(
                    Alternate(value: named.iso, confidence: RecordMerger.fileNameConfidence, source: "filename", reason: "the date in the file name"))
                record.alternates["date"] = Array(alts.suffix(3))
            }
        }

        // Merchant.
        if let ch = choose(extraction.merchants, { $0 }) {
            record.merchant = ch.candidate.value
            record.confidence["merchant"] = ch.confidence
            record.evidence["merchant"] = RecordMerger.evidence(of: ch.candidate)
            record.alternates["merchant"] = ch.alternates
        }
        if let given = sidecar?.merchant {
            let same = record.merchant.map { ReceiptParser.normalizedMerchant($0) == ReceiptParser.normalizedMerchant(given) } ?? false
            let document = same ? given : record.merchant
            if reconcile("merchant", document: document, given: given, source: "sidecar", record: &record, reasons: &reasons) {
                record.merchant = given
            }
        }
        record.merchantNormalized = record.merchant.map(ReceiptParser.normalizedMerchant)

        // Reference number, seller tax ID, payment method.
        if let ch = choose(extraction.references, { $0 }) {
            record.referenceNumber = ch.candidate.value
            record.evidence["referenceNumber"] = RecordMerger.evidence(of: ch.candidate)
            record.alternates["referenceNumber"] = ch.alternates
        }
        if let given = sidecar?.referenceNumber {
            let document = record.referenceNumber
            if reconcile("referenceNumber", document: document, given: given, source: "sidecar", record: &record, reasons: &reasons) {
                record.referenceNumber = given
            }
        }
        record.sellerTaxID = choose(extraction.sellerTaxIDs, { $0 })?.candidate.value
        record.paymentMethod = choose(extraction.paymentMethods, { $0 })?.candidate.value
        if extraction.documentKind == .notAPurchase { reasons.append("not-a-purchase") }
        if extraction.pagesSkipped > 0 { reasons.append("long-document") }
        if let problems = sidecar?.problems, !problems.isEmpty { reasons.append("sidecar-invalid") }

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
        record.alternates = record.alternates.filter { !$0.value.isEmpty }
        record.reasons = RecordMerger.unique(reasons)
        record.status = record.reasons.isEmpty ? .accepted : .review
        record.reviewedBy = record.status == .accepted ? "pipeline" : nil
        return record
    }

    /// Weighs another source's value for a field against the document's (policy points 2 and 3). True when
    /// the document has no value, so the caller takes the given one (its confidence and provenance are set here).
    private func reconcile(
        _ field: String, document: String?, given: String, source: String, record: inout DocumentRecord,
        reasons: inout [String]
    ) -> Bool {
        guard let document else {
            record.confidence[field] = RecordMerger.sidecarConfidence
            record.evidence[field] = FieldEvidence(source: source)
            return true
        }
        if document == given {
            if record.confidence[field] != nil {
                record.confidence[field] = min(1, record.confidence[field]! + RecordMerger.agreementBonus)
            }
            record.evidence[field]?.confirmedBy.append(source)
            return false
        }
        var alts = record.alternates[field] ?? []
        alts.removeAll { $0.value == given }
        alts.insert(Alternate(value: given, confidence: RecordMerger.sidecarConfidence, source: source, reason: "the \(source) says \(given)"), at: 0)
        record.alternates[field] = Array(alts.prefix(3))
        reasons.append("sources-disagree")
        return false
    }

    /// Keeps first occurrences, in order.
    static func unique(_ items: [String]) -> [String] {
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
    }
}
