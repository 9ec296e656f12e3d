internal import Foundation
internal import ShoeboxCore
internal import ShoeboxReading

/// Phone payment screens (e-wallets, DuitNow QR, bank apps, card payments): told from paper by their pixels (a
/// phone's shape and an app's flat colours, `ScreenTraits`) and the status bar; read by their labels, in English and
/// Malay: who was paid, how much, when, the reference, what it was paid from, the provider, and what the screen
/// shows (a payment, or a balance, points, a top-up, a failed payment: no expense).
extension ReceiptParser {
    /// Whether the page is a phone's screen: its words say so (a screen's status phrase and a payee label), its pixels
    /// say so, or a phone-shaped page with a status bar (a time at the very top), or flat app colours with a payment
    /// status near the top (a cropped screen).
    func isScreen(_ lines: [Line], screen: ScreenTraits?) -> Bool {
        // What only a payment screen says: a screen's status phrase near the top and a payee label ("Payment
        // Successful" over "Merchant"), whatever the pixels (a photo of a screen, a crop without its status bar).
        // The phrase may wrap ("Payment" over "successful"): each line is read with the next one too.
        if ReceiptParser.withNextLine(lines.prefix(11)).contains(where: { Keywords.screenStatusPhrases.any(in: $0) }),
            ReceiptParser.labelled(lines, Keywords.screenPayee) != nil
        {
            return true
        }
        guard let screen else { return false }
        if screen.looksLikeScreen { return true }
        let firstPage = lines.filter { $0.page == lines.first?.page }
        if screen.phoneShaped && ReceiptParser.hasStatusBar(firstPage, height: screen.height) { return true }
        return screen.flatAppColours && firstPage.prefix(8).contains { Keywords.screenSucceeded.any(in: $0.folded) }
    }

    /// A status bar: a short line in the top 5 % of the page that holds a time ("9:41", "14:05").
    static func hasStatusBar(_ lines: [Line], height: Int) -> Bool {
        lines.contains { line in
            line.line.box.bottom < height / 20 && line.text.split(separator: " ").count <= 8 && DateReader.containsTime(line.text)
        }
    }

    /// What the screen shows and says, and the candidates its labels give (added to `extraction`'s with scores above
    /// any paper rule's, each noting its label).
    func readScreen(_ all: [Line], into extraction: inout Extraction) {
        // A home screen's list of recent transactions is other payments: its payees and amounts are not this screen's.
        let lines = ReceiptParser.beforeRecentList(all)
        // The payee's label and the payment's amount, read once: what the screen shows turns on them too.
        let payee = ReceiptParser.labelled(lines, Keywords.screenPayee)
        let amount = ReceiptParser.screenAmount(lines)
        let heading = payee == nil ? ReceiptParser.headingPayee(lines) : nil
        let purpose = ReceiptParser.screenPurpose(lines, payee: payee != nil, amount: amount != nil, heading: heading != nil)
        var screen = PaymentScreen(purpose: purpose, provider: ReceiptParser.provider(lines))
        screen.paidFrom = ReceiptParser.labelled(lines, Keywords.screenPaidFrom)?.value
        if let from = screen.paidFrom, let card = ReceiptParser.accountLastFour(from) { extraction.card = card }
        screen.recipientBank = ReceiptParser.labelled(lines, Keywords.screenRecipientBank)?.value
        // A screen's headings name the app and the screen, never the payee: only a payee label gives the merchant
        // (a top-up or a balance has none).
        extraction.merchants = []
        if !screen.fieldsNotShown.contains(.merchant), let payee, !ReceiptParser.isNotAPayee(payee.value) {
            extraction.merchants = [
                Candidate(
                    value: payee.value, role: .merchant, score: ScreenWeights.payee, evidence: payee.line.evidence,
                    notes: ["payee after '\(payee.label)' on a payment screen"])
            ]
        } else if [.payment, .refund, .pending, .failed].contains(purpose), let heading {
            extraction.merchants = [
                Candidate(
                    value: heading.value, role: .merchant, score: ScreenWeights.headingPayee, evidence: heading.line.evidence,
                    notes: ["the name heading a payment screen with no payee label"])
            ]
        }
        // A balance or a points screen shows what one has, not what one paid: no amount of it is a total.
        if screen.fieldsNotShown.contains(.total) { extraction.amounts = [] }
        if !screen.fieldsNotShown.contains(.total), let amount {
            // Money back is negative, as a credit note's amounts are in every export.
            let r = amount.reading
            let value =
                purpose == .refund ? AmountReading(minorUnits: -r.minorUnits, fractionDigits: r.fractionDigits, currencyHint: r.currencyHint) : r
            extraction.amounts.append(
                Candidate(
                    value: value, role: .total, score: ScreenWeights.amount, evidence: amount.line.evidence,
                    checks: [.keyword(amount.label)], notes: ["the payment's amount ('\(amount.label)') on a payment screen"]))
        }
        if let reference = ReceiptParser.screenReferenceLine(lines), let token = ReceiptParser.screenReference(reference.value) {
            if screen.provider == nil { screen.provider = ReceiptParser.bankOfReference(token) }
            extraction.references.insert(
                Candidate(
                    value: String(token), role: .reference, score: ScreenWeights.reference, evidence: reference.line.evidence,
                    notes: ["after '\(reference.label)' on a payment screen"]), at: 0)
        }
        extraction.screen = screen
        extraction.documentKind =
            purpose == .refund ? .creditNote : [.payment, .failed, .pending].contains(purpose) ? .paymentConfirmation : .notAPurchase
    }

