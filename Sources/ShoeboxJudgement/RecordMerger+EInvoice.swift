public import ShoeboxCore
internal import ShoeboxParsing
public import ShoeboxReading

/// The record of an e-invoice: its XML is the exact source (provenance `e-invoice`), checked three ways
/// before it is trusted:
/// 1. **Its own arithmetic** (`EInvoice.problems()`): lines → net, tax per rate, net + tax = gross, gross − prepaid
///    = due. A sum that does not hold: review, `e-invoice-inconsistent`, the stated and computed values named.
/// 2. **The printed page**, when there is one and it is readable: the page must print the gross (or the amount
///    due) and the issue date somewhere. A page that prints amounts or dates but not these: review,
///    `e-invoice-page-disagrees`, the page's own reading as the alternate. Names are not compared (a letterhead
///    prints the trade name, the XML the legal one).
/// 3. **A sidecar**, as for any document: a value it gives otherwise is `sources-disagree`.
/// A consistent XML that the page confirms is accepted with confidence 1. A field the XML does not state is
/// taken from the page's own reading, with that reading's doubts.
/// A credit note (`EInvoice.isCredit`) stores its total, net and tax negated: it is money owed to the buyer.
extension RecordMerger {
    public func merge(
        eInvoice read: EInvoice, pageRecord: DocumentRecord?, page: Extraction?, source: SourceFile, other: OtherSources, today: CalendarDay
    ) -> DocumentRecord {
        var record = DocumentRecord(source: source.relativePath, folder: source.folder, sha256: source.sha256, status: .review)
        record.pages = pageRecord?.pages ?? 0
        record.language = pageRecord?.language
        // What no record may hold (a date outside 1900…today, a text longer than any invoice prints) is not exact.
        let (e, outOfRange) = read.bounded(today: today)
        record.eInvoice = e
        record.documentKind = e.isCredit ? .creditNote : .invoice
        var reasons: [ReviewReason] = []
        if !outOfRange.isEmpty {
            reasons.append(.eInvoiceValueOutOfRange)
            record.eInvoiceProblems += outOfRange
        }
        // An amount beyond any invoice (`ReviewLimits.maxTotalMinorUnits`) is not taken into the record; `problems()` names it.
        func signed(_ m: Money?) -> Money? {
            guard let m, m.minorUnits.magnitude <= UInt64(ReviewLimits.maxTotalMinorUnits) else { return nil }
            return e.recorded(m)
        }
        func exact(_ field: Field, _ element: String, _ shown: String?) {
            guard let shown else { return }
            record.confidence[field] = 1
            let text = "\(element) \(shown)"
            // Evidence is a line a person reads, as long as any value may be (`EInvoice.maxText`).
            record.evidence[field] = FieldEvidence(
                source: .eInvoice, text: text.count > EInvoice.maxText ? String(text.prefix(EInvoice.maxText - 1)) + "…" : text)
        }
        record.currency = e.currency
        exact(.currency, "InvoiceCurrencyCode", e.currency?.code)
        record.total = signed(e.totals.grand)
        exact(.total, "GrandTotalAmount", e.totals.grand?.decimalString)
        record.date = e.issueDate
        exact(.date, "IssueDate", e.issueDate?.iso)
        record.merchant = e.seller.name
        record.merchantNormalized = e.seller.name.map(ReceiptParser.normalizedMerchant)
        exact(.merchant, "Seller Name", e.seller.name)
        record.referenceNumber = e.number
        exact(.referenceNumber, "Invoice ID", e.number)
        record.sellerTaxID = e.seller.vatID ?? e.seller.taxNumber
        exact(.sellerTaxID, e.seller.vatID != nil ? "Seller VAT ID" : "Seller tax number", record.sellerTaxID)
        record.paymentMethod = e.paymentMethod
        exact(.paymentMethod, "PaymentMeans TypeCode", e.paymentMeans.first?.code)
        record.subtotal = signed(e.totals.taxBasis)
        record.dueDate = e.dueDate
        record.tax = e.taxes.compactMap { row in
            signed(row.amount).map { TaxLine(rate: row.rate, amount: $0, basis: signed(row.basis), category: row.category) }
        }
        (record.items, record.itemsCheck) = RecordMerger.eInvoiceItems(e)
        let problems = e.problems()
        if !problems.isEmpty {
            reasons.append(.eInvoiceInconsistent)
            record.eInvoiceProblems += problems.map(\.sentence)
            if let gross = problems.first(where: { $0.rule == "gross = net + tax" })?.computed, let computed = signed(gross) {
                record.alternates[.total] = [
                    Alternate(value: computed.decimalString, confidence: 0.5, source: .arithmetic, reason: "net + tax in the XML")
                ]
            }
        }
        if let pageRecord, let page { comparePage(e, record: &record, pageRecord: pageRecord, page: page, reasons: &reasons) }
        fillFromPage(pageRecord, into: &record, reasons: &reasons)
        compareSidecar(other.sidecar, record: &record, reasons: &reasons)
        reasons += requiredFieldReasons(record)
        record.alternates = record.alternates.filter { !$0.value.isEmpty }
        // A record keeps at most `EInvoice.maxRows` problems (import holds it to that); room is left for the one a PDF's
        // second attachment may add.
        let kept = EInvoice.maxRows - 2
        if record.eInvoiceProblems.count > kept {
            let more = record.eInvoiceProblems.count - (kept - 1)
            record.eInvoiceProblems = Array(record.eInvoiceProblems.prefix(kept - 1)) + ["… and \(more) more problems of the XML."]
        }
        record.reasons = RecordMerger.unique(reasons)
        Verdict.settle(&record)
        return record
    }

