/// How long a text value may be, checked once on the way in (sidecar, review edit, `review --apply`,
/// the review edits in an `import`: a suggestion a run wrote keeps import's own 1,000-character bound) and once on the way out (every text cell of an export).
///
/// On the way in a value over its field's limit is refused with a sentence that names the field and the
/// limit, never cut silently: the person sees it and types a shorter one. On the way out nothing is
/// refused: a cell longer than a spreadsheet cell can hold (Excel's 32,767 characters) is cut and ends in
/// `…[truncated]`, so one bad value never blocks a folder's export (a store written before these limits
/// may still hold one).
public enum TextLimits {
    /// The fields a person or a sidecar may give as text, with their maximum length in characters.
    /// Every one but `note` is a single line; control characters (NUL, escape, …) are refused in all of them
    /// (`note` may hold line breaks and tabs).
    public static let maximumLength: [String: Int] = [
        "merchant": 200,
        "referenceNumber": 100,
        "category": 100,
        "paymentMethod": 100,
        "agent": 100,
        "folder": 255,
        "note": 1_000
    ]

    /// Fields that may span lines.
    static let multiLine: Set<String> = ["note"]

    /// Excel's limit for one cell (and libxlsxwriter's `LXW_STR_MAX`), in Unicode scalars.
    public static let spreadsheetCell = 32_767
    /// What ends a cell that was cut.
    static let truncationMarker = "…[truncated]"

    /// Why `value` cannot be stored as `field`, as a sentence that says what to type instead; nil when it can.
    /// Fields without a limit in `maximumLength` are not text fields and are not checked here.
    public static func problem(field: String, value: String) -> String? {
        guard let limit = maximumLength[field] else { return nil }
        if value.isEmpty { return "a \(field) must not be empty." }
        let length = value.count
        if length > limit {
            return "a \(field) is at most \(limit) characters; this one has \(length). Type a shorter one."
        }
        let allowed: Set<UInt32> = multiLine.contains(field) ? [0x09, 0x0A, 0x0D] : []
        if value.unicodeScalars.contains(where: { isControl($0) && !allowed.contains($0.value) }) {
            if !allowed.isEmpty { return "a \(field) must not hold control characters such as NUL or escape." }
            return "a \(field) must be one line without control characters (line breaks, tabs, NUL). Type it on one line."
        }
        return nil
    }

    /// `text` as one export cell: unchanged when it fits `limit` Unicode scalars (counting `reserve` more for
    /// what the writer adds, such as the apostrophe before a would-be formula), else cut at a character
    /// boundary and ended with `truncationMarker`, the whole at most `limit - reserve` scalars.
    public static func cell(_ text: String, limit: Int = spreadsheetCell, reserve: Int = 1) -> String {
        let room = limit - reserve
        guard text.unicodeScalars.count > room else { return text }
        let keep = room - truncationMarker.unicodeScalars.count
        var out = ""
        var used = 0
        for ch in text {
            let n = ch.unicodeScalars.count
            if used + n > keep { break }
            out.append(ch)
            used += n
        }
        return out + truncationMarker
    }

    static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
    }
}
