// shoebox-fixtures <Fixtures-dir>
// Renders the synthetic receipts and their expected values. Output is deterministic:
// running it twice gives byte-identical files.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: shoebox-fixtures <Fixtures-dir>\n".utf8))
    exit(2)
}

let root = URL(fileURLWithPath: arguments[1], isDirectory: true)
let files = FileManager.default

/// Renders one receipt into `file` in its output format.
func render(_ receipt: Receipt, to file: URL) throws {
    let printer = ReceiptPrinter(receipt)
    let renderer = Renderer(font: receipt.font, geometry: .of(receipt.layout), name: receipt.id,
                            boldText: receipt.boldText)
    let pages = Renderer.pages(printer.lines)
    precondition(pages.count == receipt.pages, "\(receipt.id): page count")
    let seed = stableHash(receipt.id)
    if receipt.scan != nil {
        precondition(receipt.format != .png, "\(receipt.id): noisy scans belong in JPEG (PNG gets too big)")
    }

    switch receipt.format {
    case .png:
        try encodePNG(renderer.raster(pages[0], scan: receipt.scan, seed: seed)).write(to: file)
    case .jpeg:
        try encodeJPEG(renderer.raster(pages[0], scan: receipt.scan, seed: seed)).write(to: file)
    case .imagePDF:
        let rasters = pages.enumerated().map { index, lines in
            renderer.raster(lines, scan: receipt.scan, seed: seed &+ UInt64(index))
        }
        try writeImagePDF(rasters, to: file, title: receipt.merchant, asJPEG: receipt.scan != nil)
    case .textPDF:
        try writeTextPDF(renderer, pages: pages, to: file, title: receipt.merchant)
    }
}

func recreateDirectory(_ url: URL) throws {
    if files.fileExists(atPath: url.path) { try files.removeItem(at: url) }
    try files.createDirectory(at: url, withIntermediateDirectories: true)
}

func writeText(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url)
}

do {
    let receiptsDir = root.appendingPathComponent("receipts")
    let scansDir = root.appendingPathComponent("sample-scans")
    let expectedDir = root.appendingPathComponent("sample-expected")
    for dir in [receiptsDir, scansDir, expectedDir] { try recreateDirectory(dir) }

    for receipt in receiptFixtures + sampleFixtures {
        let totals = Totals(receipt)
        let scan: URL, expected: URL
        switch receipt.destination {
        case .receipts:
            scan = receiptsDir.appendingPathComponent(receipt.fileName)
            expected = receiptsDir.appendingPathComponent("\(receipt.id).expected.json")
        case .sample(let folder, let fileName):
            let scanFolder = scansDir.appendingPathComponent(folder)
            let expectedFolder = expectedDir.appendingPathComponent(folder)
            try files.createDirectory(at: scanFolder, withIntermediateDirectories: true)
            try files.createDirectory(at: expectedFolder, withIntermediateDirectories: true)
            scan = scanFolder.appendingPathComponent(fileName)
            expected = expectedFolder.appendingPathComponent("\(fileName).expected.json")
        }
        try render(receipt, to: scan)
        try writeText(expectedJSON(receipt, totals), to: expected)
        print("wrote \(scan.path)")
    }
    try writeText(readme(), to: root.appendingPathComponent("README.md"))
} catch {
    FileHandle.standardError.write(Data("shoebox-fixtures: \(error)\n".utf8))
    exit(1)
}
