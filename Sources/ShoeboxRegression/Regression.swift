public import Foundation
public import ShoeboxCore
internal import ShoeboxEInvoice
import ShoeboxParsing
import ShoeboxReading

/// One document with expected values, read from any of the formats `shoebox regress` understands.
public struct RegressionCase: Sendable, Equatable {
    /// Path of the document relative to the folder of its expectation file.
    public let document: String
    /// Expected values by field: merchant, date (ISO), total (plain decimal), currency, referenceNumber.
    public let expected: [String: String]
    /// Which adapter read it: "fixture", "sroie", "zugferd".
    public let format: String
    /// The line items the document prints, when its expectation states them (the fixtures' `items`).
    public var expectedItems: [ExpectedItem]?
    /// What should prove them ("total", "subtotal", …), when the fixture states it.
    public var expectedItemsCheck: String?

    public init(document: String, expected: [String: String], format: String, expectedItems: [ExpectedItem]? = nil) {
        self.document = document
        self.expected = expected
        self.format = format
        self.expectedItems = expectedItems
    }

    /// An item as an expectation states it, every value as text; compared with descriptions normalised (case,
    /// accents, punctuation and spaces) and decimals as numbers ("2" = "2.000").
    public struct ExpectedItem: Sendable, Equatable {
        public var kind: String
        public var description: String
        public var quantity: String?
        public var unitPrice: String?
        public var amount: String
        public var taxRate: String?
        public var taxCode: String?

        init?(_ o: [String: Any]) {
            guard let kind = o["kind"] as? String, let description = o["description"] as? String, let amount = o["amount"] as? String else {
                return nil
            }
            self.kind = kind
            self.description = description
            self.amount = amount
            quantity = o["quantity"] as? String
            unitPrice = o["unitPrice"] as? String
            taxRate = o["taxRate"] as? String
            taxCode = o["taxCode"] as? String
        }

        public init(_ item: LineItem) {
            kind = item.kind.rawValue
            description = item.description
            quantity = item.quantity
            unitPrice = item.unitPrice
            amount = item.amount.decimalString
            taxRate = item.taxRate
            taxCode = item.taxCode
        }

        /// The values compared, each named.
        var compared: [(String, String?)] {
            func number(_ s: String?) -> String? {
                guard var t = s, t.contains(".") else { return s }
                while t.hasSuffix("0") { t.removeLast() }
                if t.hasSuffix(".") { t.removeLast() }
                return t
            }
            return [
                ("kind", kind), ("description", ReceiptParser.normalizedMerchant(description).replacingOccurrences(of: " ", with: "")),
                ("quantity", number(quantity)), ("unitPrice", number(unitPrice)), ("amount", number(amount)), ("taxRate", number(taxRate)),
                ("taxCode", taxCode)
            ]
        }

        /// The first difference between the items stated and those read, nil when there is none.
        static func difference(_ want: [ExpectedItem], _ got: [ExpectedItem]) -> (expected: String, found: String)? {
            if want.count != got.count {
                return (
                    "\(want.count) items: " + want.map(\.amount).joined(separator: " "), "\(got.count): " + got.map(\.amount).joined(separator: " ")
                )
            }
            for (k, (w, g)) in zip(want, got).enumerated() {
                for ((name, a), (_, b)) in zip(w.compared, g.compared) where a != b {
                    return ("item \(k + 1) \(name) \(a ?? "null") (\(w.description))", b ?? "null")
                }
            }
            return nil
        }
    }
}

/// Small adapters from the expectation formats to `RegressionCase`.
public enum RegressionAdapters {
    /// Reads an expectation file; nil when it is none of the known formats.
    /// `name` is the file's name (for formats that find the document by the name).
    public static func parse(_ data: Data, name: String) -> RegressionCase? {
        guard let o = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        if let file = o["file"] as? String { return fixture(o, file: file) }
        if o["company"] != nil, o["total"] != nil, name.hasSuffix(".json") { return sroie(o, name: name) }
        if o["invoice_number"] != nil, o["total_gross"] != nil, name.hasSuffix(".expected.json") { return zugferd(o, name: name) }
        return nil
    }

