import Foundation
public import ShoeboxCore
internal import ShoeboxParsing
public import ShoeboxReading

/// Chooses one value per field from every source, gives each a confidence, keeps up to three alternates
/// and the provenance of each value, and routes the record: accepted when every required field clears the
/// threshold and nothing needs a person, else review with named reasons.
///
/// The merge policy, in one place (the README's "Trust" section says the same):
/// 1. **The document decides.** The value of a field is the best candidate read from the document itself
///    (PDF text layer, OCR passes, and the arithmetic of its own lines), ranked by rule score × OCR factor (the
///    rule confidence), the OCR factor being the confidence of the words that print the value (else the line's
///    mean) mapped onto 0.8…1; text-layer words count as 100. The record's confidence is the calibrated model's
///    P(right) from the chosen value's features (`TrustModel`, docs/calibration.md).
/// 2. **Other sources confirm or disagree, never override.** A JSON sidecar (`IMG_0412.jpg.json`), the
///    date in the file name and the merchant memory are independent sources. Agreeing with the document cuts the
///    chance of a wrong value tenfold, and lifts the rules' floor on its score (not the calibrated gate).
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
    public let requiredFields: [Field]
    /// The precision the accepted records must have: the share of them with total, date and currency right; 0 asks
    /// for none (the rules' reasons and `acceptThreshold` alone decide). The model's cross-validated curve turns it into
    /// the per-record cut `gate` holds each record's P(all right) against (docs/calibration.md).
    public let acceptPrecision: Double
    /// `acceptPrecision` as a cut of P(all right), by the model's cross-validated curve.
    public let gate: AcceptGate
    /// Turns each chosen value's features into P(right).
    let model: TrustModel
    let ambiguityMargin: Double
    /// A date's runner-up with another day within this is `date-ambiguous`: wider than other fields' margin, because two
    /// dates close in score (a printed date and a date-shaped code or a misread reprint) were accepted wrong on real
    /// receipts. Chosen on devset folds 0–2 (0.08 to 0.15 route the same), checked on folds 3–4 (docs/calibration.md).
    static let dateAmbiguityMargin = 0.1
    /// Below this OCR confidence of its own words (0–100), a total is `low-ocr-confidence`.
    static let totalWordConfidenceFloor = 75.0
    /// The same for a date (dates are printed in smaller type and read lower).
    static let dateWordConfidenceFloor = 60.0
    static let sidecarConfidence = 0.7
    /// A value the person confirmed with an agent, where the page shows none: it stands as the person's would.
    static let confirmedEntryConfidence = 0.99
    static let fileNameConfidence = 0.5

    public init(
        acceptThreshold: Double, requiredFields: [Field], acceptPrecision: Double = 0, model: TrustModel = .committed, ambiguityMargin: Double = 0.05
    ) {
        self.acceptThreshold = acceptThreshold
        self.requiredFields = requiredFields
        self.acceptPrecision = acceptPrecision
        self.model = model
        gate = model.gate(for: acceptPrecision)
        self.ambiguityMargin = ambiguityMargin
    }

    static func ocrFactor<V, R>(_ c: Candidate<V, R>) -> Double {
        guard let e = c.evidence else { return 1 }
        return ocrFactor(min(1, max(0, (c.wordConfidence ?? e.ocrConfidence) / 100)))
    }

    /// The OCR factor of a value whose words were read with `confidence` (0–1): 0.8…1.
    static func ocrFactor(_ confidence: Double) -> Double { 0.8 + 0.2 * confidence }

    /// One field's choice: the winner, its confidence, whether a different runner-up is close, and the
    /// best candidates with other values.
    struct Choice<V: Hashable & Sendable & Codable, R: CandidateRole> {
        let candidate: Candidate<V, R>
        var confidence: Double
        let ambiguous: Bool
        var alternates: [Alternate]
        /// What the calibrated model reads: the margin over the best other value, how many values, how much support.
        var features: TrustFeatures
    }

    func choose<V, R>(_ candidates: [Candidate<V, R>], margin: Double? = nil, _ render: (V) -> String) -> Choice<V, R>? {
        // Equal confidences go to the value more lines print, then to the earlier candidate: the same reading
        // every time, whatever order the passes came in.
        // Values are compared as rendered: an amount printed with its currency mark on one line and without it on
        // another ("SUMME EUR 3,93", the tax table's "3,93") is one total, not two rivals.
        let live = candidates.filter { $0.score > 0 }
        let support = Dictionary(grouping: live, by: { render($0.value) }).mapValues(\.count)
        let ranked = live.enumerated().map { (i, c) in (c, c.score * RecordMerger.ocrFactor(c), support[render(c.value)] ?? 0, i) }
            .sorted { ($0.1, $0.2, -$0.3) > ($1.1, $1.2, -$1.3) }.map { ($0.0, $0.1) }
        guard let first = ranked.first else { return nil }
        let chosen = render(first.0.value)
        let ambiguous = ranked.dropFirst().contains { render($0.0.value) != chosen && first.1 - $0.1 < (margin ?? ambiguityMargin) }
        let others = ranked.dropFirst().filter { render($0.0.value) != chosen }
        let features = TrustFeatures.of(
            first.0, margin: others.first.map { first.1 - $0.1 }, rivals: Set(others.map { render($0.0.value) }).count,
            support: support[chosen] ?? 1)
        var seen: Set<String> = [render(first.0.value)]
        var alternates: [Alternate] = []
        for (c, conf) in ranked.dropFirst() where alternates.count < 3 && seen.insert(render(c.value)).inserted {
            alternates.append(
                Alternate(
                    value: render(c.value), confidence: RecordMerger.rounded(min(1, conf)),
                    source: RecordMerger.source(of: c), reason: c.notes.first ?? c.role.rawValue))
        }
        return Choice(candidate: first.0, confidence: min(1, first.1), ambiguous: ambiguous, alternates: alternates, features: features)
    }

    static func source<V, R>(of c: Candidate<V, R>) -> Provenance {
        if c.computed { return .arithmetic }
        return c.evidence.map { Provenance($0.source) } ?? .document
    }

    static func evidence<V, R>(of c: Candidate<V, R>) -> FieldEvidence {
        FieldEvidence(
            source: source(of: c), page: c.evidence?.page, line: c.evidence.map { $0.line + 1 }, text: c.evidence?.text,
            ocrConfidence: (c.wordConfidence ?? c.evidence?.ocrConfidence).map(rounded),
            // Tesseract's value that the second reader read alike on the same line.
            confirmedBy: c.checks.contains(.bothReaders) && c.evidence?.source != .secondReader ? [.secondReader] : [])
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
        record.payment = extraction.screen
        record.card = extraction.card
        var reasons: [ReviewReason] = []
        let sidecar = other.sidecar
        mergeCurrency(extraction, sidecar: sidecar, declared: other.declaredCurrency, into: &record, reasons: &reasons)
        mergeTotal(extraction, sidecar: sidecar, into: &record, reasons: &reasons)
        mergeAmountsBesideTotal(extraction, into: &record)
        RecordMerger.mergeItems(extraction, into: &record)
        mergeDate(extraction, sidecar: sidecar, into: &record, reasons: &reasons)
        if let named = other.fileNameDate { weighFileNameDate(named, fileName: PathText.lastComponent(of: source.relativePath), record: &record) }
        mergeMerchant(extraction, sidecar: sidecar, into: &record, reasons: &reasons)
        mergeIdentifiers(extraction, sidecar: sidecar, into: &record, reasons: &reasons)
        // What only a person knows, given beside the scan: never read from the page, so nothing to weigh.
        record.category = sidecar?.category
        record.note = sidecar?.note
        record.sidecarProblems = sidecar?.problems ?? []
        record.agentEntry = RecordMerger.agentEntry(of: sidecar)
        reasons += RecordMerger.documentReasons(extraction, sidecar: sidecar)
        reasons += requiredFieldReasons(record)
        record.alternates = record.alternates.filter { !$0.value.isEmpty }
        record.reasons = RecordMerger.unique(reasons)
        Verdict.settle(&record)
        return record
    }

    /// Sets a field's features, confidence, evidence and alternates from its choice. The confidence is the model's
    /// P(right) from the features (`extra`: the field's own); a field the model does not know keeps the rule score.
    func take<V, R>(_ ch: Choice<V, R>, as field: Field, in record: inout DocumentRecord, extra: [TrustFeature: Double] = [:]) {
        var features = ch.features
        for (k, v) in extra { features[k] = v }
        record.trust[field] = features
        record.confidence[field] = model.probability(field, features) ?? ch.confidence
        record.evidence[field] = RecordMerger.evidence(of: ch.candidate)
        record.alternates[field] = ch.alternates
    }

    private func mergeCurrency(
        _ extraction: Extraction, sidecar: Sidecar?, declared: DeclaredCurrency?, into record: inout DocumentRecord,
        reasons: inout [ReviewReason]
    ) {
        var unprinted = false
        if let ch = choose(extraction.currencies, { $0 }) {
            record.currency = CurrencyCode(ch.candidate.value)
            let country = ch.candidate.checks.contains(.fromCountry)
            take(ch, as: .currency, in: &record, extra: [.explicit: ch.candidate.role == .explicit ? 1 : 0, .country: country ? 1 : 0])
            unprinted = ch.candidate.role == .inferred
            // A page its hints place in one country has that country's currency from evidence: no reason.
            if unprinted && !ch.candidate.checks.contains(.placedByCountry) { reasons.append(.currencyInferred) }
            if ch.ambiguous { reasons.append(.ambiguous(.currency)) }
        }
        if let declared { RecordMerger.weighDeclared(declared, unprinted: unprinted, record: &record, reasons: &reasons) }
        if let given = sidecar?.currency {
            if weighSidecar(
                .currency, document: record.currency?.code, given: given.code, record: &record, reasons: &reasons, by: sidecar?.source ?? .sidecar,
                confirmedByPerson: sidecar?.confirmedByPerson == true)
            {
                record.currency = given
            }
            // A currency the sidecar confirms is no longer only inferred.
            if record.currency == given { reasons.removeAll { $0 == .currencyInferred } }
        }
    }

    /// The currency the user said the folder is in. Inferred alike: no longer only inferred (its probability stays the
    /// model's: a page that prints no currency is harder to read right as a whole, and the joint model knows it).
    /// Inferred otherwise (`unprinted`: from the country, placed or not, or the language): `currency-inferred`, the
    /// declared one first among the alternates. Printed otherwise: read as printed, a purchase abroad. None found: the
    /// declared one, at a sidecar's confidence.
    static func weighDeclared(_ declared: DeclaredCurrency, unprinted: Bool, record: inout DocumentRecord, reasons: inout [ReviewReason]) {
        guard let read = record.currency else {
            record.currency = declared.code
            record.confidence[.currency] = sidecarConfidence
            record.evidence[.currency] = FieldEvidence(source: .folder, text: "\(declared.by) says \(declared.code.code)")
            return
        }
        guard unprinted else { return }
        if read == declared.code {
            record.evidence[.currency]?.confirmedBy.append(.folder)
            reasons.removeAll { $0 == .currencyInferred }
            return
        }
        if !reasons.contains(.currencyInferred) { reasons.append(.currencyInferred) }
        var alts = record.alternates[.currency] ?? []
        alts.removeAll { $0.value == declared.code.code }
        alts.insert(
            Alternate(value: declared.code.code, confidence: sidecarConfidence, source: .folder, reason: "\(declared.by) says \(declared.code.code)"),
            at: 0)
        record.alternates[.currency] = Array(alts.prefix(3))
    }

    private func mergeTotal(_ extraction: Extraction, sidecar: Sidecar?, into record: inout DocumentRecord, reasons: inout [ReviewReason]) {
        let totals = extraction.amounts.filter { $0.score > 0 }
        if let ch = choose(totals, { $0.decimalString }) {
            let c = ch.candidate
            if let currency = record.currency ?? c.value.currencyHint.flatMap(CurrencyCode.init) {
                record.total = c.value.money(in: currency)
                record.currency = currency
            }
            let mismatch = RecordMerger.arithmeticCheck(c, among: totals)
            take(ch, as: .total, in: &record, extra: [.mismatch: mismatch == nil ? 0 : 1, .totalRole: c.role == .total ? 1 : 0])
            if ch.ambiguous { reasons.append(.ambiguous(.total)) }
            if let mismatch { reasons.append(mismatch) }
            let words = c.wordConfidence ?? c.evidence?.ocrConfidence
            if let r = RecordMerger.ocrCheck(c, words: words, floor: RecordMerger.totalWordConfidenceFloor) { reasons.append(r) }
            if let r = RecordMerger.readersCheck(c, .total) { reasons.append(r) }
            // A total the page's other figures proposed for one read a digit off waits for a person.
            if c.checks.contains(.mended) { reasons.append(.lowConfidence(.total)) }
        }
        if let given = sidecar?.total {
            let currency = record.currency ?? sidecar?.currency ?? given.currencyHint.flatMap(CurrencyCode.init)
            let document = record.total?.decimalString
            let text = currency.map { given.money(in: $0).decimalString } ?? given.decimalString
            if weighSidecar(
                .total, document: document, given: text, record: &record, reasons: &reasons, by: sidecar?.source ?? .sidecar,
                confirmedByPerson: sidecar?.confirmedByPerson == true),
                let currency
            {
                record.total = given.money(in: currency)
                record.currency = currency
            }
        }
    }

    /// Subtotal, tip and tax lines, in the record's currency.
    private func mergeAmountsBesideTotal(_ extraction: Extraction, into record: inout DocumentRecord) {
        guard let cur = record.currency else { return }
        if let sub = extraction.amounts(withRole: .subtotal).last { record.subtotal = sub.value.money(in: cur) }
        if let tip = extraction.amounts(withRole: .tip).last, tip.value.minorUnits > 0 { record.tip = tip.value.money(in: cur) }
        // No tax rate in use anywhere exceeds 27 % of the net, about 21 % of the gross: a larger "tax" is the
        // net or gross amount printed on the tax line, not the tax.
        let total = record.total
        record.tax = extraction.taxes.map { TaxLine(rate: $0.rate, amount: $0.amount.money(in: cur)) }
            .filter { t in total.map { abs(t.amount.minorUnits) * 100 <= abs($0.minorUnits) * 30 } ?? true }
    }

    private func mergeDate(_ extraction: Extraction, sidecar: Sidecar?, into record: inout DocumentRecord, reasons: inout [ReviewReason]) {
        // Transaction dates first.
        if let ch = choose(
            extraction.dates.filter { $0.role == .transaction } + extraction.dates.filter { $0.role != .transaction },
            margin: RecordMerger.dateAmbiguityMargin, { $0.iso })
        {
            record.date = ch.candidate.value
            take(
                ch, as: .date, in: &record,
                extra: [.unread: extraction.unreadDates.isEmpty ? 0 : 1, .transaction: ch.candidate.role == .transaction ? 1 : 0])
            // A date shape elsewhere on the page that reads as no date ("17-66-13", "2918-03-18") is the date
            // printed again and misread, or this date misread in another pass: a digit misread with confidence
            // is told apart only by the page reading its date differently.
            if ch.ambiguous || !extraction.unreadDates.isEmpty || extraction.dateInDoubt(ch.candidate.value) { reasons.append(.ambiguous(.date)) }
            let c = ch.candidate
            if let r = RecordMerger.ocrCheck(c, words: c.wordConfidence, floor: RecordMerger.dateWordConfidenceFloor) {
                reasons.append(r)
            }
            if let r = RecordMerger.readersCheck(c, .date) { reasons.append(r) }
            // A day read only by taking letters for digits (or a separator put right) waits for a person, unless the
            // other reader or another line of the page reads the same day; a year put right by the tax the page
            // names waits however the readers read it.
            let confirmed =
                !extraction.yearsMended.contains(c.value) && c.checks.contains { if case .printed = $0 { true } else { $0 == .bothReaders } }
            if c.checks.contains(.mended) && !confirmed { reasons.append(.lowConfidence(.date)) }
        }
        if let given = sidecar?.date {
            if weighSidecar(
                .date, document: record.date?.iso, given: given.iso, record: &record, reasons: &reasons, by: sidecar?.source ?? .sidecar,
                confirmedByPerson: sidecar?.confirmedByPerson == true)
            {
                record.date = given
            }
        }
    }

    private func mergeMerchant(_ extraction: Extraction, sidecar: Sidecar?, into record: inout DocumentRecord, reasons: inout [ReviewReason]) {
        if let ch = choose(extraction.merchants, { $0 }) {
            record.merchant = ch.candidate.value
            let name = TextFolding.fold(ch.candidate.value)
            take(
                ch, as: .merchant, in: &record,
                extra: [
                    .line: Double(min(10, ch.candidate.evidence?.line ?? 0)) / 10,
                    .legal: TextFolding.firstKeyword(in: name, of: Keywords.legalForms) == nil ? 0 : 1,
                    .words: Double(min(8, name.split(separator: " ").count)) / 8
                ])
        }
        if let given = sidecar?.merchant {
            let same = record.merchant.map { ReceiptParser.normalizedMerchant($0) == ReceiptParser.normalizedMerchant(given) } ?? false
            let document = same ? given : record.merchant
            if weighSidecar(
                .merchant, document: document, given: given, record: &record, reasons: &reasons, by: sidecar?.source ?? .sidecar,
                confirmedByPerson: sidecar?.confirmedByPerson == true)
            {
                record.merchant = given
            }
        }
        record.merchantNormalized = record.merchant.map(ReceiptParser.normalizedMerchant)
        // A heading, an address or a number read as the name waits for a person; a name a sidecar gives does not. A phone
        // screen's payee may name its town ("Gerai Cendol Durian Melaka"): there only what no payee is counts.
        if let name = record.merchant, sidecar?.merchant == nil,
            extraction.screen == nil ? ReceiptParser.isNotAName(name) : ReceiptParser.isNotAPayee(name)
        {
            reasons.append(.merchantNotAName)
        }
    }

    /// Reference number, seller tax ID, payment method.
    private func mergeIdentifiers(_ extraction: Extraction, sidecar: Sidecar?, into record: inout DocumentRecord, reasons: inout [ReviewReason]) {
        if let ch = choose(extraction.references, { $0 }) {
            record.referenceNumber = ch.candidate.value
            record.evidence[.referenceNumber] = RecordMerger.evidence(of: ch.candidate)
            record.alternates[.referenceNumber] = ch.alternates
        }
        if let given = sidecar?.referenceNumber {
            if weighSidecar(
                .referenceNumber, document: record.referenceNumber, given: given, record: &record, reasons: &reasons, by: sidecar?.source ?? .sidecar,
                confirmedByPerson: sidecar?.confirmedByPerson == true)
            {
                record.referenceNumber = given
            }
        }
        record.sellerTaxID = choose(extraction.sellerTaxIDs, { $0 })?.candidate.value
        record.paymentMethod = choose(extraction.paymentMethods, { $0 })?.candidate.value
    }

    // MARK: Cross-checks

    /// The page's own arithmetic (tendered − change, subtotal + tax) gives another total, and none confirms
    /// the chosen one: one of the lines was misread, and a person must look.
    static func arithmeticCheck(_ chosen: AmountCandidate, among totals: [AmountCandidate]) -> ReviewReason? {
        guard !chosen.arithmeticConfirmed else { return nil }
        let other = totals.contains { $0.value.minorUnits != chosen.value.minorUnits && $0.computed }
        return other ? .arithmeticMismatch : nil
    }

    /// A value read by OCR (either reader) whose own words (`words`, 0–100) were read below `floor`, unless both
    /// readers read it alike on its line: two independent readings of faint print agreeing outweigh one's doubt.
    static func ocrCheck<V, R>(_ c: Candidate<V, R>, words: Double?, floor: Double) -> ReviewReason? {
        guard c.evidence?.source == .ocr || c.evidence?.source == .secondReader, !c.checks.contains(.bothReaders), let words, words < floor
        else { return nil }
        return .lowOCRConfidence
    }

    /// A total or date one reader read on a line both read, the other reading another value there (or only the second
    /// reader reading it, tesseract reading the line as no such value), with no
    /// arithmetic of the page to decide between them: a person looks. The second reader misreads too ("2013" for
    /// "2018", a lost leading digit); a value read by one reader alone is not trusted without a check.
    static func readersCheck<V, R>(_ c: Candidate<V, R>, _ field: Field) -> ReviewReason? {
        guard c.checks.contains(.readersDisagree) || (c.evidence?.source == .secondReader && !c.checks.contains(.bothReaders)),
            !c.arithmeticConfirmed
        else { return nil }
        return .readersDisagree(field)
    }

    /// Reasons of the document as a whole: paper that is no purchase, pages skipped, a sidecar that does not
    /// validate.
    static func documentReasons(_ extraction: Extraction, sidecar: Sidecar?) -> [ReviewReason] {
        var reasons: [ReviewReason] = []
        if let screen = extraction.screen, ![.payment, .refund].contains(screen.purpose) {
            reasons.append(.screenNoExpense(screen.purpose))
        } else if extraction.documentKind == .notAPurchase {
            reasons.append(.notAPurchase)
        }
        if extraction.pagesSkipped > 0 { reasons.append(.longDocument) }
        if let problems = sidecar?.problems, !problems.isEmpty { reasons.append(.sidecarInvalid) }
        return reasons
    }

    /// A required field missing, or below the accept threshold.
    func requiredFieldReasons(_ record: DocumentRecord) -> [ReviewReason] {
        var reasons: [ReviewReason] = []
        for field in requiredFields {
            let present: Bool
            switch field {
            case .total: present = record.total != nil
            case .date: present = record.date != nil
            case .merchant: present = record.merchant != nil
            case .currency: present = record.currency != nil
            case .referenceNumber, .sellerTaxID, .paymentMethod, .category, .note, .tax, .receivedOn, .endOfTerm, .noticePeriod, .item: present = true
            }
            if !present {
                if record.payment?.fieldsNotShown.contains(field) != true { reasons.append(.missing(field)) }
            } else if let conf = record.trust[field]?.ruleConfidence ?? record.confidence[field], conf < acceptThreshold,
                !RecordMerger.confirmedElsewhere(record.evidence[field])
            {
                reasons.append(.lowConfidence(field))
            }
        }
        // Together the money fields must reach the gate's cut of P(all right) (`acceptPrecision` 0: not asked): each one
        // whose own probability falls short of it is a reason, and when none does alone but all together do, the least
        // sure one is.
        // A missing field is its own reason already.
        let asked = requiredFields.filter(TrustModel.jointFields.contains)
        let joint = asked.compactMap { f in record.confidence[f].map { (f, $0) } }
        guard acceptPrecision > 0, joint.count == asked.count else { return RecordMerger.unique(reasons) }
        let p = RecordMerger.allRight(required: requiredFields, trust: record.trust, confidence: record.confidence, model: model)
        // An unreachable target holds what the model judges; values it does not judge (an e-invoice's) keep their own.
        let cut = asked.contains { record.trust[$0] != nil } ? gate.cut : min(1, gate.cut)
        if p < cut, let weakest = joint.min(by: { $0.1 < $1.1 }) {
            let short = joint.filter { $0.1 < cut }.map(\.0)
            reasons += (short.isEmpty ? [weakest.0] : short).map(ReviewReason.lowConfidence)
        }
        return RecordMerger.unique(reasons)
    }

    /// P(every required field among total, date and currency right), which `acceptPrecision` is held against. When all
    /// three are required and the document gave them, the joint model's (`TrustModel.joint`), with the factor of a field
    /// another source confirmed (a sidecar, the file name: `confirmed`) swapped for its raised probability, so a
    /// confirmation only ever raises it. Else (a field filled by a sidecar, a field not required, no joint model) the
    /// product of the fields' probabilities. `shoebox regress --folds` measures this same function.
    public static func allRight(required: [Field], trust: [Field: TrustFeatures], confidence: [Field: Double], model: TrustModel) -> Double {
        let fields = required.filter(TrustModel.jointFields.contains)
        let product = fields.reduce(1.0) { $0 * (confidence[$1] ?? 0) }
        guard fields.count == TrustModel.jointFields.count, var p = model.jointProbability(trust) else { return product }
        for f in fields {
            guard let own = trust[f].flatMap({ model.probability(f, $0) }), let now = confidence[f], own > 0 else { return product }
            if now != own { p = p / own * now }
        }
        return min(1, p)
    }

    /// A value another source states alike (a sidecar, the file name, the merchant memory; the second reader is part of
    /// reading the page, not another source): the rules' own floor (`acceptThreshold` on the rule score) is not asked
    /// of it. The calibrated gate still is, with the raised probability.
    public static func confirmedElsewhere(_ e: FieldEvidence?) -> Bool { e?.confirmedBy.contains { $0 != .secondReader } ?? false }

    /// A probability raised by an independent source that states the same value (a sidecar, the file name): the
    /// chance both are wrong alike is taken as a tenth of the document's alone. Not calibrated: the devset has no
    /// such sources.
    static func confirmed(_ p: Double) -> Double { 1 - (1 - p) / 10 }

    /// What another source's value does to a field's (policy points 2 and 3).
    enum Reconciliation: Equatable {
        /// The document has no value: the caller takes the given one (its confidence and provenance are set).
        case fillsGap
        /// The same value: the document's confidence rises.
        case agrees
        /// Another value: the document's stays, the given one leads the alternates, and a person looks.
        case disagrees
    }

    /// Weighs the sidecar's value for a field against the document's; true when the caller takes the given value.
    /// The agent a sidecar names, with whether it says the person confirmed its values; nil for a sidecar of a person's.
    static func agentEntry(of sidecar: Sidecar?) -> AgentEntry? {
        sidecar?.agent.map { AgentEntry(name: $0, confirmedByPerson: sidecar?.confirmedByPerson ?? false, sidecar: sidecar?.verbatim ?? "") }
    }

    private func weighSidecar(
        _ field: Field, document: String?, given: String, record: inout DocumentRecord, reasons: inout [ReviewReason], by source: Provenance,
        confirmedByPerson: Bool = false
    ) -> Bool {
        let result = RecordMerger.reconcile(
            field, document: document, given: given, source: source, record: &record, confirmedByPerson: confirmedByPerson)
        if result == .disagrees { reasons.append(.sourcesDisagree) }
        return result == .fillsGap
    }

    /// `confirmedByPerson`: an agent's value the person confirmed with it, which fills a gap the page leaves (a page
    /// that does not read) as the person's word would: it stands as entered, marked the agent's.
    static func reconcile(
        _ field: Field, document: String?, given: String, source: Provenance, record: inout DocumentRecord, confirmedByPerson: Bool = false
    ) -> Reconciliation {
        guard let document else {
            record.confidence[field] = source == .agent && confirmedByPerson ? RecordMerger.confirmedEntryConfidence : RecordMerger.sidecarConfidence
            record.evidence[field] = FieldEvidence(source: source)
            return .fillsGap
        }
        if document == given {
            if let p = record.confidence[field] { record.confidence[field] = confirmed(p) }
            record.evidence[field]?.confirmedBy.append(source)
            return .agrees
        }
        var alts = record.alternates[field] ?? []
        alts.removeAll { $0.value == given }
        alts.insert(
            Alternate(value: given, confidence: RecordMerger.sidecarConfidence, source: source, reason: "the \(source.rawValue) says \(given)"), at: 0
        )
        record.alternates[field] = Array(alts.prefix(3))
        return .disagrees
    }

    /// The date in the file name: it confirms the document's date, fills its gap (at a confidence below any
    /// sensible threshold), or is only an alternate (a file name usually records when the photo was taken).
    static func fileNameCheck(_ named: CalendarDay, document: CalendarDay?) -> Reconciliation {
        if document == named { return .agrees }
        return document == nil ? .fillsGap : .disagrees
    }

    private func weighFileNameDate(_ named: CalendarDay, fileName: String, record: inout DocumentRecord) {
        switch RecordMerger.fileNameCheck(named, document: record.date) {
        case .agrees:
            record.confidence[.date] = RecordMerger.confirmed(record.confidence[.date] ?? 0)
            record.evidence[.date]?.confirmedBy.append(.filename)
        case .fillsGap:
            record.date = named
            record.confidence[.date] = RecordMerger.fileNameConfidence
            record.evidence[.date] = FieldEvidence(source: .filename, text: fileName)
        case .disagrees:
            var alts = record.alternates[.date] ?? []
            alts.removeAll { $0.value == named.iso }
            alts.append(
                Alternate(value: named.iso, confidence: RecordMerger.fileNameConfidence, source: .filename, reason: "the date in the file name"))
            record.alternates[.date] = Array(alts.suffix(3))
        }
    }

    /// Keeps first occurrences, in order.
    static func unique<T: Hashable>(_ items: [T]) -> [T] {
        var seen = Set<T>()
        return items.filter { seen.insert($0).inserted }
    }
}
