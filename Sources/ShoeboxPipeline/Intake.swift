internal import Foundation
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
    public func walk(root: String) throws(PipelineError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PipelineError(code: .scanFolderMissing, message: "the scan folder \(root) does not exist or is not a folder.")
        }
        guard FileManager.default.isReadableFile(atPath: root) else {
            throw PipelineError(code: .scanFolderMissing, message: "the scan folder \(root) cannot be read (permission denied).")
        }
        let rootURL = URL(fileURLWithPath: root).standardizedFileURL
        var out: [String] = []
        let enumerator = FileManager.default.enumerator(
            at: rootURL, includingPropertiesForKeys: [.isRegularFileKey, .isHiddenKey], options: [.skipsHiddenFiles],
            errorHandler: { _, _ in true })
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let full = url.standardizedFileURL.path
            guard full.hasPrefix(rootURL.path) else { continue }
            var relative = String(full.dropFirst(rootURL.path.count))
            while relative.hasPrefix("/") { relative.removeFirst() }
            out.append(relative)
        }
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
        guard FileManager.default.fileExists(atPath: path) else { return .failure(.missingFile) }
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
