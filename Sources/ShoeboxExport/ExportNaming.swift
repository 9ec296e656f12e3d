public import ShoeboxCore

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
        if out.count > maxLength {
            out = String(out.prefix(maxLength))
            while out.hasSuffix("-") { out.removeLast() }
        }
        return out.isEmpty ? "unknown" : out
    }

    /// The zip name (without `.zip`) of the files at the top of the scan folder (folder "").
    static let topLevelZipStem = "unsorted"
    /// Names a folder's zip may not take as they are: the top level's, and names Windows cannot create a file
    /// under (compared without case).
    static let reservedZipStems: Set<String> = Set(
        ["unsorted", "con", "prn", "aux", "nul"]
            + (1...9).flatMap { ["com\($0)", "lpt\($0)"] })
    /// The most UTF-8 bytes of a zip name taken from a folder name (file systems allow 255 bytes a name; the
    /// rest is kept for the hash, a date range and the temporary name's suffix).
    static let maxZipStemBytes = 120

    /// The name (without `.zip`) of one folder's zip: the folder's name sanitised (`sanitize`, at most 80
    /// characters and 120 bytes) when that is the name exactly, else that plus `_` and the first 8 hex digits of
    /// the SHA-256 of the folder's exact name (its UTF-8 bytes). The hash is added when sanitising changed the
    /// name (`trip:1` → `trip1_1a2b3c4d`, so it never meets the folder `trip1`), when the name is reserved
    /// (`unsorted`, Windows device names such as `con`), or when `caseTwin` says another folder of the store
    /// differs from this one only in case. The same folder gets the same name on every run, whatever other
    /// folders exist (bar a case twin). A sanitised name never holds `_`, so no plain name can equal a hashed one.
    public static func zipStem(forFolder folder: String, caseTwin: Bool = false) -> String {
        if folder.isEmpty { return topLevelZipStem }
        var stem = sanitize(folder, maxLength: 80)
        while stem.utf8.count > maxZipStemBytes { stem.removeLast() }
        while stem.hasSuffix("-") { stem.removeLast() }
        let exact = Array(stem.utf8) == Array(folder.utf8)
        guard !exact || caseTwin || reservedZipStems.contains(stem.lowercased()) else { return stem }
        return stem + "_" + String(SHA256.hex(of: Array(folder.utf8)).prefix(8))
    }

    /// Zip names (without `.zip`) for every folder of a store, keyed by each folder's exact UTF-8 bytes (Swift's
    /// `==` holds "café" composed and decomposed equal; a Linux file system holds them apart). Twins — folders
    /// whose plain names differ only in case or in Unicode composition (`Trip`, `trip`) — are marked so each
    /// gets its hash: on a Mac, Windows or a USB stick their zips would be one file.
    public static func zipStems(forFolders folders: [String]) -> [[UInt8]: String] {
        var distinct: [[UInt8]: String] = [:]
        for folder in folders { distinct[Array(folder.utf8)] = folder }
        // Grouped as a case-insensitive file system sees names: String keys (canonical equivalence), lowercased.
        let plain = Dictionary(grouping: distinct.values, by: { zipStem(forFolder: $0).lowercased() })
        var out: [[UInt8]: String] = [:]
        for group in plain.values {
            for folder in group { out[Array(folder.utf8)] = zipStem(forFolder: folder, caseTwin: group.count > 1 && !folder.isEmpty) }
        }
        return out
    }

    public static func baseName(for record: DocumentRecord) -> String {
        let date = record.date?.iso ?? "undated"
        let merchant = sanitize(record.merchant ?? "unknown")
        let amount = record.total.map { "\($0.decimalString)-\($0.currency.code)" } ?? "no-total"
        return "\(date)_\(merchant)_\(amount)"
    }

    /// Unique names for a list of (base name, extension): the second "x.jpg" becomes "x_2.jpg", and so on.
    public static func uniqueNames(_ items: [(base: String, ext: String)]) -> [String] {
        uniqueNames(items.map { ($0.base, $0.ext, nil) }).map(\.name)
    }

    /// Unique names where an item may bring a companion file of the same name with another extension (an XML
    /// e-invoice and its HTML page): both names are free when one is chosen, so "x.xml" and "x.html" stay a pair
    /// ("x_2.xml" and "x_2.html" when "x.html" is taken). Names are compared without case.
    public static func uniqueNames(_ items: [(base: String, ext: String, companion: String?)]) -> [(name: String, companion: String?)] {
        var used = Set<String>()
        return items.map { item in
            func names(_ stem: String) -> (String, String?) { ("\(stem).\(item.ext)", item.companion.map { "\(stem).\($0)" }) }
            var candidate = names(item.base)
            var n = 2
            while used.contains(candidate.0.lowercased()) || candidate.1.map({ used.contains($0.lowercased()) }) == true {
                candidate = names("\(item.base)_\(n)")
                n += 1
            }
            used.insert(candidate.0.lowercased())
            if let c = candidate.1 { used.insert(c.lowercased()) }
            return (candidate.0, candidate.1)
        }
    }
}
