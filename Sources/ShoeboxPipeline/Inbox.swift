public import Foundation
internal import Glibc
public import ShoeboxCore
internal import ShoeboxReading

/// The inbox an agent files documents into for a person (docs/agents.md): `OUT/inbox/<folder>/NAME` with its sidecar
/// `NAME.json`, inside the output folder (never the scan folder). Each complete pair is taken by a run: moved to
/// `inbox/processed/<folder>/`, read there like any scan (its sidecar a source, checked against the page), and given a
/// result file beside it; a pair that cannot be taken is moved to `inbox/failed/<folder>/` with its result (the code
/// and the sentence). Nothing is lost and nothing read twice across a killed run:
///
/// 1. **Take**: an intent file (`processed/<folder>/.NAME.taking`, naming the drop) is written and synced, then the
///    document and its sidecar are renamed into `processed/`, then the intent is removed. A run that finds an intent
///    finishes its renames first (`finishTaking`).
/// 2. **Read**: a run over `processed/` as its root; a record stored is never read again unless its bytes change.
/// 3. **Results**: every document in `processed/` without a result file gets one from its record, written to a
///    temporary name and renamed.
public struct Inbox: Sendable {
    /// `OUT/inbox`.
    public let path: String
    /// How long a document waits for its sidecar, or a sidecar for its document, before it is failed by name.
    public let waitSeconds: Double

    public init(outputDirectory: String, waitSeconds: Double = Inbox.defaultWaitSeconds) {
        path = PathText.joined(PathText.absolute(outputDirectory), "inbox")
        self.waitSeconds = waitSeconds
    }

    /// Ten minutes: an agent writes a pair in seconds; `SHOEBOX_INBOX_WAIT_SECONDS` (0…86400) sets another.
    public static var defaultWaitSeconds: Double {
        if let text = ProcessInfo.processInfo.environment["SHOEBOX_INBOX_WAIT_SECONDS"], let s = Double(text), (0...86_400).contains(s) {
            return s
        }
        return 600
    }

    public var processed: String { PathText.joined(path, "processed") }

    /// Whether a record's root is an inbox's `processed/` (the documents agents filed), not a scan folder.
    public static func isProcessedRoot(_ root: String) -> Bool { root.hasSuffix("/inbox/processed") }
    public var failed: String { PathText.joined(path, "failed") }
    /// The names under `inbox/` that are Shoebox's own, not folders an agent drops into.
    public static let ownFolders: Set<String> = ["processed", "failed"]
    /// The schema version of a result file: raised when a key is added, renamed or changes its meaning.
    public static let resultVersion = 1
    /// A result file sits beside its document: `NAME.result.json`.
    public static let resultSuffix = ".result.json"
    /// A sidecar that came without a document (an expense without a receipt) is kept as `NAME.expense.json`.
    public static let expenseSuffix = ".expense"

    /// Whether a file under `processed/` is the inbox's own, not a document a run reads: a result, an expense's sidecar.
    public static func isOwnFile(_ path: String) -> Bool {
        path.hasSuffix(resultSuffix) || path.hasSuffix(expenseSuffix + ".json")
    }

    /// Whether `name` is a file a run of the inbox does not read as a document: a result file, a sidecar or a name an
    /// agent is still writing (hidden, `.tmp`, `.part`).
    static func isInProgress(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix(".tmp") || name.hasSuffix(".part")
    }

    /// Why a drop cannot be taken: each code with its sentence, saying what to do.
    public enum Refusal: String, Sendable, CaseIterable {
        case noSidecar = "inbox-no-sidecar"
        case sidecarTooLarge = "inbox-sidecar-too-large"
        case sidecarNotJSON = "inbox-sidecar-not-json"
        case agentMissing = "inbox-agent-missing"
        case wrongFolder = "inbox-wrong-folder"
        case notAFile = "inbox-not-a-file"
        case folderName = "inbox-folder-name"

