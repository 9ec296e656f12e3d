import Foundation
import ShoeboxCore
import ShoeboxEngines
import ShoeboxPipeline

/// How `shoebox run` shows its progress: a live line on stderr when stderr is a terminal (files, pages,
/// pages per second, ETA), nothing of it otherwise; with `--log-json FILE`, one JSON event per line in FILE
/// (for cron logs). Events arrive on one thread only (the store writer's), so no lock is needed.
final class RunProgress: @unchecked Sendable {
    let live: Bool
    let log: FileHandle?
    let start = Date()
    var total = 0
    var files = 0
    var pages = 0
    var lineShown = false

    let logPath: String?
    /// Why the log could not be written, from the first write that failed (a full disk): the run goes on, its
    /// records are stored, and `run` exits 4 saying so at the end.
    private(set) var logFailure: String?

    init(live: Bool, logPath: String?) throws {
        self.live = live
        self.logPath = logPath
        if let logPath {
            // Opened in place (a device such as /dev/stdout stays one): never written to a temporary file and renamed.
            let fd = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw PipelineError(
                    code: .store,
                    message:
                        "cannot write the log \(StoredPath.shown(logPath)) (\(String(cString: strerror(errno)))). Check the folder exists and is writable."
                )
            }
            log = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        } else {
            log = nil
        }
    }

    /// The sentence `run` ends with when its log could not be written, or nil when it was.
    var logProblem: String? {
        guard let logFailure, let logPath else { return nil }
        return
            "the run finished and its records are stored, but its log \(StoredPath.shown(logPath)) could not be written (\(logFailure)), so the log is incomplete. "
            + "Free space on that device or give --log-json another file; the next run writes it again."
    }

    var elapsed: Double { Date().timeIntervalSince(start) }

    func handle(_ event: RunEvent) {
        switch event {
        case .started(let files, let toRead):
            total = toRead
            write(["event": "started", "files": files, "toRead": toRead])
        case .document(let source, let status, let reasons, let pageCount, let done):
            files = done
            pages += pageCount
            write(["event": "document", "source": source, "status": status.rawValue, "reasons": reasons, "pages": pageCount])
            if live { show("\(StoredPath.shown(source)): \(status.rawValue)") }
        case .note(let text):
            write(["event": "note", "text": text])
            if live {
                clear()
                FileHandle.standardError.write(Data("\(text)\n".utf8))
            }
        }
    }

    /// The live line: "[12/40 files] 15 pages, 1.4 pages/s, ETA 0:21 — folder/file.jpg: accepted".
    func show(_ last: String) {
        let rate = elapsed > 0 ? Double(pages) / elapsed : 0
        let filesPerSecond = elapsed > 0 ? Double(files) / elapsed : 0
        let left = max(0, total - files)
        let eta = filesPerSecond > 0 ? RunProgress.duration(Double(left) / filesPerSecond) : "?"
        let text = String(format: "[%d/%d files] %d pages, %.1f pages/s, ETA %@ — %@", files, max(total, files), pages, rate, eta, last)
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text.prefix(200))".utf8))
        lineShown = true
    }

    func clear() {
        if lineShown {
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            lineShown = false
        }
    }

    func finish(_ summary: RunSummary, metrics: RunMetrics) {
        clear()
        let failures = Dictionary(grouping: summary.failures, by: { $0.failure?.code ?? "unknown" }).mapValues(\.count)
        write([
            "event": "finished", "files": summary.found, "processed": summary.processed, "skipped": summary.skipped,
            "pages": summary.pages, "seconds": (elapsed * 10).rounded() / 10, "pagesHelped": metrics.pagesHelped,
            "workerIdleSeconds": (metrics.workerIdleSeconds * 10).rounded() / 10,
            // CPU seconds: tesseract's recognition, and the whole process (make bench compares them).
            "cpuSeconds": metrics.cpu.seconds.merging(["process": (RunProgress.processCPUSeconds * 10).rounded() / 10]) { a, _ in a },
            // Lines of OCR'd pages, and of those the lines the second reader read again.
            "counts": metrics.cpu.counts,
            "states": Dictionary(uniqueKeysWithValues: summary.counts.map { ($0.key.rawValue, $0.value) }), "failures": failures,
            // Each tesseract patch "on", or "off: why" (TesseractPatches.swift).
            "tesseractPatches": (TesseractPatchCheck.report ?? .notChecked).states
        ])
        try? log?.close()
    }

    static var processCPUSeconds: Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    func write(_ object: [String: Any]) {
        guard let log, logFailure == nil else { return }
        var o = object
        o["time"] = ISO8601DateFormatter().string(from: Date())
        guard let data = try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        do { try log.write(contentsOf: data + Data("\n".utf8)) } catch { logFailure = SystemReason.of(error) }
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
