# picker-tui: `make run` opens Photos on the demo library, `make test` runs
# every test. Both install the Debian packages they need first.
SWIFT ?= swift
BIN := .build/release/picker-tui
BENCH := .build/release/picker-bench

.PHONY: all build deps test-deps bench-deps embedded-example run test unit-test e2e-test bench fuzz fuzz-smoke format lint clean generated install uninstall deb

all: build

deps:
	@scripts/install-deps.sh build

test-deps:
	@scripts/install-deps.sh test

bench-deps:
	@scripts/install-deps.sh bench

# The Swift runtime and Foundation are linked in (--static-swift-stdlib): the
# binary needs only Debian's libraries, not the toolchain's folder. SwiftPM
# still writes that folder into its RUNPATH: the installed copy loses it.
RELEASE_FLAGS := -c release --static-swift-stdlib

build: deps
	$(SWIFT) build $(RELEASE_FLAGS)

# The demo library (scripts/make-demo-library.py): five years of dated
# photos from several cameras and places, a burst, a pair of copies, a
# short clip and a Live Photo.
run: build
	$(BIN) --timeline demo/library

# The event loop's tests (PickerTUITests) run in a process of their own. Swift
# Testing starts every test at once on a pool of one thread a core, and the
# loop's page loads are tasks on that pool: behind ~500 other tests they
# waited as long as the whole run (~11 s on 2 cores), past the loop tests'
# 10 s patience. A program has that pool to itself, and so do these tests.
LOOP_TESTS := '^PickerTUITests\.'

unit-test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip $(LOOP_TESTS)
	$(SWIFT) test --skip-build --filter $(LOOP_TESTS)

