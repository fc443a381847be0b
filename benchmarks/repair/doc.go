// Package repair measures agentio's repair beside
// github.com/kaptinlin/jsonrepair (the Go port of josdejong/jsonrepair) over
// the shared repair corpus, in one run: per category of the corpus, the
// share of cases each returns the expected value for, and how many cases
// each answers with a value other than the expected one (worse than an
// error, which at least makes a caller ask again).
//
// It is its own module so that kaptinlin/jsonrepair never reaches the root
// module's dependencies; it has no code besides its tests:
//
//	go test -run CorpusSideBySide -v
//
// The corpus is repair.jsonl in ../shared/corpora beside the repository;
// without it the test skips (it fails when AGENTIO_CONFORMANCE is
// "required"). Cases are judged as extract's own corpus test judges them:
// cases that need a schema or a target type are left out, a case expecting
// failure passes on an error, any other on a value equal, once decoded, to
// the expected one.
package repair
