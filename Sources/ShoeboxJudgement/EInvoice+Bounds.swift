public import ShoeboxCore

/// What a record may hold of an e-invoice: the XML is outside input like a page, and a value no run may store (a
/// date before 1900 or after today, a text longer than any invoice prints, more rows than any invoice has) is not
/// passed on as if it were exact. `bounded(today:)` keeps what fits and names the rest; the merge sends such a
/// record to review (`e-invoice-value-out-of-range`). Import checks a stored e-invoice against the same bounds.
/// The bounds themselves (`maxText`, `maxRows`, `maxLines`) are the core's, with the value (EInvoice.swift).
extension EInvoice {
    /// The invoice as a record can hold it, and a sentence for each value that was cut or left out.
    public func bounded(today: CalendarDay) -> (invoice: EInvoice, problems: [String]) {
        var e = self
        var problems: [String] = []
        // Texts cut, by what they are (one sentence each, however many lines hold one): how many, the longest.
        var cuts: [(name: String, count: Int, longest: Int)] = []
        func cut(_ value: inout String?, _ name: String) {
            guard let v = value, v.count > EInvoice.maxText else { return }
            value = String(v.prefix(EInvoice.maxText - 1)) + "…"
            if let i = cuts.firstIndex(where: { $0.name == name }) {
                cuts[i].count += 1
                cuts[i].longest = max(cuts[i].longest, v.count)
            } else {
                cuts.append((name, 1, v.count))
            }
        }
        func cut(_ values: inout [String], _ name: String) {
            for i in values.indices {
                var v: String? = values[i]
                cut(&v, name)
                values[i] = v ?? ""
            }
        }
        func limit<T>(_ list: inout [T], _ max: Int, _ name: String) {
            guard list.count > max else { return }
            problems.append("The XML has \(list.count) \(name); only the first \(max) are kept.")
            list = Array(list.prefix(max))
        }
        func party(_ p: inout Party, _ role: String) {
            cut(&p.name, "\(role) name")
            cut(&p.vatID, "\(role) VAT ID")
            cut(&p.taxNumber, "\(role) tax number")
            cut(&p.postcode, "\(role) postcode")
            cut(&p.city, "\(role) city")
            cut(&p.country, "\(role) country")
            limit(&p.addressLines, EInvoice.maxRows, "\(role) address lines")
            cut(&p.addressLines, "\(role) address line")
        }
        for (key, name) in [(\EInvoice.profile, "profile"), (\.number, "invoice number"), (\.typeCode, "type code")] {
            cut(&e[keyPath: key], name)
        }
        party(&e.seller, "seller")
        party(&e.buyer, "buyer")
        limit(&e.paymentTerms, EInvoice.maxRows, "payment terms")
        cut(&e.paymentTerms, "payment term")
        limit(&e.lines, EInvoice.maxLines, "lines")
        for i in e.lines.indices {
            let keys: [(WritableKeyPath<Line, String?>, String)] = [
                (\.id, "line ID"), (\.parentID, "parent line ID"), (\.name, "line description"), (\.quantity, "line quantity"),
                (\.unitCode, "line unit"), (\.unitPrice, "line unit price"), (\.taxCategory, "line tax category"), (\.taxRate, "line tax rate")
            ]
            for (key, name) in keys { cut(&e.lines[i][keyPath: key], name) }
        }
        limit(&e.taxes, EInvoice.maxRows, "tax rows")
        for i in e.taxes.indices {
            cut(&e.taxes[i].category, "tax category")
            cut(&e.taxes[i].rate, "tax rate")
            cut(&e.taxes[i].exemptionReason, "tax exemption reason")
        }
        limit(&e.paymentMeans, EInvoice.maxRows, "payment means")
        for i in e.paymentMeans.indices {
            cut(&e.paymentMeans[i].code, "payment means code")
            cut(&e.paymentMeans[i].iban, "account")
        }
        // A date no record may hold is left out, as a date in no known form is. A due date may lie ahead
        // (`due-date-too-far` judges how far); an issue or delivery day may not.
        for (key, name, ahead) in [
            (\EInvoice.issueDate, "issue date", false), (\.deliveryDate, "delivery date", false), (\.dueDate, "due date", true)
        ] {
            guard let day = e[keyPath: key], day.year < FieldInput.earliestYear || (!ahead && day > today) else { continue }
            e[keyPath: key] = nil
            let range = ahead ? "from \(FieldInput.earliestYear) on" : "from \(FieldInput.earliestYear) to today (\(today.iso))"
            problems.append("The XML states the \(name) \(day.iso), which is not a day \(range); it was left out.")
        }
        cut(&e.readingProblems, "reading problem")
        limit(&e.readingProblems, EInvoice.maxRows, "reading problems")
        for c in cuts {
            let what =
                c.count == 1
                ? "The XML's \(c.name) is \(c.longest) characters long"
                : "\(c.count) of the XML's \(c.name)s are longer than \(EInvoice.maxText) characters (the longest \(c.longest))"
            problems.append("\(what); only the first \(EInvoice.maxText - 1) characters are kept.")
        }
        return (e, problems)
    }
}
