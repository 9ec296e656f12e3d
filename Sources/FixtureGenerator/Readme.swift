// Fixtures/README.md, generated from the same specs so it never drifts.

func readme() -> String {
    func row(_ r: Receipt, name: String) -> String {
        let totals = Totals(r)
        let format = r.pages > 1 ? "PDF (image only, 2 pages)" : r.format.readableName
        return "| \(name) | \(r.language.rawValue) | \(r.money.code) | \(format) | \(r.layout.name) "
            + "| \(r.money.withMarker(totals.paidCents)) | \(r.note) |"
    }
    let head =
        "| file | language | currency | format | layout | total as printed | special |\n"
        + "| --- | --- | --- | --- | --- | --- | --- |\n"

    var text = """
        # Fixtures

        Synthetic receipts rendered by `shoebox-fixtures` (`Sources/FixtureGenerator/`). Do not edit the files
        here by hand: change the specs in `Sources/FixtureGenerator/ReceiptSpecs.swift` and regenerate:

            make fixtures        # = swift run shoebox-fixtures Fixtures

        The output is deterministic (no timestamps, seeded noise, fixed PDF creation date \(fixedPDFDate)),
        so regenerating without changes leaves `git status` clean.

        Rasters are 8-bit gray at 300 dpi (resolution stored in the PNG/JPEG); PDFs are 300 dpi rasters
        painted at 72/300 scale, except the one born-digital PDF, whose text `pdftotext` can read.
        All amounts are computed in integer cents, so net + tax = total and tendered - total = change.

        ## receipts/

        Each `<id>.<ext>` has `<id>.expected.json` beside it with the fields `file`, `merchant` (exactly the
        top line), `date` (ISO), `total`, `subtotal`, `tax` (plain decimals with a dot, `null` when not
        printed), `currency` (ISO 4217), `language` (ISO 639-2/T), `referenceNumber`, `paymentMethod`
        (`card`, `cash` or `null`), `documentKind`, `layout` and `pages`.


        """
    text += head
    text += receiptFixtures.map { row($0, name: "`\($0.fileName)`") }.joined(separator: "\n") + "\n"
    text += classTable()
    text += """

        ## sample-scans/

        Two folders of phone-photo and scanner style file names, and `invoices/` with two e-invoices (a
        Factur-X PDF and an XRechnung XML), for trying the whole pipeline on a folder. Every file in
        `sample-scans/` is a document to read; the expected values live outside it, in
        `sample-expected/<folder>/<file name>.expected.json`.


        """
    text += head
    text +=
        sampleFixtures.map { r -> String in
            guard case .sample(let folder, let fileName) = r.destination else { fatalError("sample without folder") }
            return row(r, name: "`\(folder)/\(fileName)`")
        }.joined(separator: "\n") + "\n"
    text += eInvoiceSampleRows()
    text += """

        ## items/

        The line-item suite: one till receipt per language printing every kind of item line (a quantity line under
        or above the item or a count before its name, a weighed article, a name going on onto a second line, a
        discount, deposits, a voided article, two tax rates with their codes after each amount). Each
        `<id>.expected.json` states the receipt's fields as in `receipts/` and its `items` (kind, description as
        printed, quantity, unit price, signed amount, tax rate and code) with the `itemsCheck` that proves them;
        `shoebox regress` compares every item.


        """
    text += head
    text += itemFixtures.map { row($0, name: "`\($0.fileName)`") }.joined(separator: "\n") + "\n"
    text += """

        ## screens/

        Phone payment screens in colour at 1080 × 2340 with a status bar (docs/screens.md): each `<id>.expected.json`
        states the payee (`merchant`), amount (`total`), date, reference, `documentKind`, `provider` and `screenPurpose`
        (payment, or the screen of no purchase it is). Made-up shops and people. A `.pdf` is a screen shared as a one-page
        PDF (the screenshot its only content).

        | file | provider | shows | language | dark |
        |---|---|---|---|---|

        """
    text +=
        screenFixtures.map {
            "| `\(ScreenPainter(spec: $0).fileName)` | \($0.provider ?? "—") | \($0.purpose) | \($0.language.rawValue) | \($0.dark ? "yes" : "no") |"
        }
        .joined(separator: "\n") + "\n"
    text += eInvoiceReadme()
    return text
}

/// The classes issue 51 names, and the fixture of each language that prints each ("—": the class does not occur there,
/// or no fixture shows it yet). `FixtureClassTableTests` holds every named file to `receipts/`.
let fixtureClasses: [(name: String, byLanguage: [String])] = [
    ("a paid label above a net or subtotal", ["eng-gb-pub-logo", "—", "spa-ticket-logo", "fra-garage-facture", "msa-kedai-cawangan"]),
    ("the date after the till or the time on its line", ["eng-gb-pub-logo", "deu-tse-kasse", "spa-ticket-logo", "fra-ticket-logo", "—"]),
    ("the date on the line below its heading", ["—", "—", "—", "—", "msa-kedai-cawangan"]),
    (
        "a due date printed above the document's date",
        ["eng-invoice-textpdf", "deu-rechnung-2seiten", "spa-ferreteria", "fra-garage-facture", "msa-percetakan-invois"]
    ),
    ("a two-digit year beside the time, the TSE block", ["—", "deu-tse-kasse", "—", "—", "—"]),
    ("cash rounded to 5 cents, the amount to pay below", ["—", "—", "—", "—", "msa-kedai-cawangan"]),
    ("the name a logo, printed only in the imprint", ["eng-gb-pub-logo", "deu-drogerie-logo", "spa-ticket-logo", "fra-ticket-logo", "—"]),
    ("a heading above where the name stands", ["eng-gb-pub-logo", "deu-tse-kasse", "spa-ticket-logo", "fra-ticket-logo", "—"]),
    ("the brand over the legal name", ["—", "—", "—", "—", "msa-kedai-cawangan"]),
    ("no currency printed: the country's evidence says it", ["eng-gb-pub-logo", "deu-kiosk", "spa-ticket-logo", "fra-ticket-logo", "msa-kedai-kopi"])
]

func classTable() -> String {
    var text = "\n### The classes of issue 51, by language\n\n| class | eng | deu | spa | fra | msa |\n| --- | --- | --- | --- | --- | --- |\n"
    for c in fixtureClasses {
        text += "| \(c.name) | " + c.byLanguage.map { $0 == "—" ? "—" : "`\($0)`" }.joined(separator: " | ") + " |\n"
    }
    return text
}
