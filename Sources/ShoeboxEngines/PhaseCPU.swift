internal import Foundation
internal import Synchronization

/// CPU time per phase of the pipeline, all threads together, since the process started: where a run's
/// CPU goes besides tesseract's recognition (`--log-json` writes it at the end; `make bench` prints it).
public enum PhaseCPU {
    private static let totals = Mutex<[String: UInt64]>([:])

    /// Runs `body` and adds the calling thread's CPU time it took to `phase`.
    public static func measure<T, E: Error>(_ phase: String, _ body: () throws(E) -> T) throws(E) -> T {
        let before = threadNanoseconds()
        defer {
            let spent = threadNanoseconds() &- before
            totals.withLock { $0[phase, default: 0] &+= spent }
        }
        return try body()
    }

    /// Seconds per phase, rounded to 0.1.
    public static var seconds: [String: Double] {
        totals.withLock { $0.mapValues { (Double($0) / 1e8).rounded() / 10 } }
    }

    static func threadNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }
}