    /// The reference's label and what follows it; where that holds no reference (a "Copy" button beside the label),
    /// the line under it.
    static func screenReferenceLine(_ lines: [Line]) -> (label: String, value: String, line: Line, index: Int)? {
        guard let found = labelled(lines, Keywords.screenReference) else { return nil }
        if let token = screenReference(found.value) {
            // A long reference wrapped onto the next line ("…CIBBMYKL0100" over "RB71294836"): one code of capitals and digits.
            let k = found.index
            if token.count >= 16, k + 1 < lines.count {
                let next = lines[k + 1].text
                if next.count >= 4, !next.contains(" "), next.allSatisfy({ ($0.isASCII && $0.isUppercase) || $0.isNumber }) {
                    return (found.label, found.value + next, found.line, k)
                }
            }
            return found
        }
        let k = found.index
        guard k + 1 < lines.count else { return found }
        return (found.label, TextFolding.trim(lines[k + 1].text, labelJunk), lines[k + 1], k + 1)
    }

    /// Each line's folded text, then each line's with the next one's (a status that wrapped: "Payment" over
    /// "successful").
    static func withNextLine(_ lines: ArraySlice<Line>) -> [String] {
        lines.map(\.folded) + zip(lines, lines.dropFirst()).map { $0.folded + " " + $1.folded }
    }

    /// The paying bank a DuitNow reference names: eight digits of its date, then the bank's BIC.
    static func bankOfReference(_ token: String) -> String? {
        let c = Array(token)
        guard c.count >= 16, c[0..<8].allSatisfy(\.isNumber) else { return nil }
        return Keywords.bankBICs[String(c[8..<16])]
    }

    /// The payee a transaction's detail screen prints as its heading, with no label (a wallet's history entry, Apple
    /// Wallet, a ride app's receipt): the first line of words above the status and the amount, below the status bar and
    /// the screen's title; an avatar's initials before it ("RM Bakeri Roti …") left out. Not a title, a status, an app's
    /// name, a sentence or a number.
    static func headingPayee(_ lines: [Line]) -> (value: String, line: Line)? {
        let stop =
            lines.firstIndex {
                Keywords.screenSucceeded.any(in: $0.folded) || Keywords.screenFailed.any(in: $0.folded)
                    || Keywords.screenPending.any(in: $0.folded) || Keywords.screenRefund.any(in: $0.folded)
                    || $0.amounts.contains { !$0.isRate && $0.reading.minorUnits != 0 }
            } ?? min(lines.count, 8)
        let head = Array(lines.prefix(min(stop, 8)))
        for (k, line) in head.enumerated().dropFirst() {
            var value = withoutIcons(line.text)
            let words = value.split(separator: " ")
            let folded = TextFolding.fold(value)
            let letters = value.filter(\.isLetter).count
            guard words.count >= 2, !value.contains(where: \.isNumber), letters * 10 >= value.filter({ $0 != " " }).count * 8,
                !line.text.hasPrefix("<"), !line.text.hasPrefix("x "), !line.text.hasPrefix("€"), !line.text.hasPrefix("←"),
                !Keywords.screenTitleWords.any(in: folded), Keywords.screenProviderNames.all(in: folded).isEmpty,
                !isSentence(folded), !isNotAPayee(value), !Keywords.screenNotTheAmount.any(in: folded)
            else { continue }
            // A heading that wrapped: a word or two of letters on the line under it ("Bengkel Kunci Ah" / "Seng").
            if k + 1 < head.count {
                let next = head[k + 1]
                let nextWords = next.text.split(separator: " ")
                if (1...2).contains(nextWords.count), next.text.allSatisfy({ $0.isLetter || $0 == " " }),
                    !Keywords.screenTitleWords.any(in: next.folded), Keywords.screenProviderNames.all(in: next.folded).isEmpty
                {
                    value += " " + next.text
                }
            }
            return (value, line)
        }
        return nil
    }

