import Foundation
import ShoeboxTestSupport
import Testing

/// `shoebox serve` through the built binary and curl: what a local web app must refuse (a wrong token, a wrong
/// Host, a change without the page's own token or from another site, a path out of the app), the headers every
/// answer carries, decisions saved into the same store as `shoebox review`'s, and the loopback address only.
@Suite(.serialized) struct ServeTests {
    /// A running `shoebox serve`, its port and token read from what it printed.
    final class Served {
        let process: Process
        let port: Int
        let token: String
        let printed: URL

        init(out: String, port: Int = 0, work: URL, day: String? = nil) throws {
            printed = work.appendingPathComponent("serve-\(UUID().uuidString).txt")
            _ = FileManager.default.createFile(atPath: printed.path, contents: nil)
            process = Process()
            process.executableURL = URL(fileURLWithPath: shoebox)
            process.arguments = ["serve", "--out", out, "--port", String(port), "--today", day ?? today]
            process.standardOutput = try FileHandle(forWritingTo: printed)
            process.standardError = process.standardOutput
            try process.run()
            var found: (Int, String)?
            for _ in 0..<200 where found == nil {
                Thread.sleep(forTimeInterval: 0.05)
                let text = (try? String(contentsOf: printed, encoding: .utf8)) ?? ""
                if let r = text.range(of: #"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{64})"#, options: .regularExpression) {
                    let url = String(text[r])
                    let port = Int(url.split(separator: ":")[2].split(separator: "/")[0])!
                    found = (port, String(url.split(separator: "=")[1]))
                }
                if !process.isRunning { break }
            }
            guard let (p, t) = found else {
                process.terminate()
                throw ServeFailed(output: (try? String(contentsOf: printed, encoding: .utf8)) ?? "")
            }
            self.port = p
            token = t
        }

        var output: String { (try? String(contentsOf: printed, encoding: .utf8)) ?? "" }

