package crosscheck_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/crosscheck"
	"github.com/agentio/agentio/internal/shared"
)

// fastestCheck returns the fastest of five checks of quote against one
// prepared input: the quote must be accepted.
func fastestCheck(t *testing.T, input, quote string) time.Duration {
	invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.q"})
	require.NoError(t, err)
	g := crosscheck.NewGrounds(crosscheck.Inputs{Text: input})
	require.Empty(t, invs.CheckGrounded(map[string]any{"q": quote}, g), "the input is prepared once, before timing")
	best := time.Duration(1 << 62)
	for range 5 {
		begin := time.Now()
		vs := invs.CheckGrounded(map[string]any{"q": quote}, g)
		best = min(best, time.Since(begin))
		require.Empty(t, vs)
	}
	return best
}

// TestScalingQuoteCheck holds the quote check to time linear in the input
// plus the quote, on the inputs a model's quote can make costly: a part
// that occurs at many overlapping places inside a longer word ("aaa" in a
// long run of "a"), and a part repeated through the quote that occurs
// mostly inside words. With input and quote both k times larger the check
// may take at most about k times as long (3k allowed, for noise on a
// shared machine; the quadratic behaviour this guards against takes k²).
// It times runs, so it runs in the measuring pass, without -race.
func TestScalingQuoteCheck(t *testing.T) {
	shared.Measuring(t)
	tests := []struct {
		name string
		k    int
		mk   func(scale int) (input, quote string)
	}{
		{"overlapping matches inside a word", 30, func(scale int) (string, string) {
			part := strings.Repeat("a", 1000*scale)
			return "start " + strings.Repeat("a", 10_000*scale) + " end " + part + " stop", "start ... " + part + " ... stop"
		}},
		{"a repeated part found inside words", 10, func(scale int) (string, string) {
			var b strings.Builder
			for i := range 2000 * scale {
				fmt.Fprintf(&b, "station%d ", i%97)
			}
			b.WriteString(strings.Repeat("tion| ", 100*scale))
			return b.String(), "tion" + strings.Repeat(" ... tion", 100*scale-1)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in1, q1 := tt.mk(1)
			inK, qK := tt.mk(tt.k)
			t1, tK := fastestCheck(t, in1, q1), fastestCheck(t, inK, qK)
			t.Logf("input %d B, quote %d B: %v; %dx: %v (%.1fx)", len(in1), len(q1), t1, tt.k, tK, float64(tK)/float64(t1))
			assert.Less(t, tK, time.Duration(3*tt.k)*t1+5*time.Millisecond, "%dx the input and the quote cost %.0fx the time", tt.k, float64(tK)/float64(t1))
		})
	}
}

// BenchmarkQuoteOverlappingMatches checks a quote whose middle part, 30 KB
// of "a", occurs at every offset of a 300 KB run of "a" before its one
// whole occurrence.
func BenchmarkQuoteOverlappingMatches(b *testing.B) {
	part := strings.Repeat("a", 30_000)
	input := "start " + strings.Repeat("a", 300_000) + " end " + part + " stop"
	benchQuotes(b, input, []any{"start ... " + part + " ... stop"})
}

// TestRepeatedQuotesPaidOnce: an output repeating one costly quote (its
// words found at thousands of places inside longer words before their
// whole occurrence) in many fields costs about what one such quote costs.
func TestRepeatedQuotesPaidOnce(t *testing.T) {
	var b strings.Builder
	for i := range 20_000 {
		fmt.Fprintf(&b, "station%d ", i%97)
	}
	b.WriteString("tion at the end")
	invs, err := crosscheck.CompileInvariants(crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.q[*]"})
	require.NoError(t, err)
	check := func(n int) time.Duration {
		qs := make([]any, n)
		for i := range qs {
			qs[i] = "tion at the end"
		}
		best := time.Duration(1 << 62)
		for range 5 {
			g := crosscheck.NewGrounds(crosscheck.Inputs{Text: b.String()})
			begin := time.Now()
			vs := invs.CheckGrounded(map[string]any{"q": qs}, g)
			best = min(best, time.Since(begin))
			require.Empty(t, vs)
		}
		return best
	}
	one, many := check(1), check(1000)
	t.Logf("one quote %v, the same quote 1,000 times %v", one, many)
	assert.Less(t, many, 10*one+5*time.Millisecond)
}
