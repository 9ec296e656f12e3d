public import Foundation

/// The versioned settings of a pipeline (`pipelines/default.json`).
public struct PipelineConfig: Sendable, Equatable {
    static let highestSupportedVersion = 1

    var version: Int = 1
    var name: String = "default"
    /// Resolution PDF pages are rendered at.
    public var dpi: Int = 300
    /// Languages a page may be read in (ISO 639-2/T: eng deu spa fra msa). When the detected language is one of
    /// them and the first pass did not use it, the page is read again with it first.
    public var languages: [String] = ["eng", "deu", "spa", "fra", "msa"]
    /// Languages of the first OCR pass.
    public var firstPassLanguages: [String] = ["eng"]
    /// Worker threads; 0 means one per core.
    public var jobs: Int = 0
    /// Tesseract page segmentation mode of the first pass (6, a uniform block, reads receipts best).
    public var pageSegmentationMode: Int = 6
    /// Modes of further passes over pages whose total, date or merchant came out uncertain, in order; each runs
    /// only while a field is still uncertain. An empty list turns them off.
    public var extraPassSegmentationModes: [Int] = [3, 11]
    /// Height in pixels that small print is scaled to for a last pass over pages still uncertain; 0 turns it off.
    public var textHeightTarget: Double = 30
    /// Each required field's rule confidence (rule score × OCR factor) must reach this for the record to be accepted
    /// without review.
    public var acceptThreshold: Double = 0.6
    /// The calibrated probability that the required total, date and currency are all right must reach this
    /// (`RecordMerger.allRight`, docs/calibration.md); 0 asks for none.
    public var acceptPrecision: Double = 0.99
    public var requiredFields: [Field] = [.merchant, .date, .total, .currency]
    /// The currency of every folder whose `.shoebox.json` names none (nil: none said): an inferred currency that is
    /// this one is no review reason; a printed one that differs is read as printed (a receipt from abroad).
    public var currency: CurrencyCode?
    /// Pages larger than this many megapixels fail as image-too-large.
    public var maxMegapixels: Int = 60
    /// Two records from the same merchant with the same total whose dates are at most this many hours apart
    /// (dates are days: 48 h is two days either way) are suspected duplicates of one purchase.
    public var duplicateWindowHours: Int = 48
    /// A page whose OCR takes longer than this is abandoned and the document fails as page-timeout.
    public var pageTimeoutSeconds: Double = 120
    /// Keyword rules for export categories: a merchant holding `keyword` (case and accents folded) gets
    /// `category`, when the folder allows it (`.shoebox.json`). Categories are never invented.
    public var categoryRules: [CategoryRule] = []
    /// An export whose originals would pass this many bytes (default 2 GiB) is refused: export a date range.
    public var maxExportBytes: Int64 = 2 << 30
    /// A scan file larger than this many MiB fails as file-too-large without being loaded (a file is held
    /// whole while its pages are rendered). Not part of `settingsText`: it decides only whether a file is read.
    public var maxFileMegabytes: Int = 512
    /// Lines that carry a field, or that tesseract read unsure, are read again by the second reader (PP-OCR) when
    /// it is installed; false: tesseract alone.
    public var secondReader: Bool = true
    /// When the detected language is not the first pass's, the pages are read again in it; false: never (the first
    /// pass's reading stands).
    public var languagePass: Bool = true
    /// A page the first pass could hardly read is read again binarised adaptively (kept when it reads better); false:
    /// never. Off by default: with the second reader reading the unsure lines, it turned more fields wrong than right
    /// on the devset (docs/benchmarks.md). A page that may lie on its side is turned upright either way.
    public var faintPass: Bool = false
    /// The language pass and further passes read lines, not whole pages (`LineMosaic`): the language pass the head and
    /// the lines that hold a candidate or were read unsure, a further pass the lines of the uncertain fields'
    /// candidates. Off by default: on the devset it read fewer totals right than whole pages (docs/benchmarks.md).
    public var passesOnLines: Bool = false
    /// Where a required field is still missing after the second reading, or the two readers disagree on it, the
    /// first and the last page are detected and read whole by the second reader, and its candidates join for those
    /// fields; false: never (docs/second-reader.md measures what it buys).
    public var wholePageReading: Bool = true
    /// The merchant memory weighs in on each record (`RecordMerger.remember`); false: the page alone (for comparing).
    /// Not part of `settingsText`: the memory changes with every decision, and `shoebox rescore` applies it anew.
    public var merchantMemory: Bool = true
    /// Per folder, the windows its documents' deadlines count (`"deadlines": {"purchases": {"returnWindowDays": 30,
    /// "warrantyMonths": 24}, "fines": {"payReducedDays": 20, "objectionDays": 14}}`): a choice the user makes, never
    /// inferred from a country's law.
    public var deadlinePresets: [String: DeadlinePresets] = [:]