    /// The gross (or amount due) and the issue date must be printed on a page that prints amounts and dates.
    /// Both are compared without sign: a credit note prints its amounts either way.
    private func comparePage(_ e: EInvoice, record: inout DocumentRecord, pageRecord: DocumentRecord, page: Extraction, reasons: inout [ReviewReason])
    {
        let printed = Set(page.amounts.map { abs($0.value.minorUnits) })
        let stated = [e.totals.grand, e.totals.due].compactMap { $0.map { abs($0.minorUnits) } }
        if let grand = e.totals.grand, !printed.isEmpty, !stated.contains(where: printed.contains) {
            reasons.append(.eInvoiceDisagreesWithPage)
            let read = pageRecord.total.map { "; the page's total reads \($0.decimalString)" } ?? ""
            record.eInvoiceProblems.append(
                "The XML states the gross total \(grand.decimalString) \(grand.currency.code), which the printed page does not show\(read).")
            if let t = pageRecord.total {
                record.alternates[.total, default: []].append(
                    Alternate(
                        value: t.decimalString, confidence: pageRecord.confidence[.total] ?? 0, source: pageRecord.evidence[.total]?.source ?? .ocr,
                        reason: "read on the printed page"))
            }
        }
        let dates = Set(page.dates.map(\.value))
        if let issued = e.issueDate, !dates.isEmpty, !dates.contains(issued) {
            reasons.append(.eInvoiceDisagreesWithPage)
            let read = pageRecord.date.map { "; the page's date reads \($0.iso)" } ?? ""
            record.eInvoiceProblems.append("The XML states the issue date \(issued.iso), which the printed page does not show\(read).")
            if let d = pageRecord.date {
                record.alternates[.date, default: []].append(
                    Alternate(
                        value: d.iso, confidence: pageRecord.confidence[.date] ?? 0, source: pageRecord.evidence[.date]?.source ?? .ocr,
                        reason: "read on the printed page"))
            }
        }
    }

    /// A field the XML does not state, taken from the page's own reading with its doubts.
    private func fillFromPage(_ pageRecord: DocumentRecord?, into record: inout DocumentRecord, reasons: inout [ReviewReason]) {
        guard let p = pageRecord else { return }
        func fill(_ field: Field, _ missing: Bool, _ copy: (inout DocumentRecord) -> Void) {
            guard missing else { return }
            copy(&record)
            record.confidence[field] = p.confidence[field]
            record.evidence[field] = p.evidence[field]
            record.alternates[field] = p.alternates[field]
            reasons += p.reasons.filter { $0.field == field }
        }
        fill(.currency, record.currency == nil) { $0.currency = p.currency }
        fill(.total, record.total == nil) { $0.total = p.currency == $0.currency ? p.total : nil }
        fill(.date, record.date == nil) { $0.date = p.date }
        fill(.merchant, record.merchant == nil) {
            $0.merchant = p.merchant
            $0.merchantNormalized = p.merchantNormalized
        }
        fill(.referenceNumber, record.referenceNumber == nil) { $0.referenceNumber = p.referenceNumber }
        fill(.sellerTaxID, record.sellerTaxID == nil) { $0.sellerTaxID = p.sellerTaxID }
        fill(.paymentMethod, record.paymentMethod == nil) { $0.paymentMethod = p.paymentMethod }
    }

    /// A sidecar that gives another total or date than the XML: the XML stays, the person decides.
    private func compareSidecar(_ sidecar: Sidecar?, record: inout DocumentRecord, reasons: inout [ReviewReason]) {
        guard let sidecar else { return }
        if !sidecar.problems.isEmpty { reasons.append(.sidecarInvalid) }
        record.sidecarProblems = sidecar.problems
        record.agentEntry = RecordMerger.agentEntry(of: sidecar)
        if let given = sidecar.date, let date = record.date, given != date {
            reasons.append(.sourcesDisagree)
            record.alternates[.date, default: []].insert(
                Alternate(value: given.iso, confidence: RecordMerger.sidecarConfidence, source: sidecar.source, reason: sidecar.source.rawValue),
                at: 0)
        }
        if let given = sidecar.total, let total = record.total, given.money(in: total.currency) != total {
            reasons.append(.sourcesDisagree)
            let text = given.money(in: total.currency).decimalString
            record.alternates[.total, default: []].insert(
                Alternate(value: text, confidence: RecordMerger.sidecarConfidence, source: sidecar.source, reason: sidecar.source.rawValue), at: 0)
        }
    }
}
