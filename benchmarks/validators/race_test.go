//go:build race

package validators

// raceBuild is true under the race detector, which slows the corpus tests
// five-fold and can find no race in them: they skip.
const raceBuild = true
