internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

extension DocumentProcessor {
    /// Memory: what people confirmed of this merchant weighs in last, on the record the page gave (`shoebox rescore`
    /// does the same from that record). Keys from both readings: the second reader reads tax IDs and phones better.
    func recall(_ state: inout DocumentState) {
        state.record.merchantKeys = Array(Set(MerchantKey.keys(of: state.reading.pages) + MerchantKey.keys(of: state.secondPages))).sorted()
        state.remembered = merge.merger.remember(memory.recall(state.record.merchantKeys), in: state.record)
    }
}
