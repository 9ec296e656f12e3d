import Foundation
import ShoeboxTestSupport
import Testing

/// Possible duplicates when a store is judged again (issue 33, class 8): the records are read again from the OCR
/// cache under new settings, and each pair stays one way round, the one a fresh run gives: never two records naming
/// each other, so that the original of each pair is still exported.
@Suite(.serialized, .tags(.ocr)) struct JudgedAgainDuplicatesEndToEndTests {
    /// Each record's status and the record it names as its original.
    struct Judged: Equatable, CustomStringConvertible {
        let status: String
        let duplicateOf: String?
        var description: String { status + (duplicateOf.map { " of \($0)" } ?? "") }
    }

    func judged(_ out: URL) throws -> [String: Judged] {
        var bySource: [String: Judged] = [:]
        for line in try String(contentsOf: out.appendingPathComponent("records.jsonl"), encoding: .utf8).split(separator: "\n") {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let source = try #require(o["source"] as? String)
            bySource[source] = Judged(status: o["status"] as? String ?? "?", duplicateOf: o["duplicateOf"] as? String)
        }
        return bySource
    }

    /// The possible duplicates: each record in review as possible-duplicate, by the record it names.
    func flagged(_ out: URL) throws -> [String: String] {
        var pairs: [String: String] = [:]
        for line in try String(contentsOf: out.appendingPathComponent("records.jsonl"), encoding: .utf8).split(separator: "\n") {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard (o["reasons"] as? [String] ?? []).contains("possible-duplicate") else { continue }
            pairs[try #require(o["source"] as? String)] = try #require(o["duplicateOf"] as? String, "a possible duplicate names its original")
        }
        return pairs
    }

    /// Pairs of records that name each other.
    func mutual(_ flagged: [String: String]) -> [String] {
        flagged.filter { flagged[$0.value] == $0.key }.keys.sorted()
    }

    func run(_ scans: URL, _ out: URL, pipeline: String) throws {
        let r = try runProgram(shoebox, ["run", scans.path, "--out", out.path, "--today", today, "--pipeline", pipeline])
        #expect(r.code == 0, "\(r.out) \(r.err)")
    }

    /// A fresh run into `out` with the OCR cache of `from`: a new store, judged from nothing, on the same readings.
    func freshRun(_ scans: URL, _ out: URL, cacheOf from: URL, pipeline: String) throws {
        try FileManager.default.createDirectory(at: out.appendingPathComponent("cache"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: from.appendingPathComponent("cache/ocr"), to: out.appendingPathComponent("cache/ocr"))
        try run(scans, out, pipeline: pipeline)
    }

    func convert(_ args: [String]) throws {
        let convert = try #require(which("convert"), "ImageMagick is missing: make setup")
        let made = try runProgram(convert, args)
        #expect(made.code == 0, "\(made.err)")
    }

    /// Two pipeline files that read alike and judge alike but have other settings digests (the rules alone accept, so
    /// that the originals are accepted and the test is about duplicates; the page timeout is not reached).
    func pipelines(in work: URL) throws -> (first: String, second: String) {
        let first = work.appendingPathComponent("first.json")
        let second = work.appendingPathComponent("second.json")
        try Data(#"{"version": 1, "acceptPrecision": 0}"#.utf8).write(to: first)
        try Data(#"{"version": 1, "acceptPrecision": 0, "pageTimeoutSeconds": 119}"#.utf8).write(to: second)
        return (first.path, second.path)
    }

    @Test func judgingAgainFlagsWhatAFreshRunFlags() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        for folder in ["a", "b", "c"] {
            try FileManager.default.createDirectory(at: scans.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let receipts = fixtures.appendingPathComponent("receipts")
        let office = fixtures.appendingPathComponent("sample-scans/office-supplies/IMG_2201.jpg")
        // Three pairs, each caught by another rule: the same page re-encoded (the same image), the same paper scanned
        // again (scaled, turned, re-encoded: a similar image), and a slip of the same purchase (its items and payment
        // painted out: the same printed numbers); and one receipt with no twin.
        try FileManager.default.copyItem(at: receipts.appendingPathComponent("eng-gb-grocer.png"), to: scans.appendingPathComponent("a/grocer.png"))
        try convert([receipts.appendingPathComponent("eng-gb-grocer.png").path, "-quality", "80", scans.appendingPathComponent("b/grocer.jpg").path])
        try FileManager.default.copyItem(at: office, to: scans.appendingPathComponent("a/IMG_2201.jpg"))
        try convert([
            office.path, "-resize", "90%", "-background", "white", "-rotate", "2", "-quality", "80", scans.appendingPathComponent("b/rescan.jpg").path
        ])
        let hardware = receipts.appendingPathComponent("eng-us-hardware.png")
        try FileManager.default.copyItem(at: hardware, to: scans.appendingPathComponent("c/hardware.png"))
        try convert([
            hardware.path, "-fill", "white", "-draw", "rectangle 0,400 945,760", "-draw", "rectangle 0,1020 945,1170",
            scans.appendingPathComponent("c/slip-hardware.png").path
        ])
        try FileManager.default.copyItem(
            at: receipts.appendingPathComponent("spa-cafeteria.jpg"), to: scans.appendingPathComponent("c/cafeteria.jpg"))
        let (first, second) = try pipelines(in: work)

        // A fresh run: each twin names the one before it.
        let out = work.appendingPathComponent("out")
        try run(scans, out, pipeline: first)
        let pairs = ["b/grocer.jpg": "a/grocer.png", "b/rescan.jpg": "a/IMG_2201.jpg", "c/slip-hardware.png": "c/hardware.png"]
        #expect(try flagged(out) == pairs)

        /// Runs `out` again with `pipeline`, and a fresh run of the same scans into `name`: both flag `expected`, no two
        /// records name each other, and every record ends as the fresh run's does.
        func judgedAgainAsFresh(_ name: String, pipeline: String, expected: [String: String]) throws {
            try run(scans, out, pipeline: pipeline)
            let fresh = work.appendingPathComponent(name)
            try freshRun(scans, fresh, cacheOf: out, pipeline: pipeline)
            #expect(try flagged(fresh) == expected)
            let again = try flagged(out)
            #expect(mutual(again).isEmpty, "records naming each other: \(mutual(again))")
            #expect(again == expected)
            #expect(try judged(out) == judged(fresh))
        }

        // Other settings: every record is judged again, from the OCR cache, and ends as a fresh run ends.
        try judgedAgainAsFresh("fresh", pipeline: second, expected: pairs)
        for original in Set(pairs.values) { #expect(try judged(out)[original]?.status == "accepted", "\(original) is exported") }

        // The original's file changes: the grocer's page saved again (other bytes, the same page) and the hardware
        // receipt replaced by another. Each is judged as new, against the records that stand, but never against the
        // record that names it; its possible duplicate is judged again after it. The store ends as a fresh run ends.
        try FileManager.default.removeItem(at: scans.appendingPathComponent("a/grocer.png"))
        try convert([receipts.appendingPathComponent("eng-gb-grocer.png").path, "-quality", "95", scans.appendingPathComponent("a/grocer.png").path])
        try FileManager.default.removeItem(at: scans.appendingPathComponent("c/hardware.png"))
        try FileManager.default.copyItem(
            at: receipts.appendingPathComponent("fra-boulangerie.png"), to: scans.appendingPathComponent("c/hardware.png"))
        let now = ["b/grocer.jpg": "a/grocer.png", "b/rescan.jpg": "a/IMG_2201.jpg"]
        try judgedAgainAsFresh("changed", pipeline: second, expected: now)

        // Both at once (other settings, and the original's file changed again): the same.
        try FileManager.default.removeItem(at: scans.appendingPathComponent("a/grocer.png"))
        try convert([receipts.appendingPathComponent("eng-gb-grocer.png").path, "-quality", "90", scans.appendingPathComponent("a/grocer.png").path])
        try judgedAgainAsFresh("both", pipeline: first, expected: now)
    }

    /// A pair the new settings make (a wider date window: the same shop and total three days apart) is the pair a fresh
    /// run makes: the document that sorts first is judged first, without the other's stale record.
    @Test func aPairTheNewSettingsMakeIsTheOneAFreshRunMakes() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans/c")
        try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
        let hardware = fixtures.appendingPathComponent("receipts/eng-us-hardware.png")
        try FileManager.default.copyItem(at: hardware, to: scans.appendingPathComponent("hardware.png"))
        // The same shop and total three days later, with another time and transaction number.
        try convert([
            hardware.path, "-fill", "white", "-draw", "rectangle 0,335 945,460", "-fill", "black", "-font", "Liberation-Mono", "-pointsize", "44",
            "-annotate", "+36+385", "10/24/2025  5:02 PM", "-annotate", "+36+448", "Trans # 30952",
            scans.appendingPathComponent("hardware-later.png").path
        ])
        let narrow = work.appendingPathComponent("narrow.json")
        let wide = work.appendingPathComponent("wide.json")
        try Data(#"{"version": 1, "acceptPrecision": 0}"#.utf8).write(to: narrow)
        try Data(#"{"version": 1, "acceptPrecision": 0, "duplicateWindowHours": 96}"#.utf8).write(to: wide)
        let out = work.appendingPathComponent("out")
        try run(scans.deletingLastPathComponent(), out, pipeline: narrow.path)
        #expect(try flagged(out).isEmpty, "two days apart at most under the default window")
        try run(scans.deletingLastPathComponent(), out, pipeline: wide.path)
        let fresh = work.appendingPathComponent("fresh")
        try freshRun(scans.deletingLastPathComponent(), fresh, cacheOf: out, pipeline: wide.path)
        #expect(try flagged(fresh) == ["c/hardware.png": "c/hardware-later.png"])
        let again = try flagged(out)
        #expect(mutual(again).isEmpty, "records naming each other: \(mutual(again))")
        #expect(again == ["c/hardware.png": "c/hardware-later.png"])
    }

    /// A twin whose path sorts first but that came later names the record stored before it; judged again, it still
    /// does (as a same-bytes copy does: IntakeHardeningTests), and the original is not made the duplicate.
    @Test func theRecordThatCameFirstStaysTheOriginalWhenJudgedAgain() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        try FileManager.default.createDirectory(at: scans.appendingPathComponent("a"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: scans.appendingPathComponent("b"), withIntermediateDirectories: true)
        let grocer = fixtures.appendingPathComponent("receipts/eng-gb-grocer.png")
        try FileManager.default.copyItem(at: grocer, to: scans.appendingPathComponent("b/grocer.png"))
        let (first, second) = try pipelines(in: work)
        let out = work.appendingPathComponent("out")
        try run(scans, out, pipeline: first)
        try convert([grocer.path, "-quality", "80", scans.appendingPathComponent("a/grocer.jpg").path])
        try run(scans, out, pipeline: first)
        #expect(try flagged(out) == ["a/grocer.jpg": "b/grocer.png"])
        try run(scans, out, pipeline: second)
        #expect(try flagged(out) == ["a/grocer.jpg": "b/grocer.png"])
        #expect(try judged(out)["b/grocer.png"] == Judged(status: "accepted", duplicateOf: nil))
    }
}
