package gemini_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/gemini"
	"github.com/agentio/agentio/provider/providertest"
)

// sse is a streamGenerateContent body: each event a data line ended by a
// blank line, with CRLF line endings as the API sends them.
func sse(events ...string) wireReply {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\r\n\r\n")
	}
	return wireReply{Body: b.String(), Header: map[string]string{"Content-Type": "text/event-stream"}}
}

// usageSoFar is the usage the API sends with the events before the last.
const usageSoFar = `"usageMetadata":{"promptTokenCount":30,"totalTokenCount":30}`

// event is one streamed response with one candidate: its parts, and its
// finish reason and the final usage when finish is not empty.
func event(parts, finish string) string {
	if finish == "" {
		return `{"candidates":[{"content":{"role":"model","parts":` + parts + `},"index":0}],` + usageSoFar + `,"modelVersion":"gemini-test-001"}`
	}
	return candidate(parts, finish)
}

func textPart(s string) string {
	b, _ := json.Marshal(s)
	return `{"text":` + string(b) + `}`
}

func userRequest() *provider.Request {
	return &provider.Request{Messages: []provider.Message{provider.UserMessage("Review.")}}
}

// streamAll reads the whole reply p streams for req.
func streamAll(p *gemini.Provider, req *provider.Request) ([]provider.Chunk, error) {
	return providertest.Chunks(p.Stream(context.Background(), req))
}

const (
	thoughtPart = `{"text":"The user wants a review.","thought":true}`
	signedCall  = `{"functionCall":{"id":"call-7","name":"submit_result","args":{"title":"x","severity":"high"}},"thoughtSignature":"c2lnbmF0dXJlLTE="}`
	bareCall    = `{"functionCall":{"name":"lookup","args":{"q":"nil"}}}`
)

// TestStreamCollectEqualsGenerate: the same reply, streamed and whole,
// gives the same Response through provider.Collect and Generate.
func TestStreamCollectEqualsGenerate(t *testing.T) {
	blocked := `{"promptFeedback":{"blockReason":"SAFETY","blockReasonMessage":"unsafe"},"usageMetadata":{"promptTokenCount":3,"totalTokenCount":3}}`
	tests := []struct {
		name   string
		events []string
		whole  string
		want   provider.StopReason
	}{
		{
			name:   "text",
			events: []string{event(`[`+textPart(`{"title": "Nil`)+`]`, ""), event(`[`+textPart(` deref", `)+`]`, ""), event(`[`+textPart(`"severity": "high"}`)+`]`, "STOP")},
			whole:  textReply(`{"title": "Nil deref", "severity": "high"}`, "STOP"),
			want:   provider.StopEnd,
		},
		{
			name:   "thoughts left out",
			events: []string{event(`[`+thoughtPart+`]`, ""), event(`[`+textPart(`{"title": `)+`]`, ""), event(`[`+textPart(`"x"}`)+`]`, "STOP")},
			whole:  candidate(`[`+thoughtPart+`,`+textPart(`{"title": "x"}`)+`]`, "STOP"),
			want:   provider.StopEnd,
		},
		{
			name:   "tool calls",
			events: []string{event(`[`+thoughtPart+`]`, ""), event(`[`+textPart("Calling.")+`]`, ""), event(`[`+signedCall+`]`, ""), event(`[`+bareCall+`]`, "STOP")},
			whole:  candidate(`[`+thoughtPart+`,`+textPart("Calling.")+`,`+signedCall+`,`+bareCall+`]`, "STOP"),
			want:   provider.StopToolUse,
		},
		{
			name:   "max tokens",
			events: []string{event(`[`+textPart(`{"title": "Nil`)+`]`, ""), event(`[`+textPart(` de`)+`]`, "MAX_TOKENS")},
			whole:  textReply(`{"title": "Nil de`, "MAX_TOKENS"),
			want:   provider.StopLength,
		},
		{
			name:   "safety",
			events: []string{event(`[`+textPart(`{"title": `)+`]`, ""), `{"candidates":[{"finishReason":"SAFETY","finishMessage":"unsafe content","index":0}],"usageMetadata":{"promptTokenCount":30,"candidatesTokenCount":12,"thoughtsTokenCount":5,"cachedContentTokenCount":6,"totalTokenCount":47},"modelVersion":"gemini-test-001"}`},
			whole:  `{"candidates":[{"content":{"role":"model","parts":[` + textPart(`{"title": `) + `]},"finishReason":"SAFETY","finishMessage":"unsafe content","index":0}],"usageMetadata":{"promptTokenCount":30,"candidatesTokenCount":12,"thoughtsTokenCount":5,"cachedContentTokenCount":6,"totalTokenCount":47},"modelVersion":"gemini-test-001"}`,
			want:   provider.StopContentFilter,
		},
		{
			name:   "prompt blocked",
			events: []string{blocked},
			whole:  blocked,
			want:   provider.StopRefusal,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newWireServer(t, sse(tc.events...), wireReply{Body: tc.whole})
			p := newProvider(t, s)
			streamed, err := provider.Collect(p.Stream(context.Background(), userRequest()))
			require.NoError(t, err)
			whole, err := p.Generate(context.Background(), userRequest())
			require.NoError(t, err)
			assert.Equal(t, whole, streamed)
			assert.Equal(t, tc.want, streamed.StopReason)

			sent := s.Requests()
			require.Len(t, sent, 2)
			assert.Equal(t, "/v1beta/models/gemini-test:streamGenerateContent", sent[0].Path)
			assert.Equal(t, sent[1].JSON(t), sent[0].JSON(t), "the same request body")
		})
	}
}