    /// The project's own fixtures: `<name>.expected.json` with "file" and the record's field names.
    static func fixture(_ o: [String: Any], file: String) -> RegressionCase {
        var e: [String: String] = [:]
        for key in ["merchant", "date", "total", "currency", "referenceNumber", "sellerTaxID", "net", "dueDate", "taxByRate"]
            + RegressionReport.screenFields
        {
            if let v = o[key] as? String { e[key] = v }
        }
        let items = (o["items"] as? [[String: Any]]).map { $0.compactMap(RegressionCase.ExpectedItem.init) }
        var c = RegressionCase(document: file, expected: e, format: "fixture", expectedItems: items)
        c.expectedItemsCheck = o["itemsCheck"] as? String
        return c
    }

    /// SROIE task-3 keys: `<ID>.json` beside `<ID>.jpg`; values as printed (dates in mixed orders, totals with RM).
    static func sroie(_ o: [String: Any], name: String) -> RegressionCase {
        var e: [String: String] = [:]
        if let company = o["company"] as? String { e["merchant"] = company }
        if let total = o["total"] as? String, let t = plainAmount(total) { e["total"] = t }
        if let date = o["date"] as? String, let d = printedDate(date) { e["date"] = d }
        e["currency"] = "MYR"
        let stem = String(name.dropLast(".json".count))
        return RegressionCase(document: stem + ".jpg", expected: e, format: "sroie")
    }

    /// ZUGFeRD / Factur-X: `<name>.expected.json` beside `<name>.pdf`, values from the embedded XML, as written
    /// there. A credit note's (type 381 and the other credit codes) amounts are expected negated, as Shoebox
    /// stores them; an invoice's negative amounts stay as they are.
    static func zugferd(_ o: [String: Any], name: String) -> RegressionCase {
        var e: [String: String] = [:]
        let credit = (o["type_code"] as? String).map(EInvoice.creditTypeCodes.contains) ?? false
        func signed(_ text: String) -> String? {
            guard let units = Money.minorUnits(fromDecimal: text, digits: 2) else { return nil }
            return Money.decimalString(minorUnits: credit ? -units : units, digits: 2)
        }
        if let v = o["total_gross"] as? String, let t = signed(v) { e["total"] = t }
        if let v = o["total_net"] as? String, let t = signed(v) { e["net"] = t }
        if let rows = o["tax_breakdown"] as? [[String: Any]] {
            let parsed = rows.compactMap { row -> (rate: String?, minorUnits: Int64)? in
                guard let tax = row["tax"] as? String, let units = Money.minorUnits(fromDecimal: tax, digits: 2) else { return nil }
                let rate = (row["rate"] as? String) ?? (row["rate_percent"] as? String)
                return (rate, credit ? -units : units)
            }
            if parsed.count == rows.count, let text = TaxByRate.text(parsed, digits: 2) { e["taxByRate"] = text }
        }
        if let v = o["issue_date"] as? String { e["date"] = v }
        if let v = o["invoice_number"] as? String { e["referenceNumber"] = v }
        if let v = o["currency"] as? String { e["currency"] = v }
        if let v = o["seller_name"] as? String { e["merchant"] = v }
        // The VAT number (two letters, then digits) when the seller has one, else its first tax number.
        if let ids = o["seller_tax_ids"] as? [String], let id = ids.first(where: { $0.prefix(2).allSatisfy(\.isLetter) }) ?? ids.first {
            e["sellerTaxID"] = id
        }
        let stem = String(name.dropLast(".expected.json".count))
        return RegressionCase(document: stem + ".pdf", expected: e, format: "zugferd")
    }

    /// A standalone e-invoice (XRechnung, UBL, CII) is its own expectation: the values its XML states, as a
    /// record must carry them (a credit note's amounts negated). Nil when the XML is no invoice Shoebox reads.
    static func eInvoice(_ bytes: [UInt8], name: String) -> RegressionCase? {
        guard case .success(let x) = EInvoiceReader.read(bytes) else { return nil }
        func signed(_ m: Money?) -> String? { x.recorded(m)?.decimalString }
        var e: [String: String] = [:]
        e["merchant"] = x.seller.name
        e["date"] = x.issueDate?.iso
        e["total"] = signed(x.totals.grand)
        e["net"] = signed(x.totals.taxBasis)
        e["currency"] = x.currency?.code
        e["referenceNumber"] = x.number
        e["sellerTaxID"] = x.seller.vatID ?? x.seller.taxNumber
        e["dueDate"] = x.dueDate?.iso
        let rows = x.taxes.compactMap { row in x.recorded(row.amount).map { (rate: row.rate, minorUnits: $0.minorUnits) } }
        if let digits = x.currency?.minorDigits, rows.count == x.taxes.count { e["taxByRate"] = TaxByRate.text(rows, digits: digits) }
        return RegressionCase(document: name, expected: e, format: "e-invoice-xml")
    }

