// The e-invoice fixtures: the generator's own model of an EN 16931 invoice (CII or UBL), its
// arithmetic in integer cents, and the specs of every file written. Independent of the project's
// e-invoice reader, so that the fixtures check that reader rather than repeat it.

/// Seller or buyer.
struct EParty {
    var name: String
    var street: String
    var postcode: String
    var city: String
    var country: String
    var vatID: String? = nil
    /// German tax number (Steuernummer), scheme "FC".
    var taxNumber: String? = nil
    /// Electronic address (BT-34 / BT-49), required by XRechnung.
    var email: String? = nil
    /// Contact person and phone (BR-DE-2), required by XRechnung for the seller.
    var contact: (name: String, phone: String)? = nil
}

struct ELine {
    var name: String
    var quantity: Int
    var unitCents: Int
    /// VAT rate in basis points: 1900 = 19 %.
    var rate: Int

    init(_ name: String, _ unitCents: Int, quantity: Int = 1, rate: Int) {
        self.name = name
        self.quantity = quantity
        self.unitCents = unitCents
        self.rate = rate
    }

    var amountCents: Int { quantity * unitCents }
}

/// A document-level allowance (discount) or charge (freight), taxed at `rate`.
struct EAdjustment {
    var isCharge: Bool
    var reason: String
    var cents: Int
    var rate: Int
}

enum ESyntax {
    /// UN/CEFACT CII D16B (ZUGFeRD 2.x, Factur-X, XRechnung CII).
    case cii
    /// OASIS UBL 2.1 Invoice, or CreditNote when the type code is 381.
    case ubl
    /// ZUGFeRD 1.0 CrossIndustryDocument.
    case zugferd1

    var name: String {
        switch self {
        case .cii: "CII"
        case .ubl: "UBL 2.1"
        case .zugferd1: "ZUGFeRD 1.0"
        }
    }
}

enum EProfile {
    case minimum, basicWL, en16931, xrechnung, zugferd1Basic

    /// The guideline ID (BT-24).
    var guideline: String {
        switch self {
        case .minimum: "urn:factur-x.eu:1p0:minimum"
        case .basicWL: "urn:factur-x.eu:1p0:basicwl"
        case .en16931: "urn:cen.eu:en16931:2017"
        case .xrechnung: "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0"
        case .zugferd1Basic: "urn:ferd:CrossIndustryDocument:invoice:1p0:basic"
        }
    }

    var name: String {
        switch self {
        case .minimum: "Factur-X MINIMUM"
        case .basicWL: "Factur-X BASIC WL"
        case .en16931: "EN 16931 (COMFORT)"
        case .xrechnung: "XRechnung 3.0"
        case .zugferd1Basic: "ZUGFeRD 1.0 BASIC"
        }
    }

    /// MINIMUM and BASIC WL carry no invoice lines.
    var hasLines: Bool { self != .minimum && self != .basicWL }
    /// MINIMUM has no VAT breakdown, payment means or terms.
    var hasBreakdown: Bool { self != .minimum }
}

struct EInvoiceSpec {
    /// File name without extension.
    var id: String
    var syntax: ESyntax
    var profile: EProfile
    /// UNTDID 1001: 380 invoice, 381 credit note.
    var typeCode = 380
    var number: String
    var issueDate: Day
    var deliveryDate: Day? = nil
    var dueDate: Day? = nil
    var paymentTerms: String? = nil
    var currency = "EUR"
    /// VAT accounting currency (BT-6) and its rate: tax-currency cents per 10,000 invoice-currency cents.
    var taxCurrency: (code: String, rate: Int)? = nil
    var seller: EParty
    var buyer: EParty
    /// Leitweg-ID or other buyer reference (BT-10), required by XRechnung.
    var buyerReference: String? = nil
    var lines: [ELine]
    var adjustments: [EAdjustment] = []
    var prepaidCents = 0
    /// The invoice a credit note corrects (BT-25).
    var precedingInvoice: String? = nil
    var payeeIBAN: String? = nil
    /// One line for the README.
    var note: String
    /// Added to the gross and the amount due as written, to make an inconsistent file. 0 for good ones.
    var grossError = 0

