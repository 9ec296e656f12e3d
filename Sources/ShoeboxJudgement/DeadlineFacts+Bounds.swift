public import ShoeboxCore
import ShoeboxParsing
import ShoeboxReading

extension DeadlineFacts {
    /// Whether these facts can give a deadline or a problem, now or after a person corrects the date or types the day
    /// a letter arrived: a term or a stated due day, a folder's presets, a fine or a contract.
    var mayGiveDeadlines: Bool {
        paymentTerm != nil || statedDueDate != nil || contract != nil || receivedOn != nil || kind == .fine || kind == .contract
            || presets != DeadlinePresets(documentKind: presets.documentKind)
    }

    /// The longest wording kept beside a term: a line of a page.
    static let maxWording = 200

    /// These facts with only what the readers and a pipeline file can give: facts that come back from a store or an
    /// import are counted after a person's edit, so a term out of its reader's range (a payment term of 10⁹ days)
    /// is dropped rather than counted, and a wording is cut to a line.
    public var bounded: DeadlineFacts {
        var f = self
        f.presets = presets.bounded
        func line(_ s: String?) -> String? { s.map { String($0.prefix(Self.maxWording)) } }
        if let reading = paymentTerm {
            switch reading.term {
            case .daysAfterInvoice(let n) where !PaymentTermRules.days.contains(n): f.paymentTerm = nil
            default: f.paymentTerm = PaymentTermReading(term: reading.term, wording: line(reading.wording) ?? "")
            }
        }
        if var c = contract {
            switch c.notice {
            case .days(let n) where !ContractTermRules.noticeDays.contains(n): c.notice = nil
            case .months(let n) where !ContractTermRules.noticeMonths.contains(n): c.notice = nil
            default: break
            }
            c.noticeWording = line(c.noticeWording)
            c.endWording = line(c.endWording)
            f.contract = c
        }
        return f
    }
}
