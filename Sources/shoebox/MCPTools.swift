import Foundation
import ShoeboxCore
import ShoeboxJudgement
import ShoeboxPipeline
import ShoeboxReading
import ShoeboxStore

/// One tool of `shoebox mcp`: its name, what it does, the JSON Schema of its arguments and what it runs.
struct MCPTool {
    let name: String
    let summary: String
    let properties: [String: [String: Any]]
    let required: [String]
    let run: (MCPServer, [String: Any]) throws -> [String: Any]

    var keys: Set<String> { Set(properties.keys) }

    /// How `tools/list` gives it.
    var listing: [String: Any] {
        [
            "name": name, "description": summary,
            "inputSchema": ["type": "object", "properties": properties, "required": required, "additionalProperties": false]
        ]
    }
}

extension MCPServer {
    typealias RPC = MCPServer.RPCError

    /// The longest text an argument may be (a sidecar's note is 1,000 characters; a path 4,096 bytes).
    static let maxArgumentBytes = 8_192

    static let fieldKeys = Sidecar.fields.map(\.name).filter { !["agent", "confirmedByPerson", "folder"].contains($0) }

    static var tools: [MCPTool] {
        [
            MCPTool(
                name: "read_manifest",
                summary: "What Shoebox knows that an agent may use: the folders (with their categories, currency and language), the inbox's path, "
                    + "and the fields a document's sidecar may carry, each with its format and an example.",
                properties: [:], required: []
            ) { server, _ in try server.manifest() },
            MCPTool(
                name: "file_document",
                summary: "File one document for the person: Shoebox copies the file into its inbox with the fields you give (confirm them with "
                    + "the person first). It reads the page itself at its next run and checks your fields against it; where they disagree the "
                    + "person decides. Returns the drop's name for document_status.",
                properties: [
                    "path": [
                        "type": "string", "description": "the document's file, inside the folder Shoebox was allowed (absolute or relative to it)"
                    ],
                    "folder": ["type": "string", "description": "the folder to file it under (one of the manifest's folders, or a new name)"],
                    "agent": ["type": "string", "description": "your name, shown on the record as the agent that entered it"],
                    "confirmedByPerson": ["type": "boolean", "description": "true when the person confirmed these fields with you"],
                    "fields": [
                        "type": "object", "description": "the document's fields, each a string in the manifest's format",
                        "properties": Dictionary(uniqueKeysWithValues: fieldKeys.map { ($0, ["type": "string"] as [String: Any]) }),
                        "additionalProperties": false
                    ]
                ],
                required: ["path", "folder", "agent"]
            ) { server, args in try server.file(args) },
            MCPTool(
                name: "document_status",
                summary: "What came of a document you filed: waiting (in the inbox), taken (being read), or the record's status (accepted, review, "
                    + "duplicate, failed) with its reasons, or refused with the code and what to do.",
                properties: ["dropped": ["type": "string", "description": "the name file_document returned (<folder>/<file>)"]],
                required: ["dropped"]
            ) { server, args in try server.status(args) },
            MCPTool(
                name: "list_review",
                summary: "The records that wait for the person in review, each with why, newest folder first; read only.",
                properties: [
                    "folder": ["type": "string", "description": "only this folder"],
                    "limit": ["type": "integer", "minimum": 1, "maximum": 500, "description": "at most this many (default 100)"]
                ],
                required: []
            ) { server, args in try server.review(args) }
        ]
    }

    // MARK: - Arguments

    static func text(_ args: [String: Any], _ key: String, required: Bool = false) throws -> String? {
        guard let v = args[key], !(v is NSNull) else {
            if required { throw RPC.params("'\(key)' is required") }
            return nil
        }
        guard let t = v as? String else { throw RPC.params("'\(key)' must be a string") }
        guard t.utf8.count <= maxArgumentBytes else { throw RPC.params("'\(key)' is longer than \(maxArgumentBytes) bytes") }
        return t
    }

    func store() throws -> Store { try CommandLineTool.store(arguments, out: out, create: true) }

    var inbox: Inbox { Inbox(outputDirectory: out) }

    // MARK: - Tools

