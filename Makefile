# agentio: every target works across all modules of the repository (the root
# module and the nested adapter/example modules), found by their go.mod files.

GO      ?= go
MODULES := $(shell find . -name go.mod -not -path './.git/*' -exec dirname {} \; | sort)
export GOWORK := off

# JOBS is how many modules `make test` tests at once. Each module's
# `go test` already builds and runs its packages in parallel; two modules at
# once keep both cores busy while one of them links or waits on a test.
JOBS ?= 2

# The JSON-Schema-Test-Suite commit the conformance tests are pinned to
# (internal/shared.SuiteCommit says the same).
SUITE_COMMIT := 44401e0c046704b476ec9d2e2fccdaee618f259d

.PHONY: test fmt-check standalone measure vet bench fuzz tidy conformance-data $(addprefix test-,$(MODULES))

## test: gofmt check, every module standing alone, the measuring tests
## without -race on an otherwise idle machine (they time work: nothing
## runs beside them), then go vet and go test -race in every module,
## JOBS at a time; each one's time is printed when it is done
test: fmt-check standalone
	@$(MAKE) --no-print-directory measure
	@$(MAKE) --no-print-directory -j$(JOBS) --output-sync=target $(addprefix test-,$(MODULES))

## measure: the tests that measure against the corpora and the
## JSON-Schema-Test-Suite (named ...Corpus... or ...Conformance...; in the
## root module, and the peers' verdicts in benchmarks/validators), the
## tests that time how work grows (named ...Scaling...) and the soaks that
## run the loop thousands of times over injected faults (named ...Soak...),
## without -race: they compile thousands of schemas on one goroutine or
## time runs, which the race detector slows five-fold and can find no race
## in, so under -race they skip (internal/shared.Measuring)
measure:
	@start=$$(date +%s); \
	echo "== measuring tests, without -race"; \
	$(GO) test -p 1 -count=1 -run 'Corpus|Conformance|Scaling|Soak' ./... && \
	(cd benchmarks/validators && $(GO) test -count=1 -run 'Corpus' ./...); \
	status=$$?; \
	echo "== measuring tests: $$(( $$(date +%s) - start )) s"; \
	exit $$status

# STATICCHECK is the pinned staticcheck that make test runs in every module
# (go run caches the binary it builds).
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

# test-<dir>: in the module at <dir>: go vet and go test -race (vet with
# -race too, so that the tests reuse what it compiled: each module's
# dependencies are compiled once, not once for vet and again for the race
# detector), staticcheck, and, for a module of the workspace (go.work), go
# vet -race with the workspace on: a module builds both ways.
$(addprefix test-,$(MODULES)): test-%:
	@start=$$(date +%s); \
	echo "== $*: vet, test -race, staticcheck"; \
	(cd $* && $(GO) vet -race ./... && $(GO) test -race -count=1 ./... && $(GO) run $(STATICCHECK) ./... && \
	 if grep -qx "	$*" $(CURDIR)/go.work; then GOWORK=$(CURDIR)/go.work $(GO) vet -race ./...; fi); \
	status=$$?; \
	echo "== $*: $$(( $$(date +%s) - start )) s"; \
	exit $$status

## standalone: each module, with GOWORK=off, has a tidy go.mod and resolves
## every import of its packages and tests (test-% then builds them alone):
## nothing it needs comes only from the workspace (go.work); a module left
## out of go.work says why in its README ("Outside the workspace")
standalone:
	@set -e; for m in $(MODULES); do \
		(cd $$m && $(GO) mod tidy -diff >/dev/null 2>&1 || { echo "$$m: go.mod is not tidy (GOWORK=off go mod tidy)"; exit 1; }; \
		 $(GO) list -deps -test ./... >/dev/null ) || exit 1; \
		if ! grep -qx "	$$m" go.work && ! grep -qs "^## Outside the workspace" $$m/README.md; then \
			echo "$$m: not in go.work, and its README.md has no section \"Outside the workspace\" saying why"; exit 1; \
		fi; \
	done; echo "== every module stands alone"

## conformance-data: clone the JSON-Schema-Test-Suite at the pinned commit
## into .cache/ (ignored by git), where the conformance tests look when
## ../shared is not beside the repository
conformance-data:
	@if [ ! -d .cache/JSON-Schema-Test-Suite/.git ]; then \
		git clone --quiet https://github.com/json-schema-org/JSON-Schema-Test-Suite .cache/JSON-Schema-Test-Suite; \
	fi
	@git -C .cache/JSON-Schema-Test-Suite checkout --quiet $(SUITE_COMMIT) && echo "JSON-Schema-Test-Suite at $(SUITE_COMMIT) in .cache/"

## fmt-check: fail when a Go file is not gofmt-formatted
fmt-check:
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './.git/*')); \
	if [ -n "$$out" ]; then echo "gofmt: these files need formatting:"; echo "$$out"; exit 1; fi

vet:
	@set -e; for m in $(MODULES); do (cd $$m && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./...); done

## bench: run every benchmark once (BENCHTIME=1s by default)
BENCHTIME ?= 1s
bench:
	@set -e; for m in $(MODULES); do \
		(cd $$m && $(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...); \
	done

## fuzz: run each fuzz target of every module for FUZZTIME (default 20s)
FUZZTIME ?= 20s
fuzz:
	@set -e; for m in $(MODULES); do (cd $$m && \
		for pkg in $$($(GO) list ./...); do \
			for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
				echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
			done; \
		done); \
	done

tidy:
	@set -e; for m in $(MODULES); do (cd $$m && $(GO) mod tidy); done
