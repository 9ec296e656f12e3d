internal import Foundation
internal import Synchronization

/// CPU time per phase of one run, all threads together: where the run's CPU goes besides tesseract's
/// recognition (`--log-json` writes it at the end; `make bench` prints it). A run makes one and hands it to
/// every stage it measures; nothing is counted process-wide.
public final class PhaseCPU: Sendable {
    private let totals = Mutex<[String: UInt64]>([:])
    private let tallies = Mutex<[String: Int]>([:])

    public init() {}

    /// Runs `body` and adds the calling thread's CPU time it took to `phase`, and one to the tally "`phase` calls"
    /// (the second reader's strips read, the pages rendered: what one call of the phase costs).
    public func measure<T, E: Error>(_ phase: String, _ body: () throws(E) -> T) throws(E) -> T {
        let before = PhaseCPU.threadNanoseconds()
        defer {
            let spent = PhaseCPU.threadNanoseconds() &- before
            totals.withLock { $0[phase, default: 0] &+= spent }
            tallies.withLock { $0["\(phase) calls", default: 0] += 1 }
        }
        return try body()
    }

    /// Seconds per phase, rounded to 0.1.
    public var seconds: [String: Double] {
        totals.withLock { $0.mapValues { (Double($0) / 1e8).rounded() / 10 } }
    }

    /// Adds `n` to the tally `name` (lines read, lines read again): what the phases' time was spent on.
    public func count(_ name: String, _ n: Int) { tallies.withLock { $0[name, default: 0] += n } }

    public var counts: [String: Int] { tallies.withLock { $0 } }

    static func threadNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }
}

extension Optional where Wrapped == PhaseCPU {
    /// Runs `body`, measured when there is a run's `PhaseCPU` to count it in (a tool or test reading one page
    /// has none).
    public func measure<T, E: Error>(_ phase: String, _ body: () throws(E) -> T) throws(E) -> T {
        guard let cpu = self else { return try body() }
        return try cpu.measure(phase, body)
    }
}
