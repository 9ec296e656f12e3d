public import Foundation

/// A keyword rule from the pipeline file: a merchant whose name holds `keyword` gets `category`.
public struct CategoryRule: Sendable, Equatable {
    let keyword: String
    public let category: String
}

/// What a user set for one folder of scans, in `<folder>/.shoebox.json`:
/// `{"defaultCategory": "work trip", "categories": ["work trip", "medical"], "currency": "EUR"}`. Every key is optional.
public struct FolderSettings: Sendable, Equatable {
    var defaultCategory: String?
    /// The categories records of this folder may take; empty allows any category a rule names.
    public internal(set) var categories: [String] = []
    /// The currency the folder's documents are in (over the pipeline file's `currency`): a page that prints none and
    /// is inferred to be in it is not held for its currency; one printed in another is read as printed.
    public internal(set) var currency: CurrencyCode?
    /// The language the folder's documents are written in (a Tesseract code: "deu"): their first OCR pass reads in it
    /// (with English), so a page in it is read once; a page detected in another language is read again in that one.
    public internal(set) var language: String?

    public init(defaultCategory: String? = nil, categories: [String] = [], currency: CurrencyCode? = nil, language: String? = nil) {
        self.defaultCategory = defaultCategory
        self.categories = categories
        self.currency = currency
        self.language = language
    }

    public static let fileName = ".shoebox.json"

    public struct SettingsError: Error, CustomStringConvertible, Equatable {
        let file: String
        public let message: String
        public var description: String { "\(file): \(message)" }
    }

    /// The most of a settings file that is read: it is a few lines of JSON.
    public static let maxFileBytes = 1 << 20

    public static func parse(_ data: Data, file: String) throws(SettingsError) -> FolderSettings {
        func fail(_ m: String) -> SettingsError { SettingsError(file: file, message: m) }
        guard let object = try? JSONSerialization.jsonObject(with: data), let dict = object as? [String: Any] else {
            throw fail("not a JSON object; write {\"defaultCategory\": \"…\", \"categories\": [\"…\"], \"currency\": \"EUR\"}")
        }
        var out = FolderSettings()
        for (key, value) in dict {
            switch key {
            case "defaultCategory":
                guard let s = value as? String, !s.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw fail("key \"defaultCategory\" must be a non-empty string")
                }
                out.defaultCategory = s
            case "categories":
                guard let a = value as? [String], a.allSatisfy({ !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
                    throw fail("key \"categories\" must be an array of non-empty strings")
                }
                out.categories = a
            case "currency":
                guard let s = value as? String, let code = CurrencyCode(s), s == code.code else {
                    throw fail("key \"currency\" must be a three-letter ISO 4217 code in capitals, such as \"EUR\" or \"MYR\"")
                }
                out.currency = code
            case "language":
                let known = PipelineConfig.knownLanguages.filter { $0 != "osd" }
                guard let s = value as? String, known.contains(s) else {
                    throw fail("key \"language\" must be one of \(known.map { "\"\($0)\"" }.joined(separator: ", ")) (Tesseract's language codes)")
                }
                out.language = s
            default:
                throw fail("unknown key \"\(key)\" (known: defaultCategory, categories, currency, language)")
            }
        }
        if let d = out.defaultCategory, !out.categories.isEmpty, !out.categories.contains(d) {
            throw fail("\"defaultCategory\" \"\(d)\" is not among \"categories\"")
        }
        return out
    }

    /// A record's category: the first keyword rule its merchant matches and this folder allows, else the
    /// folder's default, else none. Only what the user set; never invented.
    public func category(for record: DocumentRecord, rules: [CategoryRule]) -> String? {
        if let merchant = record.merchant {
            let folded = TextFolding.fold(merchant)
            for rule in rules where TextFolding.containsSubstring(folded, TextFolding.fold(rule.keyword)) {
                if categories.isEmpty || categories.contains(rule.category) { return rule.category }
            }
        }
        return defaultCategory
    }
}
