internal import Foundation
public import ShoeboxCore

/// Writes `exports/<folder>.zip` per folder: the originals of accepted records renamed
/// `YYYY-MM-DD_merchant_12.34-EUR.ext` under `receipts/`, and `summary.csv` (RFC 4180).
/// Nothing pending reaches an export: only accepted records are written; the rest are counted per state.
public struct FolderExporter {
    public struct FolderResult: Sendable {
        public let folder: String
        public let zipPath: String
        public let exported: Int
        /// Documents of the folder left out, per state or failure code.
        public let leftOut: [String: Int]
    }

    public let exportDirectory: String

    public init(exportDirectory: String) {
        self.exportDirectory = exportDirectory
    }

    static let columns = ["date", "merchant", "total", "currency", "subtotal", "tax", "payment_method",
                          "reference_number", "document_kind", "file", "original_path", "sha256", "confidence"]

    /// A text cell a spreadsheet could run as a formula gets a leading apostrophe (OWASP CSV injection advice).
    static func safeText(_ s: String) -> String {
        guard let first = s.first, "=+-@\t\r".contains(first) else { return s }
        return "'" + s
    }

    public func export(records: [DocumentRecord], originalPath: (DocumentRecord) -> String) throws(ExportError) -> [FolderResult] {
        do { try FileManager.default.createDirectory(atPath: exportDirectory, withIntermediateDirectories: true) } catch {
            throw ExportError(message: "cannot create \(exportDirectory): \(error.localizedDescription)")
        }
        let byFolder = Dictionary(grouping: records, by: \.folder)
        var results: [FolderResult] = []
        for folder in byFolder.keys.sorted() {
            let all = byFolder[folder]!.sorted { $0.source < $1.source }
            let accepted = all.filter { $0.status == .accepted }
            var leftOut: [String: Int] = [:]
            for r in all where r.status != .accepted {
                // Why each was left out: the failure's code, the review's first reason, or the state.
                let why: String
                switch r.status {
                case .failed: why = "failed:\(r.failure?.code ?? "unknown")"
                case .review: why = "review:\(r.reasons.first ?? "pending")"
                default: why = r.status.rawValue
                }
                leftOut[why, default: 0] += 1
            }
            let names = ExportNaming.uniqueNames(accepted.map { r in
                (ExportNaming.baseName(for: r), ((r.source as NSString).pathExtension.lowercased().isEmpty ? "bin" : (r.source as NSString).pathExtension.lowercased()))
            })
            var csv = CSVWriter(header: FolderExporter.columns)
            var entries: [(String, [UInt8])] = []
            for (record, name) in zip(accepted, names) {
                let path = originalPath(record)
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ExportError(message: "the original \(path) of an accepted record cannot be read any more; restore it or re-run `shoebox run`.")
                }
                guard SHA256.hex(of: data) == record.sha256 else {
                    throw ExportError(message: "the original \(path) changed since it was processed; re-run `shoebox run` before exporting.")
                }
                entries.append(("receipts/\(name)", [UInt8](data)))
                let confidence = ["merchant", "date", "total", "currency"].compactMap { record.confidence[$0] }.min() ?? 0
                let row = [
                    record.date?.iso ?? "", FolderExporter.safeText(record.merchant ?? ""), record.total?.decimalString ?? "",
                    record.currency?.code ?? "", record.subtotal?.decimalString ?? "",
                    record.tax.map(\.amount.minorUnits).reduce(0, +) == 0 && record.tax.isEmpty ? "" :
                        Money.decimalString(minorUnits: record.tax.map(\.amount.minorUnits).reduce(0, +), digits: record.currency?.minorDigits ?? 2),
                    record.paymentMethod ?? "", FolderExporter.safeText(record.referenceNumber ?? ""), record.documentKind?.rawValue ?? "",
                    "receipts/\(name)", FolderExporter.safeText(record.source), record.sha256, String(format: "%.3f", confidence),
                ]
                do { try csv.append(row) } catch { throw ExportError(message: "internal: \(error)") }
            }
            entries.append(("summary.csv", Array(csv.text.utf8)))
            let zipName = (folder.isEmpty ? "unsorted" : ExportNaming.sanitize(folder, maxLength: 80)) + ".zip"
            let zipPath = (exportDirectory as NSString).appendingPathComponent(zipName)
            let writer = try ZipWriter(path: zipPath)
            // Stable order: entries sorted by their UTF-8 bytes.
            for (name, bytes) in entries.sorted(by: { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }) {
                try writer.add(name: name, bytes: bytes)
            }
            try writer.finish()
            results.append(FolderResult(folder: folder, zipPath: zipPath, exported: accepted.count, leftOut: leftOut))
        }
        return results
    }
}