    /// The reference in what follows its label: the whole of it when it is one code a reader split ("A7X2K9QW 3R":
    /// capitals and digits only, three pieces at most), else its first piece of six characters or more with a digit.
    /// A transfer's own words ("Recipient reference: dinner") are no reference.
    static func screenReference(_ value: String) -> String? {
        let pieces = value.split(separator: " ")
        let code = pieces.allSatisfy { $0.allSatisfy { ($0.isASCII && $0.isUppercase) || $0.isNumber || $0 == "-" } }
        let joined = pieces.joined()
        if code, pieces.count <= 3, joined.count >= 6, joined.contains(where: \.isNumber) { return joined }
        return pieces.first { $0.count >= 6 && $0.contains(where: \.isNumber) }.map(String.init)
    }

    /// What the screen shows, from its words: a failed or pending status first, then money back, then what a
    /// successful screen moved (one's own wallet or account, or a payment), then screens with no payment.
    /// `payee`, `amount`: whether a payee label and the payment's amount were read (`labelled`, `screenAmount`);
    /// `heading`: whether a name heads the screen instead (`headingPayee`).
    static func screenPurpose(_ lines: [Line], payee: Bool, amount: Bool, heading: Bool = false) -> PaymentScreen.Purpose {
        func any(_ list: KeywordList) -> Bool { lines.contains { list.any(in: $0.folded) } }
        let head = Array(lines.prefix(max(6, lines.count / 2)))
        // A status may wrap ("Pembayaran Tidak" over "Berjaya"): each line is read with the next one too.
        let headTexts = withNextLine(head[...])
        func inHead(_ list: KeywordList) -> Bool { headTexts.contains { list.any(in: $0) } }
        // What a "Status" row says, wherever it stands.
        let status = labelled(lines, ["status"]).map { TextFolding.fold($0.value) } ?? ""
        if inHead(Keywords.screenFailed) || Keywords.screenFailed.any(in: status) { return .failed }
        if inHead(Keywords.screenPending) || Keywords.screenPending.any(in: status) { return .pending }
        if inHead(Keywords.screenRefund) { return .refund }
        if any(Keywords.screenOwnTransfer) { return .ownTransfer }
        let succeeded = any(Keywords.screenSucceeded)
        let paid = succeeded || payee
        // A home screen's "Reload" button is no reload: a reload says it succeeded.
        if inHead(Keywords.screenTopUp) && succeeded { return .topUp }
        // A successful screen with a payee is a payment even where its amount was not read (white on the app's colour):
        // the amount is then missing, not the payment.
        if paid && amount || succeeded && (payee || heading) { return .payment }
        if any(Keywords.screenPoints) { return .points }
        // "eWallet Balance" as what a payment was made from is no balance screen, nor is a screen that says it succeeded.
        let fromLines = Set(lines.indices.filter { startingLabel(lines[$0].folded, Keywords.screenPaidFrom) != nil }.flatMap { [$0, $0 + 1] })
        if !succeeded, lines.indices.contains(where: { !fromLines.contains($0) && Keywords.screenBalance.any(in: lines[$0].folded) }) {
            return .balance
        }
        return .noPayment
    }

