//go:build race

package batch_test

const raceEnabled = true
