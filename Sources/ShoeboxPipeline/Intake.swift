internal import Foundation
internal import Glibc
public import ShoeboxCore
public import ShoeboxJudgement
internal import ShoeboxParsing
public import ShoeboxReading

/// Intake: walks the scan root, sniffs each file by content, hashes it. A file that cannot become a
/// `SourceFile` becomes a failed record at once, so nothing found is lost.
public struct IntakeStage: Sendable {
    public enum Item: Sendable {
        case ready(SourceFile)
        case failed(DocumentRecord, size: Int)
    }

    /// Files larger than this fail as file-too-large (hashed, never loaded).
    public let maxFileMegabytes: Int

    public init(maxFileMegabytes: Int = PipelineConfig().maxFileMegabytes) { self.maxFileMegabytes = maxFileMegabytes }

    /// What a walk of the scan root found: the files, and the folders it could not read.
    public struct Listing: Sendable {
        /// Every regular, non-hidden file but sidecars, by relative path, sorted.
        public var paths: [String] = []
        /// Folders under the root that could not be listed, with the reason: their files were not found.
        public var unreadableFolders: [(path: String, reason: String)] = []
        /// Files whose name (or a folder's above them) a store cannot hold (not UTF-8, a control character): listed
        /// under a name it can (`StoredPath.storable`, U+FFFD for what is wrong), and refused by that name.
        public var misnamed: [String: DocumentFailure] = [:]
    }

