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
        default: return nil
        }
    }
}
