import Foundation
import ShoeboxCore
import ShoeboxEngines
import ShoeboxExport
import ShoeboxJudgement
import ShoeboxPipeline
import ShoeboxServe
import ShoeboxStore

/// Shoebox's exit codes, stable and documented in the README and `--help`: the one place they are numbered.
/// Libraries throw kinds of failure; `ExitCode.of` maps each to its code.
enum ExitCode: Int32, CaseIterable {
    case success = 0
    case finishedWithFailures = 1
    case usage = 2
    case scanFolderMissing = 3
    /// The output folder or its store cannot be used, or an export cannot be written.
    case outputUnusable = 4
    case engineMissing = 5
    case pipelineFileInvalid = 6
    case regressionFailed = 7
    /// Another process holds the output folder's lock.
    case busy = 8
    case exportTooLarge = 9
    case originalChanged = 10
    case importRefused = 11
    case folderSettingsInvalid = 12
    case zipNameClash = 13
    /// `serve`: the port cannot be had (another program listens on it).
    case portUnavailable = 14
    /// A PostgreSQL store cannot be reached or refused the login.
    case storeUnreachable = 15
    /// The PostgreSQL server went away while the command used it.
    case storeServerGone = 16
    /// The store's schema is from a newer Shoebox.
    case storeNewer = 17
    /// The PostgreSQL server is out of room.
    case storeServerFull = 18

    /// The exit code of an error a command threw, and the line to print for it on stderr.
    static func of(_ error: any Error, verb: String) -> (code: ExitCode, message: String) {
        switch error {
        case let error as UsageError: return (.usage, error.message)
        case let error as CommandLineTool.LockBusy: return (.busy, "shoebox \(verb): \(error.message)")
        case let error as PipelineError where error.code == .store: return (of(error.storeKind), "shoebox \(verb): \(error.message)")
        case let error as PipelineError: return (of(error.code), "shoebox \(verb): \(error.message)")
        case let error as StoreError: return (of(error.kind), "shoebox \(verb): \(error.message)")
        case let error as ServeError: return (.portUnavailable, "shoebox \(verb): \(error.message)")
        case let error as StoreJSON.ImportError: return (.importRefused, "shoebox \(verb): \(error)")
        case let error as ExportError: return (of(error.code), "shoebox \(verb): \(error.message)")
        default:
            // A file operation of Foundation's: the system's reason, never "Cocoa error 4".
            return (
                .outputUnusable,
                "shoebox \(verb): \(SystemReason.of(error)). Check the paths given and that the output folder is writable."
            )
        }
    }

    static func of(_ kind: PipelineError.Code) -> ExitCode {
        switch kind {
        case .scanFolderMissing: .scanFolderMissing
        case .store: .outputUnusable
        case .engine: .engineMissing
        case .pipelineFile: .pipelineFileInvalid
        }
    }

    static func of(_ kind: StoreError.Kind) -> ExitCode {
        switch kind {
        case .unusable: .outputUnusable
        case .unreachable: .storeUnreachable
        case .serverGone: .storeServerGone
        case .newerSchema: .storeNewer
        case .serverFull: .storeServerFull
        case .lockLost: .busy
        }
    }

    static func of(_ kind: ExportError.Code) -> ExitCode {
        switch kind {
        case .write: .outputUnusable
        case .tooLarge: .exportTooLarge
        case .originalChanged: .originalChanged
        case .folderSettings: .folderSettingsInvalid
        case .nameClash: .zipNameClash
        }
    }
}

enum CommandLineTool {
    static let version = "0.1.0"

    static func main(_ args: [String]) -> ExitCode {
        guard let verb = args.first else {
            print(Help.main)
            return ExitCode.usage
        }
        let rest = Array(args.dropFirst())
        do {
            switch verb {
            case "-h", "--help", "help":
                print(Help.main)
                return ExitCode.success
            case "--version":
                print(versionText())
                return ExitCode.success
            case "run": return try RunCommand.main(rest)
            case "extract": return try ExtractCommand.main(rest)
            case "status": return try StatusCommand.main(rest)
            case "export": return try ExportCommand.main(rest)
            case "import": return try ImportCommand.main(rest)
            case "review": return try ReviewCommand.main(rest)
            case "serve": return try ServeCommand.main(rest)
            case "rescore": return try RescoreCommand.main(rest)
            case "worker": return try WorkerCommand.main(rest)
            case "memory": return try MemoryCommand.main(rest)
            case "manifest": return try ManifestCommand.main(rest)
            case "inbox": return try InboxCommand.main(rest)
            case "mcp": return try MCPCommand.main(rest)
            case "deadlines": return try DeadlinesCommand.main(rest)
            case "recurring": return try RecurringCommand.main(rest)
            case "regress": return try RegressCommand.main(rest)
            default:
                throw UsageError(message: "shoebox: unknown command '\(verb)'. See 'shoebox --help'.")
            }
        } catch {
            let (code, message) = ExitCode.of(error, verb: verb)
            printError(message)
            return code
        }
    }

