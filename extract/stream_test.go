package extract_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/extract"
)

// readAll feeds text to a new Reader in pieces of size bytes (0: whole),
// checking what must hold after every piece, and returns every event.
func readAll(t testing.TB, text string, size int, opts ...extract.Option) ([]extract.Event, *extract.Reader) {
	r := extract.NewReader(opts...)
	var events []extract.Event
	check := func() {
		for _, e := range r.Events() {
			if e.Kind == extract.EventClose || e.Kind == extract.EventScalar || e.Kind == extract.EventEnd {
				span := r.Text()[e.Start:e.End]
				if !json.Valid(span) {
					t.Fatalf("%v part %q is not valid JSON", e.Kind, span)
				}
			}
		}
		events = append(events, r.Events()...)
		if p, ok := r.Partial(nil); ok && !json.Valid(p) {
			t.Fatalf("partial %q of %q is not valid JSON", p, r.Text())
		}
	}
	if size <= 0 {
		size = max(len(text), 1)
	}
	for i := 0; i < len(text); i += size {
		_, err := r.WriteString(text[i:min(i+size, len(text))])
		require.NoError(t, err)
		check()
	}
	r.Close()
	check()
	return events, r
}

// ends returns the spans of the values that completed.
func ends(r *extract.Reader, events []extract.Event) []string {
	var out []string
	for _, e := range events {
		if e.Kind == extract.EventEnd {
			out = append(out, string(r.Text()[e.Start:e.End]))
		}
	}
	return out
}

var streamReplies = []struct {
	name, text string
	want       []string // the values that complete, in order
	source     extract.Source
}{
	{"object", `{"a": 1, "b": [true, null, "x\"y"], "c": {"d": -1.5e3}}`,
		[]string{`{"a": 1, "b": [true, null, "x\"y"], "c": {"d": -1.5e3}}`}, extract.SourceWhole},
	{"blanks around", "\n  [1, 2]\n", []string{`[1, 2]`}, extract.SourceWhole},
	{"number alone", `42`, []string{`42`}, extract.SourceWhole},
	{"string alone", `"done"`, []string{`"done"`}, extract.SourceWhole},
	{"fence", "Here it is:\n```json\n{\"ok\": true}\n```\nBye.", []string{`{"ok": true}`}, extract.SourceFence},
	{"fence scalar", "```json\n7\n```", []string{`7`}, extract.SourceFence},
	{"prose", `The answer is {"n": 3} as asked.`, []string{`{"n": 3}`}, extract.SourceScan},
	{"think block", `<think>maybe {"n": 1}? no</think>{"n": 2}`, []string{`{"n": 2}`}, extract.SourceWhole},
	{"closing tag only", `plan {"x": 0} done</think> {"n": 2}`, []string{`{"x": 0}`, `{"n": 2}`}, extract.SourceWhole},
	{"unicode escapes", `{"k\u00e9y": "\ud83d\ude00 ✓"}`, []string{`{"k\u00e9y": "\ud83d\ude00 ✓"}`}, extract.SourceWhole},
	{"broken then good", `{"a": 'x'} and {"b": 2}`, []string{`{"b": 2}`}, extract.SourceScan},
	{"backticks in a string", "```json\n{\"code\": \"```go\"}\n```", []string{"{\"code\": \"```go\"}"}, extract.SourceFence},
	{"two values", `[1] [2]`, []string{`[1]`, `[2]`}, extract.SourceScan},
	{"deep", strings.Repeat("[", 50) + strings.Repeat("]", 50), []string{strings.Repeat("[", 50) + strings.Repeat("]", 50)}, extract.SourceWhole},
}

func TestReaderValues(t *testing.T) {
	for _, tc := range streamReplies {
		t.Run(tc.name, func(t *testing.T) {
			events, r := readAll(t, tc.text, 0)
			assert.Equal(t, tc.want, ends(r, events))
			var last extract.Event
			for _, e := range events {
				if e.Kind == extract.EventEnd {
					last = e
				}
			}
			assert.Equal(t, tc.source, r.Source(last))
		})
	}
}

