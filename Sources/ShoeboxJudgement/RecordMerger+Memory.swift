import Foundation
public import ShoeboxCore
import ShoeboxParsing

/// The merchant memory weighed against the page (policy point 2 again: another source confirms or disagrees, it never
/// overrides silently). Runs after the merge, on the record the page gave, in a run and in `shoebox rescore` alike.
///
/// - **Merchant.** The page's name, folded, is the remembered one: it rises as confirmed, spelled as the person
///   confirmed it. An OCR variant of it ("SANYO STAT1ONERY" for "SANYU STATIONERY"): the remembered name is taken,
///   the page's reading leads the alternates; unless the page prints the name clearly and both readers read it alike:
///   then its spelling stands (an earlier record's name may have been confirmed with a typo or in a shorter form),
///   confirmed by the memory, the remembered spelling first among the alternates. No name read: the remembered one fills the gap. Another name altogether:
///   the remembered one is shown first, the page's beside it, and a person looks (`merchant-memory-disagrees`) when the
///   page said its name clearly (its rule confidence alone passes the accept threshold); a line the page only might
///   have meant as a name (an item line under a logo it cannot read) gives way without that.
/// - **Currency.** An inferred currency that the shop's confirmed records agree on is no longer only inferred (nor held
///   by the rules' floor); its probability stays the calibrated model's, so the gate still asks the total and date to
///   be read as well as on any receipt that prints no currency. One they contradict gives way to theirs (it was a
///   guess from the country). A currency the page prints that they contradict
///   stays, theirs beside it, and a person looks (`currency-memory-disagrees`).
/// - **Category, payment method.** Filled from what people always settled on for that shop, when the page and its
///   sidecar give none.
///
/// Then the record is routed again: the reasons about required fields are worked out afresh from the fields as they
/// now stand; the others stay.
extension RecordMerger {
    /// Reasons a run adds after the merge and the memory (Duplicates, a charge after a cancellation): kept when a record is
    /// judged again.
    public static func addedAfterMerge(_ r: ReviewReason) -> Bool {
        ReviewReason.namingAnother.contains(r) || r == .sameBytes || r == .chargedAfterCancellation
    }

    /// `reasons` with `reason` added once, at the end.
    public static func addingReason(_ reason: ReviewReason, to reasons: [ReviewReason]) -> [ReviewReason] { unique(reasons + [reason]) }

    /// The confidence of a name only the memory gives: higher with more confirmed records, never above 0.97.
    static func memoryConfidence(_ confirmations: Int) -> Double { min(0.97, 1 - 0.1 / Double(max(1, confirmations))) }

    public func remember(_ recall: MerchantMemory.Recall?, in page: DocumentRecord) -> DocumentRecord {
        guard let recall, page.evidence.values.allSatisfy({ $0.source != .eInvoice }) else { return page }
        var record = page
        var reasons = record.reasons
        let evidence = FieldEvidence(source: .memory, text: recall.evidence)
        rememberMerchant(recall, evidence: evidence, in: &record, reasons: &reasons)
        if let code = recall.currency, let given = CurrencyCode(code) {
            rememberCurrency(given, confirmations: recall.confirmations, evidence: evidence, in: &record, reasons: &reasons)
        }
        if record.category == nil, let category = recall.category {
            record.category = category
            record.evidence[.category] = evidence
        }
        if record.paymentMethod == nil, let method = recall.paymentMethod {
            record.paymentMethod = method
            record.evidence[.paymentMethod] = evidence
        }
        // The reasons about required fields, afresh.
        reasons.removeAll { r in
            switch r {
            case .missing, .lowConfidence: true
            default: false
            }
        }
        record.reasons = RecordMerger.unique(reasons + requiredFieldReasons(record))
        Verdict.settle(&record)
        return record
    }