        /// Ctrl-C, and the exit code.
        func stop() -> Int32 {
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    struct ServeFailed: Error, CustomStringConvertible {
        let output: String
        var description: String { "shoebox serve did not print its address: \(output)" }
    }

    /// One request by curl: the status, the response headers and the body.
    static func curl(_ args: [String], work: URL) throws -> (status: Int, headers: String, body: String) {
        let curl = try #require(which("curl"), "curl is missing: apt-get install -y curl (make setup)")
        let headers = work.appendingPathComponent("h.txt").path
        let body = work.appendingPathComponent("b.txt").path
        let r = try runProgram(curl, ["-s", "--path-as-is", "-D", headers, "-o", body, "-w", "%{http_code}"] + args)
        return (
            Int(r.out) ?? -1, (try? String(contentsOfFile: headers, encoding: .utf8)) ?? "",
            (try? String(contentsOfFile: body, encoding: .utf8)) ?? ""
        )
    }

    @Test(.tags(.ocr)) func theAppRefusesWhatItMustAndSavesDecisionsIntoTheStore() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let office = work.appendingPathComponent("scans/office")
        try FileManager.default.createDirectory(at: office, withIntermediateDirectories: true)
        for f in ["IMG_2201.jpg", "scan_0007.png"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("sample-scans/office-supplies/\(f)"), to: office.appendingPathComponent(f))
        }
        // A sidecar that disagrees with the printed total: one record waits in review whatever the gate says.
        try Data(#"{"total": "79.52"}"#.utf8).write(to: office.appendingPathComponent("IMG_2201.jpg.json"))
        let out = work.appendingPathComponent("out").path
        #expect(try runProgram(shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today]).code == 0)

        let served = try Served(out: out, work: work)
        let base = "http://127.0.0.1:\(served.port)"
        let key = "token=\(served.token)"
        func curl(_ args: [String]) throws -> (status: Int, headers: String, body: String) { try ServeTests.curl(args, work: work) }

        // Refused: no token, a wrong one, another Host (DNS rebinding), a path out of the app, an unknown method.
        #expect(try curl([base + "/"]).status == 403)
        #expect(try curl([base + "/api/queue?token=" + String(repeating: "0", count: 64)]).status == 403)
        #expect(try curl(["-H", "Host: attacker.example:\(served.port)", "\(base)/?\(key)"]).status == 421)
        #expect(try curl(["-H", "Host: 127.0.0.1:1", "\(base)/?\(key)"]).status == 421)
        #expect(try curl(["\(base)/../../etc/passwd?\(key)"]).status == 400)
        #expect(try curl(["\(base)/%2e%2e/%2e%2e/etc/passwd?\(key)"]).status == 400)
        #expect(try curl(["\(base)/store.sqlite?\(key)"]).status == 404)
        #expect(try curl(["-X", "DELETE", "\(base)/?\(key)"]).status == 405)

        // The page: its own token for changes, the key as a cookie only this site sends, and the hardening headers.
        let page = try curl(["\(base)/?\(key)"])
        #expect(page.status == 200)
        let csrf = try #require(
            page.body.range(of: #"content="[0-9a-f]{64}""#, options: .regularExpression).map { String(page.body[$0].dropFirst(9).dropLast()) })
        #expect(csrf != served.token)
        #expect(page.headers.contains("Set-Cookie: shoebox_token=\(served.token); Path=/; HttpOnly; SameSite=Strict"))
        #expect(page.headers.contains("Content-Security-Policy: default-src 'none'; script-src 'self'"))
        #expect(page.headers.contains("X-Frame-Options: DENY") && page.headers.contains("X-Content-Type-Options: nosniff"))
        let cookie = "shoebox_token=\(served.token)"

        // The queue, by the cookie alone.
        let queue = try curl(["-b", cookie, "\(base)/api/queue"])
        #expect(queue.status == 200)
        let q = try #require(try JSONSerialization.jsonObject(with: Data(queue.body.utf8)) as? [String: Any])
        let items = try #require(q["items"] as? [[String: Any]])
        #expect(items.contains { $0["source"] as? String == "office/IMG_2201.jpg" }, "\(queue.body)")

        // Changes: refused without the page's token, with a wrong one, or from another site's page.
        let accept = #"{"source": "office/IMG_2201.jpg", "action": "accept"}"#
        #expect(try curl(["-b", cookie, "-X", "POST", "-d", accept, "\(base)/api/decide"]).status == 403)
        #expect(try curl(["-b", cookie, "-H", "X-Shoebox-CSRF: \(served.token)", "-X", "POST", "-d", accept, "\(base)/api/decide"]).status == 403)
        #expect(
            try curl([
                "-b", cookie, "-H", "X-Shoebox-CSRF: \(csrf)", "-H", "Origin: http://attacker.example", "-X", "POST", "-d", accept,
                "\(base)/api/decide"
            ]).status == 403)
        #expect(try runProgram(shoebox, ["status", "--out", out]).out.contains("review  office/IMG_2201.jpg"))

        // An edit a person could not type in the terminal is refused with the same sentence.
        let bad = try curl([
            "-b", cookie, "-H", "X-Shoebox-CSRF: \(csrf)", "-X", "POST", "-d",
            #"{"source": "office/IMG_2201.jpg", "action": "edit", "field": "total", "value": "12,3x"}"#,
            "\(base)/api/decide"
        ])
        #expect(bad.status == 422 && bad.body.contains("is not an amount"), "\(bad)")
        // Bodies are typed per route: not the route's object is 400 with what it must be; an edit's value that is not
        // text is an edit without a value (422); an expense's field that is not text is named.
        func post(_ body: String, _ route: String) throws -> (status: Int, headers: String, body: String) {
            try curl(["-b", cookie, "-H", "X-Shoebox-CSRF: \(csrf)", "-X", "POST", "-d", body, "\(base)/api/\(route)"])
        }
        let notObject = try post("[1, 2]", "decide")
        #expect(notObject.status == 400 && notObject.body.contains("with \\\"source\\\" and \\\"action\\\""), "\(notObject)")
        let number = try post(#"{"source": "office/IMG_2201.jpg", "action": "edit", "field": "total", "value": 12.3}"#, "decide")
        #expect(number.status == 422 && number.body.contains("names a"), "\(number)")
        let typedNumber = try post(#"{"folder": "office", "fields": {"total": 12.3, "merchant": "Kiosk"}}"#, "add")
        #expect(typedNumber.status == 422 && typedNumber.body.contains("the total must be text"), "\(typedNumber)")
        #expect(try post(#"{"merchant": 5}"#, "cancel-series").status == 400)
        // Edit, accept: saved into the store, as `shoebox status` reads it; undo takes the accept back.
        for body in [#"{"source": "office/IMG_2201.jpg", "action": "edit", "field": "total", "value": "97.52"}"#, accept] {
            let r = try curl(["-b", cookie, "-H", "X-Shoebox-CSRF: \(csrf)", "-H", "Origin: \(base)", "-X", "POST", "-d", body, "\(base)/api/decide"])
            #expect(r.status == 200, "\(r)")
        }
        #expect(!(try runProgram(shoebox, ["status", "--out", out]).out.contains("review  office/IMG_2201.jpg")))
        let undo = try curl(["-b", cookie, "-H", "X-Shoebox-CSRF: \(csrf)", "-X", "POST", "-d", "{}", "\(base)/api/undo"])
        #expect(undo.status == 200 && undo.body.contains("accept"), "\(undo)")
        #expect(try runProgram(shoebox, ["status", "--out", out]).out.contains("review  office/IMG_2201.jpg"))

        // Listening on the loopback address only (127.0.0.1 is 0100007F in /proc/net/tcp).
        let tcp = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        let listening = tcp.split(separator: "\n").filter { $0.contains(String(format: ":%04X ", served.port)) && $0.contains(" 0A ") }
        #expect(!listening.isEmpty && listening.allSatisfy { $0.contains("0100007F:") }, "\(listening)")

        // A second serve on the same store works beside the first; one on a taken port is refused with the reason.
        let second = try Served(out: out, work: work)
        #expect(
            try curl(["\(base.replacingOccurrences(of: String(served.port), with: String(second.port)))/api/queue?token=\(second.token)"]).status
                == 200)
        #expect(second.stop() == 0)
        let taken = try runProgram(shoebox, ["serve", "--out", out, "--port", String(served.port), "--today", today])
        #expect(taken.code == 14 && taken.err.contains("cannot listen on 127.0.0.1:\(served.port)"), "\(taken)")

        #expect(served.stop() == 0)
        #expect(served.output.contains("stopped; every decision is saved"))
    }

    /// Connections that send a request's header lines one at a time and never the blank line that ends them (the
    /// slow clients an outside tester found), all from one thread: a line on each every `every` seconds. A connection
    /// the server closes is noted (how long after it opened, and what the server sent) and, with `reopen`, opened
    /// again half a second later, as an attacker would.
    final class Tricklers: @unchecked Sendable {
        struct Closed: CustomStringConvertible {
            let after: Double
            let answer: String
            var description: String { String(format: "%.2f s: %@", after, answer) }
        }
        private let lock = NSLock()
        private var closedOnes: [Closed] = []
        private var openOnes = 0
        private var stopping = false
        private let finished = DispatchSemaphore(value: 0)

        init(port: Int, count: Int, every: Double, reopen: Bool) {
            Thread { self.run(port: port, count: count, every: every, reopen: reopen) }.start()
        }

        var closed: [Closed] { lock.withLock { closedOnes } }
        var open: Int { lock.withLock { openOnes } }

        /// Closes the connections still open, and waits for the thread.
        func stop() {
            lock.withLock { stopping = true }
            finished.wait()
        }

        private struct Connection {
            let fd: Int32
            let opened: Double
            var next: Double
            var lines = 0
            var answer: [UInt8] = []
        }

        private func run(port: Int, count: Int, every: Double, reopen: Bool) {
            func connected() -> Connection? {
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                guard fd >= 0 else { return nil }
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = UInt16(port).bigEndian
                address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
                let r = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                guard r == 0, say(fd, "GET /api/queue HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n") else {
                    Glibc.close(fd)
                    return nil
                }
                return Connection(fd: fd, opened: ProcessInfo.processInfo.systemUptime, next: ProcessInfo.processInfo.systemUptime + every)
            }
            var connections = (0..<count).compactMap { _ in connected() }
            var reopenAt: [Double] = []
            while true {
                let now = ProcessInfo.processInfo.systemUptime
                lock.withLock { openOnes = connections.count }
                if lock.withLock({ stopping }) { break }
                while let first = reopenAt.first, first <= now, let c = connected() {
                    reopenAt.removeFirst()
                    connections.append(c)
                }
                var gone: Set<Int32> = []
                for i in connections.indices where connections[i].next <= now {
                    connections[i].lines += 1
                    connections[i].next = now + every
                    if !say(connections[i].fd, "X-Slow-\(connections[i].lines): \(connections[i].lines)\r\n") { gone.insert(connections[i].fd) }
                }
                var polled = connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
                _ = poll(&polled, nfds_t(polled.count), 20)
                for (i, p) in polled.enumerated() where p.revents != 0 {
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    let n = recv(p.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                    if n > 0 {
                        connections[i].answer += buffer[0..<n]
                    } else if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                        gone.insert(p.fd)
                    }
                }
                let after = ProcessInfo.processInfo.systemUptime
                for c in connections where gone.contains(c.fd) {
                    Glibc.close(c.fd)
                    let note = Closed(after: after - c.opened, answer: String(decoding: c.answer, as: UTF8.self))
                    lock.withLock { closedOnes.append(note) }
                    if reopen { reopenAt.append(after + 0.5) }
                }
                connections.removeAll { gone.contains($0.fd) }
            }
            for c in connections { Glibc.close(c.fd) }
            finished.signal()
        }

        /// Sends `text` without waiting; false when the connection is gone.
        private func say(_ fd: Int32, _ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) == bytes.count
        }
    }

