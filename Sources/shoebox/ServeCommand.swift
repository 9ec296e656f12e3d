import Foundation
import ShoeboxCore
import ShoeboxPipeline
import ShoeboxServe
import ShoeboxStore

/// `shoebox serve`: the review queue in a browser, on 127.0.0.1 only, until Ctrl-C.
enum ServeCommand {
    /// The port when none is given: fixed, so that a bookmark keeps working between sessions (with the token of the day).
    static let defaultPort: UInt16 = 8421

    static func main(_ args: [String]) throws -> ExitCode {
        let a = try Arguments(args, verb: "serve", valueOptions: ["--out", "--store", "--port", "--today"], flagOptions: [])
        if a.flags.contains("--help") {
            print(Help.serve)
            return ExitCode.success
        }
        guard a.positionals.isEmpty else { throw UsageError(message: "shoebox serve: takes no arguments. See 'shoebox serve --help'.") }
        var port = defaultPort
        if let p = a.values["--port"] {
            guard let n = UInt16(p) else {
                throw UsageError(message: "shoebox serve: --port takes a number from 0 (any free port) to 65535, not '\(p)'.")
            }
            port = n
        }
        let out = CommandLineTool.outputDirectory(a)
        try CommandLineTool.requireStore(out, a)
        let today = try CommandLineTool.today(a, verb: "serve")
        let store = try CommandLineTool.store(a, out: out)

        // Ctrl-C and SIGTERM are taken by sigwait below: blocked before the server's thread starts, which inherits it.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        // The app needs the port the server got (with --port 0, known only once it listens); a request before the app
        // is there is answered 503.
        let box = AppBox()
        let server = try HTTPServer(port: port) { request in box.app?.handle(request) ?? .text(503, "Starting; reload in a moment.") }
        let guarding = ServeGuard(port: server.port)
        box.app = ReviewApp(store: store, guarding: guarding, today: today)
        print("shoebox serve: review the records of \(try CommandLineTool.storeURL(a) ?? out) at")
        print("  \(guarding.url)")
        print("(this machine only; the token in the address is the key: do not share it. Ctrl-C stops.)")
        fflush(nil)
        var received: Int32 = 0
        sigwait(&signals, &received)
        server.stop()
        print("shoebox serve: stopped; every decision is saved.")
        return ExitCode.success
    }

    final class AppBox: @unchecked Sendable {
        var app: ReviewApp?
    }
}
