// The data model of a synthetic receipt: what is printed on it and how amounts,
// dates and tax rates are written. All money is integer minor units (cents).

enum Language: String {
    case eng, deu, spa, fra, msa
}

enum DocumentKind: String {
    case receipt, invoice
}

/// Page geometry. Everything is laid out in pixels at 300 dpi.
enum Layout {
    /// 80 mm thermal roll; the height follows the content.
    case thermal
    /// A5 or A4 portrait page (fixed height).
    case invoice(Paper)

    var name: String {
        switch self {
        case .thermal: "thermal"
        case .invoice: "invoice"
        }
    }
}

enum Paper {
    case a5, a4

    /// Width and height in pixels at 300 dpi.
    var pixels: (width: Int, height: Int) {
        switch self {
        case .a5: (1748, 2480)
        case .a4: (2480, 3508)
        }
    }
}

enum OutputFormat {
    case png
    case jpeg
    /// A raster painted into a PDF page: no text layer.
    case imagePDF
    /// Text drawn with cairo on a PDF surface: a real text layer.
    case textPDF

    var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .imagePDF, .textPDF: "pdf"
        }
    }

    var readableName: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .imagePDF: "PDF (image only)"
        case .textPDF: "PDF (text layer)"
        }
    }
}

/// Makes a raster look like a phone photo or flatbed scan.
struct ScanLook {
    /// Gray level of the paper (255 = white).
    var paper: Int = 236
    /// Peak amplitude of the paper texture in gray levels (plus ±1 grain per pixel).
    var noise: Int = 6
    /// Clockwise rotation of the page content in degrees.
    var rotation: Double = 0
}

// MARK: - Dates

struct Day {
    var year: Int
    var month: Int
    var day: Int

    init(_ year: Int, _ month: Int, _ day: Int) {
        precondition((1...12).contains(month) && (1...31).contains(day))
        self.year = year
        self.month = month
        self.day = day
    }

    var iso: String { "\(year)-\(pad2(month))-\(pad2(day))" }
}

enum DateStyle {
    case dotted // 14.03.2026
    case dottedShort // 14.03.26
    case slashDMY // 14/03/2026
    case slashMDY // 03/14/2026 (US)
    case iso // 2026-03-14
    case dashShort // 14-03-26
    case englishMonth // 14 Mar 2026
    case frenchMonth // 14 mars 2026
    case malayMonth // 14 MAC 2026

    func format(_ d: Day) -> String {
        let dd = pad2(d.day)
        let mm = pad2(d.month)
        let yy = pad2(d.year % 100)
        switch self {
        case .dotted: return "\(dd).\(mm).\(d.year)"
        case .dottedShort: return "\(dd).\(mm).\(yy)"
        case .slashDMY: return "\(dd)/\(mm)/\(d.year)"
        case .slashMDY: return "\(mm)/\(dd)/\(d.year)"
        case .iso: return d.iso
        case .dashShort: return "\(dd)-\(mm)-\(yy)"
        case .englishMonth:
            let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            return "\(d.day) \(names[d.month - 1]) \(d.year)"
        case .frenchMonth:
            let names = [
                "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
                "septembre", "octobre", "novembre", "décembre"
            ]
            return "\(d.day) \(names[d.month - 1]) \(d.year)"
        case .malayMonth:
            let names = [
                "JANUARI", "FEBRUARI", "MAC", "APRIL", "MEI", "JUN", "JULAI", "OGOS",
                "SEPTEMBER", "OKTOBER", "NOVEMBER", "DISEMBER"
            ]
            return "\(d.day) \(names[d.month - 1]) \(d.year)"
        }
    }
}

func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

// MARK: - Money

/// How the digits of an amount are grouped and separated.
enum NumberStyle {
    case commaGroupsDotDecimal // 1,234.56
    case dotGroupsCommaDecimal // 1.234,56
    case commaDecimal // 1234,56 (no grouping)
    case swiss // 1'234.56
    case french // 1 234,56

