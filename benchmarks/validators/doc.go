// Package validators measures agentio's schema validation beside the Go
// validators a user would pick instead: github.com/santhosh-tekuri/jsonschema/v6,
// github.com/kaptinlin/jsonschema and github.com/xeipuuv/gojsonschema, with
// github.com/google/jsonschema-go (the authority agentio's fast path is held
// to) and json.Valid (reading the bytes once) as yardsticks. Every one is
// given the same bytes and answers valid or not, so decoding is part of
// each measurement. agentio is measured twice: ValidateJSON, which reads the
// bytes without building a value, and Decode, which returns the value too,
// as jsonschema-go's and santhosh-tekuri's checks build one.
//
// It is its own module so that the peers never reach the root module's
// dependencies; it has no code besides its tests and benchmarks:
//
//	go test -run '^$' -bench . -benchmem          # replies of 11 KB, 100 KB and 1 MB, the corpus
//	go test -run Peers -v                           # verdicts compared on the corpus
//
// The corpus benchmarks and tests read ../shared/corpora beside the
// repository; without it they skip (they fail when AGENTIO_CONFORMANCE is
// "required").
package validators
