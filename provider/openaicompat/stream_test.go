package openaicompat_test

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
	"github.com/agentio/agentio/provider/openaicompat"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/provider/wiretest"
	"github.com/agentio/agentio/schema"
)

// event is one server-sent event holding data.
func event(data string) string { return "data: " + data + "\n\n" }

// done ends a stream as OpenAI does.
const done = "data: [DONE]\n\n"

// streamed is a reply streaming the given events, each sent and flushed
// on its own, then [DONE].
func streamed(events ...string) wiretest.Reply {
	parts := make([]string, 0, len(events)+1)
	for _, e := range events {
		parts = append(parts, event(e))
	}
	return wiretest.Reply{Parts: append(parts, done), Header: map[string]string{"Content-Type": "text/event-stream", "x-request-id": "req_s"}}
}

// chunk is one chat.completion.chunk with the given delta and finish
// reason ("" for none).
func chunk(delta, finish string) string {
	f := `null`
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1764040000,"model":"gpt-test-2026",` +
		`"choices":[{"index":0,"delta":` + delta + `,"logprobs":null,"finish_reason":` + f + `}],"usage":null}`
}

// textChunk is a chunk with a piece of text.
func textChunk(text string) string {
	b, _ := json.Marshal(text)
	return chunk(`{"content":`+string(b)+`}`, "")
}

// argsChunk is a chunk with a piece of the arguments of the call at index.
func argsChunk(index, args string) string {
	b, _ := json.Marshal(args)
	return chunk(`{"tool_calls":[{"index":`+index+`,"function":{"arguments":`+string(b)+`}}]}`, "")
}

// usageChunk is the last chunk of a stream asked for usage, with the
// counts completion sends.
const usageChunk = `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1764040000,"model":"gpt-test-2026","choices":[],` +
	`"usage":{"prompt_tokens":40,"completion_tokens":15,"total_tokens":55,` +
	`"prompt_tokens_details":{"cached_tokens":8},"completion_tokens_details":{"reasoning_tokens":4}}}`

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
		stream wiretest.Reply
		text   []string                 // the text pieces yielded
		calls  []provider.ToolCallDelta // the tool call pieces yielded
	}{
		{
			name:  "text, with comments, event names, crlf, reasoning and usage",
			req:   request,
			whole: textCompletion(`{"title": "Nil deref"}`, "stop"),
			stream: wiretest.Reply{Parts: []string{
				": keep-alive\r\n\r\n",
				"event: message\r\ndata: " + chunk(`{"role":"assistant","content":""}`, "") + "\r\n\r\n",
				event(chunk(`{"reasoning_content":"Let me think."}`, "")),
				event(chunk(`{"reasoning":"Still thinking."}`, "")),
				event(textChunk(`{"title": `)),
				": keep-alive\n\n",
				"data:\n\n",
				event(textChunk(`"Nil deref"}`)),
				event(chunk(`{}`, "stop")),
				event(usageChunk),
				done,
			}},
			text: []string{`{"title": `, `"Nil deref"}`},
		},
		{
			name:  "a tool call in tool mode, arguments in pieces",
			req:   toolReq,
			whole: completion(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_9","type":"function","function":{"name":"submit_result","arguments":"{\"title\": \"x\"}"}}]}`, "stop"),
			stream: streamed(
				chunk(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_9","type":"function","function":{"name":"submit_result","arguments":""}}]}`, ""),
				argsChunk("0", `{"title"`),
				argsChunk("0", `: "x"}`),
				chunk(`{}`, "stop"),
				usageChunk,
			),
			calls: []provider.ToolCallDelta{
				{Index: 0, ID: "call_9", Name: "submit_result"},
				{Index: 0, Arguments: `{"title"`},
				{Index: 0, Arguments: `: "x"}`},
			},
		},
		{
			name: "two calls, the second without an id, one sent whole as an object",
			req:  toolReq,
			whole: completion(`{"role":"assistant","tool_calls":[{"id":"call_a","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}},`+
				`{"type":"function","function":{"name":"g","arguments":{"b":2}}}]}`, "tool_calls"),
			stream: streamed(
				chunk(`{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"f","arguments":"{\"a\""}}]}`, ""),
				argsChunk("0", `:1}`),
				chunk(`{"tool_calls":[{"index":1,"type":"function","function":{"name":"g","arguments":{"b":2}}}]}`, ""),
				chunk(`{}`, "tool_calls"),
				usageChunk,
			),
			calls: []provider.ToolCallDelta{
				{Index: 0, ID: "call_a", Name: "f", Arguments: `{"a"`},
				{Index: 0, Arguments: `:1}`},
				{Index: 1, ID: "call_1", Name: "g", Arguments: `{"b":2}`},
			},
		},
		{
			name:   "truncated at max tokens",
			req:    request,
			whole:  textCompletion(`{"title": "lo`, "length"),
			stream: streamed(textChunk(`{"title": `), textChunk(`"lo`), chunk(`{}`, "length"), usageChunk),
			text:   []string{`{"title": `, `"lo`},
		},
		{
			name:   "a refusal",
			req:    request,
			whole:  completion(`{"role":"assistant","content":null,"refusal":"I can't help with that."}`, "stop"),
			stream: streamed(chunk(`{"role":"assistant","content":null,"refusal":""}`, ""), chunk(`{"refusal":"I can't "}`, ""), chunk(`{"refusal":"help with that."}`, ""), chunk(`{}`, "stop"), usageChunk),
		},
		{
			name:   "a content filter",
			req:    request,
			whole:  textCompletion("Once", "content_filter"),
			stream: streamed(textChunk("Once"), chunk(`{}`, "content_filter"), usageChunk),
			text:   []string{"Once"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, wiretest.Reply{Body: tt.whole}, tt.stream, tt.stream)
			p := newProvider(t, s, openaicompat.Options{})
			text, calls := providertest.SameAsGenerate(t, p, tt.req)
			assert.Equal(t, tt.text, text)
			assert.Equal(t, tt.calls, calls)

			reqs := s.Requests()
			require.Len(t, reqs, 3)
			body := reqs[1].JSON(t)
			assert.Equal(t, true, body["stream"])
			assert.Equal(t, map[string]any{"include_usage": true}, body["stream_options"])
			assert.Equal(t, "text/event-stream", reqs[1].Header.Get("Accept"))
			delete(body, "stream")
			delete(body, "stream_options")
			assert.Equal(t, reqs[0].JSON(t), body, "the request is Generate's, streamed")
		})
	}
}

