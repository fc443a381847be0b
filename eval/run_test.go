package eval_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/crosscheck"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/eval"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

// router sends each call to the scripted provider of the case whose
// marker ("case <id>") the first user message holds, so that runs in any
// order get their own script.
func router(t *testing.T, scripts map[string]*providertest.Provider) provider.Provider {
	return provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		for id, p := range scripts {
			if len(req.Messages) > 0 && strings.Contains(req.Messages[0].Content, "case "+id+":") {
				return p.Generate(ctx, req)
			}
		}
		t.Errorf("no script for %q", req.Messages[0].Content)
		return nil, errors.New("no script")
	})
}

const objN = `{"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}`

func inline(id string, extra string) eval.Case {
	c := eval.Case{ID: id, Schema: []byte(objN), Prompt: "case " + id + ": give n"}
	if extra != "" {
		c.Expected = []byte(extra)
	}
	return c
}

func usage(n int) provider.Usage { return provider.Usage{InputTokens: n, OutputTokens: n} }

func TestRunMeasures(t *testing.T) {
	cases := []eval.Case{
		inline("first", `{"n": 1}`),
		inline("reask", `{"n": 2}`),
		inline("disagree", `{"n": 3}`),
		inline("refused", ""),
		inline("truncated", ""),
		inline("nojson", ""),
		inline("invalid", ""),
		{ID: "agent", Blueprint: "testdata/agents/ticket", Prompt: "case agent: disk full"},
		{ID: "params", Schema: []byte(objN), Parameters: map[string]any{"doc": "x", "prompt": "case params: n of the doc"}},
		{ID: "invariant", Schema: []byte(`{"type": "array"}`), Prompt: "case invariant: list",
			Invariants: []crosscheck.Invariant{{Kind: "unique_by", Items: "$[*]", Key: []string{"id"}}}},
		{ID: "setup", Blueprint: "testdata/agents/missing", Prompt: "case setup: x"},
		inline("repaired", ""),
	}
	scripts := map[string]*providertest.Provider{
		"first":     providertest.New(providertest.Reply{Text: `{"n": 1}`, Usage: usage(5)}),
		"reask":     providertest.New(providertest.Reply{Text: `{"n": "two"}`, Usage: usage(5)}, providertest.Reply{Text: `{"n": 2}`, Usage: usage(7)}),
		"disagree":  providertest.New(providertest.Text(`{"n": 4}`)),
		"refused":   providertest.New(providertest.Refused("no")),
		"truncated": providertest.New(providertest.Truncated(`{"n": 1`), providertest.Truncated(`{"n": 1`), providertest.Truncated(`{"n": 1`)),
		"nojson":    providertest.New(providertest.Text("no"), providertest.Text("no"), providertest.Text("no")),
		"invalid":   providertest.New(providertest.Text(`{"n": "a"}`), providertest.Text(`{"m": 1}`), providertest.Text(`{"n": 1.5}`)),
		"agent":     providertest.New(providertest.Text(`{"title": "Disk full", "priority": "urgent"}`), providertest.Text(`{"title": "Disk full", "priority": "high"}`)),
		"params":    providertest.New(providertest.Text(`{"n": 9}`)),
		"invariant": providertest.New(providertest.Text(`[{"id": 1}, {"id": 1}]`), providertest.Text(`[{"id": 1}, {"id": 2}]`)),
		"repaired":  providertest.New(providertest.Text(`{"n": 1,}`)),
	}
	// The second target's scripts.
	other := map[string]*providertest.Provider{}
	for _, c := range cases {
		other[c.ID] = providertest.New(providertest.Failed(errors.New("down")))
	}
	rep, err := eval.Run(context.Background(), cases, []eval.Target{
		{Name: "model-a", Provider: router(t, scripts)},
		{Name: "model-b", Provider: router(t, other)},
	}, eval.WithConcurrency(3), eval.WithEnforceOptions(enforce.WithRepair()))
	require.NoError(t, err)
	require.Len(t, rep.Results, 2*len(cases))

	got := map[string]eval.CaseResult{}
	for i, r := range rep.Results {
		assert.Equal(t, cases[i/2].ID, r.Case, "case order, then target order")
		assert.Equal(t, []string{"model-a", "model-b"}[i%2], r.Target)
		if r.Target == "model-a" {
			got[r.Case] = r
		}
	}
	yes, no := true, false
	tests := []struct {
		id            string
		valid, first  bool
		reasks, calls int
		class         eval.Class
		agrees        *bool
		keyword, path string
	}{
		{"first", true, true, 0, 1, "", &yes, "", ""},
		{"reask", true, false, 1, 2, "", &yes, "type", "$.n"},
		{"disagree", true, true, 0, 1, "", &no, "", ""},
		{"refused", false, false, 0, 1, eval.Class(enforce.OutcomeRefused), nil, "", ""},
		{"truncated", false, false, 2, 3, eval.Class(enforce.OutcomeTruncated), nil, "truncated", "$"},
		{"nojson", false, false, 2, 3, eval.Class(enforce.OutcomeNoJSON), nil, "", ""},
		{"invalid", false, false, 2, 3, eval.Class(enforce.OutcomeInvalid), nil, "required", "$.n"},
		{"agent", true, false, 1, 2, "", nil, "enum", "$.priority"},
		{"params", true, true, 0, 1, "", nil, "", ""},
		{"invariant", true, false, 1, 2, "", nil, "invariant", "$[1]"},
		{"setup", false, false, 0, 0, eval.ClassSetup, nil, "", ""},
		{"repaired", true, true, 0, 1, "", nil, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			r := got[tt.id]
			assert.Equal(t, tt.valid, r.Valid, r.Error)
			assert.Equal(t, tt.first, r.ValidFirst)
			assert.Equal(t, tt.reasks, r.Reasks)
			assert.Equal(t, tt.calls, r.Calls)
			assert.Len(t, r.Outcomes, tt.calls, "an outcome per attempt")
			if tt.calls > 0 {
				last := enforce.Outcome(tt.class)
				if tt.valid {
					last = enforce.OutcomeValid
				}
				assert.Equal(t, last, r.Outcomes[tt.calls-1])
			}
			assert.Equal(t, tt.class, r.Class)
			assert.Equal(t, tt.agrees, r.Agrees)
			assert.Equal(t, tt.valid, r.Error == "", r.Error)
			for _, v := range r.Violations {
				assert.NotEmpty(t, v.Keyword, "a violation of no keyword is named by its attempt's outcome: %+v", v)
			}
			if tt.keyword != "" {
				found := false
				for _, v := range r.Violations {
					found = found || (v.Keyword == tt.keyword && v.Path == tt.path)
				}
				assert.True(t, found, "%s %s in %+v", tt.keyword, tt.path, r.Violations)
			} else if tt.valid {
				assert.Empty(t, r.Violations)
			}
		})
	}
	assert.Equal(t, 10+14, got["reask"].Tokens)
	assert.Positive(t, got["repaired"].Repairs)
	for id, p := range scripts {
		assert.Zero(t, p.Remaining(), "script of %s used up", id)
	}

	a, b := rep.Target("model-a"), rep.Target("model-b")
	require.NotNil(t, a)
	require.NotNil(t, b)
	assert.Equal(t, len(cases), a.Cases)
	assert.Equal(t, 4, a.ValidFirst) // first, disagree, params, repaired
	assert.Equal(t, 7, a.Valid)
	assert.Equal(t, []int{4, 3}, a.ValidAfter)
	assert.Equal(t, map[eval.Class]int{eval.Class(enforce.OutcomeRefused): 1, eval.Class(enforce.OutcomeTruncated): 1,
		eval.Class(enforce.OutcomeNoJSON): 1, eval.Class(enforce.OutcomeInvalid): 1, eval.ClassSetup: 1}, a.Failures)
	assert.Equal(t, 3, a.Expected)
	assert.Equal(t, 2, a.Agreed)
	assert.InDelta(t, 2.0/3, a.AgreementRate, 1e-9)
	assert.Equal(t, map[eval.Class]int{eval.Class(enforce.OutcomeProviderError): len(cases) - 1, eval.ClassSetup: 1}, b.Failures)
	assert.Zero(t, b.Valid)
	assert.Zero(t, b.CallsPerValid)
}

