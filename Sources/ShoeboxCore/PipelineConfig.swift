public import Foundation

/// The versioned settings of a pipeline (`pipelines/default.json`).
public struct PipelineConfig: Sendable, Equatable {
    public static let highestSupportedVersion = 1

    public var version: Int = 1
    public var name: String = "default"
    /// Resolution PDF pages are rendered at.
    public var dpi: Int = 300
    /// Languages a page may be read in (ISO 639-2/T: eng deu spa fra msa). When the detected language is one of
    /// them and the first pass did not use it, the page is read again with it first.
    public var languages: [String] = ["eng", "deu", "spa", "fra", "msa"]
    /// Languages of the first OCR pass.
    public var firstPassLanguages: [String] = ["eng"]
    /// Worker threads; 0 means one per core.
    public var jobs: Int = 0
    /// Tesseract page segmentation mode of the first pass (6, a uniform block, read receipts best: measured).
    public var pageSegmentationMode: Int = 6
    /// Modes of further passes over pages whose total, date or merchant came out uncertain, in order; each runs
    /// only while a field is still uncertain. An empty list turns them off.
    public var extraPassSegmentationModes: [Int] = [3, 11]
    /// Height in pixels that small print is scaled to for a last pass over pages still uncertain; 0 turns it off.
    public var textHeightTarget: Double = 30
    /// A field's confidence must reach this for the record to be accepted without review.
    public var acceptThreshold: Double = 0.6
    public var requiredFields: [String] = ["merchant", "date", "total", "currency"]
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

    public init() {}

    /// Every setting that changes what a run records, as one stable text: a source finished under other
    /// settings is read again (its OCR comes from the cache when the OCR settings are the same).
    public var settingsText: String {
        "v\(version) dpi\(dpi) lang\(languages.joined(separator: "+")) first\(firstPassLanguages.joined(separator: "+")) psm\(pageSegmentationMode) "
            + "extra\(extraPassSegmentationModes.map(String.init).joined(separator: ",")) height\(textHeightTarget) accept\(acceptThreshold) "
            + "required\(requiredFields.joined(separator: ",")) mp\(maxMegapixels) dup\(duplicateWindowHours) timeout\(pageTimeoutSeconds)"
    }

    public struct ConfigError: Error, CustomStringConvertible, Equatable {
        public let file: String
        public let message: String
        public var description: String { "\(file): \(message)" }
    }

    static let knownFields = ["merchant", "date", "total", "currency"]
    static let knownLanguages = ["eng", "deu", "spa", "fra", "msa", "osd"]