    /// The app or bank that paid, by the names apps print (`Keywords.screenProviders`): the first one on the page, and
    /// on its line the one printed first ("MAE by Maybank2u" is MAE).
    static func provider(_ lines: [Line]) -> String? {
        // The recipient's bank is never the payer's.
        for line in lines where labelAtStart(line.folded, Keywords.screenRecipientBank) == nil {
            let found = Keywords.screenProviderNames.all(in: line.folded)
            let first = found.min { a, b in
                let (i, j) = (line.folded.range(of: a)!.lowerBound, line.folded.range(of: b)!.lowerBound)
                return i != j ? i < j : a.count > b.count
            }
            if let first { return Keywords.screenProviders[first] }
        }
        return nil
    }

    /// A label of `labels` starting a line, and what follows it: the rest of the line, or the next line when the label
    /// stands alone ("Kepada" above "KEDAI MAJU").
    /// A value that is itself another field's label ("MERCHANT" as a heading over "Category Food & Drinks") is passed
    /// over. A payee whose legal form wrapped onto the next line ("TENAGA NASIONAL" over "BERHAD") is read whole.
    static func labelled(_ lines: [Line], _ labels: [String]) -> (label: String, value: String, line: Line, index: Int)? {
        for (k, line) in lines.enumerated() {
            guard let (label, skipped) = labelAtStart(line.folded, labels) else { continue }
            let rest = withoutIcons(TextFolding.trim(String(line.text.dropFirst(skipped + label.count)), labelJunk))
            // "Merchant Reference No": another label that starts with this one's word.
            if let first = rest.split(separator: " ").first, labelContinuations.contains(TextFolding.fold(String(first))) { continue }
            var found: (value: String, line: Line, at: Int)?
            if !rest.isEmpty {
                found = (rest, line, k)
            } else if k + 1 < lines.count {
                let next = withoutIcons(TextFolding.trim(lines[k + 1].text, labelJunk))
                if !next.isEmpty { found = (next, lines[k + 1], k + 1) }
            }
            guard let found else { continue }
            let valueLine = found.line
            var (value, at) = (found.value, found.at)
            // A section's heading over its rows ("RECIPIENT" over "Name NURUL AIN BINTI"): the name row's value.
            if at == k + 1, let sub = startingLabel(TextFolding.fold(value), nameRowLabels) {
                value = TextFolding.trim(String(value.dropFirst(sub.count)), labelJunk)
                if value.isEmpty { continue }
            }
            if startingLabel(TextFolding.fold(value), otherFieldLabels) != nil { continue }
            if at + 1 < lines.count, legalFormLines.contains(TextFolding.trim(lines[at + 1].folded, labelJunk)) {
                value += " " + TextFolding.trim(lines[at + 1].text, labelJunk)
                at += 1
            } else if at + 2 < lines.count, isWrappedValue(lines[at + 1], before: lines[at + 2]) {
                // A value beside its label that wrapped ("Kepada Restoran Nasi Kandar Sri" over "Bayu", then "Jumlah …").
                value += " " + TextFolding.trim(lines[at + 1].text, labelJunk)
            }
            return (label, value, valueLine, found.at)
        }
        return nil
    }

    /// The rest of a value wrapped onto a line of its own: a word or three with no digit and no label, and the next
    /// row's label after it.
    static func isWrappedValue(_ line: Line, before next: Line) -> Bool {
        let words = line.text.split(separator: " ")
        guard (1...3).contains(words.count), !line.text.contains(where: \.isNumber), line.text.contains(where: \.isLetter) else { return false }
        let labels =
            Keywords.screenPayee + Keywords.screenAmount + Keywords.screenPaidFrom + Keywords.screenReference
            + Keywords.screenRecipientBank + otherFieldLabels
        return labelAtStart(line.folded, labels) == nil && labelAtStart(next.folded, labels) != nil
    }

    /// A label at the start of a folded line, or after one short token an app's icon was read as ("f Paid to", "€<
    /// Payment Details"); with how many characters come before it.
    static func labelAtStart(_ folded: String, _ labels: [String]) -> (label: String, skipped: Int)? {
        if let label = startingLabel(folded, labels) { return (label, 0) }
        guard let space = folded.firstIndex(of: " ") else { return nil }
        let token = folded[..<space]
        guard token.count <= 2, !token.contains(where: \.isNumber) else { return nil }
        let rest = folded[folded.index(after: space)...]
        return startingLabel(String(rest), labels).map { ($0, token.count + 1) }
    }

