import Foundation
import ShoeboxTestSupport
import Testing

@testable import ShoeboxCore
@testable import ShoeboxEngines

/// The second reader runs the wheel's two models with their constant arithmetic folded into their convolutions
/// (readers/fold_model.py, run by `make setup`). Folding must not change a reading: every line the detector finds
/// on the fixture receipts is read by both recognition models, and both detection models find the same boxes.
@Suite(.serialized) struct FoldedModelTests {
    /// The fixture receipts stored as images (the PDFs are rendered by poppler and tested elsewhere).
    static let pages = [
        "deu-baeckerei.jpg", "deu-ch-elektro.png", "deu-supermarkt.png", "eng-gb-grocer.png", "eng-us-hardware.png", "fra-boulangerie.png",
        "msa-kedai-runcit.png", "msa-restoran.jpg", "spa-cafeteria.jpg", "spa-supermercado.png"
    ]

    static func page(_ name: String) throws -> PageImage {
        let kind: FileKind = name.hasSuffix(".png") ? .png : .jpeg
        return try #require(try ImageLoader.load(fixtureBytes(name), kind: kind, maxMegapixels: 60).get().first)
    }

    @Test(.tags(.ocr)) func theFoldedModelsReadEveryFixtureLineAsTheWheelsOwn() throws {
        let directory = PPOCRLineReader.directory
        let folded = try PPOCRLineReader.open(directory: directory).get()
        let wheel = try PPOCRLineReader.open(directory: directory, model: PPOCRLineReader.wheelModelFile).get()
        let foldedDetector = try PPOCRTextDetector.open(directory: directory).get()
        let wheelDetector = try PPOCRTextDetector.open(directory: directory, model: PPOCRTextDetector.wheelModelFile).get()
        #expect(folded.name.hasPrefix("PP-OCRv4 rec folded, ") && wheel.name.hasPrefix("PP-OCRv4 rec, "))
        var lines = 0
        for name in Self.pages {
            let image = try Self.page(name)
            let boxes = foldedDetector.detect(image)
            #expect(boxes.count >= 5, "\(name): \(boxes.count) lines found")
            #expect(boxes == wheelDetector.detect(image), "\(name): the folded detector found other boxes")
            for box in boxes {
                let a = folded.read(image, box: box)
                let b = wheel.read(image, box: box)
                #expect(a?.text == b?.text, "\(name) \(box)")
                guard let a, let b, a.words.count == b.words.count else { continue }
                for (x, y) in zip(a.words, b.words) {
                    #expect(x.box == y.box, "\(name) \(box): \(x.text)")
                    #expect(abs(x.confidence - y.confidence) < 0.5, "\(name) \(box): \(x.text) \(x.confidence) against \(y.confidence)")
                }
                lines += 1
            }
        }
        #expect(lines >= 150, "only \(lines) lines compared")
    }

    static let script = packageRoot.appendingPathComponent("readers/fold_model.py").path

    /// What is not an ONNX model as the script expects it stops it with a sentence and exit 1, and writes nothing.
    @Test func theFolderRefusesWhatIsNotAModelAndWritesNothing() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let model = try Data(contentsOf: URL(fileURLWithPath: PPOCRLineReader.directory + "/" + PPOCRLineReader.wheelModelFile))
        let cases: [(name: String, bytes: Data, reason: String)] = [
            ("cut.onnx", model.prefix(100_000), "runs past the end of its message"),
            ("text.onnx", Data("this is not a model\n".utf8), "not one ONNX uses"),
            ("empty.onnx", Data(), "not an ONNX model with one graph")
        ]
        for (name, bytes, reason) in cases {
            let source = work.appendingPathComponent(name)
            try bytes.write(to: source)
            let target = work.appendingPathComponent("out-" + name)
            let run = try runProgram("/usr/bin/python3", [Self.script, source.path, target.path])
            #expect(run.code == 1, "\(name): exit \(run.code)")
            #expect(run.err.contains("was not folded: ") && run.err.contains(reason), "\(name): \(run.err)")
            #expect(!FileManager.default.fileExists(atPath: target.path), "\(name): wrote \(target.path)")
        }
    }
}
