package extract_test

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/agentio/agentio/extract"
	"github.com/agentio/agentio/internal/shared"
)

// TestRepairScaling repairs each kind of broken reply of
// BenchmarkRepairKinds, and a reply of nothing but opening braces, at two
// sizes, the second four times the first, and fails when the time grows
// more than six-fold: repair is linear in its input whatever the input
// holds. A step up to 9x whose allocations grew at most 6x (buffers grow by
// doubling) is logged rather than failed: the work counted is linear, and
// a shared machine can cost that much more for a larger input's memory. It
// times runs, so it runs in the measuring pass (without -race, see
// internal/shared.Measuring); each time is the fastest of five rounds (up
// to twenty while the step looks too steep) that visit both sizes in turn,
// so that the machine's drift weighs on both alike, with the collector run
// before each and off during it.
func TestRepairScaling(t *testing.T) {
	shared.Measuring(t)
	// Collections would fall on the sizes unevenly: each run starts after one.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	const base = 128 << 10
	type kind struct {
		name  string
		build func(size int) string
		run   func(text string)
	}
	repair := func(text string) { _, _ = extract.JSON(text, extract.WithRepair()) }
	kinds := []kind{{"open_braces", func(n int) string { return strings.Repeat("{", n) },
		func(text string) { extract.Candidates(text, extract.WithRepair()) }}}
	for _, k := range brokenKinds {
		kinds = append(kinds, kind{k.name, func(n int) string { return brokenText(k.item, n) }, repair})
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			small, large := k.build(base), k.build(4*base)
			best := [2]time.Duration{1 << 62, 1 << 62}
			ratio := 0.0
			for round := 0; round < 20 && (round < 5 || ratio > 6); round++ {
				for i, text := range []string{small, large} {
					runtime.GC()
					start := time.Now()
					k.run(text)
					best[i] = min(best[i], time.Since(start))
				}
				ratio = float64(best[1]) / float64(best[0])
			}
			var alloc [2]uint64
			for i, text := range []string{small, large} {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				k.run(text)
				runtime.ReadMemStats(&after)
				alloc[i] = after.TotalAlloc - before.TotalAlloc
			}
			grew := float64(alloc[1]) / float64(max(alloc[0], 1))
			t.Logf("%s: %v for %d bytes, %v for %d bytes (%.1fx the time, %.1fx the bytes allocated)",
				k.name, best[0], len(small), best[1], len(large), ratio, grew)
			switch {
			case grew > 6:
				t.Errorf("%s: 4x the input allocated %.1fx the bytes", k.name, grew)
			case ratio > 9:
				t.Errorf("%s: 4x the input took %.1fx the time", k.name, ratio)
			case ratio > 6:
				t.Logf("%s: a step of %.1fx with linear allocation: the machine's noise, not the work", k.name, ratio)
			}
		})
	}
}

// TestRepairRegexpScaling: a reply of many '/' that open a regular
// expression literal never closed on its line ("[/[/[/...") is read in
// time linear in its size, though each '/' begins a scan for the
// literal's end.
func TestRepairRegexpScaling(t *testing.T) {
	shared.Measuring(t)
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	small, large := "["+strings.Repeat("[/", 4<<10), "["+strings.Repeat("[/", 16<<10)
	best := [2]time.Duration{1 << 62, 1 << 62}
	ratio := 0.0
	for round := 0; round < 10 && (round < 3 || ratio > 6); round++ {
		for i, text := range []string{small, large} {
			runtime.GC()
			start := time.Now()
			_, _ = extract.JSON(text, extract.WithRepair())
			best[i] = min(best[i], time.Since(start))
		}
		ratio = float64(best[1]) / float64(best[0])
	}
	t.Logf("%v for %d bytes, %v for %d bytes (%.1fx)", best[0], len(small), best[1], len(large), ratio)
	if ratio > 9 {
		t.Errorf("4x the input took %.1fx the time", ratio)
	}
}

// TestRepairEscapedQuoteScaling: a reply of many strings each holding a
// bad escape and ending in an escaped quote ("\d \"\d \"...), so that
// every quote may open a string running to the end, is read in time
// linear in its size, with a validator or without.
func TestRepairEscapedQuoteScaling(t *testing.T) {
	shared.Measuring(t)
	unit := `"\d \"`
	small, large := "["+strings.Repeat(unit, 2<<10), "["+strings.Repeat(unit, 8<<10)
	for _, opts := range scalingOptions {
		t.Run(opts.name, func(t *testing.T) {
			checkScaling(t, small, large, func(text string) { _, _ = extract.JSON(text, opts.opts...) })
		})
	}
}