// TestStreamOmitUsage: a server that refuses stream_options is asked
// without it, and its reply has no usage unless it sends some.
func TestStreamOmitUsage(t *testing.T) {
	refusal := wiretest.Reply{Status: http.StatusBadRequest, Body: `{"error":{"message":"Unrecognized request argument supplied: stream_options","type":"invalid_request_error"}}`}
	s := newServer(t, refusal, streamed(textChunk("ok"), chunk(`{}`, "stop")))
	p := newProvider(t, s, openaicompat.Options{})
	_, err := providertest.Chunks(p.Stream(context.Background(), request))
	require.ErrorIs(t, err, provider.ErrInvalidRequest)

	p = newProvider(t, s, openaicompat.Options{OmitStreamUsage: true})
	resp, err := provider.Collect(p.Stream(context.Background(), request))
	require.NoError(t, err)
	assert.Equal(t, "ok", resp.Text)
	assert.Equal(t, provider.Usage{}, resp.Usage)
	body := s.Requests()[1].JSON(t)
	assert.Equal(t, true, body["stream"])
	assert.NotContains(t, body, "stream_options")
}

// TestStreamErrors: a failure before the stream, and an error sent in it,
// end the sequence with the error Generate returns for the same failure.
func TestStreamErrors(t *testing.T) {
	schemaReq := &provider.Request{
		Messages: []provider.Message{provider.UserMessage("x")},
		Output:   &provider.OutputSpec{Schema: json.RawMessage(`{"type":"object"}`)},
	}
	hdr := map[string]string{"x-request-id": "req_7", "Retry-After": "3"}
	tests := []struct {
		name   string
		req    *provider.Request
		whole  wiretest.Reply // what Generate gets
		stream wiretest.Reply // what Stream gets
		kind   error
	}{
		{
			name:   "rate limited",
			req:    request,
			whole:  wiretest.Reply{Status: 429, Body: `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, Header: hdr},
			stream: wiretest.Reply{Status: 429, Body: `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, Header: hdr},
			kind:   provider.ErrRateLimited,
		},
		{
			name:   "schema rejected",
			req:    schemaReq,
			whole:  wiretest.Reply{Status: 400, Body: `{"error":{"message":"Invalid schema for response_format 'output'","type":"invalid_request_error"}}`, Header: hdr},
			stream: wiretest.Reply{Status: 400, Body: `{"error":{"message":"Invalid schema for response_format 'output'","type":"invalid_request_error"}}`, Header: hdr},
			kind:   provider.ErrSchemaRejected,
		},
		{
			name:  "an error event mid-stream",
			req:   request,
			whole: wiretest.Reply{Body: `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`, Header: hdr},
			stream: wiretest.Reply{Header: hdr, Parts: []string{
				event(textChunk(`{"title": `)),
				event(`{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`),
				event(textChunk("never read")),
			}},
		},
		{
			name:   "an error event named so",
			req:    request,
			whole:  wiretest.Reply{Body: `{"error":{"message":"overloaded","type":"overloaded_error"}}`, Header: hdr},
			stream: wiretest.Reply{Header: hdr, Parts: []string{"event: error\ndata: " + `{"type":"error","error":{"message":"overloaded","type":"overloaded_error"}}` + "\n\n"}},
		},
		{
			name:   "a chunk that is not JSON",
			req:    request,
			whole:  wiretest.Reply{Body: `<html>`, Header: hdr},
			stream: wiretest.Reply{Header: hdr, Parts: []string{event(`<html>`)}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, tt.whole, tt.stream)
			p := newProvider(t, s, openaicompat.Options{})
			err := providertest.SameError(t, p, tt.req)
			if tt.kind != nil {
				assert.ErrorIs(t, err, tt.kind)
			}
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, "req_7", pe.RequestID)
		})
	}

	s := newServer(t)
	p := newProvider(t, s, openaicompat.Options{})
	for _, req := range []*provider.Request{nil, {MaxTokens: -1}} {
		assert.ErrorIs(t, providertest.SameError(t, p, req), provider.ErrInvalidRequest)
	}
	assert.Empty(t, s.Requests())
}

