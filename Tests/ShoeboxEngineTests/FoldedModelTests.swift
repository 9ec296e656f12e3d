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
        let folded = try PPOCRLineReader.open(directory: directory, model: .v4).get()
        let wheel = try PPOCRLineReader.open(directory: directory, model: .v4Wheel).get()
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
        let model = try Data(contentsOf: URL(fileURLWithPath: PPOCRLineReader.directory + "/" + RecognitionModel.v4Wheel.file))
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

    /// A dictionary given to the script is written into the model's metadata, where the reader finds its classes:
    /// the installed PP-OCRv6 tiny model has its 6,904 characters, the CTC blank and the space; the letters German,
    /// French and Spanish print are among them. A dictionary with an empty or a repeated line is refused.
    @Test(.tags(.ocr)) func aDictionaryBecomesTheModelsClasses() throws {
        let reader = try PPOCRLineReader.open(directory: PPOCRLineReader.directory, model: .v6Tiny).get()
        #expect(reader.classCount == 6_904 + 2)
        #expect(reader.readsLatinLetters)
        #expect(PPOCRLineReader.latinLetters.allSatisfy(reader.emits))
        let v4 = try PPOCRLineReader.open(directory: PPOCRLineReader.directory, model: .v4).get()
        #expect(!v4.readsLatinLetters && !v4.emits("ß") && v4.emits("é"))

        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let model = PPOCRLineReader.directory + "/" + RecognitionModel.v4Wheel.file
        for (name, text) in [("empty-line.txt", "a\n\nb\n"), ("twice.txt", "a\nb\na\n"), ("nothing.txt", "")] {
            let dictionary = work.appendingPathComponent(name)
            try Data(text.utf8).write(to: dictionary)
            let target = work.appendingPathComponent("out.onnx")
            let run = try runProgram("/usr/bin/python3", [Self.script, model, target.path, dictionary.path])
            #expect(run.code == 1 && run.err.contains("one character a line"), "\(name): \(run.code) \(run.err)")
            #expect(!FileManager.default.fileExists(atPath: target.path), "\(name): wrote \(target.path)")
        }
        // Three characters written into PP-OCRv4's model: the reader opened from it has the blank, them and the space.
        let dictionary = work.appendingPathComponent("abc.txt")
        try Data("a\r\nb\r\nc\r\n".utf8).write(to: dictionary)
        let run = try runProgram("/usr/bin/python3", [Self.script, model, work.appendingPathComponent("abc.onnx").path, dictionary.path])
        #expect(run.code == 0, "\(run.err)")
        try FileManager.default.copyItem(
            atPath: PPOCRLineReader.directory + "/" + PPOCRLineReader.libraryFile,
            toPath: work.appendingPathComponent(PPOCRLineReader.libraryFile).path)
        let three = try PPOCRLineReader.open(directory: work.path, model: RecognitionModel(file: "abc.onnx", name: "three")).get()
        #expect(three.classCount == 5 && three.emits("c") && !three.emits("d"))
    }
}
