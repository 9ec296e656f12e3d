import Foundation
import ShoeboxTestSupport
import Testing

/// Issue 15, classes 10 and 11: numbers outside their documented range, and output folders that cannot be
/// used, through the real binary. The commands are chosen so that even a binary without the checks starts no
/// worker (a missing scan folder stops the run before any thread), so a failing run cannot take the machine.
@Suite(.serialized) struct HostileSettingsTests {
    /// Runs `shoebox ARGS` and returns the exit code and stderr.
    func run(_ args: [String]) throws -> (code: Int32, err: String) {
        let r = try runProgram(shoebox, args)
        return (r.code, r.err)
    }

    @Test func aJobsFlagOutsideItsRangeIsAUsageErrorNamingTheRange() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (verb, value) in [
            ("run", "99999"), ("run", "65"), ("run", "0"), ("run", "-3"), ("run", "2.5"), ("extract", "99999"), ("regress", "1000000")
        ] {
            let args =
                verb == "run"
                ? ["run", "/nonexistent/scans", "--out", dir.appendingPathComponent("out").path, "--jobs", value]
                : [verb, "/nonexistent/file.png", "--jobs", value]
            let r = try run(args)
            #expect(r.code == 2, "\(verb) --jobs \(value): \(r.err)")
            #expect(r.err == "shoebox \(verb): option '--jobs' needs a whole number from 1 to 64, not '\(value)'.\n", "\(r.err)")
        }
        // The help says the range where the flag is described.
        for verb in ["run", "extract", "regress"] {
            #expect(try runProgram(shoebox, [verb, "--help"]).out.contains("1…64"), "\(verb) --help names the range of --jobs")
        }
    }

    @Test func pipelineNumbersOutsideTheirRangeAreRefusedNamingKeyValueAndRange() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.json").path
        // --jobs 1 on a missing scan folder: the pipeline file is the only thing that can stop the run (exit 6);
        // without the check the run goes on and stops at the missing folder (exit 3).
        let cases: [(String, String)] = [
            (#""jobs": 1e18"#, #"key "jobs" is 1e+18, outside its range 0 to 64 (0: one per core)"#),
            (#""jobs": 65"#, #"key "jobs" is 65, outside its range 0 to 64"#),
            (#""jobs": 1e19"#, #"key "jobs" is 1e+19, outside its range 0 to 64"#),
            (#""maxMegapixels": 1e13"#, #"key "maxMegapixels" is 10000000000000, outside its range 1 to 500"#),
            (#""maxMegapixels": 0"#, #"key "maxMegapixels" is 0, outside its range 1 to 500"#),
            (#""extraPassSegmentationModes": [3.7]"#, #"key "extraPassSegmentationModes[0]" must be a whole number from 1 to 13, not 3.7"#),
            (#""extraPassSegmentationModes": [3, 0]"#, #"key "extraPassSegmentationModes[1]" is 0, outside its range 1 to 13"#),
            (#""extraPassSegmentationModes": [3,3,3,3,3,3,3,3,3,3,3,3,3,3]"#, #"holds 14 modes; at most 13"#),
            (#""dpi": 300.5"#, #"key "dpi" must be a whole number from 72 to 1200, not 300.5"#),
            (#""pageSegmentationMode": 6.5"#, #"key "pageSegmentationMode" must be a whole number from 0 to 13, not 6.5"#),
            (#""duplicateWindowHours": 1e300"#, #"key "duplicateWindowHours" is 1e+300, outside its range 0 to 8760 hours"#),
            (#""pageTimeoutSeconds": 1e9"#, #"key "pageTimeoutSeconds" is 1000000000, outside its range 0.001 to 3600 seconds"#),
            (#""textHeightTarget": 5"#, #"key "textHeightTarget" is 5, outside its range 10 to 80 (or 0: off)"#),
            (#""maxExportMegabytes": 1e-300"#, #"key "maxExportMegabytes" is 1e-300, outside its range 0.001 to 1048576 MiB"#),
            (#""maxExportMegabytes": 1e300"#, #"key "maxExportMegabytes" is 1e+300, outside its range 0.001 to 1048576 MiB"#)
        ]
        for (setting, message) in cases {
            try Data("{\"version\": 1, \(setting)}".utf8).write(to: URL(fileURLWithPath: file))
            let r = try run(["run", "/nonexistent/scans", "--out", dir.appendingPathComponent("out").path, "--jobs", "1", "--pipeline", file])
            #expect(r.code == 6, "\(setting): exit \(r.code), \(r.err)")
            #expect(r.err.contains(file) && r.err.contains(message), "\(setting): \(r.err)")
        }
        // A negative or zero version, and a fractional one.
        for v in ["0", "-1", "1.5"] {
            try Data("{\"version\": \(v)}".utf8).write(to: URL(fileURLWithPath: file))
            let r = try run(["run", "/nonexistent/scans", "--out", dir.appendingPathComponent("out").path, "--pipeline", file])
            #expect(r.code == 6 && r.err.contains("version \(v) is not supported"), "version \(v): \(r.err)")
        }
        // Values inside the ranges still read (the run then stops at the missing folder).
        try Data(
            #"{"version": 1, "jobs": 64, "maxMegapixels": 500, "extraPassSegmentationModes": [3.0, 11], "textHeightTarget": 0, "maxExportMegabytes": 0.01}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: file))
        #expect(try run(["run", "/nonexistent/scans", "--out", dir.appendingPathComponent("out").path, "--jobs", "1", "--pipeline", file]).code == 3)
        // Broken JSON is named in plain words, not Foundation's "The operation could not be completed".
        try Data(#"{"version": 1,"#.utf8).write(to: URL(fileURLWithPath: file))
        let broken = try run(["run", "/nonexistent/scans", "--out", dir.appendingPathComponent("out").path, "--pipeline", file])
        #expect(broken.code == 6 && broken.err.contains("not valid JSON (Unexpected end of file during JSON parse)"), "\(broken.err)")
        #expect(!broken.err.contains("could not be completed"), "\(broken.err)")
        // A pipeline "file" that is a device is refused before it is read (it would never end).
        let zero = try run(["run", "/nonexistent/scans", "--out", dir.appendingPathComponent("out").path, "--pipeline", "/dev/zero"])
        #expect(zero.code == 6 && zero.err.contains("/dev/zero is not a regular file"), "\(zero.err)")
    }

    @Test func anOutputFolderThatCannotBeUsedIsExitFourWithTheRealReason() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans/a")
        try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixtures.path + "/receipts/eng-gb-grocer.png", toPath: scans.appendingPathComponent("r.png").path)

        // --out is a regular file.
        let file = work.appendingPathComponent("out-file")
        try Data("x".utf8).write(to: file)
        let onFile = try run(["run", work.appendingPathComponent("scans").path, "--out", file.path, "--jobs", "1", "--today", today])
        #expect(onFile.code == 4, "exit \(onFile.code): \(onFile.err)")
        #expect(onFile.err.contains("the output folder \(file.path) is a file, not a folder"), "\(onFile.err)")
        #expect(!onFile.err.contains("another shoebox run"), "\(onFile.err)")
        // --out under a regular file.
        let under = try run(["run", work.appendingPathComponent("scans").path, "--out", file.path + "/sub", "--jobs", "1", "--today", today])
        #expect(under.code == 4 && under.err.contains("Not a directory"), "exit \(under.code): \(under.err)")

        // run.lock is a folder.
        let out = work.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out.appendingPathComponent("run.lock"), withIntermediateDirectories: true)
        let lockDir = try run(["run", work.appendingPathComponent("scans").path, "--out", out.path, "--jobs", "1", "--today", today])
        #expect(lockDir.code == 4, "exit \(lockDir.code): \(lockDir.err)")
        #expect(lockDir.err.contains("run.lock is a folder, not the lock file a run needs. Remove it"), "\(lockDir.err)")

        // A read-only output folder: root ignores permission bits, so as root the binary runs as an unprivileged
        // user (a copy of it, which that user can run wherever the checkout lives).
        let readOnly = work.appendingPathComponent("read-only")
        try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
        let asUser = try #require(try unprivilegedCommand(shoebox, in: work), "setpriv is missing: apt-get install -y util-linux")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly.path)
        let env = ["PATH": "/usr/bin:/bin", "HOME": work.path]
        let ro = try runProgram(
            asUser[0],
            Array(asUser.dropFirst()) + ["run", work.appendingPathComponent("scans").path, "--out", readOnly.path, "--jobs", "1", "--today", today],
            environment: env)
        #expect(ro.code == 4, "exit \(ro.code): \(ro.err)")
        #expect(ro.err.contains("cannot create \(readOnly.path)/run.lock: Permission denied"), "\(ro.err)")
        // A folder to be created inside a read-only one.
        let inside = readOnly.appendingPathComponent("new/out").path
        let ro2 = try runProgram(
            asUser[0],
            Array(asUser.dropFirst()) + ["run", work.appendingPathComponent("scans").path, "--out", inside, "--jobs", "1", "--today", today],
            environment: env)
        #expect(
            ro2.code == 4 && ro2.err.contains("cannot create the output folder \(readOnly.path)/new: Permission denied"),
            "exit \(ro2.code): \(ro2.err)")
        // import into a read-only folder says why too, without Foundation's "Cocoa error" text.
        let imp = try runProgram(asUser[0], Array(asUser.dropFirst()) + ["import", file.path, "--out", inside], environment: env)
        #expect(imp.code == 4, "exit \(imp.code): \(imp.err)")
        // import takes the store's lock first, which names the part that cannot be created, as for run.
        #expect(imp.err.contains("cannot create the output folder \(readOnly.path)/new: Permission denied"), "\(imp.err)")
    }
}
