import Foundation
import ShoeboxCore
import ShoeboxEInvoice
import ShoeboxJudgement
import Testing

/// Invoices made large by what XRechnung allows them to carry: an `ram:AdditionalReferencedDocument` whose
/// `ram:AttachmentBinaryObject` holds a whole PDF (a delivery note, a time sheet) in base64. One text node of
/// many megabytes, above libxml2's 10,000,000-byte default limit for a text node, and under the 16 MiB bound.
@Suite struct LargeInvoiceTests {
    /// `count` bytes that do not repeat in any way a compressor or a parser would care about (xorshift64, eight
    /// bytes a step).
    static func noise(_ count: Int) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var words = [UInt64](repeating: 0, count: (count + 7) / 8)
        for i in words.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            words[i] = state
        }
        return words.withUnsafeBytes { Array($0.prefix(count)) }
    }

    /// `InvoiceDocuments.cii` with an attached document of `attachment` bytes, base64 in one line (as most
    /// writers put it) or in lines of 76 characters (MIME's, with CR LF between them), placed where the CII
    /// schema has it: in the header trade agreement, after the buyer.
    static func invoice(attachment: Int, wrapped: Bool) -> [UInt8] {
        let base64 = Data(noise(attachment)).base64EncodedString(
            options: wrapped ? [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed] : [])
        let document = """
            </ram:BuyerTradeParty>
                  <ram:AdditionalReferencedDocument>
                    <ram:IssuerAssignedID>LS-2024-0815</ram:IssuerAssignedID>
                    <ram:TypeCode>916</ram:TypeCode>
                    <ram:Name>Lieferschein mit Stundennachweis</ram:Name>
                    <ram:AttachmentBinaryObject mimeCode="application/pdf" filename="Lieferschein.pdf">\(base64)</ram:AttachmentBinaryObject>
                  </ram:AdditionalReferencedDocument>
            """
        return Array(InvoiceDocuments.cii.replacingOccurrences(of: "</ram:BuyerTradeParty>", with: document).utf8)
    }

    /// Reads `bytes` and checks the fields `InvoiceDocuments.cii` has, all of them read past the attachment too.
    static func expectTheInvoiceIsRead(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let inv: EInvoice
        switch EInvoiceReader.read(bytes) {
        case .success(let read): inv = read
        case .failure(let failure):
            Issue.record("refused: \(failure)", sourceLocation: sourceLocation)
            return
        }
        #expect(inv.syntax == .cii, sourceLocation: sourceLocation)
        #expect(inv.number == "RE-2024-0815" && inv.issueDate == CalendarDay(iso: "2024-11-15"), sourceLocation: sourceLocation)
        #expect(inv.seller.name == "Handwerker GmbH" && inv.seller.vatID == "DE123456789", sourceLocation: sourceLocation)
        #expect(inv.buyer.name == "Kunden AG Mitte" && inv.buyer.vatID == "DE987654321", sourceLocation: sourceLocation)
        // What comes after the attachment in the document: the delivery date, the settlement and its totals.
        #expect(inv.deliveryDate == CalendarDay(iso: "2024-11-14") && inv.dueDate == CalendarDay(iso: "2024-12-15"), sourceLocation: sourceLocation)
        #expect(inv.lines.map(\.id) == ["1", "1.1", "2"], sourceLocation: sourceLocation)
        #expect(inv.taxes.map(\.amount?.decimalString) == ["19.95", "0.00"], sourceLocation: sourceLocation)
        #expect(inv.totals.grand?.decimalString == "144.95" && inv.totals.due?.decimalString == "100.00", sourceLocation: sourceLocation)
        #expect(inv.payeeIBAN == "DE77370700600321987000", sourceLocation: sourceLocation)
        #expect(inv.problems().isEmpty, "\(inv.problems())", sourceLocation: sourceLocation)
        #expect(EInvoiceReader.isInvoice(bytes), sourceLocation: sourceLocation)
    }

    @Test func twelveMebibytesWithABase64AttachmentInOneLineAreRead() {
        let bytes = Self.invoice(attachment: 9 << 20, wrapped: false)
        // 12 MiB of base64 in one text node: past libxml2's 10,000,000 bytes, under the 16 MiB bound.
        #expect(bytes.count > 12 << 20 && bytes.count < DocumentFailure.maxInvoiceXMLBytes)
        Self.expectTheInvoiceIsRead(bytes)
    }

    @Test func nearlySixteenMebibytesWithAWrappedBase64AttachmentAreRead() {
        // 11.65 MB attached: 15.9 MB of base64 in lines of 76 characters, and the invoice around it.
        let bytes = Self.invoice(attachment: 11_650_000, wrapped: true)
        #expect(bytes.count > 15_900_000 && bytes.count <= DocumentFailure.maxInvoiceXMLBytes, "\(bytes.count)")
        Self.expectTheInvoiceIsRead(bytes)
    }

    @Test func anInvoiceJustOverSixteenMebibytesIsRefusedAsTooLargeUnparsed() {
        let bytes = Self.invoice(attachment: (12 << 20) + (64 << 10), wrapped: false)
        #expect(bytes.count > DocumentFailure.maxInvoiceXMLBytes)
        guard case .failure(let f) = EInvoiceReader.read(bytes) else {
            Issue.record("an invoice over 16 MiB was read")
            return
        }
        #expect(f.code == "xml-too-large")
        #expect(f.message.contains("limit of 16.0 MiB"), "\(f.message)")
        #expect(!EInvoiceReader.isInvoice(bytes))
    }
}
