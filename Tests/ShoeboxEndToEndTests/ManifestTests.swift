import Foundation
import ShoeboxCore
import ShoeboxReading
import ShoeboxTestSupport
import Testing

/// Issue 55, deliver 1: `shoebox manifest` tells an agent the folders the store knows with what their `.shoebox.json`
/// says, and the keys a sidecar may carry, read only; every format it states is one the sidecar's own parser reads.
struct ManifestTests {
    @Test func theManifestNamesTheFoldersTheirSettingsAndTheSidecarsKeysAndChangesNothing() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        let invoice = packageRoot.appendingPathComponent("Fixtures/sample-scans/invoices/xrechnung_2026-0117.xml")
        // An XML e-invoice in each folder: read without OCR.
        for (folder, settings) in [
            ("trip", #"{"categories": ["meals", "travel"], "currency": "EUR", "language": "deu"}"#), ("broken", "{not json"), ("plain", nil)
        ] {
            let dir = scans.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: invoice, to: dir.appendingPathComponent("invoice.xml"))
            if let settings { try Data(settings.utf8).write(to: dir.appendingPathComponent(".shoebox.json")) }
        }
        let out = work.appendingPathComponent("out").path
        #expect(try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today]).code <= 1)
        let storeFile = URL(fileURLWithPath: out).appendingPathComponent("store.sqlite")
        let before = try Data(contentsOf: storeFile)
        let outBefore = try FileManager.default.contentsOfDirectory(atPath: out).sorted()

        let json = try runProgram(shoebox, ["manifest", "--out", out, "--json"])
        #expect(json.code == 0, "\(json.err)")
        let m = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(m["manifestVersion"] as? Int == 2)
        #expect(m["inbox"] as? String == URL(fileURLWithPath: out).appendingPathComponent("inbox").standardizedFileURL.path, "\(m["inbox"] ?? "")")
        let folders = try #require(m["folders"] as? [[String: Any]])
        #expect(folders.map { $0["name"] as? String } == ["broken", "plain", "trip"])
        let trip = folders[2]
        #expect(
            trip["categories"] as? [String] == ["meals", "travel"] && trip["currency"] as? String == "EUR" && trip["language"] as? String == "deu")
        #expect(trip["documents"] as? Int == 1 && trip["scanFolder"] as? String == scans.appendingPathComponent("trip").path)
        #expect((folders[0]["settingsProblem"] as? String)?.contains(".shoebox.json") == true, "\(folders[0])")
        #expect(folders[1]["settingsProblem"] is NSNull && folders[1]["currency"] is NSNull)

        // The sidecar's keys are those its parser reads, and a sidecar of every example parses without a problem.
        let sidecar = try #require(m["sidecar"] as? [String: Any])
        let fields = try #require(sidecar["fields"] as? [[String: String]])
        #expect(fields.compactMap { $0["name"] } == Sidecar.fields.map(\.name))
        var example: [String: Any] = [:]
        for f in fields { example[f["name"]!] = f["type"] == "boolean" ? (f["example"] == "true") as Any : f["example"]! as Any }
        let parsed = Sidecar.parse(Array(try JSONSerialization.data(withJSONObject: example)), today: CalendarDay(iso: today)!)
        #expect(parsed.problems.isEmpty, "\(parsed.problems)")
        #expect(parsed.merchant != nil && parsed.date != nil && parsed.total != nil && parsed.documentKind != nil && parsed.language != nil)

        // In words, the same folders; nothing in the output folder changed.
        let text = try runProgram(shoebox, ["manifest", "--out", out])
        #expect(text.code == 0 && text.out.contains("trip: 1 document; categories meals, travel; currency EUR; language deu"), "\(text.out)")
        #expect(text.out.contains("broken: 1 document; its settings file cannot be used"), "\(text.out)")
        #expect(try Data(contentsOf: storeFile) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == outBefore)

        // No store: its sentence and code, and nothing made.
        let none = work.appendingPathComponent("none").path
        let missing = try runProgram(shoebox, ["manifest", "--out", none])
        #expect(missing.code == 4 && missing.err.contains("there is no store in"), "\(missing.err)")
        #expect(!FileManager.default.fileExists(atPath: none))
        let stray = try runProgram(shoebox, ["manifest", "extra", "--out", out])
        #expect(stray.code == 2 && stray.err.contains("takes no file or folder"), "\(stray.err)")
    }

    /// docs/agents.md lists the sidecar's fields as the manifest does, in its order.
    @Test func theAgentsDocumentListsTheSidecarsFields() throws {
        let doc = try String(contentsOf: packageRoot.appendingPathComponent("docs/agents.md"), encoding: .utf8)
        let lines = doc.split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex { $0.hasPrefix("| name | format |") })
        let names = lines[(header + 2)...].prefix { $0.hasPrefix("| ") }.map { row in
            String(row.dropFirst(2).prefix { $0 != "|" }).trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        }
        #expect(names == Sidecar.fields.map(\.name))
    }
}
