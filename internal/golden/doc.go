// Package golden compares text rendered by a test with a golden file in the
// test's testdata folder. Run the tests with -update to rewrite the files
// from what the code renders now; golden diffs are reviewed like code.
//
//	golden.Check(t, "reask_invalid", got) // compares with testdata/reask_invalid.golden
//
// It is for tests only.
package golden
