import Foundation
import ShoeboxCore
import ShoeboxPipeline
import ShoeboxReading
import ShoeboxStore

/// `shoebox mcp [--out DIR] [--allow DIR] [--store URL]`: a Model Context Protocol server on stdio (JSON-RPC 2.0, one
/// message a line) for an agent filing documents for a person (docs/agents.md). Its tools read the manifest, file a
/// document with its fields (into the inbox only), list what waits in review, and look up a filed document's status.
/// No tool edits or deletes a record. Every call that cannot be carried out is a JSON-RPC error, never a crash.
enum MCPCommand {
    /// The protocol revisions this server speaks by the initialize handshake, newest first: it answers a client's own
    /// when it is one of them.
    static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// The revisions without a handshake (each request names its revision in `_meta`), found by `server/discover`.
    static let modernVersions = ["2026-07-28"]
    /// Where a request of a revision without a handshake names it.
    static let versionKey = "io.modelcontextprotocol/protocolVersion"
    /// A message longer than this is refused unread (the rest of its line skipped).
    static let maxMessageBytes = 4 << 20

    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(args, verb: "mcp", valueOptions: ["--out", "--store", "--allow", "--today", "--pipeline"], flagOptions: [])
        if a.flags.contains("--help") {
            print(Help.mcp)
            return ExitCode.success
        }
        guard a.positionals.isEmpty else { throw UsageError(message: "shoebox mcp takes no file or folder; see 'shoebox mcp --help'.") }
        let allow = a.values["--allow"] ?? FileManager.default.currentDirectoryPath
        guard
            let allowed = realpath(allow, nil).map({ p in
                defer { free(p) }
                return String(cString: p)
            })
        else {
            throw UsageError(message: "shoebox mcp: the folder --allow names (\(allow)) does not exist.")
        }
        var server = MCPServer(arguments: a, out: CommandLineTool.outputDirectory(a), allowed: allowed)
        var reader = LineReader(fd: 0, limit: maxMessageBytes)
        while let line = reader.next() {
            let reply: [String: Any]?
            switch line {
            case .tooLong: reply = MCPServer.error(id: NSNull(), code: -32600, "the message is longer than \(maxMessageBytes) bytes and was not read")
            case .line(let bytes): reply = server.handle(bytes)
            }
            if let reply { MCPServer.send(reply) }
        }
        return ExitCode.success
    }
}

/// Lines from a file descriptor, each at most `limit` bytes: a longer one is skipped to its end and given as `tooLong`.
struct LineReader {
    enum Line {
        case line([UInt8])
        case tooLong
    }

    let fd: Int32
    let limit: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    init(fd: Int32, limit: Int) {
        self.fd = fd
        self.limit = limit
    }

    mutating func next() -> Line? {
        var skipping = false
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0A) {
                let line = Array(buffer[start..<nl])
                start = nl + 1
                if skipping { return .tooLong }
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
                return .line(line)
            }
            if buffer.count - start > limit {
                skipping = true
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            if ended {
                guard !buffer.isEmpty else { return nil }
                let rest = buffer
                buffer = []
                return skipping ? .tooLong : .line(rest)
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 65_536) }
            if n <= 0 {
                if n < 0 && errno == EINTR { continue }
                ended = true
            } else {
                buffer += chunk[0..<n]
            }
        }
    }
}

/// The server's state and its methods. Tools are in `MCPServer.tools`, each with its JSON Schema.
struct MCPServer {
    let arguments: Arguments
    let out: String
    /// The folder (resolved) whose files an agent may file; anything outside it is refused.
    let allowed: String
    var initialized = false

    init(arguments: Arguments, out: String, allowed: String) {
        self.arguments = arguments
        self.out = out
        self.allowed = allowed
    }

    /// A JSON-RPC error raised by a method: its code and message.
    struct RPCError: Error {
        let code: Int
        let message: String
        var data: [String: Any]? = nil
        static func params(_ m: String) -> RPCError { RPCError(code: -32602, message: m) }
    }

    static func error(id: Any, code: Int, _ message: String, data: [String: Any]? = nil) -> [String: Any] {
        var error: [String: Any] = ["code": code, "message": message]
        if let data { error["data"] = data }
        return ["jsonrpc": "2.0", "id": id, "error": error]
    }

    static func send(_ message: [String: Any]) {
        guard var data = try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        data.append(0x0A)
        FileHandle.standardOutput.write(data)
    }

