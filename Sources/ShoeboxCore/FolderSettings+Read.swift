internal import Foundation
internal import Glibc

extension FolderSettings {
    /// Why a folder's settings file cannot be used: the file, and a sentence ending without a full stop.
    public struct Unusable: Error, Sendable, CustomStringConvertible {
        public let file: String
        public let reason: String
        public var description: String { reason }

        public init(file: String, reason: String) {
            self.file = file
            self.reason = reason
        }
    }

    /// The settings file of the scan folder at `folderPath` (`<folder>/.shoebox.json`), read as a sidecar is: only a
    /// regular file (never a link, a FIFO or a device) of at most 1 MiB. No file: the defaults (no categories, no
    /// currency). What run, regress, export and the store's check of a typed category all read: the one reader of it.
    public static func read(folderPath: String) -> Result<FolderSettings, Unusable> {
        let file = PathText.joined(folderPath, fileName)
        var info = stat()
        if lstat(file, &info) != 0, errno == ENOENT { return .success(FolderSettings()) }
        switch InputFile.readAll(file, limit: maxFileBytes, tooLarge: { .fileTooLarge(bytes: $0, limitMegabytes: 1) }) {
        case .success(let bytes):
            do { return .success(try FolderSettings.parse(Data(bytes), file: file)) } catch {
                return .failure(Unusable(file: file, reason: error.description))
            }
        case .failure(let f):
            let why = f.code == "file-too-large" ? "it is larger than 1 MiB" : f.message
            return .failure(Unusable(file: file, reason: "\(StoredPath.shown(file)) cannot be used: \(why)"))
        }
    }
}