    /// "RM1,007.50" → "1007.50"; "9" → "9.00".
    static func plainAmount(_ text: String) -> String? {
        var s = text.uppercased().replacingOccurrences(of: "RM", with: "").replacingOccurrences(of: "$", with: "").replacingOccurrences(
            of: ",", with: "")
        s = s.trimmingCharacters(in: .whitespaces)
        guard let units = Money.minorUnits(fromDecimal: s, digits: 2) else { return nil }
        return Money.decimalString(minorUnits: units, digits: 2)
    }

    /// A date as printed in SROIE keys (day first, or ISO, or "03 MAR 2018") → ISO.
    static func printedDate(_ text: String) -> String? {
        let far = CalendarDay(year: 9999, month: 12, day: 31)!
        return DateReader.dates(in: text, order: .dayFirst, today: far).first?.day.iso
    }
}

/// Character error rate: edit distance between what OCR read and the ground-truth text, over the
/// ground truth's length; whitespace runs count as one space and case is kept.
public enum CharacterErrorRate {
    public static func of(recognized: String, truth: String) -> (errors: Int, length: Int) {
        func squeeze(_ s: String) -> [Character] {
            Array(s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " "))
        }
        let a = squeeze(recognized)
        let b = squeeze(truth)
        guard !b.isEmpty else { return (a.count, 0) }
        guard !a.isEmpty else { return (b.count, b.count) }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = a[i - 1] == b[j - 1] ? previous[j - 1] : 1 + min(previous[j - 1], previous[j], current[j - 1])
            }
            swap(&previous, &current)
        }
        return (previous[b.count], b.count)
    }

    /// SROIE `box/<ID>.txt`: `x1,y1,…,y4,transcript` per line (the transcript may contain commas).
    public static func sroieTruth(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { line in
            var rest = Substring(line)
            for _ in 0..<8 { if let comma = rest.firstIndex(of: ",") { rest = rest[rest.index(after: comma)...] } }
            return String(rest)
        }.joined(separator: "\n")
    }
}

/// Field-by-field comparison of records with expected values, the JSON report and the baseline check.
public struct RegressionReport: Sendable {
    public struct Miss: Sendable, Equatable, Codable {
        public let document: String
        public let field: String
        public let expected: String
        public let found: String
    }

    public struct FieldScore: Sendable, Equatable, Codable {
        public var checked = 0
        public var exact = 0
        public var normalised = 0
        public var exactRate: Double { checked == 0 ? 0 : Double(exact) / Double(checked) }
        public var normalisedRate: Double { checked == 0 ? 0 : Double(normalised) / Double(checked) }
        mutating func add(exact e: Bool, normalised n: Bool) {
            checked += 1
            if e { exact += 1 }
            if n { normalised += 1 }
        }
    }

    public static let fields =
        ["merchant", "date", "total", "currency", "referenceNumber", "sellerTaxID", "net", "taxByRate", "dueDate"] + screenFields
    /// What the fixtures of phone payment screens also state: the kind of document, the provider and what the screen shows.
    public static let screenFields = ["documentKind", "provider", "screenPurpose"]
    public private(set) var scores: [String: FieldScore] = [:]
    /// The same scores per adapter format ("sroie", "zugferd", "fixture"): the targets are per set.
    public private(set) var scoresByFormat: [String: [String: FieldScore]] = [:]
    public private(set) var documentsByFormat: [String: Int] = [:]
    /// Line items per format: how many documents have items, how many of those are proven (by the page's or the XML's
    /// own arithmetic), and, where the case states its items, how many match them exactly.
    public struct ItemScore: Sendable, Equatable, Codable {
        public var documents = 0
        public var withItems = 0
        public var proven = 0
        public var expected = 0
        public var exact = 0
        public var provenRate: Double { documents == 0 ? 0 : Double(proven) / Double(documents) }
    }
    public private(set) var itemsByFormat: [String: ItemScore] = [:]
    /// The documents whose items are proven, and what proves them: for sampling by hand.
    public private(set) var provenItems: [String: String] = [:]
    /// Documents whose stated items the record does not match, with the first difference.
    public private(set) var itemMisses: [Miss] = []
    public private(set) var misses: [Miss] = []
    public private(set) var documents = 0
    public private(set) var accepted = 0
    /// Accepted records whose total and date were both right (when both were expected).
    public private(set) var acceptedRight = 0
    /// Documents auto-accepted with a wrong total or date: what the routing let through.
    public private(set) var acceptedWrong: [String] = []
    /// Per document, what the calibration reads (`TrustRow`): fitted by `--fit`, cross-validated by `--folds`.
    public private(set) var trustRows: [TrustRow] = []
    /// Set by `shoebox regress --folds N`: written into the JSON report and checked against the baseline.
    public var crossValidation: CrossValidation?
    public private(set) var cerErrors = 0
    public private(set) var cerLength = 0
    public var seconds: Double = 0
    /// Labels the page contradicts (`--errata`): what the trust rows, and so the model and its curve, are measured against.
    public var errata = LabelErrata()
    /// Documents whose trust row was measured against a corrected label.
    public private(set) var correctedLabels = 0

