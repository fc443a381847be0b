package ollama_test

import (
	"context"
	"encoding/json"
	"io"
	"iter"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/enforce/enforcetest"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/ollama"
	"github.com/agentio/agentio/provider/providertest"
)

// line is one NDJSON line of a streamed reply, not the last, with the
// given message.
func line(message string) string {
	return `{"model":"qwen3:8b","created_at":"2026-11-25T03:00:00.000000Z","message":` + message + `,"done":false}` + "\n"
}

// textLine is a line with a piece of content.
func textLine(text string) string {
	b, _ := json.Marshal(text)
	return line(`{"role":"assistant","content":` + string(b) + `}`)
}

// doneLine is the last line of a streamed reply, with the counts chat
// sends.
func doneLine(doneReason string) string {
	return chat(`{"role":"assistant","content":""}`, doneReason) + "\n"
}

// ndjson is a reply streaming the given lines, each sent and flushed on
// its own.
func ndjson(lines ...string) wireReply {
	return wireReply{Parts: lines, Header: map[string]string{"Content-Type": "application/x-ndjson"}}
}

// request is a plain request.
var request = &provider.Request{Messages: []provider.Message{provider.UserMessage("Review.")}}

// TestStreamEqualsGenerate streams a reply and asks for the same reply
// whole: Collect gives what Generate gives, and the pieces are yielded as
// they came.
func TestStreamEqualsGenerate(t *testing.T) {
	toolReq := &provider.Request{
		Messages:   []provider.Message{provider.UserMessage("Submit.")},
		Tools:      []provider.Tool{{Name: "submit_result", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: "submit_result"},
	}
	tests := []struct {
		name   string
		req    *provider.Request
		whole  string // the reply Generate reads
		stream wireReply
		text   []string
		calls  []provider.ToolCallDelta
	}{
		{
			name:  "text after thinking, with usage",
			req:   request,
			whole: chat(`{"role":"assistant","content":"{\"title\": \"Nil deref\"}","thinking":"Let me see."}`, "stop"),
			stream: ndjson(
				line(`{"role":"assistant","content":"","thinking":"Let me "}`),
				line(`{"role":"assistant","content":"","thinking":"see."}`),
				textLine(`{"title": `),
				textLine(`"Nil deref"}`),
				doneLine("stop"),
			),
			text: []string{`{"title": `, `"Nil deref"}`},
		},
		{
			name:  "a tool call in tool mode, sent whole",
			req:   toolReq,
			whole: toolChat("", "submit_result", `{"title": "x"}`),
			stream: ndjson(
				line(`{"role":"assistant","content":"","tool_calls":[{"function":{"index":0,"name":"submit_result","arguments":{"title": "x"}}}]}`),
				doneLine("stop"),
			),
			calls: []provider.ToolCallDelta{{Index: 0, ID: "call_0", Name: "submit_result", Arguments: `{"title": "x"}`}},
		},
		{
			name: "two tool calls on two lines, one with an id",
			req:  toolReq,
			whole: chat(`{"role":"assistant","content":"","tool_calls":[{"id":"call_a","function":{"name":"f","arguments":{"a":1}}},`+
				`{"function":{"name":"g","arguments":null}}]}`, "stop"),
			stream: ndjson(
				line(`{"role":"assistant","content":"","tool_calls":[{"id":"call_a","function":{"name":"f","arguments":{"a":1}}}]}`),
				line(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"g","arguments":null}}]}`),
				doneLine("stop"),
			),
			calls: []provider.ToolCallDelta{
				{Index: 0, ID: "call_a", Name: "f", Arguments: `{"a":1}`},
				{Index: 1, ID: "call_1", Name: "g", Arguments: `{}`},
			},
		},
		{
			name:   "truncated at num_predict",
			req:    request,
			whole:  textChat(`{"title": "lo`, "length"),
			stream: ndjson(textLine(`{"title": `), textLine(`"lo`), doneLine("length")),
			text:   []string{`{"title": `, `"lo`},
		},
		{
			name:   "another done reason, crlf line ends, blank lines",
			req:    request,
			whole:  textChat("hi", "unload"),
			stream: ndjson(strings.TrimSuffix(textLine("hi"), "\n")+"\r\n", "\n", strings.TrimSuffix(doneLine("unload"), "\n")),
			text:   []string{"hi"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, wireReply{Body: tt.whole}, tt.stream, tt.stream)
			p := newProvider(t, s)
			text, calls := providertest.SameAsGenerate(t, p, tt.req)
			assert.Equal(t, tt.text, text)
			assert.Equal(t, tt.calls, calls)

			reqs := s.Requests()
			require.Len(t, reqs, 3)
			body := reqs[1].JSON(t)
			assert.Equal(t, true, body["stream"])
			body["stream"] = false
			assert.Equal(t, reqs[0].JSON(t), body, "the request is Generate's, streamed")
		})
	}
}

