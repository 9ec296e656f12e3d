// The second reader's candidate models on the devset's SROIE receipts (make bench-readers): each line cut by its
// annotated box and read alone by the real reader (`PPOCRLineReader`, the crop, scaling and decoding a run uses),
// compared with the data set's transcript of that line; and each page read whole through the text detector.
//   character error rate  edit distance / transcript length, both case-folded, spaces removed (the reader's word
//                         splits are not what is measured), over all lines
//   lines exact           share of lines read with no character wrong
//   ms per line           thread CPU time of `read` (one ONNX Runtime thread runs on the caller's), by the line's
//                         width once scaled to 48 rows, and overall
//   page lines found      whole pages: detected lines read, and the share of transcript lines (4 characters or
//                         more) found in the page's text; ms per page
// The receipts are split by name (the last digit of the ID even or odd) and each half is reported apart, as the
// accuracy rules here are.
import Foundation
import ShoeboxCore
import ShoeboxEngines

struct ReaderScore {
    var lines = 0
    var exact = 0
    var errors = 0
    var characters = 0
    var milliseconds: [Int: (sum: Double, count: Int)] = [:]
    var pageLines = 0
    var pageFound = 0
    var pageMilliseconds = 0.0
    var pages = 0

    mutating func add(_ other: ReaderScore) {
        lines += other.lines
        exact += other.exact
        errors += other.errors
        characters += other.characters
        for (bin, value) in other.milliseconds {
            let old = milliseconds[bin] ?? (0, 0)
            milliseconds[bin] = (old.sum + value.sum, old.count + value.count)
        }
        pageLines += other.pageLines
        pageFound += other.pageFound
        pageMilliseconds += other.pageMilliseconds
        pages += other.pages
    }
}

/// The width bins of the per-line cost, in columns once scaled to 48 rows.
let widthBins = [160, 320, 640, 1280, Int.max]

func threadMilliseconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
}

/// The text as compared: case-folded, NFKC, without spaces.
func comparable(_ text: String) -> [Character] {
    Array(text.precomposedStringWithCompatibilityMapping.lowercased().filter { !$0.isWhitespace })
}

/// A line of the SROIE box file: the axis-aligned box of its four corners and its transcript.
func boxLines(_ path: String) -> [(box: BoundingBox, text: String)] {
    guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20 else { return [] }
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { row in
        let parts = row.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
        guard parts.count == 9 else { return nil }
        let numbers = parts.prefix(8).compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 8 else { return nil }
        let xs = stride(from: 0, to: 8, by: 2).map { numbers[$0] }
        let ys = stride(from: 1, to: 8, by: 2).map { numbers[$0] }
        let text = String(parts[8]).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, let left = xs.min(), let right = xs.max(), let top = ys.min(), let bottom = ys.max(), right > left, bottom > top
        else { return nil }
        return (BoundingBox(left: left, top: top, right: right, bottom: bottom), text)
    }
}

