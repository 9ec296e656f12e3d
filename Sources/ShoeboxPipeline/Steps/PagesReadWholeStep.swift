internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

/// Which fields a whole page's second reading is for: the required ones among the merchant, the date and the total
/// that are missing, or on which the two readers disagree. The one place that reads a record's reasons for it.
enum WholePageTrigger {
    static let fields: [Field] = [.merchant, .date, .total]

    static func fields(of record: DocumentRecord, required: [Field]) -> Set<Field> {
        Set(fields.filter { f in required.contains(f) && (record.reasons.contains(.missing(f)) || record.reasons.contains(.readersDisagree(f))) })
    }
}

extension DocumentProcessor {
    /// Pages read whole: where a required field is missing, or the two readers disagree on it, the first and the last
    /// page are detected and read whole by the second reader (a date or a total on a line tesseract never found, or
    /// found split, is on one of its lines); its candidates join for those fields (nil when nothing was read), and the
    /// record is merged again (by the list, with Merge's function).
    func readPagesWhole(
        _ reading: Reading, record: DocumentRecord, extraction: Extraction, exact: Bool, as kind: ParseAs, reader: inout PassReader
    ) -> Extraction? {
        guard config.wholePageReading, let second, second.detector != nil, !exact, reader.hasImages else { return nil }
        let fields = WholePageTrigger.fields(of: record, required: config.requiredFields)
        guard !fields.isEmpty else { return nil }
        // Its own tally as well (the second reader's tallies count it too): what this step costs, in `--log-json`.
        let read = cpu.measure("pages-read-whole") { reader.pagesReadWhole(of: reading, by: second) }
        guard let pages = read else { return nil }
        return extraction.union(parsed(pages, as: kind), fields: fields)
    }
}
