internal import Foundation
internal import Glibc
public import ShoeboxCore

/// Intake: walks the scan root, sniffs each file by content, hashes it. A file that cannot become a
/// `SourceFile` becomes a failed record at once, so nothing found is lost.
public struct IntakeStage: Sendable {
    public enum Item: Sendable {
        case ready(SourceFile)
        case failed(DocumentRecord, size: Int)
    }

    public init() {}

    /// Every regular, non-hidden file under `root` but sidecars, sorted by relative path.
    /// `skipping`: a folder under the root not to walk into (the output folder, when a user puts it inside the
    /// scan folder: Shoebox must not read its own store as scans).
    public func walk(root: String, skipping: String? = nil) throws(PipelineError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PipelineError(code: .scanFolderMissing, message: "the scan folder \(root) does not exist or is not a folder.")
        }
        guard FileManager.default.isReadableFile(atPath: root) else {
            throw PipelineError(code: .scanFolderMissing, message: "the scan folder \(root) cannot be read (permission denied).")
        }
        // A walk with readdir and lstat: regular files only (symbolic links are not followed, so a link loop
        // cannot trap it), hidden names skipped. (Foundation's URL resource values look up the owner's name for
        // every file, which opens a socket to nscd; the walk needs none of that.)
        var out: [String] = []
        var skipped = stat()
        let skip = skipping.map { stat($0, &skipped) == 0 } ?? false
        func visit(_ directory: String, _ relative: String) {
            guard let dir = opendir(directory) else { return }
            defer { closedir(dir) }
            var names: [String] = []
            var undecodable: [String] = []
            while let entry = readdir(dir) {
                let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
                if bytes.first == UInt8(ascii: ".") { continue }
                if let name = String(validating: bytes, as: UTF8.self) {
                    names.append(name)
                } else if entry.pointee.d_type != UInt8(DT_DIR) {
                    // Not valid UTF-8: it cannot be opened by a String path, but it must not be lost either. It is
                    // listed with U+FFFD for its bad bytes and fails as bad-file-name.
                    undecodable.append(String(decoding: bytes, as: UTF8.self))
                }
            }
            for name in undecodable { out.append(relative.isEmpty ? name : relative + "/" + name) }
            for name in names.sorted() {
                let path = directory + "/" + name
                let rel = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFREG: out.append(rel)
                case S_IFDIR:
                    if skip && info.st_dev == skipped.st_dev && info.st_ino == skipped.st_ino { continue }
                    visit(path, rel)
                default: continue
                }
            }
        }
        let rootPath = URL(fileURLWithPath: root).standardizedFileURL.path
        visit(rootPath == "/" ? "" : rootPath, "")
        // `IMG_0412.jpg.json` beside `IMG_0412.jpg` is that scan's sidecar, read with it, not a document.
        let all = Set(out)
        return out.filter { !($0.hasSuffix(".json") && all.contains(String($0.dropLast(5)))) }.sorted()
    }

    /// Reads, sniffs and hashes one file. Never throws: a bad file is a failed record.
    public func inspect(root: String, relativePath: String) -> Item {
        let path = (root as NSString).appendingPathComponent(relativePath)
        let folder = SourceFile.folder(of: relativePath)
        let bytes: [UInt8]
        switch IntakeStage.read(path) {
        case .success(let b): bytes = b
        case .failure(let failure):
            return .failed(.failed(relativePath, folder: folder, sha256: "", failure: failure), size: 0)
        }
        let sha = SHA256.hex(of: bytes)
        guard !bytes.isEmpty else { return .failed(.failed(relativePath, folder: folder, sha256: sha, failure: .emptyFile), size: 0) }
        guard let kind = FileKind.sniff(bytes) else {
            let head = bytes.prefix(8).map { b in (0x20..<0x7F).contains(b) ? String(UnicodeScalar(b)) : "·" }.joined()
            let ext = (relativePath as NSString).pathExtension.lowercased()
            return .failed(.failed(relativePath, folder: folder, sha256: sha,
                                   failure: .unsupportedType(head: "\"\(head)\"", claimedExtension: ext)), size: bytes.count)
        }
        return .ready(SourceFile(path: path, relativePath: relativePath, folder: folder, kind: kind, sha256: sha, size: bytes.count))
    }

    /// Reads a whole file, naming the cause when it cannot.
    public static func read(_ path: String) -> Result<[UInt8], DocumentFailure> {
        guard FileManager.default.fileExists(atPath: path) else {
            // A name that was not valid UTF-8 was read with U+FFFD in place of its bad bytes: no such path.
            return .failure(path.contains("\u{FFFD}") ? .badFileName : .missingFile)
        }
        guard FileManager.default.isReadableFile(atPath: path) else { return .failure(.unreadable("permission denied")) }
        guard let handle = FileHandle(forReadingAtPath: path) else { return .failure(.unreadable("cannot open")) }
        defer { try? handle.close() }
        do {
            return .success([UInt8](try handle.readToEnd() ?? Data()))
        } catch {
            return .failure(.unreadable(error.localizedDescription))
        }
    }
}

/// A problem that stops a whole run (not one document): its exit code and sentence.
public struct PipelineError: Error, CustomStringConvertible, Sendable {
    public enum Code: Int32, Sendable {
        case scanFolderMissing = 3
        case store = 4
        case engine = 5
        case pipelineFile = 6
    }
    public let code: Code
    public let message: String
    public init(code: Code, message: String) { self.code = code; self.message = message }
    public var description: String { message }
}
