// Writes the e-invoice fixtures: standalone XML files, the Factur-X PDF (a text-layer page with the XML
// attached by qpdf), their expected values, and the broken files of `einvoices-broken/`.
import Foundation

// MARK: - Expected values

/// "7=1.05; 19=15.20": rows sorted by rate, the rate without trailing zeros, the tax as a plain decimal.
func taxByRate(_ spec: EInvoiceSpec) -> String? {
    guard spec.profile.hasBreakdown else { return nil }
    return ETotals(spec).rows.map { "\(trimmedPercent($0.rate))=\(xmlAmount(spec.sign * $0.taxCents))" }.joined(separator: "; ")
}

/// The values a reader should give for `spec`, as the record holds them (credit notes negative).
func eInvoiceExpected(_ spec: EInvoiceSpec, file: String, layout: String, pages: Int) -> String {
    let totals = ETotals(spec)
    return jsonObject([
        "file": .string(file),
        "merchant": .string(spec.seller.name),
        "date": .string(spec.issueDate.iso),
        "total": .string(xmlAmount(spec.sign * totals.gross)),
        "subtotal": .string(xmlAmount(spec.sign * totals.net)),
        "net": .string(xmlAmount(spec.sign * totals.net)),
        "tax": .string(xmlAmount(spec.sign * totals.tax)),
        "taxByRate": taxByRate(spec).map { .string($0) } ?? .null,
        "currency": .string(spec.currency),
        "language": .string("deu"),
        "referenceNumber": .string(spec.number),
        "dueDate": spec.dueDate.map { .string($0.iso) } ?? .null,
        "sellerTaxID": spec.seller.vatID.map { .string($0) } ?? .null,
        "paymentMethod": .null,
        "documentKind": .string(spec.isCredit ? "credit-note" : "invoice"),
        "layout": .string(layout),
        "pages": .int(pages)
    ])
}

// MARK: - The printed page

private let pageMoney = MoneyStyle.euroDE

/// The invoice page of a Factur-X PDF: the same seller, number, date, net, tax per rate and gross as its XML.
func eInvoicePage(_ spec: EInvoiceSpec) -> [Line] {
    precondition(spec.currency == "EUR" && spec.profile.hasLines, "\(spec.id): the page is a German EUR invoice with lines")
    let totals = ETotals(spec)
    let numbers = pageMoney.numbers
    var ids: [String] = []
    if let vat = spec.seller.vatID { ids.append("USt-IdNr. \(vat)") }
    if let fc = spec.seller.taxNumber { ids.append("St.-Nr. \(fc)") }
    var out: [Line] = [
        .text(spec.seller.name, .left, .heading),
        .text("\(spec.seller.street), \(spec.seller.postcode) \(spec.seller.city)", .left, .plain),
        .text(ids.joined(separator: "   "), .left, .plain),
        .gap, .gap,
        .text(spec.buyer.name, .left, .plain),
        .text(spec.buyer.street, .left, .plain),
        .text("\(spec.buyer.postcode) \(spec.buyer.city)", .left, .plain),
        .gap,
        .text(spec.isCredit ? "GUTSCHRIFT" : "RECHNUNG", .left, .heading),
        .text("Rechnungsnr. \(spec.number)", .left, .plain),
        .text("Rechnungsdatum: \(DateStyle.dotted.format(spec.issueDate))", .left, .plain)
    ]
    if let delivery = spec.deliveryDate {
        out.append(.text("Leistungsdatum: \(DateStyle.dotted.format(delivery))", .left, .plain))
    }
    out.append(.gap)
    out.append(
        .cells(
            [
                Cell(text: "Menge", x: 0, align: .left), Cell(text: "Artikel", x: 0.12, align: .left),
                Cell(text: "USt", x: 0.62, align: .right), Cell(text: "Einzelpreis", x: 0.8, align: .right),
                Cell(text: "Betrag", x: 1, align: .right)
            ], .bold))
    out.append(.rule)
    for line in spec.lines {
        out.append(
            .cells(
                [
                    Cell(text: "\(line.quantity)", x: 0, align: .left), Cell(text: line.name, x: 0.12, align: .left),
                    Cell(text: numbers.percent(line.rate), x: 0.62, align: .right),
                    Cell(text: numbers.format(line.unitCents), x: 0.8, align: .right),
                    Cell(text: numbers.format(line.amountCents), x: 1, align: .right)
                ], .plain))
    }
    out.append(.rule)
    out.append(.pair("Summe netto", numbers.format(totals.net), .plain))
    for row in totals.rows {
        // The basis is not printed beside the rate: "auf 234,70" on the tax line is read as the net by the page parser.
        out.append(.pair("zzgl. USt \(numbers.percent(row.rate))", numbers.format(row.taxCents), .plain))
    }
    out.append(.pair("Gesamtbetrag", pageMoney.withMarker(totals.gross), .heading))
    out.append(.gap)
    if let terms = spec.paymentTerms { out.append(.text(terms, .left, .plain)) }
    if let iban = spec.payeeIBAN { out.append(.text("Bankverbindung: IBAN \(grouped(iban))", .left, .plain)) }
    out.append(.gap)
    out.append(.text("Diese Rechnung enthält ihre Daten als Factur-X (EN 16931) im Anhang factur-x.xml.", .left, .small))
    return out
}

