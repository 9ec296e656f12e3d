// Phone payment screens: what e-wallets, DuitNow QR and bank apps show after a payment, and the screens that show
// no purchase (a balance, points, a reload, a failed payment, a transfer between one's own accounts). Rendered in
// colour at a phone's size (1080 × 2340) with a status bar, light and dark, in English and Malay. Every shop and
// person is made up.
import CPoppler
import Foundation

struct RGB {
    var r: Double, g: Double, b: Double
    init(_ hex: UInt32) {
        r = Double((hex >> 16) & 0xFF) / 255
        g = Double((hex >> 8) & 0xFF) / 255
        b = Double(hex & 0xFF) / 255
    }
}

/// How the app lays its screen out: the amount in a card under a coloured header, or a full-colour top half with
/// the amount in it, or a receipt-like list.
enum ScreenLayout { case card, banner, list }

struct ScreenSpec {
    var id: String
    var language: Language
    var dark = false
    var layout: ScreenLayout = .card
    /// The app's colour (header bar, button).
    var brand: RGB
    /// The app's name as printed at the top ("Touch 'n Go eWallet").
    var appName: String
    var title: String
    var status: String
    var amount: String
    var rows: [(String, String)]
    /// An offer with an amount of its own, which is not the payment's.
    var advert: String?
    var button: String
    /// Shared as a one-page PDF (an app's "share receipt"), the screenshot its only content.
    var asPDF = false

    // Expected values.
    var purpose: String
    var documentKind: String
    var merchant: String?
    var total: String?
    var date: String?
    var reference: String?
    var provider: String?
}