    func manifest() throws -> [String: Any] {
        let m = try ManifestCommand.make(store: try store(), inbox: inbox.path)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try JSONSerialization.jsonObject(with: try encoder.encode(m))) as? [String: Any] ?? [:]
    }

    /// The file an agent names, if it is one it may file: inside the allowed folder, no `..`, not a link.
    func allowedFile(_ given: String) throws -> String {
        guard !given.isEmpty, !given.utf8.contains(0) else { throw RPC.params("'path' is empty") }
        let absolute = given.hasPrefix("/") ? given : PathText.joined(allowed, given)
        let parts = absolute.split(separator: "/", omittingEmptySubsequences: true)
        if parts.contains("..") { throw RPC.params("'path' must not hold '..': name the file inside \(allowed) itself") }
        var info = stat()
        guard lstat(absolute, &info) == 0 else { throw RPC.params("there is no file \(given.prefix(300))") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw RPC.params("\(given.prefix(300)) is not a regular file (a link, folder or device is never read)")
        }
        // The folder it is in, with every link resolved, must be the allowed folder or one inside it.
        guard
            let resolved = realpath(PathText.parent(of: absolute), nil).map({ p in
                defer { free(p) }
                return String(cString: p)
            }),
            resolved == allowed || resolved.hasPrefix(allowed == "/" ? "/" : allowed + "/")
        else { throw RPC.params("\(given.prefix(300)) is outside the folder Shoebox was allowed to file from (\(allowed))") }
        return PathText.joined(resolved, PathText.lastComponent(of: absolute))
    }

    func file(_ args: [String: Any]) throws -> [String: Any] {
        let path = try allowedFile(try MCPServer.text(args, "path", required: true) ?? "")
        let folder = try MCPServer.text(args, "folder", required: true) ?? ""
        if let p = Inbox.folderProblem(folder) { throw RPC.params(p) }
        guard let agent = try MCPServer.text(args, "agent", required: true), TextLimits.problem(field: "agent", value: agent) == nil else {
            throw RPC.params("'agent' is your name: one line of at most 100 characters")
        }
        var sidecar: [String: Any] = ["agent": agent, "folder": folder]
        if let c = args["confirmedByPerson"], !(c is NSNull) {
            guard let b = c as? NSNumber, !isNumberNotBool(b) else { throw RPC.params("'confirmedByPerson' must be true or false") }
            sidecar["confirmedByPerson"] = b.boolValue
        }
        let fields = args["fields"] ?? [String: Any]()
        guard let fields = fields as? [String: Any] else { throw RPC.params("'fields' must be an object") }
        for (key, value) in fields {
            guard MCPServer.fieldKeys.contains(key) else {
                throw RPC.params(
                    "'fields' holds '\(key.prefix(100))', which a sidecar does not carry (it carries \(MCPServer.fieldKeys.joined(separator: ", ")))")
            }
            guard let t = value as? String, t.utf8.count <= MCPServer.maxArgumentBytes else {
                throw RPC.params("'fields.\(key)' must be a string of at most \(MCPServer.maxArgumentBytes) bytes")
            }
            sidecar[key] = t
        }
        let bytes = Array(try JSONSerialization.data(withJSONObject: sidecar, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]))
        // The fields are checked as a run will read them: one that does not parse is said now, so the agent can correct it.
        let today = try CommandLineTool.today(arguments, verb: "mcp")
        let problems = Sidecar.parse(bytes, today: today).problems
        guard problems.isEmpty else { throw RPC.params("the fields cannot be filed as they are: " + problems.joined(separator: "; ")) }
        let config = try CommandLineTool.pipeline(arguments).0
        let dropped: String
        do { dropped = try inbox.file(path, folder: folder, sidecar: bytes, maxBytes: Int64(config.maxFileMegabytes) << 20) } catch {
            throw RPC(code: -32603, message: error.message)
        }
        return [
            "dropped": dropped, "status": "waiting", "inbox": inbox.path,
            "next": "the person's next `shoebox run` (or a `shoebox inbox --watch`) reads it; ask document_status with this name"
        ]
    }

    func status(_ args: [String: Any]) throws -> [String: Any] {
        let dropped = try MCPServer.text(args, "dropped", required: true) ?? ""
        if dropped.split(separator: "/").contains("..") || dropped.hasPrefix("/") { throw RPC.params("'dropped' is the name file_document returned") }
        if let r = inbox.result(of: dropped) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return (try JSONSerialization.jsonObject(with: try encoder.encode(r))) as? [String: Any] ?? [:]
        }
        if inbox.isWaiting(dropped) { return ["dropped": dropped, "status": "waiting"] }
        throw RPC.params("nothing was filed as '\(dropped.prefix(300))' (file_document returns the name to ask for)")
    }

    func review(_ args: [String: Any]) throws -> [String: Any] {
        let folder = try MCPServer.text(args, "folder")
        var limit = 100
        if let l = args["limit"], !(l is NSNull) {
            guard let n = l as? NSNumber, isNumberNotBool(n), let i = Int(exactly: n.doubleValue), (1...500).contains(i) else {
                throw RPC.params("'limit' is a whole number from 1 to 500")
            }
            limit = i
        }
        let waiting = try store().effectiveRecords().map(\.record).filter { $0.status == .review && (folder == nil || $0.folder == folder) }
        let rows: [[String: Any]] = waiting.sorted { $0.source < $1.source }.prefix(limit).map { r in
            var row: [String: Any] = ["record": r.source, "folder": r.folder, "reasons": r.reasons.map(\.code)]
            row["merchant"] = r.merchant ?? NSNull()
            row["date"] = r.date?.iso ?? NSNull()
            row["total"] = r.total?.decimalString ?? NSNull()
            row["currency"] = r.currency?.code ?? NSNull()
            row["enteredBy"] = r.agentEntry == nil ? NSNull() : "agent"
            row["agent"] = r.agentEntry?.name ?? NSNull()
            return row
        }
        return ["count": waiting.count, "records": rows]
    }
}