/// An IBAN in groups of four, as printed.
private func grouped(_ iban: String) -> String {
    var groups: [String] = []
    var rest = Substring(iban)
    while !rest.isEmpty {
        groups.append(String(rest.prefix(4)))
        rest = rest.dropFirst(4)
    }
    return groups.joined(separator: " ")
}

/// Renders `spec`'s page as a born-digital PDF.
func writeEInvoicePage(_ spec: EInvoiceSpec, to url: URL) throws {
    let renderer = Renderer(font: "Liberation Sans", geometry: .of(.invoice(.a4)), name: spec.id)
    try writeTextPDF(renderer, pages: [eInvoicePage(spec)], to: url, title: spec.seller.name)
}

// MARK: - Attaching with qpdf

/// A scratch folder for the intermediate files, removed by `clean()`.
struct Scratch {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-fixtures-\(getpid())")
        try recreateDirectory(dir)
    }

    func file(_ name: String) -> URL { dir.appendingPathComponent(name) }

    func clean() { try? FileManager.default.removeItem(at: dir) }
}

/// Fixed dates for the file specification, so that qpdf writes no timestamp of its own.
private let attachmentDate = "D:20260101000000Z"

/// Copies `pdf` to `output` with `payload` attached as `name` (in the EmbeddedFiles name tree).
/// `--deterministic-id` makes the trailer ID a hash of the content instead of a random one.
func attach(_ payload: Data, named name: String, mimeType: String, to pdf: URL, output: URL, scratch: Scratch) throws {
    let attachmentDir = scratch.file("attachment")
    try recreateDirectory(attachmentDir)
    let attachment = attachmentDir.appendingPathComponent(name)
    try payload.write(to: attachment)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "qpdf", "--deterministic-id", "--add-attachment", attachment.path, "--key=\(name)", "--filename=\(name)",
        "--mimetype=\(mimeType)", "--creationdate=\(attachmentDate)", "--moddate=\(attachmentDate)", "--",
        pdf.path, output.path
    ]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw WriteError.failed("qpdf --add-attachment failed (\(process.terminationStatus)) for \(output.path); is qpdf installed (make setup)?")
    }
}

/// A Factur-X PDF: `page`'s rendering with `xml` attached as factur-x.xml.
func writeFacturX(page: EInvoiceSpec, attachment: Data, mimeType: String = "text/xml", to output: URL, scratch: Scratch) throws {
    let rendered = scratch.file("page.pdf")
    try writeEInvoicePage(page, to: rendered)
    try attach(attachment, named: "factur-x.xml", mimeType: mimeType, to: rendered, output: output, scratch: scratch)
}

// MARK: - Good files

