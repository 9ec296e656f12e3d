import Foundation
public import ShoeboxCore

/// What is known about a document besides its own text: the date in its file name and a JSON sidecar
/// next to it (`IMG_0412.jpg.json`, fields given by a person or another tool). The merge weighs them
/// (`RecordMerger`); neither ever replaces what the document itself says.
public struct OtherSources: Sendable, Equatable {
    public var fileNameDate: CalendarDay?
    public var sidecar: Sidecar?
    /// The digest of the sidecar's bytes as read (`IntakeStage.sidecarDigest`): stored with the record, so that a sidecar
    /// written, changed or removed after a run has the record judged again.
    public var sidecarDigest: String?
    /// The currency the user said the document's folder is in (`FolderSettings.currency`, else the pipeline's).
    public var declaredCurrency: DeclaredCurrency?
    /// The language the user said the document is written in: its sidecar's `language`, else its folder's
    /// (`FolderSettings.language`). What its first OCR pass reads in.
    public var declaredLanguage: String?

    public init(fileNameDate: CalendarDay? = nil, sidecar: Sidecar? = nil, declaredCurrency: DeclaredCurrency? = nil) {
        self.fileNameDate = fileNameDate
        self.sidecar = sidecar
        self.declaredCurrency = declaredCurrency
    }

    /// A date written in a file name: `2026-03-14_rewe.jpg`, `IMG_20260314_120301.jpg`, `scan 2026_03_14.pdf`.
    /// Only year-first forms (a day-first date in a name is too often a counter); not after `today`.
    public static func date(inFileName path: String, today: CalendarDay) -> CalendarDay? {
        let name = Array(PathText.lastComponent(of: path).utf8)
        func isDigit(_ i: Int) -> Bool { i >= 0 && i < name.count && name[i] >= 0x30 && name[i] <= 0x39 }
        func number(_ at: Int, _ n: Int) -> Int? {
            guard (at..<(at + n)).allSatisfy(isDigit) else { return nil }
            return name[at..<(at + n)].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        let separators: Set<UInt8> = [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: ".")]
        for i in name.indices where isDigit(i) && !isDigit(i - 1) {
            var run = 0
            while isDigit(i + run) { run += 1 }
            guard let year = number(i, 4), (1990...2100).contains(year) else { continue }
            var found: CalendarDay?
            if run == 8 || run == 14, let m = number(i + 4, 2), let d = number(i + 6, 2) {
                found = CalendarDay(year: year, month: m, day: d) // 20260314, 20260314120301
            } else if run == 4, i + 10 <= name.count, separators.contains(name[i + 4]), name[i + 7] == name[i + 4],
                let m = number(i + 5, 2), let d = number(i + 8, 2), !isDigit(i + 10)
            {
                found = CalendarDay(year: year, month: m, day: d) // 2026-03-14, 2026_03_14
            }
            if let found, found <= today { return found }
        }
        return nil
    }
}

/// A currency the user said a folder is in, and where they said it, for the evidence ("photos/.shoebox.json").
public struct DeclaredCurrency: Sendable, Equatable {
    public let code: CurrencyCode
    public let by: String

    public init(_ code: CurrencyCode, by: String) {
        self.code = code
        self.by = by
    }
}

/// Fields from a JSON sidecar, each validated with the parsers the document's own text goes through.
/// A value that does not parse is dropped and named in `problems` (the record then goes to review with
/// `sidecar-invalid`), never taken as it is.
public struct Sidecar: Sendable, Equatable {
    public var merchant: String?
    public var date: CalendarDay?
    /// The total as printed in the sidecar, with the currency it gives (or none).
    public var total: AmountReading?
    public var currency: CurrencyCode?
    public var referenceNumber: String?
    public var category: String?
    public var note: String?
    /// The day a letter (a fine) was received: what its windows count from, never the letter's printed date.
    public var receivedOn: CalendarDay?
    /// What the document is (`fine`, `contract`, `invoice` …), when the person says so beside the scan.
    public var documentKind: DocumentKind?
    /// The language the document is written in (a Tesseract code: "deu"), over its folder's: its first OCR pass reads
    /// in it, with English, so a page in it is read once.
    public var language: String?
    /// The agent that wrote the sidecar for a person ("Claude Code"): its values are entered by that agent, and the
    /// record says so (`DocumentRecord.enteredBy`). Nil: a person or a tool of theirs wrote it.
    public var agent: String?
    /// The agent says the person confirmed these values with it (in conversation): still checked against the page.
    public var confirmedByPerson = false
    /// The folder the writer files the document under: must be the folder the document sits in (the inbox's
    /// sub-folder, or the scan's), else it is a problem and the inbox refuses the drop.
    public var folder: String?
    /// The sidecar as written, for an agent's: kept verbatim with the record, in the store and in the export's zip.
    public var verbatim: String?
    public var problems: [String] = []

