internal import Foundation
public import ShoeboxCore

#if canImport(Glibc)
    internal import Glibc
#endif

/// Writes `exports/<folder>.zip` per folder, byte-identical for the same store: `receipts/` with the
/// originals of accepted and confirmed records renamed `YYYY-MM-DD_merchant_12.34-EUR.ext`, `summary.csv`,
/// `summary.json`, `summary.xlsx` (one column definition: `ExportTable`; its second sheet the items), `items.csv`
/// (`ItemsTable`), `totals.csv`, `ledger.beancount` and `MANIFEST.sha256`. Nothing pending reaches an export; what was left out is counted per reason.
public struct FolderExporter {
    public struct Options: Sendable {
        /// Only this folder; nil: every folder.
        public var folder: String?
        public var from: CalendarDay?
        public var to: CalendarDay?
        public var csvProfile: CSVWriter.Profile = .rfc4180
        public var categoryRules: [CategoryRule] = []
        public var maxBytes: Int64 = 2 << 30

        public init() {}
    }

    public struct FolderResult: Sendable {
        public let folder: String
        public let zipPath: String
        public let exported: Int
        /// Documents of the folder left out, per state and reason ("review:total-missing", "failed:corrupt-pdf").
        public let leftOut: [String: Int]
        /// Records outside --from/--to (not part of this export at all).
        public let outsideRange: Int
    }

    public let exportDirectory: String
    public let options: Options

    public init(exportDirectory: String, options: Options = Options()) {
        self.exportDirectory = exportDirectory
        self.options = options
    }

    /// Why a record is not exported, or nil when it is. An accepted record whose path a store may not hold
    /// (`StoredPath`: only an older Shoebox's store has one) is left out: its original is never looked for.
    static func leftOutReason(_ r: DocumentRecord) -> String? {
        switch r.status {
        case .accepted: return StoredPath.problem(r.source) == nil ? nil : "accepted:unusable-path"
        case .failed: return "failed:\(r.failure?.code ?? "unknown")"
        case .review: return "review:\(r.reasons.first?.code ?? "pending")"
        default: return r.status.rawValue
        }
    }

    func inRange(_ r: DocumentRecord) -> Bool {
        guard options.from != nil || options.to != nil else { return true }
        guard let d = r.date else { return false }
        return (options.from.map { d >= $0 } ?? true) && (options.to.map { d <= $0 } ?? true)
    }

