import Foundation
import ShoeboxTestSupport

/// What the PostgreSQL end-to-end tests share: the environment they run `shoebox` in (one tesseract thread, no
/// `SHOEBOX_STORE` of the caller's), a command started in the background, and waiting for the store to say something.
enum PostgresRuns {
    static var environment: [String: String] {
        var e = ProcessInfo.processInfo.environment
        e["OMP_THREAD_LIMIT"] = "1"
        e["SHOEBOX_STORE"] = nil
        return e
    }

    /// `shoebox` with `arguments` started in the background; its stderr into `stderr` and stdout into `stdout` when
    /// given, else discarded.
    static func start(_ arguments: [String], stderr: Pipe? = nil, stdout: Pipe? = nil, with extra: [String: String] = [:]) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: shoebox)
        p.arguments = arguments
        p.environment = environment.merging(extra) { $1 }
        p.standardOutput = stdout ?? FileHandle.nullDevice
        p.standardError = stderr ?? FileHandle.nullDevice
        try p.run()
        return p
    }

    /// Polls `sql` on the server until `done` holds for its answer, `while` stops holding, or `seconds` pass; the last
    /// answer.
    @discardableResult
    static func poll(
        _ sql: String, on server: PostgresServer, database: String, seconds: Double = 60, while going: () -> Bool = { true },
        until done: (String) -> Bool
    ) -> String {
        var answer = ""
        let deadline = Date().addingTimeInterval(seconds)
        while going(), Date() < deadline {
            answer = (try? server.sql(sql, database: database)) ?? ""
            if done(answer) { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return answer
    }
}
