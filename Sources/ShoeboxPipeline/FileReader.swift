public import ShoeboxCore

/// Where the steps on a worker get a document's bytes: the file under the scan folder (a run on the machine that has
/// it), or the store (`shoebox worker`, which needs no shared folder: intake put the bytes there, by their SHA-256).
/// Every way in is bounded (`limit` bytes, else `tooLarge`) and checked against intake's hash by its caller.
public struct FileReader: Sendable {
    let read:
        @Sendable (_ source: SourceFile, _ limit: Int, _ tooLarge: @escaping @Sendable (Int) -> DocumentFailure) -> Result<[UInt8], DocumentFailure>

    public init(
        _ read:
            @escaping @Sendable (_ source: SourceFile, _ limit: Int, _ tooLarge: @escaping @Sendable (Int) -> DocumentFailure) -> Result<
                [UInt8], DocumentFailure
            >
    ) {
        self.read = read
    }

    /// The file at the source's path (only a regular file, opened without following a link, as every outside file).
    public static let disk = FileReader { source, limit, tooLarge in InputFile.readAll(source.path, limit: limit, tooLarge: tooLarge) }

    /// Bytes kept by their SHA-256 (`fetch` nil: not there, `missing-file`), held to the same bound as a file.
    public static func stored(_ fetch: @escaping @Sendable (String) -> [UInt8]?) -> FileReader {
        FileReader { source, limit, tooLarge in
            guard let bytes = fetch(source.sha256) else { return .failure(.missingFile) }
            return bytes.count > limit ? .failure(tooLarge(bytes.count)) : .success(bytes)
        }
    }
}
