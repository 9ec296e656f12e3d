// shoebox-fixtures <Fixtures-dir>
// Renders the synthetic receipts and their expected values. Output is deterministic:
// running it twice gives byte-identical files.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 2 || (arguments.count == 3 && ["--same-purchase", "--shop-series"].contains(arguments[1])) else {
    FileHandle.standardError.write(
        Data("usage: shoebox-fixtures <Fixtures-dir> | shoebox-fixtures --same-purchase <dir> | shoebox-fixtures --shop-series <dir>\n".utf8))
    exit(2)
}

let root = URL(fileURLWithPath: arguments[arguments.count - 1], isDirectory: true)
let files = FileManager.default

/// Renders one receipt into `file` in its output format.
func render(_ receipt: Receipt, to file: URL) throws {
    let printer = ReceiptPrinter(receipt)
    var geometry = PageGeometry.of(receipt.layout)
    if let size = receipt.fontSize { geometry.fontSize = size }
    let renderer = Renderer(
        font: receipt.font, geometry: geometry, name: receipt.id,
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

/// The hard negatives of duplicate detection: each one-page receipt bought again, the same items at the
/// same total from the same shop, on other days, at another time and with another receipt number:
/// `<id>--d0.<ext>`, `<id>--d3.<ext>`, `<id>--d9.<ext>`. Not part of `Fixtures/` (the duplicate bench
/// renders them into a scratch folder).
func writeSamePurchases(to dir: URL) throws {
    try recreateDirectory(dir)
    for base in receiptFixtures where base.pages == 1 && (base.format == .png || base.format == .jpeg) && base.kind == .receipt {
        for shift in [0, 3, 9] {
            var r = base
            let day = base.date.day + shift <= 28 ? base.date.day + shift : base.date.day - shift
            r.date = Day(base.date.year, base.date.month, day)
            r.id = "\(base.id)--d\(shift)"
            if shift > 0 {
                r.time = "1\(shift):\(pad2(7 * shift % 60))"
                if let ref = base.reference { r.reference = (ref.label, "\(ref.value)-\(shift)") }
            }
            try render(r, to: dir.appendingPathComponent(r.fileName))
            print("wrote \(r.fileName)")
        }
    }
}

/// A year of receipts from one shop whose name is a logo (not printed as text), one a month for its magazine
/// subscription (the price rises from July), on a day that drifts between the 3rd and the 7th:
/// `<id>-01.png` … `<id>-12.png`, each with `<id>-MM.png.expected.json` beside it. Not part of `Fixtures/`: the merchant
/// memory's and the recurring charges' tests render them into a scratch folder.
func writeShopSeries(to dir: URL) throws {
    try recreateDirectory(dir)
    for month in 1...12 {
        var r = shopSeries
        r.date = Day(2026, month, 3 + month % 5)
        r.id = "\(shopSeries.id)-\(pad2(month))"
        r.time = "1\(month % 10):\(pad2(11 * month % 60))"
        if let ref = shopSeries.reference { r.reference = (ref.label, "\(ref.value)\(pad2(month))") }
        r.items = [Item("Langganan majalah bulanan", month < 7 ? 2500 : 2790)]
        try render(r, to: dir.appendingPathComponent(r.fileName))
        try writeText(expectedJSON(r, Totals(r)), to: dir.appendingPathComponent("\(r.fileName).expected.json"))
        print("wrote \(r.fileName)")
    }
}

if arguments[1] == "--shop-series" {
    do { try writeShopSeries(to: root) } catch {
        FileHandle.standardError.write(Data("shoebox-fixtures: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

if arguments[1] == "--same-purchase" {
    do { try writeSamePurchases(to: root) } catch {
        FileHandle.standardError.write(Data("shoebox-fixtures: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

do {
    let receiptsDir = root.appendingPathComponent("receipts")
    let scansDir = root.appendingPathComponent("sample-scans")
    let expectedDir = root.appendingPathComponent("sample-expected")
    let itemsDir = root.appendingPathComponent("items")
    for dir in [receiptsDir, scansDir, expectedDir, itemsDir] { try recreateDirectory(dir) }

    for receipt in receiptFixtures + sampleFixtures + itemFixtures {
        let totals = Totals(receipt)
        let scan: URL
        let expected: URL
        switch receipt.destination {
        case .receipts:
            scan = receiptsDir.appendingPathComponent(receipt.fileName)
            expected = receiptsDir.appendingPathComponent("\(receipt.id).expected.json")
        case .items:
            scan = itemsDir.appendingPathComponent(receipt.fileName)
            expected = itemsDir.appendingPathComponent("\(receipt.id).expected.json")
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
    let screensDir = root.appendingPathComponent("screens")
    try recreateDirectory(screensDir)
    for spec in screenFixtures {
        let painter = ScreenPainter(spec: spec)
        try painter.write(to: screensDir.appendingPathComponent(painter.fileName))
        try writeText(painter.expectedJSON(), to: screensDir.appendingPathComponent("\(spec.id).expected.json"))
        print("wrote \(painter.fileName)")
    }
    let scratch = try Scratch()
    defer { scratch.clean() }
    try writeEInvoices(receiptsDir: receiptsDir, scansDir: scansDir, expectedDir: expectedDir, scratch: scratch)
    try writeBrokenEInvoices(to: root.appendingPathComponent("einvoices-broken"), scratch: scratch)
    // What a user sets for a folder (`run` reads its currency and language, `export` its categories; neither takes
    // dotfiles as scans): the currency its receipts are in, the language of a folder of German paper, and the trip's
    // export category.
    try writeText(
        "{\"defaultCategory\": \"work trip\", \"categories\": [\"work trip\", \"meals\"], \"currency\": \"EUR\", \"language\": \"deu\"}\n",
        to: scansDir.appendingPathComponent("2026-03-berlin-trip/.shoebox.json"))
    try writeText("{\"currency\": \"EUR\", \"language\": \"deu\"}\n", to: scansDir.appendingPathComponent("invoices/.shoebox.json"))
    try writeText("{\"currency\": \"EUR\"}\n", to: scansDir.appendingPathComponent("office-supplies/.shoebox.json"))
    try writeText(readme(), to: root.appendingPathComponent("README.md"))
} catch {
    FileHandle.standardError.write(Data("shoebox-fixtures: \(error)\n".utf8))
    exit(1)
}