    public init() {}

    // The range of every number (README "Pipelines", `--help`). Outside it a pipeline file is refused (exit 6)
    // and a flag is a usage error (exit 2), naming the key or flag, the value and the range.
    static let dpiRange = 72...1200
    /// More workers than this only add memory (one OCR engine each, 60–155 MB) on any machine Shoebox runs on.
    public static let maxJobs = 64
    static let jobsRange = 0...maxJobs
    static let segmentationModeRange = 0...13
    /// Further passes use modes 1…13 (0 is orientation detection only), at most one pass per mode.
    static let extraSegmentationModeRange = 1...13
    static let maxExtraPasses = 13
    /// 500 megapixels of 8-bit gray is 500 MB for one page: an A3 page at 1200 dpi is 280.
    static let megapixelsRange = 1...500
    static let fileMegabytesRange = 1...4096
    static let duplicateWindowRange = 0...8760
    static let pageTimeoutRange: ClosedRange<Double> = 0.001...3600
    static let textHeightRange: ClosedRange<Double> = 10...80
    /// 0.001 MiB (about 1 KiB, for tests of the refusal) to 1 TiB.
    static let exportMegabytesRange: ClosedRange<Double> = 0.001...1_048_576

    /// Every setting that changes what a run records, as one stable text: a source finished under other
    /// settings is read again (its OCR comes from the cache when the OCR settings are the same).
    /// `modelDigest`: the trust model's (`settingsText` in ShoeboxJudgement passes `TrustModel.committedDigest`).
    public func settingsText(modelDigest: String) -> String {
        "v\(version) dpi\(dpi) lang\(languages.joined(separator: "+")) first\(firstPassLanguages.joined(separator: "+")) psm\(pageSegmentationMode) "
            + "extra\(extraPassSegmentationModes.map(String.init).joined(separator: ",")) height\(textHeightTarget) accept\(acceptThreshold) "
            + "precision\(acceptPrecision) model\(modelDigest) "
            + "required\(requiredFields.map(\.rawValue).joined(separator: ",")) mp\(maxMegapixels) dup\(duplicateWindowHours) timeout\(pageTimeoutSeconds)"
            + (secondReader ? "" : " tesseract-alone") + (languagePass ? "" : " no-language-pass") + (faintPass ? " faint-pass" : "")
            + (passesOnLines ? " passes-on-lines" : "") + (wholePageReading ? "" : " no-whole-page-reading")
            + (currency.map { " currency\($0.code)" } ?? "")
            + (deadlinePresets.isEmpty
                ? ""
                : " deadlines"
                    + deadlinePresets.keys.sorted().map { f in
                        let p = deadlinePresets[f]!
                        return "\(f)=\(p.returnWindowDays ?? 0),\(p.warrantyMonths ?? 0),\(p.payReducedDays ?? 0),\(p.objectionDays ?? 0)"
                            + (p.documentKind.map { ",\($0.rawValue)" } ?? "")
                    }.joined(separator: ";"))
    }

    public struct ConfigError: Error, CustomStringConvertible, Equatable {
        let file: String
        public let message: String
        public var description: String { "\(file): \(message)" }
    }

