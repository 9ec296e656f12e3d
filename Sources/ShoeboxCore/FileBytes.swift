public import Foundation

/// Writes a file at a path a person or the run gives, by POSIX calls on the path as given (no `URL` made from it:
/// Foundation's path guessing crashed on some paths, issue 53). A failure throws the system's error
/// (`POSIXError`), which `SystemReason.of` says in words.
public enum FileBytes {
    /// Writes `data` to `path`. `atomically`: into a new file beside it, renamed over `path` when complete, so a
    /// reader sees the old file or the new one, never half of one (a link at `path` is replaced, not followed).
    /// Otherwise `path` is opened (created or truncated) and written in place.
    public static func write(_ data: Data, to path: String, atomically: Bool = true) throws {
        guard atomically else { return try writeWhole(data, to: path, flags: O_CREAT | O_TRUNC) }
        // A short name of its own, so that a 255-byte file name still has room for its scratch file.
        let scratch = PathText.joined(PathText.parent(of: path), ".shoebox-write-\(getpid())-\(UInt64.random(in: 0 ... .max))")
        do {
            try writeWhole(data, to: scratch, flags: O_CREAT | O_EXCL)
            guard rename(scratch, path) == 0 else { throw POSIXError.current() }
        } catch {
            unlink(scratch)
            throw error
        }
    }

    static func writeWhole(_ data: Data, to path: String, flags: Int32) throws {
        let fd = open(path, O_WRONLY | O_CLOEXEC | flags, 0o666)
        guard fd >= 0 else { throw POSIXError.current() }
        var failure: POSIXError?
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var done = 0
            while done < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else {
                    failure = n < 0 ? POSIXError.current() : POSIXError(.EIO)
                    return
                }
                done += n
            }
        }
        // A full disk may only show at close (NFS, quotas): its error counts like a write's.
        if close(fd) != 0, failure == nil { failure = POSIXError.current() }
        if let failure { throw failure }
    }
}

extension POSIXError {
    /// The error `errno` holds now (EIO when it holds none the system names).
    static func current() -> POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