func TestRunConcurrencyBound(t *testing.T) {
	var cases []eval.Case
	for i := range 12 {
		cases = append(cases, eval.Case{ID: string(rune('a' + i)), Schema: []byte(`{}`), Prompt: "p"})
	}
	for _, n := range []int{1, 2, 4} {
		var now, peak atomic.Int32
		gate := make(chan struct{})
		var once sync.Once
		p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
			cur := now.Add(1)
			defer now.Add(-1)
			for {
				old := peak.Load()
				if cur <= old || peak.CompareAndSwap(old, cur) {
					break
				}
			}
			if cur == int32(n) {
				once.Do(func() { close(gate) })
			}
			select { // hold the call until n run at once, so the peak is reached
			case <-gate:
			case <-ctx.Done():
			}
			return &provider.Response{Text: `{}`, StopReason: provider.StopEnd}, nil
		})
		// A run that never reaches n at once would wait on the gate: the
		// timeout turns that into a failure rather than a hang.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		rep, err := eval.Run(ctx, cases, []eval.Target{{Name: "m", Provider: p}}, eval.WithConcurrency(n))
		cancel()
		require.NoError(t, err)
		assert.Equal(t, int32(n), peak.Load(), "concurrency %d", n)
		assert.Equal(t, 12, rep.Targets[0].Valid)
	}
}