/// Writes every e-invoice into `receiptsDir` (the PDF with its expected JSON; the standalone XML files carry
/// their expected values in themselves) and the two sample copies into the sample folders.
func writeEInvoices(receiptsDir: URL, scansDir: URL, expectedDir: URL, scratch: Scratch) throws {
    for spec in eInvoiceFixtures where spec.id != facturXInvoice.id {
        let file = receiptsDir.appendingPathComponent("\(spec.id).xml")
        try writeText(eInvoiceXML(spec), to: file)
        print("wrote \(file.path)")
    }
    let pdf = receiptsDir.appendingPathComponent("\(facturXInvoice.id).pdf")
    try writeFacturX(page: facturXInvoice, attachment: Data(eInvoiceXML(facturXInvoice).utf8), to: pdf, scratch: scratch)
    try writeText(
        eInvoiceExpected(facturXInvoice, file: pdf.lastPathComponent, layout: "invoice", pages: 1),
        to: receiptsDir.appendingPathComponent("\(facturXInvoice.id).expected.json"))
    print("wrote \(pdf.path)")

    let folder = eInvoiceSampleFolder
    try files.createDirectory(at: scansDir.appendingPathComponent(folder), withIntermediateDirectories: true)
    try files.createDirectory(at: expectedDir.appendingPathComponent(folder), withIntermediateDirectories: true)
    for (spec, source, name, layout, pages) in [
        (facturXInvoice, pdf, eInvoiceSamplePDF, "invoice", 1),
        (xrechnungUBL, receiptsDir.appendingPathComponent("\(xrechnungUBL.id).xml"), eInvoiceSampleXML, "e-invoice", 0)
    ] {
        let copy = scansDir.appendingPathComponent("\(folder)/\(name)")
        try files.copyItem(at: source, to: copy)
        try writeText(
            eInvoiceExpected(spec, file: name, layout: layout, pages: pages),
            to: expectedDir.appendingPathComponent("\(folder)/\(name).expected.json"))
        print("wrote \(copy.path)")
    }
}

let eInvoiceSampleFolder = "invoices"
let eInvoiceSamplePDF = "Rechnung_RE-2026-0342.pdf"
let eInvoiceSampleXML = "xrechnung_2026-0117.xml"

// MARK: - Broken files

/// One file of `einvoices-broken/`: what a reader must do with it.
struct BrokenEInvoice {
    var file: String
    /// "failed" or "review".
    var status: String
    /// The failure code or the review reason.
    var code: String
    var note: String
}

let brokenEInvoices: [BrokenEInvoice] = [
    BrokenEInvoice(file: "malformed.xml", status: "failed", code: "xml-malformed", note: "a CII invoice cut off mid-element"),
    BrokenEInvoice(
        file: "external-entity.xml", status: "failed", code: "xml-dtd-refused",
        note: "DOCTYPE declaring an external entity on file:///etc/passwd, used as the seller name"),
    BrokenEInvoice(
        file: "entity-bomb.xml", status: "failed", code: "xml-dtd-refused",
        note: "billion laughs: 10 levels of 10 entity references, used as the seller name"),
    BrokenEInvoice(
        file: "utf16.xml", status: "failed", code: "xml-not-utf8",
        note: "a good CII invoice encoded as UTF-16LE with a byte order mark"),
    BrokenEInvoice(file: "not-an-invoice.xml", status: "failed", code: "xml-not-an-invoice", note: "an SVG drawing"),
    BrokenEInvoice(
        file: "wrong-arithmetic.xml", status: "review", code: "e-invoice-inconsistent",
        note: "XRechnung CII whose gross and amount due are 1.00 more than net + tax"),
    BrokenEInvoice(
        file: "facturx-page-disagrees.pdf", status: "review", code: "e-invoice-page-disagrees",
        note: "Factur-X PDF whose page prints the first line 5,00 dearer per unit than its XML, so another total"),
    BrokenEInvoice(
        file: "facturx-png-attachment.pdf", status: "review", code: "e-invoice-unreadable",
        note: "attachment named factur-x.xml holding PNG bytes; the page is read instead"),
    BrokenEInvoice(
        file: "facturx-malformed-attachment.pdf", status: "review", code: "e-invoice-unreadable",
        note: "attached factur-x.xml cut off mid-element; the page is read instead")
]

/// `text` cut in the middle of an element, half way through.
private func cutOff(_ text: String) -> String {
    let half = text.index(text.startIndex, offsetBy: text.count / 2)
    let tag = text[half...].firstIndex(of: "<") ?? half
    return String(text[..<text.index(tag, offsetBy: 4)])
}