# The embedding example (examples/embedded): a package of its own that uses
# the PickerTUI library by path; the end-to-end suite drives it in tmux.
# SwiftPM keeps the plan of a path dependency's files: one added to this
# package would be missing from the example's build until it is planned anew.
embedded-example: deps
	rm -f examples/embedded/.build/*/release/description.json
	$(SWIFT) build -c release --package-path examples/embedded

e2e-test: build embedded-example test-deps
	python3 -m pytest -q Tests/EndToEnd

test: test-deps unit-test e2e-test

bench: build bench-deps
	$(BENCH) first-paint bench-data/100k --make-entries 100000 --runs 7
	scripts/make-bench-photos.py bench-data/photos
	$(BENCH) tools bench-data/photos
	$(BENCH) first-paint bench-data/photos/exif --exec --width 200 --height 60 --compare timg
	rm -rf bench-data/library && scripts/make-library.py bench-data/library --count 100000 >/dev/null
	$(BENCH) index bench-data/library
	$(BENCH) index bench-data/library --synthetic 1000000 --runs 5
	$(BENCH) first-paint bench-data/library --timeline --exec --runs 7
	$(BENCH) first-paint bench-data/library --timeline --synthetic 1000000 --exec --runs 7
	$(BENCH) first-paint bench-data/library --timeline --synthetic 1000000 --end --runs 7

# libFuzzer harnesses of the parsers (Fuzz/README.md), built in .build-fuzz
# only: each runs FUZZ_SECONDS on a scratch copy of its seeds. Not part of
# `make test`; fuzz-smoke is the short run for CI.
FUZZ_SECONDS ?= 60

fuzz: deps
	SWIFT=$(SWIFT) FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh

fuzz-smoke: deps
	SWIFT=$(SWIFT) FUZZ_SECONDS=10 Fuzz/run.sh

format:
	swift-format format --in-place --recursive --parallel Package.swift Sources Tests Fuzz/Package.swift Fuzz/Harnesses Fuzz/Sources/FuzzSupport examples/embedded

lint:
	swift-format lint --recursive Package.swift Sources Tests Fuzz/Package.swift Fuzz/Harnesses Fuzz/Sources/FuzzSupport examples/embedded

# `make install PREFIX=/usr/local DESTDIR=` (packagers set DESTDIR): the
# binary, its man page and shell completions, the desktop thumbnailer
# entry that lets file managers use `picker-tui thumbnail` for HEIC, RAW,
# JPEG XL and the rest, and the wrapper and example config that make the
# picker the desktop's file chooser through xdg-desktop-portal-termfilechooser.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(DESTDIR)$(PREFIX)/bin
THUMBNAILERDIR := $(DESTDIR)$(PREFIX)/share/thumbnailers
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
# The places table (GeoNames, scripts/make-places.py) and its places' time
# zones (scripts/make-zones.py), found there by the binary:
# PREFIX/bin/picker-tui → PREFIX/share/picker-tui/places.bin, zones.bin.
DATADIR := $(DESTDIR)$(PREFIX)/share/picker-tui

# The man page and the completions are made from the command-line
# definitions themselves (ArgumentParser's generate-manual plugin and
# --generate-completion-script), so they never drift from the code.
GENERATED := .build/generated
MAN_DATE ?= $(shell git log -1 --format=%cs 2>/dev/null || date -u +%F)

# ArgumentParser's generate-manual tool is run on the built binary itself:
# its plugin would rebuild the binary without the static Swift runtime.
generated: build
	rm -rf $(GENERATED) && mkdir -p $(GENERATED)
	$(SWIFT) build $(RELEASE_FLAGS) --product generate-manual
	.build/release/generate-manual $(BIN) --date $(MAN_DATE) --authors "picker-tui developers" \
		--output-directory $(GENERATED)
	$(BIN) --generate-completion-script bash > $(GENERATED)/picker-tui.bash
	$(BIN) --generate-completion-script zsh > $(GENERATED)/_picker-tui
	$(BIN) --generate-completion-script fish > $(GENERATED)/picker-tui.fish

install: build generated
	install -d "$(BINDIR)" "$(THUMBNAILERDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)" "$(DATADIR)"
	install -m 0755 $(BIN) "$(BINDIR)/picker-tui"
	patchelf --remove-rpath "$(BINDIR)/picker-tui"
	install -m 0644 packaging/picker-tui.thumbnailer "$(THUMBNAILERDIR)/picker-tui.thumbnailer"
	install -m 0644 $(GENERATED)/picker-tui.1 "$(MANDIR)/picker-tui.1"
	install -m 0644 $(GENERATED)/picker-tui.bash "$(BASHDIR)/picker-tui"
	install -m 0644 $(GENERATED)/_picker-tui "$(ZSHDIR)/_picker-tui"
	install -m 0644 $(GENERATED)/picker-tui.fish "$(FISHDIR)/picker-tui.fish"
	install -m 0644 Resources/places.bin "$(DATADIR)/places.bin"
	install -m 0644 Resources/zones.bin "$(DATADIR)/zones.bin"
	install -m 0755 share/picker-tui/termfilechooser-wrapper.sh "$(DATADIR)/termfilechooser-wrapper.sh"
	install -m 0644 share/picker-tui/termfilechooser-config "$(DATADIR)/termfilechooser-config"

# `make deb`: picker-tui_VERSION_ARCH.deb in this folder (Depends from
# dpkg-shlibdeps; lintian must find no error).
deb: build test-deps
	packaging/make-deb.sh .

uninstall:
	rm -f "$(BINDIR)/picker-tui" "$(THUMBNAILERDIR)/picker-tui.thumbnailer" "$(MANDIR)/picker-tui.1" \
		"$(BASHDIR)/picker-tui" "$(ZSHDIR)/_picker-tui" "$(FISHDIR)/picker-tui.fish" "$(DATADIR)/places.bin" \
		"$(DATADIR)/zones.bin" "$(DATADIR)/termfilechooser-wrapper.sh" "$(DATADIR)/termfilechooser-config"
	-rmdir "$(DATADIR)"

clean:
	rm -rf .build