    var decimalSeparator: String {
        switch self {
        case .commaGroupsDotDecimal, .swiss: "."
        case .dotGroupsCommaDecimal, .commaDecimal, .french: ","
        }
    }

    var groupSeparator: String {
        switch self {
        case .commaGroupsDotDecimal: ","
        case .dotGroupsCommaDecimal: "."
        case .commaDecimal: ""
        case .swiss: "'"
        case .french: " "
        }
    }

    func format(_ cents: Int) -> String {
        let sign = cents < 0 ? "-" : ""
        let value = abs(cents)
        var digits = String(value / 100)
        if !groupSeparator.isEmpty {
            var groups: [String] = []
            while digits.count > 3 {
                groups.insert(String(digits.suffix(3)), at: 0)
                digits = String(digits.dropLast(3))
            }
            groups.insert(digits, at: 0)
            digits = groups.joined(separator: groupSeparator)
        }
        return sign + digits + decimalSeparator + pad2(value % 100)
    }

    /// A tax rate in basis points written as a percentage: 1900 -> "19%", 550 -> "5,5%".
    func percent(_ basisPoints: Int) -> String {
        var text = String(basisPoints / 100)
        var fraction = basisPoints % 100
        if fraction != 0 {
            var fractionDigits = pad2(fraction)
            if fraction % 10 == 0 {
                fraction /= 10
                fractionDigits = String(fraction)
            }
            text += decimalSeparator + fractionDigits
        }
        return text + "%"
    }
}

/// How a receipt writes money: ISO code for the JSON, a marker ("€", "EUR", "RM ") and where it goes.
struct MoneyStyle {
    var code: String
    var numbers: NumberStyle
    var marker: String
    var markerFirst: Bool

    /// Amount with the currency marker, as on total and payment lines.
    func withMarker(_ cents: Int) -> String {
        markerFirst ? marker + numbers.format(cents) : numbers.format(cents) + marker
    }

    func plain(_ cents: Int) -> String { numbers.format(cents) }

    static let euroDE = MoneyStyle(code: "EUR", numbers: .dotGroupsCommaDecimal, marker: " EUR", markerFirst: false)
    static let euroSymbolDE = MoneyStyle(code: "EUR", numbers: .dotGroupsCommaDecimal, marker: " €", markerFirst: false)
    /// Euro amounts printed with no currency anywhere, as many small German tills print them.
    static let euroBareDE = MoneyStyle(code: "EUR", numbers: .dotGroupsCommaDecimal, marker: "", markerFirst: false)
    static let euroES = MoneyStyle(code: "EUR", numbers: .dotGroupsCommaDecimal, marker: " €", markerFirst: false)
    static let euroFR = MoneyStyle(code: "EUR", numbers: .french, marker: " €", markerFirst: false)
    static let euroFRShort = MoneyStyle(code: "EUR", numbers: .commaDecimal, marker: " EUR", markerFirst: false)
    /// Euro amounts with no currency printed, Spanish and French style.
    static let euroBareES = MoneyStyle(code: "EUR", numbers: .dotGroupsCommaDecimal, marker: "", markerFirst: false)
    static let euroBareFR = MoneyStyle(code: "EUR", numbers: .french, marker: "", markerFirst: false)
    /// Pounds with no currency printed.
    static let poundBare = MoneyStyle(code: "GBP", numbers: .commaGroupsDotDecimal, marker: "", markerFirst: true)
    static let pound = MoneyStyle(code: "GBP", numbers: .commaGroupsDotDecimal, marker: "£", markerFirst: true)
    static let dollar = MoneyStyle(code: "USD", numbers: .commaGroupsDotDecimal, marker: "$", markerFirst: true)
    static let ringgit = MoneyStyle(code: "MYR", numbers: .commaGroupsDotDecimal, marker: "RM ", markerFirst: true)
    /// Ringgit printed with no currency anywhere, as many Malaysian receipts are.
    static let ringgitBare = MoneyStyle(code: "MYR", numbers: .commaGroupsDotDecimal, marker: "", markerFirst: true)
    static let franc = MoneyStyle(code: "CHF", numbers: .swiss, marker: "CHF ", markerFirst: true)
}