    /// Every regular, non-hidden file under `root` but sidecars, sorted by relative path, and every folder that
    /// could not be listed. `skipping`: a folder under the root not to walk into (the output folder, when a
    /// user puts it inside the scan folder: Shoebox must not read its own store as scans).
    public func walk(root: String, skipping: String? = nil) throws(PipelineError) -> Listing {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PipelineError(code: .scanFolderMissing, message: "the scan folder \(StoredPath.shown(root)) does not exist or is not a folder.")
        }
        guard FileManager.default.isReadableFile(atPath: root) else {
            throw PipelineError(code: .scanFolderMissing, message: "the scan folder \(StoredPath.shown(root)) cannot be read (permission denied).")
        }
        var skipped = stat()
        var walk = FolderWalk(skipping: skipping.flatMap { stat($0, &skipped) == 0 ? skipped : nil })
        let rootPath = PathText.absolute(root)
        walk.visit(rootPath == "/" ? [] : Array(rootPath.utf8), "")
        // `IMG_0412.jpg.json` beside `IMG_0412.jpg` is that scan's sidecar, read with it, not a document.
        let all = Set(walk.files)
        var listing = Listing()
        listing.paths = walk.files.filter { !($0.hasSuffix(".json") && all.contains(String($0.dropLast(5)))) }.sorted()
        listing.unreadableFolders = walk.unreadableFolders
        listing.misnamed = walk.misnamed
        return listing
    }

    /// Sniffs and hashes one file, reading it a piece at a time (a file of any size costs one piece of memory).
    /// Never throws: a bad file is a failed record.
    public func inspect(root: String, relativePath: String) -> Item {
        let path = PathText.joined(root, relativePath)
        let folder = SourceFile.folder(of: relativePath)
        let head: [UInt8]
        let sha: String
        let size: Int
        switch InputFile.inspect(path, head: 16) {
        case .success(let found): (head, sha, size) = found
        case .failure(let failure):
            return .failed(.failed(relativePath, folder: folder, sha256: "", failure: failure), size: 0)
        }
        guard size > 0 else { return .failed(.failed(relativePath, folder: folder, sha256: sha, failure: .emptyFile), size: 0) }
        guard let kind = FileKind.sniff(head) else {
            let shown = head.prefix(8).map { b in (0x20..<0x7F).contains(b) ? String(UnicodeScalar(b)) : "·" }.joined()
            let ext = PathText.pathExtension(of: relativePath).lowercased()
            return .failed(
                .failed(
                    relativePath, folder: folder, sha256: sha,
                    failure: .unsupportedType(head: "\"\(shown)\"", claimedExtension: ext)), size: size)
        }
        guard size <= maxFileMegabytes << 20 else {
            return .failed(
                .failed(relativePath, folder: folder, sha256: sha, failure: .fileTooLarge(bytes: size, limitMegabytes: maxFileMegabytes)),
                size: size)
        }
        return .ready(SourceFile(path: path, relativePath: relativePath, folder: folder, kind: kind, sha256: sha, size: size))
    }

    /// A sidecar is a few lines of JSON: a larger one is not read.
    static let sidecarLimit = 1 << 20

    /// A file's JSON sidecar (`<file>.json`) as read once: the digest of its bytes and what it says, parsed; both nil
    /// when the file has none.
    public struct SidecarReading: Sendable {
        public let digest: String?
        public let sidecar: Sidecar?
    }

    /// Reads the sidecar of the file at `path` once, for its digest (does a stored record still stand?) and its values.
    public static func sidecar(ofFileAt path: String, today: CalendarDay) -> SidecarReading {
        let sidecarPath = path + ".json"
        // lstat, not fileExists: a link or a FIFO named like a sidecar is there, and is refused by name below.
        var info = stat()
        guard lstat(sidecarPath, &info) == 0 else { return SidecarReading(digest: nil, sidecar: nil) }
        let read = InputFile.readAll(sidecarPath, limit: sidecarLimit, tooLarge: { .fileTooLarge(bytes: $0, limitMegabytes: 1) })
        switch read {
        case .success(let bytes): return SidecarReading(digest: sidecarDigest(read), sidecar: Sidecar.parse(bytes, today: today))
        case .failure(let f):
            var s = Sidecar()
            s.problems.append(
                f.code == "file-too-large" ? "the sidecar is larger than 1 MiB and was not read" : "the sidecar cannot be read: \(f.message)")
            return SidecarReading(digest: sidecarDigest(read), sidecar: s)
        }
    }

    /// A file's other sources: the date in its file name, and its JSON sidecar (`<file>.json`) if any (`sidecar`: as read
    /// already at intake; nil: read now), so that they travel with the file to the merge.
    public static func otherSources(of source: SourceFile, today: CalendarDay, sidecar: SidecarReading? = nil) -> OtherSources {
        var other = OtherSources(fileNameDate: OtherSources.date(inFileName: source.relativePath, today: today))
        let reading = sidecar ?? IntakeStage.sidecar(ofFileAt: source.path, today: today)
        other.sidecarDigest = reading.digest
        other.sidecar = reading.sidecar
        return other
    }

    /// What the sidecar of the file at `path` holds now, as a digest; nil when it has none. A record is stored with the
    /// digest of the sidecar it was judged with, and judged again when the two differ: a sidecar written after a run
    /// (a fine's received-on day), corrected or removed is never ignored.
    public static func sidecarDigest(ofFileAt path: String) -> String? {
        let sidecarPath = path + ".json"
        var info = stat()
        guard lstat(sidecarPath, &info) == 0 else { return nil }
        return sidecarDigest(InputFile.readAll(sidecarPath, limit: sidecarLimit, tooLarge: { .fileTooLarge(bytes: $0, limitMegabytes: 1) }))
    }

    static func sidecarDigest(_ read: Result<[UInt8], DocumentFailure>) -> String {
        switch read {
        case .success(let bytes): String(SHA256.hex(of: bytes).prefix(16))
        // One that cannot be read counts as what stops it: a link, a FIFO, too large.
        case .failure(let f): "unread-\(f.code)"
        }
    }

    /// Reads a whole regular file of at most `limitMegabytes`, naming the cause when it cannot.
    public static func read(_ path: String, limitMegabytes: Int) -> Result<[UInt8], DocumentFailure> {
        InputFile.readAll(path, limit: limitMegabytes << 20) { .fileTooLarge(bytes: $0, limitMegabytes: limitMegabytes) }
    }
}

/// A walk with opendir, readdir and lstat on byte paths: symbolic links are not followed (so a link loop cannot
/// trap it), hidden names skipped. A folder or file whose name a store cannot hold (not valid UTF-8, or holding a
/// control character) is walked all the same: its files are listed with U+FFFD for what is wrong and named in
/// `misnamed` with the failure they end in (bad-file-name, control-character-in-name), so none is lost and none
/// reaches the store under a name that export, import or a summary line could not carry. A folder that cannot be
/// opened is named in `unreadableFolders`. (Foundation's URL resource values look
/// up the owner's name for every file, which opens a socket to nscd; the walk needs none of that.)
private struct FolderWalk {
    /// The folder not to walk into, by device and inode.
    let skipping: stat?
    /// Every file found, by relative path, in walk order.
    var files: [String] = []
    var unreadableFolders: [(path: String, reason: String)] = []
    /// Files listed under another name than their own, with why (their own, or a folder's above them).
    var misnamed: [String: DocumentFailure] = [:]

