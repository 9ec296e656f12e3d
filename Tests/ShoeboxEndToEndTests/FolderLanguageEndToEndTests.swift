import Foundation
import ShoeboxCore
import ShoeboxTestSupport
import Testing

/// Issue 35, deliver 3, through the built binary on a German receipt read by real OCR: a folder that says its documents
/// are in German (`.shoebox.json` `"language": "deu"`) has them read once, in German first, where a folder that says
/// nothing has them read in English, their language detected, and read again in German. Both read the receipt alike.
/// A language the pipeline does not read is refused by name, and the record is judged without it, not lost.
struct FolderLanguageEndToEndTests {
    /// The pages each pass purpose read, from the run's last `finished` event (`--log-json`).
    static func passPages(_ log: URL) throws -> [String: Int] {
        let events = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let finished = try #require(events.last { $0["event"] as? String == "finished" })
        let counts = finished["counts"] as? [String: Int] ?? [:]
        return counts.filter { $0.key.hasPrefix("pass-pages-") }
    }

    /// A scan folder `name` under `work` with one German receipt in its folder `trip`, that folder's settings and the
    /// receipt's sidecar as given.
    static func scans(_ name: String, in work: URL, settings: String?, sidecar: String? = nil) throws -> URL {
        let folder = work.appendingPathComponent("\(name)/trip")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try imageMagick(
            [
                "-size", "1000x1100", "xc:white", "-font", "DejaVu-Sans-Mono", "-pointsize", "34", "-fill", "black", "-annotate",
                "+60+90",
                "BÄCKEREI MÜLLER GMBH\nHauptstraße 5, 10115 Berlin\nDatum: 14.03.2026  Bon 4711\n\nBrötchen          2,49\n"
                    + "Milch             1,19\nSUMME EUR         3,68\nBAR               5,00\nRÜCKGELD          1,32\n\nVielen Dank"
            ], output: folder.appendingPathComponent("bon.png"))
        if let settings { try Data(settings.utf8).write(to: folder.appendingPathComponent(".shoebox.json")) }
        if let sidecar { try Data(sidecar.utf8).write(to: folder.appendingPathComponent("bon.png.json")) }
        return work.appendingPathComponent(name)
    }

