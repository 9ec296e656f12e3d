public import Foundation

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

/// Runs a program and returns its exit code, stdout and stderr.
@discardableResult
public func runProgram(_ path: String, _ args: [String], environment: [String: String]? = nil,
                       input: String? = nil) throws -> (code: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    if let environment { p.environment = environment }
    let out = Pipe(), err = Pipe()
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
