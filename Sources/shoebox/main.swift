import Foundation
import ShoeboxPipeline

// libgomp (loaded with tesseract) reads OMP_THREAD_LIMIT when it loads, before main runs: setting it here
// is too late, so re-execute this binary with it set. Without it OCR on 2 cores is ~6× slower.
if getenv("OMP_THREAD_LIMIT") == nil {
    setenv("OMP_THREAD_LIMIT", "1", 1)
    execv("/proc/self/exe", CommandLine.unsafeArgv)
    // execv only returns on failure: carry on, slower but correct.
}
// ONNX Runtime (the second reader, loaded later) sends usage events to Microsoft unless this is set: Shoebox
// never touches the network. Set while the process has one thread, whatever the caller's environment says.
setenv("ORT_DISABLE_TELEMETRY", "1", 1)
setlocale(LC_ALL, "C.UTF-8")
Malloc.configure()

let arguments = Array(CommandLine.arguments.dropFirst())
exit(CommandLineTool.main(arguments).rawValue)
