import Foundation
import ShoeboxJudgement
import ShoeboxTestSupport
import Testing

@testable import ShoeboxStore

/// Issue 37, the work queue on a real PostgreSQL server: four workers on their own connections race for 200 pages while
/// a fifth claims three and dies (never completes, never renews): every page ends done exactly once, the dead worker's
/// pages are taken again with attempt 2 once their lease and back-off ran out, its late completion changes nothing,
/// nothing is left running, and a page whose lease runs out on its last attempt fails by name.
@Suite(.tags(.slow)) struct PostgresWorkQueueTests {
    @Test func fourWorkersAndADeadOneDoEveryPageExactlyOnce() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try server.database("queue")
        _ = try Store(postgresURL: url)
        let pages = (0..<200).map { (path: "f/doc\($0 / 4).pdf", sha256: String(repeating: "a", count: 64), page: $0 % 4 + 1) }
        let dead = try WorkQueue(url: url, worker: "dead", leaseSeconds: 1, backoffSeconds: 0.5)
        #expect(try dead.enqueue(pages) == 200)
        #expect(try dead.enqueue(pages) == 0, "queued twice, kept once")
        let abandoned = try (0..<3).map { _ in try #require(try dead.claim()) }

        let done = Locked<[Int64: [String]]>([:])
        let errors = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { n in
            do {
                let queue = try WorkQueue(url: url, worker: "w\(n)", leaseSeconds: 10, backoffSeconds: 0.5)
                var idle = 0
                while idle < 40 {
                    guard let claim = try queue.claim() else {
                        idle += 1
                        Thread.sleep(forTimeInterval: 0.1)
                        continue
                    }
                    idle = 0
                    #expect(try queue.heartbeat(claim))
                    if try queue.complete(claim) { done.withLock { $0[claim.id, default: []].append("w\(n)#\(claim.attempt)") } }
                }
            } catch { errors.withLock { $0.append("\(error)") } }
        }
        #expect(errors.withLock { $0 }.isEmpty, "\(errors.withLock { $0 })")
        let finished = done.withLock { $0 }
        #expect(finished.count == 200 && finished.values.allSatisfy { $0.count == 1 }, "\(finished.filter { $0.value.count != 1 })")
        for a in abandoned { #expect(finished[a.id]?.first?.hasSuffix("#2") == true, "taken again with attempt 2: \(finished[a.id] ?? [])") }
        // The dead worker wakes: its completion and its heartbeat are refused, and change nothing.
        #expect(try !dead.complete(abandoned[0]))
        #expect(try !dead.heartbeat(abandoned[1]))
        #expect(try dead.counts() == ["done": 200])
    }

    @Test func aPageWhoseLeaseRunsOutOnItsLastAttemptFailsByName() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try server.database("crashes")
        _ = try Store(postgresURL: url)
        let queue = try WorkQueue(url: url, worker: "w", leaseSeconds: 0.2, backoffSeconds: 0, maxAttempts: 2)
        try queue.enqueue([(path: "f/crashes.pdf", sha256: String(repeating: "b", count: 64), page: 1)])
        #expect(try queue.claim()?.attempt == 1)
        Thread.sleep(forTimeInterval: 0.4)
        let second = try #require(try queue.claim())
        #expect(second.attempt == 2)
        Thread.sleep(forTimeInterval: 0.4)
        #expect(try queue.claim() == nil)
        #expect(try queue.counts() == ["failed": 1])
        #expect(try !queue.complete(second))
    }
}

/// A value several threads change, under a lock.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