// TestStreamErrors: a failure before the stream, and an error line in it,
// end the sequence with the error Generate returns for the same failure.
func TestStreamErrors(t *testing.T) {
	schemaReq := &provider.Request{
		Messages: []provider.Message{provider.UserMessage("x")},
		Output:   &provider.OutputSpec{Schema: json.RawMessage(`{"type":"object"}`)},
	}
	tests := []struct {
		name   string
		req    *provider.Request
		whole  wireReply // what Generate gets
		stream wireReply // what Stream gets
		kind   error
	}{
		{
			name:   "model not pulled",
			req:    request,
			whole:  wireReply{Status: http.StatusNotFound, Body: `{"error":"model 'qwen3' not found"}`},
			stream: wireReply{Status: http.StatusNotFound, Body: `{"error":"model 'qwen3' not found"}`},
			kind:   provider.ErrInvalidRequest,
		},
		{
			name:   "schema rejected",
			req:    schemaReq,
			whole:  wireReply{Status: http.StatusInternalServerError, Body: `{"error":"failed to load model vocabulary required for format"}`},
			stream: wireReply{Status: http.StatusInternalServerError, Body: `{"error":"failed to load model vocabulary required for format"}`},
			kind:   provider.ErrSchemaRejected,
		},
		{
			name:   "an error line mid-stream",
			req:    request,
			whole:  wireReply{Body: `{"error":"an error was encountered while running the model: unexpected EOF"}`},
			stream: ndjson(textLine(`{"title": `), `{"error":"an error was encountered while running the model: unexpected EOF"}`+"\n", textLine("never read")),
		},
		{
			name:   "a line that is not JSON",
			req:    request,
			whole:  wireReply{Body: `<html>`},
			stream: ndjson(textLine("a"), "<html>\n", doneLine("stop")),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, tt.whole, tt.stream)
			p := newProvider(t, s)
			err := providertest.SameError(t, p, tt.req)
			if tt.kind != nil {
				assert.ErrorIs(t, err, tt.kind)
			}
		})
	}

	s := newWireServer(t)
	p := newProvider(t, s)
	for _, req := range []*provider.Request{nil, {MaxTokens: -1}} {
		assert.ErrorIs(t, providertest.SameError(t, p, req), provider.ErrInvalidRequest)
	}
	assert.Empty(t, s.Requests())
}

// TestStreamCutOff: a stream that ends before its done line, cleanly or
// in the middle of a line, yields no Response and no error; Collect reads
// it as truncated.
func TestStreamCutOff(t *testing.T) {
	tests := []struct {
		name  string
		reply wireReply
	}{
		{name: "ends without the done line", reply: ndjson(textLine(`{"title": `), textLine(`"lo`))},
		{name: "ends in a line", reply: ndjson(textLine(`{"title": `), textLine(`"lo`), `{"model":"qwen3:8b","mess`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, tt.reply)
			p := newProvider(t, s)
			resp, err := provider.Collect(p.Stream(context.Background(), request))
			require.NoError(t, err)
			assert.Equal(t, &provider.Response{Text: `{"title": "lo`, StopReason: provider.StopLength, RawStopReason: "stream_cut_off"}, resp)
		})
	}
}