func TestStreamChunks(t *testing.T) {
	s := newWireServer(t, sse(
		event(`[`+thoughtPart+`]`, ""),
		event(`[`+textPart("Calling.")+`]`, ""),
		event(`[`+signedCall+`]`, ""),
		event(`[`+bareCall+`]`, "STOP"),
	))
	chunks, err := streamAll(newProvider(t, s), userRequest())
	require.NoError(t, err)
	require.Len(t, chunks, 4, "no chunk for the thought")
	assert.Equal(t, provider.Chunk{Text: "Calling."}, chunks[0])
	assert.Equal(t, &provider.ToolCallDelta{Index: 0, ID: "call-7~sig:c2lnbmF0dXJlLTE", Name: "submit_result", Arguments: `{"severity":"high","title":"x"}`}, chunks[1].ToolCall)
	assert.Equal(t, &provider.ToolCallDelta{Index: 1, ID: "agentio_call_1", Name: "lookup", Arguments: `{"q":"nil"}`}, chunks[2].ToolCall)
	final := chunks[3].Response
	require.NotNil(t, final)
	require.Len(t, final.ToolCalls, 2)
	for i, tc := range final.ToolCalls {
		assert.Equal(t, chunks[i+1].ToolCall.ID, tc.ID, "a delta's id is the call's")
	}
	assert.Equal(t, "Calling.", final.Text)
	assert.Equal(t, provider.Usage{InputTokens: 30, OutputTokens: 17, TotalTokens: 47, CachedInputTokens: 6, ReasoningTokens: 5}, final.Usage)
	assert.Equal(t, "gemini-test-001", final.Model)
}

