internal import CrashNote
internal import Foundation
internal import Glibc
internal import ShoeboxCore

/// The documents that crashed a run: `crashes.tsv` in the output folder, one line per crash written by the
/// signal handler of `CrashNote` (sha256, tab, relative path escaped, tab, signal number). The next run fails
/// such a document as reader-crashed instead of reading it again, so one bad file cannot stop every run.
public enum CrashNotes {
    public static let fileName = "crashes.tsv"

    /// One crash: the bytes and the path that were being read, and the signal.
    public struct Crash: Sendable, Equatable {
        public let sha256: String
        public let signal: Int32

        /// The signal's name, as a person looking it up would write it.
        public var signalName: String {
            switch signal {
            case SIGSEGV: return "SIGSEGV, a memory fault"
            case SIGBUS: return "SIGBUS, a memory fault"
            case SIGILL: return "SIGILL, a failed check"
            case SIGTRAP: return "SIGTRAP, a failed check"
            case SIGFPE: return "SIGFPE, an arithmetic fault"
            case SIGABRT: return "SIGABRT, an abort in a library"
            default: return "signal \(signal)"
            }
        }
    }

    /// Writes crash notes to this output folder's file from now on (the handlers are installed once per
    /// process; a later run in the same process into another folder moves the notes there).
    public static func install(outputDirectory: String) {
        installLock.lock()
        defer { installLock.unlock() }
        let path = PathText.joined(outputDirectory, fileName)
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { return }
        if let installed {
            // The handler keeps writing to the same descriptor number: it now names the new file.
            _ = dup2(fd, installed)
            _ = fcntl(installed, F_SETFD, FD_CLOEXEC)
            close(fd)
        } else {
            CrashNote_install(fd)
            installed = fd
        }
    }

    nonisolated(unsafe) private static var installed: Int32?
    private static let installLock = NSLock()

    /// Around a worker thread's life: its own signal stack, so that even a stack overflow leaves a note.
    static func threadStarted() { CrashNote_threadStarted() }
    static func threadEnding() {
        Thread.current.threadDictionary[noteKey] = nil
        CrashNote_threadEnding()
    }

    /// Notes that the calling thread now reads `source` (nil: nothing).
    static func reading(_ source: SourceFile?) {
        note(source.map { $0.sha256 + "\t" + escape($0.relativePath) } ?? "")
    }

    /// Sets the calling thread's note as it is written on a crash ("": nothing).
    static func note(_ text: String) {
        Thread.current.threadDictionary[noteKey] = text
        CrashNote_set(text)
    }

    /// The calling thread's note, to hand on with a page another worker reads.
    static var current: String { Thread.current.threadDictionary[noteKey] as? String ?? "" }

    private static let noteKey = "shoebox.crashNote"

    /// The crashes noted so far, by relative path (the latest per path).
    public static func load(outputDirectory: String) -> [String: Crash] {
        let path = PathText.joined(outputDirectory, fileName)
        guard case .success(let bytes) = InputFile.readAll(path, limit: 16 << 20, tooLarge: { _ in .emptyFile }) else { return [:] }
        var out: [String: Crash] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 64, let signal = Int32(parts[2]) else { continue }
            out[unescape(String(parts[1]))] = Crash(sha256: String(parts[0]), signal: signal)
        }
        return out
    }

    /// A path on one line of the file: `%`, tab, newline and carriage return as `%25`, `%09`, `%0A`, `%0D`.
    static func escape(_ path: String) -> String {
        path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\t", with: "%09")
            .replacingOccurrences(of: "\n", with: "%0A").replacingOccurrences(of: "\r", with: "%0D")
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
            .replacingOccurrences(of: "%09", with: "\t").replacingOccurrences(of: "%25", with: "%")
    }
}
