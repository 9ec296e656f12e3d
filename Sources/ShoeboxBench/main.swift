// shoebox-bench: measurements that are not tests (this VM's timing is too noisy for timed tests).
//   shoebox-bench parse OCR_CACHE_DIR         parse + merge time per OCR'd text (make bench-parse)
//   shoebox-bench duplicates OUT_DIR [SROIE]  precision and recall of the duplicate rules on a store made by
//                                             `shoebox run` over receipts and their re-scanned variants
//   shoebox-bench store N=URL…                the PostgreSQL work queue at N workers, one database each
//                                             (make bench-store)
//   shoebox-bench readers SROIE_DIR [--pages] MODEL.onnx…
//                                             the second reader's models on the SROIE line crops (make bench-readers)
import Foundation

let args = Array(CommandLine.arguments.dropFirst())
switch args.first {
case "parse" where args.count == 2: parseBench(cacheDirectory: args[1])
case "store" where args.count >= 2:
    storeBench(
        urls: Dictionary(
            uniqueKeysWithValues: args.dropFirst().compactMap { a -> (Int, String)? in
                let parts = a.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let n = Int(parts[0]) else { return nil }
                return (n, parts[1])
            }))
case "duplicates" where args.count >= 2: duplicateBench(outputDirectory: args[1], truth: args.count > 2 ? args[2] : nil)
case "readers" where args.count >= 3:
    readerBench(sroie: args[1], models: args.dropFirst(2).filter { $0 != "--pages" }, pages: args.contains("--pages"))
default:
    FileHandle.standardError.write(
        Data(
            "usage: shoebox-bench parse OCR_CACHE_DIR | shoebox-bench duplicates OUT_DIR [SROIE_DIR] | shoebox-bench store N=URL… | shoebox-bench readers SROIE_DIR [--pages] MODEL.onnx…\n"
                .utf8))
    exit(2)
}
