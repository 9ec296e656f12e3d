/// glibc's allocator, tuned for a run: page images and tesseract's buffers are megabytes each. In one place
/// because both settings answer the same concern (the peak memory of a long run with several workers).
public enum Malloc {
    /// Called once at start-up, before any thread. With glibc's defaults big buffers stay in per-thread arenas
    /// after use, and a run's RSS follows the worst mix of pages it has met: buffers of 256 KB and more are
    /// mapped and unmapped on their own, and two arenas serve the workers.
    public static func configure() {
        _ = glibcMallopt(-3, 256 * 1024) // M_MMAP_THRESHOLD (malloc.h)
        _ = glibcMallopt(-8, 2) // M_ARENA_MAX
    }

    /// Hands freed memory back to the system; a worker calls it after each document. Freed pieces of a long
    /// run's heap otherwise stay resident between the live ones, and a long run's peak grows with its length.
    static func releaseFreed() { _ = glibcMallocTrim(0) }
}

// malloc.h is not part of the Glibc module.
@_silgen_name("mallopt") private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
@_silgen_name("malloc_trim") private func glibcMallocTrim(_ pad: Int) -> Int32
