import Foundation
import ShoeboxTestSupport
import Testing

/// Issue 51: the fixture generator covers each class in each language where it occurs. The table of classes in
/// Fixtures/README.md (generated from `fixtureClasses`) names fixtures; each must be in Fixtures/receipts, with its
/// expected fields beside it, so `make regress` scores the class.
struct FixtureClassTableTests {
    @Test func everyFixtureTheClassTableNamesIsThere() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("Fixtures/README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "### The classes of issue 51, by language"))
        let rows = readme[section.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("| class") }.dropFirst(2).prefix { $0.hasPrefix("| ") }
        #expect(rows.count >= 10)
        let files = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Fixtures/receipts").path)
        var named = 0
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells.count == 6, "\(row)")
            for cell in cells.dropFirst() where cell.hasPrefix("`") {
                let id = cell.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                named += 1
                #expect(files.contains("\(id).expected.json") && files.contains { $0.hasPrefix(id + ".") && !$0.hasSuffix(".json") }, "\(id)")
            }
        }
        #expect(named >= 30)
    }
}
