internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

extension DocumentProcessor {
    /// Memory: what people confirmed of this merchant weighs in last, on the record the page gave (`shoebox rescore`
    /// does the same from that record). Keys from both readings: the second reader reads tax IDs and phones better.
    /// Returns the page's record with the keys its pages name, and the record once the memory weighed in.
    func recall(_ record: DocumentRecord, pages: [OCRPage], secondPages: [OCRPage]) -> (page: DocumentRecord, remembered: DocumentRecord) {
        var page = record
        page.merchantKeys = Array(Set(MerchantKey.keys(of: pages) + MerchantKey.keys(of: secondPages))).sorted()
        return (page, merge.merger.remember(memory.recall(page.merchantKeys), in: page))
    }
}
