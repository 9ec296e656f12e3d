internal import CArchive
internal import Foundation
internal import ShoeboxCore

/// A failure of `export` or `import`, with its own exit code (see `shoebox export --help`).
public struct ExportError: Error, CustomStringConvertible, Sendable {
    public enum Code: Int32, Sendable {
        /// The zip could not be written (disk, permissions, libarchive, libxlsxwriter).
        case write = 4
        /// The export would pass the configured size: export a date range.
        case tooLarge = 9
        /// An original of an accepted record is missing or changed since it was read.
        case originalChanged = 10
        /// An import file is from a newer Shoebox, or is not a Shoebox export.
        case importRefused = 11
        /// A folder's `.shoebox.json` is invalid.
        case folderSettings = 12
    }
    public let code: Code
    public let message: String
    public var description: String { message }

    public init(_ code: Code = .write, message: String) { self.code = code; self.message = message }
}

/// Writes a zip with libarchive: UTF-8 names, a fixed timestamp, entries in the order given.
/// Written to `<path>.partial` and renamed into place when complete.
final class ZipWriter {
    private var archive: OpaquePointer?
    private let finalPath: String
    private let partialPath: String
    /// 2020-01-01 00:00:00 UTC: zip timestamps are DOS local time, so TZ is set to UTC for the export.
    static let fixedTime: Int = 1_577_836_800

    init(path: String) throws(ExportError) {
        finalPath = path
        partialPath = path + ".partial"
        setenv("TZ", "UTC", 1)
        tzset()
        guard let a = archive_write_new() else { throw ExportError(message: "libarchive could not start a zip (out of memory?)") }
        archive = a
        try check(archive_write_set_format_zip(a), "set zip format")
        try check(archive_write_set_options(a, "zip:hdrcharset=UTF-8"), "set UTF-8 names")
        try check(archive_write_open_filename(a, partialPath), "open \(partialPath)")
    }

    deinit {
        if let archive {
            archive_write_free(archive)
            unlink(partialPath)
        }
    }

    private func check(_ rc: Int32, _ operation: String) throws(ExportError) {
        guard rc == ARCHIVE_OK || rc == ARCHIVE_WARN else {
            let message = archive.flatMap { archive_error_string($0) }.map { String(cString: $0) } ?? "unknown error"
            throw ExportError(message: "writing the zip \(finalPath) failed at \(operation): \(message)")
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
        guard written == bytes.count else { try check(Int32(ARCHIVE_FATAL), "data of \(name)"); return }
    }

    /// Adds a file from disk in 1 MiB pieces, checking on the way that its SHA-256 is still `sha256`.
    func add(name: String, file: String, size: Int64, sha256: String) throws(ExportError) {
        guard let a = archive, let entry = archive_entry_new() else { throw ExportError(message: "libarchive could not create an entry") }
        defer { archive_entry_free(entry) }
        guard let handle = FileHandle(forReadingAtPath: file) else {
            throw ExportError(.originalChanged, message: "the original \(file) of an accepted record cannot be read any more; restore it or re-run `shoebox run`.")
        }
        defer { try? handle.close() }
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
            guard n == chunk.count else { try check(Int32(ARCHIVE_FATAL), "data of \(name)"); return }
        }
        guard written == size, hasher.finalizeHex() == sha256 else {
            throw ExportError(.originalChanged, message: "the original \(file) changed since it was processed; re-run `shoebox run` before exporting.")
        }
    }

    /// Closes the archive and renames it into place.
    func finish() throws(ExportError) {
        guard let a = archive else { return }
        try check(archive_write_close(a), "close")
        archive_write_free(a)
        archive = nil
        guard rename(partialPath, finalPath) == 0 else {
            throw ExportError(message: "cannot rename \(partialPath) to \(finalPath): \(String(cString: strerror(errno)))")
        }
    }

    static var libarchiveVersion: String { String(cString: archive_version_details()) }
}

public enum ExportVersions {
    public static var libarchive: String { ZipWriter.libarchiveVersion }
    public static var libxlsxwriter: String { XLSXWriter.version }
}
