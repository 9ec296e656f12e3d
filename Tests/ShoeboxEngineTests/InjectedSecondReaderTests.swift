import Foundation
import ShoeboxStore
import ShoeboxTestSupport
import Synchronization
import Testing

@testable import ShoeboxCore
@testable import ShoeboxEngines
@testable import ShoeboxPipeline

/// A second reader that reads nothing, misreads every digit of every line it is given (with the installed one's boxes
/// and high confidence), or has turned slow: each line takes `seconds` before it is read as the installed one reads it.
final class FakeLineReader: LineRecognizer, @unchecked Sendable {
    enum Behaviour: Sendable {
        case readsNothing, misreadsEveryDigit
        case slow(seconds: Double)
    }

    let behaviour: Behaviour
    let real: any LineRecognizer
    var name: String { "fake \(behaviour)" }
    private let lock = NSLock()
    private var asked = 0
    /// The lines it was asked to read.
    var calls: Int { lock.withLock { asked } }

    init(_ behaviour: Behaviour, real: any LineRecognizer) {
        self.behaviour = behaviour
        self.real = real
    }

    func read(_ image: PageImage, spans: [BoundingBox], breaks: [Int]) -> OCRLine? {
        lock.withLock { asked += 1 }
        switch behaviour {
        case .readsNothing: return nil
        case .slow(let seconds):
            Thread.sleep(forTimeInterval: seconds)
            return real.read(image, spans: spans, breaks: breaks)
        case .misreadsEveryDigit:
            guard let line = real.read(image, spans: spans, breaks: breaks) else { return nil }
            let shifted = line.words.map { word in
                let text = String(word.text.map { c in c.wholeNumberValue.map { Character(String(($0 + 1) % 10)) } ?? c })
                return OCRWord(text: text, box: word.box, confidence: 99)
            }
            return OCRLine(words: shifted, reader: line.reader)
        }
    }
}

/// A text detector that finds nothing, or boxes no page has: outside it, empty, reversed, larger than it.
final class FakeDetector: TextLineDetector, @unchecked Sendable {
    enum Behaviour: Sendable {
        case findsNothing, findsWildBoxes
    }

    let behaviour: Behaviour

    init(_ behaviour: Behaviour) { self.behaviour = behaviour }

    func detect(_ image: PageImage, maxSide: Int) -> [BoundingBox] {
        switch behaviour {
        case .findsNothing: return []
        case .findsWildBoxes:
            let w = image.width
            let h = image.height
            return [
                BoundingBox(left: -50, top: -50, right: w + 500, bottom: 40), BoundingBox(left: 0, top: 0, right: 0, bottom: 0),
                BoundingBox(left: w - 1, top: h - 1, right: w * 3, bottom: h * 3), BoundingBox(left: 400, top: 300, right: 100, bottom: 200),
                BoundingBox(left: -w, top: -h, right: -1, bottom: -1), BoundingBox(left: 10, top: 10, right: w - 10, bottom: h - 10)
            ]
        }
    }
}

