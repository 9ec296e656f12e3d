import Foundation

/// The state every input document ends in.
public enum RecordStatus: String, Sendable, Codable, CaseIterable {
    case accepted, review, duplicate, failed
    /// Rejected in review as not a purchase.
    case rejected
}

/// A tax line: the rate as printed ("19", "7.5"), the tax, and (from an e-invoice) the net it is computed on
/// and its VAT category (S standard, Z zero, E exempt, AE reverse charge, K intra-EU, G export, O outside).
public struct TaxLine: Hashable, Sendable {
    public let rate: String?
    public let amount: Money
    public var basis: Money?
    public var category: String?
    public init(rate: String?, amount: Money, basis: Money? = nil, category: String? = nil) {
        self.rate = rate
        self.amount = amount
        self.basis = basis
        self.category = category
    }
}

/// The fields of a record that are chosen from candidates; raw values are the names JSON, the store and the
/// command line use.
public enum Field: String, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
    case merchant, date, total, currency, referenceNumber, sellerTaxID, paymentMethod
    /// What a person (or a sidecar) files the record under, and a note for whoever reads the books: never read from
    /// the page.
    case category, note
    /// The tax lines as a person gives them: "19=2.65; 7=1.05" (rate in %, amount in the record's currency).
    case tax
    /// The day a letter (a fine) reached the person: its windows count from it. From the sidecar, or typed in review.
    case receivedOn
    /// A contract's last day of term and its notice period ("3 months", "30 days"), when the page's were not read:
    /// typed in review, they give the cancellation day (`DeadlineFacts.contract`).
    case endOfTerm, noticePeriod
    /// One line item's amount or description, as a person corrects it: "3 amount=2.50", "3 description=Milk 3.5%".
    case item
}

/// Where a value came from: a line of the document (`ocr` as tesseract read it, `ocr-ppocr` as the second reader
/// read it again, `text-layer`), the document as a whole (`document`:
/// inferred from its language, no line), its own arithmetic (`arithmetic`), the structured XML of an e-invoice
/// (`e-invoice`), a JSON sidecar, the file name, or a person in review. Raw values are the stable strings of
/// JSON and the store.
public enum Provenance: String, Sendable, Codable, CaseIterable {
    case ocr
    case textLayer = "text-layer"
    case arithmetic, sidecar, filename, person, document
    /// A sidecar an agent wrote for a person (it names itself in `agent`): a source like a sidecar, said as the agent's.
    case agent
    /// The merchant memory: what people confirmed on earlier records with the same keys (`MerchantMemory`).
    case memory
    /// What the user said of the document's folder (its `.shoebox.json`, else the pipeline file): its currency.
    case folder
    case eInvoice = "e-invoice"
    case secondReader = "ocr-ppocr"

    public init(_ source: TextSource) {
        switch source {
        case .ocr: self = .ocr
        case .textLayer: self = .textLayer
        case .secondReader: self = .secondReader
        }
    }
}

/// Where a field's value came from, and the line that prints it.
public struct FieldEvidence: Hashable, Sendable, Codable {
    public var source: Provenance
    public var page: Int?
    /// 1-based line on the page.
    public var line: Int?
    public var text: String?
    /// OCR confidence (0–100) of the words that print the value, else of the line.
    var ocrConfidence: Double?
    /// Other sources that gave the same value (sidecar, filename).
    public var confirmedBy: [Provenance]

    public init(
        source: Provenance, page: Int? = nil, line: Int? = nil, text: String? = nil, ocrConfidence: Double? = nil, confirmedBy: [Provenance] = []
    ) {
        self.source = source
        self.page = page
        self.line = line
        self.text = text
        self.ocrConfidence = ocrConfidence
        self.confirmedBy = confirmedBy
    }

