internal import Foundation
internal import ShoeboxCore

/// Every value of an imported store checked as strictly as a fresh run would make it: an import is a file
/// from elsewhere, and a path in it is later joined to a root and zipped by `export`. One bad value and the
/// whole file is refused, naming the document, its path and the field; nothing is written.
extension StoreJSON {
    /// The first problem of one document: the field (as the JSON names it) and what is wrong with it.
    struct Problem: Error {
        let field: String
        let message: String
        init(_ field: String, _ message: String) {
            self.field = field
            self.message = message
        }
    }

    static let maxPathBytes = StoredPath.maxBytes
    static let maxText = 1000
    static let maxPages = 100_000
    /// Tax lines of one record: a receipt prints a handful (one per rate); a run never writes more.
    static let maxTaxLines = 64
    static let documentStates: Set<String> = ["accepted", "review", "duplicate", "failed"]

    /// An absolute, normalised folder: "/" first, no empty, "." or ".." part, no control character.
    static func rootProblem(_ root: String) -> String? {
        if root.utf8.count > maxPathBytes { return "is \(root.utf8.count) bytes long; at most \(maxPathBytes)" }
        // A scan folder's own name may hold a line break or a tab (Linux allows it, and a run stores its path as it
        // is): only NUL, which no path can hold, is refused. Messages show the path with its controls as <U+XXXX>.
        if root.utf8.contains(0) { return "holds a NUL character" }
        guard root.hasPrefix("/") else { return "must be the absolute path of the scan folder" }
        if root == "/" { return nil }
        for part in root.dropFirst().split(separator: "/", omittingEmptySubsequences: false) where part.isEmpty || part == "." || part == ".." {
            return "must be a normalised absolute path (no empty, \".\" or \"..\" part)"
        }
        return nil
    }

    /// A JSON integer (not a boolean, not a fraction) within `range`. Converted with `Int(exactly:)`: 2^63 equals
    /// `Double(Int.max)` (which rounds up), so it passes a range check done in Double, and `Int(_:)` would trap on it.
    static func integer(_ value: Any?, _ range: ClosedRange<Int>) -> Int? {
        guard let n = value as? NSNumber, String(cString: n.objCType) != "c" else { return nil }
        let d = n.doubleValue
        guard d.isFinite, d == d.rounded(), let i = Int(exactly: d), range.contains(i) else { return nil }
        return i
    }

    /// One line of text: at most `limit` characters, no control character (with `onlyNUL`, no NUL: text read
    /// from a page as it was printed may hold a tab).
    static func textProblem(_ value: Any?, limit: Int = maxText, optional: Bool = true, onlyNUL: Bool = false) -> String? {
        if value == nil || value is NSNull { return optional ? nil : "is missing" }
        guard let s = value as? String else { return "must be a string" }
        if s.count > limit { return "is \(s.count) characters long; at most \(limit)" }
        if onlyNUL, s.unicodeScalars.contains("\u{0}") { return "holds a NUL character (U+0000)" }
        if !onlyNUL, let c = FieldInput.controlCharacter(in: s) { return "holds a control character (\(FieldInput.codePoint(c)))" }
        return nil
    }