/// Issue 36, deliver 4: the second reader and its detector are injected into a real run (`PipelineRunner.secondReaders`)
/// as tesseract's engines are. Whatever they do, every document ends in a named state; a reader that reads nothing
/// leaves tesseract's reading as it is; one that misreads every digit gets no wrong total accepted.
@Suite(.tags(.ocr), .serialized) struct InjectedSecondReaderTests {
    let today = CalendarDay(year: 2026, month: 11, day: 30)!
    static let receipts = ["eng-gb-grocer.png", "deu-supermarkt.png", "fra-boulangerie.png", "spa-supermercado.png", "msa-kedai-runcit.png"]

    /// The fixture receipts run once with `config` and the given second readers: their records by file name.
    func run(
        _ config: PipelineConfig, readers: SecondReaders, receipts: [String] = receipts, metrics: RunMetrics = RunMetrics()
    ) throws -> [String: DocumentRecord] {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scans = dir.appendingPathComponent("scans")
        try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
        for name in receipts {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("receipts/" + name), to: scans.appendingPathComponent(name))
        }
        var runner = PipelineRunner(config: config, today: today, jobs: 2, metrics: metrics, progress: { _ in })
        runner.secondReaders = { readers }
        let store = try Store(directory: dir.appendingPathComponent("out").path)
        let summary = try runner.run(root: scans.path, store: store, pipelineName: "test")
        #expect(summary.processed == receipts.count)
        let records = Dictionary(uniqueKeysWithValues: try store.effectiveRecords().map { ($0.record.source, $0.record) })
        for (source, r) in records {
            let named = r.status == .accepted || (r.status == .review && !r.reasons.isEmpty) || (r.status == .failed && r.failure != nil)
            #expect(named, "\(source): \(r.status) \(r.reasons)")
        }
        return records
    }

    static func expected(_ name: String) throws -> [String: Any] {
        let url = fixtures.appendingPathComponent("receipts/" + (name as NSString).deletingPathExtension + ".expected.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// The default pipeline with the rules alone deciding what is accepted: these tests are about the readers, not the gate.
    static var rulesDecide: PipelineConfig {
        var config = PipelineConfig()
        config.acceptPrecision = 0
        return config
    }

    static func installed() throws -> SecondReaders {
        let installed = SecondReaders.installed
        _ = try #require(installed.reader, "make setup installs the second reader")
        return installed
    }

    @Test func aSecondReaderThatReadsNothingLeavesTesseractsReading() throws {
        var config = Self.rulesDecide
        let installed = try Self.installed()
        let nothing = try run(
            config, readers: SecondReaders(reader: FakeLineReader(.readsNothing, real: installed.reader!), detector: installed.detector))
        config.secondReader = false
        let alone = try run(config, readers: installed)
        #expect(nothing.count == Self.receipts.count)
        for name in Self.receipts {
            for field in ["total", "date", "merchant", "currency"] {
                #expect(nothing[name]?.comparedValue(field) == alone[name]?.comparedValue(field), "\(name) \(field)")
            }
            #expect(nothing[name]?.status == alone[name]?.status, "\(name)")
        }
    }

    @Test func aSecondReaderThatMisreadsEveryDigitGetsNoWrongTotalAccepted() throws {
        let config = Self.rulesDecide
        let installed = try Self.installed()
        let misread = try run(
            config, readers: SecondReaders(reader: FakeLineReader(.misreadsEveryDigit, real: installed.reader!), detector: installed.detector))
        // Every digit it reads is wrong, with confidence 99: what is accepted is still right, total and date; the page's
        // own arithmetic and tesseract's reading outvote it, or the record waits in review.
        for name in Self.receipts {
            let r = try #require(misread[name])
            guard r.status == .accepted else { continue }
            let expected = try Self.expected(name)
            #expect(r.total?.decimalString == expected["total"] as? String, "\(name): accepted with total \(r.total?.decimalString ?? "none")")
            #expect(r.date?.iso == expected["date"] as? String, "\(name): accepted with date \(r.date?.iso ?? "none")")
        }
    }

    @Test func aDetectorThatFindsNothingOrWildBoxesIsSurvived() throws {
        let config = Self.rulesDecide
        let installed = try Self.installed()
        let nothing = try run(config, readers: SecondReaders(reader: installed.reader, detector: FakeDetector(.findsNothing)))
        let none = try run(config, readers: SecondReaders(reader: installed.reader, detector: nil))
        for name in Self.receipts {
            for field in ["total", "date", "merchant", "currency"] {
                #expect(nothing[name]?.comparedValue(field) == none[name]?.comparedValue(field), "\(name) \(field)")
            }
        }
        let wild = try run(config, readers: SecondReaders(reader: installed.reader, detector: FakeDetector(.findsWildBoxes)))
        #expect(wild.count == Self.receipts.count)
        #expect(wild["eng-gb-grocer.png"]?.total?.decimalString == "13.90")
    }

    /// A second reader that has turned slow (a second a line) gets the page's time (`pageTimeoutSeconds`) and no more:
    /// the lines it did not reach stay tesseract's, the page is tallied out of time and not cached, and the run ends.
    @Test func aSecondReaderThatTurnedSlowGetsThePagesTimeAndNoMore() throws {
        var config = Self.rulesDecide
        config.pageTimeoutSeconds = 4
        let installed = try Self.installed()
        let slow = FakeLineReader(.slow(seconds: 1), real: installed.reader!)
        let metrics = RunMetrics()
        let receipts = ["eng-gb-grocer.png", "deu-supermarkt.png"]
        let records = try run(config, readers: SecondReaders(reader: slow, detector: installed.detector), receipts: receipts, metrics: metrics)
        #expect(records.count == 2)
        #expect(metrics.cpu.counts["second-reader-out-of-time"] == 2, "\(metrics.cpu.counts)")
        // Each page stops reading once its 4 seconds are spent: at most 5 lines of a second each, where it asks for 20 and more.
        let lines = slow.calls
        #expect(lines <= 10, "\(lines) lines read")
        #expect((metrics.cpu.counts["lines-read-again"] ?? 0) > 20, "\(metrics.cpu.counts)")
    }
}
