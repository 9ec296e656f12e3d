internal import Foundation
#if canImport(Glibc)
internal import Glibc
#endif

/// One `shoebox run` at a time per output folder: an exclusive `flock` on `<out>/run.lock`, which the kernel
/// releases when the process ends in any way (a kill -9 leaves no stale lock).
public final class RunLock {
    private let fd: Int32
    public let path: String

    public struct Busy: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
    }

    /// Takes the lock, or throws `Busy` naming the process that holds it and its verb (`run`, `export`: the
    /// holder writes "<pid> <verb>" into the file); with `wait`, blocks until it is free.
    public init(outputDirectory: String, wait: Bool, verb: String = "run") throws(Busy) {
        try? FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        path = (outputDirectory as NSString).appendingPathComponent("run.lock")
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw Busy(message: "cannot create \(path): \(String(cString: strerror(errno))). Check that the output folder is writable.")
        }
        if flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
            // The holder's first line: "<pid> <verb>" ("<pid>" alone from an older Shoebox: a run).
            let line = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").first ?? ""
            let holder = line.split(separator: " ").map(String.init)
            close(fd)
            let pid = holder.first ?? "?", holderVerb = holder.count > 1 ? holder[1] : (holder.isEmpty ? "run or export" : "run")
            throw Busy(message: "another shoebox \(holderVerb) (process \(pid)) is working in \(outputDirectory). Wait for it to finish, or run again with --wait.")
        }
        // Written over the last holder's line, then cut to length: a reader never finds the file empty.
        let line = "\(getpid()) \(verb)\n"
        _ = line.withCString { pwrite(fd, $0, strlen($0), 0) }
        _ = ftruncate(fd, off_t(line.utf8.count))
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