    enum CodingKeys: String, CodingKey { case source, page, line, text, ocrConfidence, confirmedBy }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(source, forKey: .source)
        try c.encode(page, forKey: .page)
        try c.encode(line, forKey: .line)
        try c.encode(text, forKey: .text)
        try c.encode(ocrConfidence, forKey: .ocrConfidence)
        try c.encode(confirmedBy, forKey: .confirmedBy)
    }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        source = try c.decode(Provenance.self, forKey: .source)
        page = try c.decodeIfPresent(Int.self, forKey: .page)
        line = try c.decodeIfPresent(Int.self, forKey: .line)
        text = try c.decodeIfPresent(String.self, forKey: .text)
        ocrConfidence = try c.decodeIfPresent(Double.self, forKey: .ocrConfidence)
        confirmedBy = try c.decodeIfPresent([Provenance].self, forKey: .confirmedBy) ?? []
    }
}

/// A value the merge did not choose for a field, with why it was a candidate.
public struct Alternate: Hashable, Sendable, Codable {
    public let value: String
    public let confidence: Double
    public let source: Provenance
    /// Why it was a candidate, for people.
    public let reason: String

    public init(value: String, confidence: Double, source: Provenance, reason: String) {
        self.value = value
        self.confidence = confidence
        self.source = source
        self.reason = reason
    }
}

/// The machine-readable record of one input document (design: "Machine-readable record").
/// Amounts are decimal strings derived from minor units; dates ISO 8601; absent values null.
public struct DocumentRecord: Hashable, Sendable {
    public var source: String
    public var folder: String
    public var sha256: String
    public var status: RecordStatus
    public var documentKind: DocumentKind?
    public var language: String?
    public var merchant: String?
    public var merchantNormalized: String?
    public var date: CalendarDay?
    public var total: Money?
    public var currency: CurrencyCode?
    public var subtotal: Money?
    /// A tip or service charge printed on its own line, part of the total.
    public var tip: Money?
    public var tax: [TaxLine]
    public var referenceNumber: String?
    public var sellerTaxID: String?
    public var paymentMethod: String?
    /// The category a person or a sidecar gave; nil: the folder's rules decide at export.
    public var category: String?
    /// A person's or a sidecar's note.
    public var note: String?
    /// An expense a person entered by hand, without a receipt: every value is theirs, and there is no original.
    public var enteredByHand = false
    /// The agent whose sidecar gave values for this record (`"enteredBy": "agent"` in the JSON, with `agent`, its name,
    /// and `confirmedByPerson`): what it said is kept as a source, checked against the page. Nil: no agent's word.
    public var agentEntry: AgentEntry?
    /// What the page prints that names the shop (tax ID, phone, domain, address, letterhead): what the merchant memory
    /// learns from once a person confirms the record, and recalls by on later ones (`MerchantKey`).
    public var merchantKeys: [MerchantKey] = []
    /// The day an invoice must be paid by, as the document states it.
    public var dueDate: CalendarDay?
    /// Days by which a person must act on the document (pay, return, claim, object, cancel), counted by the engine.
    public var deadlines: [Deadline] = []
    /// The deadlines a person settled (paid, answered, returned): they leave the calendar.
    public var settledDeadlines: [Deadline.Kind] = []
    /// The day a letter (a fine) was received, from its sidecar or typed in review: a fine's windows count from it.
    public var receivedOn: CalendarDay?
    /// What the deadlines were counted from besides the record's own fields (terms read from the page, the due day
    /// stated, the folder's presets): kept so that a corrected date or a received-on day typed in review counts them
    /// again (`recountingDeadlines`).
    public var deadlineFacts: DeadlineFacts?
    /// The structured invoice, when the document is an e-invoice or carries one (ZUGFeRD, Factur-X, XRechnung).
    public var eInvoice: EInvoice?
    /// What a phone's payment screen says beside the record's fields: provider, paid from, the recipient's bank
    /// (`PaymentScreen`); nil for paper.
    public var payment: PaymentScreen?
    /// The card or account paid with: its scheme and last four digits (never more of its number).
    public var card: CardUsed?
    /// What a person should know about the e-invoice: sums it states that its figures do not give, values the
    /// page prints otherwise, an attachment that could not be read. Empty when all is well.
    public var eInvoiceProblems: [String]
    /// What was bought, line by line (`LineItem`), from the e-invoice's XML or read from the page; empty when none was
    /// read.
    public var items: [LineItem] = []
    /// What proves the items (nil when there are none): their sum against the printed subtotal or total, an e-invoice's
    /// line total, or a person; `.unproven` when nothing does.
    public var itemsCheck: ItemsCheck?
    /// Why the sidecar beside the scan was not taken whole (`sidecar-invalid`), each as a sentence naming the key.
    public var sidecarProblems: [String] = []
    /// Per field: P(the value is right), from the calibrated model (`TrustModel`), a sidecar or the file name.
    public var confidence: [Field: Double]
    /// Per field: the features the calibrated model read (`TrustFeatures`); empty for values not chosen from candidates.
    public var trust: [Field: TrustFeatures]
    /// Per field: where the chosen value came from.
    public var evidence: [Field: FieldEvidence]
    /// Per field: up to three other values, best first.
    public var alternates: [Field: [Alternate]]
    public var reasons: [ReviewReason]
    /// Who accepted the record: "pipeline" (auto-accepted) or "person" (confirmed in review); nil while pending.
    public var reviewedBy: String?
    public var duplicateOf: String?
    public var failure: DocumentFailure?
    public var pages: Int

