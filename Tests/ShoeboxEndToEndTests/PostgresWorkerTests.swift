import Foundation
import ShoeboxTestSupport
import Testing

/// Issue 37, deliver 2 and 3 as a user meets them: `shoebox run SCANS --store … --no-read` queues the documents with
/// their bytes and waits; `shoebox worker`s with output folders of their own (no scan folder, no shared folder) read
/// them from the store; the run stores what they read in path order, the same records as a run on SQLite. A worker
/// stopped (SIGSTOP) past its lease while holding a document, resumed after another worker finished that document,
/// changes no row: its late completion is refused and said.
@Suite(.serialized, .tags(.slow)) struct PostgresWorkerTests {
    static let scans = packageRoot.appendingPathComponent("Fixtures/sample-scans").path
    static let day = "2026-12-04"

    static var environment: [String: String] { PostgresRuns.environment }

    /// `shoebox` with `arguments` started in the background, its stderr kept.
    static func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let err = Pipe()
        return (try PostgresRuns.start(arguments, stderr: err, stdout: Pipe()), err)
    }

    static func output(_ p: Process) -> String {
        String(decoding: (p.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    }

    /// Polls `sql` on the server until it gives `expected` (or a minute passes); the last answer.
    static func wait(for expected: String, _ sql: String, on server: PostgresServer, database: String) -> String {
        PostgresRuns.poll(sql, on: server, database: database) { $0 == expected }
    }

    @Test(.tags(.ocr)) func workersWithoutTheScanFolderReadWhatTheRunQueuedAndTheRecordsAreSQLitesOwn() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try server.database("firm")
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let sqlite = work.appendingPathComponent("sqlite")
        let single = try runProgram(shoebox, ["run", Self.scans, "--out", sqlite.path, "--today", Self.day], environment: Self.environment)
        #expect(single.code == 0, "\(single.err)")

        let office = work.appendingPathComponent("office-pc")
        let (run, runErr) = try Self.start(["run", Self.scans, "--store", url, "--no-read", "--out", office.path, "--today", Self.day])
        // The workers start as soon as the run holds the store's writers' lock, before it may have queued anything:
        // a worker --until-empty waits while a run takes documents in.
        let locked = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = 7478191"
        #expect(Self.wait(for: "1", locked, on: server, database: "firm") == "1")
        let workers = try (1...2).map { n in
            try Self.start(["worker", "--store", url, "--out", work.appendingPathComponent("laptop-\(n)").path, "--jobs", "1", "--until-empty"])
        }
        #expect(Self.wait(for: "9", "SELECT count(*) FROM work", on: server, database: "firm") == "9", "the run queued every document")
        #expect(try server.sql("SELECT count(*) FROM blobs", database: "firm") == "9", "each scan's bytes are in the store once")
        var read = 0
        for (w, err) in workers {
            let out = Self.output(w)
            w.waitUntilExit()
            #expect(w.terminationStatus == 0, "\(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
            read += Int(out.split(separator: " ").dropFirst(2).first ?? "") ?? 0
        }
        run.waitUntilExit()
        #expect(run.terminationStatus == 0, "\(String(decoding: runErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        #expect(read == 9, "the two workers read every document once between them")
        #expect(!FileManager.default.fileExists(atPath: office.appendingPathComponent("cache/ocr").path), "the run read nothing itself")
        for file in ["records.jsonl", "review/queue.jsonl"] {
            #expect(
                try Data(contentsOf: office.appendingPathComponent(file)) == Data(contentsOf: sqlite.appendingPathComponent(file)),
                "\(file) differs from the SQLite run's")
        }
        #expect(try server.sql("SELECT state, count(*), max(attempt) FROM work GROUP BY state", database: "firm") == "done|9|1")
        #expect(try server.sql("SELECT count(*) FROM work WHERE lease_until IS NOT NULL", database: "firm") == "0")
        #expect(try server.sql("SELECT count(*) FROM outcomes", database: "firm") == "0", "what the run stored is let go")
        // A worker needs a store to work from.
        let none = try runProgram(shoebox, ["worker", "--out", work.path], environment: Self.environment)
        #expect(none.code == 2 && none.err.contains("needs a PostgreSQL store"), "\(none.err)")
    }

    /// Issue 53: workers whose clocks are minutes off (one ten minutes ahead, one seven behind, by libfaketime), each
    /// under a lease of one second, shorter than the reading of one page: leases are kept in the server's time and
    /// renewed while a document is read, so no document is read twice at once and each is read once.
    @Test(.tags(.ocr)) func workersWithClocksMinutesOffAndALeaseShorterThanAPageReadEachDocumentOnce() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime") else {
            Issue.record("faketime is not installed (make setup installs it): the clock case is not checked")
            return
        }
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try server.database("firm")
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let (run, runErr) = try Self.start([
            "run", Self.scans, "--store", url, "--no-read", "--out", work.appendingPathComponent("office").path, "--today", Self.day
        ])
        let locked = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = 7478191"
        #expect(Self.wait(for: "1", locked, on: server, database: "firm") == "1")
        let workers = try ["+10m", "-7m"].enumerated().map { n, offset in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/faketime")
            p.arguments = [
                "-f", offset, shoebox, "worker", "--store", url, "--out", work.appendingPathComponent("laptop-\(n)").path, "--jobs", "1", "--lease",
                "1",
                "--until-empty"
            ]
            p.environment = Self.environment
            let (out, err) = (Pipe(), Pipe())
            (p.standardOutput, p.standardError) = (out, err)
            try p.run()
            return (p, out, err)
        }
        var read = 0
        for (w, out, err) in workers {
            let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let complaints = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            w.waitUntilExit()
            #expect(w.terminationStatus == 0, "\(complaints)")
            #expect(!complaints.contains("lease ran out"), "\(complaints)")
            read += Int(said.split(separator: " ").dropFirst(2).first ?? "") ?? 0
        }
        run.waitUntilExit()
        #expect(run.terminationStatus == 0, "\(String(decoding: runErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        #expect(read == 9, "the two workers read every document once between them")
        // Claimed once each: no lease ran out under a reading, whatever the workers' clocks said.
        #expect(try server.sql("SELECT state, count(*), max(attempt) FROM work GROUP BY state", database: "firm") == "done|9|1")
        #expect(try server.sql("SELECT count(*) FROM records", database: "firm") == "9")
    }

    @Test(.tags(.ocr)) func aWorkerStoppedPastItsLeaseAndResumedChangesNoRow() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try server.database("firm")
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let (run, _) = try Self.start([
            "run", Self.scans, "--store", url, "--no-read", "--out", work.appendingPathComponent("run").path, "--today", Self.day
        ])
        defer { if run.isRunning { run.terminate() } }
        #expect(Self.wait(for: "9", "SELECT count(*) FROM work", on: server, database: "firm") == "9")
        // The slow worker claims a document, and is stopped while it holds it.
        let (slow, slowErr) = try Self.start(
            ["worker", "--store", url, "--out", work.appendingPathComponent("slow").path, "--jobs", "1", "--lease", "1", "--until-empty"])
        let held = Self.wait(for: "1", "SELECT count(*) FROM work WHERE state = 'running'", on: server, database: "firm")
        kill(slow.processIdentifier, SIGSTOP)
        #expect(held == "1")
        let taken = try server.sql("SELECT id, path FROM work WHERE state = 'running'", database: "firm")
        // Another worker takes it once the lease (1 s) and the back-off (5 s) have passed, and reads everything.
        let fast = try runProgram(
            shoebox, ["worker", "--store", url, "--out", work.appendingPathComponent("fast").path, "--jobs", "1", "--until-empty"],
            environment: Self.environment)
        #expect(fast.code == 0 && fast.out.contains("documents read"), "\(fast.out) \(fast.err)")
        run.waitUntilExit()
        #expect(run.terminationStatus == 0)
        let rows = "SELECT id, path, state, attempt, worker, lease_until FROM work ORDER BY id"
        let before = try server.sql(rows, database: "firm")
        let records = try server.sql("SELECT json FROM records ORDER BY source_id", database: "firm")
        #expect(
            before.contains(taken.split(separator: "|").last.map { "\($0)|done|2|" } ?? "?"),
            "the stopped worker's document was read again, attempt 2")
        kill(slow.processIdentifier, SIGCONT)
        slow.waitUntilExit()
        let said = String(decoding: slowErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(slow.terminationStatus == 0, "\(said)")
        #expect(
            said.contains("was finished by another worker after this one's lease ran out") && said.contains("give it a longer --lease than "),
            "\(said)")
        #expect(try server.sql(rows, database: "firm") == before, "the late completion changed a row of the queue")
        #expect(try server.sql("SELECT json FROM records ORDER BY source_id", database: "firm") == records)
        #expect(try server.sql("SELECT count(*) FROM outcomes", database: "firm") == "0")
    }
}