    public init() {}

    /// Whose word its values are: an agent's when it names one, else a sidecar's (a person's or their tool's).
    public var source: Provenance { agent == nil ? .sidecar : .agent }

    /// One key a sidecar may carry, as `shoebox manifest` tells an agent: its name, the form its value takes, an example.
    public struct Field: Sendable, Equatable, Codable {
        public let name: String
        public let format: String
        /// The example as text (a boolean's as `true`).
        public let example: String
        /// The JSON type the value is written as: `string`, or `boolean` (`true`, not `"true"`).
        public let type: String

        init(name: String, format: String, example: String, type: String = "string") {
            self.name = name
            self.format = format
            self.example = example
            self.type = type
        }
    }

    /// The keys a sidecar may carry, in the order the manifest lists them. `parse` reads these and names any other.
    public static let fields: [Field] = [
        Field(name: "merchant", format: "text, one line, at most 200 characters", example: "Café Müller"),
        Field(
            name: "date",
            format: "the document's date: YYYY-MM-DD, or as printed read day first (14.03.2026, 14 Mar 2026); from 1900, not after today",
            example: "2026-03-14"),
        Field(
            name: "total", format: "the amount paid: one amount (12.50, 12,50, 1.234,56), its currency's code or sign before or after it allowed",
            example: "12.50 EUR"),
        Field(name: "currency", format: "an ISO 4217 code", example: "EUR"),
        Field(name: "referenceNumber", format: "text, at most 100 characters: the invoice or receipt number", example: "RE-2026-0042"),
        Field(name: "category", format: "text: one of the folder's categories when it sets any", example: "meals"),
        Field(name: "note", format: "text, line breaks allowed", example: "client dinner"),
        Field(name: "receivedOn", format: "YYYY-MM-DD, not after today: the day a letter (a fine) arrived", example: "2026-03-02"),
        Field(name: "documentKind", format: DocumentKind.allCases.map(\.rawValue).joined(separator: " | "), example: "receipt"),
        Field(
            name: "language", format: "a Tesseract language code: " + PipelineConfig.knownLanguages.filter { $0 != "osd" }.joined(separator: " | "),
            example: "deu"),
        Field(
            name: "agent", format: "text, one line, at most 100 characters: the agent that wrote the sidecar (required in the inbox)",
            example: "Claude Code"),
        Field(name: "confirmedByPerson", format: "true or false: the person confirmed these values with the agent", example: "true", type: "boolean"),
        Field(name: "folder", format: "text: the folder the document is filed under, the same as the inbox folder it is dropped in", example: "trip")
    ]

    package static let knownKeys: Set<String> = Set(fields.map(\.name))

    /// The version of the sidecar's schema the manifest names: raised when a key is added or a format changes.
    public static let schemaVersion = 2

