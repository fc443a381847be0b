package anthropic_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/anthropic"
	"github.com/agentio/agentio/provider/providertest"
)

// event is one server-sent event of the Messages API's stream: its name
// is the type in its data, as the API sends it.
func event(data string) string {
	var v struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal([]byte(data), &v)
	return "event: " + v.Type + "\ndata: " + data + "\n\n"
}

// sse is a streamed answer made of the given events.
func sse(events ...string) wireReply {
	return wireReply{Body: strings.Join(events, ""), Header: map[string]string{"Content-Type": "text/event-stream"}}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// pieces cuts s into pieces of n bytes, the last one shorter.
func pieces(s string, n int) []string {
	var out []string
	for len(s) > n {
		out, s = append(out, s[:n]), s[n:]
	}
	return append(out, s)
}

// A wireBlock is one content block of a scripted reply.
type wireBlock struct {
	Type     string   // "text", "tool_use" or "thinking"
	ID, Name string   // a tool_use block's
	Pieces   []string // the text, the input JSON or the thinking, as the deltas carry it
}

// A wireMessage is a scripted reply, to send whole or streamed.
type wireMessage struct {
	Blocks []wireBlock
	Stop   string
	// StartUsage and DeltaUsage are the usage objects of message_start and
	// message_delta; empty means wireUsage's input counts with
	// output_tokens 1, then {"output_tokens":20}.
	StartUsage, DeltaUsage string
}

// whole is the reply as Generate receives it.
func (m wireMessage) whole() wireReply {
	var content []string
	for _, b := range m.Blocks {
		all := strings.Join(b.Pieces, "")
		switch b.Type {
		case "text":
			content = append(content, `{"type":"text","text":`+jsonString(all)+`}`)
		case "tool_use":
			content = append(content, `{"type":"tool_use","id":"`+b.ID+`","name":"`+b.Name+`","input":`+all+`}`)
		case "thinking":
			content = append(content, `{"type":"thinking","thinking":`+jsonString(all)+`,"signature":"sig"}`)
		}
	}
	return wireReply{Body: message("["+strings.Join(content, ",")+"]", m.Stop)}
}

// events is the reply as the stream sends it, with a ping.
func (m wireMessage) events() []string {
	startUsage := cmp.Or(m.StartUsage, `{"input_tokens":50,"output_tokens":1,"cache_creation_input_tokens":5,"cache_read_input_tokens":10}`)
	out := []string{
		event(`{"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","model":"claude-test-2026",` +
			`"content":[],"stop_reason":null,"stop_sequence":null,"usage":` + startUsage + `}}`),
		event(`{"type":"ping"}`),
	}
	for i, b := range m.Blocks {
		var start string
		var delta func(string) string
		switch b.Type {
		case "text":
			start = `{"type":"text","text":""}`
			delta = func(p string) string { return `{"type":"text_delta","text":` + jsonString(p) + `}` }
		case "tool_use":
			start = `{"type":"tool_use","id":"` + b.ID + `","name":"` + b.Name + `","input":{}}`
			delta = func(p string) string { return `{"type":"input_json_delta","partial_json":` + jsonString(p) + `}` }
		case "thinking":
			start = `{"type":"thinking","thinking":"","signature":""}`
			delta = func(p string) string { return `{"type":"thinking_delta","thinking":` + jsonString(p) + `}` }
		}
		out = append(out, event(fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":%s}`, i, start)))
		for _, p := range b.Pieces {
			out = append(out, event(fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":%s}`, i, delta(p))))
		}
		if b.Type == "thinking" {
			out = append(out, event(fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"signature_delta","signature":"sig"}}`, i)))
		}
		out = append(out, event(fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i)))
	}
	deltaUsage := cmp.Or(m.DeltaUsage, `{"output_tokens":20}`)
	return append(out,
		event(`{"type":"message_delta","delta":{"stop_reason":"`+m.Stop+`","stop_sequence":null},"usage":`+deltaUsage+`}`),
		event(`{"type":"message_stop"}`))
}

// streamed is the reply as a streamed answer.
func (m wireMessage) streamed() wireReply { return sse(m.events()...) }

// replay is the sequence of the chunks read.
func replay(chunks []provider.Chunk) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// joined puts the pieces of a streamed reply back together: the text and
// each tool call (by its Index), taking ID and Name from the first piece.
func joined(t *testing.T, chunks []provider.Chunk) (string, []provider.ToolCall) {
	t.Helper()
	var text strings.Builder
	var calls []provider.ToolCall
	for _, c := range chunks {
		text.WriteString(c.Text)
		d := c.ToolCall
		if d == nil {
			continue
		}
		if d.Index == len(calls) {
			assert.NotEmpty(t, d.ID, "a call's first piece has its id")
			assert.NotEmpty(t, d.Name, "a call's first piece has its name")
			calls = append(calls, provider.ToolCall{ID: d.ID, Name: d.Name})
		}
		require.Less(t, d.Index, len(calls), "calls are numbered in order from 0")
		calls[d.Index].Arguments = append(calls[d.Index].Arguments, d.Arguments...)
	}
	return text.String(), calls
}

var (
	reviewPrompt = []provider.Message{provider.UserMessage("Review the diff.")}
	toolRequest  = &provider.Request{
		Messages:   reviewPrompt,
		Tools:      []provider.Tool{{Name: "submit_result", InputSchema: json.RawMessage(reviewSchema), Strict: true}},
		ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: "submit_result"},
	}
)

func TestStreamMatchesGenerate(t *testing.T) {
	text := func(pieces ...string) wireBlock { return wireBlock{Type: "text", Pieces: pieces} }
	tests := []struct {
		name string
		req  *provider.Request
		msg  wireMessage
	}{
		{
			name: "text",
			req:  &provider.Request{System: "Be brief.", Messages: reviewPrompt, MaxTokens: 100},
			msg:  wireMessage{Blocks: []wireBlock{text("Hel", "lo, ", "world.")}, Stop: "end_turn"},
		},
		{
			name: "thinking is not reply text",
			req:  &provider.Request{Messages: reviewPrompt},
			msg: wireMessage{Blocks: []wireBlock{
				{Type: "thinking", Pieces: []string{"The diff ", "adds a nil check."}},
				text(`{"title": `, `"Nil check"}`),
			}, Stop: "end_turn"},
		},
		{
			name: "native output",
			req: &provider.Request{Messages: reviewPrompt,
				Output: &provider.OutputSpec{Name: "review", Schema: json.RawMessage(reviewSchema), Format: provider.FormatJSONSchema}},
			msg: wireMessage{Blocks: []wireBlock{text(pieces(`{"title": "Crash on save", "severity": "high"}`, 4)...)}, Stop: "end_turn"},
		},
		{
			name: "tool call with arguments in pieces",
			req:  toolRequest,
			msg: wireMessage{Blocks: []wireBlock{
				text("Submitting."),
				{Type: "tool_use", ID: "toolu_1", Name: "submit_result", Pieces: []string{`{"title": "Cr`, `ash on save", "sev`, `erity": "high"}`}},
			}, Stop: "tool_use"},
		},
		{
			name: "two tool calls after text",
			req:  &provider.Request{Messages: reviewPrompt, Tools: toolRequest.Tools},
			msg: wireMessage{Blocks: []wireBlock{
				text("Two findings."),
				{Type: "tool_use", ID: "toolu_1", Name: "submit_result", Pieces: []string{`{"title": "A", `, `"severity": "low"}`}},
				{Type: "tool_use", ID: "toolu_2", Name: "submit_result", Pieces: []string{`{"title": "B", "severity": "high"}`}},
			}, Stop: "tool_use"},
		},
		{
			name: "tool call without arguments",
			req:  &provider.Request{Messages: reviewPrompt, Tools: []provider.Tool{{Name: "list_files"}}},
			msg:  wireMessage{Blocks: []wireBlock{{Type: "tool_use", ID: "toolu_3", Name: "list_files", Pieces: []string{`{}`}}}, Stop: "tool_use"},
		},
		{
			name: "max tokens",
			req:  &provider.Request{Messages: reviewPrompt, MaxTokens: 8},
			msg:  wireMessage{Blocks: []wireBlock{text(`{"title": `, `"Crash on`)}, Stop: "max_tokens"},
		},
		{
			name: "refusal",
			req:  &provider.Request{Messages: reviewPrompt},
			msg:  wireMessage{Blocks: []wireBlock{text("I can't ", "help with that. ")}, Stop: "refusal"},
		},
		{
			name: "cumulative usage in message_delta",
			req:  &provider.Request{Messages: reviewPrompt},
			msg: wireMessage{Blocks: []wireBlock{text("Done.")}, Stop: "end_turn",
				StartUsage: `{"input_tokens":0,"output_tokens":1}`, DeltaUsage: wireUsage},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, tt.msg.whole(), tt.msg.streamed())
			p := newProvider(t, s)
			want, err := p.Generate(context.Background(), tt.req)
			require.NoError(t, err)

			chunks, err := providertest.Chunks(p.Stream(context.Background(), tt.req))
			require.NoError(t, err)
			require.NotEmpty(t, chunks)
			last := chunks[len(chunks)-1]
			assert.Equal(t, want, last.Response, "the last chunk is the reply as Generate returns it")
			for _, c := range chunks[:len(chunks)-1] {
				assert.Nil(t, c.Response, "only the last chunk carries the reply")
			}
			got, err := provider.Collect(replay(chunks))
			require.NoError(t, err)
			assert.Equal(t, want, got)

			text, calls := joined(t, chunks[:len(chunks)-1])
			assert.Equal(t, want.Text, text, "the text pieces make the reply's text")
			require.Len(t, calls, len(want.ToolCalls))
			for i, c := range calls {
				assert.Equal(t, want.ToolCalls[i].ID, c.ID)
				assert.Equal(t, want.ToolCalls[i].Name, c.Name)
				assert.JSONEq(t, string(want.ToolCalls[i].Arguments), string(c.Arguments))
			}

			reqs := s.Requests()
			require.Len(t, reqs, 2)
			sent := reqs[1].JSON(t)
			assert.Equal(t, true, sent["stream"])
			delete(sent, "stream")
			assert.Equal(t, reqs[0].JSON(t), sent, "Stream sends what Generate sends")
		})
	}
}

// TestStreamToolCallCutByMaxTokens: a tool call cut short by max_tokens
// keeps its input as streamed, which is not JSON yet (Generate receives
// what the API made of it), and the reply is truncated.
func TestStreamToolCallCutByMaxTokens(t *testing.T) {
	msg := wireMessage{Blocks: []wireBlock{
		{Type: "tool_use", ID: "toolu_4", Name: "submit_result", Pieces: []string{`{"title": `, `"Cr`}},
	}, Stop: "max_tokens"}
	s := newWireServer(t, msg.streamed())
	resp, err := provider.Collect(newProvider(t, s).Stream(context.Background(), toolRequest))
	require.NoError(t, err)
	assert.Equal(t, provider.StopLength, resp.StopReason)
	assert.Equal(t, "max_tokens", resp.RawStopReason)
	require.Len(t, resp.ToolCalls, 1)
	assert.Equal(t, `{"title": "Cr`, string(resp.ToolCalls[0].Arguments))
	assert.Equal(t, 85, resp.Usage.TotalTokens)
}

// TestStreamTextPieces checks what a reader sees first: the text as it
// arrives, a tool call's id and name before its arguments.
func TestStreamTextPieces(t *testing.T) {
	msg := wireMessage{Blocks: []wireBlock{
		{Type: "thinking", Pieces: []string{"hmm"}},
		{Type: "text", Pieces: []string{"Hel", "lo."}},
		{Type: "tool_use", ID: "toolu_1", Name: "submit_result", Pieces: []string{`{"ok":`, `true}`}},
	}, Stop: "tool_use"}
	s := newWireServer(t, msg.streamed())
	chunks, err := providertest.Chunks(newProvider(t, s).Stream(context.Background(), toolRequest))
	require.NoError(t, err)
	require.Len(t, chunks, 6)
	assert.Equal(t, []provider.Chunk{
		{Text: "Hel"},
		{Text: "lo."},
		{ToolCall: &provider.ToolCallDelta{Index: 0, ID: "toolu_1", Name: "submit_result"}},
		{ToolCall: &provider.ToolCallDelta{Index: 0, Arguments: `{"ok":`}},
		{ToolCall: &provider.ToolCallDelta{Index: 0, Arguments: `true}`}},
	}, chunks[:5])
	require.NotNil(t, chunks[5].Response)
	assert.Equal(t, provider.StopToolUse, chunks[5].Response.StopReason)
}

// sameError checks that got is the *provider.Error want is, but for the
// SDK's error inside.
func sameError(t *testing.T, want, got error) {
	t.Helper()
	var we, ge *provider.Error
	require.ErrorAs(t, want, &we)
	require.ErrorAs(t, got, &ge)
	w, g := *we, *ge
	w.Err, g.Err = nil, nil
	assert.Equal(t, w, g)
}

func TestStreamErrors(t *testing.T) {
	tests := []struct {
		name   string
		status int
		errTyp string
		msg    string
		want   error
	}{
		{name: "rate limited", status: 429, errTyp: "rate_limit_error", msg: "Number of request tokens has exceeded your rate limit", want: provider.ErrRateLimited},
		{name: "overloaded", status: 529, errTyp: "overloaded_error", msg: "Overloaded", want: provider.ErrOverloaded},
		{name: "api error", status: 500, errTyp: "api_error", msg: "Internal server error", want: provider.ErrOverloaded},
		{name: "schema rejected", status: 400, errTyp: "invalid_request_error", msg: "output_config.format.schema: Schema is too complex", want: provider.ErrSchemaRejected},
		{name: "auth", status: 401, errTyp: "authentication_error", msg: "invalid x-api-key", want: provider.ErrAuth},
	}
	req := &provider.Request{Messages: reviewPrompt}
	for _, tt := range tests {
		t.Run(tt.name+" before the stream", func(t *testing.T) {
			reply := wireReply{Status: tt.status, Body: apiError(tt.errTyp, tt.msg)}
			s := newWireServer(t, reply, reply)
			p := newProvider(t, s)
			_, genErr := p.Generate(context.Background(), req)
			require.ErrorIs(t, genErr, tt.want)
			chunks, err := providertest.Chunks(p.Stream(context.Background(), req))
			require.ErrorIs(t, err, tt.want)
			assert.Empty(t, chunks)
			sameError(t, genErr, err)
		})
		t.Run(tt.name+" during the stream", func(t *testing.T) {
			events := wireMessage{Blocks: []wireBlock{{Type: "text", Pieces: []string{"Hel", "lo."}}}}.events()
			cut := append(events[:5:5], "event: error\ndata: "+apiError(tt.errTyp, tt.msg)+"\n\n")
			s := newWireServer(t, wireReply{Status: tt.status, Body: apiError(tt.errTyp, tt.msg)}, sse(cut...))
			p := newProvider(t, s)
			_, genErr := p.Generate(context.Background(), req)
			chunks, err := providertest.Chunks(p.Stream(context.Background(), req))
			require.ErrorIs(t, err, tt.want)
			assert.Equal(t, []provider.Chunk{{Text: "Hel"}, {Text: "lo."}}, chunks, "the text before the error")
			sameError(t, genErr, err)
		})
	}
}

// TestStreamCutOff: a stream that ends before message_stop gives no reply
// and no error; Collect reads it as truncated.
func TestStreamCutOff(t *testing.T) {
	tests := []struct {
		name     string
		msg      wireMessage
		keep     int // events sent
		wantText string
		wantArgs string // of the one tool call, if any
	}{
		{
			name:     "in the text",
			msg:      wireMessage{Blocks: []wireBlock{{Type: "text", Pieces: []string{`{"title": `, `"Crash`, ` on save"}`}}}, Stop: "end_turn"},
			keep:     5,
			wantText: `{"title": "Crash`,
		},
		{
			name: "in a tool call",
			msg: wireMessage{Blocks: []wireBlock{
				{Type: "tool_use", ID: "toolu_1", Name: "submit_result", Pieces: []string{`{"title": `, `"Crash`, ` on save"}`}},
			}, Stop: "tool_use"},
			keep:     5,
			wantArgs: `{"title": "Crash`,
		},
		{
			name:     "after message_delta",
			msg:      wireMessage{Blocks: []wireBlock{{Type: "text", Pieces: []string{"Done."}}}, Stop: "end_turn"},
			keep:     6,
			wantText: "Done.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events := tt.msg.events()
			require.Less(t, tt.keep, len(events))
			s := newWireServer(t, sse(events[:tt.keep]...))
			resp, err := provider.Collect(newProvider(t, s).Stream(context.Background(), toolRequest))
			require.NoError(t, err)
			assert.Equal(t, provider.StopLength, resp.StopReason)
			assert.Equal(t, tt.wantText, resp.Text)
			if tt.wantArgs != "" {
				require.Len(t, resp.ToolCalls, 1)
				assert.Equal(t, "toolu_1", resp.ToolCalls[0].ID)
				assert.Equal(t, tt.wantArgs, string(resp.ToolCalls[0].Arguments))
			}
		})
	}
}

// TestStreamConnectionDropped: a connection that breaks in the middle of
// the body (no end of the chunked body) is a network failure, as it is for
// Generate: the sequence ends with an error of kind other, after the text
// received.
func TestStreamConnectionDropped(t *testing.T) {
	events := textEvents("Hello there", 3)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = fmt.Fprint(w, strings.Join(events[:5], ""))
		w.(http.Flusher).Flush()
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		_ = conn.Close()
	}))
	t.Cleanup(srv.Close)
	p, err := anthropic.New(&anthropic.Options{Model: "claude-test", APIKey: "k", BaseURL: srv.URL})
	require.NoError(t, err)
	chunks, err := providertest.Chunks(p.Stream(context.Background(), &provider.Request{Messages: reviewPrompt}))
	assert.Equal(t, []provider.Chunk{{Text: "Hel"}, {Text: "lo "}}, chunks)
	var pe *provider.Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, provider.ErrOther, pe.Kind)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
}