    static let knownFields: [Field] = [.merchant, .date, .total, .currency]
    public static let knownLanguages = ["eng", "deu", "spa", "fra", "msa", "osd"]

    /// Parses and validates a pipeline file. Unknown keys and wrong types are errors that name the key and the file.
    public static func parse(_ data: Data, file: String) throws(ConfigError) -> PipelineConfig {
        let reader = ConfigReader(file: file)
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw reader.fail("not valid JSON (\(SystemReason.ofJSON(error))); `python3 -m json.tool \(file)` shows where")
        }
        guard let dict = object as? [String: Any] else { throw reader.fail("the top level must be a JSON object") }
        var config = PipelineConfig()
        config.version = try reader.version(dict["version"])
        for key in dict.keys.sorted() {
            try reader.apply(key, dict[key]!, to: &config)
        }
        return config
    }
}

/// Reads the values of one pipeline file, each key by its own rule; every error names the key and the file.
private struct ConfigReader {
    let file: String

    func fail(_ message: String) -> PipelineConfig.ConfigError { PipelineConfig.ConfigError(file: file, message: message) }

    /// The pipeline version: present, whole and one this Shoebox reads.
    func version(_ v: Any?) throws(PipelineConfig.ConfigError) -> Int {
        let highest = PipelineConfig.highestSupportedVersion
        guard let v else { throw fail("key \"version\" is missing") }
        guard let vn = v as? NSNumber, isNumberNotBool(vn) else { throw fail("key \"version\" must be an integer") }
        guard vn.doubleValue == vn.doubleValue.rounded(), vn.doubleValue >= 1, vn.doubleValue <= Double(highest) else {
            throw fail("version \(PipelineConfig.text(vn.doubleValue)) is not supported; this Shoebox reads pipeline versions 1…\(highest)")
        }
        return Int(exactly: vn.doubleValue) ?? 1 // whole and within 1…highestSupportedVersion, checked above
    }

    /// Sets the setting `key` names from `value`; an unknown key is an error.
    func apply(_ key: String, _ value: Any, to config: inout PipelineConfig) throws(PipelineConfig.ConfigError) {
        typealias P = PipelineConfig
        switch key {
        case "version": break
        case "name": config.name = try name(value)
        case "dpi": config.dpi = try int(key, value, P.dpiRange)
        case "languages", "firstPassLanguages":
            let list = try languages(key, value)
            if key == "languages" { config.languages = list } else { config.firstPassLanguages = list }
        case "extraPassSegmentationModes": config.extraPassSegmentationModes = try extraModes(key, value)
        case "textHeightTarget": config.textHeightTarget = try textHeight(key, value)
        case "jobs": config.jobs = try int(key, value, P.jobsRange, " (0: one per core)")
        case "pageSegmentationMode": config.pageSegmentationMode = try int(key, value, P.segmentationModeRange)
        case "acceptThreshold": config.acceptThreshold = try number(key, value, 0...1)
        case "acceptPrecision": config.acceptPrecision = try number(key, value, 0...1)
        case "requiredFields":
            config.requiredFields = try strings(key, value).map { name throws(PipelineConfig.ConfigError) in
                guard let f = Field(rawValue: name), P.knownFields.contains(f) else {
                    throw fail("key \"requiredFields\": unknown field \"\(name)\" (known: \(P.knownFields.map(\.rawValue).joined(separator: ", ")))")
                }
                return f
            }
        case "currency":
            guard let s = value as? String, let code = CurrencyCode(s), s == code.code else {
                throw fail("key \"currency\" must be a three-letter ISO 4217 code in capitals, such as \"EUR\" or \"MYR\"")
            }
            config.currency = code
        case "maxMegapixels": config.maxMegapixels = try int(key, value, P.megapixelsRange)
        case "pageTimeoutSeconds": config.pageTimeoutSeconds = try number(key, value, P.pageTimeoutRange, " seconds")
        case "duplicateWindowHours": config.duplicateWindowHours = try int(key, value, P.duplicateWindowRange, " hours")
        case "categoryRules": config.categoryRules = try categoryRules(value)
        case "secondReader": config.secondReader = try flag(key, value)
        case "deadlines": config.deadlinePresets = try presets(value)
        case "merchantMemory": config.merchantMemory = try flag(key, value)
        case "languagePass": config.languagePass = try flag(key, value)
        case "faintPass": config.faintPass = try flag(key, value)
        case "passesOnLines": config.passesOnLines = try flag(key, value)
        case "wholePageReading": config.wholePageReading = try flag(key, value)
        case "maxFileMegabytes": config.maxFileMegabytes = try int(key, value, P.fileMegabytesRange, " MiB")
        case "maxExportMegabytes":
            let mb = try number(key, value, P.exportMegabytesRange, " MiB")
            config.maxExportBytes = Int64((mb * 1_048_576).rounded())
        default:
            throw fail("unknown key \"\(key)\"")
        }
    }

