package record_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/provider/record"
	"github.com/agentio/agentio/schema"
)

func ask(texts ...string) *provider.Request {
	req := &provider.Request{System: "Be brief.", MaxTokens: 100}
	for i, t := range texts {
		role := provider.RoleUser
		if i%2 == 1 {
			role = provider.RoleAssistant
		}
		req.Messages = append(req.Messages, provider.Message{Role: role, Content: t})
	}
	return req
}

func newRecorder(t *testing.T, p provider.Provider, dir string, mode record.Policy, opts *record.Options) provider.Provider {
	t.Helper()
	r, err := record.New(p, dir, mode, opts)
	require.NoError(t, err)
	return r
}

// storeFiles returns the recordings in dir: its JSON files but the one
// that keeps the capabilities.
func storeFiles(t *testing.T, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	return slices.DeleteFunc(names, func(n string) bool { return filepath.Base(n) == "capabilities.json" })
}

// TestReplayCapabilities: a replay without a provider reports the
// capabilities of the one recorded, so the loop chooses the same mode (a
// forced tool call here) and the requests match the recordings; without
// the file it would ask in prompt mode and miss.
func TestReplayCapabilities(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}`))
	require.NoError(t, err)
	caps := provider.Capabilities{Tools: true, ForcedTool: true}
	dir := t.TempDir()
	ctx := context.Background()
	sp := providertest.New(providertest.CallTool("submit_result", `{"n": 1}`))
	rec := newRecorder(t, provider.WithCapabilities(sp, caps), dir, record.Record, nil)
	want, err := enforce.Run(ctx, rec, enforce.Request{Prompt: "One."}, s)
	require.NoError(t, err)
	require.Equal(t, enforce.ModeTool, want.Mode, "the recorded run used the forced tool")

	rep := newRecorder(t, nil, dir, record.Replay, nil)
	assert.Equal(t, caps, rep.Capabilities())
	got, err := enforce.Run(ctx, rep, enforce.Request{Prompt: "One."}, s)
	require.NoError(t, err)
	assert.Equal(t, string(want.JSON), string(got.JSON))

	// Options.Capabilities still wins, and a store without the file
	// reports a text-only provider (a broken one: TestMalformedCapabilities).
	text := provider.Capabilities{}
	assert.Equal(t, text, newRecorder(t, nil, dir, record.Replay, &record.Options{Capabilities: &text}).Capabilities())
	assert.Equal(t, text, newRecorder(t, nil, t.TempDir(), record.Replay, nil).Capabilities())
}

var errWrapped = fmt.Errorf("calling the model: %w", &provider.Error{Kind: provider.ErrRateLimited, Provider: "openai", StatusCode: 429, Message: "slow down"})

func TestGenerateRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		reply providertest.Reply
	}{
		{"text", providertest.Reply{Text: `{"answer": 42}`, Usage: provider.Usage{InputTokens: 10, OutputTokens: 5}, Model: "m-1"}},
		{"tool call with invalid JSON", providertest.CallTool("submit_result", `{"a": 1,,}`)},
		{"refusal", providertest.Refused("I can't help with that.")},
		{"truncated", providertest.Truncated(`{"items": [1, `)},
		{"provider error", providertest.Failed(&provider.Error{Kind: provider.ErrOverloaded, Provider: "anthropic", StatusCode: 529, RequestID: "req_1", Err: errors.New("overloaded")})},
		{"errWrapped provider error", providertest.Failed(errWrapped)},
		{"other error", providertest.Failed(errors.New("connection reset"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			ctx := context.Background()
			req := ask("What is 6 x 7?")
			rec := newRecorder(t, providertest.New(tt.reply), dir, record.Record, nil)
			want, wantErr := rec.Generate(ctx, req)
			require.Len(t, storeFiles(t, dir), 1)

			rep := newRecorder(t, nil, dir, record.Replay, nil)
			got, err := rep.Generate(ctx, req)
			if wantErr != nil {
				require.Error(t, err)
				assert.Nil(t, got)
				assert.Equal(t, wantErr.Error(), err.Error())
				assert.Equal(t, provider.KindOf(wantErr), provider.KindOf(err))
				var pe *provider.Error
				assert.Equal(t, errors.As(wantErr, &pe), errors.As(err, &pe))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, want, got)
			wantJSON, _ := json.Marshal(want)
			gotJSON, _ := json.Marshal(got)
			assert.Equal(t, string(wantJSON), string(gotJSON))
		})
	}
}

func TestStreamRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		reply providertest.Reply
		stop  int // stop reading after this many chunks; 0 reads all
	}{
		{"pieces", providertest.Pieces(`{"verdict": `, `"approve", `, `"summary": "ok"}`), 0},
		{"chunked tool call", providertest.Reply{ToolCalls: []provider.ToolCall{{Name: "submit_result", Arguments: json.RawMessage(`{"x": [1, 2, 3]}`)}}, ChunkSize: 4}, 0},
		{"cut off", providertest.Reply{Chunks: []string{`{"a": `, `1`}, CutOff: true}, 0},
		{"failing mid-stream", providertest.Reply{Chunks: []string{`{"a": `}, Err: &provider.Error{Kind: provider.ErrOverloaded, StatusCode: 503}}, 0},
		{"caller stops early", providertest.Pieces(`{"a": `, `1, `, `"b": 2}`), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			ctx := context.Background()
			req := ask("Review.")
			read := func(s provider.Streamer) ([]provider.Chunk, error) {
				var out []provider.Chunk
				for ch, err := range s.Stream(ctx, req) {
					if err != nil {
						return out, err
					}
					out = append(out, ch)
					if len(out) == tt.stop {
						break
					}
				}
				return out, nil
			}
			sp := providertest.New(tt.reply)
			rec := newRecorder(t, sp, dir, record.Record, nil)
			want, wantErr := read(rec.(provider.Streamer))
			require.NotEmpty(t, want)

			rep := newRecorder(t, nil, dir, record.Replay, nil)
			got, err := read(rep.(provider.Streamer))
			assert.Equal(t, want, got)
			if wantErr != nil {
				require.Error(t, err)
				assert.Equal(t, wantErr.Error(), err.Error())
				assert.ErrorIs(t, err, provider.ErrOverloaded)
			} else {
				assert.NoError(t, err)
			}
			if tt.stop > 0 {
				assert.Equal(t, []int{tt.stop}, sp.Streamed(), "the recorder reads no further than its caller")
				// Reading past where the recorded caller stopped is a miss.
				_, err := providertest.Chunks(rep.(provider.Streamer).Stream(ctx, req))
				assert.ErrorIs(t, err, record.ErrMiss)
				_, err = rep.Generate(ctx, req)
				assert.ErrorIs(t, err, record.ErrMiss)
			}
		})
	}
}

// The replay reproduces what the enforcement loop saw: the same attempts,
// partials and early stops, with the original provider gone.
func TestEnforceReplay(t *testing.T) {
	s, err := schema.Parse([]byte(`{
		"type": "object",
		"required": ["verdict", "summary"],
		"properties": {
			"verdict": {"enum": ["approve", "request_changes"]},
			"summary": {"type": "string"}
		}
	}`))
	require.NoError(t, err)
	tests := []struct {
		name    string
		replies []providertest.Reply
		early   []bool
	}{
		{"stopped early then valid", []providertest.Reply{
			providertest.Pieces(`{"verdict": "reject", `, `"summary": "too long"}`),
			providertest.Pieces(`{"verdict": "approve", `, `"summary": "LGTM"}`),
		}, []bool{true, false}},
		{"invalid at the end then valid", []providertest.Reply{
			providertest.Pieces(`{"verdict": "approve"`, `}`),
			providertest.Chunked(5, `{"verdict": "request_changes", "summary": "fix it"}`),
		}, []bool{false, false}},
		{"valid at once", []providertest.Reply{
			providertest.Chunked(3, `{"verdict": "approve", "summary": "fine"}`),
		}, []bool{false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			ctx := context.Background()
			run := func(p provider.Provider) (*enforce.Result, []enforce.Partial, error) {
				var parts []enforce.Partial
				res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s,
					enforce.WithPartials(func(part enforce.Partial) { parts = append(parts, part) }))
				return res, parts, err
			}
			rec := newRecorder(t, providertest.New(tt.replies...), dir, record.Record, nil)
			want, wantParts, err := run(rec)
			require.NoError(t, err)
			var early []bool
			for _, a := range want.Attempts {
				early = append(early, a.StoppedEarly)
			}
			require.Equal(t, tt.early, early, "the scripted run is the one the case means")

			rep := newRecorder(t, nil, dir, record.Replay, nil)
			got, gotParts, err := run(rep)
			require.NoError(t, err)
			assert.Equal(t, string(want.JSON), string(got.JSON))
			assert.Equal(t, want.Text, got.Text)
			assert.Equal(t, want.Usage, got.Usage)
			assert.Equal(t, wantParts, gotParts)
			require.Len(t, got.Attempts, len(want.Attempts))
			for i := range want.Attempts {
				w, g := want.Attempts[i], got.Attempts[i]
				assert.Equal(t, w.Request, g.Request, "attempt %d", i+1)
				assert.Equal(t, w.Outcome, g.Outcome, "attempt %d", i+1)
				assert.Equal(t, w.StoppedEarly, g.StoppedEarly, "attempt %d", i+1)
				assert.Equal(t, w.Response, g.Response, "attempt %d", i+1)
				assert.Equal(t, w.Violations, g.Violations, "attempt %d", i+1)
			}
		})
	}
}

func TestMiss(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	rec := newRecorder(t, providertest.New(providertest.Text("a"), providertest.Text("b")), dir, record.Record, &record.Options{Model: "m1"})
	_, err := rec.Generate(ctx, ask("Hello.", "Hi.", "Summarise the report."))
	require.NoError(t, err)
	_, err = rec.Generate(ctx, ask("Something else entirely."))
	require.NoError(t, err)

	tests := []struct {
		name      string
		model     string
		req       *provider.Request
		field     string
		recorded  string
		requested string
	}{
		{"a message differs", "m1", ask("Hello.", "Hi.", "Summarise the reports."), "$.messages[2].content", `"Summarise the report."`, `"Summarise the reports."`},
		{"a message more", "m1", ask("Hello.", "Hi.", "Summarise the report.", "And?"), "$.messages[3]", "(absent)", `{"content":"And?","role":"assistant"}`},
		{"max tokens", "m1", func() *provider.Request { r := ask("Something else entirely."); r.MaxTokens = 5; return r }(), "$.max_tokens", "100", "5"},
		{"two fields differ: the first in request order", "m1", func() *provider.Request {
			r := ask("Hello.", "Hi.", "Summarise the reports.")
			r.MaxTokens = 5
			return r
		}(), "$.messages[2].content", `"Summarise the report."`, `"Summarise the reports."`},
		{"another model", "m2", ask("Hello.", "Hi.", "Summarise the report."), "$.model", `"m1"`, `"m2"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := newRecorder(t, nil, dir, record.Replay, &record.Options{Model: tt.model})
			resp, err := rep.Generate(ctx, tt.req)
			assert.Nil(t, resp)
			require.ErrorIs(t, err, record.ErrMiss)
			var me *record.MissError
			require.ErrorAs(t, err, &me)
			assert.Equal(t, tt.field, me.Field)
			assert.Equal(t, tt.recorded, me.Recorded)
			assert.Equal(t, tt.requested, me.Requested)
			assert.Contains(t, err.Error(), tt.field+": recorded "+tt.recorded+" vs "+tt.requested)
		})
	}

	t.Run("empty store", func(t *testing.T) {
		rep := newRecorder(t, nil, t.TempDir(), record.Replay, nil)
		_, err := providertest.Chunks(rep.(provider.Streamer).Stream(ctx, ask("x")))
		var me *record.MissError
		require.ErrorAs(t, err, &me)
		assert.Empty(t, me.Nearest)
		assert.Contains(t, err.Error(), "holds no recording")
	})
}

