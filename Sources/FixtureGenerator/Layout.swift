// Turns a receipt into printed lines. The renderer knows nothing about receipts, only lines.

enum Align { case left, center, right }

enum TextSize {
    case small, normal, large

    var scale: Double {
        switch self {
        case .small: 0.85
        case .normal: 1.0
        case .large: 1.25
        }
    }
}

struct Style {
    var size: TextSize = .normal
    var bold = false

    static let plain = Style()
    static let bold = Style(bold: true)
    static let heading = Style(size: .large, bold: true)
    static let small = Style(size: .small)
}

/// One column of a table row; `x` is the fraction of the text width where the column starts
/// (left aligned) or ends (right aligned).
struct Cell {
    var text: String
    var x: Double
    var align: Align
}

enum Line {
    case text(String, Align, Style)
    /// Left text at the left margin, right text flush right: "Milch      1,19".
    case pair(String, String, Style)
    case cells([Cell], Style)
    case rule
    case gap
    case pageBreak
}

struct ReceiptPrinter {
    let receipt: Receipt
    let totals: Totals

    init(_ receipt: Receipt) {
        self.receipt = receipt
        self.totals = Totals(receipt)
    }

    var lines: [Line] {
        switch receipt.layout {
        case .thermal: thermalLines
        case .invoice: invoiceLines
        }
    }

    private var money: MoneyStyle { receipt.money }
    private var labels: Labels { receipt.labels }

    private var dateText: String {
        let date = receipt.dateStyle.format(receipt.date)
        if let line = receipt.dateLine {
            return line.replacingOccurrences(of: "{date}", with: date).replacingOccurrences(of: "{time}", with: receipt.time ?? "")
        }
        var text = date
        if let label = receipt.dateLabel { text = label + " " + text }
        if let time = receipt.time { text += "  " + time }
        return text
    }

    /// The date's line, or its lines when the date stands below its heading.
    private func dateLines(_ align: Align) -> [Line] {
        dateText.split(separator: "\n").map { .text(String($0), align, .plain) }
    }

    private func taxLabel(_ line: Totals.TaxLine) -> String {
        let label = "\(line.rate.label) \(money.numbers.percent(line.rate.basisPoints))"
        guard let codes = receipt.taxCodes,
            let k = receipt.taxRates.firstIndex(where: { $0.label == line.rate.label && $0.basisPoints == line.rate.basisPoints })
        else { return label }
        return codes[k] + " " + label
    }

    /// A weight in grams as kilograms with three decimals, in the receipt's decimal separator: 452 -> "0,452".
    private func kilograms(_ grams: Int) -> String {
        "\(grams / 1000)\(money.numbers.decimalSeparator)\(String(grams % 1000 + 1000).dropFirst())"
    }

    /// The line that prints a quantity and unit price ("2 Stk x 1,29", "0,452 kg x 2,99 EUR/kg", "2 @ 1.85").
    private func quantityText(_ item: Item) -> String {
        let price = money.plain(item.unitCents)
        let (sign, perKilo): (String, String) =
            switch receipt.language {
            case .deu: ("x", " EUR/kg")
            case .spa, .fra: ("x", " €/kg")
            case .eng: ("@", "/kg")
            case .msa: ("@", "/KG")
            }
        if let grams = item.grams { return "\(kilograms(grams)) kg \(sign) \(price)\(perKilo)" }
        return receipt.language == .deu ? "\(item.quantity) Stk x \(price)" : "\(item.quantity) \(sign) \(price)"
    }

    /// An item's lines on a thermal roll: its name and amount (with the tax code), its quantity line, its wrapped words.
    private func thermalItemLines(_ item: Item) -> [Line] {
        var amount = money.plain(item.amountCents)
        if receipt.minusAfter && item.amountCents < 0 { amount = money.plain(-item.amountCents) + "-" }
        if let codes = receipt.taxCodes { amount += " " + codes[item.taxClass] }
        let showsQuantity = item.grams != nil || item.quantity != 1
        var out: [Line] = []
        if let wrap = item.wrap, !item.wrapBelow { out.append(.text(wrap, .left, .plain)) }
        if showsQuantity && item.quantityStyle == .above { out.append(.text(quantityText(item), .left, .plain)) }
        let name = showsQuantity && item.quantityStyle == .inline ? itemText(item) : item.name
        out.append(.pair(name, amount, .plain))
        if let wrap = item.wrap, item.wrapBelow { out.append(.text("   " + wrap, .left, .plain)) }
        if showsQuantity && item.quantityStyle == .below { out.append(.text("   " + quantityText(item), .left, .plain)) }
        return out
    }

    private func itemText(_ item: Item) -> String {
        item.quantity == 1 ? item.name : "\(item.quantity) x \(item.name)"
    }

    // MARK: Thermal roll

