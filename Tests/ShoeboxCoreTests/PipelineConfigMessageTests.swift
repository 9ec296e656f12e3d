import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement

/// `PipelineConfig.parse`: every key's rule, every refusal's exact message (a pipeline file's author reads it),
/// the keys read in sorted order, the file named in each error.
struct PipelineConfigMessageTests {
    func error(_ json: String) -> PipelineConfig.ConfigError? {
        do {
            _ = try PipelineConfig.parse(Data(json.utf8), file: "p.json")
            return nil
        } catch { return error }
    }

    func message(_ json: String) -> String? { error(json)?.message }

    @Test func refusalsNameTheKeyTheValueAndTheRange() {
        let cases: [(String, String)] = [
            (#"[]"#, "the top level must be a JSON object"),
            (#"{}"#, #"key "version" is missing"#),
            (#"{"version": "1"}"#, #"key "version" must be an integer"#),
            (#"{"version": true}"#, #"key "version" must be an integer"#),
            (#"{"version": 2}"#, "version 2 is not supported; this Shoebox reads pipeline versions 1…1"),
            (#"{"version": 1.5}"#, "version 1.5 is not supported; this Shoebox reads pipeline versions 1…1"),
            (#"{"version": 1, "name": ""}"#, #"key "name" must be a string of 1 to 200 characters on one line, without control characters"#),
            (#"{"version": 1, "name": 7}"#, #"key "name" must be a string of 1 to 200 characters on one line, without control characters"#),
            (#"{"version": 1, "dpi": 3.5}"#, #"key "dpi" must be a whole number from 72 to 1200, not 3.5"#),
            (#"{"version": 1, "dpi": true}"#, #"key "dpi" must be an integer"#),
            (#"{"version": 1, "dpi": 71}"#, #"key "dpi" is 71, outside its range 72 to 1200"#),
            (#"{"version": 1, "languages": []}"#, #"key "languages" must name at least one language"#),
            (#"{"version": 1, "languages": "eng"}"#, #"key "languages" must be an array of strings"#),
            (#"{"version": 1, "languages": ["eng", "xx"]}"#, #"key "languages": unknown language "xx" (known: eng, deu, spa, fra, msa, osd)"#),
            (#"{"version": 1, "firstPassLanguages": []}"#, #"key "firstPassLanguages" must name at least one language"#),
            (
                #"{"version": 1, "firstPassLanguages": ["yy"]}"#,
                #"key "firstPassLanguages": unknown language "yy" (known: eng, deu, spa, fra, msa, osd)"#
            ),
            (#"{"version": 1, "extraPassSegmentationModes": [1, "a"]}"#, #"key "extraPassSegmentationModes" must be an array of integers"#),
            (#"{"version": 1, "extraPassSegmentationModes": [true]}"#, #"key "extraPassSegmentationModes" must be an array of integers"#),
            (
                #"{"version": 1, "extraPassSegmentationModes": [1,2,3,4,5,6,7,8,9,10,11,12,13,1]}"#,
                #"key "extraPassSegmentationModes" holds 14 modes; at most 13 (one pass per mode)"#
            ),
            (#"{"version": 1, "extraPassSegmentationModes": [3, 0]}"#, #"key "extraPassSegmentationModes[1]" is 0, outside its range 1 to 13"#),
            (#"{"version": 1, "textHeightTarget": 5}"#, #"key "textHeightTarget" is 5, outside its range 10 to 80 (or 0: off)"#),
            (#"{"version": 1, "textHeightTarget": false}"#, #"key "textHeightTarget" must be a number"#),
            (#"{"version": 1, "jobs": 1.5}"#, #"key "jobs" must be a whole number from 0 to 64 (0: one per core), not 1.5"#),
            (#"{"version": 1, "pageSegmentationMode": 14}"#, #"key "pageSegmentationMode" is 14, outside its range 0 to 13"#),
            (#"{"version": 1, "acceptThreshold": "x"}"#, #"key "acceptThreshold" must be a number"#),
            (#"{"version": 1, "acceptThreshold": -0.5}"#, #"key "acceptThreshold" is -0.5, outside its range 0 to 1"#),
            (#"{"version": 1, "requiredFields": ["tip"]}"#, #"key "requiredFields": unknown field "tip" (known: merchant, date, total, currency)"#),
            (#"{"version": 1, "requiredFields": [1]}"#, #"key "requiredFields" must be an array of strings"#),
            (#"{"version": 1, "maxMegapixels": 0}"#, #"key "maxMegapixels" is 0, outside its range 1 to 500"#),
            (#"{"version": 1, "pageTimeoutSeconds": 0}"#, #"key "pageTimeoutSeconds" is 0, outside its range 0.001 to 3600 seconds"#),
            (#"{"version": 1, "duplicateWindowHours": 9000}"#, #"key "duplicateWindowHours" is 9000, outside its range 0 to 8760 hours"#),
            (#"{"version": 1, "categoryRules": {}}"#, #"key "categoryRules" must be an array of {"keyword": …, "category": …}"#),
            (
                #"{"version": 1, "categoryRules": [{"keyword": "a", "category": " "}]}"#,
                #"key "categoryRules": each rule is {"keyword": "…", "category": "…"}, both non-empty"#
            ),
            (
                #"{"version": 1, "categoryRules": [{"keyword": "a", "category": "b", "x": 1}]}"#,
                #"key "categoryRules": each rule is {"keyword": "…", "category": "…"}, both non-empty"#
            ),
            (#"{"version": 1, "maxFileMegabytes": 0}"#, #"key "maxFileMegabytes" is 0, outside its range 1 to 4096 MiB"#),
            (#"{"version": 1, "maxExportMegabytes": 0}"#, #"key "maxExportMegabytes" is 0, outside its range 0.001 to 1048576 MiB"#),
            (#"{"version": 1, "colour": "red"}"#, #"unknown key "colour""#),
            // Keys are read in sorted order: "dpi" before "name".
            (#"{"version": 1, "name": "", "dpi": 1}"#, #"key "dpi" is 1, outside its range 72 to 1200"#)
        ]
        for (json, expected) in cases {
            #expect(message(json) == expected, "\(json)")
        }
        #expect(error(#"{"version": 1, "colour": "red"}"#)?.description == #"p.json: unknown key "colour""#)
        let invalid = message("{not json")
        #expect(invalid?.hasPrefix("not valid JSON (") == true)
        #expect(invalid?.hasSuffix("; `python3 -m json.tool p.json` shows where") == true)
    }

    @Test func everyKeyIsRead() throws {
        let json = #"""
            {"version": 1, "name": "mine", "dpi": 200, "languages": ["deu", "eng"], "firstPassLanguages": ["deu"],
             "extraPassSegmentationModes": [11], "textHeightTarget": 24.5, "jobs": 2, "pageSegmentationMode": 4,
             "acceptThreshold": 0.75, "requiredFields": ["total"], "maxMegapixels": 80, "pageTimeoutSeconds": 30.5,
             "duplicateWindowHours": 24, "categoryRules": [{"keyword": "rewe", "category": "groceries"}],
             "maxFileMegabytes": 100, "maxExportMegabytes": 1.5, "languagePass": false, "faintPass": true, "passesOnLines": true}
            """#
        let c = try PipelineConfig.parse(Data(json.utf8), file: "p.json")
        #expect(c.version == 1 && c.name == "mine" && c.dpi == 200)
        #expect(c.languages == ["deu", "eng"] && c.firstPassLanguages == ["deu"])
        #expect(c.extraPassSegmentationModes == [11] && c.textHeightTarget == 24.5 && c.jobs == 2 && c.pageSegmentationMode == 4)
        #expect(c.acceptThreshold == 0.75 && c.requiredFields == [.total] && c.maxMegapixels == 80 && c.pageTimeoutSeconds == 30.5)
        #expect(c.duplicateWindowHours == 24 && c.categoryRules == [CategoryRule(keyword: "rewe", category: "groceries")])
        #expect(c.maxFileMegabytes == 100 && c.maxExportBytes == 1_572_864)
        #expect(!c.languagePass && c.faintPass && c.passesOnLines)
        // Each changes what a page reads: the settings text names it, so a file read under other passes is read again.
        #expect(c.settingsText.contains(" no-language-pass") && c.settingsText.contains(" faint-pass") && c.settingsText.contains(" passes-on-lines"))
        #expect(!PipelineConfig().settingsText.contains("pass"))
        // Only the version: every other setting keeps its default.
        #expect(try PipelineConfig.parse(Data(#"{"version": 1}"#.utf8), file: "p.json") == PipelineConfig())
    }
}
