// Package streamtest holds the checks the wire tests of streaming
// adapters ([provider.Streamer]) share: reading a whole stream, splitting
// it into its pieces and its Response, stopping one early, and the
// properties a fuzz test asserts.
package streamtest

import (
	"context"
	"iter"
	"reflect"
	"testing"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// Chunks returns every chunk of seq and the error that ended it.
func Chunks(seq iter.Seq2[provider.Chunk, error]) ([]provider.Chunk, error) {
	var out []provider.Chunk
	for c, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, c)
	}
	return out, nil
}

// split returns what the chunks of a finished stream hold: the text
// pieces and tool call pieces before the last chunk, and the Response the
// last one carries. It fails t when a chunk other than the last carries a
// Response.
func split(t testing.TB, chunks []provider.Chunk) (text []string, calls []provider.ToolCallDelta, resp *provider.Response) {
	t.Helper()
	if len(chunks) == 0 {
		t.Fatal("no chunks")
	}
	for i, c := range chunks[:len(chunks)-1] {
		if c.Response != nil {
			t.Errorf("chunk %d of %d carries a Response", i, len(chunks))
		}
		if c.Text != "" {
			text = append(text, c.Text)
		}
		if c.ToolCall != nil {
			calls = append(calls, *c.ToolCall)
		}
	}
	return text, calls, chunks[len(chunks)-1].Response
}

// CancelAfterFirst iterates the sequence open returns for a context that
// it cancels once the first chunk came, and returns that chunk and the
// error that ended the sequence.
func CancelAfterFirst(open func(ctx context.Context) iter.Seq2[provider.Chunk, error]) (provider.Chunk, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var first provider.Chunk
	n := 0
	for c, err := range open(ctx) {
		if err != nil {
			return first, err
		}
		if n++; n == 1 {
			first = c
			cancel()
		}
	}
	return first, nil
}

// Check asserts what a fuzz test of a stream asserts of any body: seq
// yields chunks with at most one Response, the last, or ends with an
// error that is a *provider.Error; and [provider.Collect] of again, the
// same stream, returns a Response or an error.
func Check(t testing.TB, seq, again iter.Seq2[provider.Chunk, error]) {
	t.Helper()
	responses := 0
	for c, err := range seq {
		if err != nil {
			if _, ok := err.(*provider.Error); !ok {
				t.Fatalf("error %T, want *provider.Error", err)
			}
			break
		}
		if responses > 0 {
			t.Fatal("a chunk after the Response")
		}
		if c.Response != nil {
			responses++
		}
	}
	resp, err := provider.Collect(again)
	if (resp == nil) == (err == nil) {
		t.Fatalf("Collect gave %v and %v", resp, err)
	}
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

// SameAsGenerate asks p for one reply three times, with Generate, then
// Stream, then Stream read by [provider.Collect] (the server scripts the
// reply whole, then streamed twice), and fails t unless both streams end
// with the Response Generate returns. It returns the first stream's text
// and tool call pieces.
func SameAsGenerate(t testing.TB, p provider.Streamer, req *provider.Request) (text []string, calls []provider.ToolCallDelta) {
	t.Helper()
	want, err := p.Generate(context.Background(), req)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	chunks, err := Chunks(p.Stream(context.Background(), req))
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	text, calls, resp := split(t, chunks)
	if !reflect.DeepEqual(want, resp) {
		t.Errorf("Stream's Response\n%+v\nGenerate's\n%+v", resp, want)
	}
	resp, err = provider.Collect(p.Stream(context.Background(), req))
	if err != nil || !reflect.DeepEqual(want, resp) {
		t.Errorf("Collect gave %+v, %v; Generate %+v", resp, err, want)
	}
	return text, calls
}

// SameError asks p for one reply with Generate, then with Stream, and
// fails t unless both fail with equal errors, which it returns.
func SameError(t testing.TB, p provider.Streamer, req *provider.Request) error {
	t.Helper()
	_, want := p.Generate(context.Background(), req)
	if want == nil {
		t.Fatal("Generate did not fail")
	}
	_, err := Chunks(p.Stream(context.Background(), req))
	if !reflect.DeepEqual(want, err) {
		t.Errorf("Stream failed with %#v, Generate with %#v", err, want)
	}
	return err
}

// First returns the first chunk of seq, leaving the loop after it, or the
// error that ended seq before.
func First(seq iter.Seq2[provider.Chunk, error]) (provider.Chunk, error) {
	for c, err := range seq {
		return c, err
	}
	return provider.Chunk{}, nil
}

// SameRun runs enforce.Run over whole and enforce.Stream over streamed,
// which script the same replies, and fails t unless both give the same
// Result and the stream gave partial values.
func SameRun(t testing.TB, whole, streamed provider.Provider, req enforce.Request, s *schema.Schema, opts ...enforce.Option) {
	t.Helper()
	want, err := enforce.Run(context.Background(), whole, req, s, opts...)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	run := enforce.Stream(context.Background(), streamed, req, s, opts...)
	partials := 0
	for range run.Partials() {
		partials++
	}
	got, err := run.Result()
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

// StoppedEarly runs enforce.Stream over p, whose first reply is wrong
// early and whose second is valid, and fails t unless the first attempt
// was stopped early for a violation at path and the second won. It
// returns the Result.
func StoppedEarly(t testing.TB, p provider.Provider, req enforce.Request, s *schema.Schema, path string, opts ...enforce.Option) *enforce.Result {
	t.Helper()
	res, err := enforce.Stream(context.Background(), p, req, s, opts...).Result()
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