        public func sentence(_ drop: String, detail: String = "") -> String {
            let d = detail.isEmpty ? "" : " (\(detail))"
            switch self {
            case .noSidecar:
                return "\(drop) waited in the inbox without its sidecar \(PathText.lastComponent(of: drop)).json\(d). Write the sidecar "
                    + "(to a temporary name, then rename it) and drop the pair again."
            case .sidecarTooLarge:
                return "the sidecar of \(drop) is larger than 1 MiB\(d) and was not read. Write only the fields the manifest lists."
            case .sidecarNotJSON:
                return "the sidecar of \(drop) is not a JSON object\(d). Write one object with the fields the manifest lists."
            case .agentMissing:
                return "the sidecar of \(drop) does not name its agent. Give \"agent\": \"<your name>\": every record an agent files says who."
            case .wrongFolder:
                return "the sidecar of \(drop) names another folder\(d). Drop the pair in the folder its sidecar names, or correct its \"folder\"."
            case .notAFile:
                return "\(drop) is not a regular file\(d): a link, a folder or a device is never opened. Copy the document itself."
            case .folderName:
                return "\(drop) sits in a folder of the inbox whose name a store cannot hold\(d). Use the folder names the manifest lists."
            }
        }
    }

    /// What became of a drop, as its result file says it (docs/agents.md).
    public struct Result: Codable, Sendable, Equatable {
        public var resultVersion = Inbox.resultVersion
        /// The drop as the agent named it: `<folder>/NAME`.
        public var dropped: String
        /// The record's id (its path in the store) when the document was taken; nil when it was refused.
        public var record: String?
        /// `accepted`, `review`, `duplicate` or `failed` (the record's), or `refused` (not taken: see `failure`).
        public var status: String
        public var reasons: [String] = []
        public var duplicateOf: String?
        public var failure: FailureText?
        public var agent: String?
        public var at: String

        public struct FailureText: Codable, Sendable, Equatable {
            public var code: String
            public var message: String

            public init(code: String, message: String) {
                self.code = code
                self.message = message
            }
        }

        public init(
            dropped: String, record: String?, status: String, reasons: [String] = [], duplicateOf: String? = nil, failure: FailureText? = nil,
            agent: String?, at: String
        ) {
            self.dropped = dropped
            self.record = record
            self.status = status
            self.reasons = reasons
            self.duplicateOf = duplicateOf
            self.failure = failure
            self.agent = agent
            self.at = at
        }
    }

    /// A drop found waiting: the document's name in its folder, and its sidecar's bytes when there is one.
    struct Drop {
        let folder: String
        let name: String
        var dropped: String { folder.isEmpty ? name : "\(folder)/\(name)" }
    }

    /// What `take` did.
    public struct Taken: Sendable {
        public var taken: [String] = []
        public var refused: [String] = []
        public var waiting: [String] = []
        /// Drops that could not be moved (a full disk, permissions): they stay where they are, each with why.
        public var stuck: [(drop: String, reason: String)] = []
    }

    // MARK: - Take

