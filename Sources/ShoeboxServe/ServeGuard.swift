import Foundation

/// What a local web app must refuse before it does anything, and the headers every answer carries.
///
/// - Only this app's address: the Host header must name 127.0.0.1 or localhost at its port, so a web page
///   elsewhere cannot reach it through a name it points at 127.0.0.1 (DNS rebinding).
/// - Only the person who started it: a random token, printed at start in the URL; the first page sets it as a
///   cookie only this site sends back (SameSite=Strict, HttpOnly).
/// - Only on purpose: every change (POST) carries a second random token the page holds (CSRF), and a request
///   another site's page sends names that site in its Origin header.
/// - Nothing but its own files: paths with `..`, backslashes or NUL are refused before routing; nothing is
///   served from a path the request names (the scans are found through the store).
public struct ServeGuard: Sendable {
    public let port: UInt16
    public let token: String
    public let csrf: String
    public static let cookieName = "shoebox_token"

    public init(port: UInt16, token: String = ServeGuard.randomToken(), csrf: String = ServeGuard.randomToken()) {
        self.port = port
        self.token = token
        self.csrf = csrf
    }

    /// 32 random bytes as hex (the system's cryptographic generator).
    public static func randomToken() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &g)) }.joined()
    }

    /// The URL a person opens.
    public var url: String { "http://127.0.0.1:\(port)/?token=\(token)" }

    /// Nil when the request may go on; else the answer that refuses it.
    public func refusal(_ r: HTTPRequest) -> HTTPResponse? {
        let host = (r.headers["host"] ?? "").lowercased()
        guard host == "127.0.0.1:\(port)" || host == "localhost:\(port)" else {
            return .text(421, "This server answers for 127.0.0.1:\(port) only, not for '\(host)'. Open the address `shoebox serve` printed.")
        }
        if r.path.contains("..") || r.path.contains("\\") || r.path.contains("\0") || !r.path.hasPrefix("/") {
            return .text(400, "The path '\(r.path)' is not one this app serves.")
        }
        let given = r.query["token"] ?? r.cookie(ServeGuard.cookieName) ?? ""
        guard ServeGuard.same(given, token) else {
            return .text(403, "This page needs the address with its token that `shoebox serve` printed when it started.")
        }
        switch r.method {
        case "GET", "HEAD": return nil
        case "POST":
            guard ServeGuard.same(r.headers["x-shoebox-csrf"] ?? "", csrf) else {
                return .text(403, "A change needs the page's own token; reload the page and try again.")
            }
            if let origin = r.headers["origin"], origin != "http://127.0.0.1:\(port)", origin != "http://localhost:\(port)" {
                return .text(403, "A change sent from another site ('\(origin)') is refused.")
            }
            return nil
        default: return .text(405, "\(r.method) is not a method this app takes.")
        }
    }

    /// The headers every answer carries: nothing loaded from elsewhere, no framing, no sniffing, no caching, no
    /// referrer; and the token as a cookie when it came in the URL.
    public func harden(_ response: HTTPResponse, for r: HTTPRequest) -> HTTPResponse {
        var out = response
        out.headers += [
            (
                "Content-Security-Policy",
                "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
            ),
            ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store")
        ]
        if response.status < 400, let t = r.query["token"], ServeGuard.same(t, token) {
            out.headers.append(("Set-Cookie", "\(ServeGuard.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"))
        }
        return out
    }

    /// Compares in time that does not depend on where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
