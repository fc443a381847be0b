package benchkit

import (
	"encoding/json"
	"testing"
	"time"
)

// RatioToValid times work and json.Valid on data in the same iterations
// of b and reports the ratio of their summed times as the metric
// x-json.Valid, with data's length as the bytes per operation. Timing both
// in each iteration makes a shared machine's drift fall on both alike. It
// leans toward the work: json.Valid reads data after the work's
// allocations have pushed it out of the caches, and the collector work
// one iteration leaves may run during the next json.Valid.
func RatioToValid(b *testing.B, data []byte, work func()) {
	var base, spent time.Duration
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		t0 := time.Now()
		json.Valid(data)
		t1 := time.Now()
		work()
		spent += time.Since(t1)
		base += t1.Sub(t0)
	}
	b.ReportMetric(float64(spent)/float64(base), "x-json.Valid")
}
