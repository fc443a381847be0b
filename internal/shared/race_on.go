//go:build race

package shared

// Race reports whether the tests were built with the race detector.
const Race = true
