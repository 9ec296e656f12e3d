// Precision and recall of `DuplicateRules` over every pair of documents in a store. Documents are the same
// paper when their file names share the part before the first dot (`X51005361895.jpg`, `X51005361895.rm3.jpg`).
// With a SROIE folder, pairs of different receipts from the same company (by its ground truth) are counted
// apart: the hard negatives; so are the same purchase on other days from `shoebox-fixtures --same-purchase` (`<id>--d3`).
// A pair is found when a rule claims the same paper or purchase (`possible-duplicate`, `same-paper-reads-differently`);
// `e-invoice-reissued` claims another invoice of the same number, and is counted apart (neither right nor wrong).
import Foundation
import ShoeboxCore
import ShoeboxJudgement
import ShoeboxStore

func duplicateBench(outputDirectory: String, truth: String?) {
    let store: Store
    let records: [DocumentRecord]
    let prints: [String: PageFingerprint]
    let texts: [String: String]
    do {
        store = try Store(directory: outputDirectory)
        records = try store.records().filter { $0.status != .failed }
        prints = try store.fingerprints()
        texts = try store.firstPageTexts()
    } catch {
        FileHandle.standardError.write(Data("shoebox-bench: \(error)\n".utf8))
        exit(1)
    }
    func base(_ path: String) -> String { String(PathText.lastComponent(of: path).split(separator: ".").first ?? "") }
    func company(_ id: String) -> String? {
        guard let truth, let data = FileManager.default.contents(atPath: "\(truth)/\(id).json"),
            let o = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let c = o["company"] as? String
        else { return nil }
        return c.uppercased().trimmingCharacters(in: .whitespaces)
    }
    // The fixture generator's same purchase on other days (`shoebox-fixtures --same-purchase`): `<id>--d3`.
    func shop(_ id: String) -> String? { id.range(of: "--").map { String(id[..<$0.lowerBound]) } }
    let rules = DuplicateRules(windowHours: PipelineConfig().duplicateWindowHours)
    let entries = records.map { DuplicateRules.Entry($0, fingerprint: prints[$0.source], firstPageText: texts[$0.source]) }
    let ids = records.map { base($0.source) }
    var companies: [String: String] = [:]
    for id in Set(ids) { companies[id] = company(id) }
    var tp = 0
    var fn = 0
    var fp = 0
    var fpHard = 0
    var negatives = 0
    var hard = 0
    var byWhy: [String: Int] = [:]
    var misses: [String] = []
    var falseAlarms: [String] = []
    var reissues: [String] = []
    var readOtherwise: [String] = []
    for i in entries.indices {
        for j in entries.indices where j > i {
            let same = ids[i] == ids[j]
            var found = rules.match(entries[j], in: [entries[i]]) ?? rules.match(entries[i], in: [entries[j]])
            if let f = found, f.reason == .eInvoiceReissued {
                reissues.append("\(records[i].source) ~ \(records[j].source)\(same ? " (the same paper)" : "")")
                found = nil
            }
            if same {
                if let found {
                    tp += 1
                    if found.reason == .samePaperReadsDifferently {
                        readOtherwise.append("\(records[i].source) ~ \(records[j].source): \(found.why)")
                    }
                    byWhy["\(found.why) (\(found.reason.code))", default: 0] += 1
                } else {
                    fn += 1
                    misses.append("\(records[i].source) ~ \(records[j].source)")
                }
            } else {
                negatives += 1
                let isHard = (companies[ids[i]] != nil && companies[ids[i]] == companies[ids[j]]) || shop(ids[i]).map { $0 == shop(ids[j]) } == true
                if isHard { hard += 1 }
                if let found {
                    fp += 1
                    if isHard { fpHard += 1 }
                    falseAlarms.append("\(records[i].source) ~ \(records[j].source): \(found.why) (\(found.reason.code))")
                }
            }
        }
    }
    let precision = tp + fp == 0 ? 1 : Double(tp) / Double(tp + fp)
    let recall = tp + fn == 0 ? 0 : Double(tp) / Double(tp + fn)
    print("duplicates: \(records.count) documents, \(tp + fn) same-paper pairs, \(negatives) other pairs (\(hard) of the same company)")
    print(
        String(
            format: "precision %.4f (%d right, %d wrong, %d of them same company), recall %.4f (%d of %d)  [targets: ≥ 0.98, ≥ 0.95]",
            precision, tp, fp, fpHard, recall, tp, tp + fn))
    for (why, n) in byWhy.sorted(by: { $0.value > $1.value }) { print("  found by \(why): \(n)") }
    print("fingerprints: \(prints.count) of \(records.count) documents")
    print("e-invoice-reissued (not counted above): \(reissues.count)")
    for m in reissues.prefix(20) { print("  reissued: \(m)") }
    for m in falseAlarms.prefix(30) { print("  wrong: \(m)") }
    for m in misses.prefix(20) { print("  missed: \(m)") }
    for m in readOtherwise.prefix(10) { print("  read otherwise: \(m)") }
}
