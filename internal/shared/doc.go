// Package shared finds the data the conformance and corpus tests measure
// against: the JSON-Schema-Test-Suite and the corpora of real replies and
// schemas. They are not in the repository. A test looks for them in
// ../shared beside the repository's root (as CI lays it out) and, for the
// suite, in .cache/JSON-Schema-Test-Suite under the root, where
// `make conformance-data` clones it at the pinned commit.
//
// When the data is missing, a test skips with one line saying how to get
// it; with AGENTIO_CONFORMANCE=required in the environment (.ci/run sets
// it), it fails instead, so that a run which must measure cannot pass by
// measuring nothing.
package shared