    /// Makes the inbox's folders (an agent may then drop into `inbox/<folder>/`).
    public func create() throws(PipelineError) {
        for dir in [path, processed, failed] {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw PipelineError(code: .store, message: "the inbox \(StoredPath.shown(dir)) cannot be made: \(error.localizedDescription)")
            }
        }
    }

    /// Takes every complete pair waiting, refuses the bad ones with a result file, and leaves what is still being
    /// written. `occupied`: whether a path (`<folder>/NAME`) is taken already, by a record of the store or a file in the
    /// scan folder (a taken document never takes one of them: a record's path is its id); `now`: the clock the waits are
    /// counted on.
    public func take(occupied: (String) -> Bool, today: CalendarDay, now: Date = Date()) throws(PipelineError) -> Taken {
        try create()
        finishTaking()
        var taken = Taken()
        for folder in Inbox.entries(of: path).filter({ !Inbox.ownFolders.contains($0) && !Inbox.isInProgress($0) }).sorted() {
            var info = stat()
            // Files and links at the top of the inbox are drops into the folder "" (below).
            guard lstat(PathText.joined(path, folder), &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
            if Inbox.folderProblem(folder) != nil {
                refuse(Drop(folder: "", name: folder), .folderName, into: &taken)
                continue
            }
            takeFolder(folder, occupied: occupied, today: today, now: now, into: &taken)
        }
        takeFolder("", occupied: occupied, today: today, now: now, into: &taken)
        return taken
    }

    /// The drops of one folder of the inbox ("" for its top).
    func takeFolder(_ folder: String, occupied: (String) -> Bool, today: CalendarDay, now: Date, into taken: inout Taken) {
        let dir = folder.isEmpty ? path : PathText.joined(path, folder)
        let names = Set(Inbox.entries(of: dir).filter { !Inbox.isInProgress($0) })
        for name in names.sorted() {
            if folder.isEmpty && Inbox.ownFolders.contains(name) { continue }
            let full = PathText.joined(dir, name)
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            if folder.isEmpty && info.st_mode & S_IFMT == S_IFDIR { continue }
            let isSidecar = name.hasSuffix(".json") && names.contains(String(name.dropLast(5)))
            if isSidecar { continue }
            let drop = Drop(folder: folder, name: name)
            guard info.st_mode & S_IFMT == S_IFREG else {
                refuse(drop, .notAFile, into: &taken)
                continue
            }
            let age = now.timeIntervalSince1970 - Double(info.st_mtim.tv_sec)
            if name.hasSuffix(".json"), !names.contains(String(name.dropLast(5))), Inbox.looksLikeSidecar(full) {
                // A sidecar alone: its document may be on its way; once it has waited, an expense without a receipt.
                let alone = Drop(folder: folder, name: String(name.dropLast(5)))
                if age < waitSeconds {
                    taken.waiting.append(drop.dropped)
                } else if let (refusal, detail) = Inbox.check(sidecarAt: full, folder: folder, today: today) {
                    refuse(alone, refusal, detail: detail, into: &taken)
                } else {
                    let target = Inbox.freeName(alone.name + Inbox.expenseSuffix, in: PathText.joined(processed, folder), folder: folder)
                    let result = Result(dropped: alone.dropped, record: nil, status: "taken", agent: nil, at: Inbox.now())
                    do {
                        try move(alone, to: processed, as: target, result: result)
                        taken.taken.append(alone.dropped)
                    } catch { taken.stuck.append((alone.dropped, error.description)) }
                }
                continue
            }
            guard names.contains(name + ".json") else {
                if age < waitSeconds {
                    taken.waiting.append(drop.dropped)
                } else {
                    refuse(drop, .noSidecar, detail: "\(Int(waitSeconds)) s", into: &taken)
                }
                continue
            }
            if let (refusal, detail) = Inbox.check(sidecarAt: full + ".json", folder: folder, today: today) {
                refuse(drop, refusal, detail: detail, into: &taken)
                continue
            }
            let target = Inbox.freeName(name, in: PathText.joined(processed, folder), folder: folder, occupied: occupied)
            let result = Result(dropped: drop.dropped, record: nil, status: "taken", agent: nil, at: Inbox.now())
            do {
                try move(drop, to: processed, as: target, result: result)
                taken.taken.append(drop.dropped)
            } catch { taken.stuck.append((drop.dropped, error.description)) }
        }
    }

    /// Why a sidecar cannot be taken with its document, or nil: it must be a JSON object of at most 1 MiB that names its
    /// agent, and a folder it names must be the one it was dropped in. Its values are checked by the run (a value that
    /// does not parse is `sidecar-invalid` on the record, as for a scan's sidecar).
    static func check(sidecarAt path: String, folder: String, today: CalendarDay) -> (Refusal, String)? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return (.notAFile, "its sidecar") }
        switch InputFile.readAll(path, limit: IntakeStage.sidecarLimit, tooLarge: { .fileTooLarge(bytes: $0, limitMegabytes: 1) }) {
        case .failure(let f):
            return f.code == "file-too-large" ? (.sidecarTooLarge, ByteCount.text(Int64(info.st_size))) : (.sidecarNotJSON, f.message)
        case .success(let bytes):
            guard (try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any] else { return (.sidecarNotJSON, "") }
            let sidecar = Sidecar.parse(bytes, today: today)
            guard sidecar.agent != nil else { return (.agentMissing, "") }
            if let named = sidecar.folder, named != folder {
                return (.wrongFolder, "it says \"\(named)\", it was dropped in inbox/\(folder.isEmpty ? "" : folder + "/")")
            }
            return nil
        }
    }

    /// Whether a lone `.json` file is a sidecar whose document has not come (a JSON object naming an agent), not a
    /// document of its own.
    static func looksLikeSidecar(_ path: String) -> Bool {
        guard
            case .success(let bytes) = InputFile.readAll(
                path, limit: IntakeStage.sidecarLimit, tooLarge: { .fileTooLarge(bytes: $0, limitMegabytes: 1) })
        else { return true }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any]
    }

    /// A name for `name` in `dir` that no file there and no record in the store has: `name`, else `stem (2).ext`, ….
    static func freeName(_ name: String, in dir: String, folder: String, occupied: (String) -> Bool = { _ in false }) -> String {
        func free(_ candidate: String) -> Bool {
            var info = stat()
            let rel = folder.isEmpty ? candidate : "\(folder)/\(candidate)"
            return lstat(PathText.joined(dir, candidate), &info) != 0 && lstat(PathText.joined(dir, candidate + ".json"), &info) != 0
                && !occupied(rel)
        }
        if free(name) { return name }
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        var n = 2
        while !free("\(stem) (\(n))\(ext)") { n += 1 }
        return "\(stem) (\(n))\(ext)"
    }

    /// Moves a drop (its document and sidecar, when there) into `base/<folder>/target` with `result` beside it, by an
    /// intent file first: a killed run leaves the intent, and the next one finishes it (`finishTaking`).
    func move(_ drop: Drop, to base: String, as target: String, result: Result) throws(PipelineError) {
        let from = drop.folder.isEmpty ? path : PathText.joined(path, drop.folder)
        let to = drop.folder.isEmpty ? base : PathText.joined(base, drop.folder)
        do { try FileManager.default.createDirectory(atPath: to, withIntermediateDirectories: true) } catch {
            throw PipelineError(code: .store, message: "\(StoredPath.shown(to)) cannot be made: \(error.localizedDescription)")
        }
        let intent = Intent(from: PathText.joined(from, drop.name), to: PathText.joined(to, target), result: result)
        let intentPath = PathText.joined(to, ".\(target).taking")
        try Inbox.writeAtomically(Array((try? JSONEncoder().encode(intent)) ?? Data()), to: intentPath)
        try intent.finish()
        unlink(intentPath)
    }

    /// A move begun: the drop's document and its sidecar from `from` to `to` (each as `…` and `….json`), and the result
    /// to write beside it (`taken` for a document to read, the refusal for one that cannot be).
    struct Intent: Codable {
        let from: String
        let to: String
        let result: Result

        func finish() throws(PipelineError) {
            for suffix in ["", ".json"] {
                var info = stat()
                guard lstat(from + suffix, &info) == 0 else { continue }
                guard rename(from + suffix, to + suffix) == 0 else {
                    throw PipelineError(
                        code: .store, message: "\(StoredPath.shown(from + suffix)) cannot be moved: \(String(cString: strerror(errno)))")
                }
            }
            var info = stat()
            if lstat(to + Inbox.resultSuffix, &info) != 0 { try Inbox.write(result, to: to + Inbox.resultSuffix) }
        }
    }

    /// Finishes the moves a killed run began (each intent file under `processed/` and `failed/`).
    func finishTaking() {
        for base in [processed, failed] {
            for dir in [base] + Inbox.folders(in: base) {
                // A scratch file a killed pass left (`FileBytes.write`'s): the pass that wrote it is gone (one pass holds
                // the output folder's lock at a time).
                for name in Inbox.entries(of: dir) where name.hasPrefix(".shoebox-write-") { unlink(PathText.joined(dir, name)) }
                for name in Inbox.entries(of: dir) where name.hasPrefix(".") && name.hasSuffix(".taking") {
                    let file = PathText.joined(dir, name)
                    guard
                        case .success(let bytes) = InputFile.readAll(file, limit: 1 << 21, tooLarge: { .fileTooLarge(bytes: $0, limitMegabytes: 2) }),
                        let intent = try? JSONDecoder().decode(Intent.self, from: Data(bytes))
                    else {
                        unlink(file)
                        continue
                    }
                    if (try? intent.finish()) != nil { unlink(file) }
                }
            }
        }
    }

    /// The sub-folders of `dir` (not links), as paths.
    static func folders(in dir: String) -> [String] {
        entries(of: dir).map { PathText.joined(dir, $0) }.filter { p in
            var info = stat()
            return lstat(p, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
        }
    }

    /// Moves a drop that cannot be taken to `failed/<folder>/` with its result file.
    func refuse(_ drop: Drop, _ refusal: Refusal, detail: String = "", into taken: inout Taken) {
        let target = Inbox.freeName(drop.name, in: PathText.joined(failed, drop.folder), folder: drop.folder)
        let result = Result(
            dropped: drop.dropped, record: nil, status: "refused",
            failure: Result.FailureText(code: refusal.rawValue, message: refusal.sentence(drop.dropped, detail: detail)), agent: nil,
            at: Inbox.now())
        do {
            try move(drop, to: failed, as: target, result: result)
            taken.refused.append(drop.dropped)
        } catch { taken.stuck.append((drop.dropped, error.description)) }
    }

    static func now() -> String { ISO8601DateFormatter().string(from: Date()) }

    // MARK: - Filing (what `shoebox mcp` does for an agent)

    /// Why a document cannot be filed into the inbox by `file`.
    public struct FilingError: Error, Sendable {
        public let message: String
    }

    /// Whether `folder` may be a folder of the inbox: one name a store can hold, not hidden, not the inbox's own.
    public static func folderProblem(_ folder: String) -> String? {
        if folder.isEmpty { return nil }
        if folder.contains("/") || folder == "." || folder == ".." || folder.hasPrefix(".") {
            return "a folder is one name, not a path, and does not start with '.' (got '\(folder.prefix(100))')"
        }
        if ownFolders.contains(folder) { return "'\(folder)' is the inbox's own folder, not one to file into" }
        if StoredPath.storable(folder) != nil || folder.utf8.count > 255 {
            return "the folder's name holds a control character or is over 255 bytes"
        }
        return nil
    }

    /// Copies the regular file at `source` (already checked to be one the agent may file) into `inbox/<folder>/` under
    /// a name free there, then writes `sidecar` beside it, each to a temporary name first and renamed: a run never
    /// sees half a pair. Returns the drop's name, `<folder>/NAME`.
    public func file(_ source: String, folder: String, sidecar: [UInt8], maxBytes: Int64) throws(FilingError) -> String {
        if let p = Inbox.folderProblem(folder) { throw FilingError(message: p) }
        let dir = folder.isEmpty ? path : PathText.joined(path, folder)
        do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
            throw FilingError(message: "the inbox folder \(StoredPath.shown(dir)) cannot be made: \(error.localizedDescription)")
        }
        let input = open(source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard input >= 0 else { throw FilingError(message: "\(StoredPath.shown(source)) cannot be opened: \(String(cString: strerror(errno)))") }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw FilingError(message: "\(StoredPath.shown(source)) is not a regular file")
        }
        guard Int64(info.st_size) <= maxBytes else {
            throw FilingError(
                message:
                    "\(StoredPath.shown(source)) is \(ByteCount.text(Int64(info.st_size))), over the \(ByteCount.text(maxBytes)) a document may be")
        }
        Inbox.removeAbandonedCopies(in: dir)
        let name = Inbox.freeName(PathText.lastComponent(of: source), in: dir, folder: folder)
        let target = PathText.joined(dir, name)
        let temp = PathText.joined(dir, "\(Inbox.copyPrefix)\(getpid())-\(name).tmp")
        let output = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard output >= 0 else { throw FilingError(message: "\(StoredPath.shown(temp)) cannot be written: \(String(cString: strerror(errno)))") }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var failure: Int32 = 0
        while failure == 0 {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 { failure = errno }
            if n <= 0 { break }
            var done = 0
            while done < n && failure == 0 {
                let w = buffer.withUnsafeBytes { Glibc.write(output, $0.baseAddress! + done, n - done) }
                if w <= 0 { failure = errno } else { done += w }
            }
        }
        if failure == 0 && fsync(output) != 0 { failure = errno }
        close(output)
        guard failure == 0, rename(temp, target) == 0 else {
            let why = String(cString: strerror(failure == 0 ? errno : failure))
            unlink(temp)
            throw FilingError(message: "\(StoredPath.shown(target)) cannot be written: \(why); nothing was filed")
        }
        do { try Inbox.writeAtomically(sidecar, to: target + ".json") } catch {
            unlink(target)
            throw FilingError(message: "the sidecar of \(StoredPath.shown(target)) cannot be written: \(error.description); nothing was filed")
        }
        return folder.isEmpty ? name : "\(folder)/\(name)"
    }

    /// How a copy `file` is writing begins: `.shoebox-copy-<pid>-NAME.tmp` (hidden, so no run takes it).
    static let copyPrefix = ".shoebox-copy-"

    /// Removes the copies a filing process that is gone left half-written in `dir` (it was killed mid-copy).
    static func removeAbandonedCopies(in dir: String) {
        for name in entries(of: dir) where name.hasPrefix(copyPrefix) {
            let pid = name.dropFirst(copyPrefix.count).prefix { $0.isNumber }
            guard let p = Int32(pid), p != getpid(), kill(p, 0) != 0, errno == ESRCH else { continue }
            unlink(PathText.joined(dir, name))
        }
    }

    // MARK: - Results

    /// The documents under `processed/` (relative paths `<folder>/NAME`), as a run over it lists them: no result
    /// files, no sidecars, nothing hidden.
    func processedDocuments() -> [String] {
        var out: [String] = []
        for dir in [processed] + Inbox.folders(in: processed) {
            let folder = dir == processed ? "" : PathText.lastComponent(of: dir)
            let names = Set(Inbox.entries(of: dir))
            for name in names.sorted() where !name.hasPrefix(".") && !Inbox.isOwnFile(name) {
                if name.hasSuffix(".json") && names.contains(String(name.dropLast(5))) { continue }
                var info = stat()
                guard lstat(PathText.joined(dir, name), &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                out.append(folder.isEmpty ? name : "\(folder)/\(name)")
            }
        }
        return out
    }

    /// The expenses without a receipt under `processed/` whose result still says `taken`: each `<folder>/NAME.expense`
    /// (its sidecar `NAME.expense.json`).
    public func takenExpenses() -> [String] {
        var out: [String] = []
        for dir in [processed] + Inbox.folders(in: processed) {
            let folder = dir == processed ? "" : PathText.lastComponent(of: dir)
            for name in Inbox.entries(of: dir).sorted() where !name.hasPrefix(".") && name.hasSuffix(Inbox.expenseSuffix + ".json") {
                let rel = (folder.isEmpty ? "" : folder + "/") + String(name.dropLast(5))
                if resultStatus(of: rel) == "taken" { out.append(rel) }
            }
        }
        return out
    }

    /// Writes `result` for the taken drop `rel` (its path under `processed/`), keeping the name it was dropped as.
    public func writeResult(_ result: Result, for rel: String) throws(PipelineError) {
        var result = result
        result.dropped = Inbox.readResult(PathText.joined(processed, rel + Inbox.resultSuffix))?.dropped ?? rel
        try Inbox.write(result, to: PathText.joined(processed, rel + Inbox.resultSuffix))
    }

    /// The documents under `processed/` whose result does not yet say what their record is (`taken`, or none yet).
    public func takenDocuments() -> [String] {
        processedDocuments().filter { (resultStatus(of: $0) ?? "taken") == "taken" }
    }

    /// Writes the result beside each of `taken` (`takenDocuments`) from its record (`records` by path), keeping the name
    /// it was dropped as. Returns the results written.
    public func writeResults(_ taken: [String], records: [String: DocumentRecord]) -> [Result] {
        var written: [Result] = []
        for rel in taken {
            let resultPath = PathText.joined(processed, rel + Inbox.resultSuffix)
            let before = Inbox.readResult(resultPath)
            guard let r = records[rel] else { continue }
            let result = Result(
                dropped: before?.dropped ?? rel, record: r.source, status: r.status.rawValue, reasons: r.reasons.map(\.code),
                duplicateOf: r.duplicateOf, failure: r.failure.map { Result.FailureText(code: $0.code, message: $0.description) },
                agent: r.agentEntry?.name, at: Inbox.now())
            if (try? Inbox.write(result, to: resultPath)) != nil { written.append(result) }
        }
        return written
    }

    /// The status the result beside the taken document `rel` (its path under `processed/`) says; nil when it has none.
    func resultStatus(of rel: String) -> String? {
        Inbox.readResult(PathText.joined(processed, rel + Inbox.resultSuffix))?.status
    }

    /// Every result file, in `processed/` and in `failed/`.
    public func results() -> [Result] {
        var out: [Result] = []
        for base in [processed, failed] {
            for dir in [base] + Inbox.folders(in: base) {
                for name in Inbox.entries(of: dir).sorted() where name.hasSuffix(Inbox.resultSuffix) && !name.hasPrefix(".") {
                    if let r = Inbox.readResult(PathText.joined(dir, name)) { out.append(r) }
                }
            }
        }
        return out
    }

    /// The result of the drop `dropped` (`<folder>/NAME` as the agent named it), the latest when it was dropped more than
    /// once; nil while it waits (or was never dropped).
    public func result(of dropped: String) -> Result? {
        results().filter { $0.dropped == dropped }.max { $0.at < $1.at }
    }

    /// Whether `dropped` (`<folder>/NAME`) still waits in the inbox for a run to take it.
    public func isWaiting(_ dropped: String) -> Bool {
        var info = stat()
        return lstat(PathText.joined(path, dropped), &info) == 0 || lstat(PathText.joined(path, dropped + ".json"), &info) == 0
    }

    static func readResult(_ path: String) -> Result? {
        guard case .success(let bytes) = InputFile.readAll(path, limit: 1 << 20, tooLarge: { .fileTooLarge(bytes: $0, limitMegabytes: 1) }) else {
            return nil
        }
        return try? JSONDecoder().decode(Result.self, from: Data(bytes))
    }

    static func write(_ result: Result, to path: String) throws(PipelineError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(result)) ?? Data()
        try writeAtomically(Array(data) + [0x0A], to: path)
    }

    /// Writes `bytes` to a hidden temporary name beside `path` and renames it into place (`FileBytes.write`).
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(PipelineError) {
        do { try FileBytes.write(Data(bytes), to: path) } catch {
            throw PipelineError(code: .store, message: "\(StoredPath.shown(path)) cannot be written: \(SystemReason.of(error))")
        }
    }

    /// The names in a folder (none when it cannot be listed), without `.` and `..`.
    static func entries(of dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0 != "." && $0 != ".." }
    }
}
