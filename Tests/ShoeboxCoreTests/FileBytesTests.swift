import Foundation
import ShoeboxTestSupport
import Testing

@testable import ShoeboxCore

/// Files written by path through POSIX calls (issue 53): whole or not at all, a link replaced and not followed,
/// the system's reason said in words.
struct FileBytesTests {
    @Test func aFileIsWrittenWholeAndNoScratchFileStays() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.path + "/new\nline ü.json"
        try FileBytes.write(Data("first".utf8), to: path)
        try FileBytes.write(Data("second, longer".utf8), to: path)
        #expect(FileManager.default.contents(atPath: path) == Data("second, longer".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["new\nline ü.json"])
        try FileBytes.write(Data("in place".utf8), to: path, atomically: false)
        #expect(FileManager.default.contents(atPath: path) == Data("in place".utf8))
    }

    @Test func aLinkAtThePathIsReplacedNotFollowed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("keep".utf8).write(to: dir.appendingPathComponent("target"))
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/link", withDestinationPath: "target")
        try FileBytes.write(Data("new".utf8), to: dir.path + "/link")
        #expect(FileManager.default.contents(atPath: dir.path + "/target") == Data("keep".utf8))
        #expect(FileManager.default.contents(atPath: dir.path + "/link") == Data("new".utf8))
    }

    @Test func aMissingFolderIsSaidInWords() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect {
            try FileBytes.write(Data("x".utf8), to: dir.path + "/missing/f.json")
        } throws: { error in
            SystemReason.of(error) == "No such file or directory"
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