/// The seller name element of a CII file, to swap for an entity reference.
private func sellerNameElement(_ spec: EInvoiceSpec) -> String {
    "<ram:Name>\(XMLText.escape(spec.seller.name))</ram:Name>"
}

/// `xml` with a DOCTYPE after its declaration and the seller name replaced by `reference`.
private func withDoctype(_ xml: String, _ doctype: String, seller: EInvoiceSpec, reference: String) -> String {
    let declarationEnd = xml.range(of: "?>\n")!.upperBound
    let body = String(xml[declarationEnd...])
    let element = sellerNameElement(seller)
    precondition(body.contains(element), "seller name not found")
    let replaced = body.replacingOccurrences(of: element, with: "<ram:Name>\(reference)</ram:Name>")
    return String(xml[..<declarationEnd]) + doctype + "\n" + replaced
}

/// A small gray PNG made by leptonica (8 × 8 pixels).
private func smallPNG() throws -> Data {
    try encodePNG(GrayImage(width: 8, height: 8, pixels: [UInt8](repeating: 200, count: 64)))
}

func writeBrokenEInvoices(to dir: URL, scratch: Scratch) throws {
    try recreateDirectory(dir)
    let good = ciiXML(facturXInvoice)
    func write(_ name: String, _ text: String) throws {
        precondition(brokenEInvoices.contains { $0.file == name }, "\(name) is not in the manifest")
        try writeText(text, to: dir.appendingPathComponent(name))
    }

    try write("malformed.xml", cutOff(good))
    try write(
        "external-entity.xml",
        withDoctype(
            good, "<!DOCTYPE rsm:CrossIndustryInvoice [\n  <!ENTITY xxe SYSTEM \"file:///etc/passwd\">\n]>",
            seller: facturXInvoice, reference: "&xxe;"))
    var bomb = "<!DOCTYPE rsm:CrossIndustryInvoice [\n  <!ENTITY lol \"lol\">\n"
    for level in 1...9 {
        let previous = level == 1 ? "lol" : "lol\(level - 1)"
        bomb += "  <!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
    }
    bomb += "]>"
    try write("entity-bomb.xml", withDoctype(good, bomb, seller: facturXInvoice, reference: "&lol9;"))

    // UTF-16LE with a byte order mark, written byte by byte so that it does not depend on the host.
    let utf16Text = good.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
    var utf16 = Data([0xFF, 0xFE])
    for unit in utf16Text.utf16 { utf16.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
    precondition(brokenEInvoices.contains { $0.file == "utf16.xml" })
    try utf16.write(to: dir.appendingPathComponent("utf16.xml"))

    try write(
        "not-an-invoice.xml",
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40">
          <title>Rechnung 2026</title>
          <rect x="1" y="1" width="118" height="38" fill="none" stroke="black"/>
          <text x="10" y="26">Total 1152.19 EUR</text>
        </svg>

        """)
    try write("wrong-arithmetic.xml", ciiXML(inconsistentInvoice))

    var printed = facturXInvoice
    printed.lines[0].unitCents += 500
    try writeFacturX(page: printed, attachment: Data(good.utf8), to: dir.appendingPathComponent("facturx-page-disagrees.pdf"), scratch: scratch)
    try writeFacturX(
        page: facturXInvoice, attachment: try smallPNG(), mimeType: "text/xml",
        to: dir.appendingPathComponent("facturx-png-attachment.pdf"), scratch: scratch)
    try writeFacturX(
        page: facturXInvoice, attachment: Data(cutOff(good).utf8),
        to: dir.appendingPathComponent("facturx-malformed-attachment.pdf"), scratch: scratch)

    let manifest = brokenEInvoices.sorted { $0.file < $1.file }.map {
        "  \(jsonQuote($0.file)): {\"status\": \(jsonQuote($0.status)), \"code\": \(jsonQuote($0.code))}"
    }
    try writeText("{\n" + manifest.joined(separator: ",\n") + "\n}\n", to: dir.appendingPathComponent("expected.json"))
    print("wrote \(dir.path) (\(brokenEInvoices.count) files and expected.json)")
}

// MARK: - README

func eInvoiceReadme() -> String {
    func row(_ spec: EInvoiceSpec, file: String) -> String {
        let t = ETotals(spec)
        let cells = [
            "`\(file)`", spec.syntax.name, spec.profile.name, "\(spec.typeCode)", spec.seller.name,
            spec.issueDate.iso, spec.number, spec.currency, xmlAmount(spec.sign * t.net), taxByRate(spec) ?? "-",
            xmlAmount(spec.sign * t.gross), spec.dueDate?.iso ?? "-", spec.seller.vatID ?? "-",
            spec.isCredit ? "credit-note" : "invoice", spec.note
        ]
        return "| " + cells.joined(separator: " | ") + " |"
    }
    var text = """

        ## E-invoices in receipts/

        Written from the generator's own model of an EN 16931 invoice (`EInvoiceSpecs.swift`, amounts in integer
        cents: net = lines - allowances + charges, tax per rate = basis x rate rounded half away from zero to the
        cent, gross = net + tax, due = gross - prepaid), as XML by `EInvoiceXML.swift`. The Factur-X PDF is a
        text-layer page (the same seller, number, date, net, tax per rate and gross) with the XML attached as
        `factur-x.xml` by `qpdf --add-attachment` (fixed file dates and `--deterministic-id`, so the bytes do
        not change between runs; the XML is in the EmbeddedFiles name tree, there is no `/AF` entry or PDF/A
        metadata). The PDF has `<id>.expected.json` beside it; the standalone XML files have none: their expected
        values are in the XML itself. All of them are listed here with the values a reader should give: credit
        notes are written with positive amounts (as CII 381 and UBL CreditNote write them) and expected
        negative (total, net and every tax). `taxByRate` lists the header VAT rows sorted by rate as
        `RATE=TAX`, joined by `; ` (`-`: MINIMUM has no breakdown). The expected JSON adds `net`, `tax`,
        `taxByRate`, `dueDate`, `sellerTaxID` (the VAT ID) and `documentKind` (`invoice` or `credit-note`).

        | file | syntax | profile | type | merchant | date | referenceNumber | currency | net | taxByRate | total | dueDate | sellerTaxID | documentKind | special |
        | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |

        """
    text += row(facturXInvoice, file: "\(facturXInvoice.id).pdf") + "\n"
    text += eInvoiceFixtures.filter { $0.id != facturXInvoice.id }.map { row($0, file: "\($0.id).xml") }.joined(separator: "\n")
    text += "\n"

    var printed = facturXInvoice
    printed.lines[0].unitCents += 500
    text += """

        ## einvoices-broken/

        Broken and hostile e-invoices for the reader's tests, not scored by `shoebox regress`.
        `einvoices-broken/expected.json` maps each file to what a reader must do: `{"status": "failed"|"review",
        "code": <failure code or review reason>}`. The PDFs' pages print the invoice of `\(facturXInvoice.id).pdf`
        (page-disagrees: gross \(xmlAmount(ETotals(printed).gross)) on the page, \(xmlAmount(ETotals(facturXInvoice).gross))
        in the XML), so a reader that falls back to the page finds that invoice.

        | file | status | code | what |
        | --- | --- | --- | --- |

        """
    text += brokenEInvoices.map { "| `\($0.file)` | \($0.status) | \($0.code) | \($0.note) |" }.joined(separator: "\n") + "\n"
    return text
}

/// The rows of the sample e-invoices, in the sample table's columns.
func eInvoiceSampleRows() -> String {
    let gross = ETotals(facturXInvoice).gross
    let ublGross = ETotals(xrechnungUBL).gross
    return [
        "| `\(eInvoiceSampleFolder)/\(eInvoiceSamplePDF)` | deu | EUR | Factur-X PDF (text layer + XML) | invoice "
            + "| \(MoneyStyle.euroDE.withMarker(gross)) | copy of `receipts/\(facturXInvoice.id).pdf` |",
        "| `\(eInvoiceSampleFolder)/\(eInvoiceSampleXML)` | deu | EUR | XRechnung UBL XML | e-invoice "
            + "| \(xmlAmount(ublGross)) (not printed) | copy of `receipts/\(xrechnungUBL.id).xml`; "
            + "its expectation has `layout` `e-invoice` and `pages` 0 |"
    ].joined(separator: "\n") + "\n"
}