    static func isSHA256(_ s: String) -> Bool {
        s.utf8.count == 64 && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// An ISO 4217 code as Shoebox writes one: three capital letters.
    static func isCurrencyCode(_ s: String) -> Bool { s.count == 3 && s.allSatisfy { $0.isASCII && $0.isUppercase } }

    static func isCode(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 64 && s.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    static func failureProblem(_ value: Any?, field: String) throws(Problem) {
        guard let value, !(value is NSNull) else { return }
        guard let f = value as? [String: Any], let code = f["code"] as? String, isCode(code) else {
            throw Problem(field, "must be null or {\"code\": \"a-failure-code\", \"message\": \"…\"}")
        }
        if let p = textProblem(f["message"], limit: 2000, optional: false) { throw Problem("\(field).message", p) }
    }

    /// Checks one document of an export; throws its first problem.
    /// `latest`: the last day a date may be (the day after the importer's today: the exporting machine's clock
    /// may already be in tomorrow); a run never records a date after its today.
    static func check(_ d: [String: Any], latest: CalendarDay) throws(Problem) {
        guard let path = d["path"] as? String else { throw Problem("path", "is missing or not a string") }
        if let p = StoredPath.problem(path) { throw Problem("path", p) }
        guard let root = d["root"] as? String else { throw Problem("root", "is missing or not a string") }
        // An expense entered by hand has no scan folder: an empty root, and a record that says so.
        let byHand = (d["suggestion"] as? [String: Any])?["enteredByHand"] as? Bool == true
        if byHand {
            guard root.isEmpty, (d["size"] as? Int ?? 0) == 0 else { throw Problem("root", "must be empty for an expense entered by hand") }
        } else if let p = rootProblem(root) {
            throw Problem("root", p)
        }
        guard let folder = d["folder"] as? String, folder == SourceFile.folder(of: path) else {
            throw Problem("folder", "must be the first part of the path (\"\(SourceFile.folder(of: path))\")")
        }
        // A file that failed before it could be hashed (a link, a FIFO, a name the store cannot hold) has none.
        guard let sha = d["sha256"] as? String, isSHA256(sha) || (sha.isEmpty && d["state"] as? String == "failed") else {
            throw Problem("sha256", "must be 64 lowercase hexadecimal digits (or empty, for a document that failed before it was read)")
        }
        guard integer(d["size"], 0...Int(Int64.max >> 1)) != nil else { throw Problem("size", "must be a whole number of bytes, 0 or more") }
        if let k = d["kind"], !(k is NSNull) {
            guard let s = k as? String, FileKind(rawValue: s) != nil else {
                throw Problem("kind", "must be null or one of \(FileKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        guard let state = d["state"] as? String, documentStates.contains(state) else {
            throw Problem("state", "must be one of \(documentStates.sorted().joined(separator: ", "))")
        }
        try failureProblem(d["failure"], field: "failure")
        for key in ["fingerprint", "settings"] {
            if let p = textProblem(d[key], limit: 256) { throw Problem(key, p) }
        }
        if let s = d["suggestion"], !(s is NSNull) { try checkSuggestion(s, path: path, sha: sha, folder: folder, latest: latest) }
        if let s = d["pageSuggestion"], !(s is NSNull) { try checkSuggestion(s, path: path, sha: sha, folder: folder, latest: latest) }
        guard let pages = (d["pages"] ?? []) as? [Any], pages.count <= maxPages else {
            throw Problem("pages", "must be an array of at most \(maxPages) pages")
        }
        for (i, page) in pages.enumerated() {
            guard let p = page as? [String: Any] else { throw Problem("pages[\(i)]", "must be an object") }
            guard integer(p["pageNumber"], 1...maxPages) != nil else {
                throw Problem("pages[\(i)].pageNumber", "must be a whole number from 1 to \(maxPages)")
            }
            for key in ["width", "height", "dpi"] where integer(p[key], 0...1_000_000) == nil {
                throw Problem("pages[\(i)].\(key)", "must be a whole number from 0 to 1000000")
            }
            guard let source = p["source"] as? String, TextSource(rawValue: source) != nil else {
                throw Problem("pages[\(i)].source", "must be \"ocr\" or \"text-layer\"")
            }
            let lines = p["lines"] ?? []
            guard let data = try? JSONSerialization.data(withJSONObject: lines), (try? JSONDecoder().decode([OCRLine].self, from: data)) != nil else {
                throw Problem("pages[\(i)].lines", "are not lines of words as Shoebox writes them")
            }
        }
        guard let decisions = (d["decisions"] ?? []) as? [Any] else { throw Problem("decisions", "must be an array") }
        // A total below 0 only where review lets a person type one: on a credit note or a refund (`Review.mayBeNegative`).
        let suggestion = d["suggestion"] as? [String: Any]
        let negativeAllowed =
            suggestion?["documentKind"] as? String == DocumentKind.creditNote.rawValue || (suggestion?["total"] as? String)?.hasPrefix("-") == true
        for (i, item) in decisions.enumerated() {
            try checkDecision(item, field: "decisions[\(i)]", latest: latest, negativeAllowed: negativeAllowed)
        }
    }

    static func checkSuggestion(_ s: Any, path: String, sha: String, folder: String, latest: CalendarDay) throws(Problem) {
        guard let o = s as? [String: Any] else { throw Problem("suggestion", "must be a record object or null") }
        guard o["source"] as? String == path else { throw Problem("suggestion.source", "must be the document's path") }
        guard o["sha256"] as? String == sha else { throw Problem("suggestion.sha256", "must be the document's sha256") }
        if let f = o["folder"], !(f is NSNull), f as? String != folder { throw Problem("suggestion.folder", "must be the document's folder") }
        if let c = o["currency"], !(c is NSNull) {
            guard let code = c as? String, isCurrencyCode(code) else {
                throw Problem("suggestion.currency", "must be null or an ISO 4217 code of three capital letters")
            }
        }
        for key in ["merchant", "merchantNormalized", "referenceNumber", "sellerTaxID", "paymentMethod", "language", "documentKind", "reviewedBy"] {
            // What the pipeline wrote: import's own bound (a long line read as a merchant must not make a store
            // a run wrote unimportable); values a person typed, in decisions, meet TextLimits.
            if let p = textProblem(o[key]) { throw Problem("suggestion.\(key)", p) }
        }
        if let dup = o["duplicateOf"], !(dup is NSNull) {
            guard let d = dup as? String else { throw Problem("suggestion.duplicateOf", "must be null or a path") }
            if let p = StoredPath.problem(d) { throw Problem("suggestion.duplicateOf", p) }
        }
        try failureProblem(o["failure"], field: "suggestion.failure")
        if let reasons = o["reasons"], !(reasons is NSNull) {
            guard let list = reasons as? [String], list.count <= 64, list.allSatisfy(isCode) else {
                throw Problem("suggestion.reasons", "must be a list of reason codes (lowercase letters, digits and \"-\")")
            }
        }
        if let conf = o["confidence"], !(conf is NSNull) {
            guard let c = conf as? [String: Any], c.count <= 64,
                c.values.allSatisfy({ ($0 as? NSNumber).map { String(cString: $0.objCType) != "c" && (0...1).contains($0.doubleValue) } ?? false })
            else {
                throw Problem("suggestion.confidence", "must map fields to numbers from 0 to 1")
            }
        }
        if let p = o["pages"], !(p is NSNull), integer(p, 0...maxPages) == nil {
            throw Problem("suggestion.pages", "must be a whole number from 0 to \(maxPages)")
        }
        // Alternates and evidence: the lines a person is shown.
        if let alts = o["alternates"] as? [String: Any] {
            for (field, list) in alts {
                for item in list as? [[String: Any]] ?? [] {
                    for key in ["value", "source", "reason"] {
                        if let p = textProblem(item[key], onlyNUL: true) { throw Problem("suggestion.alternates.\(field).\(key)", p) }
                    }
                }
            }
        }
        if let evidence = o["evidence"] as? [String: Any] {
            for (field, e) in evidence {
                if let p = textProblem((e as? [String: Any])?["text"], onlyNUL: true) { throw Problem("suggestion.evidence.\(field).text", p) }
            }
        }
        // The record as a run would have written it: dates real and from 1900, amounts in the currency's digits.
        let record: DocumentRecord
        do { record = try JSONDecoder().decode(DocumentRecord.self, from: JSONSerialization.data(withJSONObject: o)) } catch {
            throw Problem("suggestion", "is not a record as Shoebox writes it (\(describe(error)))")
        }
        if let day = record.date, day.year < FieldInput.earliestYear {
            throw Problem("suggestion.date", "\(day.iso) is before \(FieldInput.earliestYear)")
        }
        if let day = record.date, day > latest { throw Problem("suggestion.date", "\(day.iso) is after today") }
        for (key, m) in [("total", record.total), ("subtotal", record.subtotal), ("tip", record.tip)] {
            if let m, m.minorUnits.magnitude > UInt64(ReviewLimits.maxTotalMinorUnits) {
                throw Problem("suggestion.\(key)", "\(m.decimalString) is beyond any receipt")
            }
        }
        // Tax lines too, and how many: summed and converted on export and in review, they must stay far from overflow.
        if record.tax.count > maxTaxLines { throw Problem("suggestion.tax", "has \(record.tax.count) lines; at most \(maxTaxLines)") }
        for (i, t) in record.tax.enumerated() where t.amount.minorUnits.magnitude > UInt64(ReviewLimits.maxTotalMinorUnits) {
            throw Problem("suggestion.tax[\(i)].amount", "\(t.amount.decimalString) is beyond any receipt")
        }
        for (i, t) in record.tax.enumerated() where (t.basis?.minorUnits.magnitude ?? 0) > UInt64(ReviewLimits.maxTotalMinorUnits) {
            throw Problem("suggestion.tax[\(i)].basis", "is beyond any invoice")
        }
        try checkEInvoice(record)
    }

    /// An e-invoice's texts are as an XML gave them (payment terms may hold line breaks, never a NUL), its texts and
    /// lists within the bounds a run keeps them to (`EInvoice.bounded`). Its amounts may be anything a decimal of 15
    /// digits gives: everything that adds them checks for overflow, and those the record itself carries are bounded above.
    static func checkEInvoice(_ record: DocumentRecord) throws(Problem) {
        if record.eInvoiceProblems.count > EInvoice.maxRows {
            throw Problem("suggestion.eInvoiceProblems", "has more than \(EInvoice.maxRows) entries")
        }
        if record.sidecarProblems.count > 64 { throw Problem("suggestion.sidecarProblems", "has more than 64 entries") }
        for (i, p) in record.sidecarProblems.enumerated() {
            if let problem = textProblem(p, onlyNUL: true) { throw Problem("suggestion.sidecarProblems[\(i)]", problem) }
        }
        for (i, p) in record.eInvoiceProblems.enumerated() {
            if let problem = textProblem(p, onlyNUL: true) { throw Problem("suggestion.eInvoiceProblems[\(i)]", problem) }
        }
        guard let e = record.eInvoice else { return }
        if e.lines.count > EInvoice.maxLines {
            throw Problem("suggestion.eInvoice.lines", "has \(e.lines.count) lines; at most \(EInvoice.maxLines)")
        }
        if [
            e.taxes.count, e.paymentMeans.count, e.paymentTerms.count, e.readingProblems.count, e.seller.addressLines.count,
            e.buyer.addressLines.count
        ]
        .contains(where: { $0 > EInvoice.maxRows }) {
            throw Problem(
                "suggestion.eInvoice", "has more than \(EInvoice.maxRows) tax rows, payment means, payment terms, reading problems or address lines")
        }
        let parties = [e.seller, e.buyer].flatMap { p in [p.name, p.vatID, p.taxNumber, p.postcode, p.city, p.country] + p.addressLines }
        let lineTexts = e.lines.flatMap { [$0.id, $0.parentID, $0.name, $0.quantity, $0.unitCode, $0.unitPrice, $0.taxCategory, $0.taxRate] }
        let rowTexts = e.taxes.flatMap { [$0.category, $0.rate, $0.exemptionReason] } + e.paymentMeans.flatMap { [$0.code, $0.iban] }
        let texts: [String?] = [e.profile, e.number, e.typeCode] + e.paymentTerms + e.readingProblems + parties + lineTexts + rowTexts
        for t in texts {
            if let problem = textProblem(t, limit: EInvoice.maxText, onlyNUL: true) {
                throw Problem("suggestion.eInvoice", "holds a text that \(problem)")
            }
        }
    }

    static func checkDecision(_ item: Any, field: String, latest: CalendarDay, negativeAllowed: Bool = false) throws(Problem) {
        guard let d = item as? [String: Any] else { throw Problem(field, "must be an object") }
        guard let a = d["action"] as? String, let action = ReviewDecision.Action(rawValue: a) else {
            throw Problem("\(field).action", "must be one of \(ReviewDecision.Action.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let p = timestampProblem(d["at"]) { throw Problem("\(field).at", p) }
        // The decision log's own columns (exports since the log kept them): where, and what it changed.
        if let who = d["who"], !(who is NSNull) {
            guard let w = who as? String, ReviewDecision.Desk(rawValue: w) != nil else {
                throw Problem("\(field).who", "must be one of \(ReviewDecision.Desk.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        // A note's values before and after may hold its line breaks and tabs, as the note itself may.
        let note = d["field"] as? String == Field.note.rawValue
        for key in ["before", "after"] {
            if let p = textProblem(d[key], limit: 1000, optional: true, onlyNUL: note) { throw Problem("\(field).\(key)", p) }
        }
        if let u = d["undone"], !(u is NSNull), !((u as? NSNumber).map { String(cString: $0.objCType) == "c" } ?? false) {
            throw Problem("\(field).undone", "must be true or false")
        }
        let name = d["field"] as? String
        let value = d["value"] as? String
        if action == .settle {
            guard name == nil, let v = value, Deadline.Kind(rawValue: v) != nil else {
                throw Problem("\(field).value", "a settle names a deadline kind: \(Deadline.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return
        }
        guard action == .edit else {
            guard name == nil, value == nil else { throw Problem(field, "only an edit has a field and a value") }
            return
        }
        guard let name, let typed = Field(rawValue: name), ReviewLimits.editableFields.contains(typed) else {
            throw Problem("\(field).field", "must be one of \(ReviewLimits.editableFields.map(\.rawValue).joined(separator: ", "))")
        }
        guard let value else { throw Problem("\(field).value", "is missing") }
        // A note may hold line breaks and tabs (TextLimits checks it below); no other value may.
        if typed != .note, let c = FieldInput.controlCharacter(in: value) {
            throw Problem("\(field).value", "holds a control character (\(FieldInput.codePoint(c)))")
        }
        // What a person typed meets the same per-field limits as every way in (TextLimits: merchant 200,
        // referenceNumber 100).
        if let limit = TextLimits.maximumLength[name], value.count > limit {
            throw Problem("\(field).value", "is \(value.count) characters long; a \(name) is at most \(limit)")
        }
        // Read as the decision log's own value (`FieldValue(logged:)`, what `Review.apply` sets), then held to the
        // bounds a desk holds a typed value to.
        let ok =
            FieldValue(logged: value, field: typed).map {
                StoreJSON.withinBounds($0, logged: value, field: typed, latest: latest, negativeAllowed: negativeAllowed)
            } ?? false
        guard ok else { throw Problem("\(field).value", "'\(value)' is not a valid \(name) as review stores it") }
    }

    /// Whether a logged edit's value, read (`FieldValue`), is one a desk could have stored: a total not zero, below 0
    /// only where `negativeAllowed` (a credit note, a refund) and within `ReviewLimits.maxTotalMinorUnits`; a day from
    /// `FieldInput.earliestYear` to `latest` (an end of term to `ReviewLimits.maxTermYear`); a currency, a notice period and
    /// tax lines written as the log writes them; text not empty and within its limits.
    static func withinBounds(_ read: FieldValue, logged value: String, field: Field, latest: CalendarDay, negativeAllowed: Bool) -> Bool {
        // An amount's minor units at three decimals, as the log's amounts are compared whatever their precision.
        func allowed(_ units: Int64, digits: Int) -> Bool {
            guard digits <= 3, case (let milli, false) = units.multipliedReportingOverflow(by: [1000, 100, 10, 1][digits]) else { return false }
            return (milli > 0 || (negativeAllowed && milli < 0)) && milli.magnitude <= UInt64(ReviewLimits.maxTotalMinorUnits) * 10
        }
        switch read {
        case .total(let m): return allowed(m.minorUnits, digits: m.currency.minorDigits)
        case .totalInRecordCurrency(let a): return allowed(a.minorUnits, digits: a.fractionDigits)
        case .day(let d) where field == .endOfTerm: return d.year >= FieldInput.earliestYear && d.year <= ReviewLimits.maxTermYear
        case .day(let d): return d.year >= FieldInput.earliestYear && d <= latest
        case .currency(let c): return c.code == value
        case .notice: return read.logged == value
        case .tax(let lines):
            // Every part a tax line (none dropped), each rate a number.
            return value == "none"
                || (value.count <= ReviewLimits.maxTypedLength && lines.count == value.split(separator: ";").count
                    && lines.allSatisfy { Double($0.rate) != nil })
        case .item(let edit): return edit.description.map { !$0.isEmpty && $0.count <= ReviewLimits.maxTypedLength } ?? true
        case .text(let t):
            return !t.isEmpty && (field == .note || t.count <= ReviewLimits.maxTypedLength)
                && TextLimits.problem(field: field.rawValue, value: t) == nil
        }
    }

    /// A decoding error as a plain phrase (the key it stopped at), not Foundation's dump.
    static func describe(_ error: any Error) -> String {
        guard let e = error as? DecodingError else { return "unreadable" }
        switch e {
        case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c):
            let at = c.codingPath.map(\.stringValue).joined(separator: ".")
            if case .keyNotFound(let key, _) = e { return "\"\(key.stringValue)\" is missing" }
            let why = c.debugDescription.isEmpty ? "" : ": \(c.debugDescription)"
            return at.isEmpty ? "unreadable\(why)" : "\"\(at)\" is wrong\(why)"
        @unknown default: return "unreadable"
        }
    }
}
