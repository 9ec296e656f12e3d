import Foundation
import ShoeboxStore
import ShoeboxTestSupport
import Testing

@testable import ShoeboxCore
@testable import ShoeboxPipeline

/// The OCR cache keeps the second reader's reading of the lines the parse chose to read again. A parser that chooses
/// other lines (a rule changed) must read them, not take the reading of the old ones: CI, with no cache, once read a
/// devset receipt otherwise than a machine whose cache held the old choice.
@Suite(.tags(.ocr), .serialized) struct SecondReadingCacheTests {
    let today = CalendarDay(year: 2026, month: 11, day: 30)!
    let marker = "CACHED-FOR-OTHER-LINES"

    /// One run of the German fixture receipt with `cache`; its record and the second reader's line count.
    func run(cache: URL, in dir: URL, _ n: Int) throws -> (record: DocumentRecord, linesRead: Int) {
        let scans = dir.appendingPathComponent("scans\(n)")
        try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("receipts/deu-supermarkt.png"), to: scans.appendingPathComponent("deu-supermarkt.png"))
        let metrics = RunMetrics()
        var config = PipelineConfig()
        config.acceptPrecision = 0
        let runner = PipelineRunner(config: config, today: today, jobs: 1, ocrCache: cache.path, metrics: metrics, progress: { _ in })
        let store = try Store(directory: dir.appendingPathComponent("out\(n)").path)
        _ = try runner.run(root: scans.path, store: store, pipelineName: "test")
        let record = try #require(try store.effectiveRecords().first?.record)
        return (record, metrics.cpu.counts["lines-read-again"] ?? 0)
    }

    /// Every second-reading pass of the cache files rewritten by `change` (its name, its pages' JSON).
    func rewrite(_ cache: URL, _ change: (String, Any) -> [(String, Any)]) throws {
        for file in try FileManager.default.contentsOfDirectory(atPath: cache.path) where file.hasSuffix(".json") {
            let url = cache.appendingPathComponent(file)
            var doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            var passes = try #require(doc["passes"] as? [String: Any])
            for (name, pages) in passes where name.hasPrefix("second") {
                passes[name] = nil
                for (n, p) in change(name, pages) { passes[n] = p }
            }
            doc["passes"] = passes
            try JSONSerialization.data(withJSONObject: doc).write(to: url)
        }
    }

    /// `pages` (a cached pass's JSON) with the text of every line the second reader read replaced by the marker.
    func marked(_ pages: Any) -> Any {
        guard let pages = pages as? [[String: Any]] else { return pages }
        return pages.map { page -> [String: Any] in
            var page = page
            page["lines"] = (page["lines"] as? [[String: Any]] ?? []).map { line -> [String: Any] in
                guard line["reader"] != nil else { return line }
                var line = line
                line["words"] = (line["words"] as? [[String: Any]] ?? []).map { w -> [String: Any] in
                    var w = w
                    w["text"] = marker
                    return w
                }
                return line
            }
            return page
        }
    }

    func holdsMarker(_ r: DocumentRecord) throws -> Bool {
        String(decoding: try JSONEncoder().encode(r), as: UTF8.self).contains(marker)
    }

    @Test func aReadingOfOtherLinesIsNotTakenFromTheCache() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("cache")
        let first = try run(cache: cache, in: dir, 1)
        #expect(first.linesRead > 0, "the second reader read lines of the receipt")

        // The same lines chosen: the cached reading is taken (the marker shows it was), nothing is read again.
        try rewrite(cache) { name, pages in [(name, marked(pages))] }
        let same = try run(cache: cache, in: dir, 2)
        #expect(try holdsMarker(same.record), "the cached reading of the same lines is used")
        #expect(same.linesRead == 0)

        // Cached for other lines (under the pass's name without the lines it read, or with other lines): read again.
        try rewrite(cache) { name, pages in
            let base = name.components(separatedBy: "-lines").first ?? name
            return [(base, pages), (base + "-lines000000000000", pages)]
        }
        let other = try run(cache: cache, in: dir, 3)
        #expect(try !holdsMarker(other.record), "a reading cached for other lines is not taken")
        #expect(other.linesRead == first.linesRead, "the lines are read again")
    }
}
