package regtime

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestNext(t *testing.T) {
	at := time.Date(2026, 1, 5, 10, 0, 0, 123456789, time.FixedZone("x", 3600))
	assert.Equal(t, time.Date(2026, 1, 5, 9, 0, 0, 123456000, time.UTC), Next(at, time.Time{}))
	prev := time.Date(2026, 1, 5, 9, 0, 0, 123456000, time.UTC)
	assert.Equal(t, prev.Add(time.Microsecond), Next(at, prev), "a clock that has not moved past prev")
	assert.Equal(t, prev.Add(time.Microsecond), Next(prev.Add(-time.Hour), prev), "a clock that went back")
	assert.Equal(t, prev.Add(time.Second), Next(prev.Add(time.Second), prev))
}

func TestSame(t *testing.T) {
	a := time.Date(2026, 1, 5, 9, 0, 0, 123456000, time.UTC)
	assert.True(t, Same(a, a.Add(999*time.Nanosecond)))
	assert.True(t, Same(a, a.In(time.FixedZone("x", 3600))))
	assert.False(t, Same(a, a.Add(time.Microsecond)))
	assert.False(t, Same(a, time.Time{}))
	assert.False(t, Same(time.Time{}, a))
	assert.True(t, Same(time.Time{}, time.Time{}))
	assert.Equal(t, "2026-01-05T09:00:00.123456Z", a.Format(Layout))
}
