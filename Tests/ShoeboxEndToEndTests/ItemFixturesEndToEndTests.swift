import Foundation
import ShoeboxTestSupport
import Testing

/// Issue 38: the generator's line-item suite (Fixtures/items/, one till receipt per language with quantity lines, a
/// weighed article, wrapped names, discounts, deposits, a voided article and two coded tax rates), read by real OCR
/// through the built binary: every item exactly as the page prints it, proven by what the expectation names. A stated
/// item the reading does not give is a named miss and a failing exit.
@Suite(.serialized) struct ItemFixturesEndToEndTests {
    let suite = fixtures.appendingPathComponent("items")

    func regress(_ folder: URL, report: URL) throws -> (code: Int32, out: String, report: [String: Any]) {
        let r = try runProgram("/usr/bin/timeout", ["-s", "KILL", "300", shoebox, "regress", folder.path, "--today", today, "--report", report.path])
        let o = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any], "\(r.out) \(r.err)")
        return (r.code, r.out + r.err, o)
    }

    @Test(.tags(.ocr)) func everyItemOfTheSuiteIsReadExactlyAndProven() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let names = try FileManager.default.contentsOfDirectory(atPath: suite.path).filter { $0.hasSuffix(".expected.json") }
        #expect(names.count == 5, "one receipt per language")
        for name in names {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: suite.appendingPathComponent(name))) as? [String: Any])
            let items = try #require(o["items"] as? [[String: Any]], "\(name)")
            let kinds = Set(items.compactMap { $0["kind"] as? String })
            #expect(kinds.isSuperset(of: ["item", "discount", "deposit", "void"]), "\(name) prints every kind: \(kinds)")
            #expect(Set(items.compactMap { $0["taxCode"] as? String }).count == 2, "\(name) prints two tax codes")
            #expect(items.contains { ($0["quantity"] as? String)?.contains(".") == true }, "\(name) weighs an article")
        }

        let (code, out, report) = try regress(suite, report: work.appendingPathComponent("report.json"))
        #expect(code == 0, "\(out)")
        let fixture = try #require((report["items"] as? [String: [String: Any]])?["fixture"], "\(report)")
        #expect(fixture["documents"] as? Int == 5)
        #expect(fixture["expected"] as? Int == 5)
        #expect(fixture["exact"] as? Int == 5, "\(report["itemMisses"] ?? "")")
        #expect(fixture["proven"] as? Int == 5)
    }

    /// The same receipts with one stated amount, one description and one check changed: each is a miss, named.
    @Test(.tags(.ocr)) func aStatedItemTheReadingDoesNotGiveIsAMiss() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let copy = work.appendingPathComponent("items")
        try FileManager.default.copyItem(at: suite, to: copy)
        func edit(_ name: String, _ change: (inout [String: Any]) -> Void) throws {
            let url = copy.appendingPathComponent(name)
            var o = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            change(&o)
            try JSONSerialization.data(withJSONObject: o).write(to: url)
        }
        try edit("deu-items-discounter.expected.json") { o in
            var items = o["items"] as! [[String: Any]]
            items[1]["amount"] = "2.95"
            o["items"] = items
        }
        try edit("spa-items-supermercado.expected.json") { o in
            var items = o["items"] as! [[String: Any]]
            items[0]["description"] = "Tomates pera"
            o["items"] = items
        }
        try edit("fra-items-hypermarche.expected.json") { o in o["itemsCheck"] = "subtotal" }

        let (code, out, report) = try regress(copy, report: work.appendingPathComponent("report.json"))
        #expect(code != 0, "\(out)")
        let misses = try #require(report["itemMisses"] as? [[String: String]], "\(report)")
        #expect(misses.count == 3, "\(misses)")
        let byDocument = Dictionary(uniqueKeysWithValues: misses.map { ($0["document"] ?? "", $0) })
        #expect(byDocument["deu-items-discounter.png"]?["expected"]?.hasPrefix("item 2 amount 2.95") == true, "\(misses)")
        #expect(byDocument["deu-items-discounter.png"]?["found"] == "2.94")
        #expect(byDocument["spa-items-supermercado.png"]?["expected"]?.hasPrefix("item 1 description") == true, "\(misses)")
        #expect(byDocument["fra-items-hypermarche.png"]?["found"] == "total", "\(misses)")
        let fixture = try #require((report["items"] as? [String: [String: Any]])?["fixture"])
        #expect(fixture["exact"] as? Int == 2)
    }
}
