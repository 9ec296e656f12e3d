import Foundation
import ShoeboxTestSupport
import Testing

/// Issue 52: phone payment screens (the generator's `Fixtures/screens`, rendered in colour at a phone's size, light and
/// dark, English and Malay) through the built binary and real tesseract: each is a payment confirmation with its
/// payee, amount, date, reference and provider, or a screen of no purchase kept with its own reason and never
/// exported; paper receipts stay receipts.
@Suite(.serialized) struct PaymentScreensEndToEndTests {
    @Test func screensAreReadAsPaymentsOrNamedAsNoPurchaseAndOnlyPaymentsAreExported() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let source = fixtures.appendingPathComponent("screens")
        // The screenshots, and a screen shared as a one-page PDF.
        let names = try FileManager.default.contentsOfDirectory(atPath: source.path).filter { $0.hasSuffix(".png") || $0.hasSuffix(".pdf") }.sorted()
        #expect(names.contains { $0.hasSuffix(".pdf") })
        #expect(names.count >= 10)
        let folder = work.appendingPathComponent("scans/phone")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in names { try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: folder.appendingPathComponent(name)) }
        // A paper receipt beside them stays a receipt (a clean PNG is flat too, but has no app colours).
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("receipts/deu-drogerie-logo.png"), to: folder.appendingPathComponent("paper.png"))
        let out = work.appendingPathComponent("out")
        let r = try runProgram(shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out.path, "--today", today])
        #expect(r.code <= 1, "\(r.out) \(r.err)")
        let bySource = try records(out)
        #expect(bySource["phone/paper.png"]?["documentKind"] as? String == "receipt")
        #expect(bySource["phone/paper.png"]?["payment"] == nil)
        var payments = 0
        for name in names {
            let expected = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: source.appendingPathComponent(String(name.dropLast(4)) + ".expected.json")))
                    as? [String: Any])
            let rec = try #require(bySource["phone/\(name)"], "\(name)")
            let payment = rec["payment"] as? [String: Any]
            #expect(rec["documentKind"] as? String == expected["documentKind"] as? String, "\(name)")
            #expect(payment?["purpose"] as? String == expected["screenPurpose"] as? String, "\(name)")
            #expect(payment?["provider"] as? String == expected["provider"] as? String, "\(name)")
            for key in ["merchant", "total", "date", "referenceNumber"] {
                if let value = expected[key] as? String { #expect(rec[key] as? String == value, "\(name) \(key)") }
            }
            let reasons = rec["reasons"] as? [String] ?? []
            let pair = ["phone/screen-tng-paid-eng.png", "phone/screen-tng-paid-eng-history.png"]
            if pair.contains("phone/\(name)") {
                // One payment seen twice (the success screen and the wallet's history entry): the one read second is a
                // possible duplicate naming the other, the other is accepted.
                let other = pair.first { $0 != "phone/\(name)" }!
                let second = bySource[other]?["duplicateOf"] as? String != "phone/\(name)"
                #expect(second ? reasons == ["possible-duplicate"] : rec["status"] as? String == "accepted", "\(name): \(reasons)")
                if second { #expect(rec["duplicateOf"] as? String == other) }
            } else if expected["screenPurpose"] as? String == "refund" {
                // Money back: a credit note, negative.
                #expect(rec["status"] as? String == "accepted" && (rec["total"] as? String ?? "").hasPrefix("-"), "\(name): \(reasons)")
            } else if expected["screenPurpose"] as? String == "payment" {
                payments += 1
                #expect(rec["status"] as? String == "accepted", "\(name): \(reasons)")
                #expect(!(rec["total"] as? String ?? "-").hasPrefix("-"), "a debit's sign is no negative total")
            } else {
                // Kept, with its own reason first, and waiting for a person.
                #expect(rec["status"] as? String == "review", "\(name)")
                let code = [
                    "failed": "payment-failed", "pending": "payment-pending", "balance": "balance-screen", "points": "points-screen",
                    "top-up": "top-up-screen",
                    "own-transfer": "own-account-transfer"
                ][expected["screenPurpose"] as? String ?? ""]
                #expect(reasons.first == code, "\(name): \(reasons)")
                // What such a screen does not show (a balance's payee) is no reason of its own.
                #expect(!reasons.contains("merchant-missing"), "\(name): \(reasons)")
            }
            // The screen's title is never the merchant.
            #expect(!["Transaction Details", "Butiran Transaksi", "DuitNow QR", "Transfer", "eWallet"].contains(rec["merchant"] as? String ?? ""))
        }
        #expect(payments >= 5)
        // `status` says the screens of no purchase apart from the records a person must correct.
        let status = try runProgram(shoebox, ["status", "--out", out.path])
        let noPurchase = bySource.values.filter {
            ($0["reasons"] as? [String])?.contains {
                ["payment-failed", "payment-pending", "balance-screen", "points-screen", "top-up-screen", "own-account-transfer"].contains($0)
            } == true
        }
        #expect(status.out.contains("of the review, \(noPurchase.count) phone screens show no purchase (1 balance-screen, "), "\(status.out)")
        // Export: the payments are expenses; nothing of no purchase is in the zip.
        let export = try runProgram(shoebox, ["export", "--out", out.path])
        #expect(export.code == 0, "\(export.err)")
        let unzip = try #require(which("unzip"), "unzip is missing (make setup)")
        let zip = out.appendingPathComponent("exports/phone.zip").path
        #expect(try runProgram(unzip, ["-t", zip]).code == 0)
        // A screen's file in the zip is named by its payee, as a receipt's by its shop.
        let listed = try runProgram(unzip, ["-Z1", zip]).out
        #expect(listed.contains("receipts/2026-11-15_KEDAI-KOPI-MAJU-JAYA_23.50-MYR.png"), "\(listed)")
        #expect(listed.contains("receipts/2026-11-21_TENAGA-NASIONAL-BERHAD_128.45-MYR.pdf"), "\(listed)")
        let rows = try readCSV(Data(try runProgram(unzip, ["-p", zip, "summary.csv"]).out.utf8))
        let accepted = bySource.values.filter { $0["status"] as? String == "accepted" }
        #expect(rows.count - 1 == accepted.count)
        let column = Dictionary(uniqueKeysWithValues: rows[0].enumerated().map { ($1, $0) })
        let merchants = Set(rows.dropFirst().map { $0[column["merchant"]!] })
        #expect(merchants.contains("KEDAI KOPI MAJU JAYA") && !merchants.contains(""))
        let card = try #require(bySource["phone/screen-applepay-card-eng-dark.png"]?["card"] as? [String: Any])
        #expect(card["scheme"] as? String == "VISA" && card["last4"] as? String == "4242")
        // The provider, what it was paid from and the account's last four are columns of their own.
        let mae = try #require(rows.first { $0[column["merchant"]!] == "PASAR MINI SRI MURNI" })
        #expect(mae[column["provider"]!] == "MAE (Maybank)" && mae[column["paid_from"]!] == "Savings Account-i 1234")
        #expect(mae[column["card_last4"]!] == "1234" && mae[column["document_kind"]!] == "payment-confirmation")
        let totals = try readCSV(Data(try runProgram(unzip, ["-p", zip, "totals.csv"]).out.utf8))
        #expect(totals.contains { $0.first == "card" && $0[1] == "••••1234" && $0[4] == "45.00" }, "\(totals)")
    }

    /// Screens as people send them: a chat, a web page, a photo of a screen, a crop without the status bar, a capture
    /// of 4000 × 9000. Each is read or named; none is lost, and a screen's app name is never accepted as the merchant.
    @Test func oddScreensAreReadOrNamedAndNoneIsLost() throws {
        let convert = try #require(which("convert"), "imagemagick is missing (make setup)")
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let dir = work.appendingPathComponent("scans/phone")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let screens = fixtures.appendingPathComponent("screens")
        let paid = screens.appendingPathComponent("screen-tng-paid-eng.png").path
        for args in [
            [
                "-size", "1080x2340", "xc:#ECE5DD", "-fill", "#075E54", "-draw", "rectangle 0,0 1080,200", "-fill", "white", "-font", "DejaVu-Sans",
                "-pointsize", "48", "-annotate", "+140+130", "Ahmad", "-fill", "#DCF8C6", "-draw", "roundrectangle 400,400 1040,560 30,30", "-fill",
                "black", "-pointsize", "40", "-annotate", "+430+490", "Are we meeting at 8?", "-annotate", "+40+60", "9:41", dir.path + "/chat.png"
            ],
            [
                "-size", "1280x800", "xc:white", "-fill", "black", "-font", "DejaVu-Sans", "-pointsize", "30", "-annotate", "+40+200",
                "Thank you for your order!", "-annotate", "+40+260", "Order no. 88812345", "-annotate", "+40+320", "Total: RM 59.90",
                dir.path + "/web.png"
            ],
            [
                paid, "-rotate", "4", "-blur", "0x1.2", "-attenuate", "0.6", "+noise", "Gaussian", "-resize", "80%", "-quality", "85",
                dir.path + "/photo.jpg"
            ],
            [paid, "-crop", "1080x1500+0+300", "+repage", dir.path + "/cropped.png"],
            [screens.appendingPathComponent("screen-mae-duitnow-eng.png").path, "-resize", "4000x9000!", dir.path + "/huge.png"]
        ] {
            #expect(try runProgram(convert, args).code == 0, "\(args.last!)")
        }
        let out = work.appendingPathComponent("out")
        let r = try runProgram(shoebox, ["run", work.appendingPathComponent("scans").path, "--out", out.path, "--today", today])
        #expect(r.code <= 1, "\(r.out) \(r.err)")
        let bySource = try records(out)
        #expect(bySource.count == 5, "nothing lost: \(bySource.keys.sorted())")
        let chat = try #require(bySource["phone/chat.png"])
        #expect((chat["reasons"] as? [String])?.first == "screen-without-payment" && chat["status"] as? String == "review")
        // A crop without its status bar and a photo of the screen are still the payment (the second one seen twice).
        for name in ["cropped.png", "photo.jpg", "huge.png"] {
            let rec = try #require(bySource["phone/\(name)"])
            #expect(rec["documentKind"] as? String == "payment-confirmation", "\(name)")
            #expect(!(rec["total"] as? String ?? "-").hasPrefix("-"), "\(name)")
            #expect(rec["merchant"] as? String != "Touch 'n Go eWallet", "\(name)")
        }
        #expect(bySource["phone/cropped.png"]?["total"] as? String == "23.50")
        let web = try #require(bySource["phone/web.png"])
        #expect(web["status"] as? String == "review" && web["payment"] == nil, "a web page is read as paper: \(web["reasons"] ?? "")")
    }
}