let screenFixtures: [ScreenSpec] = [
    ScreenSpec(
        id: "screen-tng-paid-eng", language: .eng, brand: RGB(0x005ABB), appName: "Touch 'n Go eWallet", title: "Transaction Details",
        status: "Payment Successful", amount: "-RM23.50",
        rows: [
            ("Merchant", "KEDAI KOPI MAJU JAYA"), ("Date & Time", "15 Nov 2026, 14:05"), ("Reference No.", "2611151405230017"),
            ("Payment Method", "eWallet Balance")
        ],
        advert: "Get RM5.00 cashback on your next parking payment", button: "Done",
        purpose: "payment", documentKind: "payment-confirmation", merchant: "KEDAI KOPI MAJU JAYA", total: "23.50", date: "2026-11-15",
        reference: "2611151405230017", provider: "Touch 'n Go eWallet"),
    ScreenSpec(
        id: "screen-tng-paid-msa-dark", language: .msa, dark: true, brand: RGB(0x005ABB), appName: "Touch 'n Go eWallet",
        title: "Butiran Transaksi", status: "Pembayaran Berjaya", amount: "-RM12.80",
        rows: [
            ("Kepada", "RESTORAN NASI KANDAR PELITA"), ("Tarikh", "03/11/2026 08:12"), ("No. Rujukan", "2611030812449021"),
            ("Kaedah Pembayaran", "eWallet")
        ],
        advert: "Tambah nilai RM50 dan dapat RM2.00 cashback", button: "Selesai",
        purpose: "payment", documentKind: "payment-confirmation", merchant: "RESTORAN NASI KANDAR PELITA", total: "12.80",
        date: "2026-11-03", reference: "2611030812449021", provider: "Touch 'n Go eWallet"),
    ScreenSpec(
        id: "screen-mae-duitnow-eng", language: .eng, layout: .banner, brand: RGB(0xF7C400), appName: "MAE by Maybank2u", title: "DuitNow QR",
        status: "Successful", amount: "RM 45.00",
        rows: [
            ("Paid to", "PASAR MINI SRI MURNI"), ("Date", "21 Oct 2026"), ("Time", "19:44:02"), ("Reference ID", "MB2610211944000123"),
            ("From", "Savings Account-i 1234")
        ],
        advert: nil, button: "Done",
        purpose: "payment", documentKind: "payment-confirmation", merchant: "PASAR MINI SRI MURNI", total: "45.00", date: "2026-10-21",
        reference: "MB2610211944000123", provider: "MAE (Maybank)"),
    ScreenSpec(
        id: "screen-cimb-transfer-eng", language: .eng, layout: .list, brand: RGB(0xC4161C), appName: "CIMB OCTO", title: "Transfer",
        status: "Transfer Successful", amount: "RM 350.00",
        rows: [
            ("Recipient", "LIM AH KOW"), ("Recipient Bank", "Public Bank"), ("Transfer Type", "DuitNow Transfer"),
            ("Reference", "CIMB8823410091"), ("Date", "02 Nov 2026 10:15 AM"), ("From Account", "OCTO Savings 7788")
        ],
        advert: nil, button: "Done",
        purpose: "payment", documentKind: "payment-confirmation", merchant: "LIM AH KOW", total: "350.00", date: "2026-11-02",
        reference: "CIMB8823410091", provider: "CIMB OCTO"),
    ScreenSpec(
        id: "screen-grab-paid-eng-dark", language: .eng, dark: true, layout: .banner, brand: RGB(0x00B14F), appName: "GrabPay",
        title: "Payment", status: "You paid", amount: "RM 18.90",
        rows: [
            ("To", "MAMAK CORNER SS2"), ("Paid with", "GrabPay Wallet"), ("Transaction ID", "A7X2K9QW3R"),
            ("Date", "28 Oct 2026, 12:31 PM")
        ],
        advert: "Earn 19 GrabRewards points on this payment", button: "Done",
        purpose: "payment", documentKind: "payment-confirmation", merchant: "MAMAK CORNER SS2", total: "18.90", date: "2026-10-28",
        reference: "A7X2K9QW3R", provider: "GrabPay"),
    ScreenSpec(
        id: "screen-boost-paid-msa", language: .msa, layout: .list, brand: RGB(0xEE2E24), appName: "Boost", title: "Resit",
        status: "Pembayaran Berjaya", amount: "RM 9.50",
        rows: [("Peniaga", "KEDAI RUNCIT AH SENG"), ("Tarikh & Masa", "12/11/2026 17:20"), ("ID Transaksi", "BST261112172099")],
        advert: "Dapat cashback RM1.00 untuk pembayaran seterusnya", button: "Selesai",
        purpose: "payment", documentKind: "payment-confirmation", merchant: "KEDAI RUNCIT AH SENG", total: "9.50", date: "2026-11-12",
        reference: "BST261112172099", provider: "Boost"),
    // The first screen's payment again, as the wallet's history shows it: one payment seen twice.
    ScreenSpec(
        id: "screen-tng-paid-eng-history", language: .eng, layout: .list, brand: RGB(0x005ABB), appName: "Touch 'n Go eWallet",
        title: "Transaction History", status: "Completed", amount: "-RM23.50",
        rows: [("Merchant", "KEDAI KOPI MAJU JAYA"), ("Date", "15/11/2026 14:05"), ("Transaction No.", "2611151405230017")],
        advert: nil, button: "Back",
        purpose: "payment", documentKind: "payment-confirmation", merchant: "KEDAI KOPI MAJU JAYA", total: "23.50", date: "2026-11-15",
        reference: "2611151405230017", provider: "Touch 'n Go eWallet"),
    // A card payment: the card's last four on the screen.
    ScreenSpec(
        id: "screen-applepay-card-eng-dark", language: .eng, dark: true, brand: RGB(0x3A3A3C), appName: "Apple Pay", title: "Wallet",
        status: "Payment Successful", amount: "RM 64.20",
        rows: [("Merchant", "KEDAI BUKU ILMU"), ("Card", "Visa ••••4242"), ("Date", "19 Nov 2026, 11:47"), ("Transaction ID", "AP77120931")],
        advert: nil, button: "Done",
        purpose: "payment", documentKind: "payment-confirmation", merchant: "KEDAI BUKU ILMU", total: "64.20", date: "2026-11-19",
        reference: "AP77120931", provider: "Apple Pay"),
    // Money back: a refund is a credit note.
    ScreenSpec(
        id: "screen-grab-refund-eng", language: .eng, brand: RGB(0x00B14F), appName: "GrabPay", title: "Refund",
        status: "Refund Successful", amount: "+RM 18.90",
        rows: [("Merchant", "MAMAK CORNER SS2"), ("Date", "29 Oct 2026, 09:10 AM"), ("Transaction ID", "R9Q2K7XW1Z")],
        advert: nil, button: "Done",
        purpose: "refund", documentKind: "credit-note", merchant: "MAMAK CORNER SS2", total: "-18.90", date: "2026-10-29",
        reference: "R9Q2K7XW1Z", provider: "GrabPay"),
    // No purchase.
    ScreenSpec(
        id: "screen-shopee-pending-msa", language: .msa, layout: .list, brand: RGB(0xEE4D2D), appName: "ShopeePay", title: "Butiran Pembayaran",
        status: "Pembayaran Sedang Diproses", amount: "RM 27.00",
        rows: [("Peniaga", "KEDAI ELEKTRIK SINAR"), ("Tarikh", "20/11/2026 16:45"), ("ID Transaksi", "SPP261120164577")],
        advert: nil, button: "Selesai",
        purpose: "pending", documentKind: "payment-confirmation", merchant: "KEDAI ELEKTRIK SINAR", total: "27.00", date: "2026-11-20",
        reference: "SPP261120164577", provider: "ShopeePay"),
    ScreenSpec(
        id: "screen-tng-balance-eng", language: .eng, layout: .banner, brand: RGB(0x005ABB), appName: "Touch 'n Go eWallet", title: "eWallet",
        status: "Available Balance", amount: "RM 152.30", rows: [("Reload", "Transfer"), ("Pay", "Scan")], advert: nil, button: "Reload",
        purpose: "balance", documentKind: "not-a-purchase", merchant: nil, total: nil, date: nil, reference: nil,
        provider: "Touch 'n Go eWallet"),
    ScreenSpec(
        id: "screen-grab-points-eng", language: .eng, brand: RGB(0x00B14F), appName: "GrabPay", title: "GrabRewards",
        status: "You have 1,250 points", amount: "Gold member", rows: [("Points expiring", "120 on 31 Dec 2026")],
        advert: "Redeem 500 points for RM5.00 off", button: "Redeem",
        purpose: "points", documentKind: "not-a-purchase", merchant: nil, total: nil, date: nil, reference: nil, provider: "GrabPay"),
    ScreenSpec(
        id: "screen-tng-reload-msa", language: .msa, brand: RGB(0x005ABB), appName: "Touch 'n Go eWallet", title: "Tambah Nilai",
        status: "Tambah Nilai Berjaya", amount: "RM 50.00",
        rows: [("Dari", "FPX Maybank2u"), ("Tarikh", "09/11/2026 21:03"), ("No. Rujukan", "2611092103557810")],
        advert: nil, button: "Selesai",
        purpose: "top-up", documentKind: "not-a-purchase", merchant: nil, total: "50.00", date: "2026-11-09",
        reference: "2611092103557810", provider: "Touch 'n Go eWallet"),
    ScreenSpec(
        id: "screen-mae-failed-eng", language: .eng, brand: RGB(0xF7C400), appName: "MAE by Maybank2u", title: "DuitNow QR",
        status: "Payment Failed", amount: "RM 30.00",
        rows: [("Paid to", "STESEN MINYAK BANGSAR"), ("Date", "05 Nov 2026"), ("Reference ID", "MB2611050733000456")],
        advert: nil, button: "Try Again",
        purpose: "failed", documentKind: "payment-confirmation", merchant: "STESEN MINYAK BANGSAR", total: "30.00", date: "2026-11-05",
        reference: "MB2611050733000456", provider: "MAE (Maybank)"),
    ScreenSpec(
        id: "screen-cimb-own-transfer-eng", language: .eng, layout: .list, brand: RGB(0xC4161C), appName: "CIMB OCTO", title: "Transfer",
        status: "Transfer Successful", amount: "RM 500.00",
        rows: [
            ("To", "My Savings Account 5521"), ("Transfer Type", "Own Account Transfer"), ("Reference", "CIMB8823499917"),
            ("Date", "30 Oct 2026 09:02 AM")
        ],
        advert: nil, button: "Done",
        purpose: "own-transfer", documentKind: "not-a-purchase", merchant: nil, total: "500.00", date: "2026-10-30",
        reference: "CIMB8823499917", provider: "CIMB OCTO"),
    ScreenSpec(
        id: "screen-hlb-jompay-eng-dark", language: .eng, dark: true, layout: .banner, brand: RGB(0x1B4F9C), appName: "HLB Connect",
        title: "JomPAY", status: "Payment Successful", amount: "RM 128.45",
        rows: [
            ("Biller", "TENAGA NASIONAL BERHAD"), ("Bill Account No.", "220012345678"), ("Reference No.", "HLB2611210815553"),
            ("Date & Time", "21 Nov 2026, 08:15 PM"), ("From", "Savings Account 7781")
        ],
        advert: nil, button: "Share Receipt", asPDF: true,
        purpose: "payment", documentKind: "payment-confirmation", merchant: "TENAGA NASIONAL BERHAD", total: "128.45", date: "2026-11-21",
        reference: "HLB2611210815553", provider: "Hong Leong Bank")
]

