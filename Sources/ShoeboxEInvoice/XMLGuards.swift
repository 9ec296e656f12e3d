import ShoeboxCore

/// Checks on an invoice XML's bytes before any parser sees them: its size, that it is UTF-8 (so that the byte scan
/// for a DTD cannot be bypassed by another encoding), and that it declares no DTD or entity (libxml2 drops
/// internal entities silently and a quadratic-blowup DTD costs seconds of CPU; an e-invoice needs neither).
enum XMLGuards {
    static func check(_ bytes: [UInt8]) -> DocumentFailure? {
        guard bytes.count <= DocumentFailure.maxInvoiceXMLBytes else { return .xmlTooLarge(bytes: bytes.count) }
        if let encoding = foreignEncoding(bytes) { return .xmlNotUTF8(encoding) }
        if let declared = declaredEncoding(bytes), declared.lowercased() != "utf-8" { return .xmlNotUTF8(declared) }
        // Bytes that are not UTF-8 (a damaged file): swift-corelibs-foundation's XMLParser, the reader's parser
        // before libxml2's own, trapped on some of them (found by make fuzz), and an invoice has none.
        if let offset = invalidUTF8Offset(bytes) { return .xmlNotUTF8("bytes that are not UTF-8 (the first at byte \(offset))") }
        if contains(bytes, "<!DOCTYPE") || contains(bytes, "<!ENTITY") { return .xmlDTDRefused }
        return nil
    }

    /// The encoding libxml2 would detect from the first bytes when it is not UTF-8: a UTF-16 or UTF-32 byte-order
    /// mark, a NUL among the first four bytes (UTF-16 or UTF-32 without a mark), or EBCDIC's "<?xm".
    static func foreignEncoding(_ bytes: [UInt8]) -> String? {
        let head = Array(bytes.prefix(4))
        if head.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return "UTF-32 (big-endian)" }
        if head.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return "UTF-32 (little-endian)" }
        if head.starts(with: [0xFE, 0xFF]) { return "UTF-16 (big-endian)" }
        if head.starts(with: [0xFF, 0xFE]) { return "UTF-16 (little-endian)" }
        if head.contains(0x00) { return "UTF-16 or UTF-32" }
        if head == [0x4C, 0x6F, 0xA7, 0x94] { return "EBCDIC" }
        return nil
    }

    /// The `encoding` pseudo-attribute of the XML declaration, when the document (after a UTF-8 byte-order mark)
    /// starts with one.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        guard bytes[start...].starts(with: Array("<?xml".utf8)) else { return nil }
        let window = bytes[start..<min(bytes.count, start + 1024)]
        guard let end = firstIndex(of: Array("?>".utf8), in: window),
            let key = firstIndex(of: Array("encoding".utf8), in: window[..<end])
        else { return nil }
        var i = key + 8
        while i < end, [0x20, 0x09, 0x0A, 0x0D, 0x3D].contains(bytes[i]) { i += 1 } // blanks and "="
        guard i < end, bytes[i] == 0x22 || bytes[i] == 0x27 else { return "an unreadable encoding declaration" }
        let quote = bytes[i]
        guard let close = bytes[(i + 1)..<end].firstIndex(of: quote) else { return "an unreadable encoding declaration" }
        return String(decoding: bytes[(i + 1)..<close], as: UTF8.self)
    }

    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence, nil when all do.
    static func invalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        firstIndex(of: Array(text.utf8), in: bytes[...]) != nil
    }

    /// The index where `needle` first starts in `haystack` (a plain byte search, first byte by first byte).
    static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var i = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while i <= last {
            guard let hit = haystack[i...last].firstIndex(of: first) else { return nil }
            if haystack[hit..<(hit + needle.count)].elementsEqual(needle) { return hit }
            i = hit + 1
        }
        return nil
    }
}