func TestRecordMissing(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	sp := providertest.New(providertest.Text("first"), providertest.Text("second"))
	p := newRecorder(t, sp, dir, record.RecordMissing, nil)
	steps := []struct {
		req   *provider.Request
		text  string
		calls int
	}{
		{ask("one"), "first", 1},
		{ask("one"), "first", 1}, // replayed
		{ask("two"), "second", 2},
		{ask("one"), "first", 2},
		{ask("two"), "second", 2},
	}
	for i, st := range steps {
		resp, err := p.Generate(ctx, st.req)
		require.NoError(t, err, "step %d", i)
		assert.Equal(t, st.text, resp.Text, "step %d", i)
		assert.Len(t, sp.Requests(), st.calls, "step %d", i)
	}
	assert.Len(t, storeFiles(t, dir), 2)

	// Record calls every time and overwrites.
	sp2 := providertest.New(providertest.Text("again"))
	_, err := newRecorder(t, sp2, dir, record.Record, nil).Generate(ctx, ask("one"))
	require.NoError(t, err)
	resp, err := newRecorder(t, nil, dir, record.Replay, nil).Generate(ctx, ask("one"))
	require.NoError(t, err)
	assert.Equal(t, "again", resp.Text)
}

func TestSecrets(t *testing.T) {
	const key = "sk-test-4f9a8b7c6d5e"
	dir := t.TempDir()
	ctx := context.Background()
	req := &provider.Request{
		System: "Use key " + key + " for the API.",
		Messages: []provider.Message{
			provider.UserMessage("My key is " + key),
			{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "login", Arguments: json.RawMessage(`{"api_key": "` + key + `"}`)}}},
			{Role: provider.RoleTool, ToolCallID: "c1", Content: "logged in with " + key},
		},
		Output: &provider.OutputSpec{Name: "out", Description: "key " + key, Schema: json.RawMessage(`{"const": "` + key + `"}`)},
		Tools:  []provider.Tool{{Name: "login", Description: "takes " + key, InputSchema: json.RawMessage(`{"default": "` + key + `"}`)}},
	}
	opts := &record.Options{Model: "m", Secrets: []string{key}}
	sp := providertest.New(
		providertest.Reply{Text: "echo " + key, ToolCalls: []provider.ToolCall{{Name: "login", Arguments: json.RawMessage(`{"k": "` + key + `"}`)}}},
		providertest.Failed(&provider.Error{Kind: provider.ErrAuth, StatusCode: 401, Message: "bad key " + key}),
		providertest.Pieces("part "+key, " end"),
	)
	rec := newRecorder(t, sp, dir, record.Record, opts)
	resp, err := rec.Generate(ctx, req)
	require.NoError(t, err)
	assert.Contains(t, resp.Text, key, "the caller gets the reply as the model sent it")
	req2 := req.Clone()
	req2.MaxTokens = 7
	_, err = rec.Generate(ctx, req2)
	require.ErrorIs(t, err, provider.ErrAuth)
	assert.Contains(t, err.Error(), key, "the caller gets the error as the provider sent it; only the recording is redacted")
	req3 := req.Clone()
	req3.MaxTokens = 8
	_, err = providertest.Chunks(rec.(provider.Streamer).Stream(ctx, req3))
	require.NoError(t, err)

	names := storeFiles(t, dir)
	require.Len(t, names, 3)
	for _, name := range names {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		assert.NotContains(t, string(data), key, name)
		assert.NotContains(t, string(data), "4f9a8b7c6d5e", name)
		assert.Contains(t, string(data), record.Redacted, name)
	}

	// The key is taken after redaction, so the same request replays.
	rep := newRecorder(t, nil, dir, record.Replay, opts)
	got, err := rep.Generate(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, "echo "+record.Redacted, got.Text)
	_, err = rep.Generate(ctx, req2)
	assert.ErrorIs(t, err, provider.ErrAuth)
	assert.NotContains(t, err.Error(), key)
}

