import Foundation
import ShoeboxCore

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

/// Follows the parser's events (`SAXParser`) with a stack of paths, hands each element to the syntax's paths, and
/// says when the parser should stop: when the document goes beyond what an invoice needs.
final class ReaderDelegate {
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
    /// The current element's text as UTF-8, in the pieces libxml2 hands over (a base64 attachment in thousands).
    private var text: [UInt8] = []

    init(rootOnly: Bool) {
        self.rootOnly = rootOnly
    }

    /// True when the parser should stop: a refusal, or the root found when that is all that was asked.
    var done: Bool { failure != nil || (rootOnly && paths != nil) }

    func refuse(_ failure: DocumentFailure) {
        if self.failure == nil { self.failure = failure }
    }

    func start(_ localName: String, namespace: String, attributes: [String: String]) {
        guard !done else { return }
        elements += 1
        if elements > ReaderDelegate.maxElements {
            return refuse(.xmlMalformed("more than \(ReaderDelegate.maxElements) elements, far more than any invoice has"))
        }
        if stack.count >= ReaderDelegate.maxDepth {
            return refuse(.xmlMalformed("elements nested more than \(ReaderDelegate.maxDepth) deep, far deeper than any invoice"))
        }
        text.removeAll(keepingCapacity: true)
        guard let parent = stack.last else { return openRoot(localName, namespace) }
        let name = namespaces.contains(namespace) ? localName : "?" + localName
        let path = parent.path.isEmpty ? name : parent.path + "/" + name
        stack.append((path, attributes))
        paths?.open(path, attributes)
    }

    private func openRoot(_ localName: String, _ namespace: String) {
        guard let found = InvoiceRoot.paths(namespace: namespace, localName: localName) else {
            return refuse(.xmlNotAnInvoice(root: localName))
        }
        paths = found.paths
        namespaces = found.namespaces
        stack.append(("", [:]))
    }

    func end() {
        guard !done, let frame = stack.popLast(), !frame.path.isEmpty else { return }
        let value = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        // A large text (an attachment's base64) gives its memory back at once.
        if text.count > 1 << 16 { text = [] } else { text.removeAll(keepingCapacity: true) }
        if !value.isEmpty { paths?.leaf(frame.path, frame.attributes, value) }
        paths?.close(frame.path)
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !done else { return }
        text.append(contentsOf: bytes)
    }
}
