import Foundation
import ShoeboxCore
import ShoeboxParsing
import Testing

/// The same page parses to the same extraction every time. A dictionary's or a set's order differs between
/// instances and between processes (Swift seeds each table's hashing), so a parse that takes "the first" of one
/// gives different evidence, candidates or scores from run to run: a record that changes when nothing did.
struct SameParseTests {
    let parser = ReceiptParser(today: CalendarDay(year: 2026, month: 12, day: 7)!)

    /// Pages whose arithmetic has several candidates of a kind: tax per rate, a tax summary table, rounding,
    /// tendered and change, several totals.
    static let pages: [[String]] = [
        [
            "RESTORAN MAJU", "Sub Total (Excluded GST) 10.94", "Total GST 0.66", "TOTAL 11.60", "GST SUMMARY", "TaxCode % Amount GST",
            "SR 6 10.94 0.66", "Total : 10.94 0.66"
        ],
        [
            "Bäckerei Huber GmbH & Co. KG", "12.03.24 08:15", "Brezel 7% 1,20", "Kaffee 19% 2,90", "Netto 3,54", "MwSt 7% 0,08",
            "MwSt 19% 0,46", "Summe EUR 4,10", "Bar 5,00", "Rückgeld 0,90"
        ],
        [
            "Boulangerie Martin SARL", "Total HT 100,00", "TVA 5,5 % 2,75", "TVA 20 % 15,00", "TVA 10 % 4,00", "Total TTC 121,75",
            "CB 121,75"
        ],
        ["KEDAI MAJU SDN BHD", "Total Incl GST 20.03", "Rounding 0.02-", "Net Total 20.05", "CASH 50.00", "CHANGE 29.95"],
        ["Acme Supplies Ltd", "Net Total 250.00", "VAT 20% 50.00", "Invoice Total 300.00", "Total due 300.00", "Paid 300.00"]
    ]

    @Test(arguments: SameParseTests.pages)
    func aPageParsesTheSameEveryTime(lines: [String]) throws {
        let first = try SameParseTests.canonical(parser.parse(pages: [page(lines)], language: "eng"))
        for _ in 0..<60 {
            let again = try SameParseTests.canonical(parser.parse(pages: [page(lines)], language: "eng"))
            #expect(again == first, "\(lines[0]): the parse changed between two runs on the same page")
            if again != first { return }
        }
    }

    /// The extraction as JSON, its sets (which JSON writes in the set's own order) sorted: what differs then is
    /// what the parser decided differently.
    static func canonical(_ e: Extraction) throws -> String {
        let sets: Set<String> = ["checks", "printedYears", "yearsContradicted", "yearsMended", "orderUnsettledDates"]
        func sorted(_ value: Any, key: String?) throws -> Any {
            if let d = value as? [String: Any] {
                return try Dictionary(uniqueKeysWithValues: d.map { ($0.key, try sorted($0.value, key: $0.key)) })
            }
            if let a = value as? [Any] {
                let items = try a.map { try sorted($0, key: nil) }
                guard let key, sets.contains(key) else { return items }
                return try items.map { try text($0) }.sorted()
            }
            return value
        }
        func text(_ value: Any) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
        }
        return try text(sorted(JSONSerialization.jsonObject(with: JSONEncoder().encode(e)), key: nil))
    }
}
