internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines

/// The tesseract engines of a run, shared by its workers. An engine is used by one thread at a time: taken
/// from the pool for one page, and put back for the next page that needs the same languages, whichever worker
/// reads it. Each worker keeping engines of its own held every language set twice with two workers: an OSD
/// engine is 31 MB, a language set 20–27 MB (measured), and loading one costs 0.14 s of CPU.
/// An engine is made only when every engine of its set is busy, so a set rarely read (OSD, a language met
/// once) is loaded once for the run, and one the workers read at the same time as often as they do; no engine
/// is closed before the run ends (closing one that was made while its twin was busy cost 20 reloads, 2.9 s of
/// CPU, in the 71-page bench).
final class EnginePool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [String: [OCREngine]] = [:]
    private let pageSegmentationMode: Int

    /// Makes the first engine now, so that missing language data is a setup error before any document.
    init(config: PipelineConfig) throws(PipelineError) {
        pageSegmentationMode = config.pageSegmentationMode
        let first = try make(config.firstPassLanguages)
        idle[config.firstPassLanguages.joined(separator: "+")] = [first]
    }

    /// Runs `body` with an engine for `languages` that no other thread uses meanwhile.
    func use<T>(_ languages: [String], _ body: (OCREngine) -> T) throws(PipelineError) -> T {
        let key = languages.joined(separator: "+")
        let engine: OCREngine
        if let waiting = lock.withLock({ idle[key]?.popLast() }) { engine = waiting } else { engine = try make(languages) }
        defer { lock.withLock { idle[key, default: []].append(engine) } }
        return body(engine)
    }

    /// Engines waiting for a page, for the tests.
    var idleCount: Int { lock.withLock { idle.values.reduce(0) { $0 + $1.count } } }

    private func make(_ languages: [String]) throws(PipelineError) -> OCREngine {
        do {
            return try PhaseCPU.measure("engine-load") { () throws(OCREngineError) in
                try OCREngine(languages: languages, pageSegmentationMode: pageSegmentationMode)
            }
        } catch {
            throw PipelineError(code: .engine, message: error.message)
        }
    }
}