// TestStreamErrors: an API failure before the stream or in it is the error
// Generate gives for the same failure.
func TestStreamErrors(t *testing.T) {
	internal := `{"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}}`
	multiLine := "{\n  \"error\": {\n    \"code\": 503,\n    \"message\": \"The model is overloaded.\",\n    \"status\": \"UNAVAILABLE\"\n  }\n}\n"
	head := "data: " + event(`[`+textPart(`{"title": `)+`]`, "") + "\r\n\r\n"
	tests := []struct {
		name  string
		reply wireReply // the failure as streamGenerateContent sends it
		whole wireReply // the same failure from generateContent
		want  error
	}{
		{name: "rate limit", reply: apiError(429, "RESOURCE_EXHAUSTED", "Quota exceeded"), whole: apiError(429, "RESOURCE_EXHAUSTED", "Quota exceeded"), want: provider.ErrRateLimited},
		{name: "bad key", reply: apiError(400, "INVALID_ARGUMENT", "API key not valid."), whole: apiError(400, "INVALID_ARGUMENT", "API key not valid."), want: provider.ErrAuth},
		{name: "gateway text", reply: wireReply{Status: 502, Body: "bad gateway"}, whole: wireReply{Status: 502, Body: "bad gateway"}, want: provider.ErrOverloaded},
		{name: "gateway JSON", reply: wireReply{Status: 429, Body: `{"message":"slow down"}`}, whole: wireReply{Status: 429, Body: `{"message":"slow down"}`}, want: provider.ErrRateLimited},
		{name: "mid-stream", reply: wireReply{Body: head + internal + "\n"}, whole: wireReply{Status: 500, Body: internal}, want: provider.ErrOverloaded},
		{name: "mid-stream over lines", reply: wireReply{Body: head + multiLine}, whole: wireReply{Status: 503, Body: multiLine}, want: provider.ErrOverloaded},
		{name: "mid-stream as an event", reply: wireReply{Body: head + "data: " + internal + "\r\n\r\n"}, whole: wireReply{Status: 500, Body: internal}, want: provider.ErrOverloaded},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newWireServer(t, tc.reply, tc.whole)
			p := newProvider(t, s)
			_, streamErr := streamAll(p, userRequest())
			require.ErrorIs(t, streamErr, tc.want)
			_, err := p.Generate(context.Background(), userRequest())
			require.ErrorIs(t, err, tc.want)
			var got, want *provider.Error
			require.ErrorAs(t, streamErr, &got)
			require.ErrorAs(t, err, &want)
			assert.Equal(t, want.Kind, got.Kind)
			assert.Equal(t, want.StatusCode, got.StatusCode)
			assert.Equal(t, want.Code, got.Code)
			assert.Equal(t, want.Message, got.Message)
			assert.Equal(t, gemini.Name, got.Provider)
		})
	}
}

// A step is one reply of a stepServer: its events, each sent and flushed
// on its own, then what the server does.
type step struct {
	events []string
	hold   bool // wait for the client to go away (reported on gone)
	cut    bool // drop the connection
}

// A stepServer streams scripted replies piece by piece, for what a whole
// body cannot show: a connection cut mid-stream, a client that leaves.
type stepServer struct {
	*httptest.Server
	mu    sync.Mutex
	steps []step
	gone  chan int // the number (from 0) of each held request whose client went away
	n     int
}

func newStepServer(t *testing.T, steps ...step) *stepServer {
	t.Helper()
	s := &stepServer{steps: steps, gone: make(chan int, len(steps))}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *stepServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	n := s.n
	s.n++
	s.mu.Unlock()
	if n >= len(s.steps) {
		http.Error(w, `{"error":{"code":500,"message":"no scripted reply left","status":"INTERNAL"}}`, http.StatusInternalServerError)
		return
	}
	st := s.steps[n]
	w.Header().Set("Content-Type", "text/event-stream")
	for _, e := range st.events {
		_, _ = w.Write([]byte("data: " + e + "\r\n\r\n"))
		w.(http.Flusher).Flush()
	}
	switch {
	case st.hold:
		select {
		case <-r.Context().Done():
			s.gone <- n
		case <-time.After(10 * time.Second): // the test fails waiting on gone
		}
	case st.cut:
		panic(http.ErrAbortHandler)
	}
}

// requests returns how many requests the server received.
func (s *stepServer) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// waitGone waits until the client of held request n went away.
func (s *stepServer) waitGone(t *testing.T, n int) {
	t.Helper()
	select {
	case got := <-s.gone:
		assert.Equal(t, n, got)
	case <-time.After(5 * time.Second):
		t.Fatalf("the server never saw the client of request %d go away", n)
	}
}

