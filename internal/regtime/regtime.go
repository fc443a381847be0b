package regtime

import "time"

// Layout is the text form registries store timestamps in: UTC, six
// fraction digits, so that text order is time order.
const Layout = "2006-01-02T15:04:05.000000Z"

// Next returns the ModifiedAt of an entry written at now whose previous
// version was modified at prev (zero for a new entry): now in UTC at
// microsecond precision, or one microsecond after prev when the clock has
// not moved past it.
func Next(now, prev time.Time) time.Time {
	t := now.UTC().Truncate(time.Microsecond)
	if !prev.IsZero() && !t.After(prev) {
		t = prev.UTC().Truncate(time.Microsecond).Add(time.Microsecond)
	}
	return t
}

// Same reports whether a stored ModifiedAt is the version a caller named,
// at microsecond precision; zero matches only zero.
func Same(stored, want time.Time) bool {
	if stored.IsZero() || want.IsZero() {
		return stored.IsZero() && want.IsZero()
	}
	return stored.Truncate(time.Microsecond).Equal(want.Truncate(time.Microsecond))
}