// MARK: - Contents

struct TaxRate {
    /// Label printed before the rate, e.g. "MwSt", "IVA", "SST".
    var label: String
    /// Rate in basis points: 1900 = 19 %.
    var basisPoints: Int
}

/// The rates the fixtures print, by country.
extension TaxRate {
    static let mwst7 = TaxRate(label: "MwSt", basisPoints: 700)
    static let mwst19 = TaxRate(label: "MwSt", basisPoints: 1900)
    static let vat20 = TaxRate(label: "VAT", basisPoints: 2000)
    static let vat5 = TaxRate(label: "VAT", basisPoints: 500)
    static let iva10 = TaxRate(label: "IVA", basisPoints: 1000)
    static let iva21 = TaxRate(label: "IVA", basisPoints: 2100)
    static let tva55 = TaxRate(label: "TVA", basisPoints: 550)
    static let tva20 = TaxRate(label: "TVA", basisPoints: 2000)
    static let sst6 = TaxRate(label: "SST", basisPoints: 600)
    static let sst8 = TaxRate(label: "SST", basisPoints: 800)
    static let gst6 = TaxRate(label: "GST", basisPoints: 600)
    static let gst0 = TaxRate(label: "GST", basisPoints: 0)
}

/// What an item line is, as the record's `LineItem.Kind` names it.
enum ItemKind: String {
    case item, discount, deposit, void, charge
}

/// How a thermal receipt prints an item's quantity and unit price.
enum QuantityStyle {
    /// "2 x Cheddar 400g        7,50": the count before the name, no unit price.
    case inline
    /// The amount line, then "  2 Stk x 1,29" indented under it (a weighed article prints its weight this way).
    case below
    /// "2 x 1,29" on its own line, then the name and amount.
    case above
}

struct Item {
    var name: String
    var quantity: Int
    /// The unit price in cents; negative for a discount, a voided article or a returned deposit. For a weighed article,
    /// the price per kilogram.
    var unitCents: Int
    /// Index into `Receipt.taxRates`.
    var taxClass: Int
    var kind: ItemKind = .item
    /// A weighed article's weight in grams: its amount is weight × price per kilogram, rounded to the cent.
    var grams: Int? = nil
    var quantityStyle: QuantityStyle = .inline
    /// The description's second line: printed above the amount line (its first words) or, with `wrapBelow`, indented
    /// under it. The expected description is both lines joined.
    var wrap: String? = nil
    var wrapBelow = false

    init(_ name: String, _ unitCents: Int, quantity: Int = 1, tax taxClass: Int = 0) {
        self.name = name
        self.quantity = quantity
        self.unitCents = unitCents
        self.taxClass = taxClass
    }

    /// A line of another kind: a discount, deposit, voided article or charge, its amount signed as it counts.
    init(_ kind: ItemKind, _ name: String, _ cents: Int, tax taxClass: Int = 0) {
        self.init(name, cents, tax: taxClass)
        self.kind = kind
    }

    /// A weighed article: `grams` at `centsPerKilo`, its weight printed under it.
    init(_ name: String, grams: Int, centsPerKilo: Int, tax taxClass: Int = 0) {
        self.init(name, centsPerKilo, tax: taxClass)
        self.grams = grams
        self.quantityStyle = .below
    }

    /// The same item with its quantity printed in `style`.
    func printed(_ style: QuantityStyle) -> Item {
        var copy = self
        copy.quantityStyle = style
        return copy
    }

    /// The same item with its description going on onto a second line.
    func wrapped(_ rest: String, below: Bool) -> Item {
        var copy = self
        copy.wrap = rest
        copy.wrapBelow = below
        return copy
    }

    var amountCents: Int {
        guard let grams else { return quantity * unitCents }
        return roundedDivision(grams * unitCents, 1000)
    }