func stepProvider(t *testing.T, s *stepServer) *gemini.Provider {
	t.Helper()
	p, err := gemini.New(&gemini.Options{Model: "gemini-test", APIKey: "test-key", BaseURL: s.URL})
	require.NoError(t, err)
	return p
}

// TestStreamCutOff: a stream that ends without a finish reason yields no
// Response and no error; Collect reads it as truncated.
func TestStreamCutOff(t *testing.T) {
	head := event(`[`+textPart(`{"title": "lo`)+`]`, "")
	for name, p := range map[string]*gemini.Provider{
		"ended": newProvider(t, newWireServer(t, sse(head), sse(head))),
	} {
		t.Run(name, func(t *testing.T) {
			chunks, err := streamAll(p, userRequest())
			require.NoError(t, err)
			require.Len(t, chunks, 1)
			assert.Nil(t, chunks[0].Response)

			resp, err := provider.Collect(p.Stream(context.Background(), userRequest()))
			require.NoError(t, err)
			assert.Equal(t, provider.StopLength, resp.StopReason)
			assert.Equal(t, "stream_cut_off", resp.RawStopReason)
			assert.Equal(t, `{"title": "lo`, resp.Text)
		})
	}
}

// TestStreamConnectionDropped: a dropped connection is a network failure,
// an error that matches io.ErrUnexpectedEOF, after the pieces that came.
func TestStreamConnectionDropped(t *testing.T) {
	head := event(`[`+textPart(`{"title": "lo`)+`]`, "")
	p := stepProvider(t, newStepServer(t, step{events: []string{head}, cut: true}))
	chunks, err := streamAll(p, userRequest())
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, provider.ErrOther, provider.KindOf(err))
	assert.Equal(t, []provider.Chunk{{Text: `{"title": "lo`}}, chunks)
}

// TestStreamBreakClosesConnection: leaving the range loop ends the request
// at once; the server sees its client go.
func TestStreamBreakClosesConnection(t *testing.T) {
	s := newStepServer(t, step{events: []string{event(`[`+textPart("a")+`]`, "")}, hold: true})
	for c, err := range stepProvider(t, s).Stream(context.Background(), userRequest()) {
		require.NoError(t, err)
		assert.Equal(t, "a", c.Text)
		break
	}
	s.waitGone(t, 0)
}