func TestRedactFields(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	opts := &record.Options{Redact: []string{"$.messages[*].content", "$.system"}}
	rec := newRecorder(t, providertest.New(providertest.Text("ok")), dir, record.Record, opts)
	_, err := rec.Generate(ctx, ask("user 123 says hi"))
	require.NoError(t, err)
	names := storeFiles(t, dir)
	require.Len(t, names, 1)
	data, err := os.ReadFile(names[0])
	require.NoError(t, err)
	assert.NotContains(t, string(data), "user 123")
	assert.NotContains(t, string(data), "Be brief.")

	// A redacted field no longer tells requests apart.
	rep := newRecorder(t, nil, dir, record.Replay, opts)
	resp, err := rep.Generate(ctx, ask("user 456 says hi"))
	require.NoError(t, err)
	assert.Equal(t, "ok", resp.Text)
	// Without the option it does.
	_, err = newRecorder(t, nil, dir, record.Replay, nil).Generate(ctx, ask("user 456 says hi"))
	assert.ErrorIs(t, err, record.ErrMiss)
}

func TestConcurrentRecord(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	const n = 16
	replies := make([]providertest.Reply, 2*n)
	for i := range replies {
		replies[i] = providertest.Text("same")
	}
	rec := newRecorder(t, providertest.New(replies...), dir, record.Record, nil)
	var wg sync.WaitGroup
	for i := range 2 * n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := rec.Generate(ctx, ask(fmt.Sprintf("question %d", i%n)))
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	assert.Len(t, storeFiles(t, dir), n)
	tmp, _ := filepath.Glob(filepath.Join(dir, "*.tmp"))
	assert.Empty(t, tmp)
	rep := newRecorder(t, nil, dir, record.Replay, nil)
	for i := range n {
		resp, err := rep.Generate(ctx, ask(fmt.Sprintf("question %d", i)))
		require.NoError(t, err)
		assert.Equal(t, "same", resp.Text)
	}
}

