# Shoebox — the two commands a fresh machine needs: `make run` and `make test`.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
# libgomp reads this when it loads: OCR on 2 cores is ~6x slower without it (platform notes).
export OMP_THREAD_LIMIT := 1

# Every Debian package the build, the tests and the fixture generator need.
PACKAGES := pkg-config libtesseract-dev libleptonica-dev libpoppler-glib-dev libcairo2-dev libarchive-dev \
	libsqlite3-dev libcld2-dev libxlsxwriter-dev libqpdf-dev libxml2 libxml2-dev zlib1g-dev libjpeg62-turbo-dev tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-spa tesseract-ocr-fra \
	tesseract-ocr-msa tesseract-ocr-osd unzip zip poppler-utils python3 python3-pip python3-venv python3-openpyxl qpdf sqlite3 imagemagick strace util-linux \
	fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-freefont-ttf libmicrohttpd-dev curl \
	chromium chromium-driver python3-selenium python3-icalendar postgresql libpq-dev faketime

SAMPLE := Fixtures/sample-scans
OUT := shoebox-out
TODAY ?= $(shell date +%F)

# Where `make setup` installs the second reader's parts (readers/install.sh) and where shoebox looks for them
# (SHOEBOX_READERS overrides the place at run time).
READERS ?= /usr/local/lib/shoebox

DEVSET := ../shared/devset
# What each devset folder's .shoebox.json would say, as a user's would (the devset is not ours to write in).
DEVSET_FOLDERS := baselines/devset-folders.json
# Devset labels the page itself contradicts (a sub-total before a coupon, a total before the cash rounding): the trust
# model and its accept curve are measured against them corrected; field scores stay as labelled.
DEVSET_ERRATA := baselines/devset-errata.json
OCR_CACHE := .build/ocr-cache
# The official MCP Python SDK, pinned, in a venv of its own: the client Tests/agents/mcp_session.py drives
# `shoebox mcp` with (from the Python registry; the only package the tests fetch).
MCP_SDK := mcp==2.3.0
MCP_VENV := .build/mcp-venv/bin/python
MCP_VENV_READY := .build/mcp-venv/installed-$(MCP_SDK)

.PHONY: setup build release test test-fast format format-check run regress regress-dev regress-transcripts regress-memory review-dev calibrate bench bench-readers bench-parse bench-store check-asan fuzz fixtures clean

# Installs what is missing (apt-get update once, only when something is missing); quick when all is there.
setup:
	@missing=""; \
	for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${db:Status-Abbrev}' $$p 2>/dev/null | grep -q '^ii' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "setup: installing$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "setup: all packages present"; fi
	readers/install.sh $(READERS)

build: setup
	swift build

# Marked ready only once pip has installed the SDK: an install cut short is done again.
$(MCP_VENV_READY): | setup
	/usr/bin/python3 -m venv .build/mcp-venv
	$(MCP_VENV) -m pip install --quiet --disable-pip-version-check $(MCP_SDK)
	touch $@

release: setup
	swift build -c release --product shoebox

# The Swift suites, then review in a real browser (headless Chromium driven by Debian's Selenium, with Debian's
# Python: the one on PATH may be another without it).
test: build format-check $(MCP_VENV_READY)
	swift test
	/usr/bin/python3 Tests/browser/review_in_browser.py .build/debug/shoebox
	/usr/bin/python3 Tests/browser/deadlines_in_browser.py .build/debug/shoebox
	/usr/bin/python3 Tests/browser/agent_in_browser.py .build/debug/shoebox
	$(MCP_VENV) Tests/agents/mcp_session.py .build/debug/shoebox
	/usr/bin/python3 Tests/agents/inbox_kill.py .build/debug/shoebox

# Every test except those tagged .ocr (tesseract over whole documents) or .slow (Tests/ShoeboxTestSupport/Tags.swift),
# in about a minute: the check to run while working; `make test` runs everything. `swift test --skip` matches test
# names, not tags, so Tests/skip-tags.py reads the tagged suites and tests from the sources.
test-fast: build
	skip=$$(python3 Tests/skip-tags.py ocr slow) && swift test --skip "$$skip"