    /// Reads a sidecar's bytes. Not a JSON object at all: one problem, no fields.
    public static func parse(_ data: [UInt8], today: CalendarDay) -> Sidecar {
        var s = Sidecar()
        guard let object = (try? JSONSerialization.jsonObject(with: Data(data))) as? [String: Any] else {
            s.problems.append("the sidecar is not a JSON object")
            return s
        }
        for key in object.keys.sorted() where !knownKeys.contains(key) { s.problems.append("unknown key '\(key)'") }
        func text(_ key: String) -> String? {
            guard let v = object[key], !(v is NSNull) else { return nil }
            guard let t = v as? String else {
                s.problems.append("'\(key)' is not a string")
                return nil
            }
            let trimmed = t.trimmingCharacters(in: .whitespacesAndNewlines)
            if let c = FieldInput.controlCharacter(in: trimmed) {
                s.problems.append("'\(key)' holds a control character (\(FieldInput.codePoint(c))), which no document has")
                return nil
            }
            return trimmed.isEmpty ? nil : trimmed
        }
        // Text fields within `TextLimits` (length, one line); an over-long value is named, not stored.
        func bounded(_ key: String) -> String? {
            guard let t = text(key) else { return nil }
            if let problem = TextLimits.problem(field: key, value: t) {
                s.problems.append("'\(key)' refused: \(problem)")
                return nil
            }
            return t
        }
        if let m = bounded("merchant") { s.merchant = m }
        if let n = object["note"] as? String {
            let trimmed = n.trimmingCharacters(in: .whitespacesAndNewlines)
            if let problem = TextLimits.problem(field: "note", value: trimmed) {
                s.problems.append("'note' refused: \(problem)")
            } else {
                s.note = trimmed
            }
        } else if let n = object["note"], !(n is NSNull) {
            s.problems.append("'note' is not a string")
        }
        if let d = text("date") {
            if let day = FieldInput.date(d, today: today) {
                s.date = day
            } else {
                s.problems.append("'date' \(d) is not a date from \(FieldInput.earliestYear)-01-01 to \(today.iso)")
            }
        }
        if let c = text("currency") {
            if let code = CurrencyCode(c.uppercased()), c.count == 3 {
                s.currency = code
            } else {
                s.problems.append("'currency' \(c) is not an ISO 4217 code")
            }
        }
        if let t = text("total") {
            if let a = FieldInput.amount(t) { s.total = a } else { s.problems.append("'total' \(t) is not an amount") }
        }
        if let r = bounded("referenceNumber") { s.referenceNumber = r }
        if let c = bounded("category") { s.category = c }
        if let a = bounded("agent") {
            s.agent = a
            s.verbatim = String(decoding: data, as: UTF8.self)
        }
        if let f = bounded("folder") { s.folder = f }
        if let v = object["confirmedByPerson"], !(v is NSNull) {
            // JSONSerialization gives a JSON true as an NSNumber: only a boolean, not 1 or "yes", is taken.
            if let b = v as? NSNumber, !isNumberNotBool(b) {
                s.confirmedByPerson = b.boolValue
            } else {
                s.problems.append("'confirmedByPerson' is not true or false")
            }
        }
        if let d = text("receivedOn") {
            // A calendar day as written (YYYY-MM-DD), not after today: the windows of a fine count from it.
            if let day = CalendarDay(iso: d), d.count == 10, day <= today, day.year >= FieldInput.earliestYear {
                s.receivedOn = day
            } else {
                let line = Sidecar.line(of: "receivedOn", in: data).map { " (line \($0))" } ?? ""
                s.problems.append("'receivedOn' \(d)\(line) is not a day written YYYY-MM-DD from \(FieldInput.earliestYear)-01-01 to \(today.iso)")
            }
        }
        if let l = text("language") {
            let known = PipelineConfig.knownLanguages.filter { $0 != "osd" }
            if known.contains(l) {
                s.language = l
            } else {
                let line = Sidecar.line(of: "language", in: data).map { " (line \($0))" } ?? ""
                s.problems.append("'language' \(l)\(line) is not one of \(known.joined(separator: ", ")) (Tesseract's language codes)")
            }
        }
        if let k = text("documentKind") {
            if let kind = DocumentKind(rawValue: k) {
                s.documentKind = kind
            } else {
                let line = Sidecar.line(of: "documentKind", in: data).map { " (line \($0))" } ?? ""
                s.problems.append("'documentKind' \(k)\(line) is not one of \(DocumentKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        return s
    }

    /// The line (from 1) of the sidecar on which `key` is first given, to name it in a problem.
    package static func line(of key: String, in data: [UInt8]) -> Int? {
        let text = String(decoding: data, as: UTF8.self)
        guard let r = text.range(of: "\"\(key)\"") else { return nil }
        return text[..<r.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }
}

extension FieldInput {
    /// "23.45", "23,45", "1.234,56", "RM 12.50", "€ 9", "12.50 EUR": one amount, nothing else ("12,3x" is not).
    public static func amount(_ text: String) -> AmountReading? {
        // A currency sign or code may stand before or after the number; anything else must be the number.
        var rest = text.trimmingCharacters(in: .whitespaces)
        for sign in ["€", "$", "£", "¥"] where rest.hasPrefix(sign) || rest.hasSuffix(sign) {
            rest = rest.replacingOccurrences(of: sign, with: "")
        }
        let tokens = rest.split(separator: " ")
        if let first = tokens.first, first.allSatisfy(\.isLetter), first.count <= 3 { rest = tokens.dropFirst().joined(separator: " ") }
        let again = rest.split(separator: " ")
        if let last = again.last, again.count > 1, last.allSatisfy(\.isLetter), last.count <= 3 { rest = again.dropLast().joined(separator: " ") }
        rest = rest.trimmingCharacters(in: .whitespaces)
        guard !rest.isEmpty, rest.allSatisfy({ "0123456789.,' ".contains($0) }), rest.contains(where: \.isNumber) else { return nil }
        // The currency typed with it is kept (it was dropped, and "15.00 EUR" lost its EUR).
        var hint: String?
        if case .code(let c) = currency(typedWith: text) { hint = c.code }
        if let units = Money.minorUnits(fromDecimal: rest, digits: 2) {
            return AmountReading(minorUnits: units, fractionDigits: 2, currencyHint: hint)
        }
        let found = AmountReader.amounts(in: rest).filter { !$0.isRate }
        guard found.count == 1, let f = found.first, f.range.count == rest.count else { return nil }
        return AmountReading(minorUnits: f.reading.minorUnits, fractionDigits: f.reading.fractionDigits, currencyHint: hint ?? f.reading.currencyHint)
    }

    /// What a typed amount says about its currency.
    public enum TypedCurrency: Equatable, Sendable {
        /// No currency typed.
        case none
        case code(CurrencyCode)
        /// A mark that stands for several currencies ("$", "¥"), is no code ("ab"), or two that disagree.
        case unclear(String)
    }

    /// Signs that stand for one currency only; "$" and "¥" stand for several and are `unclear`.
    package static let currencySigns: [Character: String] = ["€": "EUR", "£": "GBP"]
    package static let ambiguousSigns: Set<Character> = ["$", "¥"]

    /// The currency typed with an amount: "15.00 EUR", "eur 15", "€ 9", "RM 12.50" (ringgit, as printed in Malaysia).
    public static func currency(typedWith text: String) -> TypedCurrency {
        var marks: [String] = []
        var rest = ""
        for ch in text {
            if let code = currencySigns[ch] {
                marks.append(code)
            } else if ambiguousSigns.contains(ch) {
                return .unclear(String(ch))
            } else {
                rest.append(ch)
            }
        }
        let tokens = rest.split(separator: " ")
        var letters: [Substring] = []
        if let first = tokens.first, first.allSatisfy(\.isLetter), first.count <= 3 { letters.append(first) }
        if tokens.count > 1, let last = tokens.last, last.allSatisfy(\.isLetter), last.count <= 3 { letters.append(last) }
        for l in letters {
            if l.uppercased() == "RM" {
                marks.append("MYR")
                continue
            }
            guard l.count == 3, l.allSatisfy(\.isASCII), let c = CurrencyCode(String(l)) else { return .unclear(String(l)) }
            marks.append(c.code)
        }
        guard let first = marks.first else { return .none }
        guard marks.allSatisfy({ $0 == first }), let code = CurrencyCode(first) else { return .unclear(marks.joined(separator: " and ")) }
        return .code(code)
    }

    /// ISO "2026-03-14", or a printed date ("14.03.2026", "14 Mar 2026") read day-first; from `earliestYear`
    /// and not after `today`.
    public static func date(_ text: String, today: CalendarDay) -> CalendarDay? {
        if let d = CalendarDay(iso: text) { return d <= today && d.year >= earliestYear ? d : nil }
        let found = DateReader.dates(in: text, folded: TextFolding.fold(text), order: .dayFirst, today: today)
        guard found.count == 1, found[0].day.year >= earliestYear else { return nil }
        return found[0].day
    }
}

/// As the work queue keeps what intake knew of a document (`shoebox worker` reads it on another machine).
extension OtherSources: Codable {}
extension Sidecar: Codable {}
extension DeclaredCurrency: Codable {}
