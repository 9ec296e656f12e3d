import Foundation
import ShoeboxCore
import ShoeboxTestSupport
import Testing

@testable import ShoeboxEInvoice

/// The failure code the reader gives, or "ok".
func refusal(_ bytes: [UInt8]) -> String {
    switch EInvoiceReader.read(bytes) {
    case .success: "ok"
    case .failure(let f): f.code
    }
}

func refusal(_ text: String) -> String { refusal(Array(text.utf8)) }

/// Seconds `work` takes.
func seconds(_ work: () -> Void) -> Double {
    let start = ContinuousClock.now
    work()
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

@Suite struct HostileXMLTests {
    @Test func externalEntityIsRefusedUnread() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let secret = dir.appendingPathComponent("secret.txt")
        try "SECRET-4711".write(to: secret, atomically: true, encoding: .utf8)
        let doc = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE rsm:CrossIndustryInvoice [<!ENTITY xxe SYSTEM "file://\(secret.path)">]>
            \(InvoiceDocuments.cii.replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", with: "")
                .replacingOccurrences(of: "Handwerker GmbH", with: "&xxe;"))
            """
        #expect(refusal(doc) == "xml-dtd-refused")
        let passwd = """
            <?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>
            """
        #expect(refusal(passwd) == "xml-dtd-refused")
        #expect(!EInvoiceReader.isInvoice(Array(doc.utf8)))
    }

    @Test func externalDTDSubsetAndEntityAfterTheRootAreRefused() {
        #expect(refusal("<!DOCTYPE r SYSTEM \"file:///etc/passwd\"><r/>") == "xml-dtd-refused")
        // A declaration anywhere in the bytes, even where no parser would take it.
        #expect(refusal(InvoiceDocuments.cii + "<!-- <!ENTITY e \"x\"> -->") == "xml-dtd-refused")
    }

    @Test func billionLaughsIsRefusedFast() {
        var doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        for i in 1...9 { doc += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i == 1 ? "" : String(i - 1));", count: 10) + "\">\n" }
        doc += "]>\n<lolz>&lol9;</lolz>"
        var code = ""
        let t = seconds { code = refusal(doc) }
        #expect(code == "xml-dtd-refused")
        // Refused before parsing: microseconds. The bound only catches an expansion (seconds), on a loaded machine too.
        #expect(t < 2)
    }

    @Test func quadraticBlowupIsRefusedInWellUnderASecond() {
        let big = String(repeating: "a", count: 100_000)
        let doc = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY a \"\(big)\">]><r>" + String(repeating: "&a;", count: 100_000) + "</r>"
        var code = ""
        let t = seconds { code = refusal(doc) }
        #expect(code == "xml-dtd-refused")
        // Parsed, these 100,000 references cost libxml2 about 8 s; refused by the guard they cost nothing.
        #expect(t < 2)
    }

    /// Should a DTD ever get past the guards, the parser stops at it: libxml2 calls back at the DOCTYPE before it
    /// reads a declaration of its internal subset, and knows no entity but the five predefined ones.
    @Test func aDTDThatReachesTheParserStopsItBeforeAnyDeclaration() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let secret = dir.appendingPathComponent("secret.txt")
        try "SECRET-4711".write(to: secret, atomically: true, encoding: .utf8)
        var laughs = "<!ENTITY lol \"lol\">"
        for i in 1...9 { laughs += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i == 1 ? "" : String(i - 1));", count: 10) + "\">" }
        for doc in [
            "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"file://\(secret.path)\">]><r>&x;</r>",
            "<!DOCTYPE r SYSTEM \"file://\(secret.path)\"><r/>",
            "<?xml version=\"1.0\"?><!DOCTYPE lolz [\(laughs)]><lolz>&lol9;</lolz>"
        ] {
            let delegate = ReaderDelegate(rootOnly: false)
            var error: SAXParser.ParseError?
            let t = seconds { error = SAXParser.parse(Array(doc.utf8), delegate) }
            #expect(delegate.failure == .xmlDTDRefused, "\(doc): \(String(describing: error))")
            #expect(delegate.paths == nil && t < 2)
        }
        // Without a DTD, a reference to any other entity than the predefined ones is an error, not text.
        #expect(refusal(InvoiceDocuments.cii.replacingOccurrences(of: "Handwerker GmbH", with: "&x;")) == "xml-malformed")
        let predefined = InvoiceDocuments.cii.replacingOccurrences(of: "Handwerker GmbH", with: "Handwerker &lt;&amp;&gt; &#x47;mbH")
        guard case .success(let inv) = EInvoiceReader.read(Array(predefined.utf8)) else {
            Issue.record("the predefined entities and a character reference were refused")
            return
        }
        #expect(inv.seller.name == "Handwerker <&> GmbH")
    }

    @Test func otherEncodingsThanUTF8AreRefused() {
        let utf16 = Array(InvoiceDocuments.cii.replacingOccurrences(of: "UTF-8", with: "UTF-16").data(using: .utf16)!)
        #expect(utf16.starts(with: [0xFF, 0xFE]) || utf16.starts(with: [0xFE, 0xFF]))
        #expect(refusal(utf16) == "xml-not-utf8")
        // UTF-16 without a byte-order mark, which libxml2 detects from "<\0?\0".
        let bare = Array(InvoiceDocuments.cii.data(using: .utf16LittleEndian)!)
        #expect(refusal(bare) == "xml-not-utf8")
        let latin1 = InvoiceDocuments.cii.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"ISO-8859-1\"")
        guard case .failure(let f) = EInvoiceReader.read(Array(latin1.utf8)) else {
            Issue.record("ISO-8859-1 read")
            return
        }
        #expect(f.code == "xml-not-utf8" && f.message.contains("ISO-8859-1"))
        #expect(refusal([0x00, 0x00, 0xFE, 0xFF, 0, 0, 0, 0x3C]) == "xml-not-utf8")
        #expect(refusal([0x4C, 0x6F, 0xA7, 0x94, 0x93]) == "xml-not-utf8")
        #expect(!EInvoiceReader.isInvoice(utf16))
    }

    /// Found by `make fuzz`: one byte that is not UTF-8, in an element name or in text, made swift-corelibs-foundation's
    /// XMLParser trap (SIGILL in _NSXMLParserStartElementNs). Such bytes are refused before the parser sees them.
    @Test func bytesThatAreNotUTF8AreRefusedBeforeParsing() {
        var bytes = Array(InvoiceDocuments.cii.utf8)
        let at = bytes.firstIndex(of: UInt8(ascii: "S")) ?? 0
        #expect(at > 0)
        bytes[at] = 0xEC
        guard case .failure(let f) = EInvoiceReader.read(bytes) else {
            Issue.record("a document with a stray 0xEC byte was read")
            return
        }
        #expect(f.code == "xml-not-utf8" && f.message.contains("byte \(at)"))
        #expect(refusal(Array(InvoiceDocuments.cii.utf8) + [0xC3]) == "xml-not-utf8", "a sequence cut at the end")
        #expect(refusal(Array("<?xml version=\"1.0\"?><a>\u{00E9}</a>".utf8)) != "xml-not-utf8", "well-formed UTF-8 passes the guard")
    }

    @Test func truncatedDocumentIsMalformed() {
        let text = String(InvoiceDocuments.cii.prefix(InvoiceDocuments.cii.count / 2))
        guard case .failure(let f) = EInvoiceReader.read(Array(text.utf8)) else {
            Issue.record("a truncated document was read")
            return
        }
        #expect(f.code == "xml-malformed")
        #expect(f.message.contains("line ") && f.message.contains("column "))
        #expect(refusal("") == "xml-malformed")
        #expect(refusal("not xml at all") == "xml-malformed")
        #expect(refusal(InvoiceDocuments.cii.replacingOccurrences(of: "</ram:TypeCode>", with: "</ram:Typecode>")) == "xml-malformed")
    }

    @Test func wellFormedNonInvoiceIsNotAnInvoice() {
        guard case .failure(let f) = EInvoiceReader.read(Array("<html><body><p>Rechnung</p></body></html>".utf8)) else {
            Issue.record("html read as an invoice")
            return
        }
        #expect(f == .xmlNotAnInvoice(root: "html"))
        let wrongNamespace = InvoiceDocuments.cii.replacingOccurrences(of: "CrossIndustryInvoice:100\"", with: "CrossIndustryInvoice:999\"")
        #expect(refusal(wrongNamespace) == "xml-not-an-invoice")
    }

    @Test func seventeenMegabytesAreTooLargeWithoutParsing() {
        var bytes = Array(InvoiceDocuments.cii.utf8)
        bytes += [UInt8](repeating: 0x20, count: 17_000_000 - bytes.count)
        var result: Result<EInvoice, DocumentFailure>?
        let t = seconds { result = EInvoiceReader.read(bytes) }
        guard case .failure(let f)? = result else {
            Issue.record("17 MB read")
            return
        }
        #expect(f.code == "xml-too-large" && t < 2)
        #expect(!EInvoiceReader.isInvoice(bytes))
    }

    @Test func deepNestingIsRefused() {
        let deep = String(repeating: "<ram:X>", count: 100) + String(repeating: "</ram:X>", count: 100)
        let doc = InvoiceDocuments.cii.replacingOccurrences(of: "<rsm:ExchangedDocument>", with: "<rsm:ExchangedDocument>" + deep)
        guard case .failure(let f) = EInvoiceReader.read(Array(doc.utf8)) else {
            Issue.record("deep nesting read")
            return
        }
        #expect(f.code == "xml-malformed" && f.message.contains("64"))
        // 60 levels is still read.
        let shallow = String(repeating: "<ram:X>", count: 60) + String(repeating: "</ram:X>", count: 60)
        #expect(refusal(InvoiceDocuments.cii.replacingOccurrences(of: "<rsm:ExchangedDocument>", with: "<rsm:ExchangedDocument>" + shallow)) == "ok")
    }

    @Test func tooManyElementsAreRefused() {
        let many = String(repeating: "<ram:X/>", count: 200_001)
        let doc = InvoiceDocuments.cii.replacingOccurrences(of: "<rsm:ExchangedDocument>", with: "<rsm:ExchangedDocument>" + many)
        guard case .failure(let f) = EInvoiceReader.read(Array(doc.utf8)) else {
            Issue.record("200,001 elements read")
            return
        }
        #expect(f.code == "xml-malformed" && f.message.contains("200000"))
    }
}
