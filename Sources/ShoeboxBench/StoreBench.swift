import Foundation
import ShoeboxStore
import Synchronization

/// `make bench-store`: the PostgreSQL work queue with a zero-cost reading stub (each page claimed, then completed at
/// once), at 1, 2, 4 and 8 workers, each on a connection of its own, over `pages` pages in a database of its own
/// (`urls`, one per worker count, made by the make target): claims per second, the median and p99 of a claim's
/// latency, round trips per page, the queue table's dead row versions after the run, and the connections used.
func storeBench(urls: [Int: String], pages: Int = 2000) {
    print("store bench: the work queue with a zero-cost reading stub, \(pages) pages per run")
    for workers in urls.keys.sorted() {
        guard let url = urls[workers] else { continue }
        do {
            _ = try Store(postgresURL: url)
            let setup = try WorkQueue(url: url, worker: "bench-setup")
            try setup.enqueue((0..<pages).map { (path: "bench/\($0).jpg", sha256: String(format: "%064x", $0), page: 1) })
            let latencies = Mutex<[Double]>([])
            let trips = Mutex(0)
            let peak = Mutex(0)
            let failed = Mutex<String?>(nil)
            let running = Atomic<Int>(workers)
            let started = DispatchTime.now().uptimeNanoseconds
            for w in 0..<workers {
                Thread {
                    defer { running.subtract(1, ordering: .releasing) }
                    do {
                        let queue = try WorkQueue(url: url, worker: "bench-\(w)")
                        var mine: [Double] = []
                        while true {
                            let t = DispatchTime.now().uptimeNanoseconds
                            guard let claim = try queue.claim() else { break }
                            mine.append(Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6)
                            _ = try queue.complete(claim)
                        }
                        latencies.withLock { $0 += mine }
                        trips.withLock { $0 += queue.roundTrips }
                    } catch { failed.withLock { $0 = "\(error)" } }
                }.start()
            }
            while running.load(ordering: .acquiring) > 0 {
                let n = (try? setup.tableStatistics().connections) ?? 0
                peak.withLock { $0 = max($0, n) }
                Thread.sleep(forTimeInterval: 0.02)
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            if let e = failed.withLock({ $0 }) {
                print("  \(workers) workers: failed: \(e)")
                continue
            }
            // The server counts dead row versions a moment after the transactions end.
            Thread.sleep(forTimeInterval: 1)
            let table = try setup.tableStatistics()
            let sorted = latencies.withLock { $0 }.sorted()
            let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
            let done = try setup.counts()["done"] ?? 0
            print(
                String(
                    format:
                        "  %d worker%@: %6.0f claims/s, claim latency median %.2f ms, p99 %.2f ms, %.1f round trips per page, %d dead row versions (%d live) after the run, %d connections at most (the workers', the bench's own)%@",
                    workers, workers == 1 ? " " : "s", Double(pages) / seconds, median, p99, Double(trips.withLock { $0 }) / Double(pages),
                    table.dead, table.live, peak.withLock { $0 }, done == pages ? "" : "; ONLY \(done) of \(pages) done"))
        } catch {
            print("  \(workers) workers: failed: \(error)")
        }
    }
}
