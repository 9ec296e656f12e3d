import Foundation

// libgomp (loaded with tesseract) reads OMP_THREAD_LIMIT when it loads, before main runs: setting it here
// is too late, so re-execute this binary with it set. Without it OCR on 2 cores is ~6× slower.
if getenv("OMP_THREAD_LIMIT") == nil {
    setenv("OMP_THREAD_LIMIT", "1", 1)
    execv("/proc/self/exe", CommandLine.unsafeArgv)
    // execv only returns on failure: carry on, slower but correct.
}
setlocale(LC_ALL, "C.UTF-8")
// Page images and tesseract's buffers are megabytes each: with glibc's defaults they stay in per-thread
// arenas after use, and a run's RSS follows the worst mix of pages it has met. Buffers of 256 KB and more
// are mapped and unmapped on their own, and two arenas serve the workers (measured on the 60 largest SROIE
// scans with two workers: peak RSS 520–589 MB with the defaults, 444 MB with these).
_ = glibcMallopt(-3, 256 * 1024)  // M_MMAP_THRESHOLD (malloc.h)
_ = glibcMallopt(-8, 2)           // M_ARENA_MAX

let arguments = Array(CommandLine.arguments.dropFirst())
exit(CommandLineTool.main(arguments))


/// glibc's mallopt (malloc.h is not part of the Glibc module).
@_silgen_name("mallopt") func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
