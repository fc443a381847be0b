# agentio: every target works across all modules of the repository (the root
# module and the nested adapter/example modules), found by their go.mod files.

GO      ?= go
MODULES := $(shell find . -name go.mod -not -path './.git/*' -exec dirname {} \; | sort)
export GOWORK := off

.PHONY: test fmt-check vet bench fuzz tidy

## test: gofmt check, go vet and go test -race in every module
test: fmt-check
	@set -e; for m in $(MODULES); do \
		echo "== $$m: vet"; (cd $$m && $(GO) vet ./...); \
		echo "== $$m: test -race"; (cd $$m && $(GO) test -race -count=1 ./...); \
	done

## fmt-check: fail when a Go file is not gofmt-formatted
fmt-check:
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './.git/*')); \
	if [ -n "$$out" ]; then echo "gofmt: these files need formatting:"; echo "$$out"; exit 1; fi

vet:
	@set -e; for m in $(MODULES); do (cd $$m && $(GO) vet ./...); done

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