    var isCredit: Bool { typeCode == 381 }
    /// -1 for credit notes: the record (and so the expected values) carry a negative total.
    var sign: Int { isCredit ? -1 : 1 }
}

// MARK: - Arithmetic (EN 16931)

/// Rounds a non-negative product to cents, halves away from zero.
private func roundedShare(_ cents: Int, _ basisPoints: Int) -> Int {
    let (product, overflow) = cents.multipliedReportingOverflow(by: basisPoints)
    precondition(!overflow && product >= 0)
    return (2 * product + 10_000) / 20_000
}

struct ETotals {
    struct Row {
        var rate: Int
        var basisCents: Int
        var taxCents: Int
    }

    var lineTotal: Int
    var allowances: Int
    var charges: Int
    /// Net = Σ lines − allowances + charges (BT-109).
    var net: Int
    /// One row per rate, sorted by rate: basis = lines − allowances + charges at that rate; tax = basis × rate.
    var rows: [Row]
    var tax: Int
    /// Tax in the tax currency (BT-111), when one is set.
    var taxInTaxCurrency: Int?
    var gross: Int
    var prepaid: Int
    var due: Int

    init(_ spec: EInvoiceSpec) {
        lineTotal = spec.lines.map(\.amountCents).reduce(0, +)
        allowances = spec.adjustments.filter { !$0.isCharge }.map(\.cents).reduce(0, +)
        charges = spec.adjustments.filter(\.isCharge).map(\.cents).reduce(0, +)
        net = lineTotal - allowances + charges
        let rates = Set(spec.lines.map(\.rate) + spec.adjustments.map(\.rate)).sorted()
        rows = rates.map { rate in
            let basis =
                spec.lines.filter { $0.rate == rate }.map(\.amountCents).reduce(0, +)
                + spec.adjustments.filter { $0.rate == rate }.map { $0.isCharge ? $0.cents : -$0.cents }.reduce(0, +)
            return Row(rate: rate, basisCents: basis, taxCents: roundedShare(basis, rate))
        }
        precondition(rows.map(\.basisCents).reduce(0, +) == net, "\(spec.id): bases do not add up to the net")
        let tax = rows.map(\.taxCents).reduce(0, +)
        self.tax = tax
        taxInTaxCurrency = spec.taxCurrency.map { roundedShare(tax, $0.rate) }
        gross = net + tax
        prepaid = spec.prepaidCents
        due = gross - prepaid
        precondition(net > 0 && due >= 0, "\(spec.id): amounts")
    }
}

// MARK: - Parties

private let sellerMunich = EParty(
    name: "Bergmann Messtechnik GmbH", street: "Landsberger Straße 302", postcode: "80687", city: "München",
    country: "DE", vatID: "DE314159265", taxNumber: "143/123/45678", email: "rechnung@bergmann-messtechnik.de",
    contact: ("Anna Bergmann", "+49 89 1234567"))
private let sellerHamburg = EParty(
    name: "Müller & Söhne Haustechnik GmbH", street: "Osterstraße 41", postcode: "20259", city: "Hamburg",
    country: "DE", vatID: "DE271828182", taxNumber: "41/234/56789", email: "buchhaltung@mueller-soehne.de",
    contact: ("Jens Müller", "+49 40 4711 0815"))
private let sellerLeipzig = EParty(
    name: "Kanzlei Weber Steuerberatung", street: "Karl-Liebknecht-Straße 15", postcode: "04107", city: "Leipzig",
    country: "DE", vatID: "DE161803398", email: "kanzlei@weber-steuer.de", contact: ("Petra Weber", "+49 341 998877"))
private let sellerLyon = EParty(
    name: "Atelier Durand SARL", street: "12 rue de la République", postcode: "69002", city: "Lyon",
    country: "FR", vatID: "FR44732829320")
private let freelancer = EParty(
    name: "Lena Schmidt Design", street: "Bergmannstraße 5", postcode: "10961", city: "Berlin", country: "DE",
    vatID: "DE299792458", email: "lena@schmidt-design.de")
