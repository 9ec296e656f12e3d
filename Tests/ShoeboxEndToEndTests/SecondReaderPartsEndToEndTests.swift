import Foundation
import ShoeboxTestSupport
import Testing

/// The second reader's parts (issue 33, class 6) are files in the folder SHOEBOX_READERS names, and are checked as
/// files before anything opens them: a FIFO, a folder, a link, an empty or an oversize file in place of one makes
/// the second reader "not usable" with its reason, `shoebox --version` and `shoebox run` still finish, the run
/// reads with tesseract alone and its summary says why.
@Suite(.serialized) struct SecondReaderPartsEndToEndTests {
    static let installed = "/usr/local/lib/shoebox"
    static let library = "libonnxruntime.so.1.32.0"
    /// The folder holds an older install's parts, PP-OCRv4 alone: the fallback model reads, and a broken one is named
    /// (a PP-OCRv6 model that is not there at all makes way; one that is there is never skipped).
    static let recognition = "ch_PP-OCRv4_rec_folded.onnx"
    static let detection = "ch_PP-OCRv4_det_folded.onnx"

    /// One part replaced, and the words the reason gives for it.
    enum Broken: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case recognitionModelIsAFIFO, detectionModelIsAFIFO, libraryIsAFIFO, detectionModelIsAFolder
        case recognitionModelIsOversize, detectionModelIsEmpty, recognitionModelIsASymbolicLink

        var testDescription: String { rawValue }

        var part: String {
            switch self {
            case .recognitionModelIsAFIFO, .recognitionModelIsOversize, .recognitionModelIsASymbolicLink: recognition
            case .detectionModelIsAFIFO, .detectionModelIsAFolder, .detectionModelIsEmpty: detection
            case .libraryIsAFIFO: library
            }
        }

        var reason: String {
            switch self {
            case .recognitionModelIsAFIFO, .detectionModelIsAFIFO, .libraryIsAFIFO: "it is a FIFO (named pipe), not a regular file"
            case .detectionModelIsAFolder: "it is a folder, not a regular file"
            case .recognitionModelIsOversize: "larger than the 64.0 MiB"
            case .detectionModelIsEmpty: "it is empty"
            case .recognitionModelIsASymbolicLink: "it is a symbolic link"
            }
        }

        /// Puts this part's stand-in at `path` (the real part at `real`).
        func make(at path: String, real: String) throws {
            let fm = FileManager.default
            switch self {
            case .recognitionModelIsAFIFO, .detectionModelIsAFIFO, .libraryIsAFIFO:
                #expect(mkfifo(path, 0o644) == 0)
            case .detectionModelIsAFolder:
                try fm.createDirectory(atPath: path, withIntermediateDirectories: false)
            case .recognitionModelIsOversize:
                // Sparse: 100 MiB that cost no disk.
                #expect(fm.createFile(atPath: path, contents: nil))
                let handle = try #require(FileHandle(forWritingAtPath: path))
                try handle.truncate(atOffset: 100 << 20)
                try handle.close()
            case .detectionModelIsEmpty:
                #expect(fm.createFile(atPath: path, contents: Data()))
            case .recognitionModelIsASymbolicLink:
                try fm.createSymbolicLink(atPath: path, withDestinationPath: real)
            }
        }
    }

    /// `shoebox` killed after `seconds` (`timeout -s KILL`, exit 9 or 137): a hang fails the test instead of stopping the suite.
    static func timed(_ args: [String], readers: URL, seconds: Int) throws -> (code: Int32, out: String, err: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["SHOEBOX_READERS"] = readers.path
        return try runProgram("/usr/bin/timeout", ["-s", "KILL", String(seconds), shoebox] + args, environment: environment)
    }

    /// A readers folder holding the installed parts (hard links where the file system allows, else copies: regular
    /// files either way), with `broken`'s part replaced.
    static func readers(in work: URL, broken: Broken?) throws -> URL {
        let folder = work.appendingPathComponent("readers")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for part in [library, recognition, detection] {
            let real = installed + "/" + part
            #expect(FileManager.default.fileExists(atPath: real), "make setup installs \(real)")
            let path = folder.appendingPathComponent(part).path
            if let broken, broken.part == part {
                try broken.make(at: path, real: real)
            } else if (try? FileManager.default.linkItem(atPath: real, toPath: path)) == nil {
                try FileManager.default.copyItem(atPath: real, toPath: path)
            }
        }
        return folder
    }

    /// Runs one receipt with the readers in `readers`: the run's output and records.jsonl.
    static func run(in work: URL, readers: URL) throws -> (code: Int32, out: String, records: String) {
        let scans = work.appendingPathComponent("scans")
        try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("receipts/eng-gb-grocer.png"), to: scans.appendingPathComponent("grocer.png"))
        let out = work.appendingPathComponent("out")
        // The rules alone decide: with one reader fewer the calibrated probability is lower.
        let rules = try rulesOnlyPipeline(in: work)
        let r = try timed(
            ["run", scans.path, "--out", out.path, "--today", "2026-12-02", "--pipeline", rules, "--jobs", "1"], readers: readers, seconds: 180)
        let records = (try? String(contentsOf: out.appendingPathComponent("records.jsonl"), encoding: .utf8)) ?? ""
        return (r.code, r.out + r.err, records)
    }

    @Test(.tags(.ocr), arguments: Broken.allCases) func aPartThatIsNotAUsableFileLeavesTesseractReadingAloneAndSaysWhy(broken: Broken) throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let readers = try Self.readers(in: work, broken: broken)
        let path = readers.appendingPathComponent(broken.part).path
        let expected = "second reader: none, tesseract reads alone (its part \(path) is not usable: "

        let version = try Self.timed(["--version"], readers: readers, seconds: 30)
        #expect(version.code == 0, "exit \(version.code) (9 or 137: killed by `timeout` after 30 s): \(version.err)")
        #expect(version.out.contains(expected), "\(version.out)")
        #expect(version.out.contains(broken.reason), "\(version.out)")

        let run = try Self.run(in: work, readers: readers)
        #expect(run.code == 0, "exit \(run.code) (9 or 137: killed by `timeout` after 180 s): \(run.out.suffix(600))")
        // The run's own summary names the part and the reason.
        let line = run.out.split(separator: "\n").first { $0.hasPrefix("second reader: ") }.map(String.init) ?? ""
        #expect(line.contains(expected) && line.contains(broken.reason), "\(run.out.suffix(600))")
        // Read by tesseract alone, and read right.
        #expect(run.records.contains(#""total":"13.90""#), "\(run.records.prefix(600))")
        #expect(run.records.contains(#""status":"accepted""#))
        #expect(!run.records.contains("ocr-ppocr"), "the second reader read with a part that is not usable")
    }

    /// The same folder with every part a regular file: both readers read, and the run's summary has no word on it.
    @Test(.tags(.ocr)) func theSameFolderWithEveryPartInPlaceReadsWithBothReaders() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let readers = try Self.readers(in: work, broken: nil)
        let version = try Self.timed(["--version"], readers: readers, seconds: 30)
        #expect(version.out.contains("second reader: PP-OCRv4 rec folded, ONNX Runtime 1.32.0, from \(readers.path)"), "\(version.out)")
        let run = try Self.run(in: work, readers: readers)
        #expect(run.code == 0, "\(run.out.suffix(600))")
        #expect(!run.out.contains("second reader: none"), "\(run.out.suffix(600))")
        #expect(run.records.contains(#""total":"13.90""#))
        #expect(run.records.contains("ocr-ppocr"), "the second reader confirmed nothing: \(run.records.prefix(600))")
    }
}
