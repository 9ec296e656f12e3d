public import Foundation

/// Labels of a data set that the page itself contradicts, each with the value the page shows was paid and the printed
/// lines that show it (`baselines/devset-errata.json`, `shoebox regress --errata`). They change what the trust model is
/// fitted and its accept curve measured against; the per-field scores and the baseline stay as labelled, so every
/// figure can be compared with earlier runs and with anyone else's use of the labels.
///
/// Only classes belong here, never a reading Shoebox merely disagrees with: a sub-total before a coupon labelled as the
/// total where the page prints the grand total paid, a total before a cash rounding where the page prints the rounded
/// amount paid and the tender and change confirm it.
public struct LabelErrata: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// The document as regress names it (relative to its expectation file's folder).
        public let document: String
        public let field: String
        /// The label as the data set has it: an entry whose label no longer matches is stale and refused.
        public let label: String
        /// What the page shows.
        public let corrected: String
        /// The class of label error, for people ("sub-total before a coupon").
        public let labelClass: String
        /// The printed lines that show it.
        public let evidence: String
    }

    public let entries: [Entry]

    public init(entries: [Entry] = []) { self.entries = entries }

    /// The fields an entry may correct: the ones the accept gate asks about.
    public static let fields: Set<String> = ["total", "date", "currency"]
    /// An errata file is a short list made by hand.
    public static let maxFileBytes = 256 * 1024

    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Parses the file: a JSON array of objects with "document", "field", "label", "corrected", "class" and "evidence",
    /// every one a non-empty string, one entry per document and field.
    public static func parse(_ data: Data, file: String) throws(Invalid) -> LabelErrata {
        guard let array = try? JSONSerialization.jsonObject(with: data) as? [Any] else {
            throw Invalid(description: "\(file) is not a JSON array of label corrections")
        }
        var entries: [Entry] = []
        var seen: Set<String> = []
        for (i, item) in array.enumerated() {
            let keys = ["document", "field", "label", "corrected", "class", "evidence"]
            guard let o = item as? [String: Any] else { throw Invalid(description: "\(file), entry \(i + 1): not an object") }
            if let unknown = o.keys.sorted().first(where: { !keys.contains($0) }) {
                throw Invalid(description: "\(file), entry \(i + 1): unknown key \"\(unknown)\" (known: \(keys.joined(separator: ", ")))")
            }
            var v: [String: String] = [:]
            for k in keys {
                guard let s = o[k] as? String, !s.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw Invalid(description: "\(file), entry \(i + 1): \"\(k)\" must be a non-empty string")
                }
                v[k] = s
            }
            guard fields.contains(v["field"]!) else {
                throw Invalid(
                    description:
                        "\(file), entry \(i + 1): field \"\(v["field"]!)\" cannot be corrected (only \(fields.sorted().joined(separator: ", ")))")
            }
            guard v["label"] != v["corrected"] else {
                throw Invalid(description: "\(file), entry \(i + 1): the corrected value is the label itself")
            }
            guard seen.insert(v["document"]! + "\u{0}" + v["field"]!).inserted else {
                throw Invalid(description: "\(file), entry \(i + 1): \(v["document"]!) \(v["field"]!) is corrected twice")
            }
            entries.append(
                Entry(
                    document: v["document"]!, field: v["field"]!, label: v["label"]!, corrected: v["corrected"]!, labelClass: v["class"]!,
                    evidence: v["evidence"]!))
        }
        return LabelErrata(entries: entries)
    }

    /// The entries that name no document of the suite, or a label the suite no longer has: each a sentence.
    public func stale(against cases: [RegressionCase]) -> [String] {
        let byDocument = Dictionary(cases.map { ($0.document, $0) }, uniquingKeysWith: { a, _ in a })
        return entries.compactMap { e in
            guard let c = byDocument[e.document] else { return "\(e.document) is not a document of the suite" }
            guard c.expected[e.field] == e.label else {
                return "\(e.document) \(e.field): the label is \"\(c.expected[e.field] ?? "(none)")\", not \"\(e.label)\""
            }
            return nil
        }
    }

    /// A case's expected values with its corrections applied.
    public func corrected(_ c: RegressionCase) -> RegressionCase {
        let mine = entries.filter { $0.document == c.document }
        guard !mine.isEmpty else { return c }
        var expected = c.expected
        for e in mine where expected[e.field] == e.label { expected[e.field] = e.corrected }
        return RegressionCase(document: c.document, expected: expected, format: c.format)
    }
}