private let cityAuthority = EParty(
    name: "Bezirksamt Friedrichshain-Kreuzberg", street: "Frankfurter Allee 35", postcode: "10247",
    city: "Berlin", country: "DE", email: "e-rechnung@ba-fk.berlin.de")

private let mwst19 = 1900
private let mwst7 = 700
private let tva20 = 2000

// MARK: - Specs

/// A1: the Factur-X EN 16931 invoice, rendered as a page with its XML attached.
let facturXInvoice = EInvoiceSpec(
    id: "einv-facturx-en16931", syntax: .cii, profile: .en16931,
    number: "RE-2026-0342", issueDate: Day(2026, 3, 16), deliveryDate: Day(2026, 3, 12), dueDate: Day(2026, 4, 15),
    paymentTerms: "Zahlbar bis 15.04.2026 ohne Abzug.",
    seller: sellerMunich, buyer: freelancer,
    lines: [
        ELine("Temperaturlogger TL-20", 4_990, quantity: 3, rate: mwst19),
        ELine("Kalibrierschein DAkkS", 8_500, rate: mwst19),
        ELine("Fachbuch Messtechnik", 3_980, quantity: 2, rate: mwst7)
    ],
    payeeIBAN: "DE02120300000000202051",
    note: "Factur-X PDF: text-layer page + factur-x.xml; 19 % and 7 %, due date, IBAN")

/// A2: standalone XRechnung UBL (also copied into the sample folder).
let xrechnungUBL = EInvoiceSpec(
    id: "einv-xrechnung-ubl", syntax: .ubl, profile: .xrechnung,
    number: "2026-0117", issueDate: Day(2026, 2, 27), deliveryDate: Day(2026, 2, 20), dueDate: Day(2026, 3, 29),
    paymentTerms: "Zahlbar innerhalb von 30 Tagen ohne Abzug.",
    seller: sellerLeipzig, buyer: freelancer, buyerReference: "04011000-12345-34",
    lines: [
        ELine("Jahresabschluss 2025", 120_000, rate: mwst19),
        ELine("Beratungsstunde", 9_500, quantity: 3, rate: mwst19)
    ],
    payeeIBAN: "DE89370400440532013000",
    note: "XRechnung 3.0 UBL Invoice, one rate (19 %), Leitweg-ID as buyer reference")

/// A3: XRechnung CII, with a seller name that needs escaping and a document allowance.
let xrechnungCII = EInvoiceSpec(
    id: "einv-xrechnung-cii", syntax: .cii, profile: .xrechnung,
    number: "MS-2026-0815", issueDate: Day(2026, 3, 2), deliveryDate: Day(2026, 2, 25), dueDate: Day(2026, 3, 16),
    paymentTerms: "Zahlbar innerhalb von 14 Tagen.",
    seller: sellerHamburg, buyer: cityAuthority, buyerReference: "11000000-1234567-42",
    lines: [
        ELine("Wartung Heizungsanlage", 18_900, rate: mwst19),
        ELine("Thermostatventil", 2_450, quantity: 4, rate: mwst19),
        ELine("Anfahrt", 4_500, rate: mwst19)
    ],
    adjustments: [EAdjustment(isCharge: false, reason: "Rabatt Rahmenvertrag", cents: 2_000, rate: mwst19)],
    payeeIBAN: "DE75512108001245126199",
    note: "XRechnung 3.0 CII; seller name with '&'; a document allowance of 20.00")

