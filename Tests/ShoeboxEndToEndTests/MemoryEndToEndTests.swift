import Foundation
import ShoeboxTestSupport
import Testing

/// The merchant memory through the built binary, on receipts of one shop the fixture generator renders
/// (`shoebox-fixtures --shop-series`: its name is a logo, so no line of the page names it, and no currency is printed)
/// read by real OCR: a person corrects the first receipt, `rescore` fixes the one waiting beside it, the next night's
/// receipt comes out right, and `memory list | forget`, the JSON export and import carry what was learned.
@Suite(.serialized, .tags(.ocr)) struct MemoryEndToEndTests {
    static let shop = "Kedai Buku Cahaya Ilmu SDN BHD"
    let fixturesTool = packageRoot.appendingPathComponent(".build/debug/shoebox-fixtures").path

    func records(_ out: String, work: URL) throws -> [String: [String: Any]] {
        let file = work.appendingPathComponent("store-\(UUID().uuidString).json").path
        #expect(try runProgram(shoebox, ["export", "--out", out, "--format", "json", "--file", file]).code == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        var out: [String: [String: Any]] = [:]
        for d in object["documents"] as? [[String: Any]] ?? [] {
            if let path = d["path"] as? String, let r = d["suggestion"] as? [String: Any] { out[path] = r }
        }
        return out
    }

    @Test func aCorrectedShopIsKnownOnItsNextReceipts() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let series = work.appendingPathComponent("series")
        #expect(try runProgram(fixturesTool, ["--shop-series", series.path]).code == 0, "make build renders nothing? \(fixturesTool)")
        let books = work.appendingPathComponent("scans/books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        for month in ["01", "02"] {
            try FileManager.default.copyItem(
                at: series.appendingPathComponent("kedai-logo-\(month).png"), to: books.appendingPathComponent("kedai-logo-\(month).png"))
        }
        let out = work.appendingPathComponent("out").path
        let scans = work.appendingPathComponent("scans").path
        #expect(try runProgram(shoebox, ["run", scans, "--out", out, "--today", today]).code == 0)
        let first = try records(out, work: work)
        // The page names no shop: whatever line the parser took, it is not the shop, and no key names one yet.
        for path in ["books/kedai-logo-01.png", "books/kedai-logo-02.png"] {
            let r = try #require(first[path])
            #expect(r["merchant"] as? String != Self.shop && r["status"] as? String == "review", "\(path): \(r["merchant"] ?? "none")")
            #expect(!(r["merchantKeys"] as? [String] ?? []).isEmpty, "\(path) has no keys")
        }
        #expect(try runProgram(shoebox, ["memory", "list", "--out", out]).out.contains("The memory is empty"))

        // A person corrects the first receipt's name and accepts it.
        let fix = work.appendingPathComponent("fix.jsonl")
        try Data(#"{"source": "books/kedai-logo-01.png", "action": "accept", "fields": {"merchant": "\#(Self.shop)"}}"#.utf8).write(to: fix)
        #expect(try runProgram(shoebox, ["review", "--out", out, "--apply", fix.path, "--today", today]).code == 0)
        let listed = try runProgram(shoebox, ["memory", "list", "--out", out])
        #expect(listed.out.contains("phone:62827311  “\(Self.shop)”, 1 record"), "\(listed.out)")

        // rescore: the second receipt, waiting in review, now carries the shop's name from the memory, with its evidence.
        let rescored = try runProgram(shoebox, ["rescore", "--out", out])
        #expect(rescored.code == 0 && rescored.out.contains("books/kedai-logo-02.png"), "\(rescored.out)")
        let second = try #require(try records(out, work: work)["books/kedai-logo-02.png"])
        #expect(second["merchant"] as? String == Self.shop)
        let evidence = try #require((second["evidence"] as? [String: Any])?["merchant"] as? [String: Any])
        #expect(evidence["source"] as? String == "memory")
        #expect((evidence["text"] as? String)?.contains("as 1 confirmed record") == true, "\(evidence)")
        #expect(!(second["reasons"] as? [String] ?? []).contains("currency-inferred"), "\(second["reasons"] ?? [])")

        // The next night's receipt comes out with the shop's name at once; with the memory off it does not.
        try FileManager.default.copyItem(
            at: series.appendingPathComponent("kedai-logo-03.png"), to: books.appendingPathComponent("kedai-logo-03.png"))
        #expect(try runProgram(shoebox, ["run", scans, "--out", out, "--today", today]).code == 0)
        let third = try #require(try records(out, work: work)["books/kedai-logo-03.png"])
        #expect(third["merchant"] as? String == Self.shop)
        #expect(!(third["reasons"] as? [String] ?? []).contains("currency-inferred"))
        let alone = work.appendingPathComponent("alone.json")
        try Data(#"{"version": 1, "merchantMemory": false}"#.utf8).write(to: alone)
        let other = work.appendingPathComponent("other").path
        #expect(try runProgram(shoebox, ["run", scans, "--out", other, "--today", today, "--pipeline", alone.path]).code == 0)
        #expect(try records(other, work: work)["books/kedai-logo-03.png"]?["merchant"] as? String != Self.shop)

        // The memory travels with the JSON export.
        let json = work.appendingPathComponent("store.json").path
        #expect(try runProgram(shoebox, ["export", "--out", out, "--format", "json", "--file", json]).code == 0)
        let imported = work.appendingPathComponent("imported").path
        #expect(try runProgram(shoebox, ["import", json, "--out", imported, "--today", today]).code == 0)
        #expect(try runProgram(shoebox, ["memory", "list", "--out", imported]).out == listed.out)

        // Forgotten: the key leaves the list; an unknown key or a malformed one is a usage error with its sentence.
        let forgot = try runProgram(shoebox, ["memory", "forget", "phone:62827311", "--out", out])
        #expect(forgot.code == 0 && forgot.out.contains("forgot phone:62827311"), "\(forgot)")
        #expect(!(try runProgram(shoebox, ["memory", "list", "--out", out]).out.contains("phone:62827311")))
        let again = try runProgram(shoebox, ["memory", "forget", "phone:62827311", "--out", out])
        #expect(again.code == 2 && again.err.contains("the memory holds no key phone:62827311"), "\(again)")
        let malformed = try runProgram(shoebox, ["memory", "forget", "62827311", "--out", out])
        #expect(malformed.code == 2 && malformed.err.contains("is not a key; keys read kind:value"), "\(malformed)")
        let json2 = try runProgram(shoebox, ["memory", "list", "--json", "--out", out])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json2.out.utf8)) as? [[String: Any]])
        #expect(entries.allSatisfy { ($0["shops"] as? [[String: Any]])?.first?["merchant"] as? String == Self.shop })
    }
}
