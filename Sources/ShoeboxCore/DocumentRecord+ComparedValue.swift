internal import Foundation

extension DocumentRecord {
    /// A field's value as `shoebox regress` and the review statistics compare it (ISO date, decimal amount,
    /// currency code), by its name; nil when the record has none or the name is not one of these fields.
    public func comparedValue(_ field: String) -> String? {
        switch field {
        case "merchant": return merchant
        case "date": return date?.iso
        case "total": return total?.decimalString
        case "currency": return currency?.code
        case "referenceNumber": return referenceNumber
        case "sellerTaxID": return sellerTaxID
        case "paymentMethod": return paymentMethod
        case "category": return category
        case "note": return note
        case "tax": return comparedValue("taxByRate")
        case "net": return subtotal?.decimalString
        case "dueDate": return dueDate?.iso
        case "documentKind": return documentKind?.rawValue
        case "provider": return payment?.provider
        case "screenPurpose": return payment?.purpose.rawValue
        case "receivedOn": return receivedOn?.iso
        case "endOfTerm": return deadlineFacts?.contract?.endOfTerm?.iso
        case "noticePeriod": return deadlineFacts?.contract?.notice.map(ContractTerms.text)
        case "taxByRate":
            guard let digits = currency?.minorDigits ?? tax.first?.amount.currency.minorDigits else { return nil }
            return TaxByRate.text(tax.map { ($0.rate, $0.amount.minorUnits) }, digits: digits)
        default: return nil
        }
    }
}

/// Tax per rate in one comparable line: "7=1.05; 19=15.20" (the amounts of a rate added up, rates in numeric
/// order, a rate's trailing zeros dropped; a tax without a rate is "?"). The form expectations and records are
/// compared in.
public enum TaxByRate {
    public static func text(_ rows: [(rate: String?, minorUnits: Int64)], digits: Int) -> String? {
        guard !rows.isEmpty else { return nil }
        var sums: [String: Int64] = [:]
        for (rate, units) in rows {
            let key = rate.map(plainRate) ?? "?"
            let (s, overflow) = sums[key, default: 0].addingReportingOverflow(units)
            guard !overflow else { return nil }
            sums[key] = s
        }
        let order = sums.keys.sorted { (Double($0) ?? .infinity, $0) < (Double($1) ?? .infinity, $1) }
        return order.map { "\($0)=\(Money.decimalString(minorUnits: sums[$0] ?? 0, digits: digits))" }.joined(separator: "; ")
    }

    /// "19.00" → "19", "5.50" → "5.5", "0.00" → "0", "7 %" → "7".
    public static func plainRate(_ text: String) -> String {
        var s = text.replacingOccurrences(of: "%", with: "").trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s.isEmpty ? "0" : s
    }
}
