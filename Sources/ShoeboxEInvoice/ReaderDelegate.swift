import Foundation
import ShoeboxCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The invoice roots: namespace URI and local name decide the syntax, and with it the namespaces its paths may use.
enum InvoiceRoot {
    static let ciiNamespaces: Set<String> = [
        "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
        "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
        "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
        "urn:un:unece:uncefact:data:standard:QualifiedDataType:100"
    ]
    static let zugferd1Namespaces: Set<String> = [
        "urn:ferd:CrossIndustryDocument:invoice:1p0",
        "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12",
        "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15",
        "urn:un:unece:uncefact:data:standard:QualifiedDataType:12"
    ]
    static let ublCommon: Set<String> = [
        "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
        "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
    ]

    /// The paths reading a document with this root and the namespaces they know; nil for any other root.
    static func paths(namespace: String?, localName: String) -> (paths: any InvoicePaths, namespaces: Set<String>)? {
        switch (namespace ?? "", localName) {
        case ("urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100", "CrossIndustryInvoice"):
            return (CIIPaths(zugferd1: false), ciiNamespaces)
        case ("urn:ferd:CrossIndustryDocument:invoice:1p0", "CrossIndustryDocument"):
            return (CIIPaths(zugferd1: true), zugferd1Namespaces)
        case ("urn:oasis:names:specification:ubl:schema:xsd:Invoice-2", "Invoice"):
            return (UBLPaths(creditNote: false), ublCommon.union([namespace ?? ""]))
        case ("urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2", "CreditNote"):
            return (UBLPaths(creditNote: true), ublCommon.union([namespace ?? ""]))
        default:
            return nil
        }
    }
}

/// Follows XMLParser's events with a stack of paths, hands each element to the syntax's paths, and stops the parser
/// when the document goes beyond what an invoice needs.
final class ReaderDelegate: NSObject, XMLParserDelegate {
    static let maxElements = 200_000
    static let maxDepth = 64

    /// Stop as soon as the root is known (`EInvoiceReader.isInvoice`).
    let rootOnly: Bool
    private(set) var paths: (any InvoicePaths)?
    /// Why the delegate stopped the parser (a refusal of its own, not a libxml2 error).
    private(set) var failure: DocumentFailure?
    private var namespaces: Set<String> = []
    private var stack: [(path: String, attributes: [String: String])] = []
    private var elements = 0
    private var text = ""

    init(rootOnly: Bool) {
        self.rootOnly = rootOnly
    }

    private func stop(_ parser: XMLParser, _ failure: DocumentFailure) {
        self.failure = failure
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        elements += 1
        if elements > ReaderDelegate.maxElements {
            return stop(parser, .xmlMalformed("more than \(ReaderDelegate.maxElements) elements, far more than any invoice has"))
        }
        if stack.count >= ReaderDelegate.maxDepth {
            return stop(parser, .xmlMalformed("elements nested more than \(ReaderDelegate.maxDepth) deep, far deeper than any invoice"))
        }
        text = ""
        guard let parent = stack.last else { return openRoot(parser, elementName, namespaceURI) }
        let name = namespaces.contains(namespaceURI ?? "") ? elementName : "?" + elementName
        let path = parent.path.isEmpty ? name : parent.path + "/" + name
        stack.append((path, attributeDict))
        paths?.open(path, attributeDict)
    }

    private func openRoot(_ parser: XMLParser, _ localName: String, _ namespace: String?) {
        guard let found = InvoiceRoot.paths(namespace: namespace, localName: localName) else {
            return stop(parser, .xmlNotAnInvoice(root: localName))
        }
        paths = found.paths
        namespaces = found.namespaces
        stack.append(("", [:]))
        if rootOnly { parser.abortParsing() }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard failure == nil, let frame = stack.popLast(), !frame.path.isEmpty else { return }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        text = ""
        if !value.isEmpty { paths?.leaf(frame.path, frame.attributes, value) }
        paths?.close(frame.path)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        text += String(decoding: block, as: UTF8.self)
    }

    /// Never loads anything from outside the document (libxml2 asks for an external DTD subset here).
    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        nil
    }
}