    /// The description a reader should give: the name with its second line.
    var fullName: String {
        guard let wrap else { return name }
        return wrapBelow ? name + " " + wrap : wrap + " " + name
    }
}

enum Pricing {
    /// Item prices include tax (Europe): the tax is extracted from the gross sum.
    case gross
    /// Item prices exclude tax (US sales tax, Malaysian SST): tax is added on top.
    case net
}

enum Payment {
    case cash(tenderedCents: Int)
    /// A card payment; `detail` is printed under it, e.g. "VISA **** 4821".
    case card(detail: String?)
    /// Invoices to be paid later; the text is printed as a payment note.
    case due(note: String)

    var jsonValue: String? {
        switch self {
        case .cash: "cash"
        case .card: "card"
        case .due: nil
        }
    }
}

/// The words a receipt prints for its fixed lines.
struct Labels {
    var subtotal: String
    var total: String
    var cash: String
    var change: String
    var card: String
    var thanks: String

    /// A copy with some words replaced.
    func with(
        subtotal: String? = nil, total: String? = nil, cash: String? = nil, change: String? = nil,
        card: String? = nil, thanks: String? = nil
    ) -> Labels {
        Labels(
            subtotal: subtotal ?? self.subtotal, total: total ?? self.total, cash: cash ?? self.cash,
            change: change ?? self.change, card: card ?? self.card, thanks: thanks ?? self.thanks)
    }

    static let eng = Labels(
        subtotal: "Subtotal", total: "TOTAL", cash: "Cash", change: "Change",
        card: "Card", thanks: "Thank you for shopping with us!")
    static let deu = Labels(
        subtotal: "Netto", total: "SUMME", cash: "Bar", change: "Rückgeld",
        card: "Girocard", thanks: "Vielen Dank für Ihren Einkauf!")
    static let spa = Labels(
        subtotal: "Base imponible", total: "TOTAL", cash: "Efectivo", change: "Cambio",
        card: "Tarjeta", thanks: "¡Gracias por su visita!")
    static let fra = Labels(
        subtotal: "Total HT", total: "TOTAL TTC", cash: "Espèces", change: "Rendu",
        card: "Carte bancaire", thanks: "Merci de votre visite !")
    static let msa = Labels(
        subtotal: "Jumlah Kecil", total: "JUMLAH", cash: "Tunai", change: "Baki",
        card: "Kad Kredit", thanks: "Terima kasih, sila datang lagi")
}

/// Where a rendered receipt goes.
enum Destination {
    /// `Fixtures/receipts/<id>.<ext>` with `<id>.expected.json` beside it.
    case receipts
    /// `Fixtures/sample-scans/<folder>/<fileName>`, expected JSON under `Fixtures/sample-expected/<folder>/`.
    case sample(folder: String, fileName: String)
    /// `Fixtures/items/<id>.<ext>`, its expected JSON stating the line items too.
    case items
}

struct Receipt {
    var id: String
    var language: Language
    var kind: DocumentKind = .receipt
    var layout: Layout = .thermal
    var format: OutputFormat = .png
    var destination: Destination = .receipts
    var font: String
    var scan: ScanLook? = nil
    /// Print every line in bold (thin fonts such as FreeMono read better that way).
    var boldText = false
    /// A smaller type than the layout's (36 px prints the 42 columns of a till printer's 80 mm roll); nil keeps it.
    var fontSize: Double? = nil
    /// One line in the README table.
    var note: String = ""