// TestStreamMalformedEvent: an event that is not JSON, or a delta before
// any block, ends the sequence with an error of kind other.
func TestStreamMalformedEvent(t *testing.T) {
	start := wireMessage{}.events()[0]
	tests := []struct {
		name  string
		event string
	}{
		{name: "not JSON", event: "event: content_block_delta\ndata: {\"type\":\n\n"},
		{name: "delta before any block", event: event(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, sse(start, tt.event))
			_, err := providertest.Chunks(newProvider(t, s).Stream(context.Background(), &provider.Request{Messages: reviewPrompt}))
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, provider.ErrOther, pe.Kind)
			assert.Equal(t, anthropic.Name, pe.Provider)
		})
	}
}

// A heldServer streams scripted replies event by event, flushing each. A
// reply that holds stops after its first Hold events and waits for the
// client to go away, reporting the request's number (from 0) on left; it
// never sends the rest.
type heldServer struct {
	*httptest.Server
	left    chan int
	quit    chan struct{} // closed when the test ends
	mu      sync.Mutex
	replies []heldReply
	bodies  []json.RawMessage
}

// A heldReply is one streamed reply of a heldServer.
type heldReply struct {
	Events []string
	Hold   int // events sent before waiting; 0 sends all
}

func newHeldServer(t *testing.T, replies ...heldReply) *heldServer {
	t.Helper()
	s := &heldServer{left: make(chan int, len(replies)), quit: make(chan struct{}), replies: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(s.quit) }) // runs first: a held reply gives up
	return s
}

