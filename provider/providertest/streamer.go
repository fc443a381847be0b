package providertest

import (
	"context"
	"iter"
	"reflect"
	"testing"

	"github.com/agentio/agentio/provider"
)

// The checks below are the test kit for a [provider.Streamer] adapter: they
// hold an adapter to the Streamer contract alone (its chunks collected
// equal what Generate returns, an error mid-stream is Generate's error,
// leaving the loop ends the call), as registrytest does for a registry.
// They run against the adapter's own scripted server (package
// provider/wiretest serves HTTP adapters).

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

// First returns the first chunk of seq, leaving the loop after it, or the
// error that ended seq before.
func First(seq iter.Seq2[provider.Chunk, error]) (provider.Chunk, error) {
	for c, err := range seq {
		return c, err
	}
	return provider.Chunk{}, nil
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

// CheckStream asserts what holds of any stream, whatever its body (a fuzz
// test's property): seq yields chunks with at most one Response, the last,
// or ends with an error that is a *provider.Error; and [provider.Collect]
// of again, the same stream, returns a Response or an error.
func CheckStream(t testing.TB, seq, again iter.Seq2[provider.Chunk, error]) {
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

// SameAsGenerate asks p for one reply three times, with Generate, then
// Stream, then Stream read by [provider.Collect] (the adapter's server
// scripts the reply whole, then streamed twice), and fails t unless both
// streams end with the Response Generate returns and no chunk but the last
// carries a Response. It returns the first stream's text and tool call
// pieces.
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
	text, calls, resp := splitStream(t, chunks)
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

// splitStream returns what the chunks of a finished stream hold: the text
// pieces and tool call pieces before the last chunk, and the Response the
// last one carries. It fails t when a chunk other than the last carries a
// Response.
func splitStream(t testing.TB, chunks []provider.Chunk) (text []string, calls []provider.ToolCallDelta, resp *provider.Response) {
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