func TestRunRateLimit(t *testing.T) {
	cases := []eval.Case{inline("a", ""), inline("b", ""), inline("c", "")}
	var mu sync.Mutex
	var at []time.Time
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		mu.Lock()
		at = append(at, time.Now())
		mu.Unlock()
		return &provider.Response{Text: `{"n": 1}`, StopReason: provider.StopEnd}, nil
	})
	_, err := eval.Run(context.Background(), cases, []eval.Target{{Name: "m", Provider: p}}, eval.WithRateLimit(50), eval.WithConcurrency(3))
	require.NoError(t, err)
	require.Len(t, at, 3)
	first, last := at[0], at[0]
	for _, x := range at {
		if x.Before(first) {
			first = x
		}
		if x.After(last) {
			last = x
		}
	}
	assert.GreaterOrEqual(t, last.Sub(first), 35*time.Millisecond, "three calls at 50/s span at least 40ms")
}

// TestRunProgress: every run is reported once, the counts climb to the
// total, and Valid counts the valid runs reported so far.
func TestRunProgress(t *testing.T) {
	cases := []eval.Case{inline("a", ""), inline("b", ""), inline("c", ""), inline("d", "")}
	good := provider.Func(func(context.Context, *provider.Request) (*provider.Response, error) {
		return &provider.Response{Text: `{"n": 1}`, StopReason: provider.StopEnd}, nil
	})
	bad := provider.Func(func(context.Context, *provider.Request) (*provider.Response, error) {
		return &provider.Response{Text: "no", StopReason: provider.StopEnd}, nil
	})
	var seen []eval.Progress
	rep, err := eval.Run(context.Background(), cases, []eval.Target{{Name: "good", Provider: good}, {Name: "bad", Provider: bad}},
		eval.WithConcurrency(3), eval.WithProgress(func(p eval.Progress) { seen = append(seen, p) }))
	require.NoError(t, err)
	require.Len(t, seen, 8)
	runs := map[string]bool{}
	valid := 0
	for i, p := range seen {
		assert.Equal(t, i+1, p.Done)
		assert.Equal(t, 8, p.Total)
		require.NotNil(t, p.Last)
		runs[p.Last.Case+"/"+p.Last.Target] = true
		if p.Last.Valid {
			valid++
		}
		assert.Equal(t, valid, p.Valid)
	}
	assert.Len(t, runs, 8, "each run reported once")
	assert.Equal(t, 4, seen[7].Valid)
	assert.Equal(t, 4, rep.Target("good").Valid)

	_, err = eval.Run(context.Background(), cases, []eval.Target{{Name: "good", Provider: good}}, eval.WithProgress(nil))
	assert.ErrorIs(t, err, eval.ErrInvalidOption)
}

func TestRunErrors(t *testing.T) {
	p := providertest.New()
	ok := []eval.Target{{Name: "m", Provider: p}}
	tests := []struct {
		name    string
		targets []eval.Target
		opts    []eval.Option
	}{
		{"zero concurrency", ok, []eval.Option{eval.WithConcurrency(0)}},
		{"negative rate", ok, []eval.Option{eval.WithRateLimit(-1)}},
		{"nil option", ok, []eval.Option{nil}},
		{"unnamed target", []eval.Target{{Provider: p}}, nil},
		{"nil provider", []eval.Target{{Name: "m"}}, nil},
		{"duplicate name", []eval.Target{{Name: "m", Provider: p}, {Name: "m", Provider: p}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := eval.Run(context.Background(), []eval.Case{inline("a", "")}, tt.targets, tt.opts...)
			assert.ErrorIs(t, err, eval.ErrInvalidOption)
			assert.Nil(t, rep)
		})
	}
	assert.Empty(t, p.Requests())

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := eval.Run(ctx, []eval.Case{inline("a", "")}, ok)
	assert.ErrorIs(t, err, context.Canceled)
	require.NotNil(t, rep)
	assert.True(t, rep.Partial)
}

// TestRunMissingGroundingInput: a case whose invariant quotes a parameter
// the case does not give fails as a setup error, before any call.
func TestRunMissingGroundingInput(t *testing.T) {
	c := inline("q", "")
	c.Invariants = []crosscheck.Invariant{{Kind: crosscheck.QuoteInInput, Values: "$.n", Parameter: "contract"}}
	p := providertest.New()
	rep, err := eval.Run(context.Background(), []eval.Case{c}, []eval.Target{{Name: "m", Provider: p}})
	require.NoError(t, err)
	require.Len(t, rep.Results, 1)
	r := rep.Results[0]
	assert.Equal(t, eval.ClassSetup, r.Class)
	assert.Contains(t, r.Error, `reads parameter "contract", which is not among the inputs`)
	assert.Zero(t, r.Calls)
	assert.Empty(t, p.Requests())
}
