/// What a phone's payment screen says beside the fields every record has (the payee is the record's merchant, the
/// amount its total, the reference its reference number): the app or bank that paid, what it was paid from, the
/// recipient's bank for a transfer, and what the screen shows.
public struct PaymentScreen: Hashable, Sendable, Codable {
    /// What the screen shows. Only `payment` and `refund` are money that moved; the others are kept and named.
    public enum Purpose: String, Hashable, Sendable, Codable, CaseIterable {
        case payment
        /// Money back: like a credit note.
        case refund
        case failed, pending
        /// A balance or home screen.
        case balance
        /// Points, rewards, vouchers.
        case points
        /// Money into one's own wallet: a reload or top-up.
        case topUp = "top-up"
        /// A transfer between one's own accounts.
        case ownTransfer = "own-transfer"
        /// A screen with no payment on it at all (a chat, a web page).
        case noPayment = "no-payment"
    }

    public var purpose: Purpose
    /// The app or bank that paid ("Touch 'n Go eWallet", "MAE", "CIMB OCTO").
    public var provider: String?
    /// What it was paid from as the screen says ("eWallet Balance", "Visa ****4242", "Savings Account 1234").
    public var paidFrom: String?
    /// For a transfer between banks, the recipient's bank (never the merchant).
    public var recipientBank: String?

    public init(purpose: Purpose, provider: String? = nil, paidFrom: String? = nil, recipientBank: String? = nil) {
        self.purpose = purpose
        self.provider = provider
        self.paidFrom = paidFrom
        self.recipientBank = recipientBank
    }

    /// The fields such a screen does not show, so their absence is no reason of its own: a balance has no payee,
    /// day or amount paid; a top-up or a transfer between one's own accounts has no payee.
    public var fieldsNotShown: Set<Field> {
        switch purpose {
        case .balance, .points, .noPayment: [.merchant, .date, .total, .currency]
        case .topUp, .ownTransfer: [.merchant]
        case .payment, .refund, .failed, .pending: []
        }
    }
}

extension DocumentRecord {
    /// How it was paid, as the page says (the review desk shows the same line): "paid with MAE (Maybank) · from
    /// Savings Account-i 1234 · card ••••1234"; nil when the page says none of it.
    public var paidWithText: String? {
        let p = payment
        let parts = [
            p?.provider.map { "paid with \($0)" }, p?.paidFrom.map { "from \($0)" }, card.map { "card \($0.display)" },
            p?.recipientBank.map { "to an account at \($0)" }, p.flatMap { $0.purpose == .payment ? nil : "screen shows: \($0.purpose.rawValue)" }
        ].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}
