# pbm: play-by-mail board games.
#
#   make run     the service on http://localhost:8080 (PORT=...), no AWS, no Docker
#   make test    everything the CI runs (.ci/run): vet, gofmt, cfn-lint, go test
#   make build   what `sam deploy` ships (sam build --build-in-source; without sam, `make lambdas`)
#   make smoke URL=… TABLE=… [KEYS=…]   a short game against a deployed stack (README)
#   make bench   the benchmarks;  make fuzz   30 s of every fuzz target
#                (60 s for issue 25's record import and orders replay; FUZZ=regexp picks
#                targets, FUZZTIME=60s longer; make fuzz-abuse: only issue 25's)
#   make calendar  the calendar simulator's table (how many days a game takes)
#   make lengths   regenerate the create page's length estimates from the simulator
#
# SAM builds each function with its build-<LogicalId> target (template.yaml:
# BuildMethod: makefile), which puts the binary in $(ARTIFACTS_DIR)/bootstrap.
# The target names the function's package; functions/template_test.go reads
# it from here and builds the same package with the same flags.

SHELL        := /bin/bash
.SHELLFLAGS  := -euo pipefail -c
GO           ?= go
PORT         ?= 8080
TEST_TIMEOUT ?= 30m
FUZZTIME     ?= 30s
# Which fuzz targets `make fuzz` runs: a regexp of their names (all).
FUZZ         ?= .
# How long the fuzzer may spend minimising each new input it finds (Go's
# default is 60 s, which once took 57 s of a 60 s run for one input).
FUZZMINIMIZETIME ?= 5s
# Issue 25's targets — the record import (no mutated record makes a 5xx)
# and the standing orders' replay — run FUZZTIME_LONG in every `make fuzz`.
FUZZ_LONG        ?= ^Fuzz(RecordImport|OrdersReplay)$$
FUZZTIME_LONG    ?= 60s

