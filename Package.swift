// swift-tools-version:6.0
// Shoebox: batch receipt processing. No Swift package dependencies; C libraries come from Debian.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault")
]

let package = Package(
    name: "Shoebox",
    products: [
        .executable(name: "shoebox", targets: ["shoebox"])
    ],
    targets: [
        // System libraries. tesseract links by name: tesseract.pc drags in -lcurl (platform notes).
        .systemLibrary(name: "CTesseract", providers: [.apt(["libtesseract-dev"])]),
        .systemLibrary(name: "CLeptonica", pkgConfig: "lept", providers: [.apt(["libleptonica-dev"])]),
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler-glib", providers: [.apt(["libpoppler-glib-dev", "libcairo2-dev"])]),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CXlsxWriter", pkgConfig: "xlsxwriter", providers: [.apt(["libxlsxwriter-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libpq: the store on a PostgreSQL server that workers on many machines share.
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // libxml2's SAX2 parser, with XML_PARSE_HUGE: Foundation's XMLParser cannot set it, and without it libxml2
        // stops at 10,000,000 bytes of one text node (a base64 attachment in an XRechnung).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // cld2 is C++ without a .pc file: a tiny extern "C" shim keeps Swift on plain C interop.
        .target(name: "CLD2Shim", linkerSettings: [.linkedLibrary("cld2")]),
        // Library functions defined in the executable, so that tesseract's calls land there: its text-line images
        // kept uncompressed, its page image not copied, its universal ambiguity table left unbuilt for LSTM-only
        // models (include/tesseract_patches.h says how and why; ShoeboxEngines/TesseractPatches.swift checks them).
        .target(name: "TesseractPatches", dependencies: ["CLeptonica", "CTesseract"]),
        // A JPEG decoded straight to gray, as leptonica's reader and its RGB-to-gray conversion give it (gray_jpeg.c).
        .target(name: "GrayJPEG", dependencies: ["CLeptonica"], linkerSettings: [.linkedLibrary("jpeg")]),
        // A PDF page's images as stored (qpdf): their size before decoding, a JPEG's own bytes, fax data as a TIFF,
        // Flate pixels row by row (pdf_images.c).
        // The document a worker thread was reading, written to a file when the process crashes (crash_note.c).
        .target(name: "CrashNote"),
        // PP-OCR text-line recognition through ONNX Runtime's C API, the library opened with dlopen (ppocr.c): the
        // second reader, present when `make setup` installed its parts.
        .target(name: "PPOCR", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("m")]),
        // A web server bound to 127.0.0.1 over libmicrohttpd, whose start is variadic (local_http.c): `shoebox serve`.
        .target(name: "LocalHTTP", linkerSettings: [.linkedLibrary("microhttpd")]),
        .target(name: "PDFImages", dependencies: ["CLeptonica"], linkerSettings: [.linkedLibrary("qpdf"), .linkedLibrary("z")]),

        // Pure domain: imports no C module. The values every module shares: money, calendar days, records, reasons,
        // failures, OCR pages.
        .target(name: "ShoeboxCore", swiftSettings: swiftSettings),
        // What text says before any layout: amounts, dates, keyword lists, payment and contract terms, tax IDs, and the
        // other sources (sidecars, file names, folder settings). No parser line: text in, typed values out.
        .target(name: "ShoeboxReading", dependencies: ["ShoeboxCore"], swiftSettings: swiftSettings),
        // The receipt parser: OCR pages, their lines and layout → `Extraction`.
        .target(name: "ShoeboxParsing", dependencies: ["ShoeboxCore", "ShoeboxReading"], swiftSettings: swiftSettings),
        // Merge, trust, duplicate rules, merchant memory, deadlines, recurring charges, review validation.
        // The calibrated trust model's parameters (`shoebox regress --fit` writes them) are data, compiled in.
        .target(
            name: "ShoeboxJudgement", dependencies: ["ShoeboxCore", "ShoeboxParsing", "ShoeboxReading"],
            resources: [.embedInCode("calibration.json")],
            swiftSettings: swiftSettings),
        // Page images in pure Swift: scaling, rotation, fingerprints.
        .target(name: "ShoeboxImaging", dependencies: ["ShoeboxCore"], swiftSettings: swiftSettings),
        // The regression harness: expectation files in four formats and the report `shoebox regress` writes.
        .target(
            name: "ShoeboxRegression", dependencies: ["ShoeboxCore", "ShoeboxParsing", "ShoeboxReading", "ShoeboxJudgement", "ShoeboxEInvoice"],
            swiftSettings: swiftSettings),
        // Structured e-invoices (CII, ZUGFeRD 1.0, UBL) read from their XML with libxml2's SAX2 parser.
        .target(name: "ShoeboxEInvoice", dependencies: ["ShoeboxCore", "CLibXML2"], swiftSettings: swiftSettings),
        // Thin owners of C handles.
        .target(
            name: "ShoeboxEngines",
            dependencies: [
                "ShoeboxCore", "ShoeboxImaging", "CTesseract", "CLeptonica", "CPoppler", "CLD2Shim", "TesseractPatches", "PDFImages",
                "GrayJPEG", "PPOCR"
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "ShoeboxStore", dependencies: ["ShoeboxCore", "CSQLite", "CPostgres"],
            swiftSettings: swiftSettings),
        .target(
            name: "ShoeboxPipeline",
            dependencies: [
                "ShoeboxCore", "ShoeboxParsing", "ShoeboxReading", "ShoeboxJudgement", "ShoeboxImaging", "ShoeboxEngines", "ShoeboxStore",
                "ShoeboxEInvoice",
                "CrashNote"
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "ShoeboxExport", dependencies: ["ShoeboxCore", "ShoeboxJudgement", "ShoeboxStore", "CArchive", "CXlsxWriter"],
            swiftSettings: swiftSettings),
        // `shoebox serve`: review in the browser, served from inside the binary.
        .target(
            name: "ShoeboxServe",
            dependencies: ["ShoeboxCore", "ShoeboxJudgement", "ShoeboxStore", "ShoeboxEngines", "ShoeboxImaging", "LocalHTTP"],
            resources: [.embedInCode("app.html"), .embedInCode("app.js"), .embedInCode("app.css")], swiftSettings: swiftSettings),
        .executableTarget(
            name: "shoebox",
            dependencies: [
                "ShoeboxCore", "ShoeboxParsing", "ShoeboxReading", "ShoeboxJudgement", "ShoeboxEngines", "ShoeboxStore", "ShoeboxPipeline",
                "ShoeboxExport",
                "ShoeboxRegression", "ShoeboxServe"
            ],
            swiftSettings: swiftSettings),
        // Renders the synthetic receipts in Fixtures/ (run by `make fixtures`; output is committed).
        .executableTarget(
            name: "shoebox-fixtures", dependencies: ["ShoeboxCore", "CPoppler", "CLeptonica"],
            path: "Sources/FixtureGenerator", swiftSettings: swiftSettings),

        // Reads files named on stdin as a run does up to OCR, for the fuzz target: `make fuzz` (fuzz/fuzz.py).
        .executableTarget(
            name: "shoebox-fuzz", dependencies: ["ShoeboxPipeline"], path: "Sources/ShoeboxFuzz",
            swiftSettings: swiftSettings),

        // Benchmarks that are not timed tests: `make bench-parse`.
        .executableTarget(
            name: "shoebox-bench",
            dependencies: [
                "ShoeboxCore", "ShoeboxParsing", "ShoeboxReading", "ShoeboxJudgement", "ShoeboxEngines", "ShoeboxPipeline", "ShoeboxStore"
            ],
            path: "Sources/ShoeboxBench", swiftSettings: swiftSettings),
        // Helpers shared by the test targets: fixture paths, temporary folders, running programs.
        .target(name: "ShoeboxTestSupport", path: "Tests/ShoeboxTestSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "ShoeboxCoreTests", dependencies: ["ShoeboxCore", "ShoeboxParsing", "ShoeboxReading", "ShoeboxJudgement", "ShoeboxExport"],
            swiftSettings: swiftSettings),
        .testTarget(name: "ShoeboxImagingTests", dependencies: ["ShoeboxCore", "ShoeboxImaging"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ShoeboxEInvoiceTests", dependencies: ["ShoeboxCore", "ShoeboxJudgement", "ShoeboxEInvoice", "ShoeboxTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ShoeboxRegressionTests", dependencies: ["ShoeboxCore", "ShoeboxJudgement", "ShoeboxRegression"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ShoeboxEngineTests",
            dependencies: [
                "ShoeboxCore", "ShoeboxJudgement", "ShoeboxImaging", "ShoeboxEngines", "ShoeboxStore", "ShoeboxPipeline", "ShoeboxExport",
                "ShoeboxTestSupport"
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ShoeboxEndToEndTests", dependencies: ["ShoeboxCore", "ShoeboxParsing", "ShoeboxReading", "ShoeboxJudgement", "ShoeboxTestSupport"],
            swiftSettings: swiftSettings)
    ]
)