// TestReaderSplits feeds every reply split at every byte position, and in
// pieces of 1 to 7 bytes: the events are those of the whole reply read at
// once.
func TestReaderSplits(t *testing.T) {
	for _, tc := range streamReplies {
		t.Run(tc.name, func(t *testing.T) {
			want, _ := readAll(t, tc.text, 0)
			for size := 1; size <= 7; size++ {
				got, _ := readAll(t, tc.text, size)
				require.Equal(t, want, got, "pieces of %d bytes", size)
			}
			for cut := 1; cut < len(tc.text); cut++ {
				r := extract.NewReader()
				var got []extract.Event
				for _, piece := range []string{tc.text[:cut], tc.text[cut:]} {
					_, err := r.WriteString(piece)
					require.NoError(t, err)
					got = append(got, r.Events()...)
				}
				r.Close()
				got = append(got, r.Events()...)
				require.Equal(t, want, got, "split at %d", cut)
			}
		})
	}
}

func TestReaderEvents(t *testing.T) {
	text := `{"a": [1, {"b": "x"}], "c": null}`
	events, r := readAll(t, text, 3)
	var got []string
	for _, e := range events {
		pos := ""
		switch {
		case e.KeyStart >= 0:
			pos = "." + r.Key(e)
		case e.Index >= 0:
			pos = fmt.Sprintf("[%d]", e.Index)
		}
		span := ""
		if e.End > 0 {
			span = " " + string(r.Text()[e.Start:e.End])
		}
		got = append(got, fmt.Sprintf("%s %d%s%s", e.Kind, e.Depth, pos, span))
	}
	assert.Equal(t, []string{
		"start 0",
		"open 0",
		"open 1.a",
		"scalar 2[0] 1",
		"open 2[1]",
		`scalar 3.b "x"`,
		`close 2[1] {"b": "x"}`,
		`close 1.a [1, {"b": "x"}]`,
		"scalar 1.c null",
		`close 0 {"a": [1, {"b": "x"}], "c": null}`,
		`end 0 {"a": [1, {"b": "x"}], "c": null}`,
	}, got)
}

func TestReaderPartial(t *testing.T) {
	r := extract.NewReader()
	steps := []struct{ write, want string }{
		{`{"items": [{"id": 1, "na`, `{"items": [{"id": 1}]}`},
		{`me": "fi`, `{"items": [{"id": 1}]}`},
		{`rst"}, {"id"`, `{"items": [{"id": 1, "name": "first"}, {}]}`},
		{`: 2}], "total": 2`, `{"items": [{"id": 1, "name": "first"}, {"id": 2}]}`},
	}
	for _, s := range steps {
		_, err := r.WriteString(s.write)
		require.NoError(t, err)
		p, ok := r.Partial(nil)
		require.True(t, ok)
		assert.JSONEq(t, s.want, string(p), "after %q", s.write)
	}
	assert.Len(t, r.Open(), 1)
	_, err := r.WriteString("}")
	require.NoError(t, err)
	_, ok := r.Partial(nil)
	assert.False(t, ok, "a complete value is no longer partial")
	assert.False(t, r.Reading())
}

func TestReaderOpen(t *testing.T) {
	r := extract.NewReader()
	_, err := r.WriteString(`{"a": {"b": [1, [`)
	require.NoError(t, err)
	open := r.Open()
	require.Len(t, open, 4)
	assert.Equal(t, "a", r.Key(open[1]))
	assert.Equal(t, "b", r.Key(open[2]))
	assert.Equal(t, 1, open[3].Index)
}

func TestReaderAbandon(t *testing.T) {
	cases := []struct{ name, text string }{
		{"single quote", `{"a": 'x'}`},
		{"missing comma", `{"a": 1 "b": 2}`},
		{"comment", `{"a": 1 // one` + "\n}"},
		{"bad escape", `{"a": "\q"}`},
		{"control character", "{\"a\": \"x\ny\"}"},
		{"bad number", `{"a": 01}`},
		{"bad literal", `{"a": nul}`},
		{"cut off", `{"a": [1, 2`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			events, _ := readAll(t, tc.text, 1)
			var abandoned bool
			for _, e := range events {
				assert.NotEqual(t, extract.EventEnd, e.Kind)
				abandoned = abandoned || e.Kind == extract.EventAbandon && e.Start == 0
			}
			assert.True(t, abandoned)
		})
	}
}

// TestReaderWrite checks that Write reads as WriteString does, one-byte
// writes included: the same events after every piece, and the same partial.
func TestReaderWrite(t *testing.T) {
	for _, tc := range streamReplies {
		for _, size := range []int{1, 2, 5, len(tc.text)} {
			bw, sw := extract.NewReader(), extract.NewReader()
			for i := 0; i < len(tc.text); i += size {
				piece := tc.text[i:min(i+size, len(tc.text))]
				_, err := bw.Write([]byte(piece))
				require.NoError(t, err)
				_, err = sw.WriteString(piece)
				require.NoError(t, err)
				require.Equal(t, sw.Events(), bw.Events(), "%s: pieces of %d, at %d", tc.name, size, i)
				pb, okb := bw.Partial(nil)
				ps, oks := sw.Partial(nil)
				require.Equal(t, oks, okb)
				require.Equal(t, string(ps), string(pb))
			}
			bw.Close()
			sw.Close()
			require.Equal(t, sw.Events(), bw.Events(), "%s: close", tc.name)
		}
	}
}

