package eval_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/eval"
)

// aggregate draws a report of n runs of target "m" that are each valid on
// the first call with probability rate, else valid after one re-ask; only
// the aggregates are filled in, as Compare reads them.
func aggregate(rng *rand.Rand, n int, rate float64) *eval.Report {
	first := 0
	for range n {
		if rng.Float64() < rate {
			first++
		}
	}
	calls := n + (n - first)
	return &eval.Report{Targets: []eval.TargetReport{{
		Name: "m", Cases: n, ValidFirst: first, ValidFirstRate: float64(first) / float64(n),
		Valid: n, ValidRate: 1, Calls: calls, CallsPerValid: float64(calls) / float64(n),
	}}}
}

// flagged returns how many of trials draws of a baseline of nb runs at
// rate rb and a current run of nc runs at rate rc the default gate flags,
// on either check, drawn from seed.
func flagged(t *testing.T, seed uint64, trials, nb, nc int, rb, rc float64) int {
	rng := rand.New(rand.NewPCG(seed, uint64(nb)<<32|uint64(nc)))
	n := 0
	for range trials {
		v, err := eval.Compare(aggregate(rng, nb, rb), aggregate(rng, nc, rc), nil)
		require.NoError(t, err)
		if v.Regressed {
			n++
		}
	}
	return n
}

// TestCompareUnchangedSmallSample is the case that shows why the current
// run's size must count: a 900/1000 baseline and an unchanged 90% model
// evaluated on 20 cases.
func TestCompareUnchangedSmallSample(t *testing.T) {
	n := flagged(t, 42, 2000, 1000, 20, 0.9, 0.9)
	assert.LessOrEqual(t, n, 100, "an unchanged model flagged in %d of 2000 trials", n)
}

// TestCompareSimulation holds the default gate to its stated error rates
// with fixed seeds: for every pair of baseline and current sizes in {20,
// 50, 200, 1000}, an unchanged rate (0.9, 0.6) is flagged in at most 5% of
// 2,000 trials; a drop from 0.92 to 0.80 with 500 cases each is flagged in
// at least 95%. The tables it logs (go test ./eval -run
// TestCompareSimulation -v) are those of the package doc.
func TestCompareSimulation(t *testing.T) {
	const trials = 2000
	sizes := []int{20, 50, 200, 1000}
	for _, rate := range []float64{0.9, 0.6} {
		var table strings.Builder
		fmt.Fprintf(&table, "unchanged rate %.1f, share flagged of %d trials (rows: baseline cases, columns: current cases)\n", rate, trials)
		for _, nb := range sizes {
			fmt.Fprintf(&table, "%5d", nb)
			for _, nc := range sizes {
				n := flagged(t, 1, trials, nb, nc, rate, rate)
				fmt.Fprintf(&table, " %5.1f%%", 100*float64(n)/trials)
				assert.LessOrEqual(t, n, trials/20, "rate %.1f, baseline %d, current %d: flagged %d of %d", rate, nb, nc, n, trials)
			}
			table.WriteString("\n")
		}
		t.Log("\n" + table.String())
	}

	n := flagged(t, 2, trials, 500, 500, 0.92, 0.80)
	assert.GreaterOrEqual(t, n, trials*95/100, "a drop from 0.92 to 0.80 on 500 cases each flagged in %d of %d", n, trials)

	var power strings.Builder
	power.WriteString("power: share of trials flagged, the same number of cases in both runs\n")
	for _, drop := range [][2]float64{{0.92, 0.80}, {0.90, 0.85}, {0.60, 0.50}} {
		fmt.Fprintf(&power, "%.2f to %.2f:", drop[0], drop[1])
		for _, size := range []int{20, 50, 200, 500, 1000} {
			n := flagged(t, 3, trials, size, size, drop[0], drop[1])
			fmt.Fprintf(&power, " %d: %.1f%%", size, 100*float64(n)/trials)
		}
		power.WriteString("\n")
	}
	t.Log("\n" + power.String())
}

// binomial returns the probabilities of 0..n successes in n trials of
// probability p.
func binomial(n int, p float64) []float64 {
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x + 1)); return v }
	out := make([]float64, n+1)
	for k := range out {
		out[k] = math.Exp(lg(n) - lg(k) - lg(n-k) + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
	}
	return out
}

// TestCompareFalseFlagExact computes, by enumerating every pair of
// outcomes rather than by simulation, the probability that the
// first-call check flags an unchanged rate, for rates from 0.5 to 0.99
// and baselines of 20 to 1,000 cases against current runs of 10 to 1,000:
// it holds the check to the stated (1-Level)/2 = 2.5%. The tables it logs
// (go test ./eval -run TestCompareFalseFlagExact -v) are those of the
// package doc.
func TestCompareFalseFlagExact(t *testing.T) {
	opts := &eval.CompareOptions{IgnoreCalls: true}
	baselines, currents := []int{20, 50, 200, 1000}, []int{10, 20, 50, 200, 1000}
	for _, rate := range []float64{0.5, 0.6, 0.8, 0.9, 0.95, 0.99} {
		var table strings.Builder
		fmt.Fprintf(&table, "rate %.2f", rate)
		for _, nc := range currents {
			fmt.Fprintf(&table, " %6d", nc)
		}
		table.WriteString("\n")
		for _, nb := range baselines {
			fmt.Fprintf(&table, "%9d", nb)
			pb := binomial(nb, rate)
			for _, nc := range currents {
				pc := binomial(nc, rate)
				size := 0.0
				for xb := range pb {
					for xc := range pc {
						if pb[xb]*pc[xc] < 1e-15 {
							continue
						}
						v, err := eval.Compare(firstOnly(xb, nb), firstOnly(xc, nc), opts)
						require.NoError(t, err)
						if v.Regressed {
							size += pb[xb] * pc[xc]
						}
					}
				}
				fmt.Fprintf(&table, " %5.2f%%", 100*size)
				assert.LessOrEqual(t, size, 0.025, "rate %v, baseline %d, current %d", rate, nb, nc)
			}
			table.WriteString("\n")
		}
		t.Log("\n" + table.String())
	}
}