    init(skipping: stat?) { self.skipping = skipping }

    /// `inherited`: why the folder's own name (or one above it) cannot be held, which its files share.
    mutating func visit(_ directory: [UInt8], _ relative: String, inherited: DocumentFailure? = nil) {
        guard let found = entries(directory, relative) else { return }
        for (name, bytes, own) in found {
            let path = directory + [UInt8(ascii: "/")] + bytes
            let rel = relative.isEmpty ? name : relative + "/" + name
            let why = own ?? inherited
            var info = stat()
            if (path + [0]).withUnsafeBufferPointer({ p in p.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) } }) != 0 {
                // Gone since it was listed: nothing to read. Any other reason (a folder that may be listed but
                // not searched): the folder is named as unreadable, so that none of its files counts as removed.
                let code = errno
                if code == ENOENT { continue }
                unreadableFolders.append((relative.isEmpty ? "." : relative, String(cString: strerror(code))))
                return
            }
            switch info.st_mode & S_IFMT {
            // A FIFO, socket, device or symbolic link (to a file or a folder) is listed too: it fails as
            // not-a-regular-file, by name, never opened or followed.
            case S_IFREG, S_IFIFO, S_IFSOCK, S_IFCHR, S_IFBLK, S_IFLNK:
                files.append(rel)
                if let why { misnamed[rel] = why }
            case S_IFDIR:
                if let skip = skipping, info.st_dev == skip.st_dev && info.st_ino == skip.st_ino { continue }
                visit(path, rel, inherited: why)
            default: continue
            }
        }
    }

    /// The entries of one folder, with a name of its own each, or nil (and the folder named) when it cannot be
    /// listed. The folder is closed before its sub-folders are walked: a deep tree holds one open folder.
    mutating func entries(_ directory: [UInt8], _ relative: String) -> [(name: String, bytes: [UInt8], misnamed: DocumentFailure?)]? {
        let opened = (directory + [0]).withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
        }
        guard let dir = opened else {
            unreadableFolders.append((relative.isEmpty ? "." : relative, String(cString: strerror(errno))))
            return nil
        }
        defer { closedir(dir) }
        var entries: [(name: String, bytes: [UInt8], misnamed: DocumentFailure?)] = []
        var taken = Set<String>()
        var renamed: [(name: String, bytes: [UInt8], misnamed: DocumentFailure?)] = []
        while let entry = readdir(dir) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if bytes.first == UInt8(ascii: ".") { continue }
            let decoded = String(decoding: bytes, as: UTF8.self)
            if String(validating: bytes, as: UTF8.self) == nil {
                renamed.append((StoredPath.storable(decoded) ?? decoded, bytes, .badFileName))
            } else if let storable = StoredPath.storable(decoded) {
                renamed.append((storable, bytes, .controlCharacterInName))
            } else {
                taken.insert(decoded)
                entries.append((decoded, bytes, nil))
            }
        }
        // Two bad names may come out alike, or like a good one: each keeps a name of its own, so none is lost.
        for (base, bytes, why) in renamed.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }) {
            var name = base
            var n = 2
            while taken.contains(name) {
                name = "\(base) (\(n))"
                n += 1
            }
            taken.insert(name)
            entries.append((name, bytes, why))
        }
        return entries.sorted { $0.name < $1.name }
    }
}

/// A problem that stops a whole run (not one document): its kind and sentence. The command line gives each
/// kind its exit code.
public struct PipelineError: Error, CustomStringConvertible, Sendable {
    public enum Code: Sendable {
        /// The scan folder does not exist or cannot be read.
        case scanFolderMissing
        /// The output folder or its store cannot be used.
        case store
        /// The OCR engine or its language data is missing.
        case engine
        /// The pipeline file is invalid.
        case pipelineFile
    }
    public let code: Code
    public let message: String
    /// A store failure's kind (`code` is `store`): the exit code a user meets depends on it.
    public var storeKind: StoreError.Kind = .unusable
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The store failed: its message and its kind.
    public init(_ error: StoreError) {
        self.init(code: .store, message: error.message)
        storeKind = error.kind
    }
    public var description: String { message }
}
