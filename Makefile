# The two commands of the README:
#   make demo   installs what is missing, builds, scans Examples/Documents into a throwaway index, searches it
#   make test   installs what is missing, builds, runs the whole test suite

SWIFT ?= swift
DEMO_INDEX := .build/demo/index.sqlite
SEARCHLIGHT := .build/debug/searchlight

.PHONY: demo test setup build bench bench-quick bench-full clean

setup:
	@./.ci/install-dependencies

build: setup
	$(SWIFT) build

demo: build
	@rm -rf .build/demo && mkdir -p .build/demo
	$(SEARCHLIGHT) scan Examples/Documents --index $(DEMO_INDEX)
	$(SEARCHLIGHT) search report --index $(DEMO_INDEX)
	$(SEARCHLIGHT) search resume --index $(DEMO_INDEX) --json
	$(SEARCHLIGHT) status --index $(DEMO_INDEX)

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test

bench: setup
	./Benchmarks/run.sh

bench-full: setup
	./Benchmarks/run.sh --full --markdown Benchmarks/work/full.md

bench-quick: setup
	./Benchmarks/run.sh --quick

clean:
	rm -rf .build