// TestStreamCutOff: a stream that ends before its finish reason yields no
// Response and no error; Collect reads it as truncated.
func TestStreamCutOff(t *testing.T) {
	tests := []struct {
		name  string
		reply wiretest.Reply
	}{
		{name: "ends without a finish reason", reply: streamed(textChunk(`{"title": `), textChunk(`"lo`))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, tt.reply)
			p := newProvider(t, s, openaicompat.Options{})
			resp, err := provider.Collect(p.Stream(context.Background(), request))
			require.NoError(t, err)
			assert.Equal(t, &provider.Response{Text: `{"title": "lo`, StopReason: provider.StopLength, RawStopReason: "stream_cut_off"}, resp)
		})
	}
}

// TestStreamConnectionDropped: a connection dropped before the model
// finished is a network failure, an error that matches
// io.ErrUnexpectedEOF, after the pieces that came; dropped after the
// finish reason, only the usage is lost and the Response comes.
func TestStreamConnectionDropped(t *testing.T) {
	s := newServer(t, wiretest.Reply{Parts: []string{event(textChunk(`{"title": `)), event(textChunk(`"lo`)), "data: {\"choi"}, Cut: true})
	p := newProvider(t, s, openaicompat.Options{})
	chunks, err := providertest.Chunks(p.Stream(context.Background(), request))
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, provider.ErrOther, provider.KindOf(err))
	assert.Equal(t, []provider.Chunk{{Text: `{"title": `}, {Text: `"lo`}}, chunks)

	s = newServer(t, wiretest.Reply{Parts: []string{event(textChunk(`{}`)), event(chunk(`{}`, "stop")), "data: {\"usa"}, Cut: true})
	p = newProvider(t, s, openaicompat.Options{})
	resp, err := provider.Collect(p.Stream(context.Background(), request))
	require.NoError(t, err)
	assert.Equal(t, "{}", resp.Text)
	assert.Equal(t, provider.StopEnd, resp.StopReason)
}