func TestNewErrors(t *testing.T) {
	sp := providertest.New()
	tests := []struct {
		name string
		p    provider.Provider
		dir  string
		mode record.Policy
		opts *record.Options
	}{
		{"zero mode", sp, t.TempDir(), 0, nil},
		{"record without provider", nil, t.TempDir(), record.Record, nil},
		{"record missing without provider", nil, t.TempDir(), record.RecordMissing, nil},
		{"empty dir", sp, "", record.Record, nil},
		{"empty secret", sp, t.TempDir(), record.Record, &record.Options{Secrets: []string{""}}},
		{"bad path", sp, t.TempDir(), record.Record, &record.Options{Redact: []string{"messages..x"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := record.New(tt.p, tt.dir, tt.mode, tt.opts)
			require.ErrorIs(t, err, record.ErrInvalidOption)
			assert.Nil(t, p)
		})
	}
}

func TestStreamerOnlyWhenWrappedStreams(t *testing.T) {
	plain := provider.Func(func(context.Context, *provider.Request) (*provider.Response, error) {
		return &provider.Response{Text: "x"}, nil
	})
	p := newRecorder(t, plain, t.TempDir(), record.Record, nil)
	_, ok := p.(provider.Streamer)
	assert.False(t, ok)
	p = newRecorder(t, providertest.New(), t.TempDir(), record.Record, nil)
	_, ok = p.(provider.Streamer)
	assert.True(t, ok)
	caps := provider.Capabilities{NativeSchema: true}
	p = newRecorder(t, nil, t.TempDir(), record.Replay, &record.Options{Capabilities: &caps})
	assert.Equal(t, caps, p.Capabilities())
}

func TestFileErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		edit func(data []byte) []byte
	}{
		{"not JSON", func([]byte) []byte { return []byte("{") }},
		{"request edited", func(data []byte) []byte {
			var f map[string]any
			require.NoError(t, json.Unmarshal(data, &f))
			f["request"].(map[string]any)["system"] = "changed"
			out, _ := json.Marshal(f)
			return out
		}},
		{"unknown version", func(data []byte) []byte {
			var f map[string]any
			require.NoError(t, json.Unmarshal(data, &f))
			f["version"] = 9
			out, _ := json.Marshal(f)
			return out
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			_, err := newRecorder(t, providertest.New(providertest.Text("ok")), dir, record.Record, nil).Generate(ctx, ask("q"))
			require.NoError(t, err)
			names := storeFiles(t, dir)
			require.Len(t, names, 1)
			data, err := os.ReadFile(names[0])
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(names[0], tt.edit(data), 0o644))
			_, err = newRecorder(t, nil, dir, record.Replay, nil).Generate(ctx, ask("q"))
			var fe *record.FileError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, names[0], fe.Path)
		})
	}
}

