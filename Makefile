# agsh — the agent shell. `make demo` opens agsh against the bundled development
# deployment serving this repository; `make test` runs every check CI runs.

GO      ?= go
BIN     := bin
FUZZTIME ?= 10s

.PHONY: all build demo test check unit fuzz clean

all: build

build:
	$(GO) build -o $(BIN)/agsh ./cmd/agsh
	$(GO) build -o $(BIN)/agsh-devserver ./cmd/agsh-devserver

# Start agsh-devserver over this repository on a free loopback port and open
# the agsh shell against its executor agent; the server stops when agsh exits.
demo: build
	@./scripts/demo.sh

# The test command (README, .ci/run): formatting, vet, the race-enabled test
# suite (end-to-end tests included) and a short run of every fuzz target.
test: check unit fuzz

check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

unit:
	$(GO) test -race -count=1 ./...

fuzz:
	@./scripts/fuzz.sh $(FUZZTIME)

clean:
	rm -rf $(BIN)
