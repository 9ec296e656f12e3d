import Foundation
import ShoeboxTestSupport
import Testing

/// Issue 37, deliver 1 and its bad input: every command that works on a store takes `--store postgresql://…` (or
/// `SHOEBOX_STORE`) and gives the same answers on a real PostgreSQL server the test starts as on the SQLite store of
/// an output folder; a wrong URL, a password in the URL, a schema from a newer Shoebox, a server that goes away
/// mid-run and a server whose disk is full are each refused with their own exit code and sentence, and nothing is
/// lost: the same run, once the server is back or has room, stores every document.
@Suite(.serialized, .tags(.slow)) struct PostgresCommandTests {
    static let scans = packageRoot.appendingPathComponent("Fixtures/sample-scans").path
    static let day = "2026-12-04"

    /// A run of the sample folder into `out`, reading pages from `cache` (the OCR cache of an earlier real run) when
    /// given; `store` adds `--store`.
    static func run(out: URL, store: String? = nil, cache: URL? = nil) throws -> (code: Int32, out: String, err: String) {
        if let cache, !FileManager.default.fileExists(atPath: out.appendingPathComponent("cache/ocr").path) {
            try FileManager.default.createDirectory(at: out.appendingPathComponent("cache"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: cache, to: out.appendingPathComponent("cache/ocr"))
        }
        return try runProgram(
            shoebox, ["run", scans, "--out", out.path, "--today", day, "--jobs", "2"] + (store.map { ["--store", $0] } ?? []),
            environment: environment)
    }

    /// A run of the sample folder (one job, pages read for real) started in the background, returned once it has
    /// stored its first document (or ended), with how many it had stored then.
    static func runUntilFirstRecord(
        out: URL, server: PostgresServer, database: String, url: String, stderr: Pipe?, with extra: [String: String] = [:]
    ) throws -> (Process, Int) {
        let p = try PostgresRuns.start(["run", scans, "--out", out.path, "--today", day, "--jobs", "1", "--store", url], stderr: stderr, with: extra)
        let stored = PostgresRuns.poll(
            "SELECT count(*) FROM records", on: server, database: database, seconds: 300, while: { p.isRunning }, until: { (Int($0) ?? 0) > 0 })
        return (p, Int(stored) ?? 0)
    }

    static var environment: [String: String] { PostgresRuns.environment }

    /// What a user sees of a store after a run: decisions from a file, an export, the store as JSON, the counts, the
    /// deadlines, the memory, the recurring charges and a rescore; the output folder's path and the decisions' clock
    /// times left out.
    static func exercise(out: URL, store: String?, decisions: URL) throws -> [String: String] {
        let extra = store.map { ["--store", $0] } ?? []
        var seen: [String: String] = [:]
        for (name, args) in [
            ("apply", ["review", "--apply", decisions.path, "--today", day]), ("export", ["export"]),
            ("json", ["export", "--format", "json", "--file", out.appendingPathComponent("store.json").path]), ("status", ["status"]),
            ("deadlines", ["deadlines", "--today", day]), ("memory", ["memory", "list"]), ("recurring", ["recurring", "--today", day]),
            ("rescore", ["rescore"]), ("queue", ["review", "--export", out.appendingPathComponent("queue.jsonl").path, "--today", day])
        ] {
            let r = try runProgram(shoebox, args + ["--out", out.path] + extra, environment: environment)
            #expect(r.code == 0, "\(name): \(r.err)")
            seen[name] = r.out.replacingOccurrences(of: out.path, with: "OUT")
        }
        let json = try String(contentsOf: out.appendingPathComponent("store.json"), encoding: .utf8)
        seen["store.json"] = json.replacingOccurrences(of: #""at" ?: ?"[^"]*""#, with: "AT", options: .regularExpression)
        for file in ["records.jsonl", "review/queue.jsonl", "queue.jsonl"] + zips(out) {
            seen[file] = try Data(contentsOf: out.appendingPathComponent(file)).base64EncodedString()
        }
        return seen
    }

    static func zips(_ out: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("exports").path)) ?? []).sorted().map { "exports/" + $0 }
    }

    @Test(.tags(.ocr)) func everyStoreCommandAnswersTheSameOnPostgreSQLAsOnSQLite() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try server.database("firm")
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let decisions = work.appendingPathComponent("decisions.jsonl")
        try Data(
            """
            {"source": "office-supplies/IMG_2201.jpg", "action": "accept", "fields": {"total": "12.34", "merchant": "Papier Kontor"}}
            {"source": "2026-03-berlin-trip/IMG_0427.png", "action": "reject"}
            {"source": "office-supplies/scan_0007.png", "action": "edit", "fields": {"currency": "EUR", "date": "14.03.2026", "tax": "19 % = 1,97; 7=0.50"}}
            {"source": "invoices/Rechnung_RE-2026-0342.pdf", "action": "settle", "deadline": "payment"}

            """.utf8
        ).write(to: decisions)
        let sqlite = work.appendingPathComponent("sqlite")
        let first = try Self.run(out: sqlite)
        #expect(first.code == 0, "\(first.err)")
        // The same pages, read once for real: the PostgreSQL run takes them from the first run's OCR cache.
        let postgres = work.appendingPathComponent("postgres")
        let second = try Self.run(out: postgres, store: url, cache: sqlite.appendingPathComponent("cache/ocr"))
        #expect(second.code == 0, "\(second.err)")
        #expect(second.out.replacingOccurrences(of: postgres.path, with: "OUT").contains("9 files found, 9 processed"))
        #expect(!FileManager.default.fileExists(atPath: postgres.appendingPathComponent("store.sqlite").path), "the run wrote to PostgreSQL only")
        let a = try Self.exercise(out: sqlite, store: nil, decisions: decisions)
        let b = try Self.exercise(out: postgres, store: url, decisions: decisions)
        #expect(Self.zips(sqlite).count == 3)
        #expect(a.keys.sorted() == b.keys.sorted())
        for key in a.keys.sorted() { #expect(a[key] == b[key], "\(key) differs between SQLite and PostgreSQL") }
        // SHOEBOX_STORE points a command at the same store.
        var environment = Self.environment
        environment["SHOEBOX_STORE"] = url
        let status = try runProgram(shoebox, ["status", "--out", work.appendingPathComponent("none").path], environment: environment)
        #expect(status.code == 0 && status.out.hasPrefix("store: 9 documents"), "\(status.out) \(status.err)")
    }

    @Test func aWrongURLAPasswordANewerSchemaEachHaveTheirCodeAndSentence() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try server.database("firm")
        let out = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        func status(_ store: String?, env: String? = nil) throws -> (code: Int32, out: String, err: String) {
            var e = Self.environment
            e["SHOEBOX_STORE"] = env
            return try runProgram(shoebox, ["status", "--out", out.path] + (store.map { ["--store", $0] } ?? []), environment: e)
        }
        let password = try status("postgresql://clerk:s3cret@db.example/firm")
        #expect(password.code == 2 && password.err.contains("holds a password") && !password.err.contains("s3cret"), "\(password.err)")
        let query = try status(nil, env: "postgresql://clerk@db.example/firm?password=s3cret")
        #expect(query.code == 2 && query.err.contains("SHOEBOX_STORE holds a password") && !query.err.contains("s3cret"), "\(query.err)")
        let notPostgres = try status(out.appendingPathComponent("store.sqlite").path)
        #expect(notPostgres.code == 2 && notPostgres.err.contains("takes a PostgreSQL URL"), "\(notPostgres.err)")
        let noDatabase = try status(url.replacingOccurrences(of: "/firm?", with: "/nosuch?"))
        #expect(noDatabase.code == 15 && noDatabase.err.contains("cannot reach the store") && noDatabase.err.contains("nosuch"), "\(noDatabase.err)")
        #expect(!noDatabase.err.contains("\n") || noDatabase.err.split(separator: "\n").count == 1, "one line: \(noDatabase.err)")
        #expect(try status(url).code == 0)
        try server.sql("UPDATE shoebox_schema SET version = 99", database: "firm")
        let newer = try status(url)
        #expect(newer.code == 17 && newer.err.contains("schema version 99") && newer.err.contains("another store"), "\(newer.err)")
        server.halt()
        let down = try status(url)
        #expect(down.code == 15 && down.err.contains("cannot reach the store"), "\(down.err)")
    }

    @Test(.tags(.ocr)) func aServerThatGoesAwayMidRunStopsItByNameAndTheNextRunLosesNothing() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try server.database("firm")
        let out = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let err = Pipe()
        // The server goes away once the run has stored its first document and before it has stored them all, and is not
        // back within the run's wait for it (here 2 s).
        let (p, stored) = try Self.runUntilFirstRecord(
            out: out, server: server, database: "firm", url: url, stderr: err, with: ["SHOEBOX_STORE_RETRY_SECONDS": "2"])
        server.halt()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(stored > 0 && stored < 9, "the server went away after \(stored) of 9 documents")
        #expect(p.terminationStatus == 16, "\(message)")
        #expect(message.contains("went away") && message.contains("Run the command again when the server is back"), "\(message)")
        #expect(message.contains("not back after 2 s") && message.contains("SHOEBOX_STORE_RETRY_SECONDS"), "\(message)")
        try server.start()
        let again = try Self.run(out: out, store: url)
        #expect(again.code == 0, "\(again.err)")
        #expect(try server.sql("SELECT count(*) FROM records", database: "firm") == "9")
        #expect(again.out.contains("9 files found"), "\(again.out)")
    }

    /// Issue 53: the server restarted (not stopped) under a run, and its sessions ended again and again under an export:
    /// the run goes on once the server is back, the export's zips are byte for byte those of a calm export, and
    /// nothing is stored twice.
    @Test(.tags(.ocr)) func aServerRestartedMidRunOrMidExportGoesUnseenAndNothingIsDoubled() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try server.database("firm")
        let out = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let err = Pipe()
        let (p, stored) = try Self.runUntilFirstRecord(out: out, server: server, database: "firm", url: url, stderr: err)
        // Down for two seconds: the run's writes wait for it (its writers' lock taken again on the new server).
        try server.restart(pause: 2)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(stored > 0 && stored < 9, "the server restarted after \(stored) of 9 documents")
        #expect(p.terminationStatus == 0, "\(message)")
        for table in ["records", "sources"] { #expect(try server.sql("SELECT count(*) FROM \(table)", database: "firm") == "9", "\(table)") }
        #expect(try server.sql("SELECT count(*) FROM runs", database: "firm") == "1")
        let again = try Self.run(out: out, store: url)
        #expect(again.code == 0 && again.out.contains("0 processed, 9 already done"), "\(again.out)")

        let calm = try runProgram(shoebox, ["export", "--out", out.path, "--store", url], environment: Self.environment)
        #expect(calm.code == 0, "\(calm.err)")
        let before = try Self.zips(out).map { try Data(contentsOf: out.appendingPathComponent($0)) }
        for zip in Self.zips(out) { try FileManager.default.removeItem(at: out.appendingPathComponent(zip)) }
        // Every session of the store's database ended (as a restart ends them) every few milliseconds while the export
        // works, twenty times.
        let export = try PostgresRuns.start(["export", "--out", out.path, "--store", url])
        var ended = 0
        while export.isRunning, ended < 20 {
            let n = try server.sql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = 'firm' AND pid <> pg_backend_pid()")
            ended += Int(n) ?? 0
        }
        export.waitUntilExit()
        #expect(export.terminationStatus == 0)
        #expect(ended > 0, "no session was ended while the export ran")
        #expect(try Self.zips(out).map { try Data(contentsOf: out.appendingPathComponent($0)) } == before)
    }

    /// Issue 53: the server restarted under a run, and another command took the writers' lock before the run came back
    /// (the run held still meanwhile): the run stops by name (exit 8) instead of writing beside it; run again once the
    /// other is done, it stores every document once.
    @Test(.tags(.ocr)) func aWritersLockTakenByAnotherWhileTheServerRestartedStopsTheRunByName() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try server.database("firm")
        let out = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let err = Pipe()
        let (p, _) = try Self.runUntilFirstRecord(out: out, server: server, database: "firm", url: url, stderr: err)
        kill(p.processIdentifier, SIGSTOP)
        try server.restart()
        let other = try server.holdSessions(1, seconds: 4, database: "firm", first: "SELECT pg_advisory_lock(7478191); ")
        Thread.sleep(forTimeInterval: 1)
        kill(p.processIdentifier, SIGCONT)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        for h in other { h.waitUntilExit() }
        #expect(p.terminationStatus == 8, "\(message)")
        #expect(message.contains("another shoebox command took the store's writers' lock while the server restarted"), "\(message)")
        let again = try Self.run(out: out, store: url)
        #expect(again.code == 0, "\(again.err)")
        #expect(try server.sql("SELECT count(*) FROM records", database: "firm") == "9")
    }

    /// Issue 53: every connection the server allows (`max_connections`) taken by others. A command waits for one to
    /// come free within its wait for the server, and works; past it, it stops with its own sentence, and changes nothing.
    @Test(.tags(.ocr)) func aConnectionLimitReachedIsWaitedForThenSaidByName() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try server.database("firm")
        try server.sql("ALTER SYSTEM SET max_connections = 6")
        try server.restart()
        func fill(seconds: Double) throws -> [Process] {
            let held = try server.holdSessions(6, seconds: seconds)
            // Nothing can ask the server whether they are in (no connection is left for it): they connect within a second.
            Thread.sleep(forTimeInterval: 2)
            return held
        }
        let out = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        var held = try fill(seconds: 8)
        let refused = try runProgram(
            shoebox, ["status", "--out", out.path, "--store", url], environment: Self.environment.merging(["SHOEBOX_STORE_RETRY_SECONDS": "1"]) { $1 }
        )
        #expect(refused.code == 18, "\(refused.err)")
        #expect(refused.err.contains("has no connection left") && refused.err.contains("max_connections"), "\(refused.err)")
        for p in held { p.waitUntilExit() }
        // Full for a few seconds more while a run starts: it waits, then stores every document once.
        held = try fill(seconds: 5)
        let run = try Self.run(out: out, store: url)
        for p in held { p.waitUntilExit() }
        #expect(run.code == 0, "\(run.err)")
        #expect(try server.sql("SELECT count(*) FROM records", database: "firm") == "9")
    }

    /// Issue 53: a store copied from SQLite to PostgreSQL and back by `export --format json` / `import` gives zips byte
    /// for byte the same either way; an import into a server whose disk fills stops by name and imports nothing, and
    /// with room again imports everything; an export from a store whose disk is full works (it writes nothing there).
    @Test(.tags(.ocr)) func aStoreCopiedBetweenSQLiteAndPostgreSQLExportsTheSameZipsAndAFullDiskLosesNothing() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        func zipBytes(_ out: URL) throws -> [String: Data] {
            Dictionary(uniqueKeysWithValues: try Self.zips(out).map { ($0, try Data(contentsOf: out.appendingPathComponent($0))) })
        }
        func shoebox(_ args: [String]) throws -> (code: Int32, out: String, err: String) {
            try runProgram(ShoeboxEndToEndTests.shoebox, args, environment: Self.environment)
        }
        let sqlite = work.appendingPathComponent("sqlite")
        #expect(try Self.run(out: sqlite).code == 0)
        #expect(try shoebox(["export", "--out", sqlite.path]).code == 0)
        let original = try zipBytes(sqlite)
        #expect(!original.isEmpty)
        let json = work.appendingPathComponent("store.json").path
        #expect(try shoebox(["export", "--out", sqlite.path, "--format", "json", "--file", json]).code == 0)

        guard let small = try server.databaseOnSmallDisk("small", kilobytes: 16 * 1024) else {
            Issue.record("no tmpfs can be mounted here (needs root): the full-disk import is not checked")
            return
        }
        let firm = work.appendingPathComponent("firm")
        // The store's tables made (a command that opens it), then the disk cut to what they take and a little more.
        #expect(try shoebox(["status", "--out", firm.path, "--store", small.url]).code == 0)
        func usedKilobytes() throws -> Int {
            let a = try FileManager.default.attributesOfFileSystem(forPath: small.mount)
            return ((a[.systemSize] as? Int ?? 0) - (a[.systemFreeSize] as? Int ?? 0)) / 1024
        }
        try server.roomy(small.mount, kilobytes: try usedKilobytes() + 48)
        let full = try shoebox(["import", json, "--out", firm.path, "--store", small.url, "--today", Self.day])
        #expect(full.code == 18 && full.err.contains("out of room"), "\(full.out) \(full.err)")
        #expect(try server.sql("SELECT count(*) FROM records", database: "small") == "0", "a full disk imports nothing")
        try server.roomy(small.mount, kilobytes: 16 * 1024)
        let imported = try shoebox(["import", json, "--out", firm.path, "--store", small.url, "--today", Self.day])
        #expect(imported.code == 0, "\(imported.err)")
        #expect(try server.sql("SELECT count(*) FROM records", database: "small") == "9")
        // The disk as full as it can be (what is there, and a page more): the export reads, and writes nothing there.
        try server.roomy(small.mount, kilobytes: try usedKilobytes() + 8)
        let exported = try shoebox(["export", "--out", firm.path, "--store", small.url])
        #expect(exported.code == 0, "\(exported.err)")
        #expect(try zipBytes(firm) == original, "SQLite → PostgreSQL: other zips")

        let back = work.appendingPathComponent("back")
        let json2 = work.appendingPathComponent("store2.json").path
        #expect(try shoebox(["export", "--out", firm.path, "--store", small.url, "--format", "json", "--file", json2]).code == 0)
        #expect(try shoebox(["import", json2, "--out", back.path, "--today", Self.day]).code == 0)
        #expect(try shoebox(["export", "--out", back.path]).code == 0)
        #expect(try zipBytes(back) == original, "PostgreSQL → SQLite: other zips")
    }

    /// The writers' lock is the store's, not a folder's: a run on one machine (here, one output folder) keeps an export
    /// from another (another folder) out, exit 8 naming both ways on; `--wait` waits for it.
    @Test(.tags(.ocr)) func oneWriterAtATimeAcrossMachines() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try server.database("firm")
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let (p, _) = try Self.runUntilFirstRecord(
            out: work.appendingPathComponent("office-pc"), server: server, database: "firm", url: url, stderr: nil)
        let laptop = work.appendingPathComponent("laptop").path
        let busy = try runProgram(shoebox, ["export", "--out", laptop, "--store", url], environment: Self.environment)
        #expect(p.isRunning, "the run ended before the export was tried")
        #expect(busy.code == 8 && busy.err.contains("on this machine or another") && busy.err.contains("--wait"), "\(busy.err)")
        // The refusal names the holder: its command, machine and process.
        #expect(busy.err.contains("`shoebox run` on \(ProcessInfo.processInfo.hostName) (process \(p.processIdentifier), since "), "\(busy.err)")
        // A second run of another scan folder on the same database is refused the same way, and changes nothing.
        let other = try runProgram(
            shoebox, ["run", packageRoot.appendingPathComponent("Fixtures/items").path, "--out", laptop, "--store", url, "--today", Self.day],
            environment: Self.environment)
        #expect(other.code == 8 && other.err.contains("`shoebox run` on "), "\(other.err)")
        // Reading is not writing: status answers while the run works.
        #expect(try runProgram(shoebox, ["status", "--out", laptop, "--store", url], environment: Self.environment).code == 0)
        let waited = try runProgram(shoebox, ["export", "--out", laptop, "--store", url, "--wait"], environment: Self.environment)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(waited.code == 0 && waited.out.contains("office-supplies.zip"), "\(waited.out) \(waited.err)")
        #expect(try server.sql("SELECT count(*) FROM records", database: "firm") == "9")
    }

    @Test(.tags(.ocr)) func aServerOutOfDiskStopsTheRunByNameAndWithRoomTheSameRunStoresEverything() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        guard let small = try server.databaseOnSmallDisk("small", kilobytes: 200) else {
            // Mounting needs root and a container that allows it: this machine and CI allow it. Say so where not.
            Issue.record("no tmpfs can be mounted here (needs root): the full-disk case is not checked")
            return
        }
        let out = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let full = try Self.run(out: out, store: small.url)
        #expect(full.code == 18, "\(full.out) \(full.err)")
        #expect(full.err.contains("out of room") && full.err.contains("No space left on device"), "\(full.err)")
        try server.roomy(small.mount, kilobytes: 16 * 1024)
        let again = try Self.run(out: out, store: small.url)
        #expect(again.code == 0, "\(again.err)")
        #expect(try server.sql("SELECT count(*) FROM records", database: "small") == "9")
    }
}
