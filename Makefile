# agsh — the agent shell. `make demo` opens agsh against the bundled development
# deployment serving this repository; `make test` runs every check CI runs.

GO      ?= go
BIN     := bin
FUZZTIME ?= 4s
# staticcheck: .ci/run installs this version with `go install`, which puts it in
# $(go env GOBIN), else the first $(go env GOPATH)/bin; PATH is searched first.
STATICCHECK_VERSION := v0.8.2
GOBIN_DIR := $(or $(shell $(GO) env GOBIN),$(firstword $(subst :, ,$(shell $(GO) env GOPATH)))/bin)
STATICCHECK ?= $(or $(shell command -v staticcheck 2>/dev/null),$(wildcard $(GOBIN_DIR)/staticcheck))
# goreleaser: the release build (.goreleaser.yaml); `make tools` installs this
# version, whose test (internal/release) CI runs. Newer versions need a newer Go.
GORELEASER_VERSION := v2.15.1
GORELEASER ?= $(or $(shell command -v goreleaser 2>/dev/null),$(wildcard $(GOBIN_DIR)/goreleaser),goreleaser)

.PHONY: all build demo test quick check unit big fuzz tools clean man release-snapshot

all: build

# -buildvcs=auto: agsh --version names the commit of a build from a checkout.
build:
	$(GO) build -buildvcs=auto -o $(BIN)/agsh ./cmd/agsh
	$(GO) build -buildvcs=auto -o $(BIN)/agsh-devserver ./cmd/agsh-devserver

# agsh.1, the manual page, from the tables agsh --help prints
# (docs/cli.md#the-manual-page); a test fails when the checked-in copy is
# stale.
man:
	$(GO) run ./cmd/agsh --man > agsh.1

# Start agsh-devserver over this repository on a free loopback port and open
# the agsh shell against its executor agent; the server stops when agsh exits.
demo: build
	@./scripts/demo.sh

# The test command (README, .ci/run): formatting, vet, go.mod tidiness,
# staticcheck, the race-enabled test suite (end-to-end tests included), the
# big tests without the race detector, and a short run of every fuzz target.
# Its budget is 10 minutes on a 2-core machine (docs/testing.md#the-budget).
test: check unit big fuzz

# The inner loop: no race detector, no end-to-end runs of the binary through
# a terminal, no big answers (docs/testing.md#tiers).
quick:
	$(GO) test -short ./...

check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) mod tidy -diff
	@if [ -n "$(STATICCHECK)" ]; then echo "$(STATICCHECK) ./..."; "$(STATICCHECK)" ./...; \
	elif [ "$$CI" = true ]; then echo "staticcheck is not installed (CI installs it: go install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION))"; exit 1; \
	else echo "staticcheck skipped: not installed (go install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION))"; fi

# The tools make test uses beyond Go itself (.ci/run calls this).
tools:
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	$(GO) install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)

# Every archive, package, checksums.txt and the Homebrew cask of a release,
# built into dist/ from the work tree and published nowhere
# (docs/cli.md#releases).
release-snapshot:
	$(GORELEASER) release --snapshot --clean

# GORACE=atexit_sleep_ms=0: the race runtime otherwise sleeps a second as
# every race-built process exits (each test binary, and each run of the test
# binary as agsh in the end-to-end tests); a report still fails the run.
unit:
	GORACE=atexit_sleep_ms=0 $(GO) test -race -count=1 ./...

# The big tests (testtier.Big: names ending in Big), which the race build
# skips: memory bounds and large answers, without the race detector.
BIG_PKGS = $(sort $(dir $(shell grep -rl --include='*_test.go' 'testtier\.Big(t)' .)))
big:
	$(GO) test -count=1 -run 'Big$$' $(BIG_PKGS)

fuzz:
	@./scripts/fuzz.sh $(FUZZTIME)

clean:
	rm -rf $(BIN) dist completions