func (s *heldServer) serve(w http.ResponseWriter, r *http.Request) {
	var body json.RawMessage
	_ = json.NewDecoder(r.Body).Decode(&body)
	s.mu.Lock()
	n := len(s.bodies)
	s.bodies = append(s.bodies, body)
	if n >= len(s.replies) {
		s.mu.Unlock()
		http.Error(w, apiError("api_error", "no scripted reply left"), http.StatusInternalServerError)
		return
	}
	reply := s.replies[n]
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	flusher := w.(http.Flusher)
	for i, e := range reply.Events {
		if i == reply.Hold && reply.Hold > 0 {
			select {
			case <-r.Context().Done():
				s.left <- n
				return
			case <-s.quit:
				return
			}
		}
		_, _ = fmt.Fprint(w, e)
		flusher.Flush()
	}
}

// sent returns the request bodies received, oldest first.
func (s *heldServer) sent() []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]json.RawMessage(nil), s.bodies...)
}

// waitLeft waits for the client of request n to go away.
func (s *heldServer) waitLeft(t *testing.T, n int) {
	t.Helper()
	select {
	case got := <-s.left:
		assert.Equal(t, n, got)
	case <-time.After(10 * time.Second):
		t.Fatalf("request %d: the client did not close the stream", n)
	}
}

