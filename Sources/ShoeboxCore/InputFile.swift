internal import Foundation
internal import Glibc

/// Opening a file that came from outside (a scan, a sidecar): regular files only, never through a symbolic
/// link, never blocking on a FIFO or a device, and no read larger than the caller's bound.
public enum InputFile {
    /// Reads are made in pieces of this size: hashing a file holds no more than this of it.
    static let chunk = 1 << 20

    /// Opens `path` for reading as a regular file (`RegularFile.open`), or names why it cannot be.
    static func open(_ path: String) -> Result<(fd: Int32, size: Int), DocumentFailure> {
        RegularFile.open(path).mapError { refusal in
            switch refusal {
            // A name the store cannot hold was listed under another (IntakeStage.Listing.misnamed) and refused by it.
            case .system(ENOENT), .system(ENOTDIR): .missingFile
            case .system(ELOOP): .notARegularFile("a symbolic link")
            case .system(EACCES), .system(EPERM): .unreadable("permission denied")
            case .system(let err): .unreadable(String(cString: strerror(err)))
            case .notRegular(let mode): .notARegularFile(InputFile.kind(mode))
            }
        }
    }

    /// What a special file is, in words.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFDIR: return "a folder"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }

    /// Reads at most `limit` bytes into `buffer`'s storage; the count read, or nil on a read error.
    private static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        try? RegularFile.read(fd, into: buffer).get()
    }

    /// A whole regular file, refused when it is larger than `limit` bytes (`tooLarge` names the failure).
    public static func readAll(_ path: String, limit: Int, tooLarge: (Int) -> DocumentFailure) -> Result<[UInt8], DocumentFailure> {
        let fd: Int32
        let size: Int
        switch open(path) {
        case .success(let opened): (fd, size) = opened
        case .failure(let f): return .failure(f)
        }
        defer { close(fd) }
        guard size <= limit else { return .failure(tooLarge(size)) }
        // One byte more than the limit is asked for, so a file that grew past it since fstat is caught too.
        var bytes = [UInt8](repeating: 0, count: min(size, limit) + 1)
        guard let count = bytes.withUnsafeMutableBytes({ read(fd, into: $0) }) else {
            return .failure(.unreadable(String(cString: strerror(errno))))
        }
        guard count <= limit else { return .failure(tooLarge(count)) }
        bytes.removeLast(bytes.count - count)
        return .success(bytes)
    }

    /// The first `head` bytes, the SHA-256 and the size of a regular file, read a piece at a time: a file of
    /// any size is hashed in the memory of one piece.
    package static func inspect(_ path: String, head: Int) -> Result<(head: [UInt8], sha256: String, size: Int), DocumentFailure> {
        let fd: Int32
        switch open(path) {
        case .success(let opened): fd = opened.fd
        case .failure(let f): return .failure(f)
        }
        defer { close(fd) }
        var hash = SHA256()
        var first: [UInt8] = []
        var size = 0
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            guard let n = buffer.withUnsafeMutableBytes({ read(fd, into: $0) }) else {
                return .failure(.unreadable(String(cString: strerror(errno))))
            }
            if n == 0 { break }
            if first.count < head { first += buffer[0..<min(n, head - first.count)] }
            hash.update(buffer[0..<n])
            size += n
            if n < chunk { break }
        }
        return .success((first, hash.finalizeHex(), size))
    }
}
