import Foundation
import ShoeboxTestSupport
import Testing

/// Issue 34, part 3: a possible duplicate is a claim about the same purchase, through the built binary. Standalone
/// e-invoice XML (no OCR): the same invoice again is a possible duplicate; the same seller and number with another
/// total is a reissue, its own reason naming the other; another seller's invoice of that number, and the seller's
/// next invoice of the same total and day, are no suspects at all.
@Suite(.serialized) struct DuplicateClaimsEndToEndTests {
    /// A CII invoice (Factur-X MINIMUM) whose figures add up: net, 19 % tax, gross.
    static func cii(number: String, seller: String, vatID: String, net: Int, buyer: String = "Büro Schmidt") -> String {
        let tax = net * 19 / 100
        return ciiMinimumInvoice(
            number: number, seller: seller, vatID: vatID, buyer: buyer, net: "\(net).00", tax: "\(tax).00", grand: "\(net + tax).00")
    }

    @Test func anEInvoiceIsADuplicateOnlyWithItsSellerNumberAndTotal() throws {
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let scans = work.appendingPathComponent("scans")
        func write(_ path: String, _ xml: String) throws {
            let file = scans.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(xml.utf8).write(to: file)
        }
        let kiosk = (seller: "Kiosk am Eck", vatID: "DE111222333")
        try write("a/first.xml", Self.cii(number: "R-100", seller: kiosk.seller, vatID: kiosk.vatID, net: 100))
        // The same invoice, other bytes (the buyer written otherwise): a possible duplicate of a/first.xml.
        try write("b/copy.xml", Self.cii(number: "R-100", seller: kiosk.seller, vatID: kiosk.vatID, net: 100, buyer: "Buero Schmidt"))
        // The same seller and number with another total: corrected or reissued.
        try write("b/corrected.xml", Self.cii(number: "R-100", seller: kiosk.seller, vatID: kiosk.vatID, net: 200))
        // The seller's next invoice, the same total on the same day: another invoice.
        try write("c/next.xml", Self.cii(number: "R-101", seller: kiosk.seller, vatID: kiosk.vatID, net: 100))
        // Another seller's invoice of the same number, total and day (a sample number): never a duplicate.
        try write("c/other-seller.xml", Self.cii(number: "R-100", seller: "Bäckerei Sonne", vatID: "DE999888777", net: 100))
        let out = work.appendingPathComponent("out")
        let log = work.appendingPathComponent("run.jsonl")
        let run = try runProgram(shoebox, ["run", scans.path, "--out", out.path, "--today", today, "--log-json", log.path])
        #expect(run.code == 0, "\(run.out) \(run.err)")

        var bySource: [String: [String: Any]] = [:]
        for line in try String(contentsOf: out.appendingPathComponent("records.jsonl"), encoding: .utf8).split(separator: "\n") {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            bySource[try #require(o["source"] as? String)] = o
        }
        func reasons(_ path: String) -> [String] { bySource[path]?["reasons"] as? [String] ?? [] }
        func other(_ path: String) -> String? { bySource[path]?["duplicateOf"] as? String }
        let naming = ["possible-duplicate", "e-invoice-reissued", "same-paper-reads-differently"]
        #expect(reasons("a/first.xml").allSatisfy { !naming.contains($0) }, "\(reasons("a/first.xml"))")
        #expect(reasons("b/copy.xml").contains("possible-duplicate") && other("b/copy.xml") == "a/first.xml", "\(reasons("b/copy.xml"))")
        #expect(reasons("b/corrected.xml").contains("e-invoice-reissued"), "\(reasons("b/corrected.xml"))")
        #expect(!reasons("b/corrected.xml").contains("possible-duplicate"), "a reissue is not the same purchase")
        #expect(other("b/corrected.xml") == "a/first.xml", "the reissue names the other invoice")
        #expect(bySource["b/corrected.xml"]?["status"] as? String == "review")
        for path in ["c/next.xml", "c/other-seller.xml"] {
            #expect(reasons(path).allSatisfy { !naming.contains($0) }, "\(path): \(reasons(path))")
            #expect(other(path) == nil, "\(path)")
        }
        // The run says why, in a sentence that names the other record.
        let notes = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], o["event"] as? String == "note" else {
                return nil
            }
            return o["text"] as? String
        }
        #expect(
            notes.contains(
                "b/corrected.xml has the same seller and invoice number as a/first.xml with another total: a correction or reissue; "
                    + "check which one to keep"), "\(notes)")
        #expect(notes.contains("b/copy.xml may duplicate a/first.xml: the same seller, invoice number and total"), "\(notes)")
        let status = try runProgram(shoebox, ["status", "--out", out.path]).out
        #expect(status.contains("review  b/corrected.xml: e-invoice-reissued"), "\(status)")
    }
}
