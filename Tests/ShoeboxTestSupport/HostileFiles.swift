public import Foundation

/// A PDF of `objects` (numbered from 1; object 1 is the catalog) with a correct cross-reference table.
public func pdfFile(_ objects: [[UInt8]]) -> Data {
    var pdf = Array("%PDF-1.4\n".utf8)
    var offsets: [Int] = []
    for (i, body) in objects.enumerated() {
        offsets.append(pdf.count)
        pdf += Array("\(i + 1) 0 obj\n".utf8) + body + Array("\nendobj\n".utf8)
    }
    let xref = pdf.count
    pdf += Array("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
    for offset in offsets { pdf += Array(String(format: "%010d 00000 n \n", offset).utf8) }
    pdf += Array("trailer\n<</Size \(objects.count + 1)/Root 1 0 R>>\nstartxref\n\(xref)\n%%EOF\n".utf8)
    return Data(pdf)
}

/// A stream object's body: `dictionary` (without << >>, /Length added) and `data`.
public func pdfStream(_ dictionary: String, _ data: [UInt8]) -> [UInt8] {
    Array("<<\(dictionary)/Length \(data.count)>>\nstream\n".utf8) + data + Array("\nendstream".utf8)
}

/// A one-page PDF: catalog (1), pages (2), the page (3) with `mediaBox` and `resources`, its content (4), then
/// `extra` objects from 5 on (for the resources to refer to).
public func onePagePDF(mediaBox: String, resources: String = "", content: String, extra: [[UInt8]] = []) -> Data {
    pdfFile(
        [
            Array("<</Type/Catalog/Pages 2 0 R>>".utf8),
            Array("<</Type/Pages/Kids[3 0 R]/Count 1>>".utf8),
            Array("<</Type/Page/Parent 2 0 R/MediaBox[\(mediaBox)]/Resources<<\(resources)>>/Contents 4 0 R>>".utf8),
            pdfStream("", Array(content.utf8))
        ] + extra)
}

/// A PNG with its IHDR width and height replaced (and the chunk's CRC made right again, so that the reader
/// believes them).
public func pngDeclaring(_ png: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
    var b = png
    for (i, v) in [width, height].enumerated() {
        for k in 0..<4 { b[16 + 4 * i + k] = UInt8(truncatingIfNeeded: v >> (24 - 8 * k)) }
    }
    let crc = crc32(Array(b[12..<29]))
    for k in 0..<4 { b[29 + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * k)) }
    return b
}

/// A little-endian TIFF with the first directory's width and height (tags 256, 257) set to `width` × `height`,
/// written as LONGs.
public func tiffDeclaring(_ tiff: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
    var b = tiff
    func u16(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
    func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
    func put(_ at: Int, _ v: UInt32, bytes: Int) { for k in 0..<bytes { b[at + k] = UInt8(truncatingIfNeeded: v >> (8 * k)) } }
    let ifd = u32(4)
    for i in 0..<u16(ifd) {
        let e = ifd + 2 + 12 * i
        let tag = u16(e)
        guard tag == 256 || tag == 257 else { continue }
        put(e + 2, 4, bytes: 2)
        put(e + 4, 1, bytes: 4)
        put(e + 8, tag == 256 ? width : height, bytes: 4)
    }
    return b
}

/// CRC-32 (ISO 3309, as PNG uses it).
public func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// Runs ImageMagick's `convert` with `arguments` (one thread: the machine is shared) and returns the bytes it
/// wrote to `output`.
public func imageMagick(_ arguments: [String], output: URL) throws -> [UInt8] {
    guard let convert = which("convert") else { throw FixtureMissing(path: "convert (imagemagick: make setup)") }
    let r = try runProgram(convert, arguments + [output.path], environment: ["MAGICK_THREAD_LIMIT": "1", "PATH": "/usr/bin:/bin"])
    guard r.code == 0, let data = FileManager.default.contents(atPath: output.path) else {
        throw FixtureMissing(path: "\(output.path) (convert: \(r.err))")
    }
    return [UInt8](data)
}

/// A CII invoice (Factur-X MINIMUM): its number, issue day (yyyyMMdd), seller with VAT ID, buyer, and its sums as the
/// XML writes them (a test that makes them disagree passes its own).
public func ciiMinimumInvoice(
    number: String, issued: String = "20261101", seller: String, vatID: String = "DE111222333", buyer: String = "Büro Schmidt",
    net: String = "100.00", tax: String = "19.00", grand: String = "119.00"
) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" \
    xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" \
    xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
      <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:factur-x.eu:1p0:minimum</ram:ID>\
    </ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
      <rsm:ExchangedDocument><ram:ID>\(number)</ram:ID><ram:TypeCode>380</ram:TypeCode>
        <ram:IssueDateTime><udt:DateTimeString format="102">\(issued)</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
      <rsm:SupplyChainTradeTransaction>
        <ram:ApplicableHeaderTradeAgreement><ram:SellerTradeParty><ram:Name>\(seller)</ram:Name>
          <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">\(vatID)</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>
          <ram:BuyerTradeParty><ram:Name>\(buyer)</ram:Name></ram:BuyerTradeParty></ram:ApplicableHeaderTradeAgreement>
        <ram:ApplicableHeaderTradeDelivery/>
        <ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
          <ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:TaxBasisTotalAmount>\(net)</ram:TaxBasisTotalAmount>
            <ram:TaxTotalAmount currencyID="EUR">\(tax)</ram:TaxTotalAmount><ram:GrandTotalAmount>\(grand)</ram:GrandTotalAmount>
            <ram:DuePayableAmount>\(grand)</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
        </ram:ApplicableHeaderTradeSettlement>
      </rsm:SupplyChainTradeTransaction>
    </rsm:CrossIndustryInvoice>
    """
}
