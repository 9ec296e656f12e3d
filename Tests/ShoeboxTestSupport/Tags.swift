public import Testing

extension Tag {
    /// Tests that read whole documents with tesseract (the engine on the fixtures, the built binary on a folder):
    /// the slow part of the suite. `make test-fast` skips them; `make test` runs everything.
    @Tag public static var ocr: Self
    /// Tests slow for another reason than OCR (tens of megabytes hashed by a debug build, hundreds of fuzzed
    /// files decoded). `make test-fast` skips them too.
    @Tag public static var slow: Self
}
