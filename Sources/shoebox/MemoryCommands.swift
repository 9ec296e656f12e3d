import Foundation
import ShoeboxCore
import ShoeboxJudgement
import ShoeboxPipeline
import ShoeboxStore

/// `shoebox memory list | forget KEY`: what the store learned from the records people confirmed (`MerchantMemory`).
enum MemoryCommand {
    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(args, verb: "memory", valueOptions: ["--out", "--store"], flagOptions: ["--json", "--wait"])
        if a.flags.contains("--help") || a.positionals.isEmpty {
            print(Help.memory)
            return a.flags.contains("--help") ? ExitCode.success : ExitCode.usage
        }
        let out = CommandLineTool.outputDirectory(a)
        let store = try CommandLineTool.store(a, out: out)
        switch (a.positionals[0], a.positionals.count) {
        case ("list", 1):
            let entries = try store.memory().entries()
            if a.flags.contains("--json") {
                print(json(entries))
            } else {
                list(entries)
            }
            return ExitCode.success
        case ("forget", 2):
            guard let key = MerchantKey(a.positionals[1]) else {
                throw UsageError(
                    message:
                        "shoebox memory forget: '\(a.positionals[1])' is not a key; keys read kind:value, as `shoebox memory list` shows them (kinds: \(MerchantKey.Kind.allCases.map(\.rawValue).joined(separator: ", ")))."
                )
            }
            let lock = try CommandLineTool.lock(out, a, verb: "memory")
            defer { withExtendedLifetime(lock) {} }
            let n = try store.forget(key)
            guard n > 0 else {
                throw UsageError(message: "shoebox memory forget: the memory holds no key \(key). `shoebox memory list` shows the keys it holds.")
            }
            print(
                "forgot \(key) (\(n) confirmed record\(n == 1 ? "" : "s") named a shop with it). A record confirmed later with it teaches it again.")
            return ExitCode.success
        default:
            throw UsageError(message: "shoebox memory: use `memory list [--json]` or `memory forget KEY`. See 'shoebox memory --help'.")
        }
    }

    /// One line per key: the shop it names (the latest confirmed name) and how many records confirmed it; a key with
    /// several names shows them all, and a key of several shops says it names none alone.
    static func list(_ entries: [MerchantMemory.Entry]) {
        guard !entries.isEmpty else {
            print("The memory is empty: it learns from every record a person accepts or corrects in review.")
            return
        }
        print("\(entries.count) key\(entries.count == 1 ? "" : "s"):")
        for e in entries {
            let shops = e.shops.map { shop -> String in
                let n = Set(shop.sightings.map(\.source)).count
                let others = shop.names.dropFirst()
                let conflict = others.isEmpty ? "" : " (also confirmed as \(others.map { "“\($0)”" }.joined(separator: ", ")): the latest is kept)"
                return "“\(shop.name)”, \(n) record\(n == 1 ? "" : "s")\(conflict)"
            }
            let shared = e.isShared ? "  [shared by \(e.shops.count) shops: names none alone]" : ""
            print("  \(e.key)  \(shops.joined(separator: "; "))\(shared)")
        }
    }

    static func json(_ entries: [MerchantMemory.Entry]) -> String {
        let list: [[String: Any]] = entries.map { e in
            [
                "key": e.key.description, "shared": e.isShared,
                "shops": e.shops.map { shop -> [String: Any] in
                    [
                        "merchant": shop.name, "names": shop.names, "records": Set(shop.sightings.map(\.source)).sorted(),
                        "lastConfirmed": shop.sightings.map(\.at).max() ?? ""
                    ]
                }
            ]
        }
        let data = (try? JSONSerialization.data(withJSONObject: list, options: [.prettyPrinted, .sortedKeys])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// `shoebox rescore`: the records in review judged again with what the memory holds now, without reading a page.
enum RescoreCommand {
    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(args, verb: "rescore", valueOptions: ["--out", "--store", "--pipeline"], flagOptions: ["--wait"])
        if a.flags.contains("--help") {
            print(Help.rescore)
            return ExitCode.success
        }
        guard a.positionals.isEmpty else { throw UsageError(message: "shoebox rescore: takes no arguments. See 'shoebox rescore --help'.") }
        let out = CommandLineTool.outputDirectory(a)
        let store = try CommandLineTool.store(a, out: out)
        let (config, _) = try CommandLineTool.pipeline(a)
        let lock = try CommandLineTool.lock(out, a, verb: "rescore")
        defer { withExtendedLifetime(lock) {} }
        let merger = MergeStage(config: config).merger
        let done = try Rejudging.withMemory(in: store, merger: merger)
        print(
            "rescore: \(done.looked) record\(done.looked == 1 ? "" : "s") in review judged again with the memory; \(done.changed.count) changed, \(done.accepted.count) of them accepted now."
        )
        for path in done.changed { print("  \(done.accepted.contains(path) ? "accepted" : "changed ") \(StoredPath.shown(path))") }
        return ExitCode.success
    }
}