    /// `"deadlines"`: per folder, its windows in days (1…3650) or warranty months (1…240) and the kind of its documents;
    /// unknown keys refused.
    func presets(_ value: Any) throws(PipelineConfig.ConfigError) -> [String: DeadlinePresets] {
        guard let folders = value as? [String: Any] else { throw fail("key \"deadlines\" must be an object of folders") }
        var out: [String: DeadlinePresets] = [:]
        for (folder, v) in folders {
            guard let o = v as? [String: Any] else { throw fail("key \"deadlines\": folder \"\(folder)\" must be an object") }
            var p = DeadlinePresets()
            for (k, x) in o {
                let key = "deadlines.\(folder).\(k)"
                switch k {
                case "returnWindowDays": p.returnWindowDays = try int(key, x, DeadlinePresets.dayRange, " days")
                case "warrantyMonths": p.warrantyMonths = try int(key, x, DeadlinePresets.monthRange, " months")
                case "payReducedDays": p.payReducedDays = try int(key, x, DeadlinePresets.dayRange, " days")
                case "objectionDays": p.objectionDays = try int(key, x, DeadlinePresets.dayRange, " days")
                case "documentKind":
                    guard let s = x as? String, let kind = DocumentKind(rawValue: s) else {
                        throw fail("key \"\(key)\" must be one of \(DocumentKind.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    p.documentKind = kind
                default:
                    throw fail(
                        "key \"\(key)\" is unknown (known: returnWindowDays, warrantyMonths, payReducedDays, objectionDays, documentKind)")
                }
            }
            out[folder] = p
        }
        return out
    }

    /// A whole number within `range`; a fraction (3.7) is refused, never rounded.
    func int(_ key: String, _ value: Any, _ range: ClosedRange<Int>, _ meaning: String = "") throws(PipelineConfig.ConfigError) -> Int {
        guard let n = value as? NSNumber, isNumberNotBool(n) else { throw fail("key \"\(key)\" must be an integer") }
        let d = n.doubleValue
        guard d.isFinite, d == d.rounded() else {
            throw fail(
                "key \"\(key)\" must be a whole number from \(range.lowerBound) to \(range.upperBound)\(meaning), not \(PipelineConfig.text(d))")
        }
        guard let i = Int(exactly: d), range.contains(i) else {
            throw fail("key \"\(key)\" is \(PipelineConfig.text(d)), outside its range \(range.lowerBound) to \(range.upperBound)\(meaning)")
        }
        return i
    }

    func number(_ key: String, _ value: Any, _ range: ClosedRange<Double>, _ meaning: String = "") throws(PipelineConfig.ConfigError) -> Double {
        guard let n = value as? NSNumber, isNumberNotBool(n) else { throw fail("key \"\(key)\" must be a number") }
        let d = n.doubleValue
        guard d.isFinite, range.contains(d) else {
            throw fail(
                "key \"\(key)\" is \(PipelineConfig.text(d)), outside its range \(PipelineConfig.text(range.lowerBound)) to \(PipelineConfig.text(range.upperBound))\(meaning)"
            )
        }
        return d
    }

    func strings(_ key: String, _ value: Any) throws(PipelineConfig.ConfigError) -> [String] {
        guard let a = value as? [Any], let s = a as? [String] else { throw fail("key \"\(key)\" must be an array of strings") }
        return s
    }

    /// A pipeline's name: 1 to 200 characters, no control characters.
    func name(_ value: Any) throws(PipelineConfig.ConfigError) -> String {
        guard let s = value as? String, (1...200).contains(s.count),
            !s.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw fail("key \"name\" must be a string of 1 to 200 characters on one line, without control characters")
        }
        return s
    }

    /// A non-empty list of known OCR languages.
    func languages(_ key: String, _ value: Any) throws(PipelineConfig.ConfigError) -> [String] {
        let list = try strings(key, value)
        guard !list.isEmpty else { throw fail("key \"\(key)\" must name at least one language") }
        for l in list where !PipelineConfig.knownLanguages.contains(l) {
            throw fail("key \"\(key)\": unknown language \"\(l)\" (known: \(PipelineConfig.knownLanguages.joined(separator: ", ")))")
        }
        return list
    }

    /// At most `maxExtraPasses` segmentation modes, each within `extraSegmentationModeRange`.
    func extraModes(_ key: String, _ value: Any) throws(PipelineConfig.ConfigError) -> [Int] {
        guard let a = value as? [Any], let modes = a as? [NSNumber], modes.allSatisfy({ isNumberNotBool($0) }) else {
            throw fail("key \"extraPassSegmentationModes\" must be an array of integers")
        }
        guard modes.count <= PipelineConfig.maxExtraPasses else {
            throw fail("key \"extraPassSegmentationModes\" holds \(modes.count) modes; at most \(PipelineConfig.maxExtraPasses) (one pass per mode)")
        }
        return try modes.enumerated().map { (i, m) throws(PipelineConfig.ConfigError) in
            try int("\(key)[\(i)]", m, PipelineConfig.extraSegmentationModeRange)
        }
    }

    /// `true` or `false`, nothing else (not 0 or 1).
    func flag(_ key: String, _ value: Any) throws(PipelineConfig.ConfigError) -> Bool {
        guard let flag = value as? NSNumber, !isNumberNotBool(flag) else { throw fail("key \"\(key)\" must be true or false") }
        return flag.boolValue
    }

    /// 0 (off) or a height within `textHeightRange`.
    func textHeight(_ key: String, _ value: Any) throws(PipelineConfig.ConfigError) -> Double {
        guard let n = value as? NSNumber, isNumberNotBool(n), n.doubleValue == 0 else {
            return try number(key, value, PipelineConfig.textHeightRange, " (or 0: off)")
        }
        return 0
    }

    /// Rules of exactly two non-empty strings, "keyword" and "category".
    func categoryRules(_ value: Any) throws(PipelineConfig.ConfigError) -> [CategoryRule] {
        guard let rules = value as? [[String: Any]] else {
            throw fail("key \"categoryRules\" must be an array of {\"keyword\": …, \"category\": …}")
        }
        return try rules.map { rule throws(PipelineConfig.ConfigError) in
            guard rule.count == 2, let k = rule["keyword"] as? String, let c = rule["category"] as? String,
                !k.trimmingCharacters(in: .whitespaces).isEmpty, !c.trimmingCharacters(in: .whitespaces).isEmpty
            else {
                throw fail("key \"categoryRules\": each rule is {\"keyword\": \"…\", \"category\": \"…\"}, both non-empty")
            }
            return CategoryRule(keyword: k, category: c)
        }
    }
}

extension PipelineConfig {
    /// A number as a person would write it: 3, 3.7, 1e+18.
    static func text(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }
}

/// Whether a JSON value as `JSONSerialization` gives it is a number, not `true` or `false`: it gives booleans as
/// NSNumbers too, and a pipeline value `true` is not a number (nor a sidecar's `1` a boolean).
package func isNumberNotBool(_ n: NSNumber) -> Bool {
    String(cString: n.objCType) != "c" || (n != NSNumber(value: true) && n != NSNumber(value: false))
}