    public init(source: String, folder: String, sha256: String, status: RecordStatus) {
        self.source = source
        self.folder = folder
        self.sha256 = sha256
        self.status = status
        tax = []
        eInvoiceProblems = []
        confidence = [:]
        trust = [:]
        evidence = [:]
        alternates = [:]
        reasons = []
        pages = 0
    }

    public static func failed(_ source: String, folder: String, sha256: String, failure: DocumentFailure) -> DocumentRecord {
        var r = DocumentRecord(source: source, folder: folder, sha256: sha256, status: .failed)
        r.failure = failure
        r.reasons = [ReviewReason(code: failure.code)]
        return r
    }
}

extension DocumentRecord: Codable {
    enum Keys: String, CodingKey {
        case source, folder, sha256, status, documentKind, language, merchant, merchantNormalized, date, total, currency
        case subtotal, tip, tax, referenceNumber, sellerTaxID, paymentMethod, category, note, enteredByHand, enteredBy, agent,
            confirmedByPerson, agentSidecar, merchantKeys, dueDate, deadlines,
            settledDeadlines, receivedOn, deadlineFacts, eInvoice, payment, card,
            eInvoiceProblems, items, itemsCheck, sidecarProblems,
            confidence, trust,
            evidence,
            alternates,
            reasons, reviewedBy, duplicateOf,
            failure, pages
    }
    enum TaxKeys: String, CodingKey { case rate, amount, basis, category }
    enum FailureKeys: String, CodingKey { case code, message }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(source, forKey: .source)
        try c.encode(folder, forKey: .folder)
        try c.encode(sha256, forKey: .sha256)
        try c.encode(status.rawValue, forKey: .status)
        try c.encode(documentKind?.rawValue, forKey: .documentKind)
        try c.encode(language, forKey: .language)
        try c.encode(merchant, forKey: .merchant)
        try c.encode(merchantNormalized, forKey: .merchantNormalized)
        try c.encode(date?.iso, forKey: .date)
        try c.encode(total?.decimalString, forKey: .total)
        try c.encode(currency?.code, forKey: .currency)
        try c.encode(subtotal?.decimalString, forKey: .subtotal)
        try c.encode(tip?.decimalString, forKey: .tip)
        var taxes = c.nestedUnkeyedContainer(forKey: .tax)
        for t in tax {
            var tc = taxes.nestedContainer(keyedBy: TaxKeys.self)
            try tc.encode(t.rate, forKey: .rate)
            try tc.encode(t.amount.decimalString, forKey: .amount)
            try tc.encodeIfPresent(t.basis?.decimalString, forKey: .basis)
            try tc.encodeIfPresent(t.category, forKey: .category)
        }
        try c.encode(referenceNumber, forKey: .referenceNumber)
        try c.encode(sellerTaxID, forKey: .sellerTaxID)
        try c.encode(paymentMethod, forKey: .paymentMethod)
        // Only when given: records without them read as before.
        try c.encodeIfPresent(category, forKey: .category)
        try c.encodeIfPresent(note, forKey: .note)
        if enteredByHand { try c.encode(true, forKey: .enteredByHand) }
        if let a = agentEntry {
            try c.encode("agent", forKey: .enteredBy)
            try c.encode(a.name, forKey: .agent)
            try c.encode(a.confirmedByPerson, forKey: .confirmedByPerson)
            try c.encode(a.sidecar, forKey: .agentSidecar)
        }
        if !merchantKeys.isEmpty { try c.encode(merchantKeys.map(\.description), forKey: .merchantKeys) }
        try c.encode(dueDate?.iso, forKey: .dueDate)
        if !deadlines.isEmpty { try c.encode(deadlines, forKey: .deadlines) }
        if !settledDeadlines.isEmpty { try c.encode(settledDeadlines, forKey: .settledDeadlines) }
        try c.encodeIfPresent(receivedOn, forKey: .receivedOn)
        try c.encodeIfPresent(deadlineFacts, forKey: .deadlineFacts)
        try c.encodeIfPresent(eInvoice, forKey: .eInvoice)
        try c.encodeIfPresent(payment, forKey: .payment)
        try c.encodeIfPresent(card, forKey: .card)
        if !eInvoiceProblems.isEmpty { try c.encode(eInvoiceProblems, forKey: .eInvoiceProblems) }
        // Only when read: records without items read as before.
        if !items.isEmpty {
            try c.encode(items, forKey: .items)
            try c.encodeIfPresent(itemsCheck, forKey: .itemsCheck)
        }
        if !sidecarProblems.isEmpty { try c.encode(sidecarProblems, forKey: .sidecarProblems) }
        // Confidences rounded to 3 places so the JSON is stable and readable.
        try c.encode(DocumentRecord.byName(confidence.mapValues { ($0 * 1000).rounded() / 1000 }), forKey: .confidence)
        if !trust.isEmpty { try c.encode(DocumentRecord.byName(trust), forKey: .trust) }
        try c.encode(DocumentRecord.byName(evidence), forKey: .evidence)
        try c.encode(DocumentRecord.byName(alternates), forKey: .alternates)
        try c.encode(reasons.map(\.code), forKey: .reasons)
        try c.encode(reviewedBy, forKey: .reviewedBy)
        try c.encode(duplicateOf, forKey: .duplicateOf)
        if let failure {
            var fc = c.nestedContainer(keyedBy: FailureKeys.self, forKey: .failure)
            try fc.encode(failure.code, forKey: .code)
            try fc.encode(failure.message, forKey: .message)
        } else {
            try c.encodeNil(forKey: .failure)
        }
        try c.encode(pages, forKey: .pages)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        func bad(_ key: Keys, _ text: String) -> DecodingError {
            .dataCorruptedError(forKey: key, in: c, debugDescription: "invalid value \(text)")
        }
        source = try c.decode(String.self, forKey: .source)
        folder = try c.decodeIfPresent(String.self, forKey: .folder) ?? SourceFile.folder(of: source)
        sha256 = try c.decode(String.self, forKey: .sha256)
        let statusText = try c.decode(String.self, forKey: .status)
        guard let s = RecordStatus(rawValue: statusText) else { throw bad(.status, statusText) }
        status = s
        documentKind = try c.decodeIfPresent(String.self, forKey: .documentKind).flatMap(DocumentKind.init(rawValue:))
        language = try c.decodeIfPresent(String.self, forKey: .language)
        merchant = try c.decodeIfPresent(String.self, forKey: .merchant)
        merchantNormalized = try c.decodeIfPresent(String.self, forKey: .merchantNormalized)
        if let d = try c.decodeIfPresent(String.self, forKey: .date) {
            guard let day = CalendarDay(iso: d) else { throw bad(.date, d) }
            date = day
        }
        let cur = try c.decodeIfPresent(String.self, forKey: .currency).flatMap(CurrencyCode.init)
        currency = cur
        func money(_ key: Keys) throws -> Money? {
            guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let cur, let m = Money(decimal: text, currency: cur) else { throw bad(key, text) }
            return m
        }
        total = try money(.total)
        subtotal = try money(.subtotal)
        tip = try money(.tip)
        tax = []
        if var taxes = try? c.nestedUnkeyedContainer(forKey: .tax) {
            while !taxes.isAtEnd {
                let tc = try taxes.nestedContainer(keyedBy: TaxKeys.self)
                let amountText = try tc.decode(String.self, forKey: .amount)
                guard let cur, let m = Money(decimal: amountText, currency: cur) else { throw bad(.tax, amountText) }
                var basis: Money?
                if let b = try tc.decodeIfPresent(String.self, forKey: .basis) {
                    guard let money = Money(decimal: b, currency: cur) else { throw bad(.tax, b) }
                    basis = money
                }
                tax.append(
                    TaxLine(
                        rate: try tc.decodeIfPresent(String.self, forKey: .rate), amount: m, basis: basis,
                        category: try tc.decodeIfPresent(String.self, forKey: .category)))
            }
        }
        referenceNumber = try c.decodeIfPresent(String.self, forKey: .referenceNumber)
        sellerTaxID = try c.decodeIfPresent(String.self, forKey: .sellerTaxID)
        paymentMethod = try c.decodeIfPresent(String.self, forKey: .paymentMethod)
        category = try c.decodeIfPresent(String.self, forKey: .category)
        note = try c.decodeIfPresent(String.self, forKey: .note)
        enteredByHand = try c.decodeIfPresent(Bool.self, forKey: .enteredByHand) ?? false
        if let by = try c.decodeIfPresent(String.self, forKey: .enteredBy) {
            guard by == "agent", let name = try c.decodeIfPresent(String.self, forKey: .agent), TextLimits.problem(field: "agent", value: name) == nil
            else { throw bad(.enteredBy, by) }
            agentEntry = AgentEntry(
                name: name, confirmedByPerson: try c.decodeIfPresent(Bool.self, forKey: .confirmedByPerson) ?? false,
                sidecar: try c.decodeIfPresent(String.self, forKey: .agentSidecar) ?? "")
        }
        for text in try c.decodeIfPresent([String].self, forKey: .merchantKeys) ?? [] {
            guard let key = MerchantKey(text), text.utf8.count <= MerchantKey.maxLength else { throw bad(.merchantKeys, text) }
            merchantKeys.append(key)
        }
        if let d = try c.decodeIfPresent(String.self, forKey: .dueDate) {
            guard let day = CalendarDay(iso: d) else { throw bad(.dueDate, d) }
            dueDate = day
        }
        deadlines = try c.decodeIfPresent([Deadline].self, forKey: .deadlines) ?? []
        settledDeadlines = try c.decodeIfPresent([Deadline.Kind].self, forKey: .settledDeadlines) ?? []
        receivedOn = try c.decodeIfPresent(CalendarDay.self, forKey: .receivedOn)
        deadlineFacts = try c.decodeIfPresent(DeadlineFacts.self, forKey: .deadlineFacts)
        eInvoice = try c.decodeIfPresent(EInvoice.self, forKey: .eInvoice)
        payment = try c.decodeIfPresent(PaymentScreen.self, forKey: .payment)
        card = try c.decodeIfPresent(CardUsed.self, forKey: .card)
        eInvoiceProblems = try c.decodeIfPresent([String].self, forKey: .eInvoiceProblems) ?? []
        if c.contains(.items), try !c.decodeNil(forKey: .items) {
            guard let cur else { throw bad(.items, "(items without a currency)") }
            var list = try c.nestedUnkeyedContainer(forKey: .items)
            while !list.isAtEnd {
                guard items.count < LineItem.maxItems else { throw bad(.items, "(more than \(LineItem.maxItems))") }
                items.append(try LineItem(from: try list.superDecoder(), currency: cur))
            }
            itemsCheck = try c.decodeIfPresent(ItemsCheck.self, forKey: .itemsCheck) ?? .unproven
        }
        sidecarProblems = try c.decodeIfPresent([String].self, forKey: .sidecarProblems) ?? []
        confidence = DocumentRecord.byField(try c.decodeIfPresent([String: Double].self, forKey: .confidence) ?? [:])
        trust = DocumentRecord.byField(try c.decodeIfPresent([String: TrustFeatures].self, forKey: .trust) ?? [:])
        evidence = DocumentRecord.byField(try c.decodeIfPresent([String: FieldEvidence].self, forKey: .evidence) ?? [:])
        alternates = DocumentRecord.byField(try c.decodeIfPresent([String: [Alternate]].self, forKey: .alternates) ?? [:])
        reasons = (try c.decodeIfPresent([String].self, forKey: .reasons) ?? []).map(ReviewReason.init(code:))
        reviewedBy = try c.decodeIfPresent(String.self, forKey: .reviewedBy)
        duplicateOf = try c.decodeIfPresent(String.self, forKey: .duplicateOf)
        if let fc = try? c.nestedContainer(keyedBy: FailureKeys.self, forKey: .failure) {
            failure = DocumentFailure(code: try fc.decode(String.self, forKey: .code), message: try fc.decode(String.self, forKey: .message))
        }
        pages = try c.decodeIfPresent(Int.self, forKey: .pages) ?? 0
    }

    /// A per-field dictionary keyed by the fields' names, as JSON writes it.
    public static func byName<V>(_ d: [Field: V]) -> [String: V] {
        Dictionary(uniqueKeysWithValues: d.map { ($0.key.rawValue, $0.value) })
    }

    /// A per-field dictionary read from JSON; names no field has (written by another tool) are left out.
    static func byField<V>(_ d: [String: V]) -> [Field: V] {
        Dictionary(uniqueKeysWithValues: d.compactMap { k, v in Field(rawValue: k).map { ($0, v) } })
    }

    /// One line of JSON (sorted keys, no trailing newline): the form of `records.jsonl` and `extract --json`.
    public func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a value type with only strings, numbers and arrays cannot fail.
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension DocumentRecord {
    /// Who entered what, for `reviewed_by` and the review: "entered by agent Claude Code, confirmed by the person (date:
    /// not on the page)"; nil when no agent did.
    public var agentSentence: String? {
        guard let a = agentEntry else { return nil }
        let only = Field.allCases.filter { evidence[$0]?.source == .agent }.map(\.rawValue)
        return a.sentence + (only.isEmpty ? "" : " (\(only.joined(separator: ", ")): not on the page)")
    }
}

/// An agent that filed a document for a person, as its sidecar names it.
public struct AgentEntry: Sendable, Hashable {
    /// The agent's name as it gave it ("Claude Code").
    public let name: String
    /// The agent says the person confirmed the values with it.
    public let confirmedByPerson: Bool
    /// Its sidecar as it wrote it (at most 1 MiB), kept verbatim.
    public let sidecar: String

    public init(name: String, confirmedByPerson: Bool, sidecar: String) {
        self.name = name
        self.confirmedByPerson = confirmedByPerson
        self.sidecar = sidecar
    }

    /// How the record's `reviewed_by` cell and the review desk say it: "entered by agent Claude Code, confirmed by the person".
    public var sentence: String { "entered by agent \(name)" + (confirmedByPerson ? ", confirmed by the person" : "") }
}
