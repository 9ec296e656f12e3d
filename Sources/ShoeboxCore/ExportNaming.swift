/// Names of originals inside an export: `YYYY-MM-DD_merchant_12.34-EUR.ext`, sanitised and collision-proof.
public enum ExportNaming {
    /// Keeps Unicode letters and digits; removes path separators, control characters and characters that
    /// file systems or spreadsheets trip over; spaces become hyphens; at most 40 characters.
    public static func sanitize(_ text: String, maxLength: Int = 40) -> String {
        var out = ""
        var lastWasHyphen = false
        for ch in text {
            let isBad = ch.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.value < 0x20 }
            if isBad || "/\\:*?\"<>|".contains(ch) { continue }
            if ch.isLetter || ch.isNumber || ch == "&" || ch == "+" {
                out.append(ch)
                lastWasHyphen = false
            } else if !lastWasHyphen && !out.isEmpty {
                out.append("-")
                lastWasHyphen = true
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        if out.count > maxLength { out = String(out.prefix(maxLength)); while out.hasSuffix("-") { out.removeLast() } }
        return out.isEmpty ? "unknown" : out
    }

    public static func baseName(for record: DocumentRecord) -> String {
        let date = record.date?.iso ?? "undated"
        let merchant = sanitize(record.merchant ?? "unknown")
        let amount = record.total.map { "\($0.decimalString)-\($0.currency.code)" } ?? "no-total"
        return "\(date)_\(merchant)_\(amount)"
    }

    /// Unique names for a list of (base name, extension): the second "x.jpg" becomes "x_2.jpg", and so on.
    public static func uniqueNames(_ items: [(base: String, ext: String)]) -> [String] {
        var used = Set<String>()
        return items.map { item in
            var candidate = "\(item.base).\(item.ext)"
            var n = 2
            while used.contains(candidate.lowercased()) {
                candidate = "\(item.base)_\(n).\(item.ext)"
                n += 1
            }
            used.insert(candidate.lowercased())
            return candidate
        }
    }
}
