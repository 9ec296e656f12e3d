public import ShoeboxCore

/// A readable page for a standalone XML e-invoice, made by Shoebox from the invoice it read: an export puts it
/// beside the XML (`receipts/<name>.xml` and `receipts/<name>.html`), so a person without an e-invoice viewer
/// can read what the XML says. One self-contained HTML5 page: inline CSS, no script, nothing loaded from
/// elsewhere; every value from the file HTML-escaped. The same invoice gives the same bytes (no clock, no
/// random), so an export stays byte-identical.
public enum EInvoiceHTML {
    /// The page for `e`, read from `record`'s original. Amounts are shown as the XML states them, sign included
    /// (a credit note usually states positive amounts; the record stores them negated).
    public static func render(_ e: EInvoice, record: DocumentRecord) -> String {
        var page = Page()
        let title = [e.typeName.prefix(1).uppercased() + e.typeName.dropFirst(), e.number].compactMap { $0 }.joined(separator: " ")
        page.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        page.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        page.raw("<title>\(escape(title + (e.seller.name.map { " – " + $0 } ?? "")))</title>\n<style>\n\(style)</style>\n</head>\n<body>\n")
        page.raw("<header>\n<h1>\(escape(title))</h1>\n")
        page.raw("<p class=\"note\">\(escape(originNote(e, record: record)))</p>\n</header>\n")
        page.raw("<section class=\"parties\">\n")
        parties(e, &page)
        page.raw("</section>\n")
        facts(e, &page)
        lines(e, &page)
        taxes(e, &page)
        totals(e, &page)
        payment(e, &page)
        if !record.eInvoiceProblems.isEmpty {
            page.raw("<section class=\"problems\">\n<h2>What Shoebox found wrong</h2>\n<ul>\n")
            for p in record.eInvoiceProblems { page.raw("<li>\(escape(p))</li>\n") }
            page.raw("</ul>\n</section>\n")
        }
        page.raw("<footer>\n<p>\(escape(originNote(e, record: record)))</p>\n</footer>\n</body>\n</html>\n")
        return page.text
    }

