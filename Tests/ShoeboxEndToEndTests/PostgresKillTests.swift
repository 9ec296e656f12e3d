import Foundation
import ShoeboxTestSupport
import Testing

/// Issue 37, done when: four `shoebox worker`s on one machine over a folder of 200 one-page documents, killed (kill -9)
/// and stopped (SIGSTOP, then SIGCONT) at seeded random moments, twenty runs: every document is in the results once
/// and the records are a SQLite run's own; documents read again are no more than those the killed and stopped workers
/// held when they were hit; nothing is left running and no lease is held after the run. The exports of the last
/// store (zips with CSV, JSON, ledger, calendar) are byte for byte those of the SQLite run. The documents are
/// born-digital PDFs (a text layer, no OCR): the queue is what is tested, not tesseract's speed. The workers allow ten
/// attempts a document: hits this frequent land on one document three times now and then, which fails it as
/// reader-crashed by design (`PostgresWorkQueueTests`), and the test is of documents that do not crash readers.
@Suite(.serialized, .tags(.slow)) struct PostgresKillTests {
    static let documents = 200
    static let rounds = 20

    /// A one-page receipt PDF with a text layer: shop, address, date and total of its own.
    static func receipt(_ k: Int) -> Data {
        let lines = ["Laden Nummer \(k)", "Hauptstrasse \(k), 10115 Berlin", "Datum 14.03.2026", "Brot 1 x \(k).50", "SUMME EUR \(k).50"]
        let text = "BT /F1 14 Tf 72 760 Td " + lines.map { "(\($0)) Tj" }.joined(separator: " 0 -24 Td ") + " ET"
        return onePagePDF(
            mediaBox: "0 0 595 842", resources: "/Font<</F1 5 0 R>>", content: text,
            extra: [Array("<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>".utf8)])
    }

    /// A small deterministic generator (SplitMix64): the same moments every time the test runs.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func start(_ arguments: [String]) throws -> Process { try PostgresRuns.start(arguments) }

    @Test func fourWorkersKilledAndStoppedAtRandomDoEveryDocumentOnceAndExportTheSame() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        for k in 1...Self.documents {
            let folder = scans.appendingPathComponent("shop-\(k % 4)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Self.receipt(k).write(to: folder.appendingPathComponent("receipt-\(k).pdf"))
        }
        let day = "2026-12-04"
        let reference = work.appendingPathComponent("sqlite")
        let single = try runProgram(shoebox, ["run", scans.path, "--out", reference.path, "--today", day, "--jobs", "2"])
        #expect(single.code == 0, "\(single.err)")
        #expect(try runProgram(shoebox, ["export", "--out", reference.path]).code == 0)
        let referenceRecords = try Data(contentsOf: reference.appendingPathComponent("records.jsonl"))

        var rng = Seeded(state: 37)
        var lastURL = ""
        var lastOut = work
        for round in 1...Self.rounds {
            let database = "round\(round)"
            let url = try server.database(database)
            let out = work.appendingPathComponent(database)
            let run = try Self.start(["run", scans.path, "--store", url, "--no-read", "--out", out.path, "--today", day])
            // The workers start once the run has queued the documents (a worker --until-empty ends on an empty queue).
            PostgresRuns.poll(
                "SELECT count(*) FROM work", on: server, database: database, seconds: 120, while: { run.isRunning },
                until: { $0 == "\(Self.documents)" })
            let worker = [
                "worker", "--store", url, "--out", work.appendingPathComponent("worker").path, "--jobs", "1", "--lease", "2", "--attempts", "10",
                "--until-empty"
            ]
            var workers = try (0..<4).map { _ in try Self.start(worker) }
            var inFlight = 0
            var hits = 0
            let deadline = Date().addingTimeInterval(300)
            while run.isRunning {
                guard Date() < deadline else {
                    Issue.record("round \(round): the run did not finish in 5 minutes")
                    for p in workers + [run] where p.isRunning {
                        kill(p.processIdentifier, SIGCONT)
                        p.terminate()
                    }
                    break
                }
                Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.6, using: &rng))
                guard run.isRunning else { break }
                let i = Int.random(in: 0..<4, using: &rng)
                let w = workers[i]
                guard w.isRunning else { continue }
                // Stopped first, so that what it holds is counted before it can claim more.
                kill(w.processIdentifier, SIGSTOP)
                let held =
                    Int(
                        (try? server.sql(
                            "SELECT count(*) FROM work WHERE state = 'running' AND worker = '\(ProcessInfo.processInfo.hostName):\(w.processIdentifier)'",
                            database: database)) ?? "") ?? 0
                inFlight += held
                hits += 1
                if Bool.random(using: &rng) {
                    kill(w.processIdentifier, SIGKILL)
                    w.waitUntilExit()
                    workers[i] = try Self.start(worker)
                } else {
                    Thread.sleep(forTimeInterval: Double.random(in: 0.2...3, using: &rng))
                    kill(w.processIdentifier, SIGCONT)
                }
            }
            run.waitUntilExit()
            for w in workers { w.waitUntilExit() }
            #expect(run.terminationStatus == 0, "round \(round)")
            #expect(hits > 0, "round \(round): no worker was hit")
            let q = try server.sql(
                """
                SELECT count(*), count(*) FILTER (WHERE state = 'done'), coalesce(sum(attempt - 1), 0),
                    count(*) FILTER (WHERE lease_until IS NOT NULL) FROM work
                """, database: database)
            let n = q.split(separator: "|").compactMap { Int($0) }
            #expect(n.count == 4 && n[0] == Self.documents && n[1] == Self.documents && n[3] == 0, "round \(round): \(q)")
            #expect(n.count == 4 && n[2] <= inFlight, "round \(round): \(n.count == 4 ? n[2] : -1) read again, \(inFlight) held when hit")
            #expect(try server.sql("SELECT count(*) FROM records", database: database) == "\(Self.documents)")
            #expect(try Data(contentsOf: out.appendingPathComponent("records.jsonl")) == referenceRecords, "round \(round): records differ")
            lastURL = url
            lastOut = out
        }
        let export = try runProgram(shoebox, ["export", "--store", lastURL, "--out", lastOut.path])
        #expect(export.code == 0, "\(export.err)")
        let zips = try FileManager.default.contentsOfDirectory(atPath: reference.appendingPathComponent("exports").path).sorted()
        #expect(zips.count == 4)
        for zip in zips {
            #expect(
                try Data(contentsOf: lastOut.appendingPathComponent("exports/" + zip))
                    == Data(contentsOf: reference.appendingPathComponent("exports/" + zip)), "\(zip) differs from the SQLite run's")
        }
    }
}