// TestStreamBreakClosesConnection: leaving the range loop ends the HTTP
// request, which the server sees at once.
func TestStreamBreakClosesConnection(t *testing.T) {
	msg := wireMessage{Blocks: []wireBlock{{Type: "text", Pieces: []string{"Hel", "lo, ", "world."}}}, Stop: "end_turn"}
	s := newHeldServer(t, heldReply{Events: msg.events(), Hold: 4})
	p, err := anthropic.New(&anthropic.Options{Model: "claude-test", APIKey: "k", BaseURL: s.URL})
	require.NoError(t, err)
	var got []provider.Chunk
	for c, err := range p.Stream(context.Background(), &provider.Request{Messages: reviewPrompt}) {
		require.NoError(t, err)
		got = append(got, c)
		break
	}
	assert.Equal(t, []provider.Chunk{{Text: "Hel"}}, got)
	s.waitLeft(t, 0)
}

// TestStreamCancelledContext: a context cancelled while the reply streams
// ends the sequence with an error that matches it.
func TestStreamCancelledContext(t *testing.T) {
	msg := wireMessage{Blocks: []wireBlock{{Type: "text", Pieces: []string{"Hel", "lo."}}}, Stop: "end_turn"}
	s := newHeldServer(t, heldReply{Events: msg.events(), Hold: 4})
	p, err := anthropic.New(&anthropic.Options{Model: "claude-test", APIKey: "k", BaseURL: s.URL})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var last error
	for c, err := range p.Stream(ctx, &provider.Request{Messages: reviewPrompt}) {
		if c.Text != "" {
			cancel()
		}
		last = err
	}
	require.ErrorIs(t, last, context.Canceled)
	s.waitLeft(t, 0)
}