    /// Text made safe inside an element or a quoted attribute: `& < > " '` as entities; control characters other
    /// than tab and line breaks (which HTML does not allow) as U+FFFD.
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(u)
            default:
                if u.value < 0x20 || (0x7F...0x9F).contains(u.value) { out += "\u{FFFD}" } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }

    /// The page's text, built in order.
    struct Page {
        var text = ""
        mutating func raw(_ s: String) { text += s }
        /// A table row of label and value, left out when there is no value.
        mutating func fact(_ label: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            text += "<tr><th scope=\"row\">\(escape(label))</th><td>\(escape(value))</td></tr>\n"
        }
    }

    static let style = """
        body { font-family: system-ui, sans-serif; color: #222; max-width: 60em; margin: 2em auto; padding: 0 1em; line-height: 1.4; }
        h1 { font-size: 1.6em; margin-bottom: 0.2em; }
        h2 { font-size: 1.15em; border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 1.6em; }
        .note { color: #555; font-size: 0.9em; }
        .parties { display: flex; flex-wrap: wrap; gap: 2em; }
        .parties > div { flex: 1 1 20em; }
        .parties p { margin: 0.1em 0; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 0.25em 0.6em; border-bottom: 1px solid #eee; vertical-align: top; }
        thead th { border-bottom: 2px solid #ccc; }
        table.facts { width: auto; }
        table.facts th { font-weight: normal; color: #555; padding-right: 2em; }
        .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        tr.sub td.item { padding-left: 2em; color: #555; }
        tr.sub2 td.item { padding-left: 3.5em; color: #555; }
        tr.due th, tr.due td { font-weight: bold; border-top: 2px solid #ccc; }
        .problems { color: #8a1f11; }
        footer { margin-top: 2em; color: #555; font-size: 0.9em; border-top: 1px solid #ccc; }

        """

    static func originNote(_ e: EInvoice, record: DocumentRecord) -> String {
        let file = record.source.split(separator: "/").last.map(String.init) ?? record.source
        let syntax: String
        switch e.syntax {
        case .cii: syntax = "UN/CEFACT CII"
        case .zugferd1: syntax = "ZUGFeRD 1.0"
        case .ubl: syntax = "UBL 2.1"
        }
        return "Rendered by Shoebox from the XML e-invoice \(file) (\(syntax)), which is the legal original; "
            + "this page only shows what the XML states."
    }

    static func amount(_ m: Money?) -> String? { m.map { "\($0.decimalString) \($0.currency.code)" } }

    static func parties(_ e: EInvoice, _ page: inout Page) {
        for (heading, party) in [("Seller", e.seller), ("Buyer", e.buyer)] {
            page.raw("<div>\n<h2>\(heading)</h2>\n")
            var lines: [String] = []
            if let name = party.name { lines.append(name) }
            lines += party.addressLines
            let town = [party.postcode, party.city].compactMap { $0 }.joined(separator: " ")
            if !town.isEmpty { lines.append(town) }
            if let country = party.country { lines.append(country) }
            if lines.isEmpty { lines.append("not stated") }
            for (i, line) in lines.enumerated() { page.raw(i == 0 ? "<p><strong>\(escape(line))</strong></p>\n" : "<p>\(escape(line))</p>\n") }
            if let vat = party.vatID { page.raw("<p>VAT ID: \(escape(vat))</p>\n") }
            if let tax = party.taxNumber { page.raw("<p>Tax number: \(escape(tax))</p>\n") }
            page.raw("</div>\n")
        }
    }

    static func facts(_ e: EInvoice, _ page: inout Page) {
        page.raw("<section>\n<h2>Invoice</h2>\n<table class=\"facts\">\n")
        page.fact("Number", e.number)
        page.fact("Type", e.typeName + (e.typeCode.map { " (\($0))" } ?? ""))
        page.fact("Issue date", e.issueDate?.iso)
        page.fact("Delivery date", e.deliveryDate?.iso)
        page.fact("Due date", e.dueDate?.iso)
        page.fact("Currency", e.currency?.code)
        page.fact("Profile", e.profile)
        for terms in e.paymentTerms { page.fact("Payment terms", terms) }
        page.raw("</table>\n</section>\n")
    }

    /// How deep a line sits under parent lines (0: a top-level line), following `parentID` at most 8 steps so a
    /// cycle in the file cannot loop.
    static func depth(of line: EInvoice.Line, parents: [String: String]) -> Int {
        var depth = 0
        var parent = line.parentID
        while let p = parent, depth < 8 {
            depth += 1
            parent = parents[p]
        }
        return depth
    }

    static func lines(_ e: EInvoice, _ page: inout Page) {
        guard !e.lines.isEmpty else { return }
        var parents: [String: String] = [:]
        for line in e.lines { if let id = line.id, let parent = line.parentID, parents[id] == nil { parents[id] = parent } }
        page.raw("<section>\n<h2>Lines</h2>\n<table class=\"lines\">\n<thead><tr><th>#</th><th>Item</th>")
        page.raw(
            "<th class=\"num\">Quantity</th><th>Unit</th><th class=\"num\">Unit price</th><th class=\"num\">Net</th><th class=\"num\">Tax</th></tr></thead>\n<tbody>\n"
        )
        for line in e.lines {
            let d = depth(of: line, parents: parents)
            let rowClass = d == 0 ? "" : d == 1 ? " class=\"sub\"" : " class=\"sub sub2\""
            let tax = [line.taxCategory, line.taxRate.map { "\($0) %" }].compactMap { $0 }.joined(separator: " ")
            let cells = [
                "<td>\(escape(line.id ?? ""))</td>", "<td class=\"item\">\(escape(line.name ?? ""))</td>",
                "<td class=\"num\">\(escape(line.quantity ?? ""))</td>", "<td>\(escape(line.unitCode ?? ""))</td>",
                "<td class=\"num\">\(escape(line.unitPrice ?? ""))</td>", "<td class=\"num\">\(escape(line.net?.decimalString ?? ""))</td>",
                "<td class=\"num\">\(escape(tax))</td>"
            ]
            page.raw("<tr\(rowClass)>\(cells.joined())</tr>\n")
        }
        page.raw("</tbody>\n</table>\n")
        if e.lines.contains(where: { $0.parentID != nil }) {
            page.raw("<p class=\"note\">Indented lines are sub-lines: their amounts are part of the line above.</p>\n")
        }
        page.raw("</section>\n")
    }

    static func taxes(_ e: EInvoice, _ page: inout Page) {
        guard !e.taxes.isEmpty else { return }
        page.raw("<section>\n<h2>Tax breakdown</h2>\n<table class=\"taxes\">\n<thead><tr><th>Category</th><th class=\"num\">Rate</th>")
        page.raw("<th class=\"num\">Basis</th><th class=\"num\">Tax</th><th>Exemption reason</th></tr></thead>\n<tbody>\n")
        for t in e.taxes {
            let cells = [
                "<td>\(escape(t.category ?? ""))</td>", "<td class=\"num\">\(escape(t.rate.map { "\($0) %" } ?? ""))</td>",
                "<td class=\"num\">\(escape(t.basis?.decimalString ?? ""))</td>", "<td class=\"num\">\(escape(t.amount?.decimalString ?? ""))</td>",
                "<td>\(escape(t.exemptionReason ?? ""))</td>"
            ]
            page.raw("<tr>\(cells.joined())</tr>\n")
        }
        page.raw("</tbody>\n</table>\n</section>\n")
    }

    static func totals(_ e: EInvoice, _ page: inout Page) {
        let t = e.totals
        let rows: [(String, Money?)] = [
            ("Sum of lines", t.lineTotal), ("Allowances", t.allowances), ("Charges", t.charges), ("Net", t.taxBasis), ("Tax", t.tax),
            ("Gross", t.grand), ("Prepaid", t.prepaid), ("Rounding", t.rounding)
        ]
        guard rows.contains(where: { $0.1 != nil }) || t.due != nil else { return }
        page.raw("<section>\n<h2>Totals</h2>\n<table class=\"facts totals\">\n")
        for (label, m) in rows {
            guard let text = amount(m) else { continue }
            page.raw("<tr><th scope=\"row\">\(escape(label))</th><td class=\"num\">\(escape(text))</td></tr>\n")
        }
        if let due = amount(t.due) {
            page.raw("<tr class=\"due\"><th scope=\"row\">Amount due</th><td class=\"num\">\(escape(due))</td></tr>\n")
        }
        page.raw("</table>\n")
        if e.isCredit { page.raw("<p class=\"note\">A credit note: these amounts are owed to the buyer.</p>\n") }
        page.raw("</section>\n")
    }

    static func payment(_ e: EInvoice, _ page: inout Page) {
        guard !e.paymentMeans.isEmpty else { return }
        page.raw("<section>\n<h2>Payment</h2>\n<table class=\"facts\">\n")
        for means in e.paymentMeans {
            var single = EInvoice(syntax: e.syntax)
            single.paymentMeans = [means]
            page.fact("Means", single.paymentMethod.map { m in m + (means.code.map { " (\($0))" } ?? "") })
            page.fact("IBAN", means.iban)
        }
        page.raw("</table>\n</section>\n")
    }
}
