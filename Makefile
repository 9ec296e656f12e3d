# Shoebox — the two commands a fresh machine needs: `make run` and `make test`.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
# libgomp reads this when it loads: OCR on 2 cores is ~6x slower without it (platform notes).
export OMP_THREAD_LIMIT := 1

# Every Debian package the build, the tests and the fixture generator need.
PACKAGES := pkg-config libtesseract-dev libleptonica-dev libpoppler-glib-dev libcairo2-dev libarchive-dev \
	libsqlite3-dev libcld2-dev tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-spa tesseract-ocr-fra \
	tesseract-ocr-msa tesseract-ocr-osd unzip zip poppler-utils python3 qpdf sqlite3 \
	fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-freefont-ttf

SAMPLE := Fixtures/sample-scans
OUT := shoebox-out
TODAY ?= $(shell date +%F)

.PHONY: setup build release test run regress regress-dev fixtures clean

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

build: setup
	swift build

release: setup
	swift build -c release --product shoebox

test: build
	swift test

run: release
	rm -rf $(OUT)
	.build/release/shoebox run $(SAMPLE) --out $(OUT) --today $(TODAY); rc=$$?; [ $$rc -le 1 ] || exit $$rc
	.build/release/shoebox export --out $(OUT)
	.build/release/shoebox status --out $(OUT)

regress: release
	.build/release/shoebox regress Fixtures/receipts --today $(TODAY)
	.build/release/shoebox regress Fixtures/sample-expected --today $(TODAY) --scans $(SAMPLE)

fixtures: setup
	swift run -c release shoebox-fixtures Fixtures

clean:
	rm -rf .build $(OUT)