// toolEvents is a forced-tool reply whose input JSON comes in pieces.
func toolEvents(id, input string, n int) []string {
	return wireMessage{Blocks: []wireBlock{{Type: "tool_use", ID: id, Name: "submit_result", Pieces: pieces(input, n)}}, Stop: "tool_use"}.events()
}

// textEvents is a reply whose text comes in pieces.
func textEvents(text string, n int) []string {
	return wireMessage{Blocks: []wireBlock{{Type: "text", Pieces: pieces(text, n)}}, Stop: "end_turn"}.events()
}

// TestStreamEnforce: enforce.Run with WithPartials over the adapter gives what enforce.Run
// gives for the same reply, streamed in small pieces.
func TestStreamEnforce(t *testing.T) {
	const good = `{"title": "Crash on save", "severity": "high", "note": "in the editor"}`
	for _, mode := range []enforce.Mode{enforce.ModeNative, enforce.ModeTool} {
		t.Run(string(mode), func(t *testing.T) {
			whole := func(text string) wireReply { return wireReply{Body: textMessage(text, "end_turn")} }
			streamed := func(text string) wireReply { return sse(textEvents(text, 3)...) }
			if mode == enforce.ModeTool {
				whole = func(text string) wireReply { return wireReply{Body: toolMessage("toolu_1", "submit_result", text)} }
				streamed = func(text string) wireReply { return sse(toolEvents("toolu_1", text, 3)...) }
			}
			s := newWireServer(t, whole(good), streamed(good))
			p := newProvider(t, s)
			sch := mustSchema(t, reviewSchema)
			req := enforce.Request{Prompt: "Review the diff."}
			want, err := enforce.Run(context.Background(), p, req, sch, enforce.WithMode(mode))
			require.NoError(t, err)

			var partials int
			got, err := enforce.Run(context.Background(), p, req, sch, enforce.WithMode(mode), enforce.WithPartials(func(enforce.Partial) { partials++ }))
			require.NoError(t, err)
			assert.Positive(t, partials, "the value grows as the pieces arrive")
			assert.Equal(t, want.Mode, got.Mode)
			assert.Equal(t, want.Value, got.Value)
			assert.JSONEq(t, string(want.JSON), string(got.JSON))
			assert.Equal(t, want.Usage, got.Usage)
			require.Len(t, got.Attempts, len(want.Attempts))
			for i := range want.Attempts {
				assert.Equal(t, want.Attempts[i].Outcome, got.Attempts[i].Outcome)
				assert.Equal(t, want.Attempts[i].Response, got.Attempts[i].Response)
				assert.Equal(t, want.Attempts[i].Violations, got.Attempts[i].Violations)
			}

			reqs := s.Requests()
			require.Len(t, reqs, 2)
			sent := reqs[1].JSON(t)
			delete(sent, "stream")
			assert.Equal(t, reqs[0].JSON(t), sent, "the streamed run sends what Run sends")
		})
	}
}