    /// Slow clients on 127.0.0.1 (where the person's browser is too) cannot lock the person out: each connection has
    /// 10 seconds from its opening for its whole request, and when more than 48 wait at once the one that has waited
    /// longest is closed; the person's request meanwhile is answered at once, again and again.
    @Test(.tags(.slow)) func slowClientsDoNotLockTheReviewerOut() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
        let out = work.appendingPathComponent("out").path
        #expect(try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today]).code == 0)
        let served = try Served(out: out, work: work)
        defer { _ = served.stop() }
        let clock = { ProcessInfo.processInfo.systemUptime }
        /// The person's request, with the key: its status and how long the answer took.
        func reviewer() throws -> (status: Int, seconds: Double) {
            let start = clock()
            let r = try ServeTests.curl(
                ["--max-time", "5", "-b", "shoebox_token=\(served.token)", "http://127.0.0.1:\(served.port)/api/queue"], work: work)
            return (r.status, clock() - start)
        }

        // 40 connections, more than the 32 the server took before, trickle a header line every 1.5 s (each line
        // reset the old idle timeout of 60 s). The person is answered all along; each slow connection is closed 10 s
        // after it opened, with the sentence why.
        let slow = Tricklers(port: served.port, count: 40, every: 1.5, reopen: false)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(slow.open == 40)
        var answers: [(status: Int, seconds: Double)] = []
        let slowEnd = clock() + 12.5
        while clock() < slowEnd {
            answers.append(try reviewer())
            Thread.sleep(forTimeInterval: 1)
        }
        slow.stop()
        #expect(answers.count >= 8 && answers.allSatisfy { $0.status == 200 && $0.seconds < 2 }, "\(answers)")
        let closed = slow.closed
        #expect(closed.count == 40, "\(closed.count) of 40 slow connections closed by the server: \(closed)")
        #expect(
            closed.allSatisfy {
                $0.after > 9.5 && $0.after < 12 && $0.answer.hasPrefix("HTTP/1.1 408 ")
                    && $0.answer.contains("The request did not arrive within 10 seconds")
            }, "\(closed)")

