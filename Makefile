# picker-tui: `make run` opens the picker on the demo album, `make test` runs
# every test. Both install the Debian packages they need first.
SWIFT ?= swift
BIN := .build/release/picker-tui

.PHONY: all build deps test-deps bench-deps run test unit-test e2e-test bench format lint clean

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

format:
	swift-format format --in-place --recursive --parallel Package.swift Sources Tests

lint:
	swift-format lint --recursive Package.swift Sources Tests

clean:
	rm -rf .build