    /// Parses and validates a pipeline file. Unknown keys and wrong types are errors that name the key and the file.
    public static func parse(_ data: Data, file: String) throws(ConfigError) -> PipelineConfig {
        func fail(_ message: String) -> ConfigError { ConfigError(file: file, message: message) }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw fail("not valid JSON (\(error.localizedDescription))")
        }
        guard let dict = object as? [String: Any] else { throw fail("the top level must be a JSON object") }
        var config = PipelineConfig()
        func int(_ key: String, _ value: Any) throws(ConfigError) -> Int {
            guard let n = value as? NSNumber, CFGetTypeIDIsNotBool(n), let i = Int(exactly: n.doubleValue) else {
                throw fail("key \"\(key)\" must be an integer")
            }
            return i
        }
        func number(_ key: String, _ value: Any) throws(ConfigError) -> Double {
            guard let n = value as? NSNumber, CFGetTypeIDIsNotBool(n) else { throw fail("key \"\(key)\" must be a number") }
            return n.doubleValue
        }
        func strings(_ key: String, _ value: Any) throws(ConfigError) -> [String] {
            guard let a = value as? [Any], let s = a as? [String] else { throw fail("key \"\(key)\" must be an array of strings") }
            return s
        }
        guard let v = dict["version"] else { throw fail("key \"version\" is missing") }
        config.version = try int("version", v)
        guard config.version >= 1, config.version <= highestSupportedVersion else {
            throw fail("version \(config.version) is not supported; this Shoebox reads pipeline versions 1…\(highestSupportedVersion)")
        }
        for key in dict.keys.sorted() {
            let value = dict[key]!
            switch key {
            case "version": break
            case "name":
                guard let s = value as? String else { throw fail("key \"name\" must be a string") }
                config.name = s
            case "dpi":
                config.dpi = try int(key, value)
                guard (72...1200).contains(config.dpi) else { throw fail("key \"dpi\" must be between 72 and 1200") }
            case "languages":
                config.languages = try strings(key, value)
                guard !config.languages.isEmpty else { throw fail("key \"languages\" must name at least one language") }
                for l in config.languages where !knownLanguages.contains(l) {
                    throw fail("key \"languages\": unknown language \"\(l)\" (known: \(knownLanguages.joined(separator: ", ")))")
                }
            case "firstPassLanguages":
                config.firstPassLanguages = try strings(key, value)
                guard !config.firstPassLanguages.isEmpty else { throw fail("key \"firstPassLanguages\" must name at least one language") }
                for l in config.firstPassLanguages where !knownLanguages.contains(l) {
                    throw fail("key \"firstPassLanguages\": unknown language \"\(l)\" (known: \(knownLanguages.joined(separator: ", ")))")
                }
            case "extraPassSegmentationModes":
                guard let a = value as? [Any], let modes = a as? [NSNumber], modes.allSatisfy({ CFGetTypeIDIsNotBool($0) }) else {
                    throw fail("key \"extraPassSegmentationModes\" must be an array of integers")
                }
                config.extraPassSegmentationModes = modes.map(\.intValue)
                guard config.extraPassSegmentationModes.allSatisfy({ (1...13).contains($0) }) else {
                    throw fail("key \"extraPassSegmentationModes\" holds modes 1…13")
                }
            case "textHeightTarget":
                config.textHeightTarget = try number(key, value)
                guard config.textHeightTarget == 0 || (10...80).contains(config.textHeightTarget) else { throw fail("key \"textHeightTarget\" must be 0 (off) or 10…80") }
            case "jobs":
                config.jobs = try int(key, value)
                guard config.jobs >= 0 else { throw fail("key \"jobs\" must be 0 (one per core) or more") }
            case "pageSegmentationMode":
                config.pageSegmentationMode = try int(key, value)
                guard (0...13).contains(config.pageSegmentationMode) else { throw fail("key \"pageSegmentationMode\" must be 0…13") }
            case "acceptThreshold":
                config.acceptThreshold = try number(key, value)
                guard (0...1).contains(config.acceptThreshold) else { throw fail("key \"acceptThreshold\" must be between 0 and 1") }
            case "requiredFields":
                config.requiredFields = try strings(key, value)
                for f in config.requiredFields where !knownFields.contains(f) {
                    throw fail("key \"requiredFields\": unknown field \"\(f)\" (known: \(knownFields.joined(separator: ", ")))")
                }
            case "maxMegapixels":
                config.maxMegapixels = try int(key, value)
                guard config.maxMegapixels > 0 else { throw fail("key \"maxMegapixels\" must be positive") }
            case "pageTimeoutSeconds":
                config.pageTimeoutSeconds = try number(key, value)
                guard config.pageTimeoutSeconds > 0, config.pageTimeoutSeconds <= 3600 else { throw fail("key \"pageTimeoutSeconds\" must be above 0 and at most 3600") }
            case "duplicateWindowHours":
                config.duplicateWindowHours = try int(key, value)
                guard (0...8760).contains(config.duplicateWindowHours) else { throw fail("key \"duplicateWindowHours\" must be 0…8760") }
            case "categoryRules":
                guard let rules = value as? [[String: Any]] else {
                    throw fail("key \"categoryRules\" must be an array of {\"keyword\": …, \"category\": …}")
                }
                config.categoryRules = try rules.map { rule throws(ConfigError) in
                    guard rule.count == 2, let k = rule["keyword"] as? String, let c = rule["category"] as? String,
                          !k.trimmingCharacters(in: .whitespaces).isEmpty, !c.trimmingCharacters(in: .whitespaces).isEmpty else {
                        throw fail("key \"categoryRules\": each rule is {\"keyword\": \"…\", \"category\": \"…\"}, both non-empty")
                    }
                    return CategoryRule(keyword: k, category: c)
                }
            case "maxFileMegabytes":
                config.maxFileMegabytes = try int(key, value)
                guard (1...4096).contains(config.maxFileMegabytes) else { throw fail("key \"maxFileMegabytes\" must be 1…4096 (MiB)") }
            case "maxExportMegabytes":
                let mb = try number(key, value)
                guard mb > 0, mb <= 1_073_741_824 else { throw fail("key \"maxExportMegabytes\" must be a positive number of MiB") }
                config.maxExportBytes = Int64(mb * 1_048_576)
            default:
                throw fail("unknown key \"\(key)\"")
            }
        }
        return config
    }
}

/// JSONSerialization gives booleans as NSNumber too; a pipeline value `true` is not a number.
private func CFGetTypeIDIsNotBool(_ n: NSNumber) -> Bool {
    String(cString: n.objCType) != "c" || (n != NSNumber(value: true) && n != NSNumber(value: false))
}