    public init() {}

    /// Normalised comparison: merchants without case, accents, punctuation and spaces; others as they are.
    public static func normalise(_ field: String, _ value: String) -> String {
        switch field {
        case "merchant": return ReceiptParser.normalizedMerchant(value).replacingOccurrences(of: " ", with: "")
        case "currency": return value.uppercased()
        case "referenceNumber", "sellerTaxID": return value.uppercased().filter { $0.isLetter || $0.isNumber }
        default: return value
        }
    }

    static func value(_ field: String, of record: DocumentRecord) -> String? { record.comparedValue(field) }

    /// Whether a record's value is the expected one, compared normalised.
    static func matches(_ field: String, _ want: String, _ got: String?) -> Bool {
        got.map { normalise(field, want) == normalise(field, $0) } ?? false
    }

    public mutating func add(_ c: RegressionCase, record: DocumentRecord, recognizedText: String? = nil, truthText: String? = nil) {
        documents += 1
        documentsByFormat[c.format, default: 0] += 1
        var totalAndDateRight = true
        for field in RegressionReport.fields {
            guard let want = c.expected[field] else { continue }
            let got = RegressionReport.value(field, of: record)
            let exact = want == got
            let normalised = RegressionReport.matches(field, want, got)
            scores[field, default: FieldScore()].add(exact: exact, normalised: normalised)
            scoresByFormat[c.format, default: [:]][field, default: FieldScore()].add(exact: exact, normalised: normalised)
            if !normalised {
                misses.append(Miss(document: c.document, field: field, expected: want, found: got ?? "(none)"))
                if field == "total" || field == "date" { totalAndDateRight = false }
            }
        }
        // The model and its curve are measured against the labels with the page's own corrections (`errata`).
        let truth = errata.corrected(c)
        if truth != c { correctedLabels += 1 }
        var right: [Field: Bool] = [:]
        for field in RegressionReport.fields {
            guard let want = truth.expected[field], let f = Field(rawValue: field) else { continue }
            right[f] = RegressionReport.matches(field, want, RegressionReport.value(field, of: record))
        }
        trustRows.append(
            TrustRow(
                truth, record: record, right: right, totalAndDateRight: right[.total] != false && right[.date] != false,
                rightAsLabelled: totalAndDateRight))
        addItems(c, record: record)
        if record.status == .accepted {
            accepted += 1
            if totalAndDateRight { acceptedRight += 1 } else { acceptedWrong.append(c.document) }
        }
        if let recognizedText, let truthText {
            let (e, n) = CharacterErrorRate.of(recognized: recognizedText, truth: truthText)
            cerErrors += e
            cerLength += n
        }
    }

    mutating func addItems(_ c: RegressionCase, record: DocumentRecord) {
        var score = itemsByFormat[c.format] ?? ItemScore()
        score.documents += 1
        if !record.items.isEmpty { score.withItems += 1 }
        if let check = record.itemsCheck, check.proven {
            score.proven += 1
            provenItems[c.document] = check.rawValue
        }
        if let want = c.expectedItems {
            score.expected += 1
            let got = record.items.map(RegressionCase.ExpectedItem.init)
            let check = record.itemsCheck?.rawValue
            if let difference = RegressionCase.ExpectedItem.difference(want, got) {
                itemMisses.append(Miss(document: c.document, field: "items", expected: difference.expected, found: difference.found))
            } else if let wantCheck = c.expectedItemsCheck, wantCheck != check {
                itemMisses.append(Miss(document: c.document, field: "itemsCheck", expected: wantCheck, found: check ?? "null"))
            } else {
                score.exact += 1
            }
        }
        itemsByFormat[c.format] = score
    }

