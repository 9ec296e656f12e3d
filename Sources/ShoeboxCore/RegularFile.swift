internal import Glibc

/// The one way a file that came from outside is opened: a scan or a sidecar (`InputFile`), a part of the second
/// reader (`ReaderPart`). Regular files only: what the path is is looked at before anything opens it (opening a
/// device runs its driver, a socket cannot be opened), the open never follows a link in the last component
/// (O_NOFOLLOW) and never waits (O_NONBLOCK: a FIFO with no writer would hang `open` and `read`), and what was
/// opened is looked at again. Each caller turns a refusal into its own sentence.
public enum RegularFile {
    public enum Refusal: Error, Sendable {
        /// lstat, open or fstat failed with this errno (ELOOP: a link in the last component).
        case system(Int32)
        /// The path is not a regular file: its `st_mode`.
        case notRegular(UInt32)
    }

    /// The open descriptor (the caller closes it, in blocking mode again) and the file's size, or why not.
    public static func open(_ path: String) -> Result<(fd: Int32, size: Int), Refusal> {
        var first = stat()
        guard lstat(path, &first) == 0 else { return .failure(.system(errno)) }
        guard first.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular(first.st_mode)) }
        let fd = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.system(errno)) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let err = errno
            close(fd)
            return .failure(.system(err))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return .failure(.notRegular(info.st_mode))
        }
        // A regular file never blocks; reads go back to the ordinary, blocking mode.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success((fd, Int(info.st_size)))
    }

    /// Reads from `fd` until `buffer` is full or the file ends (EINTR retried): the count read, or the errno of the
    /// read that failed.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Refusal> {
        var total = 0
        while total < buffer.count {
            let n = Glibc.read(fd, buffer.baseAddress! + total, buffer.count - total)
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.system(errno))
            }
            if n == 0 { break }
            total += n
        }
        return .success(total)
    }
}
