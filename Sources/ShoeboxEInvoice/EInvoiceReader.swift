public import ShoeboxCore

/// Reads a structured e-invoice from its XML: UN/CEFACT CII (ZUGFeRD 2.x and Factur-X, every profile, XRechnung CII),
/// ZUGFeRD 1.0, and UBL 2.1 Invoice and CreditNote. The bytes are untrusted: they are checked before any parsing
/// (`XMLGuards`), parsed by libxml2's SAX2 parser (`SAXParser`) without DTDs or entities, and read by namespace and
/// local name.
public enum EInvoiceReader {
    /// Reads untrusted bytes of an invoice XML. Refused before parsing: more than `DocumentFailure.maxInvoiceXMLBytes`
    /// (`.xmlTooLarge`), another encoding than UTF-8 (`.xmlNotUTF8`), a DOCTYPE or ENTITY declaration (`.xmlDTDRefused`).
    /// A document that does not parse, or goes beyond 200,000 elements or a depth of 64, is `.xmlMalformed`; one whose
    /// root is no invoice root is `.xmlNotAnInvoice`. A text node may be as large as the document (a base64 attachment
    /// of an XRechnung): libxml2's limit of 10,000,000 bytes for one is lifted, the document's bound stays.
    public static func read(_ bytes: [UInt8]) -> Result<EInvoice, DocumentFailure> {
        if let refused = XMLGuards.check(bytes) { return .failure(refused) }
        let delegate = ReaderDelegate(rootOnly: false)
        if let failure = parse(bytes, delegate) { return .failure(failure) }
        guard var paths = delegate.paths else { return .failure(.xmlMalformed("no root element: the bytes are not XML")) }
        return .success(paths.finish())
    }

    /// True when the bytes pass the guards and their root element is one of the invoice roots (cheap enough to pick
    /// among a PDF's attachments: the parser stops at the root); never throws.
    public static func isInvoice(_ bytes: [UInt8]) -> Bool {
        guard XMLGuards.check(bytes) == nil else { return false }
        let delegate = ReaderDelegate(rootOnly: true)
        _ = parse(bytes, delegate)
        return delegate.paths != nil && delegate.failure == nil
    }

    /// Runs the parser; the delegate's own refusal, or the parser's first error, or nil.
    private static func parse(_ bytes: [UInt8], _ delegate: ReaderDelegate) -> DocumentFailure? {
        let error = SAXParser.parse(bytes, delegate)
        if let failure = delegate.failure { return failure }
        if delegate.rootOnly && delegate.paths != nil { return nil }
        guard let error else { return nil }
        return .xmlMalformed("line \(error.line), column \(error.column): \(describe(error.code))")
    }

    private static func describe(_ code: Int) -> String {
        errorNames[code].map { "\($0) (libxml2 error \(code))" } ?? "libxml2 error \(code)"
    }

    /// libxml2's most common errors in words (xmlParserErrors).
    private static let errorNames: [Int: String] = [
        4: "the document is empty", 5: "the document ends early, or goes on after its root element", 9: "a character XML does not allow",
        26: "an undeclared entity", 41: "an attribute without a value", 73: "a tag without its \">\"",
        76: "an end tag that does not match its start tag", 77: "the document ends inside an element (cut off)"
    ]
}