/// Draws a screen in colour, as the phone shows it.
struct ScreenPainter {
    let spec: ScreenSpec
    static let width = 1080
    static let height = 2340
    let font = "DejaVu Sans"

    var background: RGB { spec.dark ? RGB(0x121212) : RGB(0xF2F3F5) }
    var card: RGB { spec.dark ? RGB(0x1E1E1E) : RGB(0xFFFFFF) }
    var ink: RGB { spec.dark ? RGB(0xEDEDED) : RGB(0x1A1A1A) }
    var muted: RGB { spec.dark ? RGB(0xA0A0A0) : RGB(0x6B6F76) }

    func fill(_ cr: OpaquePointer, _ c: RGB) { cairo_set_source_rgb(cr, c.r, c.g, c.b) }

    func text(_ cr: OpaquePointer, _ s: String, x: Double, y: Double, size: Double, bold: Bool = false, colour: RGB, align: Align = .left) {
        cairo_select_font_face(cr, font, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
        var e = cairo_text_extents_t()
        cairo_text_extents(cr, s, &e)
        let left: Double
        switch align {
        case .left: left = x
        case .center: left = x - e.x_advance / 2
        case .right: left = x - e.x_advance
        }
        fill(cr, colour)
        cairo_move_to(cr, left, y)
        cairo_show_text(cr, s)
    }

    func roundedRect(_ cr: OpaquePointer, x: Double, y: Double, w: Double, h: Double, r: Double) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, x + w - r, y + h - r, r, 0, Double.pi / 2)
        cairo_arc(cr, x + r, y + h - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    /// Whether a label and its value fit side by side on one row (else the value goes under its label, as apps wrap it).
    func fits(_ cr: OpaquePointer, _ label: String, _ value: String, within width: Double) -> Bool {
        func advance(_ s: String, _ size: Double, bold: Bool) -> Double {
            cairo_select_font_face(cr, font, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(cr, size)
            var e = cairo_text_extents_t()
            cairo_text_extents(cr, s, &e)
            return e.x_advance
        }
        return advance(label, 42, bold: false) + advance(value, 44, bold: true) + 60 <= width
    }

    /// Writes the screen as a colour PNG.
    func write(to url: URL) throws {
        let w = Double(ScreenPainter.width)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(ScreenPainter.width), Int32(ScreenPainter.height))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        let white = RGB(0xFFFFFF)
        fill(cr, background)
        cairo_paint(cr)
        // Status bar.
        let onBrand = spec.layout == .banner
        if onBrand {
            fill(cr, spec.brand)
            cairo_rectangle(cr, 0, 0, w, 900)
            cairo_fill(cr)
        }
        let barInk = onBrand ? white : ink
        text(cr, "9:41", x: 60, y: 70, size: 40, bold: true, colour: barInk)
        text(cr, "5G  87%", x: w - 60, y: 70, size: 38, bold: true, colour: barInk, align: .right)
        var y = 110.0
        if !onBrand {
            fill(cr, spec.brand)
            cairo_rectangle(cr, 0, y, w, 170)
            cairo_fill(cr)
        }
        text(cr, spec.title, x: w / 2, y: y + 108, size: 54, bold: true, colour: onBrand ? white : white, align: .center)
        y += 230
        text(cr, spec.appName, x: w / 2, y: y, size: 40, colour: onBrand ? white : muted, align: .center)
        y += 60
        if !onBrand {
            fill(cr, card)
            roundedRect(cr, x: 50, y: y, w: w - 100, h: 520, r: 36)
            cairo_fill(cr)
        }
        // Status mark: a flat disc.
        fill(cr, onBrand ? white : spec.brand)
        cairo_arc(cr, w / 2, y + 120, 70, 0, 2 * Double.pi)
        cairo_fill(cr)
        text(cr, spec.status, x: w / 2, y: y + 290, size: 56, bold: true, colour: onBrand ? white : ink, align: .center)
        text(cr, spec.amount, x: w / 2, y: y + 430, size: 96, bold: true, colour: onBrand ? white : ink, align: .center)
        y += onBrand ? 620 : 600
        // Label and value rows.
        fill(cr, card)
        roundedRect(cr, x: 50, y: y, w: w - 100, h: Double(spec.rows.count) * 130 + 60, r: 36)
        cairo_fill(cr)
        y += 100
        for (label, value) in spec.rows {
            if spec.layout == .list || !fits(cr, label, value, within: w - 200) {
                text(cr, label, x: 100, y: y - 20, size: 38, colour: muted)
                text(cr, value, x: 100, y: y + 40, size: 46, bold: true, colour: ink)
            } else {
                text(cr, label, x: 100, y: y + 10, size: 42, colour: muted)
                text(cr, value, x: w - 100, y: y + 10, size: 44, bold: true, colour: ink, align: .right)
            }
            y += 130
        }
        y += 40
        if let advert = spec.advert {
            fill(cr, spec.dark ? RGB(0x2A2A3A) : RGB(0xFFF4D6))
            roundedRect(cr, x: 50, y: y, w: w - 100, h: 170, r: 28)
            cairo_fill(cr)
            text(cr, advert, x: w / 2, y: y + 100, size: 36, bold: true, colour: spec.dark ? RGB(0xFFD166) : RGB(0x8A5A00), align: .center)
            y += 210
        }
        // The button at the bottom.
        fill(cr, spec.brand)
        roundedRect(cr, x: 80, y: Double(ScreenPainter.height) - 260, w: w - 160, h: 140, r: 70)
        cairo_fill(cr)
        text(cr, spec.button, x: w / 2, y: Double(ScreenPainter.height) - 170, size: 48, bold: true, colour: white, align: .center)
        cairo_surface_flush(surface)
        if spec.asPDF {
            try writeScreenPDF(surface, width: ScreenPainter.width, height: ScreenPainter.height, to: url, title: spec.title)
            return
        }
        let status = cairo_surface_write_to_png(surface, url.path)
        guard status == CAIRO_STATUS_SUCCESS else { throw WriteError.failed("cairo could not write \(url.path)") }
    }

    /// The file's name in `Fixtures/screens/`.
    var fileName: String { "\(spec.id).\(spec.asPDF ? "pdf" : "png")" }

    /// The expected values, in the fixtures' format.
    func expectedJSON() -> String {
        func q(_ s: String?) -> String {
            guard let s else { return "null" }
            return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        let fields: [(String, String)] = [
            ("currency", q(spec.total == nil ? nil : "MYR")), ("date", q(spec.date)), ("documentKind", q(spec.documentKind)),
            ("file", q(fileName)), ("language", q(spec.language.rawValue)), ("layout", q("screen")),
            ("merchant", q(spec.merchant)), ("pages", "1"), ("provider", q(spec.provider)), ("referenceNumber", q(spec.reference)),
            ("screenPurpose", q(spec.purpose)), ("total", q(spec.total))
        ]
        return "{\n" + fields.map { "  \"\($0.0)\": \($0.1)" }.joined(separator: ",\n") + "\n}\n"
    }
}