    static func versionText() -> String {
        """
        shoebox \(version)
        tesseract \(OCREngine.tesseractVersion)
        \(readersText())
        tesseract patches: \(TesseractPatchCheck.check().summary)
        leptonica \(ImageLoader.leptonicaVersion)
        poppler \(PDFRenderer.popplerVersion)
        libarchive \(ExportVersions.libarchive)
        libxlsxwriter \(ExportVersions.libxlsxwriter)
        sqlite \(Store.sqliteVersion)
        trust model \(TrustModel.committedDigest), fitted on \(TrustModel.committed.fittedOn)
        accept gate (default pipeline): \(TrustModel.committed.gate(for: PipelineConfig().acceptPrecision).sentence)
        OMP_THREAD_LIMIT=\(ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] ?? "unset")
        """
    }

    /// Which readers a run reads with: tesseract, and the second reader when its parts are installed and usable (and
    /// why not).
    static func readersText() -> String {
        switch SecondReader.opened {
        case .success(let opened): "second reader: \(opened.reader.name), from \(PPOCRLineReader.directory)"
        case .failure(let why): notReadingText(why)
        }
    }

    static func notReadingText(_ why: OCREngineError) -> String { "second reader: none, tesseract reads alone (\(why.message))" }

    /// The run summary's line on the second reader when the pipeline asks for it and it did not read (nil when it
    /// read, or is turned off). `opened`: the run read pages, so its workers opened it; else only its files are
    /// looked at, so that a run that reads no page (only failures, or XML) does not load ONNX Runtime to say so.
    static func secondReaderNotReading(_ config: PipelineConfig, opened: Bool) -> String? {
        guard config.secondReader else { return nil }
        if let why = PPOCRLineReader.unusable() { return notReadingText(why) }
        guard opened, case .failure(let why) = SecondReader.opened else { return nil }
        return notReadingText(why)
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    // MARK: shared options

    static func outputDirectory(_ a: Arguments) -> String { a.values["--out"] ?? "shoebox-out" }

    static func today(_ a: Arguments, verb: String) throws(UsageError) -> CalendarDay {
        if let text = a.values["--today"] {
            guard let day = CalendarDay(iso: text), day.year >= FieldInput.earliestYear else {
                throw UsageError(
                    message: "shoebox \(verb): --today needs a date from \(FieldInput.earliestYear)-01-01 to 9999-12-31 as YYYY-MM-DD, not '\(text)'."
                )
            }
            return day
        }
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return CalendarDay(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))!
    }

    /// Another process holds the output folder's lock: exit 8, with its message.
    struct LockBusy: Error { let message: String }

    /// The output folder's lock (`run.lock`), as `run`, `export`, `import` and `review --apply` take it before
    /// they touch the store: held until the returned lock is released. Held by another process: `LockBusy`
    /// (exit 8, naming that process and its verb), or with `--wait`, wait for it. A folder that cannot be used
    /// (not writable, a file, `run.lock` a folder or a link): exit 4, with the system's reason.
    /// With a PostgreSQL store (`--store`), the store's writers' lock across machines is taken too (`StoreWriterLock`).
    static func lock(_ out: String, _ a: Arguments, verb: String) throws -> HeldLocks {
        let folder: RunLock
        do { folder = try RunLock(outputDirectory: out, wait: a.flags.contains("--wait"), verb: verb) } catch {
            guard error.reason == .busy else { throw PipelineError(code: .store, message: error.message) }
            throw LockBusy(message: error.message)
        }
        guard let url = try storeURL(a) else { return HeldLocks(folder: folder, store: nil) }
        do { return HeldLocks(folder: folder, store: try StoreWriterLock(url: url, wait: a.flags.contains("--wait"), verb: verb)) } catch {
            switch error {
            case .busy(let message): throw LockBusy(message: message)
            case .store(let e): throw e
            }
        }
    }

    /// The locks a command holds until it ends: its output folder's, and a PostgreSQL store's.
    struct HeldLocks {
        let folder: RunLock
        let store: StoreWriterLock?
    }

    static let maxPipelineFileBytes = 1 << 20

