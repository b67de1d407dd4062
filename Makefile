# picker-tui: `make run` opens the picker on the demo album, `make test` runs
# every test. Both install the Debian packages they need first.
SWIFT ?= swift
BIN := .build/release/picker-tui

.PHONY: all build deps test-deps bench-deps run test unit-test e2e-test bench fuzz fuzz-smoke format lint clean install uninstall

all: build

deps:
	@scripts/install-deps.sh build

test-deps:
	@scripts/install-deps.sh test

bench-deps:
	@scripts/install-deps.sh bench

build: deps
	$(SWIFT) build -c release

run: build
	$(BIN) demo/album

unit-test: deps
	$(SWIFT) test

e2e-test: build test-deps
	python3 -m pytest -q Tests/EndToEnd

test: test-deps unit-test e2e-test

bench: build bench-deps
	scripts/bench-first-paint.sh
	scripts/make-bench-photos.py bench-data/photos
	scripts/bench-thumbnails.py bench-data/photos

# libFuzzer harnesses of the parsers (Fuzz/README.md), built in .build-fuzz
# only: each runs FUZZ_SECONDS on a scratch copy of its seeds. Not part of
# `make test`; fuzz-smoke is the short run for CI.
FUZZ_SECONDS ?= 60

fuzz: deps
	SWIFT=$(SWIFT) FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh

fuzz-smoke: deps
	SWIFT=$(SWIFT) FUZZ_SECONDS=10 Fuzz/run.sh

format:
	swift-format format --in-place --recursive --parallel Package.swift Sources Tests Fuzz/Package.swift Fuzz/Harnesses Fuzz/Sources/FuzzSupport

lint:
	swift-format lint --recursive Package.swift Sources Tests Fuzz/Package.swift Fuzz/Harnesses Fuzz/Sources/FuzzSupport

# `make install PREFIX=/usr/local DESTDIR=` (packagers set DESTDIR): the
# binary, and the desktop thumbnailer entry that lets file managers use
# `picker-tui thumbnail` for HEIC, RAW, JPEG XL and the rest.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(DESTDIR)$(PREFIX)/bin
THUMBNAILERDIR := $(DESTDIR)$(PREFIX)/share/thumbnailers

install: build
	install -d "$(BINDIR)" "$(THUMBNAILERDIR)"
	install -m 0755 $(BIN) "$(BINDIR)/picker-tui"
	install -m 0644 packaging/picker-tui.thumbnailer "$(THUMBNAILERDIR)/picker-tui.thumbnailer"

uninstall:
	rm -f "$(BINDIR)/picker-tui" "$(THUMBNAILERDIR)/picker-tui.thumbnailer"

clean:
	rm -rf .build