    public var allRight: Bool { misses.isEmpty && itemMisses.isEmpty }

    /// What the calibration read, per document (`--trust-rows`): to study other models or policies without a new run.
    public func trustRowsJSON() -> Data {
        (try? JSONSerialization.data(withJSONObject: trustRows.map(\.json), options: [.sortedKeys])) ?? Data()
    }
    public var characterErrorRate: Double? { cerLength == 0 ? nil : Double(cerErrors) / Double(cerLength) }

    public var text: String {
        var lines = ["field            exact             normalised"]
        for f in RegressionReport.fields {
            guard let s = scores[f], s.checked > 0 else { continue }
            func pct(_ k: Int) -> String { String(format: "%3d/%-3d %5.1f%%", k, s.checked, 100 * Double(k) / Double(s.checked)) }
            lines.append(f.padding(toLength: 15, withPad: " ", startingAt: 0) + "  " + pct(s.exact) + "    " + pct(s.normalised))
        }
        if scoresByFormat.count > 1 {
            for (format, fieldScores) in scoresByFormat.sorted(by: { $0.key < $1.key }) {
                let parts = RegressionReport.fields.compactMap { f -> String? in
                    guard let s = fieldScores[f], s.checked > 0 else { return nil }
                    return String(format: "%@ %.1f%%", f, 100 * s.normalisedRate)
                }
                lines.append("  \(format) (\(documentsByFormat[format] ?? 0)): " + parts.joined(separator: ", "))
            }
        }
        lines.append(
            String(
                format: "auto-accepted    %d/%d; of those total and date right: %d (as the pipeline routed them)", accepted, documents,
                acceptedRight))
        if correctedLabels > 0 {
            lines.append(
                "labels corrected for the trust model and its accept curve: \(correctedLabels) (--errata: labels the page contradicts; field scores as labelled)"
            )
        }
        for (format, s) in itemsByFormat.sorted(by: { $0.key < $1.key }) where s.withItems > 0 || s.expected > 0 {
            var line = String(
                format: "items %@: %d of %d documents have items, %d proven by their own arithmetic (%.1f%%)", format, s.withItems, s.documents,
                s.proven, 100 * s.provenRate)
            if s.expected > 0 { line += ", \(s.exact) of \(s.expected) exactly as stated" }
            lines.append(line)
        }
        if let cv = crossValidation { lines.append(cv.text) }
        if let cer = characterErrorRate {
            lines.append(String(format: "OCR character error rate %.1f%% (%d characters of ground truth)", 100 * cer, cerLength))
        }
        if seconds > 0 { lines.append(String(format: "%.1f s in all, %.2f s per document", seconds, seconds / Double(max(1, documents)))) }
        if !misses.isEmpty || !itemMisses.isEmpty {
            lines.append("")
            lines.append("wrong (normalised):")
            let letThrough = Set(acceptedWrong)
            for m in misses + itemMisses {
                let mark = letThrough.contains(m.document) && (m.field == "total" || m.field == "date") ? "  [auto-accepted]" : ""
                lines.append("  \(m.document)  \(m.field): expected \"\(m.expected)\", found \"\(m.found)\"" + mark)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The JSON report: per-field scores, acceptance, CER and every miss.
    public func json() -> Data {
        func object(_ scores: [String: FieldScore]) -> [String: Any] {
            scores.mapValues { s in
                [
                    "checked": s.checked, "exact": s.exact, "normalised": s.normalised,
                    "exactRate": (s.exactRate * 10000).rounded() / 10000, "normalisedRate": (s.normalisedRate * 10000).rounded() / 10000
                ]
            }
        }
        let fields = object(scores)
        var o: [String: Any] = [
            "version": 1, "documents": documents, "accepted": accepted, "acceptedRight": acceptedRight, "fields": fields,
            "correctedLabels": correctedLabels,
            "formats": Dictionary(
                uniqueKeysWithValues: scoresByFormat.map { format, scores in
                    (format, ["fields": object(scores), "documents": documentsByFormat[format] ?? 0] as [String: Any])
                }),
            "misses": misses.map { ["document": $0.document, "field": $0.field, "expected": $0.expected, "found": $0.found] }
        ]
        o["items"] = itemsByFormat.mapValues { s in
            ["documents": s.documents, "withItems": s.withItems, "proven": s.proven, "expected": s.expected, "exact": s.exact] as [String: Any]
        }
        o["provenItems"] = provenItems
        if !itemMisses.isEmpty {
            o["itemMisses"] = itemMisses.map { ["document": $0.document, "field": $0.field, "expected": $0.expected, "found": $0.found] }
        }
        if let cer = characterErrorRate { o["characterErrorRate"] = (cer * 10000).rounded() / 10000 }
        if let cv = crossValidation { o["crossValidated"] = cv.json }
        return (try? JSONSerialization.data(withJSONObject: o, options: [.prettyPrinted, .sortedKeys])) ?? Data()
    }

    /// Fields whose normalised rate fell below the baseline report's, with both rates: over all documents and,
    /// when the baseline has them, per format; and the share of documents whose line items are proven, per format.
    public func regressions(against baseline: Data) -> [String]? {
        guard let o = (try? JSONSerialization.jsonObject(with: baseline)) as? [String: Any],
            let fields = o["fields"] as? [String: [String: Any]]
        else { return nil }
        func compare(_ base: [String: [String: Any]], _ now: [String: FieldScore], label: String) -> [String] {
            base.sorted(by: { $0.key < $1.key }).compactMap { name, f in
                guard let rate = (f["normalisedRate"] as? NSNumber)?.doubleValue else { return nil }
                // Rates are written rounded to four places: compare at that precision.
                let current = ((now[name]?.normalisedRate ?? 0) * 10000).rounded() / 10000
                return current + 1e-9 < rate ? String(format: "%@%@: %.1f%% now, baseline %.1f%%", label, name, 100 * current, 100 * rate) : nil
            }
        }
        var out = compare(fields, scores, label: "")
        if let base = o["crossValidated"] as? [String: Any] { out += crossValidationRegressions(against: base) }
        for (format, entry) in ((o["formats"] as? [String: [String: Any]]) ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let f = entry["fields"] as? [String: [String: Any]] else { continue }
            out += compare(f, scoresByFormat[format] ?? [:], label: "\(format) ")
        }
        for (format, entry) in ((o["items"] as? [String: [String: Any]]) ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let proven = (entry["proven"] as? NSNumber)?.doubleValue, let documents = (entry["documents"] as? NSNumber)?.doubleValue,
                documents > 0
            else { continue }
            let now = itemsByFormat[format].map { Double($0.proven) / Double(max(1, $0.documents)) } ?? 0
            if now + 1e-9 < proven / documents {
                out.append(String(format: "%@ items proven: %.1f%% now, baseline %.1f%%", format, 100 * now, 100 * proven / documents))
            }
        }
        return out
    }
}

extension RegressionReport {
    /// The cross-validated figures that fell behind the baseline's: the share auto-accepted by more than a point, the
    /// precision of what was auto-accepted by more than one document's worth, a field's calibration error by more than 0.01.
    func crossValidationRegressions(against base: [String: Any]) -> [String] {
        guard let cv = crossValidation else { return ["cross-validated figures: the baseline has them, this run has none (use --folds)"] }
        var out: [String] = []
        // The accepted share of the page-read documents and its precision, at the cut the baseline's gate chose: a fixed cut
        // moves smoothly with the readings, while the cut chosen on a flat curve can move on one record (the new choice is
        // printed with the curve).
        if let b = base["gate"] as? [String: Any], let cut = (b["cut"] as? NSNumber)?.doubleValue,
            let accepted = (b["accepted"] as? NSNumber)?.intValue, let right = (b["right"] as? NSNumber)?.intValue,
            let documents = (base["modelDocuments"] as? NSNumber)?.intValue, documents > 0
        {
            guard let point = cv.curve.first(where: { abs($0.cut - cut) < 1e-9 }) else {
                return ["the baseline's gate cut \(cut) is not a cut of this curve: re-make the baseline"]
            }
            let shareNow = Double(point.accepted) / Double(max(1, cv.modelDocuments))
            let shareThen = Double(accepted) / Double(documents)
            if shareNow + 0.01 < shareThen {
                out.append(
                    String(
                        format: "cross-validated auto-accept share at P ≥ %.3f: %.1f%% now, baseline %.1f%%", cut, 100 * shareNow, 100 * shareThen))
            }
            let precisionNow = point.accepted == 0 ? 1 : Double(point.right) / Double(point.accepted)
            let precisionThen = accepted == 0 ? 1 : Double(right) / Double(accepted)
            if precisionNow + 1 / Double(max(1, accepted)) < precisionThen {
                out.append(
                    String(
                        format: "cross-validated auto-accept precision at P ≥ %.3f: %.1f%% now, baseline %.1f%%", cut, 100 * precisionNow,
                        100 * precisionThen))
            }
        }
        for (name, entry) in ((base["fields"] as? [String: [String: Any]]) ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let field = Field(rawValue: name), let then = (entry["calibrationError"] as? NSNumber)?.doubleValue,
                let now = cv.calibrationError(field), now > then + 0.01
            else { continue }
            out.append(String(format: "%@ calibration error: %.3f now, baseline %.3f", name, now, then))
        }
        return out
    }
}

/// The documents of a fixture folder with expected values: every `.json` file under it that an adapter
/// understands (`RegressionAdapters`), with the document it describes and, for SROIE, its true text.
public struct RegressionSuite: Sendable {
    public struct Entry: Sendable {
        public let expectation: RegressionCase
        /// The document's path under the folder the documents live in.
        public let relativePath: String
        /// SROIE's ground-truth text lines (`box/<ID>.txt` beside the JSON), for the OCR character error rate.
        public let truth: String?
    }

    public let entries: [Entry]

    /// The suite in `directory` (nil when it is not a folder). `scans`: the folder the documents live in when
    /// not beside their JSON (the sample scan folder); a document missing there may be wrapped as a PDF of the
    /// same name, as `make bench` reads receipts.
    public init?(directory: String, scans: String?) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
            let names = FileManager.default.enumerator(atPath: directory)?.allObjects as? [String]
        else { return nil }
        var entries: [Entry] = []
        // A standalone XML invoice without an expectation file beside it is read for its own expected values.
        let described = Set(names.filter { $0.hasSuffix(".json") }.map { PathText.removingExtension($0) })
        for name in names.sorted() where name.lowercased().hasSuffix(".xml") {
            let stem = PathText.removingExtension(name)
            guard !described.contains(stem + ".expected"), !described.contains(stem),
                let data = InputFileBytes.read(PathText.joined(directory, name), limit: DocumentFailure.maxInvoiceXMLBytes),
                var c = RegressionAdapters.eInvoice(data, name: PathText.lastComponent(of: name))
            else { continue }
            c = RegressionCase(document: PathText.lastComponent(of: name), expected: c.expected, format: c.format)
            entries.append(Entry(expectation: c, relativePath: name, truth: nil))
        }
        for name in names.sorted() where name.hasSuffix(".json") {
            let jsonPath = PathText.joined(directory, name)
            guard let data = FileManager.default.contents(atPath: jsonPath),
                let c = RegressionAdapters.parse(data, name: PathText.lastComponent(of: name))
            else { continue }
            let folder = PathText.parent(of: name)
            var relative = PathText.joined(folder, c.document)
            if let scans, !FileManager.default.fileExists(atPath: PathText.joined(scans, relative)) {
                let wrapped = PathText.removingExtension(relative) + ".pdf"
                if FileManager.default.fileExists(atPath: PathText.joined(scans, wrapped)) { relative = wrapped }
            }
            let stem = PathText.lastComponent(of: PathText.removingExtension(c.document))
            let boxPath = PathText.joined(PathText.joined(directory, folder), "box/\(stem).txt")
            let truth =
                c.format == "sroie"
                ? FileManager.default.contents(atPath: boxPath).map { CharacterErrorRate.sroieTruth(String(decoding: $0, as: UTF8.self)) }
                : nil
            entries.append(Entry(expectation: c, relativePath: relative, truth: truth))
        }
        self.entries = entries
    }
}

/// A fixture file's bytes, at most `limit` of them (nil when larger or unreadable).
enum InputFileBytes {
    static func read(_ path: String, limit: Int) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: limit + 1), data.count <= limit else { return nil }
        return [UInt8](data)
    }
}
