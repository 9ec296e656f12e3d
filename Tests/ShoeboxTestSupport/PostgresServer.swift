public import Foundation

/// A real PostgreSQL server of the test's own: a data folder made by `initdb` in a fresh folder, served on a Unix socket
/// there and on no TCP port (platform notes), stopped at once (`pg_ctl -m immediate`) by `stop()`. Its databases order
/// text by ICU's en-US collation (ä, b, B, Z), not by bytes, as many a firm's server does. `initdb` refuses to
/// run as root, so it runs as Debian's `postgres` user when the tests run as root.
public final class PostgresServer {
    public let folder: URL
    /// The URL a store connects with (no password: the server trusts local connections).
    public var url: String { "postgresql:///postgres?host=\(folder.path)&user=postgres" }
    private let bin = "/usr/lib/postgresql/15/bin"
    private var running = false

    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    public init() throws {
        guard FileManager.default.isExecutableFile(atPath: bin + "/initdb") else {
            throw Failed(description: "PostgreSQL 15 is not installed: apt-get install -y postgresql libpq-dev (make setup)")
        }
        folder = URL(fileURLWithPath: "/tmp/shoebox-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        if getuid() == 0 { try check(runProgram("/bin/chown", ["postgres:postgres", folder.path]), "chown") }
        try check(
            asPostgres([
                bin + "/initdb", "-D", folder.path + "/data", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--locale-provider=icu",
                "--icu-locale=en-US"
            ]), "initdb")
        try start()
    }

    deinit { stop() }

    /// Stops the server at once and removes its folder.
    public func stop() {
        halt()
        for mount in mounts.reversed() { _ = try? runProgram("/bin/umount", [mount]) }
        mounts = []
        try? FileManager.default.removeItem(at: folder)
    }

    /// Stops the server at once, as a crash or a pulled cable would (`-m immediate`), keeping its data.
    public func halt() {
        if running { _ = try? asPostgres([bin + "/pg_ctl", "-D", folder.path + "/data", "-m", "immediate", "-w", "stop"]) }
        running = false
    }

    /// Starts the server again on its data after `halt`.
    public func start() throws {
        guard !running else { return }
        try check(
            asPostgres([
                bin + "/pg_ctl", "-D", folder.path + "/data", "-o", "-k \(folder.path) -c listen_addresses=''", "-l", folder.path + "/log", "-w",
                "start"
            ]), "pg_ctl start")
        running = true
    }

    /// Restarts the server as an administrator or a package upgrade does (`pg_ctl restart -m fast`: every session is
    /// ended, a transaction under way rolled back), waiting until it accepts connections again; `pause` seconds with
    /// the server down in between (a slow start).
    public func restart(pause: Double = 0) throws {
        guard running else { return try start() }
        if pause <= 0 {
            try check(
                asPostgres([bin + "/pg_ctl", "-D", folder.path + "/data", "-l", folder.path + "/log", "-m", "fast", "-w", "restart"]),
                "pg_ctl restart")
            return
        }
        try check(asPostgres([bin + "/pg_ctl", "-D", folder.path + "/data", "-m", "fast", "-w", "stop"]), "pg_ctl stop")
        running = false
        Thread.sleep(forTimeInterval: pause)
        try start()
    }

    /// Runs SQL with psql as the server's superuser; its output, unaligned, tuples only.
    @discardableResult
    public func sql(_ statement: String, database: String = "postgres") throws -> String {
        let r = try asPostgres([
            bin + "/psql", "-h", folder.path, "-U", "postgres", "-d", database, "-qAtX", "-v", "ON_ERROR_STOP=1", "-c", statement
        ])
        try check(r, "psql")
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private var mounts: [String] = []

    /// A database whose tables go to a tablespace on a filesystem of `kilobytes` (a tmpfs mounted for it), so that
    /// the server runs out of disk while the store is written; nil where this machine allows no mount (not root, or a
    /// container without the right). `roomy(_:)` gives the filesystem room again.
    public func databaseOnSmallDisk(_ name: String, kilobytes: Int) throws -> (url: String, mount: String)? {
        let mount = folder.path + "/small-\(name)"
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let owner = getuid() == 0 ? ",uid=\(postgresID("-u")),gid=\(postgresID("-g"))" : ""
        guard (try? runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700" + owner, "tmpfs", mount]))?.code == 0 else {
            return nil
        }
        mounts.append(mount)
        try sql("CREATE TABLESPACE \(name)_space LOCATION '\(mount)'")
        let url = try database(name)
        try sql("ALTER DATABASE \(name) SET default_tablespace = \(name)_space")
        return (url, mount)
    }

    /// Gives a small disk of `databaseOnSmallDisk` room (`kilobytes`).
    public func roomy(_ mount: String, kilobytes: Int) throws {
        try check(runProgram("/bin/mount", ["-o", "remount,size=\(kilobytes)k", mount]), "remount")
    }

    private func postgresID(_ flag: String) -> String {
        ((try? runProgram("/usr/bin/id", [flag, "postgres"]))?.out ?? "0").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `count` sessions of the superuser on `database`, each held for `seconds` after running `first` (other programs'
    /// connections, many workers', another command's lock): psql processes, returned so that the test waits for them.
    public func holdSessions(_ count: Int, seconds: Double, database: String = "postgres", first: String = "") throws -> [Process] {
        try (0..<count).map { _ in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: bin + "/psql")
            p.arguments = ["-h", folder.path, "-U", "postgres", "-d", database, "-qAtX", "-c", first + "SELECT pg_sleep(\(seconds))"]
            p.currentDirectoryURL = URL(fileURLWithPath: "/")
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            return p
        }
    }

    /// A fresh database on this server, and its URL.
    public func database(_ name: String) throws -> String {
        try check(asPostgres([bin + "/createdb", "-h", folder.path, "-U", "postgres", name]), "createdb")
        return "postgresql:///\(name)?host=\(folder.path)&user=postgres"
    }

    private func check(_ r: (code: Int32, out: String, err: String), _ what: String) throws {
        guard r.code == 0 else { throw Failed(description: "\(what) failed (\(r.code)): \(r.out) \(r.err)") }
    }

    /// Runs a command as the `postgres` user (the tests run as root), or as the user the tests run as, through the shell
    /// with `system`: Foundation's `Process` waits for every holder of a descriptor it gave the child, and the server
    /// `pg_ctl` starts holds them for as long as it runs. Output goes to a file, read back for the message.
    private func asPostgres(_ command: [String]) throws -> (code: Int32, out: String, err: String) {
        let full = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + command : command
        let output = NSTemporaryDirectory() + "/shoebox-pg-\(UUID().uuidString.prefix(8)).out"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let quoted = full.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        // The descriptors the test process holds (other tests' pipes among them) are closed first: a server that kept
        // one open would leave that test waiting for its end.
        // From /: the postgres user may not enter the folder the tests run in (a fresh clone in a 0700 scratch folder).
        let script = output + ".sh"
        defer { try? FileManager.default.removeItem(atPath: script) }
        try Data(
            """
            for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
            cd /
            exec \(quoted) > '\(output)' 2>&1 < /dev/null

            """.utf8
        ).write(to: URL(fileURLWithPath: script))
        let status = system("/bin/bash '\(script)' < /dev/null")
        let code = status == -1 ? -1 : (status >> 8) & 0xff
        return (code, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "", "")
    }
}