func TestReaderObjectsOnly(t *testing.T) {
	events, r := readAll(t, `[1] then {"a": [2]}`, 2, extract.WithObjectsOnly())
	assert.Equal(t, []string{`{"a": [2]}`}, ends(r, events))
}

func TestReaderErrors(t *testing.T) {
	r := extract.NewReader(extract.WithMaxSize(4))
	_, err := r.WriteString("12345")
	require.ErrorIs(t, err, extract.ErrTooLarge)
	assert.Empty(t, r.Text())

	r = extract.NewReader(extract.WithMaxSize(0))
	_, err = r.WriteString("{}")
	require.ErrorIs(t, err, extract.ErrInvalidOption)

	r = extract.NewReader()
	r.Close()
	_, err = r.WriteString("{}")
	require.Error(t, err)
}

// TestReaderAgreesWithJSON checks that the first value a Reader completes
// at the start of the reply or in a fence is the value JSON returns.
// agreeWithCandidates checks what the Reader and Candidates must agree on
// for text read in pieces of size: every value Candidates finds, the
// Reader reports; the Reader reports nothing more; and it reports nothing
// at all exactly when JSON finds no value. Texts with a reasoning tag or
// a fence marker are left out: the Reader decides what a tag or a marker
// means when it reads it, before the rest of the reply exists (a value
// before a closing </think> was reported already), where Candidates sees
// the whole reply; the fixed replies of streamReplies cover those.
func agreeWithCandidates(t *testing.T, text string, size int) {
	t.Helper()
	if strings.ContainsAny(text, "<`") {
		return
	}
	events, r := readAll(t, text, size)
	read := ends(r, events)
	var found []string
	for _, c := range extract.Candidates(text) {
		found = append(found, string(c.JSON))
	}
	left := slices.Clone(read)
	for _, v := range found {
		i := slices.Index(left, v)
		if i < 0 {
			t.Fatalf("%q: Candidates finds %s, the Reader (pieces of %d) does not: %q", text, v, size, read)
		}
		left = slices.Delete(left, i, i+1)
	}
	if len(left) > 0 {
		t.Fatalf("%q: the Reader reports %q, which Candidates does not find (%q)", text, left, found)
	}
	_, err := extract.JSON(text)
	if (err == nil) != (len(read) > 0) {
		t.Fatalf("%q: JSON gives %v, the Reader %d values", text, err, len(read))
	}
}

// TestReaderAgreesWithCandidates runs agreeWithCandidates on the replies
// above and on replies made of values in the surface forms models write
// (bare, fenced, after prose, after a reasoning block, two at once, cut
// off, broken), read whole and in pieces of 1 to 7 bytes.
func TestReaderAgreesWithCandidates(t *testing.T) {
	values := []string{`{"a": 1}`, `[1, {"b": [true, null]}]`, `"text {with} [brackets]"`, `-0.5e-3`, `{"s": "x\"y\\", "e": {}}`, `[]`}
	forms := []func(v string) string{
		func(v string) string { return v },
		func(v string) string { return "```json\n" + v + "\n```" },
		func(v string) string { return "Here you go: " + v + " Done." },
		func(v string) string { return "<think>{draft}</think>\n" + v },
		func(v string) string { return v + "\n" + v },
		func(v string) string { return "Answer: " + v[:len(v)/2] },
		func(v string) string { return "{'not': json} then " + v },
		func(v string) string { return "no JSON here" },
	}
	var texts []string
	for _, tc := range streamReplies {
		texts = append(texts, tc.text)
	}
	for _, v := range values {
		for _, f := range forms {
			texts = append(texts, f(v))
		}
	}
	for i, text := range texts {
		agreeWithCandidates(t, text, 0)
		agreeWithCandidates(t, text, i%7+1)
	}
	assert.GreaterOrEqual(t, len(texts), 60)
}

