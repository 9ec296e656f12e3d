internal import CArchive
internal import Foundation
internal import ShoeboxCore

#if canImport(Glibc)
    internal import Glibc
#endif

/// A failure of `export` or `import`: its kind and sentence. The command line gives each kind its exit code
/// (see `shoebox export --help`).
public struct ExportError: Error, CustomStringConvertible, Sendable {
    public enum Code: Sendable {
        /// The zip could not be written (disk, permissions, libarchive, libxlsxwriter).
        case write
        /// The export would pass the configured size: export a date range.
        case tooLarge
        /// An original of an accepted record is missing or changed since it was read.
        case originalChanged
        /// A folder's `.shoebox.json` is invalid.
        case folderSettings
        /// Two folders would get the same zip name (`ExportNaming.zipStem`): refused, nothing overwritten.
        case nameClash
    }
    public let code: Code
    public let message: String
    public var description: String { message }

    public init(_ code: Code = .write, message: String) {
        self.code = code
        self.message = message
    }
}

/// Writes a zip with libarchive: UTF-8 names, a fixed timestamp, entries in the order given.
/// Written to a temporary file of its own (`TemporaryFile`: `<path>.partial-XXXXXX`, unique per process, in
/// the same folder) and renamed into place when complete, so two writers never share a half-written file
/// and the final name only ever holds a whole zip. Removed when anything fails.
final class ZipWriter {
    private var archive: OpaquePointer?
    private let finalPath: String
    private var file: TemporaryFile?
    /// 2020-01-01 00:00:00 UTC: zip timestamps are DOS local time, so TZ is set to UTC for the export.
    static let fixedTime: Int = 1_577_836_800

    init(path: String) throws(ExportError) {
        finalPath = path
        setenv("TZ", "UTC", 1)
        tzset()
        let file = try TemporaryFile(beside: path)
        self.file = file
        guard let a = archive_write_new() else { throw ExportError(message: "libarchive could not start a zip (out of memory?)") }
        archive = a
        try check(archive_write_set_format_zip(a), "set zip format")
        try check(archive_write_set_options(a, "zip:hdrcharset=UTF-8"), "set UTF-8 names")
        try check(archive_write_open_fd(a, file.fd), "open \(file.path)")
    }

    deinit {
        if let archive { archive_write_free(archive) }
        // A zip not finished: its temporary file goes (TemporaryFile's deinit).
    }

    private func check(_ rc: Int32, _ operation: String) throws(ExportError) {
        guard rc == ARCHIVE_OK || rc == ARCHIVE_WARN else {
            let message = archive.flatMap { archive_error_string($0) }.map { String(cString: $0) } ?? "unknown error"
            throw ExportError(message: "writing the zip \(StoredPath.shown(finalPath)) failed at \(operation): \(message)")
        }
    }

    func add(name: String, bytes: [UInt8]) throws(ExportError) {
        guard let a = archive, let entry = archive_entry_new() else { throw ExportError(message: "libarchive could not create an entry") }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname_utf8(entry, name)
        archive_entry_set_size(entry, la_int64_t(bytes.count))
        archive_entry_set_filetype(entry, CArchive_AE_IFREG)
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_mtime(entry, ZipWriter.fixedTime, 0)
        try check(archive_write_header(a, entry), "header of \(name)")
        let written = bytes.withUnsafeBytes { p in archive_write_data(a, p.baseAddress, p.count) }
        guard written == bytes.count else {
            try check(Int32(ARCHIVE_FATAL), "data of \(name)")
            return
        }
    }

