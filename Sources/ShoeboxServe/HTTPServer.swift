import Foundation
import LocalHTTP

/// One request as the handler sees it: method, path (percent-decoded by libmicrohttpd), query arguments, headers
/// (names lower-cased) and the whole body.
public struct HTTPRequest: Sendable {
    public let method: String
    public let path: String
    public let query: [String: String]
    public let headers: [String: String]
    public let body: [UInt8]

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// A cookie's value from the Cookie header.
    public func cookie(_ name: String) -> String? {
        for part in (headers["cookie"] ?? "").split(separator: ";") {
            let kv = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if kv.count == 2, kv[0] == name { return String(kv[1]) }
        }
        return nil
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text answer: a sentence for a person.
    public static func text(_ status: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array((message + "\n").utf8))
    }

}

/// The server could not listen: the port is taken, or not allowed.
public struct ServeError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}

/// A web server on 127.0.0.1 (LocalHTTP over libmicrohttpd). Requests are handled one after another on the
/// server's own thread, so the handler needs no locking of its own.
public final class HTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    let handler: Handler
    private var server: OpaquePointer?
    /// The longest body taken: decisions and edits are small JSON objects.
    public static let maxBody = 1 << 20

    /// Listens on 127.0.0.1:`port` (0: a free port).
    public init(port: UInt16, handler: @escaping Handler) throws(ServeError) {
        self.handler = handler
        var error: Int32 = 0
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let s = LocalHTTP_start(port, HTTPServer.maxBody, HTTPServer.trampoline, context, &error) else {
            let why = String(cString: strerror(error))
            throw ServeError(
                message: port == 0
                    ? "cannot listen on 127.0.0.1: \(why)."
                    : "cannot listen on 127.0.0.1:\(port): \(why). Another program (or another `shoebox serve`) may use the port: give another with --port, or 0 for any free one."
            )
        }
        server = s
    }

    deinit { stop() }

    public var port: UInt16 { server.map { LocalHTTP_port($0) } ?? 0 }

    public func stop() {
        if let s = server { LocalHTTP_stop(s) }
        server = nil
    }

    private static let trampoline: LocalHTTP_handler = { context, connection, method, url, body, length in
        guard let context, let connection else { return .NO }
        let me = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        let request = HTTPRequest(
            method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "",
            query: HTTPServer.values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, lowercased: false),
            headers: HTTPServer.values(connection, MHD_ValueKind.HEADER_KIND, lowercased: true),
            body: body.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? [])
        let response = me.handler(request)
        // Header lines are the app's own; a value with a line break in it would split into two headers.
        let headers = response.headers.filter { !$0.1.contains(where: \.isNewline) && !$0.0.contains(where: \.isNewline) }
            .map { "\($0.0): \($0.1)" }.joined(separator: "\n")
        return response.body.withUnsafeBytes { bytes in
            LocalHTTP_respond(connection, UInt32(response.status), headers, bytes.baseAddress, bytes.count)
        }
    }

    /// The headers or query arguments of a request (the first of a repeated name).
    private static func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercased: Bool) -> [String: String] {
        final class Box {
            var values: [String: String] = [:]
            let lowercased: Bool
            init(lowercased: Bool) { self.lowercased = lowercased }
        }
        let box = Box(lowercased: lowercased)
        let iterator: MHD_KeyValueIterator = { cls, _, key, value in
            guard let cls, let key else { return .YES }
            let box = Unmanaged<Box>.fromOpaque(cls).takeUnretainedValue()
            let name = box.lowercased ? String(cString: key).lowercased() : String(cString: key)
            if box.values[name] == nil { box.values[name] = value.map { String(cString: $0) } ?? "" }
            return .YES
        }
        withExtendedLifetime(box) {
            _ = MHD_get_connection_values(connection, kind, iterator, Unmanaged.passUnretained(box).toOpaque())
        }
        return box.values
    }
}