    /// `originalPath`: where each record's original is; `folderSettings`: a folder's `.shoebox.json`.
    public func export(
        records all: [DocumentRecord], originalPath: (DocumentRecord) -> String,
        folderSettings: (String) throws(ExportError) -> FolderSettings
    ) throws(ExportError) -> [FolderResult] {
        // Folders by their exact bytes: "café" composed and decomposed are two folders on Linux (Swift's `==`
        // would hold them one), each with its own zip.
        let wanted = options.folder.map { Array($0.utf8) }
        let records = all.filter { wanted == nil || Array($0.folder.utf8) == wanted }
        let byFolder = Dictionary(grouping: records, by: { Array($0.folder.utf8) })
        // One zip name per folder, from every folder of the store (so `--folder` gives the name a whole export
        // gives); two folders on one name would overwrite each other's zip, so that is refused, never written.
        let zipStems = try FolderExporter.zipStems(forFolders: all.map(\.folder))
        let sizes = try originalSizes(records, originalPath: originalPath)
        do { try FileManager.default.createDirectory(atPath: exportDirectory, withIntermediateDirectories: true) } catch {
            throw ExportError(
                message:
                    "cannot create the export folder \(exportDirectory): \(SystemReason.of(error)). Check that the output folder is writable and that nothing else is in the way under that name."
            )
        }

        var results: [FolderResult] = []
        for key in byFolder.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let folder = String(decoding: key, as: UTF8.self)
            guard
                let result = try exportFolder(
                    folder, records: byFolder[key]!, zipStem: zipStems[key], sizes: sizes, originalPath: originalPath,
                    folderSettings: folderSettings)
            else { continue }
            results.append(result)
        }
        return results
    }

    /// Bounded: the sizes of the originals of everything to be written (by source), summed before anything is written.
    func originalSizes(_ records: [DocumentRecord], originalPath: (DocumentRecord) -> String) throws(ExportError) -> [String: Int64] {
        var bytes: Int64 = 0
        var sizes: [String: Int64] = [:]
        // An expense entered by hand has no original.
        for r in records where FolderExporter.leftOutReason(r) == nil && inRange(r) && !r.enteredByHand {
            let path = originalPath(r)
            // lstat, not FileManager's attributes: those look up the owner's user name, which may ask a
            // networked name service (a socket). A link or anything but a regular file is not an original.
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                throw ExportError(
                    .originalChanged,
                    message:
                        "the original \(StoredPath.shown(path)) of an accepted record cannot be read any more (missing, or no longer a regular file); restore it or re-run `shoebox run`."
                )
            }
            let size = Int64(info.st_size)
            sizes[r.source] = size
            bytes += size
        }
        if bytes > options.maxBytes {
            throw ExportError(
                .tooLarge,
                message: "this export would hold \(ByteCount.text(bytes)) of originals, more than the limit of \(ByteCount.text(options.maxBytes)). "
                    + "Export part of it with --from YYYY-MM-DD --to YYYY-MM-DD (or one --folder), or raise maxExportMegabytes in the pipeline file.")
        }
        return sizes
    }

    /// One folder's zip (`zipStem`: its checked name, nil: named from the folder alone); nil when a date range holds
    /// nothing of the folder, which writes no zip for it.
    func exportFolder(
        _ folder: String, records: [DocumentRecord], zipStem: String?, sizes: [String: Int64], originalPath: (DocumentRecord) -> String,
        folderSettings: (String) throws(ExportError) -> FolderSettings
    ) throws(ExportError) -> FolderResult? {
        let inFolder = records.sorted { $0.source < $1.source }
        let chosen = inFolder.filter(inRange)
        // A date range that holds nothing of this folder writes no zip for it.
        if chosen.isEmpty && (options.from != nil || options.to != nil) { return nil }
        // Rows in date order (undated last), then by path: the order a bookkeeper reads them in.
        let accepted = chosen.filter { FolderExporter.leftOutReason($0) == nil }
            .sorted { ($0.date?.iso ?? "9999", $0.source) < ($1.date?.iso ?? "9999", $1.source) }
        var leftOut: [String: Int] = [:]
        for r in chosen { if let why = FolderExporter.leftOutReason(r) { leftOut[why, default: 0] += 1 } }
        let settings = try folderSettings(folder)

        // A standalone XML e-invoice goes in as it is, named `.xml` whatever its file was called, with the page
        // Shoebox renders from it beside it (`.html`, the same name); a PDF e-invoice carries its XML inside.
        let xmlInvoices = accepted.map { $0.eInvoice != nil && FolderExporter.isXML(originalPath($0)) }
        let names = ExportNaming.uniqueNames(
            zip(accepted, xmlInvoices).map { r, isXML in
                let ext = isXML ? "xml" : PathText.pathExtension(of: r.source).lowercased()
                return (ExportNaming.baseName(for: r), ExportNaming.sanitize(ext.isEmpty ? "bin" : ext, maxLength: 8), isXML ? "html" : nil)
            })
        let rows = zip(accepted, names).map { r, name in
            ExportRow(
                record: r, category: r.category ?? settings.category(for: r, rules: options.categoryRules),
                fileInZip: r.enteredByHand ? "" : "receipts/\(name.name)",
                originalPath: originalPath(r))
        }
        let renderings = zip(accepted, names).compactMap { r, name -> (String, [UInt8])? in
            guard let companion = name.companion, let e = r.eInvoice else { return nil }
            return ("receipts/\(companion)", Array(EInvoiceHTML.render(e, record: r).utf8))
        }
        // An agent's sidecar goes in verbatim beside the document it filed (`NAME.json`, as it was dropped).
        let sidecars = zip(accepted, names).compactMap { r, name -> (String, [UInt8])? in
            guard let a = r.agentEntry, !a.sidecar.isEmpty, !r.enteredByHand else { return nil }
            return ("receipts/\(name.name).json", Array(a.sidecar.utf8))
        }
        let generated = try generatedFiles(
            ExportTable(rows: rows), rows: rows, folder: folder, leftOut: leftOut, renderings: renderings + sidecars)

        // A date range is part of the name, so a partial export never replaces the folder's whole one.
        let range = options.from == nil && options.to == nil ? "" : "_\(options.from?.iso ?? "start")_\(options.to?.iso ?? "end")"
        let zipName = (zipStem ?? ExportNaming.zipStem(forFolder: folder)) + range + ".zip"
        let zipPath = PathText.joined(exportDirectory, zipName)
        try writeZip(zipPath, generated: generated, rows: rows, sizes: sizes)
        return FolderResult(
            folder: folder, zipPath: zipPath, exported: accepted.count, leftOut: leftOut, outsideRange: inFolder.count - chosen.count)
    }

    /// The files a zip holds besides the originals: the summaries, the ledger, the pages rendered from standalone
    /// XML e-invoices (`renderings`: name in the zip and bytes) and `MANIFEST.sha256` of them all.
    func generatedFiles(
        _ table: ExportTable, rows: [ExportRow], folder: String, leftOut: [String: Int], renderings: [(String, [UInt8])] = []
    ) throws(ExportError) -> [(String, [UInt8])] {
        let items = ItemsTable.grid(table.rows)
        var generated: [(String, [UInt8])] =
            [
                ("summary.csv", Array(CSVWriter.text(of: table, profile: options.csvProfile).utf8)),
                ("summary.json", FolderExporter.summaryJSON(table, folder: folder, leftOut: leftOut, options: options)),
                ("summary.xlsx", try XLSXWriter.bytes(of: [table.grid, items], scratchDirectory: exportDirectory)),
                ("items.csv", Array(CSVWriter.text(of: items, profile: options.csvProfile).utf8)),
                ("totals.csv", Array(ExportSummaries.totals(table, profile: options.csvProfile).utf8)),
                ("ledger.beancount", Array(ExportSummaries.beancount(table).utf8)),
                ("deadlines.csv", Array(DeadlineFiles.csv(rows.map(\.record), profile: options.csvProfile).utf8)),
                ("deadlines.ics", Array(DeadlineFiles.ics(rows.map(\.record), folder: folder).utf8))
            ] + renderings
        var manifest: [(String, String)] = generated.map { ($0.0, SHA256.hex(of: $0.1)) }
        manifest += rows.filter { !$0.fileInZip.isEmpty }.map { ($0.fileInZip, $0.record.sha256) }
        let manifestText = manifest.sorted { FolderExporter.precedes($0.0, $1.0) }.map { "\($0.1)  \($0.0)\n" }.joined()
        generated.append(("MANIFEST.sha256", Array(manifestText.utf8)))
        return generated
    }

    /// Writes the zip at `zipPath`. Stable order: entries sorted by their UTF-8 bytes; originals streamed from disk
    /// one at a time.
    func writeZip(_ zipPath: String, generated: [(String, [UInt8])], rows: [ExportRow], sizes: [String: Int64]) throws(ExportError) {
        let writer = try ZipWriter(path: zipPath)
        enum Entry {
            case bytes([UInt8])
            case original(ExportRow)
        }
        let entries = generated.map { ($0.0, Entry.bytes($0.1)) } + rows.filter { !$0.fileInZip.isEmpty }.map { ($0.fileInZip, Entry.original($0)) }
        for (name, entry) in entries.sorted(by: { FolderExporter.precedes($0.0, $1.0) }) {
            switch entry {
            case .bytes(let b): try writer.add(name: name, bytes: b)
            case .original(let row):
                try writer.add(name: name, file: row.originalPath, size: sizes[row.record.source] ?? 0, sha256: row.record.sha256)
            }
        }
        try writer.finish()
    }

    /// Every folder's zip name (`ExportNaming.zipStems`), checked to be unique without regard to case; a clash
    /// (two folders whose names' hashes agree) is refused before anything is written.
    static func zipStems(forFolders folders: [String]) throws(ExportError) -> [[UInt8]: String] {
        let stems = ExportNaming.zipStems(forFolders: folders)
        let clashes = Dictionary(grouping: stems.keys, by: { stems[$0]!.lowercased() }).values.filter { $0.count > 1 }
        let named = clashes.map { keys in keys.sorted { $0.lexicographicallyPrecedes($1) } }
        if let clash = named.min(by: { $0[0].lexicographicallyPrecedes($1[0]) }) {
            let names = clash.map { "'\(String(decoding: $0, as: UTF8.self))'" }.joined(separator: " and ")
            throw ExportError(
                .nameClash,
                message: "the folders \(names) would both be exported as \(stems[clash[0]]!).zip, "
                    + "and one zip would replace the other; nothing was exported. Rename one of the folders in the scan folder and run `shoebox run` again."
            )
        }
        return stems
    }

    /// Removes what an export killed half-way left in `exportDirectory`: temporary zips
    /// (`<name>.partial-XXXXXX`: zips and the store as JSON) and XLSX scratch files (`.summary-<pid>.xlsx`). Only for a caller that
    /// holds the store's lock, so no other export is writing them. Returns the names removed.
    @discardableResult
    public static func removeLeftovers(in exportDirectory: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: exportDirectory) else { return [] }
        let leftovers = names.filter { name in
            // Any file this export writes through a temporary one: a zip, the store as JSON.
            if let r = name.range(of: ".partial-", options: .backwards) { return name[r.upperBound...].count == 6 }
            return name.hasPrefix(".summary-") && name.hasSuffix(".xlsx") && name.dropFirst(9).dropLast(5).allSatisfy(\.isNumber)
        }
        for name in leftovers { unlink(PathText.joined(exportDirectory, name)) }
        return leftovers.sorted()
    }

    /// True when the file at `path` starts as an XML document does (`FileKind.sniff`, by content, never by name).
    /// An unreadable file is not XML here; writing the zip names it.
    static func isXML(_ path: String) -> Bool {
        // O_NONBLOCK: should the file have been swapped for a FIFO since it was checked, open does not wait.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 16)
        let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, 16) }
        return n > 0 && FileKind.sniff(head.prefix(n)) == .xml
    }

    static func precedes(_ a: String, _ b: String) -> Bool { Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) }

    /// `summary.json`: the same cells as the CSV, amounts as decimal strings (exact), dates ISO 8601, plus what
    /// was left out and why.
    static func summaryJSON(_ table: ExportTable, folder: String, leftOut: [String: Int], options: Options) -> [UInt8] {
        func value(_ cell: ExportCell) -> Any {
            switch cell {
            case .text(let s): return s
            case .amount(let m): return m.decimalString
            case .date(let d): return d.iso
            case .number(let x, let digits): return (x * pow(10, Double(digits))).rounded() / pow(10, Double(digits))
            case .empty: return NSNull()
            }
        }
        let rows: [[String: Any]] = table.rows.map { row in
            var o = Dictionary(uniqueKeysWithValues: zip(table.header, table.cells(row).map(value)))
            // The line items, with what proves them (null when the record has none).
            o["items"] = ItemsTable.json(row.record)
            o["items_check"] = row.record.itemsCheck?.rawValue ?? NSNull()
            return o
        }
        let object: [String: Any] = [
            "version": 1, "folder": folder, "columns": table.header, "records": rows,
            "exported": table.rows.count, "leftOut": leftOut,
            "from": options.from?.iso ?? NSNull(), "to": options.to?.iso ?? NSNull()
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return [UInt8](data) + [0x0A]
    }
}