# The code's layout is swift-format's (.swift-format, shipped with the toolchain): `make format` rewrites it,
# `make test` refuses code that is not formatted.
format:
	swift format format --in-place --recursive --parallel Sources Tests Package.swift

format-check:
	swift format lint --strict --recursive --parallel Sources Tests Package.swift

run: release
	rm -rf $(OUT)
	.build/release/shoebox run $(SAMPLE) --out $(OUT) --today $(TODAY); rc=$$?; [ $$rc -le 1 ] || exit $$rc
	.build/release/shoebox export --out $(OUT)
	.build/release/shoebox status --out $(OUT)

# The project's own fixtures: every field must be right.
regress: release
	.build/release/shoebox regress Fixtures/receipts --today $(TODAY)
	.build/release/shoebox regress Fixtures/screens --today $(TODAY)
	.build/release/shoebox regress Fixtures/sample-expected --today $(TODAY) --scans $(SAMPLE)
	.build/release/shoebox regress Fixtures/items --today $(TODAY)

# Real receipts and e-invoices (../shared/devset, not part of the project): fails when a field falls below
# baselines/devset.json. The report is written to .build/regress-dev.json.
regress-dev: release
	@[ -d $(DEVSET) ] || { echo "regress-dev: $(DEVSET) is not here (it lives beside the project, not in it)"; exit 1; }
	.build/release/shoebox regress $(DEVSET) --today $(TODAY) --ocr-cache $(OCR_CACHE) --quiet --folds 5 \
		--folders $(DEVSET_FOLDERS) --errata $(DEVSET_ERRATA) --report .build/regress-dev.json --baseline baselines/devset.json

# The devset read as a perfect reader would: its SROIE pages replaced by the data set's own line transcripts
# (tools/transcript_cache.py, from the regress OCR cache: run `make regress-dev` first). What is still wrong is parsing;
# what is right here and not in `make regress-dev` is lost to reading.
regress-transcripts: release
	@[ -d $(DEVSET) ] || { echo "regress-transcripts: $(DEVSET) is not here (it lives beside the project, not in it)"; exit 1; }
	python3 tools/transcript_cache.py --devset $(DEVSET) --cache $(OCR_CACHE) --out .build/transcript-cache
	.build/release/shoebox regress $(DEVSET) --today $(TODAY) --ocr-cache .build/transcript-cache --quiet \
		--folders $(DEVSET_FOLDERS) --errata $(DEVSET_ERRATA) --report .build/regress-transcripts.json; rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 7 ] || exit $$rc

# The merchant memory measured with a simulated person who corrects the devset's receipts in nightly batches
# (tools/regress_memory.py); pages from the regress OCR cache, so run `make regress-dev` first for speed.
regress-memory: release
	@[ -d $(DEVSET) ] || { echo "regress-memory: $(DEVSET) is not here (it lives beside the project, not in it)"; exit 1; }
	python3 tools/regress_memory.py --shoebox .build/release/shoebox --devset $(DEVSET)

# Reviews 50 devset records in headless Chromium by keyboard alone, timed (Tests/browser/review_devset.py); the pages
# come from the regress OCR cache, so run `make regress-dev` first for speed.
review-dev: release
	@[ -d $(DEVSET) ] || { echo "review-dev: $(DEVSET) is not here (it lives beside the project, not in it)"; exit 1; }
	/usr/bin/python3 Tests/browser/review_devset.py .build/release/shoebox $(DEVSET)

# Fits the trust model (P(right) per field, Sources/ShoeboxJudgement/calibration.json) on the devset: commit the file,
# rebuild, then re-make the baseline (`make regress-dev` figures are cross-validated, so they do not depend on it).
calibrate: release
	@[ -d $(DEVSET) ] || { echo "calibrate: $(DEVSET) is not here (it lives beside the project, not in it)"; exit 1; }
	.build/release/shoebox regress $(DEVSET) --today $(TODAY) --ocr-cache $(OCR_CACHE) --quiet --folds 5 \
		--folders $(DEVSET_FOLDERS) --errata $(DEVSET_ERRATA) --fit Sources/ShoeboxJudgement/calibration.json; rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 7 ] || exit $$rc