    private var thermalLines: [Line] {
        var out: [Line] = receipt.above.map { .text($0, .center, .bold) }
        out += receipt.merchantPrinted ? [.text(receipt.merchant, .center, .heading)] : [.gap, .gap]
        out += receipt.header.map { .text($0, .center, .plain) }
        out.append(.gap)
        if let title = receipt.title { out.append(.text(title, .center, .bold)) }
        out += dateLines(.left)
        if let ref = receipt.reference { out.append(.text("\(ref.label) \(ref.value)", .left, .plain)) }
        if let info = receipt.extraInfo { out.append(.text(info, .left, .plain)) }
        out.append(.rule)
        for item in receipt.items { out += thermalItemLines(item) }
        out.append(.rule)
        out += summaryLines
        out.append(.rule)
        out += paymentLines
        out.append(.gap)
        out += ([labels.thanks] + receipt.footer).map { .text($0, .center, .plain) }
        return out
    }

    private var summaryLines: [Line] {
        var out: [Line] = []
        if receipt.showSubtotal {
            out.append(.pair(labels.subtotal, money.plain(totals.subtotalCents), .plain))
        }
        for line in totals.taxLines {
            out.append(.pair(taxLabel(line), money.plain(line.taxCents), .plain))
        }
        if let rounding = receipt.cashRounding, totals.paidCents != totals.totalCents {
            out.append(.pair(labels.total, money.plain(totals.totalCents), .plain))
            out.append(.pair(rounding.label, money.plain(totals.paidCents - totals.totalCents), .plain))
            out.append(.pair(rounding.total, money.withMarker(totals.paidCents), .heading))
        } else {
            out.append(.pair(labels.total, money.withMarker(totals.totalCents), .heading))
        }
        return out
    }

    private var paymentLines: [Line] {
        switch receipt.payment {
        case .cash(let tendered):
            return [
                .pair(labels.cash, money.plain(tendered), .plain),
                .pair(labels.change, money.plain(totals.changeCents ?? 0), .plain)
            ]
        case .card(let detail):
            var out: [Line] = [.pair(labels.card, money.plain(totals.totalCents), .plain)]
            if let detail { out.append(.text(detail, .left, .plain)) }
            return out
        case .due(let note):
            return [.text(note, .left, .plain)]
        }
    }

    // MARK: Invoice page

    private var invoiceLines: [Line] {
        var out: [Line] = receipt.above.map { .text($0, .left, .bold) }
        out.append(.text(receipt.merchant, .left, .heading))
        out += receipt.header.map { .text($0, .left, .plain) }
        out += [.gap, .gap]
        if let title = receipt.title { out.append(.text(title, .left, .heading)) }
        if let ref = receipt.reference { out.append(.text("\(ref.label) \(ref.value)", .left, .plain)) }
        out += dateLines(.left)
        if let info = receipt.extraInfo { out.append(.text(info, .left, .plain)) }
        out.append(.gap)
        let heads = tableHeadings
        out.append(
            .cells(
                [
                    Cell(text: heads.quantity, x: 0, align: .left),
                    Cell(text: heads.description, x: 0.15, align: .left),
                    Cell(text: heads.unit, x: 0.78, align: .right),
                    Cell(text: heads.amount, x: 1, align: .right)
                ], .bold))
        out.append(.rule)
        for (index, item) in receipt.items.enumerated() {
            if index == receipt.itemsOnFirstPage {
                out += [
                    .rule, .text(heads.continued, .right, .small), .pageBreak,
                    .text(receipt.merchant, .left, .bold),
                    .text("\(receipt.title ?? "") \(receipt.reference?.value ?? "") (2/2)", .left, .plain),
                    .gap, .rule
                ]
            }
            out.append(
                .cells(
                    [
                        Cell(text: "\(item.quantity)", x: 0, align: .left),
                        Cell(text: item.name, x: 0.15, align: .left),
                        Cell(text: money.plain(item.unitCents), x: 0.78, align: .right),
                        Cell(text: money.plain(item.amountCents), x: 1, align: .right)
                    ], .plain))
        }
        out.append(.rule)
        out += summaryLines
        out.append(.gap)
        out += paymentLines
        out.append(.gap)
        out += ([labels.thanks] + receipt.footer).map { .text($0, .left, .plain) }
        return out
    }

    private var tableHeadings: (quantity: String, description: String, unit: String, amount: String, continued: String) {
        switch receipt.language {
        case .eng: ("Qty", "Description", "Unit price", "Amount", "continued on page 2")
        case .deu: ("Menge", "Artikel", "Einzelpreis", "Betrag", "Fortsetzung auf Seite 2")
        case .spa: ("Cant.", "Concepto", "Precio", "Importe", "continúa en la página 2")
        case .fra: ("Qté", "Désignation", "Prix unit.", "Montant", "suite page 2")
        case .msa: ("Kuan.", "Perkara", "Harga", "Amaun", "bersambung di muka surat 2")
        }
    }
}