// TestStreamLineTooLong: a server that never ends its line gets an error,
// not unbounded buffering.
func TestStreamLineTooLong(t *testing.T) {
	s := newServer(t, wiretest.Reply{Parts: []string{event(textChunk("a")), "data: " + strings.Repeat("x", openaicompat.MaxStreamLine+1)}})
	p := newProvider(t, s, openaicompat.Options{})
	chunks, err := providertest.Chunks(p.Stream(context.Background(), request))
	require.ErrorIs(t, err, openaicompat.ErrLineTooLong)
	assert.Equal(t, provider.ErrOther, provider.KindOf(err))
	assert.Len(t, chunks, 1)
}

// TestStreamBreak: leaving the loop cancels the request; the server sees
// its client go away while it holds the rest of the reply.
func TestStreamBreak(t *testing.T) {
	reply := streamed(textChunk("one"), textChunk("two"), chunk(`{}`, "stop"))
	reply.HoldAfter = 1
	s := newServer(t, reply)
	p := newProvider(t, s, openaicompat.Options{})
	first, err := providertest.First(p.Stream(context.Background(), request))
	require.NoError(t, err)
	assert.Equal(t, "one", first.Text)
	assert.True(t, s.AwaitCancel(), "the server saw the request cancelled")
}

// TestStreamCancelled: a context cancelled mid-stream ends the sequence
// with an error wrapping the context's.
func TestStreamCancelled(t *testing.T) {
	reply := streamed(textChunk("one"), textChunk("two"), chunk(`{}`, "stop"))
	reply.HoldAfter = 1
	s := newServer(t, reply)
	p := newProvider(t, s, openaicompat.Options{})
	first, err := providertest.CancelAfterFirst(func(ctx context.Context) iter.Seq2[provider.Chunk, error] { return p.Stream(ctx, request) })
	assert.Equal(t, "one", first.Text)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, provider.ErrOther, provider.KindOf(err))
}

// pieces splits text into streamed text chunks of n bytes.
func pieces(text string, n int) []string {
	var out []string
	for len(text) > n {
		out = append(out, textChunk(text[:n]))
		text = text[n:]
	}
	return append(out, textChunk(text))
}

// TestStreamThroughEnforce runs enforce.Run with WithPartials over the adapter: a valid
// reply streamed in small pieces gives what enforce.Run gives for it
// whole; a reply whose first field is wrong is stopped while the server
// holds the rest, and the re-ask wins.
func TestStreamThroughEnforce(t *testing.T) {
	sc, err := schema.Parse([]byte(reviewSchema))
	require.NoError(t, err)
	answer := `{"title": "Nil deref", "severity": "high"}`

	t.Run("valid", func(t *testing.T) {
		whole := newServer(t, wiretest.Reply{Body: textCompletion(answer, "stop")})
		s := newServer(t, streamed(append(pieces(answer, 3), chunk(`{}`, "stop"), usageChunk)...))
		enforcetest.SameRun(t, newProvider(t, whole, openaicompat.Options{}), newProvider(t, s, openaicompat.Options{}), enforce.Request{Prompt: "Review."}, sc)
	})

	t.Run("wrong early", func(t *testing.T) {
		wrong := streamed(append(pieces(`{"severity": "critical", "title": "a long title the model would be paid to write"}`, 8), chunk(`{}`, "stop"), usageChunk)...)
		wrong.HoldAfter = 4 // `{"severity": "critical", "title"` and no more
		s := newServer(t, wrong, streamed(append(pieces(answer, 5), chunk(`{}`, "stop"), usageChunk)...))
		p := newProvider(t, s, openaicompat.Options{})
		// The openai dialect's strict mode keeps a native reply to the
		// schema: prompt mode is where a wrong value streams in.
		res := enforcetest.StoppedEarly(t, p, enforce.Request{Prompt: "Review."}, sc, "$.severity", enforce.WithMode(enforce.ModePrompt))
		assert.JSONEq(t, answer, string(res.JSON))
		assert.True(t, s.AwaitCancel(), "the first reply was cancelled before its end")
		assert.Len(t, s.Requests(), 2)
	})
}