    var merchant: String
    /// false: the name is a logo OCR cannot read, so the page does not print it as text (the header lines still are).
    var merchantPrinted = true
    /// Lines printed above the merchant's: a heading ("TAX INVOICE", "KASSENBON") or a brand or branch name over the
    /// legal name.
    var above: [String] = []
    /// Address, phone and tax id lines under the merchant name.
    var header: [String]
    /// Printed under the header, e.g. "FACTURA SIMPLIFICADA", "RECHNUNG".
    var title: String? = nil
    var date: Day
    var dateStyle: DateStyle
    /// Word before the date, e.g. "Datum:"; nil prints the bare date.
    var dateLabel: String? = nil
    var time: String? = nil
    /// The date's line as printed, `{date}` and `{time}` standing for them, a line break for a date on the line below
    /// its heading ("DATE\n{date}", "Kasse 2 Bon 4411 {date} {time}"); nil prints the label, the date and the time.
    var dateLine: String? = nil
    /// Printed reference line: label and value, e.g. ("Bon-Nr.", "4711").
    var reference: (label: String, value: String)? = nil
    /// Cashier / till line, printed under the date (never parsed).
    var extraInfo: String? = nil

    var money: MoneyStyle
    var pricing: Pricing
    var taxRates: [TaxRate]
    /// The code each tax rate prints after an item's amount and before its tax line ("A", "B"); nil prints none.
    var taxCodes: [String]? = nil
    /// A negative item amount printed with its minus after it ("0,75-"), as German tills print them.
    var minusAfter = false
    var items: [Item]
    /// For the two-page document: number of items on page 1.
    var itemsOnFirstPage: Int? = nil
    var labels: Labels
    /// false: only the tax line(s) are printed, no net/subtotal line (the JSON then has "subtotal": null).
    var showSubtotal = true
    var payment: Payment
    /// Cash rounded to 5 cents: the rounding's label and the rounded total's ("Rounding Adj", "Total (rounded)"). The
    /// amount paid is the rounded one, and that is the expected total.
    var cashRounding: (label: String, total: String)? = nil
    var footer: [String] = []

    var fileName: String {
        switch destination {
        case .receipts, .items: "\(id).\(format.fileExtension)"
        case .sample(_, let fileName): fileName
        }
    }

    var pages: Int { itemsOnFirstPage == nil ? 1 : 2 }
}

// MARK: - Arithmetic

/// Rounds numerator/denominator to the nearest integer, halves away from zero (inputs are non-negative).
func roundedDivision(_ numerator: Int, _ denominator: Int) -> Int {
    precondition(numerator >= 0 && denominator > 0)
    return (2 * numerator + denominator) / (2 * denominator)
}

struct Totals {
    struct TaxLine {
        var rate: TaxRate
        /// Net amount the tax is charged on.
        var baseCents: Int
        var taxCents: Int
    }

    var taxLines: [TaxLine]
    var subtotalCents: Int
    var taxCents: Int
    var totalCents: Int
    /// What was paid: the total, or with cash rounding the total rounded to 5 cents.
    var paidCents: Int
    var changeCents: Int?

    init(_ r: Receipt) {
        var lines: [TaxLine] = []
        for (index, rate) in r.taxRates.enumerated() {
            let sum = r.items.filter { $0.taxClass == index }.map(\.amountCents).reduce(0, +)
            if sum == 0 { continue }
            switch r.pricing {
            case .gross:
                let net = roundedDivision(sum * 10_000, 10_000 + rate.basisPoints)
                lines.append(TaxLine(rate: rate, baseCents: net, taxCents: sum - net))
            case .net:
                lines.append(TaxLine(rate: rate, baseCents: sum, taxCents: roundedDivision(sum * rate.basisPoints, 10_000)))
            }
        }
        precondition(r.items.allSatisfy { $0.taxClass < r.taxRates.count }, "\(r.id): bad tax class")
        taxLines = lines
        subtotalCents = lines.map(\.baseCents).reduce(0, +)
        taxCents = lines.map(\.taxCents).reduce(0, +)
        totalCents = subtotalCents + taxCents
        if r.pricing == .gross {
            precondition(totalCents == r.items.map(\.amountCents).reduce(0, +))
        }
        paidCents = r.cashRounding == nil ? totalCents : (totalCents + 2) / 5 * 5
        if case .cash(let tendered) = r.payment {
            precondition(tendered >= paidCents, "\(r.id): cash tendered below total")
            changeCents = tendered - paidCents
        }
    }
}
