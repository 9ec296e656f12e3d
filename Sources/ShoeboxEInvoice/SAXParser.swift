internal import CLibXML2
import ShoeboxCore

/// Runs libxml2's SAX2 parser over bytes that passed `XMLGuards`, handing its events to a `ReaderDelegate`.
///
/// Options: XML_PARSE_HUGE, so that a text node past libxml2's 10,000,000-byte default (a base64 attachment in an
/// XRechnung) is read: the 16 MiB bound of `XMLGuards` is the bound, and the delegate's element count and depth.
/// XML_PARSE_NONET, and no DTD loading. XML_PARSE_NOENT only makes the predefined entities (`&amp;`) plain
/// characters in attribute values: no entity can be declared, as the guards refuse a DOCTYPE unread, and should one
/// reach the parser, its DTD callbacks stop the parse (`.xmlDTDRefused`) and `getEntity` knows the five predefined
/// entities only.
enum SAXParser {
    /// The first error libxml2 reported: its code (an xmlParserErrors value) and where.
    struct ParseError {
        let code: Int
        let line: Int
        let column: Int
    }

    /// What one parse needs in its callbacks: the delegate, the libxml2 context to stop, the first error.
    final class State {
        let delegate: ReaderDelegate
        var context: xmlParserCtxtPtr?
        var error: ParseError?
        init(_ delegate: ReaderDelegate) { self.delegate = delegate }

        /// Stops the parser when the delegate has had enough (a refusal, or the root when that is all it wants).
        func stopIfDone() {
            if delegate.done, let context { xmlStopParser(context) }
        }
    }

    static let options = Int32(XML_PARSE_HUGE.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOENT.rawValue)

    /// libxml2's global state, set up once before any thread parses (xmlInitParser is not safe to race).
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// Parses `bytes` (at most `DocumentFailure.maxInvoiceXMLBytes`, so their count fits an Int32); the first error
    /// libxml2 reported, nil when none.
    static func parse(_ bytes: [UInt8], _ delegate: ReaderDelegate) -> ParseError? {
        _ = initialized
        let state = State(delegate)
        var sax = handler()
        let user = Unmanaged.passUnretained(state).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&sax, user, nil, 0, nil) else {
            return ParseError(code: Int(XML_ERR_NO_MEMORY.rawValue), line: 0, column: 0)
        }
        defer { xmlFreeParserCtxt(context) }
        state.context = context
        _ = xmlCtxtUseOptions(context, options)
        withExtendedLifetime(state) {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    _ = xmlParseChunk(context, $0.baseAddress, Int32(clamping: $0.count), 1)
                }
            }
        }
        if state.error == nil, context.pointee.wellFormed == 0, !delegate.done {
            return ParseError(code: Int(context.pointee.errNo), line: 0, column: 0)
        }
        return state.error
    }

    private static func state(_ user: UnsafeMutableRawPointer?) -> State {
        Unmanaged<State>.fromOpaque(user!).takeUnretainedValue()
    }

    private static func string(_ text: UnsafePointer<xmlChar>?) -> String? {
        text.map { String(cString: $0) }
    }

    /// The callbacks: elements with their namespace, attributes by qualified name, text and CDATA, errors; a DTD or
    /// an entity declaration stops the parse.
    private static func handler() -> xmlSAXHandler {
        var h = xmlSAXHandler()
        h.initialized = UInt32(XML_SAX2_MAGIC)
        h.startElementNs = { user, localName, prefix, uri, _, _, attributeCount, _, attributes in
            let s = SAXParser.state(user)
            guard !s.delegate.done, let localName else { return s.stopIfDone() }
            var dictionary: [String: String] = [:]
            if let attributes {
                // Five pointers each: local name, prefix, URI, value, end of the value.
                for i in 0..<Int(max(0, attributeCount)) {
                    guard let name = attributes[5 * i], let value = attributes[5 * i + 3], let end = attributes[5 * i + 4] else { continue }
                    let local = String(cString: name)
                    let qualified = SAXParser.string(attributes[5 * i + 1]).map { $0.isEmpty ? local : $0 + ":" + local } ?? local
                    dictionary[qualified] = String(decoding: UnsafeBufferPointer(start: value, count: max(0, end - value)), as: UTF8.self)
                }
            }
            s.delegate.start(String(cString: localName), namespace: SAXParser.string(uri) ?? "", attributes: dictionary)
            s.stopIfDone()
        }
        h.endElementNs = { user, _, _, _ in
            let s = SAXParser.state(user)
            s.delegate.end()
            s.stopIfDone()
        }
        let characters: charactersSAXFunc = { user, text, count in
            guard let text, count > 0 else { return }
            SAXParser.state(user).delegate.characters(UnsafeBufferPointer(start: text, count: Int(count)))
        }
        h.characters = characters
        h.ignorableWhitespace = characters
        h.cdataBlock = characters
        h.getEntity = { _, name in name.flatMap { xmlGetPredefinedEntity($0) } }
        h.internalSubset = { user, _, _, _ in SAXParser.state(user).refuseDTD() }
        h.externalSubset = { user, _, _, _ in SAXParser.state(user).refuseDTD() }
        h.entityDecl = { user, _, _, _, _, _ in SAXParser.state(user).refuseDTD() }
        h.serror = { user, error in
            guard let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let s = SAXParser.state(user)
            if s.error == nil {
                s.error = ParseError(code: Int(error.pointee.code), line: Int(error.pointee.line), column: Int(error.pointee.int2))
            }
        }
        return h
    }
}

extension SAXParser.State {
    func refuseDTD() {
        delegate.refuse(.xmlDTDRefused)
        stopIfDone()
    }
}