// A secret the model echoes across chunks, which no chunk holds whole,
// does not reach the store either; the replayed pieces join to the
// scrubbed reply.
func TestSecretAcrossChunks(t *testing.T) {
	const key = "sk-test-4f9a8b7c6d5e"
	tests := []struct {
		name  string
		reply providertest.Reply
		text  string // the replayed pieces joined
		args  string // the replayed tool call pieces joined
	}{
		{"text in two", providertest.Pieces("key sk-test-4f9", "a8b7c6d5e end"), "key [REDACTED] end", ""},
		{"text in three", providertest.Pieces("key sk-te", "st-4f9a8b", "7c6d5e, again "+key), "key [REDACTED], again [REDACTED]", ""},
		{"tool call arguments", providertest.Reply{ToolCalls: []provider.ToolCall{{Name: "login", Arguments: json.RawMessage(`{"k": "` + key + `"}`)}}, ChunkSize: 3},
			"", `{"k": "[REDACTED]"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			ctx := context.Background()
			opts := &record.Options{Secrets: []string{key}}
			rec := newRecorder(t, providertest.New(tt.reply), dir, record.Record, opts)
			want, err := providertest.Chunks(rec.(provider.Streamer).Stream(ctx, ask("hi")))
			require.NoError(t, err)
			names := storeFiles(t, dir)
			require.Len(t, names, 1)
			data, err := os.ReadFile(names[0])
			require.NoError(t, err)
			assert.NotContains(t, string(data), key)

			rep := newRecorder(t, nil, dir, record.Replay, opts)
			got, err := providertest.Chunks(rep.(provider.Streamer).Stream(ctx, ask("hi")))
			require.NoError(t, err)
			require.Len(t, got, len(want), "as many chunks as were sent")
			var text, args string
			for _, c := range got[:len(got)-1] {
				text += c.Text
				if c.ToolCall != nil {
					args += c.ToolCall.Arguments
				}
			}
			assert.Equal(t, tt.text, text)
			assert.Equal(t, tt.args, args)
			final := got[len(got)-1].Response
			require.NotNil(t, final)
			assert.Equal(t, tt.text, final.Text)
			if tt.args != "" {
				assert.Equal(t, tt.args, string(final.ToolCalls[0].Arguments))
			}
		})
	}
}

// A secret redaction cannot reach (here one that is also a member name of
// the store format) stops the write: the caller gets the reply and
// ErrSecret, and nothing is written.
func TestSecretGuard(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	rec := newRecorder(t, providertest.New(providertest.Text("ok"), providertest.Pieces("o", "k")), dir, record.Record,
		&record.Options{Secrets: []string{"usage"}})
	resp, err := rec.Generate(ctx, ask("hi"))
	assert.ErrorIs(t, err, record.ErrSecret)
	require.NotNil(t, resp)
	assert.Equal(t, "ok", resp.Text)
	chunks, err := providertest.Chunks(rec.(provider.Streamer).Stream(ctx, ask("hi")))
	assert.ErrorIs(t, err, record.ErrSecret)
	assert.Len(t, chunks, 2, "the pieces, and the error in place of the final chunk")
	assert.Empty(t, storeFiles(t, dir))
}

func TestConcurrentStream(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	const n = 8
	replies := make([]providertest.Reply, n)
	for i := range replies {
		replies[i] = providertest.Chunked(2, `{"n": 1}`)
	}
	sp := providertest.New(replies...)
	rec := newRecorder(t, sp, dir, record.RecordMissing, nil)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			chunks, err := providertest.Chunks(rec.(provider.Streamer).Stream(ctx, ask(fmt.Sprintf("q%d", i))))
			assert.NoError(t, err)
			assert.Len(t, chunks, 5)
		}()
	}
	wg.Wait()
	assert.Len(t, storeFiles(t, dir), n)
	// Every request is recorded now: the same calls again replay.
	for i := range n {
		chunks, err := providertest.Chunks(rec.(provider.Streamer).Stream(ctx, ask(fmt.Sprintf("q%d", i))))
		require.NoError(t, err)
		assert.Len(t, chunks, 5)
	}
	assert.Len(t, sp.Requests(), n)
}

func TestCancelledContext(t *testing.T) {
	dir := t.TempDir()
	rec := newRecorder(t, providertest.New(providertest.Text("ok")), dir, record.Record, nil)
	_, err := rec.Generate(context.Background(), ask("hi"))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep := newRecorder(t, nil, dir, record.Replay, nil)
	_, err = rep.Generate(ctx, ask("hi"))
	assert.ErrorIs(t, err, context.Canceled)
	_, err = providertest.Chunks(rep.(provider.Streamer).Stream(ctx, ask("hi")))
	assert.ErrorIs(t, err, context.Canceled)

	// A call that ends with the caller's deadline is not recorded.
	empty := t.TempDir()
	rec = newRecorder(t, providertest.New(providertest.Reply{Chunks: []string{"a", "b"}, Delay: time.Hour}), empty, record.Record, nil)
	ctx, cancel = context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	_, err = providertest.Chunks(rec.(provider.Streamer).Stream(ctx, ask("hi")))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Empty(t, storeFiles(t, empty))
}
