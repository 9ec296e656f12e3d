public import ShoeboxCore

/// The deadline rules, one small function per kind of document; the day-one rule is stated on `Deadline`.
extension Deadlines {
    /// The deadlines of one document, in a fixed order (payment, return window, warranty, pay reduced,
    /// objection, cancellation), and the problems a person must look at.
    ///
    /// - Invoices: the payment day. Invoices and receipts: the return window and warranty the folder presets.
    /// - Fines: pay-reduced and objection windows from the received-on day; without that day, none and
    ///   `fine-received-on-missing`.
    /// - Contracts: the last day to cancel, end of term − notice; without both read, none and `contract-terms-unread`.
    /// - Credit notes and paper that proves no purchase: none.
    ///
    /// A suspicious due day (before the document, or more than two years after it) is still returned, with its
    /// problem: the record goes to review showing the day, rather than losing the deadline.
    public static func compute(_ facts: DeadlineFacts) -> DeadlineResult {
        var result = DeadlineResult()
        switch facts.kind {
        case .invoice:
            payment(facts, into: &result)
            purchaseWindows(facts, into: &result)
        case .receipt, .paymentConfirmation:
            purchaseWindows(facts, into: &result)
        case .fine:
            fineWindows(facts, into: &result)
        case .contract:
            cancellation(facts, into: &result)
        case .creditNote, .notAPurchase:
            break
        }
        return result
    }

    static func payment(_ facts: DeadlineFacts, into result: inout DeadlineResult) {
        let deadline: Deadline
        if let stated = facts.statedDueDate {
            deadline = Deadline(
                kind: .payment, day: stated, anchor: .init(kind: .dueDatePrinted, day: stated),
                explanation: "Payment due on \(stated.iso), the due date the e-invoice states.")
        } else if let reading = facts.paymentTerm {
            switch reading.term {
            case .dueOn(let due):
                deadline = Deadline(
                    kind: .payment, day: due, anchor: .init(kind: .dueDatePrinted, day: due),
                    explanation: "Payment due on \(due.iso), the due date printed on the invoice (\(reading.wording)).")
            case .daysAfterInvoice(let n):
                guard let date = facts.documentDate else { return }
                deadline = Deadline(
                    kind: .payment, day: date.adding(days: n), anchor: .init(kind: .invoiceDate, day: date),
                    explanation: "Payment due \(count(n, "day")) after the invoice date \(date.iso) (\(reading.wording)).")
            }
        } else {
            return
        }
        result.deadlines.append(deadline)
        if let date = facts.documentDate, deadline.anchor.kind == .dueDatePrinted {
            if deadline.day < date { result.problems.append(.dueDateBeforeDocument) }
            if deadline.day > date.adding(months: DeadlineRules.farMonths) { result.problems.append(.dueDateTooFar) }
        }
    }

    /// Return window and warranty, counting the purchase day as day one.
    static func purchaseWindows(_ facts: DeadlineFacts, into result: inout DeadlineResult) {
        guard let date = facts.documentDate else { return }
        let anchor = Deadline.Anchor(kind: .purchaseDate, day: date)
        if let n = facts.presets.returnWindowDays, n > 0 {
            let last = date.adding(days: n - 1)
            result.deadlines.append(
                Deadline(
                    kind: .returnWindow, day: last, anchor: anchor,
                    explanation: "Last day to return: \(last.iso), \(count(n, "day")) counting the purchase date \(date.iso) as day one."))
        }
        if let n = facts.presets.warrantyMonths, n > 0 {
            let last = date.adding(months: n).adding(days: -1)
            result.deadlines.append(
                Deadline(
                    kind: .warranty, day: last, anchor: anchor,
                    explanation: "Warranty ends \(last.iso), \(count(n, "month")) counting the purchase date \(date.iso) as day one."))
        }
    }

    /// A fine's windows, counting the received-on day as day one.
    static func fineWindows(_ facts: DeadlineFacts, into result: inout DeadlineResult) {
        guard let received = facts.receivedOn else {
            result.problems.append(.fineReceivedOnMissing)
            return
        }
        let anchor = Deadline.Anchor(kind: .receivedOn, day: received)
        let windows: [(Deadline.Kind, Int?, String)] = [
            (.payReduced, facts.presets.payReducedDays, "Last day to pay the reduced amount"),
            (.objection, facts.presets.objectionDays, "Last day to object")
        ]
        for (kind, days, what) in windows {
            guard let n = days, n > 0 else { continue }
            let last = received.adding(days: n - 1)
            result.deadlines.append(
                Deadline(
                    kind: kind, day: last, anchor: anchor,
                    explanation: "\(what): \(last.iso), \(count(n, "day")) counting the day received \(received.iso) as day one."))
        }
    }

    /// The last day to give notice: the end of the term minus the notice period (months clamped to the month's
    /// end, so "3 months before 31 December" is 30 September). Notice given by that day reaches in time.
    static func cancellation(_ facts: DeadlineFacts, into result: inout DeadlineResult) {
        guard let terms = facts.contract, let notice = terms.notice, let end = terms.endOfTerm else {
            result.problems.append(.contractTermsUnread)
            return
        }
        let day: CalendarDay
        let period: String
        switch notice {
        case .days(let n):
            day = end.adding(days: -n)
            period = possessive(n, "day")
        case .months(let n):
            day = end.subtracting(months: n)
            period = possessive(n, "month")
        }
        let wording = [terms.noticeWording, terms.endWording].compactMap { $0 }.joined(separator: "; ")
        result.deadlines.append(
            Deadline(
                kind: .cancellation, day: day, anchor: .init(kind: .endOfTerm, day: end),
                explanation: "Last day to cancel: \(day.iso), \(period) notice before the end of the term \(end.iso)"
                    + (wording.isEmpty ? "." : " (\(wording)).")))
    }

    /// "1 month's", "3 months'".
    static func possessive(_ n: Int, _ unit: String) -> String { n == 1 ? "1 \(unit)'s" : "\(n) \(unit)s'" }
}

enum DeadlineRules {
    /// A due day more than two years after the document is beyond any payment term people print: a misread year.
    static let farMonths = 24
}