        // 100 at once, each opened again half a second after it is closed: more than may wait at once. The one that
        // has waited longest makes room, so the person's request is still answered at once.
        let flood = Tricklers(port: served.port, count: 100, every: 1, reopen: true)
        answers = []
        let floodEnd = clock() + 8
        while clock() < floodEnd {
            answers.append(try reviewer())
            Thread.sleep(forTimeInterval: 0.5)
        }
        let evicted = flood.closed
        flood.stop()
        #expect(answers.count >= 10 && answers.allSatisfy { $0.status == 200 && $0.seconds < 2 }, "\(answers)")
        #expect(
            evicted.contains { $0.answer.hasPrefix("HTTP/1.1 503 ") && $0.answer.contains("had waited longest") },
            "\(evicted.prefix(5))")
    }
}

/// An expense without a receipt through `review --apply` (`"action": "add"`): checked like every line, entered with
/// the person's accept in the log, exported without a file, and carried by the store's JSON export and import.
struct HandEntryEndToEndTests {
    @Test(.tags(.ocr)) func anExpenseEnteredByHandGoesThroughApplyExportAndImport() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let office = work.appendingPathComponent("scans/office")
        try FileManager.default.createDirectory(at: office, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("sample-scans/office-supplies/scan_0007.png"), to: office.appendingPathComponent("scan_0007.png"))
        // A sidecar that disagrees keeps the scan in review whatever the gate says: the terminal's queue is not empty.
        try Data(#"{"total": "999.99"}"#.utf8).write(to: office.appendingPathComponent("scan_0007.png.json"))
        let out = work.appendingPathComponent("out").path
        #expect(try runProgram(shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out, "--today", today]).code == 0)

        let lines = work.appendingPathComponent("add.jsonl")
        let good = #"{"action": "add", "folder": "office", "fields": {"date": "2026-03-20", "merchant": "Parking Mitte", "total": "4,50 €"}}"#
        try Data((good + "\n" + #"{"action": "add", "folder": "office", "fields": {"date": "2026-03-20", "merchant": "Parking"}}"# + "\n").utf8)
            .write(to: lines)
        let refused = try runProgram(shoebox, ["review", "--out", out, "--apply", lines.path, "--today", today])
        #expect(refused.code == 2 && refused.err.contains("add.jsonl:2: an expense entered by hand needs a total."), "\(refused)")
        try Data((good + "\n").utf8).write(to: lines)
        let applied = try runProgram(shoebox, ["review", "--out", out, "--apply", lines.path, "--today", today])
        #expect(applied.code == 0 && applied.out.contains("1 expense entered by hand"), "\(applied)")
        #expect(try runProgram(shoebox, ["status", "--out", out, "--accuracy"]).out.contains("1 in the review --apply file"))

        // The terminal reopens one record, whatever its state: here the expense just entered (accepted), corrected.
        let listed = work.appendingPathComponent("s.json").path
        #expect(try runProgram(shoebox, ["export", "--out", out, "--format", "json", "--file", listed]).code == 0)
        let exported = try String(contentsOfFile: listed, encoding: .utf8)
        let path = try #require(
            exported.range(of: "office/entered-by-hand-[0-9a-f]{12}", options: .regularExpression).map { String(exported[$0]) })
        let session = try runProgram(shoebox, ["review", "--out", out, "--today", today, "--source", path], input: "e total 5.00\na\n")
        #expect(session.code == 0 && session.out.contains("total set to 5.00 EUR") && session.out.contains("is accepted now"), "\(session.out)")
        let missing = try runProgram(shoebox, ["review", "--out", out, "--source", "office/none.jpg"])
        #expect(missing.code == 2 && missing.err.contains("no record 'office/none.jpg'"), "\(missing)")
        #expect(try runProgram(shoebox, ["status", "--out", out, "--accuracy"]).out.contains("2 in the terminal"))
        // x in the terminal: one refused (no total), one entered.
        let typed = try runProgram(
            shoebox, ["review", "--out", out, "--today", today],
            input: "x\noffice\n2026-03-21\nBus\n\n\n\nx\noffice\n2026-03-21\nBus\n2,80 €\n\n\nq\n")
        #expect(typed.out.contains("refused: an expense entered by hand needs a total."), "\(typed.out)")
        #expect(typed.out.contains("entered by hand and accepted: office/entered-by-hand-"), "\(typed.out)")
        #expect(try runProgram(shoebox, ["status", "--out", out, "--accuracy"]).out.contains("3 in the terminal"))

        #expect(try runProgram(shoebox, ["export", "--out", out]).code == 0)
        let unzip = try #require(which("unzip"), "unzip is missing: apt-get install -y unzip (make setup)")
        let zip = out + "/exports/office.zip"
        let names = try runProgram(unzip, ["-Z1", zip]).out.split(separator: "\n")
        #expect(!names.contains { $0.contains("entered-by-hand") }, "\(names)")
        let csv = try runProgram(unzip, ["-p", zip, "summary.csv"]).out
        #expect(csv.contains("2026-03-20,Parking Mitte,5.00,EUR,"), "\(csv)")
        #expect(!(try runProgram(unzip, ["-p", zip, "ledger.beancount"]).out.contains("entered-by-hand")))

        let json = work.appendingPathComponent("store.json").path
        #expect(try runProgram(shoebox, ["export", "--out", out, "--format", "json", "--file", json]).code == 0)
        let other = work.appendingPathComponent("other").path
        let imported = try runProgram(shoebox, ["import", json, "--out", other])
        #expect(imported.code == 0, "\(imported)")
        #expect(try runProgram(shoebox, ["status", "--out", other]).out.contains("store: 3 documents"))
    }

    @Test(.tags(.ocr)) func aPageOCRTurnedUprightIsShownUprightUnderItsBoxes() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
        let convert = try #require(which("convert"), "imagemagick is missing: apt-get install -y imagemagick (make setup)")
        try runProgram(convert, [fixtures.path + "/receipts/eng-gb-grocer.png", "-rotate", "90", scans.appendingPathComponent("sideways.png").path])
        let out = work.appendingPathComponent("out").path
        #expect(try runProgram(shoebox, ["run", scans.path, "--out", out, "--today", today]).code == 0)

        // The turn OSD found travels with the page through the store and its JSON export.
        let json = work.appendingPathComponent("store.json").path
        #expect(try runProgram(shoebox, ["export", "--out", out, "--format", "json", "--file", json]).code == 0)
        #expect(try String(contentsOfFile: json, encoding: .utf8).contains(#""turn":270"#))

        let served = try ServeTests.Served(out: out, work: work)
        defer { _ = served.stop() }
        let base = "http://127.0.0.1:\(served.port)"
        let jar = ["-b", "shoebox_token=\(served.token)"]
        let record = try ServeTests.curl(jar + ["\(base)/api/record?source=sideways.png"], work: work)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(record.body.utf8)) as? [String: Any])
        let geometry = try #require(object["geometry"] as? [String: Any])
        let page = try #require((geometry["pages"] as? [[String: Any]])?.first)
        #expect(page["turn"] as? Int == 270, "\(page)")
        let box = try #require((geometry["boxes"] as? [String: Any])?["total"] as? [String: Any])
        #expect((box["right"] as? Int ?? 0) <= (page["width"] as? Int ?? 0) && (box["bottom"] as? Int ?? 0) <= (page["height"] as? Int ?? 0))

        // The page comes back turned as OCR read it: the size the boxes were measured on, taller than wide.
        let image = try ServeTests.curl(jar + ["\(base)/api/page?source=sideways.png&page=1"], work: work)
        #expect(image.status == 200 && image.headers.lowercased().contains("content-type: image/png"))
        let png = [UInt8](try Data(contentsOf: work.appendingPathComponent("b.txt")))
        let size = { (at: Int) in png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(png.count > 24 && size(16) == page["width"] as? Int && size(20) == page["height"] as? Int, "\(png.prefix(24))")
        #expect(size(16) < size(20))
    }
}