// TestStreamConnectionDropped: a dropped connection is a network failure,
// an error that matches io.ErrUnexpectedEOF, after the pieces that came.
func TestStreamConnectionDropped(t *testing.T) {
	s := newWireServer(t, wireReply{Parts: []string{textLine(`{"title": `), textLine(`"lo`), `{"model":`}, Cut: true})
	p := newProvider(t, s)
	chunks, err := providertest.Chunks(p.Stream(context.Background(), request))
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, provider.ErrOther, provider.KindOf(err))
	assert.Equal(t, []provider.Chunk{{Text: `{"title": `}, {Text: `"lo`}}, chunks)
}

// TestStreamLineTooLong: a server that never ends its line gets an error,
// not unbounded buffering.
func TestStreamLineTooLong(t *testing.T) {
	s := newWireServer(t, ndjson(textLine("a"), `{"model":"`+strings.Repeat("x", ollama.MaxStreamLine)))
	p := newProvider(t, s)
	chunks, err := providertest.Chunks(p.Stream(context.Background(), request))
	require.ErrorIs(t, err, ollama.ErrLineTooLong)
	assert.Equal(t, provider.ErrOther, provider.KindOf(err))
	assert.Len(t, chunks, 1)
}

// TestStreamBreak: leaving the loop cancels the request; the server sees
// its client go away while it holds the rest of the reply.
func TestStreamBreak(t *testing.T) {
	reply := ndjson(textLine("one"), textLine("two"), doneLine("stop"))
	reply.HoldAfter = 1
	s := newWireServer(t, reply)
	p := newProvider(t, s)
	first, err := providertest.First(p.Stream(context.Background(), request))
	require.NoError(t, err)
	assert.Equal(t, "one", first.Text)
	assert.True(t, s.AwaitCancel(), "the server saw the request cancelled")
}

// TestStreamCancelled: a context cancelled mid-stream ends the sequence
// with an error wrapping the context's.
func TestStreamCancelled(t *testing.T) {
	reply := ndjson(textLine("one"), textLine("two"), doneLine("stop"))
	reply.HoldAfter = 1
	s := newWireServer(t, reply)
	p := newProvider(t, s)
	first, err := providertest.CancelAfterFirst(func(ctx context.Context) iter.Seq2[provider.Chunk, error] { return p.Stream(ctx, request) })
	assert.Equal(t, "one", first.Text)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, provider.ErrOther, provider.KindOf(err))
}

// textLines splits text into streamed lines of n bytes, then the done
// line.
func textLines(text string, n int) []string {
	var out []string
	for len(text) > n {
		out = append(out, textLine(text[:n]))
		text = text[n:]
	}
	return append(out, textLine(text), doneLine("stop"))
}

// TestStreamThroughEnforce runs enforce.Run with WithPartials over the adapter in native
// mode: a valid reply streamed in small pieces gives what enforce.Run
// gives for it whole; a reply whose first field is wrong is stopped while
// the server holds the rest, and the re-ask wins.
func TestStreamThroughEnforce(t *testing.T) {
	sch := mustSchema(t, reviewSchema)
	answer := `{"title": "Nil deref", "severity": "high"}`

	t.Run("valid", func(t *testing.T) {
		whole := newWireServer(t, wireReply{Body: textChat(answer, "stop")})
		s := newWireServer(t, ndjson(textLines(answer, 3)...))
		enforcetest.SameRun(t, newProvider(t, whole), newProvider(t, s), enforce.Request{Prompt: "Review."}, sch)
	})

	t.Run("wrong early", func(t *testing.T) {
		wrong := ndjson(textLines(`{"severity": "critical", "title": "a long title the model would be paid to write"}`, 8)...)
		wrong.HoldAfter = 4 // `{"severity": "critical", "title"` and no more
		s := newWireServer(t, wrong, ndjson(textLines(answer, 5)...))
		res := enforcetest.StoppedEarly(t, newProvider(t, s), enforce.Request{Prompt: "Review."}, sch, "$.severity")
		assert.Equal(t, enforce.ModeNative, res.Mode)
		assert.JSONEq(t, answer, string(res.JSON))
		assert.True(t, s.AwaitCancel(), "the first reply was cancelled before its end")
		assert.Len(t, s.Requests(), 2)
	})
}
