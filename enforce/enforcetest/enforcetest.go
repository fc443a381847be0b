package enforcetest

import (
	"context"
	"reflect"
	"testing"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// SameRun runs enforce.Run over whole, and over streamed with
// enforce.WithPartials, two providers that script the same replies, and
// fails t unless both give the same Result (durations aside) and the
// stream gave partial values.
func SameRun(t testing.TB, whole, streamed provider.Provider, req enforce.Request, s *schema.Schema, opts ...enforce.Option) {
	t.Helper()
	want, err := enforce.Run(context.Background(), whole, req, s, opts...)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	partials := 0
	count := enforce.WithPartials(func(enforce.Partial) { partials++ })
	got, err := enforce.Run(context.Background(), streamed, req, s, append(opts[:len(opts):len(opts)], count)...)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if partials == 0 {
		t.Error("no partial values")
	}
	if !reflect.DeepEqual(aligned(want, got), got) {
		t.Errorf("Stream's Result\n%+v\nRun's\n%+v", got, want)
	}
}

// StoppedEarly runs enforce.Run with enforce.WithPartials over p, whose
// first reply is wrong early and whose second is valid, and fails t unless the first attempt
// was stopped early for a violation at path and the second won. It
// returns the Result.
func StoppedEarly(t testing.TB, p provider.Provider, req enforce.Request, s *schema.Schema, path string, opts ...enforce.Option) *enforce.Result {
	t.Helper()
	streamed := enforce.WithPartials(func(enforce.Partial) {})
	res, err := enforce.Run(context.Background(), p, req, s, append(opts[:len(opts):len(opts)], streamed)...)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if len(res.Attempts) != 2 {
		t.Fatalf("%d attempts, want 2", len(res.Attempts))
	}
	first := res.Attempts[0]
	if !first.StoppedEarly || len(first.Violations) == 0 || first.Violations[0].Path != path {
		t.Errorf("first attempt: stopped early %v, violations %v; want stopped at %s", first.StoppedEarly, first.Violations, path)
	}
	return res
}

// aligned gives the attempts of want the durations of those of got, and
// returns it: two results of the same run then compare equal unless
// something else differs.
func aligned(want, got *enforce.Result) *enforce.Result {
	if len(want.Attempts) == len(got.Attempts) {
		for i := range want.Attempts {
			want.Attempts[i].Duration = got.Attempts[i].Duration
		}
	}
	return want
}
