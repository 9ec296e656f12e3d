import Foundation
import ShoeboxPipeline

// libgomp (loaded with tesseract) reads OMP_THREAD_LIMIT when it loads, before main runs: setting it here
// is too late, so re-execute this binary with it set. Without it OCR on 2 cores is ~6× slower.
if getenv("OMP_THREAD_LIMIT") == nil {
    setenv("OMP_THREAD_LIMIT", "1", 1)
    execv("/proc/self/exe", CommandLine.unsafeArgv)
    // execv only returns on failure: carry on, slower but correct.
}
setlocale(LC_ALL, "C.UTF-8")
Malloc.configure()

let arguments = Array(CommandLine.arguments.dropFirst())
exit(CommandLineTool.main(arguments).rawValue)