    /// A name's row under a section heading.
    static let nameRowLabels = ["name", "nama", "account name", "nama akaun", "full name"]

    /// Labels of a screen's other fields: a value that starts with one is no payee, paid-from or bank.
    static let otherFieldLabels = [
        "category", "status", "type", "date", "time", "amount", "card", "reference", "transaction", "payment method", "tarikh", "masa",
        "jumlah", "kategori"
    ]
    /// A line that is only a company's legal form, wrapped from the name above it.
    static let legalFormLines: Set<String> = ["berhad", "bhd", "bhd.", "sdn bhd", "sdn. bhd.", "sdn bhd.", "plt", "enterprise", "trading"]

    static let labelJunk: Set<Character> = Set(" :|-–—")
    static let labelContinuations: Set<String> = [
        "reference", "ref", "ref.", "id", "no", "no.", "number", "bank", "account", "details", "detail", "info", "information", "butiran"
    ]

    /// The lines above a list of recent transactions ("Recent transactions", "Transaksi terkini"), when one stands below
    /// the screen's top.
    static func beforeRecentList(_ lines: [Line]) -> [Line] {
        guard let k = lines.firstIndex(where: { Keywords.screenRecentList.any(in: $0.folded) }), k > 2 else { return lines }
        return Array(lines[..<k])
    }

    /// A value as an app's icons leave it: an avatar's initials or an icon read as a letter or a mark before it ("TW TAN
    /// WEI LING", "@ Stesen Tenaga …", "K Kedai Runcit …"), a chevron after it ("… Mutiara J", "… >").
    static func withoutIcons(_ value: String) -> String {
        var words = value.split(separator: " ").map(String.init)
        if words.count >= 3, let first = words.first, first.count <= 2,
            first.allSatisfy({ $0.isUppercase }) || !first.contains(where: { $0.isLetter || $0.isNumber })
        {
            words.removeFirst()
        }
        if let last = words.last, last.count == 1, ["J", ">", "›", "»", "|", ")", "]"].contains(last) { words.removeLast() }
        return words.joined(separator: " ")
    }

    /// The longest label of `labels` the folded line starts with, as a word of its own ("to" not in "top up").
    static func startingLabel(_ folded: String, _ labels: [String]) -> String? {
        var best: String?
        for label in labels where folded.hasPrefix(label) && label.count > (best?.count ?? 0) {
            let next = folded.dropFirst(label.count).first
            if next == nil || !(next!.isLetter || next!.isNumber) { best = label }
        }
        return best
    }

    /// The payment's amount: after an amount label, else the first amount near the top with a currency mark. Never
    /// one on a line about cashback, points, a balance or an offer. A debit's sign ("-RM23.50") is dropped.
    static func screenAmount(_ lines: [Line]) -> (reading: AmountReading, label: String, line: Line)? {
        func usable(_ line: Line) -> AmountReading? {
            guard !Keywords.screenNotTheAmount.any(in: line.folded) else { return nil }
            guard let found = line.amounts.first(where: { !$0.isRate && $0.reading.minorUnits != 0 }) else { return nil }
            let r = found.reading
            return AmountReading(minorUnits: abs(r.minorUnits), fractionDigits: r.fractionDigits, currencyHint: r.currencyHint)
        }
        for (k, line) in lines.enumerated() {
            guard let label = startingLabel(line.folded, Keywords.screenAmount) else { continue }
            if let r = usable(line) { return (r, label, line) }
            if k + 1 < lines.count, let r = usable(lines[k + 1]) { return (r, label, lines[k + 1]) }
        }
        let head = Array(lines.prefix(max(8, lines.count / 2)))
        for (k, line) in head.enumerated() {
            // Under "Wallet balance" the big amount is the balance.
            if k > 0, Keywords.screenNotTheAmount.any(in: head[k - 1].folded) { continue }
            if let r = usable(line), r.currencyHint != nil { return (r, "amount with its currency", line) }
            // The big amount on a line of its own, its "RM" misread ("ru 18.60", "Rm 18.60"): three letters at most.
            if let r = usable(line), line.text.filter(\.isLetter).count <= 3 { return (r, "amount standing alone", line) }
        }
        return nil
    }
}