// TestRepairShapesScaling repairs, at two sizes, replies of one shape
// repeated that once took time quadratic in their size: each is read in
// time linear in it, with a validator or without.
func TestRepairShapesScaling(t *testing.T) {
	shared.Measuring(t)
	shapes := []struct{ name, prefix, unit, suffix string }{
		// Strings the text ends inside, each cut short at its first comma
		// by the second reading of a guess, the next one running to the
		// end again.
		{"strings_cut_at_commas", "[", `"a, `, "]"},
		{"values_cut_at_commas", `{"k": `, `"a, `, "}"},
		// Strings holding an opening bracket, each cut at an odd quote.
		{"brackets_in_strings", "", `["[`, ""},
		// Quotes, each followed by a long word that is no literal.
		{"words_after_quotes", `{"k": `, `'f(`, ""},
		{"words_after_key_quotes", "{", "`1-", ""},
		// Quotes other than '"' after a comma, each making the search
		// for a quoted key read to the line's end.
		{"backticks_after_commas", `{"k": `, "`...,", ""},
		// Objects whose bare key is followed by a typographic quote
		// closed nowhere: each '{' begins a repair that looks for the
		// closing quote to the line's end.
		{"keys_before_open_quotes", "[", `{.5"„`, ""},
	}
	for _, sh := range shapes {
		build := func(size int) string {
			// An even count: an odd quote at the end makes the first
			// reading a guess, whose second reading is the one to time.
			n := size / len(sh.unit)
			return sh.prefix + strings.Repeat(sh.unit, n-n%2) + sh.suffix
		}
		small, large := build(16<<10), build(64<<10)
		for _, opts := range scalingOptions {
			t.Run(sh.name+"/"+opts.name, func(t *testing.T) {
				checkScaling(t, small, large, func(text string) { _, _ = extract.JSON(text, opts.opts...) })
			})
		}
	}
}

// scalingOptions are the ways the scaling tests call repair: alone, and
// with a validator, which makes a guessed repair read its second way too.
var scalingOptions = []struct {
	name string
	opts []extract.Option
}{
	{"repair", []extract.Option{extract.WithRepair()}},
	{"accept", []extract.Option{extract.WithRepair(), extract.WithAccept(func(v json.RawMessage) bool { return len(v)%2 == 0 })}},
}

// checkScaling times run on small and on large, four times its size, and
// fails when the time grows more than six-fold, as TestRepairScaling
// does: each time is the fastest of rounds that visit both sizes in turn,
// with the collector run before each and off during it; a step up to 9x
// whose allocations grew at most 6x is logged rather than failed.
func checkScaling(t *testing.T, small, large string, run func(text string)) {
	t.Helper()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	best := [2]time.Duration{1 << 62, 1 << 62}
	ratio := 0.0
	for round := 0; round < 20 && (round < 3 || ratio > 6); round++ {
		for i, text := range []string{small, large} {
			runtime.GC()
			start := time.Now()
			run(text)
			best[i] = min(best[i], time.Since(start))
		}
		ratio = float64(best[1]) / float64(best[0])
		if best[1] > 2*time.Second {
			break // no use measuring a quadratic one again
		}
	}
	var alloc [2]uint64
	for i, text := range []string{small, large} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		run(text)
		runtime.ReadMemStats(&after)
		alloc[i] = after.TotalAlloc - before.TotalAlloc
	}
	grew := float64(alloc[1]) / float64(max(alloc[0], 1))
	t.Logf("%v for %d bytes, %v for %d bytes (%.1fx the time, %.1fx the bytes allocated)",
		best[0], len(small), best[1], len(large), ratio, grew)
	switch {
	case grew > 6:
		t.Errorf("4x the input allocated %.1fx the bytes", grew)
	case ratio > 9:
		t.Errorf("4x the input took %.1fx the time", ratio)
	case ratio > 6:
		t.Logf("a step of %.1fx with linear allocation: the machine's noise, not the work", ratio)
	}
}

// TestRepairEscapedQuoteBraceScaling: a reply of a member value made of
// escaped quotes, braces, typographic quotes and parentheses repeated
// (\"{“(} again and again), repaired with a validator that accepts
// anything, is read in time linear in its size. Found by a random search
// of repeated shapes; as slow before #41: each '{' begins a repair
// decided by its second reading, which reads to the text's end, and the
// scan goes on from inside it. It is quadratic up to some 32 KB (two
// seconds), where the reread allowance ends it. Each size is timed at
// its best of two runs (checkScaling would run twenty rounds of
// seconds).
func TestRepairEscapedQuoteBraceScaling(t *testing.T) {
	shared.Measuring(t)
	anything := func(json.RawMessage) bool { return true }
	unit := `\"{“(}`
	build := func(size int) string { return `{"k": ` + strings.Repeat(unit, size/len(unit)) }
	var best [2]time.Duration
	for i, text := range []string{build(6 << 10), build(24 << 10)} {
		best[i] = time.Hour
		for range 2 {
			start := time.Now()
			_, _ = extract.JSON(text, extract.WithRepair(), extract.WithAccept(anything))
			best[i] = min(best[i], time.Since(start))
		}
	}
	ratio := float64(best[1]) / float64(best[0])
	t.Logf("%v for 6 KiB, %v for 24 KiB (%.1fx the time)", best[0], best[1], ratio)
	if ratio > 6 {
		t.Errorf("4x the input took %.1fx the time", ratio)
	}
}