    private func rememberMerchant(
        _ recall: MerchantMemory.Recall, evidence: FieldEvidence, in record: inout DocumentRecord, reasons: inout [ReviewReason]
    ) {
        let page = record
        // A sidecar's name is a person's word: the memory does not weigh in against it.
        if let s = record.evidence[.merchant]?.source, s == .sidecar || s == .agent { return }
        let remembered = recall.merchant
        // The page's features described the page's reading; the name now stands on what people confirmed.
        record.trust[.merchant] = nil
        guard let read = record.merchant else {
            record.merchant = remembered
            record.confidence[.merchant] = RecordMerger.memoryConfidence(recall.confirmations)
            record.evidence[.merchant] = evidence
            record.merchantNormalized = ReceiptParser.normalizedMerchant(remembered)
            return
        }
        let readEvidence = record.evidence[.merchant]
        // What the page says clearly: a name whose rule confidence passes the accept threshold on its own.
        let clear = (page.trust[.merchant]?.ruleConfidence ?? page.confidence[.merchant] ?? 0) >= acceptThreshold
        if ReceiptParser.normalizedMerchant(read) == ReceiptParser.normalizedMerchant(remembered) {
            record.merchant = remembered
            if let p = record.confidence[.merchant] { record.confidence[.merchant] = RecordMerger.confirmed(p) }
            record.evidence[.merchant]?.confirmedBy.append(.memory)
        } else if MerchantMemory.sameShop(read, remembered), clear,
            readEvidence?.source == .textLayer || readEvidence?.confirmedBy.contains(.secondReader) == true
        {
            // One shop, and the page prints its name clearly, read alike by both readers: the page's spelling stands
            // (an earlier record's name may have been confirmed with a typo, or a shorter form); the confirmed one is
            // first among the alternates.
            if let p = record.confidence[.merchant] { record.confidence[.merchant] = RecordMerger.confirmed(p) }
            record.evidence[.merchant]?.confirmedBy.append(.memory)
            var alts = record.alternates[.merchant] ?? []
            alts.removeAll { $0.value == remembered }
            alts.insert(
                Alternate(
                    value: remembered, confidence: RecordMerger.memoryConfidence(recall.confirmations), source: .memory,
                    reason: recall.evidence), at: 0)
            record.alternates[.merchant] = Array(alts.prefix(3))
        } else {
            let variant = MerchantMemory.sameShop(read, remembered)
            var alts = record.alternates[.merchant] ?? []
            alts.removeAll { $0.value == read || $0.value == remembered }
            alts.insert(
                Alternate(
                    value: read, confidence: record.confidence[.merchant] ?? 0, source: readEvidence?.source ?? .document,
                    reason: "the page reads it so"), at: 0)
            record.alternates[.merchant] = Array(alts.prefix(3))
            record.merchant = remembered
            record.confidence[.merchant] = RecordMerger.memoryConfidence(recall.confirmations)
            var e = evidence
            e.page = readEvidence?.page
            e.line = readEvidence?.line
            e.text = "\(recall.evidence); the page reads “\(read)”"
            record.evidence[.merchant] = e
            if !variant && clear { reasons.append(.memoryDisagrees(.merchant)) }
        }
        // A name people confirmed for this shop is a name, whatever the page printed where the name should be.
        if record.merchant == remembered || record.evidence[.merchant]?.confirmedBy.contains(.memory) == true {
            reasons.removeAll { $0 == .merchantNotAName }
        }
        record.merchantNormalized = record.merchant.map(ReceiptParser.normalizedMerchant)
    }

    private func rememberCurrency(
        _ given: CurrencyCode, confirmations: Int, evidence: FieldEvidence, in record: inout DocumentRecord, reasons: inout [ReviewReason]
    ) {
        if let s = record.evidence[.currency]?.source, s == .sidecar || s == .agent { return }
        let inferred = reasons.contains(.currencyInferred)
        guard let read = record.currency else {
            setCurrency(given, in: &record)
            record.confidence[.currency] = RecordMerger.sidecarConfidence
            record.evidence[.currency] = evidence
            return
        }
        if read == given {
            // Its probability stays the model's: a receipt that prints no currency is harder to read right as a whole
            // (the joint model knows it), and knowing the shop's currency does not make its total better read.
            record.evidence[.currency]?.confirmedBy.append(.memory)
            reasons.removeAll { $0 == .currencyInferred }
            return
        }
        var alts = record.alternates[.currency] ?? []
        if inferred {
            // The page printed no currency: the country's guess gives way to the shop's confirmed one.
            alts.removeAll { $0.value == read.code || $0.value == given.code }
            alts.insert(Alternate(value: read.code, confidence: record.confidence[.currency] ?? 0, source: .document, reason: "inferred"), at: 0)
            setCurrency(given, in: &record)
            record.confidence[.currency] = RecordMerger.memoryConfidence(confirmations)
            record.evidence[.currency] = evidence
            reasons.removeAll { $0 == .currencyInferred }
        } else {
            alts.removeAll { $0.value == given.code }
            alts.insert(Alternate(value: given.code, confidence: RecordMerger.sidecarConfidence, source: .memory, reason: evidence.text ?? ""), at: 0)
            reasons.append(.memoryDisagrees(.currency))
        }
        record.alternates[.currency] = Array(alts.prefix(3))
    }

    /// The currency, with the amounts re-expressed in it (their printed digits kept).
    private func setCurrency(_ c: CurrencyCode, in record: inout DocumentRecord) {
        record.currency = c
        func moved(_ m: Money?) -> Money? {
            m.map { AmountReading(minorUnits: $0.minorUnits, fractionDigits: $0.currency.minorDigits, currencyHint: nil).money(in: c) }
        }
        record.total = moved(record.total)
        record.subtotal = moved(record.subtotal)
        record.tip = moved(record.tip)
        record.tax = record.tax.compactMap { t in moved(t.amount).map { TaxLine(rate: t.rate, amount: $0) } }
    }
}
