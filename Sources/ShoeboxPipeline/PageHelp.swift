internal import Foundation
internal import ShoeboxCore
internal import Synchronization

/// Counts of a run's work sharing, for `--log-json` and the tests.
public enum PipelineStats {
    static let helped = Atomic<Int>(0)
    /// Pages of a document read by a worker other than the one that owned it, since the process started.
    public static var pagesHelped: Int { helped.load(ordering: .relaxed) }
    static let idleMilliseconds = Atomic<Int>(0)
    /// Seconds workers spent with nothing to read (waiting for work, or done while another still read), summed
    /// over the workers: the part of the wall time the cores were not reading.
    public static var workerIdleSeconds: Double { Double(idleMilliseconds.load(ordering: .relaxed)) / 1000 }

    /// Runs `body`, counting its wall time as idle.
    static func idle<T>(_ body: () -> T) -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { idleMilliseconds.add(Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000), ordering: .relaxed) }
        return body()
    }
}

/// Pages of a long document that a worker with nothing else to do reads for the worker that owns the
/// document. Documents go one to a worker; when the work list runs dry, a worker would sit idle while
/// another reads a 300-page scan alone. Instead it waits here, and the owner hands it every other page
/// (one at a time, so at most one rendered page per idle worker is in flight: memory stays bounded).
final class PageHelp: @unchecked Sendable {
    /// One page to read and where its result goes.
    final class Task: @unchecked Sendable {
        let image: PageImage
        let pass: OCRPass
        private let done = NSCondition()
        private var result: Result<OCRPage, DocumentFailure>?

        /// The offering thread's crash note: a crash while another worker reads this page names its document.
        let crashNote = CrashNotes.current

        init(image: PageImage, pass: OCRPass) {
            self.image = image
            self.pass = pass
        }

        func finish(_ r: Result<OCRPage, DocumentFailure>) {
            done.lock()
            result = r
            done.broadcast()
            done.unlock()
        }

        func wait() -> Result<OCRPage, DocumentFailure> {
            done.lock()
            defer { done.unlock() }
            while result == nil { done.wait() }
            return result!
        }
    }

    private let condition = NSCondition()
    private var tasks: [Task] = []
    /// Workers still reading documents of their own.
    private var owners: Int
    /// Workers waiting in `nextTask` for a page.
    private var idle = 0

    init(workers: Int) { owners = workers }

    /// Hands a page to an idle worker, if one is waiting and has nothing queued; nil when the owner should
    /// read it itself.
    func offer(_ image: PageImage, pass: OCRPass) -> Task? {
        condition.lock()
        defer { condition.unlock() }
        guard idle > tasks.count else { return nil }
        let task = Task(image: image, pass: pass)
        tasks.append(task)
        PipelineStats.helped.add(1, ordering: .relaxed)
        condition.signal()
        return task
    }

    /// Whether a worker is waiting for a page now.
    var hasIdleWorker: Bool {
        condition.lock()
        defer { condition.unlock() }
        return idle > tasks.count
    }

    /// Called by a worker whose work list ran dry: pages to read until every worker is done with its documents.
    func nextTask() -> Task? {
        condition.lock()
        defer { condition.unlock() }
        idle += 1
        defer { idle -= 1 }
        while tasks.isEmpty && owners > 0 { condition.wait() }
        return tasks.isEmpty ? nil : tasks.removeFirst()
    }

    /// A worker has read its last document (it then helps, or leaves).
    func ownerDone() {
        condition.lock()
        owners -= 1
        condition.broadcast()
        condition.unlock()
    }
}
