import Foundation
public import ShoeboxCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads a structured e-invoice from its XML: UN/CEFACT CII (ZUGFeRD 2.x and Factur-X, every profile, XRechnung CII),
/// ZUGFeRD 1.0, and UBL 2.1 Invoice and CreditNote. The bytes are untrusted: they are checked before any parsing
/// (`XMLGuards`), parsed by Foundation's XMLParser without external entities, and read by namespace and local name.
public enum EInvoiceReader {
    /// Reads untrusted bytes of an invoice XML. Refused before parsing: more than `DocumentFailure.maxInvoiceXMLBytes`
    /// (`.xmlTooLarge`), another encoding than UTF-8 (`.xmlNotUTF8`), a DOCTYPE or ENTITY declaration (`.xmlDTDRefused`).
    /// A document that does not parse, or goes beyond 200,000 elements or a depth of 64, is `.xmlMalformed`; one whose
    /// root is no invoice root is `.xmlNotAnInvoice`.
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

    /// Runs XMLParser; the delegate's own refusal, or the parser's error (even when `parse()` returned true: libxml2
    /// reports an undeclared entity that way), or nil.
    private static func parse(_ bytes: [UInt8], _ delegate: ReaderDelegate) -> DocumentFailure? {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        let ok = parser.parse()
        if let failure = delegate.failure { return failure }
        if delegate.rootOnly && delegate.paths != nil { return nil }
        guard ok, parser.parserError == nil else {
            return .xmlMalformed("line \(parser.lineNumber), column \(parser.columnNumber): \(describe(parser.parserError))")
        }
        return nil
    }

    private static func describe(_ error: (any Error)?) -> String {
        guard let error else { return "the parser stopped" }
        let code = (error as NSError).code
        return errorNames[code].map { "\($0) (libxml2 error \(code))" } ?? "libxml2 error \(code)"
    }

    /// libxml2's most common errors in words (xmlParserErrors).
    private static let errorNames: [Int: String] = [
        4: "the document is empty", 5: "the document ends early, or goes on after its root element", 9: "a character XML does not allow",
        26: "an undeclared entity", 41: "an attribute without a value", 73: "a tag without its \">\"",
        76: "an end tag that does not match its start tag", 77: "the document ends inside an element (cut off)"
    ]
}