# Shoebox against what a user would run instead, on the same corpus (bench/bench.py and docs/benchmarks.md say how):
# the tesseract CLI once on the original images (the single-pass floor), pdftoppm + the tesseract CLI, ocrmypdf.
# Installs what only the bench needs: img2pdf, GNU time and the tesseract CLI (Debian), ocrmypdf (PyPI).
bench: release
	@dpkg -s img2pdf time tesseract-ocr >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends img2pdf time tesseract-ocr; }
	@command -v ocrmypdf >/dev/null || python3 -m pip install -q ocrmypdf
	python3 bench/bench.py

# The broken-input suites on an AddressSanitizer + LeakSanitizer build of shoebox: an ASan or LSan report
# makes the binary exit 86 or 87, which the tests (expecting 0 or 1) report as a failure. The two tests that
# run shoebox under strace (no network; no file outside an e-invoice's XML opened) are skipped here:
# LeakSanitizer cannot run under ptrace (it exits 87).
check-asan: build
	swift build --build-path .build/asan -Xswiftc -sanitize=address --product shoebox
	SHOEBOX_BIN=$(CURDIR)/.build/asan/debug/shoebox ASAN_OPTIONS=detect_leaks=1:exitcode=86 LSAN_OPTIONS=exitcode=87:suppressions=$(CURDIR)/fuzz/lsan.supp \
		swift test --filter 'BrokenFilesEndToEndTests|FileNameEndToEndTests|WorkSharingEndToEndTests|HostileDocumentEndToEndTests|EndToEndTests.runExportStatusOnTheSampleFolderWithBadInputs|IntakeHardeningTests|HostileSettingsTests|HostileReviewTests|HostileImportTests|HostileExportEndToEndTests|EInvoiceEndToEndTests' \
		--skip everyVerbOpensNoSocketAndNeedsNoNetwork --skip hostileXMLIsRefusedWithoutReadingOutsideTheFileOrGrowingMemory

# Mutated fixture files (bit flips, cuts, inserted and appended bytes, hostile header sizes) read up to OCR by
# shoebox-fuzz on an AddressSanitizer + LeakSanitizer build (Swift and the C targets): no crash, hang or leak.
# Seeded: case N of FUZZ_SEED is the same file everywhere; fuzz/fuzz.py prints how to make a failing case again.
FUZZ_CASES ?= 10000
FUZZ_SEED ?= 15
fuzz: setup
	swift build --build-path .build/fuzz-asan -Xswiftc -sanitize=address -Xcc -fsanitize=address --product shoebox-fuzz
	python3 fuzz/fuzz.py --bin .build/fuzz-asan/debug/shoebox-fuzz --cases $(FUZZ_CASES) --seed $(FUZZ_SEED)

# Parse + merge time per OCR'd document, on the cached text of the fixtures (and the devset when present).
# The PostgreSQL store's work queue, on a server the script starts (docs/postgresql.md).
bench-store: release
	@dpkg -s postgresql bc >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql bc; }
	swift build -c release --product shoebox-bench
	bench/store.sh

# The second reader's models side by side on the devset's SROIE receipts: each annotated line read alone and each page
# read whole through the detector, character error rate per half and CPU ms per line (docs/second-reader.md).
bench-readers: release
	@[ -d $(DEVSET) ] || { echo "bench-readers: $(DEVSET) is not here (it lives beside the project, not in it)"; exit 1; }
	swift build -c release --product shoebox-bench
	.build/release/shoebox-bench readers $(DEVSET)/sroie --pages PP-OCRv6_tiny_rec.onnx PP-OCRv6_small_rec.onnx ch_PP-OCRv4_rec_folded.onnx

bench-parse: release
	swift build -c release --product shoebox-bench
	.build/release/shoebox regress Fixtures/receipts --today $(TODAY) --ocr-cache $(OCR_CACHE) --quiet > /dev/null
	if [ -d $(DEVSET) ]; then .build/release/shoebox regress $(DEVSET) --today $(TODAY) --ocr-cache $(OCR_CACHE) --quiet > /dev/null || true; fi
	.build/release/shoebox-bench parse $(OCR_CACHE)

fixtures: setup
	swift run -c release shoebox-fixtures Fixtures

clean:
	rm -rf .build $(OUT)