    /// The reply to one message, or nil for a notification (or a reply from the client, which this server never asks for).
    mutating func handle(_ bytes: [UInt8]) -> [String: Any]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) else {
            return MCPServer.error(id: NSNull(), code: -32700, "the message is not JSON")
        }
        guard let message = object as? [String: Any] else {
            return MCPServer.error(id: NSNull(), code: -32600, "a message is one JSON object (batches are not part of MCP)")
        }
        let id = message["id"]
        // An id is a string or a number (not true or false, which JSONSerialization also gives as a number).
        if let id, !(id is String || (id as? NSNumber).map(isNumberNotBool) == true) {
            return MCPServer.error(id: NSNull(), code: -32600, "a request's id is a string or a number")
        }
        guard message["jsonrpc"] as? String == "2.0" else {
            return MCPServer.error(id: id ?? NSNull(), code: -32600, "the message is not JSON-RPC 2.0 (\"jsonrpc\": \"2.0\" is missing)")
        }
        guard let method = message["method"] as? String else {
            // A response from the client (to nothing this server asked) or a malformed request.
            return id == nil || message["result"] != nil || message["error"] != nil
                ? nil : MCPServer.error(id: id ?? NSNull(), code: -32600, "a request names its method")
        }
        let params = message["params"] ?? [String: Any]()
        guard let params = params as? [String: Any] else {
            return id.map { MCPServer.error(id: $0, code: -32602, "params must be an object") }
        }
        guard let id else {
            if method == "notifications/initialized" { initialized = true }
            return nil
        }
        do {
            // A request that names a revision (without a handshake) must name one this server speaks.
            var modern = false
            if let meta = params["_meta"] as? [String: Any], let asked = meta[MCPCommand.versionKey] {
                let all = MCPCommand.modernVersions + MCPCommand.protocolVersions
                guard let v = asked as? String, all.contains(v) else {
                    throw RPCError(
                        code: -32022, message: "this server does not speak protocol revision \(String(describing: asked).prefix(40))",
                        data: ["supported": all, "requested": String(describing: asked).prefix(40)])
                }
                modern = MCPCommand.modernVersions.contains(v)
            }
            var result = try call(method, params)
            // The 2026-07-28 wire requires a result's type, and a cacheable one's caching (none here: always read again);
            // a handshake-era result stays as its revision has it (strict peers refuse extra keys on an empty one).
            if modern || method == "server/discover" {
                result["resultType"] = "complete"
                if method == "tools/list" || method == "server/discover" {
                    result["ttlMs"] = 0
                    result["cacheScope"] = "private"
                }
            }
            return ["jsonrpc": "2.0", "id": id, "result": result]
        } catch let e as RPCError {
            return MCPServer.error(id: id, code: e.code, e.message, data: e.data)
        } catch {
            return MCPServer.error(id: id, code: -32603, "\(error)")
        }
    }

    func call(_ method: String, _ params: [String: Any]) throws -> [String: Any] {
        switch method {
        case "initialize":
            let asked = params["protocolVersion"] as? String
            let version = asked.flatMap { MCPCommand.protocolVersions.contains($0) ? $0 : nil } ?? MCPCommand.protocolVersions[0]
            return [
                "protocolVersion": version,
                "capabilities": ["tools": ["listChanged": false]],
                "serverInfo": ["name": "shoebox", "version": CommandLineTool.version],
                "instructions": MCPServer.instructions
            ]
        case "server/discover":
            return [
                "supportedVersions": MCPCommand.modernVersions + MCPCommand.protocolVersions,
                "capabilities": ["tools": ["listChanged": false]],
                "instructions": MCPServer.instructions,
                "_meta": ["io.modelcontextprotocol/serverInfo": ["name": "shoebox", "version": CommandLineTool.version]]
            ]
        case "ping": return [:]
        case "tools/list": return ["tools": MCPServer.tools.map(\.listing)]
        case "tools/call":
            guard let name = params["name"] as? String else { throw RPCError.params("tools/call names its tool (\"name\")") }
            guard let tool = MCPServer.tools.first(where: { $0.name == name }) else {
                throw RPCError.params("there is no tool '\(name.prefix(100))': the tools are \(MCPServer.tools.map(\.name).joined(separator: ", "))")
            }
            let args = params["arguments"] ?? [String: Any]()
            guard let args = args as? [String: Any] else { throw RPCError.params("a tool's arguments are an object") }
            for key in args.keys where !tool.keys.contains(key) {
                throw RPCError.params("\(name) takes no argument '\(key.prefix(100))' (it takes \(tool.keys.sorted().joined(separator: ", ")))")
            }
            let result = try tool.run(self, args)
            let text = String(
                decoding: (try? JSONSerialization.data(withJSONObject: result, options: [.sortedKeys, .prettyPrinted])) ?? Data(), as: UTF8.self)
            return ["content": [["type": "text", "text": text]], "structuredContent": result, "isError": false]
        default:
            throw RPCError(code: -32601, message: "there is no method '\(method.prefix(100))'")
        }
    }

    static let instructions = """
        Shoebox files receipts and invoices for a person. Read the manifest first (read_manifest): the folders, \
        their categories and currencies, and the fields a sidecar may carry. Confirm the fields with the person, then \
        file_document: Shoebox copies the document into its inbox with your fields, reads the page itself at its next \
        run, and checks what you said against it. document_status tells what came of it; list_review what waits for \
        the person. You cannot edit or delete a record.
        """
}