# How every Lambda function is built: static, linux/arm64, no RPC mode.
LAMBDA_ENV   := CGO_ENABLED=0 GOOS=linux GOARCH=arm64
LAMBDA_FLAGS := -tags lambda.norpc -trimpath -ldflags "-s -w"
# The function packages: functions/<name>/main.go, but for the local runner.
FUNCTIONS    := $(filter-out local,$(patsubst functions/%/main.go,%,$(wildcard functions/*/main.go)))

# Skip these when looking for Go files to check with gofmt.
GOFMT_PRUNE  := -name node_modules -o -name .git -o -name .local -o -name .aws-sam -o -name bin -o -name testdata

step = @printf '\n==> %s\n' $(1)

.PHONY: all run test smoke vet fmt-check lint-template go-test deps-browser build lambdas \
	check-artifacts-dir build-ApiFunction build-NotifyFunction build-SweepFunction build-BouncesFunction \
	bench fuzz fuzz-abuse calendar lengths clean

all: test

## run: the local runner on the embedded store (games kept in .local/).
run:
	PORT=$(PORT) $(GO) run ./functions/local

## league: with `make run` going, make a small league through the API
## (four members, a season starting now) and print its pages' links.
league:
	$(GO) run ./functions/local/league -url http://localhost:$(PORT)

## test: install what the tests need, then check everything.
test: node_modules deps-browser
	$(call step,"go vet ./...")
	$(GO) vet ./...
	$(MAKE) --no-print-directory fmt-check lint-template go-test
	$(call step,"all checks passed")

fmt-check:
	$(call step,"gofmt -l (every Go file formatted)")
	@files=$$(find . \( $(GOFMT_PRUNE) \) -prune -o -name '*.go' -print | xargs gofmt -l); \
	if [ -n "$$files" ]; then echo "gofmt wants to change:"; echo "$$files"; exit 1; fi

lint-template:
	$(call step,"cfn-lint template.yaml")
	@command -v cfn-lint >/dev/null || { echo "cfn-lint is missing: pip install cfn-lint (or run .ci/run)"; exit 1; }
	cfn-lint template.yaml

# The tests start dynalite and aws-ses-v2-local themselves (infra/testenv)
# on loopback ports and kill them when they end; the browser tests start
# headless Chromium (deps-browser) the same way.
go-test:
	$(call step,"go test ./... (the tests start dynalite and aws-ses-v2-local from node_modules)")
	$(GO) test -timeout $(TEST_TIMEOUT) ./...

# The test servers (dynalite, aws-ses-v2-local) and axe-core (the page
# tests' accessibility checker) pinned in package-lock.json.
node_modules: package.json package-lock.json
	$(call step,"npm ci (test servers and axe-core from package-lock.json)")
	npm ci --no-audit --no-fund
	@touch node_modules

## deps-browser: Debian's chromium for the browser tests
## (functions/internal/browser), unless $CHROMIUM names another binary.
deps-browser:
	@bin="$${CHROMIUM:-/usr/bin/chromium}"; \
	if [ -x "$$bin" ]; then echo "chromium: $$bin"; else \
		sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
		echo "==> apt-get update && apt-get install -y chromium"; \
		$$sudo apt-get update && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y chromium; fi

## smoke: after a deploy, a short game against the stack (its ApiUrl and
## TableName outputs; KEYS, its LinkKeysParameterName, defaults to
## /pbm/link-keys): SES's mailbox simulator, the keyring from SSM and
## the table read with your AWS credentials, about 50 minutes for the
## sweep's reminder (SMOKE_FLAGS="-reminder-wait 0" skips it).
KEYS ?= /pbm/link-keys
smoke:
	@[ -n "$(URL)" ] || { echo "make smoke needs URL=<the stack's ApiUrl output> TABLE=<its TableName output>"; exit 2; }
	@[ -n "$(TABLE)" ] || { echo "make smoke needs TABLE=<the stack's TableName output> besides URL"; exit 2; }
	$(GO) run ./functions/internal/smoke/cmd/smoke -url "$(URL)" -table "$(TABLE)" -keys "$(KEYS)" $(SMOKE_FLAGS)

## build: the deployable artifacts.
build:
	@if command -v sam >/dev/null; then \
		echo "==> sam build --build-in-source"; sam build --build-in-source; \
	else \
		echo "sam is not installed: building the function binaries into bin/ instead"; \
		$(MAKE) --no-print-directory lambdas; fi

## lambdas: every function into bin/<name>/bootstrap, with its size.
lambdas:
	@for f in $(FUNCTIONS); do \
		echo "==> bin/$$f/bootstrap"; \
		$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o bin/$$f/bootstrap ./functions/$$f; \
	done
	@ls -l bin/*/bootstrap

# One target per function in template.yaml (SAM: BuildMethod makefile; it
# sets ARTIFACTS_DIR, which each checks first).
check-artifacts-dir:
	@[ -n "$(ARTIFACTS_DIR)" ] || { echo "ARTIFACTS_DIR is not set (sam build sets it)"; exit 1; }

build-ApiFunction: check-artifacts-dir
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/api

build-NotifyFunction: check-artifacts-dir
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/notify

build-SweepFunction: check-artifacts-dir
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/sweep

build-BouncesFunction: check-artifacts-dir
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/bounces

bench:
	$(GO) test -run XXX -bench . -benchmem ./...

## fuzz: every Fuzz target (or those FUZZ matches), FUZZTIME (30s) each
## and FUZZTIME_LONG (60s) for those FUZZ_LONG matches, minimising each new
## input for at most FUZZMINIMIZETIME (5s) so the time goes to fuzzing.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		for fn in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' | grep -E '$(FUZZ)' || true); do \
			t=$(FUZZTIME); if echo "$$fn" | grep -Eq '$(FUZZ_LONG)'; then t=$(FUZZTIME_LONG); fi; \
			echo "==> $$pkg $$fn ($$t, minimising at most $(FUZZMINIMIZETIME) an input)"; \
			$(GO) test -run XXX -fuzz "^$$fn\$$" -fuzztime $$t -fuzzminimizetime $(FUZZMINIMIZETIME) $$pkg; \
		done; \
	done

## fuzz-abuse: only issue 25's fuzz targets (FUZZ_LONG), FUZZTIME_LONG each.
fuzz-abuse:
	$(MAKE) --no-print-directory fuzz FUZZ='$(FUZZ_LONG)'

clean:
	rm -rf bin .aws-sam
	$(GO) clean -testcache

## calendar: the calendar simulator's table (SPEC §6): 20 seeded games a
## row played through the real service by simulated people
## (CALENDAR_FLAGS="-kind western -seats 4 -options '{\"laps\":2}'" for one row).
calendar:
	$(GO) run ./functions/internal/calendar/cmd/calendar $(CALENDAR_FLAGS)

## lengths: simulate the lengths the create page offers and write their
## estimates (functions/internal/lengths/lengths.json, and the same as Go,
## lengths_gen.go, which the service reads), and the pre-rendered home
## pages that show them (functions/internal/httpapi/prerendered/); takes a
## while (about 20 CPU-minutes). GAME=<kind> simulates that game's
## lengths only, keeping the others' figures.
lengths:
	$(GO) run ./functions/internal/calendar/cmd/calendar -write $(if $(GAME),-game $(GAME)) $(CALENDAR_FLAGS)
	$(GO) generate ./functions/internal/lengths
	$(GO) generate ./functions/internal/httpapi