    /// `shoebox run` over `root`: what it said, the one record, and the pages each pass purpose read.
    static func run(_ root: URL) throws -> (said: String, record: DocumentRecord, passes: [String: Int]) {
        let out = root.path + "-out"
        let log = URL(fileURLWithPath: root.path + ".jsonl")
        let r = try runProgram(shoebox, ["run", root.path, "--out", out, "--today", today, "--jobs", "1", "--log-json", log.path])
        #expect(r.code == 0 || r.code == 1, "\(r.out) \(r.err)")
        let line = try String(contentsOfFile: out + "/records.jsonl", encoding: .utf8).split(separator: "\n")
        let record = try JSONDecoder().decode(DocumentRecord.self, from: Data(try #require(line.first).utf8))
        return (r.out + r.err, record, try passPages(log))
    }

    @Test(.tags(.ocr)) func aFolderInGermanIsReadOnceInGerman() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        func scans(_ name: String, settings: String?) throws -> URL { try Self.scans(name, in: work, settings: settings) }
        func run(_ root: URL) throws -> (said: String, record: DocumentRecord, passes: [String: Int]) { try Self.run(root) }

        let plain = try run(try scans("plain", settings: nil))
        #expect(plain.record.language == "deu")
        #expect(plain.passes["pass-pages-language"] == 1, "\(plain.passes)")

        let german = try run(try scans("german", settings: #"{"language": "deu"}"#))
        #expect(german.record.language == "deu")
        #expect(german.passes["pass-pages-first"] == 1 && german.passes["pass-pages-language"] == nil, "\(german.passes)")
        for field in [Field.merchant, .date, .total, .currency] {
            #expect(german.record.comparedValue(field.rawValue) == plain.record.comparedValue(field.rawValue), "\(field)")
        }
        #expect(german.record.total == Money(decimal: "3.68", currency: CurrencyCode("EUR")!))

        // A language Shoebox does not read: named on the run, the document read as if the folder said nothing.
        let unknown = try run(try scans("unknown", settings: #"{"language": "German"}"#))
        #expect(unknown.said.contains("trip/.shoebox.json") && unknown.said.contains("key \"language\" must be one of"), "\(unknown.said)")
        #expect(unknown.record.total == german.record.total)
        #expect(unknown.passes["pass-pages-language"] == 1, "\(unknown.passes)")

        // A language Shoebox reads but this pipeline does not: named, read as if the folder said nothing.
        let pipeline = work.appendingPathComponent("english.json")
        try Data(#"{"version": 1, "languages": ["eng"]}"#.utf8).write(to: pipeline)
        let root = try scans("unread", settings: #"{"language": "deu"}"#)
        let r = try runProgram(shoebox, ["run", root.path, "--out", root.path + "-out", "--today", today, "--pipeline", pipeline.path])
        #expect(r.code == 0 || r.code == 1, "\(r.out) \(r.err)")
        #expect(
            (r.out + r.err).contains("trip/.shoebox.json says its documents are in \"deu\", which the pipeline does not read"), "\(r.out) \(r.err)")
    }

    /// A sidecar's `language` is the scan's own: it is read once in it, over what its folder says, and a language
    /// Shoebox does not know is named among the sidecar's problems (`sidecar-invalid`), the scan read as if it said none.
    @Test(.tags(.ocr)) func aSidecarInGermanIsReadOnceInGermanOverItsFolder() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let own = try Self.run(try Self.scans("own", in: work, settings: nil, sidecar: #"{"language": "deu"}"#))
        #expect(own.passes["pass-pages-first"] == 1 && own.passes["pass-pages-language"] == nil, "\(own.passes)")
        #expect(own.record.language == "deu" && own.record.total == Money(decimal: "3.68", currency: CurrencyCode("EUR")!))
        #expect(!own.record.reasons.contains(.sidecarInvalid), "\(own.record.reasons)")

        let over = try Self.run(try Self.scans("over", in: work, settings: #"{"language": "spa"}"#, sidecar: #"{"language": "deu"}"#))
        #expect(over.passes["pass-pages-first"] == 1 && over.passes["pass-pages-language"] == nil, "\(over.passes)")
        #expect(over.record.total == own.record.total)

        let unknown = try Self.run(try Self.scans("unknown", in: work, settings: nil, sidecar: #"{"language": "German"}"#))
        #expect(unknown.record.reasons.contains(.sidecarInvalid), "\(unknown.record.reasons)")
        #expect(unknown.passes["pass-pages-language"] == 1, "\(unknown.passes)")
        #expect(unknown.record.total == own.record.total)
    }

    /// A document of several pages that says nothing of its language: its first page is read in English, the pages
    /// after it in the language the first page is in, and the language pass reads the first page alone, where it
    /// read every page again before. The two-page German invoice of the fixtures reads as its expected values say.
    @Test(.tags(.ocr)) func theLaterPagesAreReadInTheFirstPagesLanguage() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = work.appendingPathComponent("scans/invoices")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("receipts/deu-rechnung-2seiten.pdf"), to: folder.appendingPathComponent("rechnung.pdf"))
        let read = try Self.run(work.appendingPathComponent("scans"))
        #expect(read.passes["pass-pages-first"] == 2 && read.passes["pass-pages-language"] == 1, "\(read.passes)")
        #expect(read.record.language == "deu" && read.record.pages == 2)
        #expect(read.record.total == Money(decimal: "304.00", currency: CurrencyCode("EUR")!))
        #expect(read.record.referenceNumber == "R-2026-00318")
        #expect(read.record.merchant == "Baumarkt Krämer GmbH")

        // Without a language pass every page is read once, in the first pass's languages.
        let pipeline = work.appendingPathComponent("once.json")
        try Data(#"{"version": 1, "languagePass": false}"#.utf8).write(to: pipeline)
        let log = work.appendingPathComponent("once.jsonl")
        let r = try runProgram(
            shoebox,
            [
                "run", work.appendingPathComponent("scans").path, "--out", work.path + "/once", "--today", today, "--jobs", "1",
                "--pipeline", pipeline.path, "--log-json", log.path
            ])
        #expect(r.code == 0 || r.code == 1, "\(r.out) \(r.err)")
        let once = try Self.passPages(log)
        #expect(once["pass-pages-first"] == 2 && once["pass-pages-language"] == nil, "\(once)")
    }
}
