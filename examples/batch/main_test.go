package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/internal/golden"
)

// TestOutput runs the example as main does, SIGTERM included, and checks
// what it prints against testdata/output.golden (go test ./examples/batch
// -update rewrites it).
func TestOutput(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the example signals itself with SIGTERM")
	}
	golden.CheckOutput(t, "output", func(w io.Writer) error { return run(w, scriptedProvider(), hooks{term: terminate}) })
}

// TestSIGTERM: a SIGTERM that comes, from outside the loop, while the
// first process waits a minute to poll stops it within 2 s, cancels no
// batch at the provider, and the next run resumes: every item is handed
// out exactly once, and no request is submitted twice but those the
// provider rate-limited.
func TestSIGTERM(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the example signals itself with SIGTERM")
	}
	b := scriptedProvider()
	var took time.Duration
	handed := map[string]int{}
	var out strings.Builder
	err := run(&out, b, hooks{
		term:    terminate,
		stopped: func(d time.Duration) { took = d },
		handed:  func(s batch.Settled) { handed[s.ID]++ },
	})
	require.NoError(t, err)
	require.Positive(t, took)
	t.Logf("the first process stopped %v after SIGTERM", took)
	assert.Less(t, took, 2*time.Second, "the first process stops within 2 s of SIGTERM, not at its next poll")
	assert.Empty(t, b.Canceled(), "no remote batch is cancelled")
	assert.Len(t, handed, items, "every item is settled and handed out")
	for id, n := range handed {
		assert.Equal(t, 1, n, "%s handed out once", id)
	}
	for id, n := range b.Submitted() {
		var i int
		if _, err := fmt.Sscanf(id, "ticket%d", &i); err == nil && i%97 == 3 && strings.HasSuffix(id, "-1") {
			assert.Equal(t, 2, n, "%s: submitted again after its rate limit", id)
			continue
		}
		assert.Equal(t, 1, n, "%s submitted once", id)
	}
	assert.Contains(t, out.String(), "then SIGTERM")
}