func FuzzReader(f *testing.F) {
	for _, tc := range streamReplies {
		f.Add(tc.text, uint8(3))
	}
	f.Add("```json\n{\"a\": [1, \"```\"]}", uint8(1))
	f.Add("<thinking>{</thinking>[0]", uint8(2))
	f.Fuzz(func(t *testing.T, text string, size uint8) {
		agreeWithCandidates(t, text, int(size%16)+1)
		want, _ := readAll(t, text, 0)
		got, _ := readAll(t, text, int(size%16)+1)
		if len(want) != len(got) {
			t.Fatalf("%d events at once, %d in pieces of %d", len(want), len(got), size%16+1)
		}
		for i := range want {
			if want[i] != got[i] {
				t.Fatalf("event %d: %+v at once, %+v in pieces", i, want[i], got[i])
			}
		}
	})
}

// BenchmarkReader reads the 1 MB array of small objects in chunks of 1 byte
// to 4 KB; BenchmarkReaderOneShot is extract.JSON on the same text, the
// cost the Reader is measured against (at most twice as much). Each chunk
// is cut from the text as it is written, as a stream hands over one chunk
// at a time: a slice of every chunk made beforehand would be up to a
// million pointers for the garbage collector to scan at every cycle, a
// cost of the benchmark's, not of the Reader's.
func BenchmarkReader(b *testing.B) {
	text := "[" + smallObjectsForStream() + "]"
	for _, size := range []int{1, 16, 256, 4096} {
		b.Run(fmt.Sprintf("chunk=%d", size), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for range b.N {
				r := extract.NewReader()
				closed := 0
				for i := 0; i < len(text); i += size {
					if _, err := r.WriteString(text[i:min(i+size, len(text))]); err != nil {
						b.Fatal(err)
					}
					closed += len(r.Events())
				}
				r.Close()
				if closed == 0 {
					b.Fatal("no events")
				}
			}
		})
	}
}

func BenchmarkReaderOneShot(b *testing.B) {
	text := "[" + smallObjectsForStream() + "]"
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for range b.N {
		if _, err := extract.JSON(text); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReaderCallFloor is the floor under BenchmarkReader/chunk=1: the
// same loop over the same 1-byte chunks, calling a writer that reads
// nothing. With "keep", the writer appends the byte and clears its events,
// the least a Reader must do; with "nothing", it only counts the byte. No
// Reader can cost less per byte through a Write call than "keep", and that
// floor alone is over twice BenchmarkReaderOneShot: a call per byte that
// does nothing at all already costs about as much as extract.JSON.
func BenchmarkReaderCallFloor(b *testing.B) {
	text := "[" + smallObjectsForStream() + "]"
	b.Run("keep", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for range b.N {
			w := &appendOnly{buf: make([]byte, 0, len(text))}
			events := 0
			for i := range len(text) {
				if _, err := w.WriteString(text[i : i+1]); err != nil {
					b.Fatal(err)
				}
				events += len(w.Events())
			}
			if len(w.buf) != len(text) || events != 0 {
				b.Fatal("lost bytes")
			}
		}
	})
	b.Run("nothing", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for range b.N {
			w := new(countOnly)
			events := 0
			for i := range len(text) {
				if _, err := w.WriteString(text[i : i+1]); err != nil {
					b.Fatal(err)
				}
				events += len(w.Events())
			}
			if w.n != len(text) || events != 0 {
				b.Fatal("lost bytes")
			}
		}
	})
}

// appendOnly is a writer that keeps the bytes and reads nothing:
// BenchmarkReaderCallFloor/keep's.
type appendOnly struct {
	buf    []byte
	events []extract.Event
}

//go:noinline
func (w *appendOnly) WriteString(s string) (int, error) {
	w.events = w.events[:0]
	if len(s) == 1 {
		w.buf = append(w.buf, s[0])
	} else {
		w.buf = append(w.buf, s...)
	}
	return len(s), nil
}

func (w *appendOnly) Events() []extract.Event { return w.events }

// countOnly is a writer that only counts the bytes:
// BenchmarkReaderCallFloor/nothing's.
type countOnly struct{ n int }

//go:noinline
func (w *countOnly) WriteString(s string) (int, error) {
	w.n += len(s)
	return len(s), nil
}

func (w *countOnly) Events() []extract.Event { return nil }

// smallObjectsForStream is about 1 MB of small objects joined by ",\n".
func smallObjectsForStream() string {
	parts := make([]string, 10000)
	for i := range parts {
		parts[i] = fmt.Sprintf(`{"id": %d, "name": "item-%05d", "tags": ["a", "b"], "score": %d.5, "ok": true, "note": "small"}`, i, i, i%100)
	}
	return strings.Join(parts, ",\n")
}