    /// Adds a file from disk in 1 MiB pieces, checking on the way that its SHA-256 is still `sha256`.
    func add(name: String, file: String, size: Int64, sha256: String) throws(ExportError) {
        guard let a = archive, let entry = archive_entry_new() else { throw ExportError(message: "libarchive could not create an entry") }
        defer { archive_entry_free(entry) }
        // Never a link, never a FIFO or device (O_NONBLOCK: opening a FIFO does not wait): a regular file only.
        let fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        var info = stat()
        guard fd >= 0, fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            if fd >= 0 { close(fd) }
            throw ExportError(
                .originalChanged,
                message:
                    "the original \(StoredPath.shown(file)) of an accepted record cannot be read any more (missing, or no longer a regular file); restore it or re-run `shoebox run`."
            )
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        archive_entry_set_pathname_utf8(entry, name)
        archive_entry_set_size(entry, la_int64_t(size))
        archive_entry_set_filetype(entry, CArchive_AE_IFREG)
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_mtime(entry, ZipWriter.fixedTime, 0)
        try check(archive_write_header(a, entry), "header of \(name)")
        var hasher = SHA256()
        var written: Int64 = 0
        while true {
            let chunk = (try? handle.read(upToCount: 1 << 20)) ?? Data()
            if chunk.isEmpty { break }
            hasher.update(chunk)
            written += Int64(chunk.count)
            guard written <= size else { break }
            let n = chunk.withUnsafeBytes { p in archive_write_data(a, p.baseAddress, p.count) }
            guard n == chunk.count else {
                try check(Int32(ARCHIVE_FATAL), "data of \(name)")
                return
            }
        }
        guard written == size, hasher.finalizeHex() == sha256 else {
            throw ExportError(
                .originalChanged,
                message: "the original \(StoredPath.shown(file)) changed since it was processed; re-run `shoebox run` before exporting.")
        }
    }

    /// Closes the archive and renames it into place.
    func finish() throws(ExportError) {
        guard let a = archive, let file else { return }
        try check(archive_write_close(a), "close")
        archive_write_free(a)
        archive = nil
        try file.commit(to: finalPath)
        self.file = nil
    }

    static var libarchiveVersion: String { String(cString: archive_version_details()) }
}

public enum ExportVersions {
    public static var libarchive: String { ZipWriter.libarchiveVersion }
    public static var libxlsxwriter: String { XLSXWriter.version }
}

/// A file of this process only, created beside its final path (`<path>.partial-XXXXXX`, `mkstemp`: exclusive,
/// unique even when two exports run at once) with the permissions a new file gets under the umask; renamed
/// to its final name by `commit`, removed when dropped without one.
final class TemporaryFile {
    let path: String
    private(set) var fd: Int32

    init(beside finalPath: String) throws(ExportError) {
        var template = Array((finalPath + ".partial-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw ExportError(
                message:
                    "cannot create a temporary file beside \(StoredPath.shown(finalPath)): \(String(cString: strerror(errno))). Check that the folder exists, is writable and has space."
            )
        }
        self.fd = fd
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // mkstemp makes 0600; an export is a file like any other (0666 less the umask, as open(2) would give).
        let mask = umask(0)
        umask(mask)
        _ = fchmod(fd, 0o666 & ~mask)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// Writes all of `bytes`, or throws.
    func write(_ bytes: [UInt8]) throws(ExportError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw ExportError(message: "cannot write \(StoredPath.shown(path)): \(String(cString: strerror(errno))). Check the disk has space.")
            }
            done += n
        }
    }

    /// Flushes to disk, closes and renames into place (atomic: the final name holds the old file or the new one).
    func commit(to finalPath: String) throws(ExportError) {
        guard fd >= 0 else { return }
        let synced = fsync(fd) == 0
        let syncError = errno
        close(fd)
        fd = -1
        guard synced else {
            unlink(path)
            throw ExportError(message: "cannot write \(StoredPath.shown(path)): \(String(cString: strerror(syncError))). Check the disk has space.")
        }
        guard rename(path, finalPath) == 0 else {
            let e = errno
            unlink(path)
            throw ExportError(
                message:
                    "cannot rename \(StoredPath.shown(path)) to \(StoredPath.shown(finalPath)): \(String(cString: strerror(e))). Remove or rename what is at \(StoredPath.shown(finalPath)), or check the folder is writable."
            )
        }
    }

    deinit {
        if fd >= 0 {
            close(fd)
            unlink(path)
        }
    }
}

/// Writes a whole file through a `TemporaryFile` beside it (`export --format json --file`).
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String) throws(ExportError) {
        let file = try TemporaryFile(beside: path)
        try file.write(bytes)
        try file.commit(to: path)
    }
}
