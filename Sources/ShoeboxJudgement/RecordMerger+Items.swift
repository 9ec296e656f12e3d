public import ShoeboxCore

/// The record's line items: from the page, proven only when the sum the parser matched is the subtotal or total the
/// merge chose; from an e-invoice's XML, every top-level line with its net amount, proven by the stated line total.
extension RecordMerger {
    /// The items the parser read, in the record's currency, with what proves them.
    static func mergeItems(_ extraction: Extraction, into record: inout DocumentRecord) {
        guard let reading = extraction.items, let currency = record.currency else { return }
        let items = reading.items.prefix(LineItem.maxItems).compactMap { $0.lineItem(in: currency) }
        guard !items.isEmpty, items.count == reading.items.count else { return }
        record.items = items
        record.itemsCheck = provenOnRecord(reading, record: record)
    }

    /// The parser's proof holds for the record when what it matched is the record's own figure: a total the merge chose
    /// (the items sum to a total of the page it did not choose: nothing is proven), a subtotal under the total.
    static func provenOnRecord(_ reading: ItemsReading, record: DocumentRecord) -> ItemsCheck {
        guard let target = reading.target else { return .unproven }
        let total = record.total?.minorUnits
        switch reading.check {
        case .subtotal:
            if record.subtotal?.minorUnits == target { return .subtotal }
            // Under the total, or the total before its cash rounding ("Sub-total 88.97" of "Total 88.95").
            return total.map { target > 0 && (target <= $0 || (target + 2) / 5 * 5 == $0) } == true ? .subtotal : .unproven
        case .total, .totalLessCharges:
            // The total chosen may be the one a printed rounding line makes of it, or the printed total rounded to the
            // 5-cent step of a cash rounding whose line OCR did not read ("Total Sales 27.28" / "Rounding RM «02" / "27.30").
            let cashRounded = target > 0 && target % 5 != 0 && (target + 2) / 5 * 5 == total
            return total == target || cashRounded || total.map(reading.rounded.contains) == true ? reading.check : .unproven
        case .lineTotal, .unproven, .person:
            return .unproven
        }
    }

    /// An e-invoice's lines as items: every line that is not an EXTENDED sub-line (its amount is part of its parent's),
    /// its net amount signed as the record stores amounts; proven when they sum to the stated line total.
    public static func eInvoiceItems(_ e: EInvoice) -> ([LineItem], ItemsCheck?) {
        guard let currency = e.currency else { return ([], nil) }
        var items: [LineItem] = []
        for line in e.lines where line.parentID == nil {
            guard items.count < LineItem.maxItems, let net = e.recorded(line.net), net.currency == currency else { continue }
            let negative = (line.net?.minorUnits ?? 0) < 0
            items.append(
                LineItem(
                    kind: negative ? .discount : .item, description: String((line.name ?? line.id ?? "").prefix(LineItem.maxDescription)),
                    quantity: line.quantity.flatMap { LineItem.isDecimal($0) ? $0 : nil }, unit: line.unitCode.map { String($0.prefix(20)) },
                    unitPrice: line.unitPrice.flatMap { LineItem.isDecimal($0) ? $0 : nil }, amount: net,
                    taxRate: line.taxRate.flatMap { LineItem.isDecimal($0) ? $0 : nil }, taxCode: line.taxCategory.map { String($0.prefix(20)) },
                    source: .eInvoice))
        }
        guard !items.isEmpty else { return ([], nil) }
        let stated = e.recorded(e.totals.lineTotal)?.minorUnits
        let proven = stated != nil && LineItem.sum(items) == stated && items.count == e.lines.filter({ $0.parentID == nil }).count
        return (items, proven ? .lineTotal : .unproven)
    }
}
