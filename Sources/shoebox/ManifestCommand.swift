import Foundation
import ShoeboxCore
import ShoeboxPipeline
import ShoeboxReading
import ShoeboxStore

/// `shoebox manifest [--out DIR] [--store URL] [--json]`: what an agent filing documents for a person may know, read
/// only: the folders the store knows, what each folder's `.shoebox.json` says (categories, currency, language), the
/// keys a sidecar may carry with their formats, and the schema's versions (docs/agents.md). Nothing is written.
enum ManifestCommand {
    /// Raised when a key of the manifest is added, renamed or changes its meaning.
    static let version = 2

    struct Manifest: Encodable {
        let manifestVersion: Int
        let shoebox: String
        let store: String
        /// Where an agent drops a document and its sidecar, in a folder of its own (`inbox/<folder>/`; docs/agents.md).
        let inbox: String
        let folders: [Folder]
        let sidecar: SidecarSchema

    }

    struct Folder: Encodable {
        /// The folder's name under the scan folder ("" for files at its top).
        let name: String
        /// The scan folder it was read from (absolute); nil for one that holds only expenses entered by hand.
        let scanFolder: Nullable<String>
        let documents: Int
        let categories: [String]
        let currency: Nullable<String>
        let language: Nullable<String>
        /// Why the folder's `.shoebox.json` says nothing (it cannot be read); nil when it was read or there is none.
        let settingsProblem: Nullable<String>

    }

    struct SidecarSchema: Encodable {
        let schemaVersion: Int
        /// Where a sidecar sits: beside its document, named after it with `.json` added.
        let naming: String
        let maxBytes: Int
        let fields: [Sidecar.Field]
    }

    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(args, verb: "manifest", valueOptions: ["--out", "--store"], flagOptions: ["--json"])
        if a.flags.contains("--help") {
            print(Help.manifest)
            return ExitCode.success
        }
        guard a.positionals.isEmpty else {
            throw UsageError(message: "shoebox manifest takes no file or folder; see 'shoebox manifest --help'.")
        }
        let out = CommandLineTool.outputDirectory(a)
        let store = try CommandLineTool.store(a, out: out)
        let manifest = try make(store: store, inbox: Inbox(outputDirectory: out).path)
        if a.flags.contains("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(manifest), as: UTF8.self))
        } else {
            print(text(manifest))
        }
        return ExitCode.success
    }

    /// The manifest of `store`: its folders from the records it holds, each folder's settings read from its scan
    /// folder now (the one reader, `FolderSettings.read`).
    static func make(store: Store, inbox: String) throws -> Manifest {
        let records = try store.records(path: nil)
        var counts: [String: Int] = [:]
        for r in records { counts[r.folder, default: 0] += 1 }
        let folders = try counts.keys.sorted().map { name throws -> Folder in
            let root = try store.root(ofFolder: name)
            let scanFolder = root.map { name.isEmpty ? $0 : PathText.joined($0, name) }
            var settings = FolderSettings()
            var problem: String?
            // Files at the top of the scan folder have no settings file of their own.
            if let scanFolder, !name.isEmpty {
                switch FolderSettings.read(folderPath: scanFolder) {
                case .success(let s): settings = s
                case .failure(let u): problem = u.reason
                }
            }
            return Folder(
                name: name, scanFolder: Nullable(scanFolder), documents: counts[name] ?? 0, categories: settings.categories,
                currency: Nullable(settings.currency?.code), language: Nullable(settings.language), settingsProblem: Nullable(problem))
        }
        return Manifest(
            manifestVersion: version, shoebox: CommandLineTool.version, store: store.path, inbox: inbox, folders: folders,
            sidecar: SidecarSchema(
                schemaVersion: Sidecar.schemaVersion, naming: "beside the document, its file name with .json added (IMG_0427.jpg.json)",
                maxBytes: 1 << 20, fields: Sidecar.fields))
    }

    static func text(_ m: Manifest) -> String {
        var lines = ["Shoebox \(m.shoebox), manifest version \(m.manifestVersion), store \(m.store)"]
        if m.folders.isEmpty { lines.append("no folders yet: the store holds no record (run `shoebox run SCANS` first)") }
        for f in m.folders {
            var said: [String] = []
            if !f.categories.isEmpty { said.append("categories \(f.categories.joined(separator: ", "))") }
            if let c = f.currency.value { said.append("currency \(c)") }
            if let l = f.language.value { said.append("language \(l)") }
            if let p = f.settingsProblem.value { said.append("its settings file cannot be used: \(p)") }
            let name = f.name.isEmpty ? "(top of the scan folder)" : f.name
            lines.append(
                "  \(name): \(f.documents) document\(f.documents == 1 ? "" : "s")\(said.isEmpty ? "" : "; " + said.joined(separator: "; "))"
                    + (f.scanFolder.value.map { "  [\($0)]" } ?? "  [entered by hand only]"))
        }
        lines.append(
            "inbox: \(m.inbox)/<folder>/ (a document, then its sidecar NAME.json naming its agent; `shoebox inbox` or `shoebox run` takes them)")
        lines.append("sidecar, schema version \(m.sidecar.schemaVersion), \(m.sidecar.naming), at most 1 MiB:")
        for f in m.sidecar.fields { lines.append("  \(f.name.padding(toLength: 16, withPad: " ", startingAt: 0))\(f.format)  (\(f.example))") }
        return lines.joined(separator: "\n")
    }
}
