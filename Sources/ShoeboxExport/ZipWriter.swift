internal import CArchive
internal import Foundation

public struct ExportError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
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
}