    /// The bytes of a file a person named (a decisions file, a store export): only a regular file (a FIFO or
    /// /dev/zero would hang or fill memory) of at most `limit` bytes, or a sentence saying why not.
    static func readRegularFile(_ path: String, limit: Int64) -> Result<Data, UsageError> {
        // A link the person named is their choice: resolved once here. What it names is then read as every
        // outside file is (InputFile): only a regular file, opened without blocking, at most `limit` bytes.
        let resolved =
            realpath(path, nil).map { p in
                defer { free(p) }
                return String(cString: p)
            } ?? path
        let bound = Int(clamping: limit)
        switch InputFile.readAll(
            resolved, limit: bound,
            tooLarge: { size in
                DocumentFailure(
                    code: "file-too-large",
                    message:
                        "\(StoredPath.shown(path)) is \(ByteCount.text(Int64(size))); at most \(ByteCount.text(limit)) is read. Split it, or check it is the right file."
                )
            })
        {
        case .success(let bytes): return .success(Data(bytes))
        case .failure(let f):
            switch f.code {
            case "file-too-large": return .failure(UsageError(message: f.message))
            case "not-a-regular-file":
                return .failure(UsageError(message: "\(StoredPath.shown(path)) is not a regular file. Give the path of a file."))
            case "missing-file":
                return .failure(UsageError(message: "cannot read \(StoredPath.shown(path)): \(String(cString: strerror(ENOENT))). Check the path."))
            default: return .failure(UsageError(message: "cannot read \(StoredPath.shown(path)). Check that this user may read it."))
            }
        }
    }

    /// The PostgreSQL store a command is pointed at: `--store URL`, else `SHOEBOX_STORE`; nil for the SQLite store of
    /// the output folder. A URL that is not PostgreSQL's, or that holds a password (it would show in process lists and
    /// logs), is a usage error that never repeats the URL.
    static func storeURL(_ a: Arguments) throws(UsageError) -> String? {
        let given = a.values["--store"]
        guard let url = given ?? ProcessInfo.processInfo.environment["SHOEBOX_STORE"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
        let origin = given == nil ? "SHOEBOX_STORE" : "--store"
        guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
            throw UsageError(
                message:
                    "shoebox: \(origin) takes a PostgreSQL URL, postgresql://USER@HOST/DATABASE; a SQLite store is the output folder's own (--out).")
        }
        guard !PostgresURL.hasPassword(url) else {
            throw UsageError(
                message:
                    "shoebox: the URL in \(origin) holds a password, which would show in process lists and logs. Leave it out and put it in PGPASSWORD or ~/.pgpass."
            )
        }
        return url
    }

    /// The store a command works on: the PostgreSQL store `storeURL` names, else the SQLite store in `out`, which must
    /// already be there unless `create`.
    static func store(_ a: Arguments, out: String, create: Bool = false) throws -> Store {
        if let url = try storeURL(a) { return try Store(postgresURL: url) }
        if !create { try requireStore(out) }
        return try Store(directory: out)
    }

    /// Commands that work on an existing store stop here when there is none, saying how to make one.
    static func requireStore(_ out: String, _ a: Arguments) throws {
        if try storeURL(a) == nil { try requireStore(out) }
    }

    /// Commands that work on an existing store stop here when there is none, saying how to make one.
    static func requireStore(_ out: String) throws(PipelineError) {
        guard FileManager.default.fileExists(atPath: PathText.joined(out, "store.sqlite")) else {
            throw PipelineError(
                code: .store, message: "there is no store in \(StoredPath.shown(out)). Run `shoebox run SCANS --out \(StoredPath.shown(out))` first.")
        }
    }

    /// The pipeline file: --pipeline, else pipelines/default.json when present, else the built-in defaults.
    static func pipeline(_ a: Arguments) throws(PipelineError) -> (PipelineConfig, String) {
        let explicit = a.values["--pipeline"]
        let path = explicit ?? "pipelines/default.json"
        guard FileManager.default.fileExists(atPath: path) else {
            if explicit != nil { throw PipelineError(code: .pipelineFile, message: "the pipeline file \(StoredPath.shown(path)) does not exist.") }
            return (PipelineConfig(), "built-in")
        }
        // Only a regular file of a sensible size is read (a FIFO or /dev/zero would hang or fill memory).
        let data: Data
        switch readRegularFile(path, limit: Int64(maxPipelineFileBytes)) {
        case .success(let d): data = d
        case .failure(let e): throw PipelineError(code: .pipelineFile, message: "the pipeline file: \(e.message)")
        }
        do { return (try PipelineConfig.parse(data, file: path), path) } catch {
            throw PipelineError(code: .pipelineFile, message: "invalid pipeline file \(error.description)")
        }
    }

    static func jobs(_ a: Arguments, config: PipelineConfig, verb: String) throws(UsageError) -> Int {
        if let n = try a.int("--jobs", verb: verb, range: 1...PipelineConfig.maxJobs) { return n }
        return config.jobs > 0 ? config.jobs : min(ProcessInfo.processInfo.activeProcessorCount, PipelineConfig.maxJobs)
    }
}
