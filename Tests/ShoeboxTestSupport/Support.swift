public import Foundation
import Testing

/// The package root, found from this file's path.
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
public let fixtures = packageRoot.appendingPathComponent("Fixtures")

public func fixtureBytes(_ name: String) throws -> [UInt8] {
    let url = fixtures.appendingPathComponent("receipts").appendingPathComponent(name)
    guard let data = FileManager.default.contents(atPath: url.path) else {
        throw FixtureMissing(path: url.path)
    }
    return [UInt8](data)
}

public struct FixtureMissing: Error, CustomStringConvertible {
    public let path: String
    public var description: String { "fixture \(path) is missing; regenerate with `make fixtures`" }
}

/// A fresh temporary folder, removed by the caller.
public func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A pipeline file in `work` that lets the rules alone decide what is accepted (`acceptPrecision` 0), for tests whose
/// subject is what happens to accepted records (exports, review, duplicates), not the calibrated gate: the fixture
/// receipts' joint probability sits near 0.99, so under the default gate some of them wait in review and a refitted model
/// would move which. The gate itself is tested in CalibratedAcceptTests and CalibratedGateEndToEndTests.
public func rulesOnlyPipeline(in work: URL) throws -> String {
    let file = work.appendingPathComponent("rules-only.json")
    try Data(#"{"version": 1, "acceptPrecision": 0}"#.utf8).write(to: file)
    return file.path
}

/// `<work>/scans/receipts` holding a copy of every fixture receipt (the documents, not their expectations), and
/// the names of the files copied.
public func fixtureReceiptsFolder(in work: URL) throws -> (folder: URL, files: [String]) {
    let scans = work.appendingPathComponent("scans/receipts")
    try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
    let source = fixtures.appendingPathComponent("receipts")
    let files = try FileManager.default.contentsOfDirectory(atPath: source.path).filter { !$0.hasSuffix(".json") }
    for f in files { try FileManager.default.copyItem(at: source.appendingPathComponent(f), to: scans.appendingPathComponent(f)) }
    return (scans, files)
}

/// Runs a program and returns its exit code, stdout and stderr.
@discardableResult
public func runProgram(
    _ path: String, _ args: [String], environment: [String: String]? = nil,
    input: String? = nil
) throws -> (code: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    if let environment { p.environment = environment }
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    let stdin = input.map { _ in Pipe() }
    if let stdin { p.standardInput = stdin }
    try p.run()
    if let stdin, let input {
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
    }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

/// Starts a program in the background (its stdout discarded) and returns it running.
public func startProgram(_ path: String, _ args: [String]) throws -> Process {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    p.standardOutput = FileHandle.nullDevice
    try p.run()
    return p
}

/// Full path of a program on PATH (tests fail loudly with the install command when it is missing).
public func which(_ name: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

/// A one-page PDF (cross-reference table and all) whose page of `points` × `points` is covered by one image
/// XObject: `width` × `height` pixels as its dictionary says, stored as `data` under `filter` (DCTDecode:
/// JPEG bytes as they are) with `decodeParms` (a PDF dictionary, when the filter takes one).
public func onePageImagePDF(
    pointsWide: Int, pointsHigh: Int, width: Int, height: Int, colorSpace: String = "DeviceGray",
    bitsPerComponent: Int = 8, filter: String, decodeParms: String = "", data: [UInt8]
) -> Data {
    let content = "q \(pointsWide) 0 0 \(pointsHigh) 0 0 cm /Im0 Do Q"
    let objects: [[UInt8]] = [
        Array("<</Type/Catalog/Pages 2 0 R>>".utf8),
        Array("<</Type/Pages/Kids[3 0 R]/Count 1>>".utf8),
        Array("<</Type/Page/Parent 2 0 R/MediaBox[0 0 \(pointsWide) \(pointsHigh)]/Resources<</XObject<</Im0 4 0 R>>>>/Contents 5 0 R>>".utf8),
        Array(
            "<</Type/XObject/Subtype/Image/Width \(width)/Height \(height)/ColorSpace/\(colorSpace)/BitsPerComponent \(bitsPerComponent)/Filter/\(filter)\(decodeParms.isEmpty ? "" : "/DecodeParms" + decodeParms)/Length \(data.count)>>\nstream\n"
                .utf8)
            + data + Array("\nendstream".utf8),
        Array("<</Length \(content.utf8.count)>>\nstream\n\(content)\nendstream".utf8)
    ]
    return pdfFile(objects)
}

/// A fixture receipt scaled 4× (3780 × 5936 pixels), thresholded and coded as CCITT Group 4 fax data by
/// ImageMagick (a one-strip TIFF, whose strip is the data: IFD entries 273 and 279 give its offset and length).
public func faxData(_ fixture: String, in dir: URL) throws -> (data: [UInt8], width: Int, height: Int) {
    let tif = dir.appendingPathComponent("\(fixture).tif").path
    guard let convert = which("convert") else { throw FixtureMissing(path: "convert (imagemagick: make setup)") }
    try runProgram(
        convert,
        [
            fixtures.path + "/receipts/" + fixture, "-scale", "400%", "-threshold", "50%", "-compress", "Group4",
            "-define", "tiff:rows-per-strip=100000", "-define", "tiff:endian=lsb", tif
        ],
        environment: ["MAGICK_THREAD_LIMIT": "1"])
    guard let contents = FileManager.default.contents(atPath: tif) else { throw FixtureMissing(path: tif) }
    let file = [UInt8](contents)
    func u16(_ at: Int) -> Int { Int(file[at]) | Int(file[at + 1]) << 8 }
    func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
    let ifd = u32(4)
    var tags: [Int: Int] = [:]
    for i in 0..<u16(ifd) {
        let e = ifd + 2 + 12 * i
        tags[u16(e)] = u16(e + 2) == 3 ? u16(e + 8) : u32(e + 8) // SHORT or LONG
    }
    guard let offset = tags[273], let count = tags[279], let width = tags[256], let height = tags[257] else { throw FixtureMissing(path: tif) }
    return (Array(file[offset..<offset + count]), width, height)
}

/// The command that runs `binary` as an unprivileged user (uid 65534) when the tests run as root, whom
/// permission bits do not stop: a copy of the binary in `work` (its runpath to the Swift runtime is absolute,
/// so the copy runs wherever the checkout lives), with everything under `work` opened to all users (set any
/// restrictive permission after this call). Not root: the binary as it is. Nil when root has no `setpriv`.
public func unprivilegedCommand(_ binary: String, in work: URL) throws -> [String]? {
    guard getuid() == 0 else { return [binary] }
    guard let setpriv = which("setpriv") else { return nil }
    try runProgram("/bin/chmod", ["-R", "a+rwX", work.path])
    let copy = work.appendingPathComponent((binary as NSString).lastPathComponent).path
    // Copied by cp, not by this process: a file this process opened for writing can be inherited by a child another
    // test thread spawns at that moment, and executing the copy then fails with ETXTBSY ("Text file busy").
    let cp = try runProgram("/bin/cp", [binary, copy])
    guard cp.code == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cp \(binary): \(cp.err)"]) }
    try runProgram("/bin/chmod", ["0755", copy])
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", copy]
}

/// The records of the run in `out` (its `records.jsonl`) by their source path.
public func records(_ out: URL) throws -> [String: [String: Any]] {
    var bySource: [String: [String: Any]] = [:]
    for line in try String(contentsOf: out.appendingPathComponent("records.jsonl"), encoding: .utf8).split(separator: "\n") {
        let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        bySource[o["source"] as! String] = o
    }
    return bySource
}
