import Foundation

/// The system's own reason for a failed file operation ("Permission denied", "No space left on device"),
/// for sentences shown to people. Foundation's errors print as "The operation could not be completed.
/// (Cocoa error 4.)" or "Error Domain=NSCocoaErrorDomain Code=…", which tell a user nothing: the POSIX
/// error underneath is read instead (`strerror`), and a known Cocoa file code is said in words.
public enum SystemReason {
    public static func of(_ error: any Error) -> String {
        let ns = error as NSError
        if let code = posixCode(ns) { return String(cString: strerror(code)) }
        if ns.domain == NSCocoaErrorDomain, let words = cocoaFileCodes[ns.code] { return words }
        if ns.domain == NSCocoaErrorDomain { return "the system refused it (file error \(ns.code))" }
        return String(describing: error)
    }

    /// The errno behind an error: the error itself in the POSIX domain, or the error it wraps.
    static func posixCode(_ ns: NSError) -> Int32? {
        if ns.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: ns.code) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError { return posixCode(underlying) }
        return nil
    }

    static let cocoaFileCodes: [Int: String] = [
        NSFileNoSuchFileError: "No such file or directory",
        NSFileReadNoSuchFileError: "No such file or directory",
        NSFileReadNoPermissionError: "Permission denied",
        NSFileWriteNoPermissionError: "Permission denied",
        NSFileWriteOutOfSpaceError: "No space left on device",
        NSFileWriteVolumeReadOnlyError: "Read-only file system",
        NSFileWriteFileExistsError: "A file or folder of that name already exists",
        NSFileReadCorruptFileError: "The file is damaged or not in the expected format",
        NSFileReadTooLargeError: "The file is too large to read",
        NSFileReadUnknownError: "The file could not be read",
        NSFileWriteUnknownError: "The file could not be written",
        NSFileWriteInvalidFileNameError: "The file name is not valid"
    ]

    /// Why JSONSerialization refused some bytes, as its own plain words ("Unexpected end of file during JSON
    /// parse."), without Foundation's "The operation could not be completed" around them.
    static func ofJSON(_ error: any Error) -> String {
        let ns = error as NSError
        if let detail = ns.userInfo[NSDebugDescriptionErrorKey] as? String, !detail.isEmpty {
            return detail.hasSuffix(".") ? String(detail.dropLast()) : detail
        }
        return "check the brackets, commas and quotes"
    }
}
