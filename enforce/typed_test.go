package enforce_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/providertest"
)

type finding struct {
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line"`
}

type review struct {
	Findings []finding      `json:"findings"`
	Counts   map[string]int `json:"counts"`
	Summary  string         `json:"summary"`
}

func TestTyped(t *testing.T) {
	p := providertest.New(providertest.Text(`{"findings": [{"severity": "blocker", "file": "a.go"}]}`), providertest.Text(validReview))
	got, res, err := enforce.Typed[review](ctx, p, enforce.Request{Prompt: "Review."})
	require.NoError(t, err)
	assert.Equal(t, review{
		Findings: []finding{{Severity: "blocker", File: "a.go", Line: 3}},
		Counts:   map[string]int{"blocker": 1, "major": 0, "minor": 0},
		Summary:  "one blocker",
	}, got)
	require.Len(t, res.Attempts, 2)
	reask := lastContent(p.Requests()[1])
	assert.Contains(t, reask, "- $.findings[0].line: 'line' is a required property")
	assert.Contains(t, reask, "- $.counts: 'counts' is a required property")
}

func TestTypedScalar(t *testing.T) {
	p := providertest.New(providertest.Text(`"seven"`), providertest.Text(`7`))
	got, _, err := enforce.Typed[int](ctx, p, enforce.Request{Prompt: "How many?"})
	require.NoError(t, err)
	assert.Equal(t, 7, got)
}

func TestTypedErrors(t *testing.T) {
	t.Run("run error comes with the result", func(t *testing.T) {
		p := providertest.New(providertest.Text("no"))
		got, res, err := enforce.Typed[review](ctx, p, enforce.Request{Prompt: "Review."}, enforce.WithMaxRetries(0))
		require.ErrorIs(t, err, enforce.ErrNoJSON)
		assert.Zero(t, got)
		assert.Len(t, res.Attempts, 1)
	})
	t.Run("type without a schema", func(t *testing.T) {
		p := providertest.New(providertest.Text("{}"))
		_, res, err := enforce.Typed[func()](ctx, p, enforce.Request{Prompt: "x"})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "enforce: schema of func()")
		assert.Nil(t, res)
		_, _, again := enforce.Typed[func()](ctx, p, enforce.Request{Prompt: "x"})
		assert.Equal(t, err.Error(), again.Error(), "the failure is cached too")
		assert.Empty(t, p.Requests())
	})
}

func TestTypedConcurrent(t *testing.T) {
	type point struct {
		X int `json:"x"`
		Y int `json:"y"`
	}
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := providertest.New(providertest.Text(`{"x": 1}`), providertest.Text(`{"x": 1, "y": 2}`))
			got, _, err := enforce.Typed[point](context.Background(), p, enforce.Request{Prompt: "Where?"})
			if assert.NoError(t, err) {
				assert.Equal(t, point{1, 2}, got)
			}
		}()
	}
	wg.Wait()
}