// TestStreamEnforceStopsEarly: a reply whose first field is already wrong
// is stopped there (the server never sends the rest) and re-asked, and the
// second reply wins.
func TestStreamEnforceStopsEarly(t *testing.T) {
	const (
		bad  = `{"severity": "critical", "title": "Crash on save", "note": "a long note the model would be paid to write"}`
		good = `{"severity": "high", "title": "Crash on save"}`
	)
	for _, mode := range []enforce.Mode{enforce.ModeNative, enforce.ModeTool} {
		t.Run(string(mode), func(t *testing.T) {
			events := textEvents
			if mode == enforce.ModeTool {
				events = func(s string, n int) []string { return toolEvents("toolu_1", s, n) }
			}
			// message_start, ping, content_block_start, then 8-byte
			// pieces: the fourth piece closes "critical".
			s := newHeldServer(t, heldReply{Events: events(bad, 8), Hold: 7}, heldReply{Events: events(good, 8)})
			p, err := anthropic.New(&anthropic.Options{Model: "claude-test", APIKey: "k", BaseURL: s.URL})
			require.NoError(t, err)

			res, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review the diff."}, mustSchema(t, reviewSchema), enforce.WithMode(mode), enforce.WithPartials(func(enforce.Partial) {}))
			require.NoError(t, err)
			assert.Equal(t, map[string]any{"severity": "high", "title": "Crash on save"}, res.Value)
			require.Len(t, res.Attempts, 2)
			assert.True(t, res.Attempts[0].StoppedEarly)
			require.NotEmpty(t, res.Attempts[0].Violations)
			assert.Equal(t, "$.severity", res.Attempts[0].Violations[0].Path)
			s.waitLeft(t, 0)

			sent := s.sent()
			require.Len(t, sent, 2)
			assert.Contains(t, string(sent[1]), "critical", "the re-ask quotes the wrong value")
			assert.NotContains(t, string(sent[1]), "a long note", "the rest of the reply was never received")
		})
	}
}