// TestStreamCancelled: a context cancelled mid-stream ends the sequence
// with an error matching the context's.
func TestStreamCancelled(t *testing.T) {
	s := newStepServer(t, step{events: []string{event(`[`+textPart("a")+`]`, "")}, hold: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var err error
	for c, e := range stepProvider(t, s).Stream(ctx, userRequest()) {
		if e != nil {
			err = e
			break
		}
		assert.Equal(t, "a", c.Text)
		cancel()
	}
	require.ErrorIs(t, err, context.Canceled)
	s.waitGone(t, 0)
}

// TestStreamThroughEnforce: enforce.Run with WithPartials over the adapter gives the
// result enforce.Run gives for the same replies; a reply wrong in its
// first fields is stopped before its end and re-asked.
func TestStreamThroughEnforce(t *testing.T) {
	valid := []string{`{"title": `, `"Nil deref", `, `"severity": `, `"high"}`}
	for _, mode := range []enforce.Mode{enforce.ModeNative, enforce.ModeTool} {
		t.Run(string(mode)+"/valid", func(t *testing.T) {
			var events []string
			if mode == enforce.ModeTool {
				events = []string{event(`[`+thoughtPart+`]`, ""), event(`[{"functionCall":{"name":"submit_result","args":{"title":"Nil deref","severity":"high"}}}]`, "STOP")}
			} else {
				for i, piece := range valid {
					finish := ""
					if i == len(valid)-1 {
						finish = "STOP"
					}
					events = append(events, event(`[`+textPart(piece)+`]`, finish))
				}
			}
			s := newWireServer(t, sse(events...), reply(mode, `{"title": "Nil deref", "severity": "high"}`))
			p := newProvider(t, s)
			streamed, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, mustSchema(t), enforce.WithMode(mode), enforce.WithPartials(func(enforce.Partial) {}))
			require.NoError(t, err)
			whole, err := enforce.Run(context.Background(), p, enforce.Request{Prompt: "Review."}, mustSchema(t), enforce.WithMode(mode))
			require.NoError(t, err)
			assert.JSONEq(t, string(whole.JSON), string(streamed.JSON))
			assert.Equal(t, whole.Mode, streamed.Mode)
			assert.Equal(t, whole.Usage, streamed.Usage)
			assert.Len(t, streamed.Attempts, 1)
		})
	}

	t.Run("wrong early", func(t *testing.T) {
		s := newStepServer(t,
			step{events: []string{
				event(`[`+textPart(`{"title": "Nil deref", `)+`]`, ""),
				event(`[`+textPart(`"severity": "critical", `)+`]`, ""),
			}, hold: true}, // the rest, a long note, is never sent
			step{events: []string{
				event(`[`+textPart(`{"title": "Nil deref", `)+`]`, ""),
				event(`[`+textPart(`"severity": "high"}`)+`]`, "STOP"),
			}},
		)
		var partials int
		res, err := enforce.Run(context.Background(), stepProvider(t, s), enforce.Request{Prompt: "Review."}, mustSchema(t), enforce.WithPartials(func(enforce.Partial) { partials++ }))
		require.NoError(t, err)
		assert.JSONEq(t, `{"title": "Nil deref", "severity": "high"}`, string(res.JSON))
		assert.Equal(t, enforce.ModeNative, res.Mode)
		require.Len(t, res.Attempts, 2)
		assert.True(t, res.Attempts[0].StoppedEarly)
		require.NotEmpty(t, res.Attempts[0].Violations)
		assert.Equal(t, "$.severity", res.Attempts[0].Violations[0].Path)
		assert.Positive(t, partials)
		s.waitGone(t, 0)
		assert.Equal(t, 2, s.requests())
	})
}

// bodyTransport answers every request with status 200 and its body.
type bodyTransport string

func (b bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(strings.NewReader(string(b))), Request: r}, nil
}

// FuzzStream: whatever a stream's body, Stream does not panic; it ends
// with an error, with nothing, or with one final Response whose text and
// calls are the chunks'.
func FuzzStream(f *testing.F) {
	f.Add(sse(event(`[`+textPart("a")+`]`, ""), event(`[`+signedCall+`]`, "STOP")).Body)
	f.Add(sse(event(`[`+thoughtPart+`,`+bareCall+`]`, "MAX_TOKENS"), `{"promptFeedback":{"blockReason":"OTHER"}}`).Body)
	f.Add("data: {\"candidates\":\"x\"}\n\ndata: null\n\n{\n\"error\":{\"code\":\"x\"}}\n")
	f.Add("data: {\"candidates\":[null,{\"content\":{\"parts\":[null,{\"functionCall\":null}]}}]}\n")
	f.Fuzz(func(t *testing.T, body string) {
		p, err := gemini.New(&gemini.Options{Model: "m", APIKey: "k", HTTPClient: &http.Client{Transport: bodyTransport(body)}})
		require.NoError(t, err)
		var c provider.Collector
		var text strings.Builder
		calls := 0
		for ch, err := range p.Stream(context.Background(), userRequest()) {
			if err != nil {
				var pe *provider.Error
				assert.ErrorAs(t, err, &pe)
				return
			}
			require.False(t, c.Done(), "nothing after the final chunk")
			c.Add(ch)
			text.WriteString(ch.Text)
			if d := ch.ToolCall; d != nil {
				assert.Equal(t, calls, d.Index)
				calls++
			}
		}
		if !c.Done() {
			return
		}
		resp := c.Response()
		assert.Equal(t, text.String(), resp.Text)
		assert.Len(t, resp.ToolCalls, calls)
	})
}
