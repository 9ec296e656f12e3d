internal import Foundation
internal import ShoeboxCore

#if canImport(Glibc)
    internal import Glibc
#endif

/// One `shoebox run`, `export`, `import` or `review --apply` at a time per output folder: an exclusive `flock`
/// on `<out>/run.lock`, which the kernel releases when the process ends in any way (a kill -9 leaves no stale lock).
public final class RunLock {
    private let fd: Int32
    public let path: String

    /// Why the lock was not taken. Only a lock another process holds (`EWOULDBLOCK`) is `busy`; every other
    /// cause (the folder cannot be created or written, `--out` is a file, `run.lock` is a folder) is
    /// `unusable`, with the system's reason, so the user fixes the folder instead of waiting for a run that
    /// does not exist.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public enum Reason: Sendable, Equatable { case busy, unusable }
        public let reason: Reason
        public let message: String
        public var description: String { message }
    }

    /// The name this error had when every failure was "busy"; code that still catches it must look at `reason`.
    public typealias Busy = Failure

    /// Takes the lock, or throws naming the process that holds it and its verb (`busy`; the holder writes
    /// "<pid> <verb>" into the file: `run`, `export`, `import`, `review`) or what is wrong with the folder (`unusable`); with
    /// `wait`, blocks until the lock is free.
    public init(outputDirectory: String, wait: Bool, verb: String = "run") throws(Failure) {
        func unusable(_ message: String) -> Failure { Failure(reason: .unusable, message: message) }
        path = PathText.joined(outputDirectory, "run.lock")
        if let problem = RunLock.makeDirectory(outputDirectory) { throw unusable(problem) }
        var fd: Int32
        repeat { fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644) } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            let code = errno
            if code == EISDIR {
                throw unusable(
                    "\(StoredPath.shown(path)) is a folder, not the lock file a run needs. Remove it (`rmdir \(StoredPath.shown(path))`) and run again."
                )
            }
            if code == ELOOP {
                throw unusable(
                    "\(StoredPath.shown(path)) is a symbolic link; a run's lock file is never followed through a link. Remove the link and run again."
                )
            }
            throw unusable(
                "cannot create \(StoredPath.shown(path)): \(RunLock.reason(code)). Check that the output folder is writable by this user, or choose another with --out."
            )
        }
        var result: Int32
        repeat { result = flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) } while result != 0 && errno == EINTR
        if result != 0 {
            let code = errno
            close(fd)
            guard code == EWOULDBLOCK else {
                throw unusable(
                    "cannot lock \(StoredPath.shown(path)): \(RunLock.reason(code)). The output folder must be on a file system that supports locks (a local disk); choose another with --out."
                )
            }
            // The holder's first line: "<pid> <verb>" ("<pid>" alone from an older Shoebox: a run).
            let line = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").first ?? ""
            let holder = line.split(separator: " ").map(String.init)
            let pid = holder.first ?? "?"
            let holderVerb = holder.count > 1 ? holder[1] : (holder.isEmpty ? "command" : "run")
            throw Failure(
                reason: .busy,
                message:
                    "another shoebox \(holderVerb) (process \(pid)) is working in \(StoredPath.shown(outputDirectory)). Wait for it to finish, or run again with --wait."
            )
        }
        self.fd = fd
        // Written over the last holder's line, then cut to length: a reader never finds the file empty.
        let line = "\(getpid()) \(verb)\n"
        _ = line.withCString { pwrite(fd, $0, strlen($0), 0) }
        _ = ftruncate(fd, off_t(line.utf8.count))
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }

    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Creates `directory` and its parents (like `mkdir -p`); nil when it exists as a folder afterwards, else
    /// a sentence naming the part that failed and the system's reason.
    static func makeDirectory(_ directory: String) -> String? {
        var st = stat()
        if stat(directory, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else {
                return
                    "the output folder \(StoredPath.shown(directory)) is a file, not a folder. Give --out a folder (it is created when missing), or move the file away."
            }
            return nil
        }
        let missing = errno
        guard missing == ENOENT else {
            return "cannot use the output folder \(StoredPath.shown(directory)): \(reason(missing)). Choose another folder with --out."
        }
        let parent = PathText.parent(of: directory)
        if !parent.isEmpty, parent != directory, let problem = makeDirectory(parent) { return problem }
        if mkdir(directory, 0o755) != 0, errno != EEXIST {
            return
                "cannot create the output folder \(StoredPath.shown(directory)): \(reason(errno)). Check that its parent folder is writable by this user, or choose another with --out."
        }
        return nil
    }
}