// TestStreamSDKErrorKept: the SDK's error stays reachable through the
// *provider.Error, as in Generate.
func TestStreamSDKErrorKept(t *testing.T) {
	s := newWireServer(t, wireReply{Status: 529, Body: apiError("overloaded_error", "Overloaded")})
	_, err := providertest.Chunks(newProvider(t, s).Stream(context.Background(), &provider.Request{Messages: reviewPrompt}))
	var pe *provider.Error
	require.ErrorAs(t, err, &pe)
	assert.Error(t, errors.Unwrap(pe))
	assert.Equal(t, 529, pe.StatusCode)
	assert.Equal(t, "req_test", pe.RequestID)
}

// streamBody answers every request with its text as an event stream.
type streamBody string

func (b streamBody) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       io.NopCloser(strings.NewReader(string(b))),
		Request:    r,
	}, nil
}

// FuzzStream feeds any event stream to Stream: it must not panic, must end
// at its first error or reply, number the tool calls in order, and give a
// reply that Collect returns as is.
func FuzzStream(f *testing.F) {
	seeds := []wireMessage{
		{Blocks: []wireBlock{{Type: "text", Pieces: []string{"Hel", "lo."}}}, Stop: "end_turn"},
		{Blocks: []wireBlock{{Type: "thinking", Pieces: []string{"hmm"}}, {Type: "text", Pieces: []string{"{}"}}}, Stop: "refusal"},
		{Blocks: []wireBlock{
			{Type: "text", Pieces: []string{"Calling."}},
			{Type: "tool_use", ID: "toolu_1", Name: "submit_result", Pieces: []string{`{"a":`, `1}`}},
			{Type: "tool_use", ID: "toolu_2", Name: "submit_result", Pieces: []string{`{"b"`}},
		}, Stop: "max_tokens", DeltaUsage: wireUsage},
	}
	for _, m := range seeds {
		events := m.events()
		f.Add(strings.Join(events, ""))
		f.Add(strings.Join(events[:len(events)/2], ""))
	}
	f.Add(event(`{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{"}}`))
	f.Add("event: error\ndata: " + apiError("overloaded_error", "Overloaded") + "\n\n")
	f.Add("event: message_start\ndata: {\"type\":\"message_start\",\"message\":null}\n\n")
	f.Fuzz(func(t *testing.T, body string) {
		p, err := anthropic.New(&anthropic.Options{Model: "claude-test", APIKey: "k",
			HTTPClient: &http.Client{Transport: streamBody(body)}, RequestOptions: []option.RequestOption{option.WithMaxRetries(0)}})
		require.NoError(t, err)
		var chunks []provider.Chunk
		var ended bool
		calls := 0
		for c, err := range p.Stream(context.Background(), &provider.Request{Messages: reviewPrompt}) {
			require.False(t, ended, "nothing follows an error or the reply")
			if err != nil {
				var pe *provider.Error
				require.ErrorAs(t, err, &pe)
				ended = true
				continue
			}
			require.True(t, c.Text != "" || c.ToolCall != nil || c.Response != nil, "no empty chunk")
			if d := c.ToolCall; d != nil {
				require.True(t, d.Index >= 0 && d.Index <= calls, "index %d after %d calls", d.Index, calls)
				if d.Index == calls {
					calls++ // a new call takes the next index
				}
			}
			chunks = append(chunks, c)
			ended = c.Response != nil
		}
		resp, err := provider.Collect(replay(chunks))
		require.NoError(t, err)
		if n := len(chunks); n > 0 && chunks[n-1].Response != nil {
			assert.Equal(t, chunks[n-1].Response, resp)
			assert.Equal(t, resp.Usage.InputTokens+resp.Usage.OutputTokens, resp.Usage.TotalTokens)
		}
	})
}
