internal import Foundation
internal import Glibc
internal import ShoeboxCore

/// The second reader's parts are files that someone put in a folder (`make setup`, or any folder SHOEBOX_READERS
/// names): each is checked as a file before ONNX Runtime or the dynamic loader sees it. A part is usable when it is
/// a regular file, not a symbolic link (the last component is never followed), opened without waiting (a FIFO
/// with no writer would hang `open`, and with it `shoebox --version` and every run), and of 1 byte up to its
/// bound. Anything else is "not usable", with its reason and what to do.
enum ReaderPart {
    /// ONNX Runtime's library is 33 MiB (1.32.0); the models 4.5 and 10.4 MiB.
    static let maxLibraryBytes = 256 << 20
    static let maxModelBytes = 64 << 20

    /// The failure for `path`, whose folder is `directory`: `what` says what the file is instead.
    static func notUsable(_ path: String, _ what: String) -> OCREngineError {
        let directory = PathText.parent(of: path)
        return OCREngineError(
            message:
                "its part \(path) is not usable: \(what); put the real file there (`readers/install.sh \(directory)`, "
                + "which `make setup` runs for /usr/local/lib/shoebox), or set SHOEBOX_READERS to a folder that holds it")
    }

    static func missing(_ path: String) -> OCREngineError {
        OCREngineError(message: "its parts are not installed: \(path) is missing (run `make setup`, or set SHOEBOX_READERS)")
    }

    /// What a file that is not a regular one is, in words.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "it is a FIFO (named pipe), not a regular file"
        case S_IFDIR: "it is a folder, not a regular file"
        case S_IFLNK: "it is a symbolic link, which is not followed"
        case S_IFSOCK: "it is a socket, not a regular file"
        case S_IFCHR: "it is a character device, not a regular file"
        case S_IFBLK: "it is a block device, not a regular file"
        default: "it is not a regular file"
        }
    }

    /// Opens `path` for reading when it is a usable part: the descriptor (the caller closes it) and the size.
    static func open(_ path: String, maxBytes: Int) -> Result<(fd: Int32, size: Int), OCREngineError> {
        let fd: Int32
        let size: Int
        switch RegularFile.open(path) {
        case .success(let opened): (fd, size) = opened
        case .failure(.system(let err)):
            switch err {
            case ENOENT, ENOTDIR: return .failure(missing(path))
            case ELOOP: return .failure(notUsable(path, kind(S_IFLNK)))
            case EACCES, EPERM: return .failure(notUsable(path, "it cannot be read (permission denied)"))
            default: return .failure(notUsable(path, "it cannot be opened (\(String(cString: strerror(err))))"))
            }
        case .failure(.notRegular(let mode)): return .failure(notUsable(path, kind(mode)))
        }
        var why: OCREngineError?
        if size == 0 {
            why = notUsable(path, "it is empty")
        } else if size > maxBytes {
            why = notUsable(path, "it is \(ByteCount.text(Int64(size))), larger than the \(ByteCount.text(Int64(maxBytes))) such a part can be")
        }
        if let why {
            close(fd)
            return .failure(why)
        }
        return .success((fd, size))
    }

    /// Nil when `path` is a usable part; opened and closed, nothing read.
    static func check(_ path: String, maxBytes: Int) -> OCREngineError? {
        switch open(path, maxBytes: maxBytes) {
        case .success(let opened):
            close(opened.fd)
            return nil
        case .failure(let why): return why
        }
    }

    /// The bytes of a usable part, read through the descriptor that was checked (so ONNX Runtime gets the file
    /// that was looked at, never a path that could have changed since).
    static func read(_ path: String, maxBytes: Int) -> Result<[UInt8], OCREngineError> {
        let fd: Int32
        let size: Int
        switch open(path, maxBytes: maxBytes) {
        case .success(let opened): (fd, size) = opened
        case .failure(let why): return .failure(why)
        }
        defer { close(fd) }
        // One byte more than the bound is asked for: a file that grew past it since fstat is caught too.
        var bytes = [UInt8](repeating: 0, count: min(size, maxBytes) + 1)
        let total: Int
        switch bytes.withUnsafeMutableBytes({ RegularFile.read(fd, into: $0) }) {
        case .success(let n): total = n
        case .failure(let refusal):
            let err: Int32 = if case .system(let e) = refusal { e } else { EIO }
            return .failure(notUsable(path, "it could not be read (\(String(cString: strerror(err))))"))
        }
        if total == 0 { return .failure(notUsable(path, "it is empty")) }
        if total > maxBytes {
            return .failure(notUsable(path, "it is larger than the \(ByteCount.text(Int64(maxBytes))) such a part can be"))
        }
        bytes.removeLast(bytes.count - total)
        return .success(bytes)
    }
}

/// The second reader as a run uses it: PP-OCR's line reader and its text detector, both opened (once per process)
/// from `PPOCRLineReader.directory`, or why tesseract reads alone. All three parts must be usable: a reader whose
/// detection model is a folder is no more installed than one without its library.
public enum SecondReader {
    public static var opened: Result<(reader: PPOCRLineReader, detector: PPOCRTextDetector), OCREngineError> {
        if let why = PPOCRLineReader.unusable() { return .failure(why) }
        return PPOCRLineReader.shared.flatMap { reader in PPOCRTextDetector.shared.map { (reader, $0) } }
    }
}