let eInvoiceFixtures: [EInvoiceSpec] = [
    facturXInvoice,
    xrechnungUBL,
    xrechnungCII,
    EInvoiceSpec(
        id: "einv-ubl-creditnote", syntax: .ubl, profile: .xrechnung, typeCode: 381,
        number: "GS-2026-0009", issueDate: Day(2026, 3, 20), dueDate: Day(2026, 4, 3),
        paymentTerms: "Gutschrift wird auf Ihr Konto überwiesen.",
        seller: sellerLeipzig, buyer: freelancer, buyerReference: "04011000-12345-34",
        lines: [ELine("Gutschrift Beratungsstunde (doppelt berechnet)", 9_500, rate: mwst19)],
        precedingInvoice: "2026-0117",
        payeeIBAN: "DE89370400440532013000",
        note: "UBL CreditNote (381), positive amounts as UBL writes them; the record is negative"),
    EInvoiceSpec(
        id: "einv-cii-creditnote-381", syntax: .cii, profile: .en16931, typeCode: 381,
        number: "GS-2026-0031", issueDate: Day(2026, 3, 24),
        paymentTerms: "Der Betrag wird mit der nächsten Rechnung verrechnet.",
        seller: sellerMunich, buyer: freelancer,
        lines: [
            ELine("Rücknahme Temperaturlogger TL-20", 4_990, rate: mwst19),
            ELine("Fachbuch Messtechnik (beschädigt)", 3_980, rate: mwst7)
        ],
        precedingInvoice: "RE-2026-0342",
        note: "CII credit note 381 with positive amounts, 19 % and 7 %; the record is negative"),
    EInvoiceSpec(
        id: "einv-cii-usd", syntax: .cii, profile: .en16931,
        number: "AD-US-2026-044", issueDate: Day(2026, 1, 19), deliveryDate: Day(2026, 1, 15),
        dueDate: Day(2026, 2, 18), paymentTerms: "Net 30 days.", currency: "USD", taxCurrency: ("EUR", 9_210),
        seller: sellerLyon, buyer: freelancer,
        lines: [
            ELine("Illustration licence, US edition", 85_000, rate: tva20),
            ELine("Colour proofs", 1_250, quantity: 6, rate: tva20)
        ],
        adjustments: [EAdjustment(isCharge: true, reason: "Shipping", cents: 2_400, rate: tva20)],
        payeeIBAN: "FR7630006000011234567890189",
        note: "French seller (TVA 20 %), invoice currency USD, VAT currency EUR (two TaxTotalAmount, 1 USD = 0.9210 EUR); a 24.00 charge"),
    EInvoiceSpec(
        id: "einv-cii-minimum", syntax: .cii, profile: .minimum,
        number: "M-2026-007", issueDate: Day(2026, 2, 10),
        seller: freelancer, buyer: sellerMunich,
        lines: [ELine("Logo-Entwurf", 60_000, rate: mwst19)],
        note: "Factur-X MINIMUM: no lines, no VAT breakdown, header totals only"),
    EInvoiceSpec(
        id: "einv-cii-basicwl", syntax: .cii, profile: .basicWL,
        number: "WL-2026-0021", issueDate: Day(2026, 2, 14), deliveryDate: Day(2026, 2, 14),
        dueDate: Day(2026, 2, 28), paymentTerms: "Zahlbar innerhalb von 14 Tagen.",
        seller: freelancer, buyer: sellerHamburg,
        lines: [
            ELine("Broschüre Layout", 48_000, rate: mwst19),
            ELine("Fachbuch Typografie", 4_500, rate: mwst7)
        ],
        prepaidCents: 20_000, payeeIBAN: "DE12500105170648489890",
        note: "Factur-X BASIC WL: no lines, VAT breakdown 19 % and 7 %, 200.00 prepaid"),
    EInvoiceSpec(
        id: "einv-zugferd1", syntax: .zugferd1, profile: .zugferd1Basic,
        number: "ZF1-2026-112", issueDate: Day(2026, 1, 8), deliveryDate: Day(2026, 1, 6), dueDate: Day(2026, 1, 22),
        paymentTerms: "Zahlbar bis 22.01.2026.",
        seller: sellerHamburg, buyer: freelancer,
        lines: [
            ELine("Reparatur Wasserhahn", 8_900, rate: mwst19),
            ELine("Dichtungssatz", 1_290, quantity: 2, rate: mwst19)
        ],
        payeeIBAN: "DE75512108001245126199",
        note: "ZUGFeRD 1.0 BASIC CrossIndustryDocument")
]

/// The CII invoice whose gross is 1.00 more than net + tax (for `einvoices-broken/`).
let inconsistentInvoice: EInvoiceSpec = {
    var spec = xrechnungCII
    spec.id = "wrong-arithmetic"
    spec.number = "MS-2026-0816"
    spec.grossError = 100
    return spec
}()
