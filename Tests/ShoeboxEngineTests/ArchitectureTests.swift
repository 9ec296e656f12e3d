import Foundation
import ShoeboxTestSupport
import Testing

/// Issue 53: `docs/architecture.md`'s layers are the import graph `Package.swift` declares (each Swift module imports
/// only modules of lower layers), no module grows past 5,500 lines and no product function past 100.
struct ArchitectureTests {
    /// Each target's name and the targets it depends on, as `Package.swift` lists them.
    static func targets() throws -> [String: [String]] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var out: [String: [String]] = [:]
        let pieces = text.components(separatedBy: ".target(") + []
        for piece in pieces.dropFirst().flatMap({ $0.components(separatedBy: ".executableTarget(") }) {
            let body = piece.components(separatedBy: ".testTarget(")[0]
            guard let name = body.firstMatch(of: /name: "([^"]+)"/)?.1 else { continue }
            var deps: [String] = []
            if let list = body.firstMatch(of: /dependencies: \[([^\]]*)\]/)?.1 {
                deps = list.matches(of: /"([^"]+)"/).map { String($0.1) }
            }
            out[String(name)] = deps
        }
        return out
    }

    /// The Swift files of a module's folder and its subfolders (`Steps/`), as paths below it.
    static func swiftFiles(in dir: URL) -> [String] {
        let all = (FileManager.default.enumerator(atPath: dir.path)?.allObjects as? [String]) ?? []
        return all.filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// The layers of the architecture document: module → layer number.
    static func layers() throws -> [String: Int] {
        let doc = try String(contentsOf: packageRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        var out: [String: Int] = [:]
        for line in doc.split(separator: "\n") {
            guard let m = line.firstMatch(of: /^layer (\d+)   (.*)$/), let n = Int(m.1) else { continue }
            let names = m.2.replacing(/\s\(.*\)/, with: "").split(separator: "·").map { $0.trimmingCharacters(in: .whitespaces) }
            for name in names { out[name] = n }
        }
        return out
    }

    @Test func everyModuleImportsOnlyModulesOfLowerLayers() throws {
        let targets = try Self.targets()
        let layers = try Self.layers()
        #expect(layers.count >= 13, "\(layers)")
        for (module, layer) in layers {
            let deps = try #require(targets[module], "architecture.md names \(module), which Package.swift does not have")
            for dep in deps {
                // A C module or a library of its own is in no layer.
                guard let below = layers[dep] else { continue }
                #expect(below < layer, "\(module) (layer \(layer)) depends on \(dep) (layer \(below))")
            }
        }
        // Every Swift library module of Sources is in the layers.
        let sources = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Sources").path)
        for module in sources where module.hasPrefix("Shoebox") && !["ShoeboxBench", "ShoeboxFuzz"].contains(module) {
            #expect(layers[module] != nil, "\(module) is in no layer of docs/architecture.md")
        }
    }

    @Test func noModuleOver5500LinesNoProductFunctionOver100() throws {
        let root = packageRoot.appendingPathComponent("Sources")
        for module in try FileManager.default.contentsOfDirectory(atPath: root.path) {
            let dir = root.appendingPathComponent(module)
            let files = Self.swiftFiles(in: dir)
            var total = 0
            for file in files {
                let lines = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8).split(
                    separator: "\n", omittingEmptySubsequences: false)
                total += lines.count
                // A function from its `func` line to the closing brace at its own indentation.
                for (i, line) in lines.enumerated()
                where line.contains("func ") && line.hasSuffix("{") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    let indent = line.prefix { $0 == " " }
                    guard let end = lines[(i + 1)...].firstIndex(where: { $0 == indent + "}" }) else { continue }
                    #expect(end - i + 1 <= 100, "\(module)/\(file):\(i + 1) is a function of \(end - i + 1) lines")
                }
            }
            #expect(total <= 5500, "\(module) has \(total) lines")
        }
    }

    /// Accept or review is decided in one place (`Verdict`): no other product code sets a record's status to
    /// accepted or review, or says the pipeline reviewed it. A person's decisions (`Review.apply`) and the store's
    /// marking of a copy of other bytes are no verdict's.
    @Test func acceptOrReviewIsDecidedInOnePlace() throws {
        let root = packageRoot.appendingPathComponent("Sources")
        var setters: [String] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: root.path) where module != "FixtureGenerator" {
            let dir = root.appendingPathComponent(module)
            for file in Self.swiftFiles(in: dir) {
                let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                for (n, line) in lines.enumerated()
                where line.contains(/\.status = .*\.(accepted|review)\b/) || line.contains("reviewedBy = \"pipeline\"") {
                    // A person's accept: its next lines say the person decided.
                    if lines[(n + 1)..<min(lines.count, n + 3)].contains(where: { $0.contains("reviewedBy = \"person\"") }) { continue }
                    setters.append("\(module)/\(file):\(n + 1)")
                }
            }
        }
        #expect(setters.count == 1, "\(setters)")
        #expect(setters.allSatisfy { $0.hasPrefix("ShoeboxJudgement/Verdict.swift:") }, "\(setters)")
    }

    /// A folder's settings file has one reader (`FolderSettings.read`): no other product code makes the file's path or
    /// parses settings from bytes, but `regress --folders`, whose file holds many folders' settings (shoebox/Commands).
    @Test func theFolderSettingsFileHasOneReader() throws {
        let root = packageRoot.appendingPathComponent("Sources")
        var paths: Set<String> = []
        var parsers: Set<String> = []
        for module in try FileManager.default.contentsOfDirectory(atPath: root.path) where module != "FixtureGenerator" {
            let dir = root.appendingPathComponent(module)
            for file in Self.swiftFiles(in: dir) {
                let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    if line.contains(/PathText\.joined\(.*(FolderSettings\.fileName|\.shoebox\.json)/) { paths.insert("\(module)/\(file)") }
                    if line.contains("FolderSettings.parse(") || line.contains("try parse(") { parsers.insert("\(module)/\(file)") }
                }
            }
        }
        // The reader itself, in `extension FolderSettings`, names it `fileName`.
        #expect(paths.isEmpty, "\(paths)")
        #expect(parsers == ["ShoeboxCore/FolderSettings+Read.swift", "shoebox/Commands.swift"], "\(parsers)")
    }
}