func readerBench(sroie: String, models: [String], pages: Bool) {
    let directory = PPOCRLineReader.directory
    let ids = ((try? FileManager.default.contentsOfDirectory(atPath: sroie)) ?? []).filter { $0.hasSuffix(".jpg") }
        .map { String($0.dropLast(4)) }.sorted()
    guard !ids.isEmpty else {
        FileHandle.standardError.write(Data("shoebox-bench: no receipts (*.jpg and box/*.txt) in \(sroie)\n".utf8))
        exit(1)
    }
    let loaded = loadPages(sroie: sroie, ids: ids)
    let detector: PPOCRTextDetector?
    switch PPOCRTextDetector.open(directory: directory) {
    case .success(let opened): detector = opened
    case .failure(let why):
        detector = nil
        if pages { FileHandle.standardError.write(Data("shoebox-bench: no whole pages: the detector \(why.message)\n".utf8)) }
    }
    print("Second reader candidates on \(loaded.count) SROIE receipts, \(loaded.reduce(0) { $0 + $1.lines.count }) annotated lines (\(directory))")
    print("half A: IDs ending in an even digit, half B: odd")
    for file in models {
        let model = RecognitionModel.known.first { $0.file == file } ?? RecognitionModel(file: file, name: file)
        let reader: PPOCRLineReader
        switch PPOCRLineReader.open(directory: directory, model: model) {
        case .success(let opened): reader = opened
        case .failure(let why):
            print("\(file): not measured: \(why.message)")
            continue
        }
        var halves = [ReaderScore(), ReaderScore()]
        for page in loaded {
            var score = ReaderScore()
            for line in page.lines {
                let truth = comparable(line.text)
                guard !truth.isEmpty else { continue }
                let start = threadMilliseconds()
                let read = reader.read(page.image, box: line.box)
                let spent = threadMilliseconds() - start
                let text = comparable(read?.words.map(\.text).joined(separator: " ") ?? "")
                let distance = editDistance(text, truth)
                score.lines += 1
                score.exact += distance == 0 ? 1 : 0
                score.errors += distance
                score.characters += truth.count
                let scaled = line.box.width * 48 / max(1, line.box.height + 2 * max(2, line.box.height / 5))
                let bin = widthBins.first { scaled <= $0 }!
                let old = score.milliseconds[bin] ?? (0, 0)
                score.milliseconds[bin] = (old.sum + spent, old.count + 1)
            }
            if pages, let detector {
                let start = threadMilliseconds()
                let boxes = detector.detect(page.image)
                let text = boxes.compactMap { reader.read(page.image, box: $0) }.flatMap(\.words).map(\.text).joined(separator: " ")
                score.pageMilliseconds += threadMilliseconds() - start
                score.pages += 1
                let all = String(comparable(text))
                for line in page.lines where comparable(line.text).count >= 4 {
                    score.pageLines += 1
                    score.pageFound += all.contains(String(comparable(line.text))) ? 1 : 0
                }
            }
            let odd = page.id.last.flatMap { $0.wholeNumberValue }.map { $0 % 2 == 1 } ?? false
            halves[odd ? 1 : 0].add(score)
        }
        var both = halves[0]
        both.add(halves[1])
        func percent(_ n: Int, _ d: Int) -> String { d == 0 ? "-" : String(format: "%.2f %%", 100 * Double(n) / Double(d)) }
        func ms(_ value: (sum: Double, count: Int)?) -> String {
            guard let value, value.count > 0 else { return "-" }
            return String(format: "%.1f", value.sum / Double(value.count))
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: "\(directory)/\(file)")[.size] as? Int) ?? 0
        let letters = (emits: PPOCRLineReader.latinLetters.filter(reader.emits), missing: PPOCRLineReader.latinLetters.filter { !reader.emits($0) })
        print("")
        print("\(reader.name) (\(file), \(bytes) bytes, \(reader.classCount) classes)")
        print("  emits: \(letters.emits.joined(separator: " "))\(letters.missing.isEmpty ? "" : "; not: \(letters.missing.joined(separator: " "))")")
        for (label, score) in [("half A", halves[0]), ("half B", halves[1]), ("all", both)] {
            let total = score.milliseconds.values.reduce((sum: 0.0, count: 0)) { ($0.sum + $1.sum, $0.count + $1.count) }
            var row = "  \(label): \(score.lines) lines, character error rate \(percent(score.errors, score.characters)), "
            row += "lines exact \(percent(score.exact, score.lines)), ms per line \(ms(total))"
            if score.pages > 0 {
                row += String(
                    format: ", whole pages: lines found %@, ms per page %.0f", percent(score.pageFound, score.pageLines),
                    score.pageMilliseconds / Double(score.pages))
            }
            print(row)
        }
        let bins = widthBins.map { bin in
            "\(bin == Int.max ? ">1280" : "≤\(bin)") px: \(ms(both.milliseconds[bin])) (\(both.milliseconds[bin]?.count ?? 0))"
        }
        print("  ms per line by scaled width: \(bins.joined(separator: ", "))")
    }
}

/// The receipts' pages once, loaded as a run loads them, with their annotated lines.
func loadPages(sroie: String, ids: [String]) -> [(id: String, image: PageImage, lines: [(box: BoundingBox, text: String)])] {
    var loaded: [(id: String, image: PageImage, lines: [(box: BoundingBox, text: String)])] = []
    for id in ids {
        guard let bytes = FileManager.default.contents(atPath: "\(sroie)/\(id).jpg"),
            case .success(let images) = ImageLoader.load(Array(bytes), kind: .jpeg, maxMegapixels: 100), let image = images.first
        else { continue }
        // A large photo is decoded smaller (1/2, 1/4 or 1/8, as a run decodes it): its boxes, in the file's pixels,
        // are scaled down with it, or the crops would be cut from the wrong place.
        let original = ImageLoader.size(Array(bytes))?.width ?? image.width
        let reduction = max(1, Int((Double(original) / Double(max(1, image.width))).rounded()))
        let lines = boxLines("\(sroie)/box/\(id).txt").map { line in
            reduction == 1
                ? line
                : (
                    BoundingBox(
                        left: line.box.left / reduction, top: line.box.top / reduction, right: line.box.right / reduction,
                        bottom: line.box.bottom / reduction), line.text
                )
        }
        loaded.append((id, image, lines))
    }
    return loaded
}
