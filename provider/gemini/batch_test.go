package gemini_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/gemini"
)

// operation is a batch as the Gemini API returns it, a long-running
// operation; extra is added to its metadata.
func operation(name, state, extra string) string {
	if extra != "" {
		extra = "," + extra
	}
	return `{"name":"` + name + `","metadata":{"@type":"type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",` +
		`"model":"models/gemini-test","displayName":"run-7","createTime":"2026-01-02T03:04:05Z","state":"` + state + `",` +
		`"batchStats":{"requestCount":"4","successfulRequestCount":"2","failedRequestCount":"1","pendingRequestCount":"1"}` + extra + `}}`
}

// inlinedOutput is the metadata output member holding inlined responses.
func inlinedOutput(responses ...string) string {
	return `"output":{"inlinedResponses":{"inlinedResponses":[` + strings.Join(responses, ",") + `]}}`
}

func inlinedReply(key, response string) string {
	return `{"response":` + response + `,"metadata":{"key":"` + key + `"}}`
}

func inlinedError(key string, code int, message string) string {
	b, _ := json.Marshal(message)
	return `{"error":{"code":` + mustJSONInt(code) + `,"message":` + string(b) + `},"metadata":{"key":"` + key + `"}}`
}

func mustJSONInt(n int) string { b, _ := json.Marshal(n); return string(b) }

// batchRequests are the requests of the wire tests.
func batchRequests() []provider.BatchRequest {
	return []provider.BatchRequest{
		{ID: "req-1", Request: &provider.Request{System: "Be brief.", Messages: []provider.Message{provider.UserMessage("One?")}, MaxTokens: 50}},
		{ID: "req-2", Request: &provider.Request{Messages: []provider.Message{provider.UserMessage("Two?")},
			Output: &provider.OutputSpec{Name: "r", Schema: json.RawMessage(`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}}`)},
			Tools:  []provider.Tool{{Name: "lookup", InputSchema: json.RawMessage(`{"type":"object"}`)}}}},
	}
}

// generateBody returns the body Generate sends for req.
func generateBody(t *testing.T, req *provider.Request) map[string]any {
	t.Helper()
	s := newWireServer(t, wireReply{Body: textReply("ok", "STOP")})
	_, err := newProvider(t, s).Generate(context.Background(), req)
	require.NoError(t, err)
	return s.Requests()[0].JSON(t)
}

func TestSubmitBatch(t *testing.T) {
	s := newWireServer(t, wireReply{Body: operation("batches/123", "BATCH_STATE_PENDING", "")})
	p := newProvider(t, s)
	reqs := batchRequests()
	b, err := p.SubmitBatch(context.Background(), "run-7", reqs)
	require.NoError(t, err)
	assert.Equal(t, &provider.Batch{ID: "batches/123", Status: provider.BatchInProgress, RawStatus: "JOB_STATE_PENDING",
		CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}, b)

	got := s.Requests()
	require.Len(t, got, 1)
	assert.Equal(t, "POST", got[0].Method)
	assert.Equal(t, "/v1beta/models/gemini-test:batchGenerateContent", got[0].Path)
	var body struct {
		Batch struct {
			DisplayName string `json:"displayName"`
			InputConfig struct {
				Requests struct {
					Requests []json.RawMessage `json:"requests"`
				} `json:"requests"`
			} `json:"inputConfig"`
		} `json:"batch"`
	}
	require.NoError(t, json.Unmarshal(got[0].Body, &body))
	assert.Equal(t, "run-7", body.Batch.DisplayName)
	entries := body.Batch.InputConfig.Requests.Requests
	require.Len(t, entries, len(reqs))
	for i, r := range reqs {
		var e struct {
			Request  map[string]any    `json:"request"`
			Metadata map[string]string `json:"metadata"`
		}
		require.NoError(t, json.Unmarshal(entries[i], &e))
		assert.Equal(t, map[string]string{"key": r.ID}, e.Metadata)
		want := generateBody(t, r.Request)
		// The SDK gives Generate's system instruction the role user, and
		// the batch's none; the API ignores a system instruction's role.
		if si, ok := want["systemInstruction"].(map[string]any); ok {
			delete(si, "role")
		}
		assert.Equal(t, want, e.Request, "the request is what Generate sends")
		size, err := p.BatchRequestSize(r)
		require.NoError(t, err)
		assert.Equal(t, len(entries[i])+1, size, "the entry as sent, and its comma")
	}
}

func TestSubmitBatchRefused(t *testing.T) {
	ok := &provider.Request{Messages: []provider.Message{provider.UserMessage("Hi.")}}
	big := &provider.Request{Messages: []provider.Message{provider.UserMessage(strings.Repeat("x", 600))}}
	tests := []struct {
		name string
		key  string
		reqs []provider.BatchRequest
	}{
		{name: "no requests"},
		{name: "empty ID", reqs: []provider.BatchRequest{{ID: "", Request: ok}}},
		{name: "repeated ID", reqs: []provider.BatchRequest{{ID: "a", Request: ok}, {ID: "a", Request: ok}}},
		{name: "nil request", reqs: []provider.BatchRequest{{ID: "a"}}},
		{name: "unknown role", reqs: []provider.BatchRequest{{ID: "a", Request: &provider.Request{Messages: []provider.Message{{Role: "robot"}}}}}},
		{name: "too many", reqs: []provider.BatchRequest{{ID: "a", Request: ok}, {ID: "b", Request: ok}, {ID: "c", Request: ok}, {ID: "d", Request: ok}}},
		{name: "too large", reqs: []provider.BatchRequest{{ID: "a", Request: big}, {ID: "b", Request: big}}},
		{name: "key too long", key: strings.Repeat("k", 513), reqs: []provider.BatchRequest{{ID: "a", Request: ok}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t)
			p := newProvider(t, s)
			gemini.SetBatchLimits(p, provider.BatchLimits{MaxRequests: 3, MaxBytes: 1000})
			_, err := p.SubmitBatch(context.Background(), tt.key, tt.reqs)
			assert.ErrorIs(t, err, provider.ErrInvalidRequest)
			assert.Empty(t, s.Requests(), "no HTTP call")
		})
	}
}

func TestBatchLimits(t *testing.T) {
	p := newProvider(t, newWireServer(t))
	assert.Equal(t, provider.BatchLimits{MaxBytes: gemini.MaxBatchBytes}, p.BatchLimits())
	assert.Less(t, gemini.MaxBatchBytes, 20_000_000)
}

func TestBatchStatus(t *testing.T) {
	tests := []struct {
		raw  string
		want provider.BatchStatus
	}{
		{"BATCH_STATE_PENDING", provider.BatchInProgress},
		{"BATCH_STATE_RUNNING", provider.BatchInProgress},
		{"BATCH_STATE_SUCCEEDED", provider.BatchEnded},
		{"BATCH_STATE_FAILED", provider.BatchFailed},
		{"BATCH_STATE_CANCELLED", provider.BatchCanceled},
		{"BATCH_STATE_EXPIRED", provider.BatchExpired},
		{"BATCH_STATE_SOMETHING_NEW", provider.BatchInProgress},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			s := newWireServer(t, wireReply{Body: operation("batches/123", tt.raw, "")})
			b, err := newProvider(t, s).Batch(context.Background(), "batches/123")
			require.NoError(t, err)
			assert.Equal(t, tt.want, b.Status)
			raw := tt.raw // the SDK renames the states it knows
			if tt.want != provider.BatchInProgress || !strings.HasSuffix(raw, "NEW") {
				raw = strings.Replace(raw, "BATCH_STATE_", "JOB_STATE_", 1)
			}
			assert.Equal(t, raw, b.RawStatus)
			assert.Equal(t, provider.BatchCounts{Total: 4, Processing: 1, Succeeded: 2, Failed: 1}, b.Counts)
			assert.Equal(t, "/v1beta/batches/123", s.Requests()[0].Path)
		})
	}
}

func TestBatchFailed(t *testing.T) {
	body := strings.TrimSuffix(operation("batches/123", "BATCH_STATE_FAILED", ""), "}") + `,"done":true,"error":{"code":3,"message":"Request 2 is not a valid GenerateContentRequest."}}`
	s := newWireServer(t, wireReply{Body: body}, wireReply{Body: body})
	p := newProvider(t, s)
	b, err := p.Batch(context.Background(), "batches/123")
	require.NoError(t, err)
	assert.Equal(t, provider.BatchFailed, b.Status)
	var pe *provider.Error
	require.ErrorAs(t, b.Err, &pe)
	assert.Equal(t, &provider.Error{Kind: provider.ErrInvalidRequest, Provider: "gemini", StatusCode: 400, Code: "INVALID_ARGUMENT",
		Message: "Request 2 is not a valid GenerateContentRequest."}, pe)
	n := 0
	for _, err := range p.BatchResults(context.Background(), "batches/123") {
		require.NoError(t, err)
		n++
	}
	assert.Zero(t, n, "a failed batch has no results")
}

func TestBatchUnknownID(t *testing.T) {
	notFound := apiError(404, "NOT_FOUND", "Requested entity was not found.")
	s := newWireServer(t, notFound, notFound, notFound, notFound)
	p := newProvider(t, s)
	_, err := p.Batch(context.Background(), "batches/nope")
	assert.ErrorIs(t, err, provider.ErrInvalidRequest)
	for r, err := range p.BatchResults(context.Background(), "batches/nope") {
		assert.Empty(t, r.ID)
		assert.ErrorIs(t, err, provider.ErrInvalidRequest)
	}
	assert.ErrorIs(t, p.CancelBatch(context.Background(), "batches/nope"), provider.ErrInvalidRequest)
	n := len(s.Requests())
	for _, id := range []string{"", "123", "batches/", "batches/1/x", "models/x"} {
		_, err = p.Batch(context.Background(), id)
		assert.ErrorIs(t, err, provider.ErrInvalidRequest, id)
	}
	assert.Len(t, s.Requests(), n, "a malformed id makes no call")
}

func TestBatchResultsNotDone(t *testing.T) {
	s := newWireServer(t, wireReply{Body: operation("batches/123", "BATCH_STATE_RUNNING", "")})
	n := 0
	for r, err := range newProvider(t, s).BatchResults(context.Background(), "batches/123") {
		n++
		assert.Empty(t, r.ID)
		assert.ErrorIs(t, err, provider.ErrBatchNotDone)
	}
	assert.Equal(t, 1, n)
}

// collect gathers a sequence's results and the error that ended it.
func collect(seq func(func(provider.BatchResult, error) bool)) (results []provider.BatchResult, end error) {
	for r, err := range seq {
		if err != nil && r.ID == "" {
			return results, err
		}
		r.Err = errors.Join(r.Err, err)
		results = append(results, r)
	}
	return results, nil
}

func TestBatchResults(t *testing.T) {
	out := inlinedOutput(
		inlinedReply("req-1", textReply(`{"a":1}`, "STOP")),
		inlinedReply("req-2", callReply("submit_result", `{"a":2}`)),
		inlinedError("req-3", 8, "Resource has been exhausted (e.g. check quota)."),
		inlinedError("req-4", 3, "Invalid JSON payload: response_json_schema is too deep"),
		inlinedError("req-5", 1, "The batch was cancelled."),
		inlinedError("req-6", 14, "The model is overloaded."),
	)
	s := newWireServer(t, wireReply{Body: operation("batches/123", "BATCH_STATE_SUCCEEDED", out)})
	got, end := collect(newProvider(t, s).BatchResults(context.Background(), "batches/123"))
	require.NoError(t, end)
	require.Len(t, got, 6)
	require.NoError(t, got[0].Err)
	assert.Equal(t, "req-1", got[0].ID)
	assert.Equal(t, `{"a":1}`, got[0].Response.Text)
	assert.Equal(t, provider.Usage{InputTokens: 30, OutputTokens: 17, TotalTokens: 47, CachedInputTokens: 6, ReasoningTokens: 5}, got[0].Response.Usage)
	require.NoError(t, got[1].Err)
	assert.Equal(t, provider.StopToolUse, got[1].Response.StopReason)
	for i, kind := range []provider.ErrorKind{provider.ErrRateLimited, provider.ErrSchemaRejected, provider.ErrCanceled, provider.ErrOverloaded} {
		assert.Nil(t, got[2+i].Response)
		assert.ErrorIs(t, got[2+i].Err, kind, got[2+i].ID)
	}
	var pe *provider.Error
	require.ErrorAs(t, got[2].Err, &pe)
	assert.Equal(t, &provider.Error{Kind: provider.ErrRateLimited, Provider: "gemini", StatusCode: 429, Code: "RESOURCE_EXHAUSTED",
		Message: "Resource has been exhausted (e.g. check quota)."}, pe)
}

func TestBatchResultsExpired(t *testing.T) {
	// An expired batch: the requests that ran have their replies, the
	// others a DEADLINE_EXCEEDED error (or no response at all).
	out := inlinedOutput(inlinedReply("req-1", textReply("done", "STOP")), inlinedError("req-2", 4, "The batch expired."))
	s := newWireServer(t, wireReply{Body: operation("batches/123", "BATCH_STATE_EXPIRED", out)})
	got, end := collect(newProvider(t, s).BatchResults(context.Background(), "batches/123"))
	require.NoError(t, end)
	require.Len(t, got, 2)
	assert.Equal(t, "done", got[0].Response.Text)
	assert.ErrorIs(t, got[1].Err, provider.ErrExpired)
}

func TestBatchResultsDownloadFails(t *testing.T) {
	s := newWireServer(t, apiError(503, "UNAVAILABLE", "The service is currently unavailable."))
	got, end := collect(newProvider(t, s).BatchResults(context.Background(), "batches/123"))
	assert.Empty(t, got)
	assert.ErrorIs(t, end, provider.ErrOverloaded)

	// A response without its key ends the sequence after the good ones.
	out := inlinedOutput(inlinedReply("req-1", textReply("one", "STOP")), `{"response":`+textReply("two", "STOP")+`}`, inlinedReply("req-3", textReply("three", "STOP")))
	s = newWireServer(t, wireReply{Body: operation("batches/123", "BATCH_STATE_SUCCEEDED", out)})
	got, end = collect(newProvider(t, s).BatchResults(context.Background(), "batches/123"))
	require.Len(t, got, 1)
	require.Error(t, end)

	// Results in a file are not read.
	s = newWireServer(t, wireReply{Body: operation("batches/123", "BATCH_STATE_SUCCEEDED", `"output":{"responsesFile":"files/out"}`)})
	got, end = collect(newProvider(t, s).BatchResults(context.Background(), "batches/123"))
	assert.Empty(t, got)
	require.Error(t, end)
}

func TestCancelBatch(t *testing.T) {
	s := newWireServer(t, wireReply{Body: `{}`})
	require.NoError(t, newProvider(t, s).CancelBatch(context.Background(), "batches/123"))
	assert.Equal(t, "POST", s.Requests()[0].Method)
	assert.Equal(t, "/v1beta/batches/123:cancel", s.Requests()[0].Path)

	s = newWireServer(t, apiError(400, "FAILED_PRECONDITION", "The batch is already in a terminal state."),
		wireReply{Body: operation("batches/123", "BATCH_STATE_SUCCEEDED", "")})
	require.NoError(t, newProvider(t, s).CancelBatch(context.Background(), "batches/123"), "a batch that is done: not an error")

	s = newWireServer(t, apiError(503, "UNAVAILABLE", "busy"))
	assert.ErrorIs(t, newProvider(t, s).CancelBatch(context.Background(), "batches/123"), provider.ErrOverloaded)
}

func TestFindBatch(t *testing.T) {
	named := func(name, display, created string) string {
		op := operation(name, "BATCH_STATE_RUNNING", "")
		op = strings.Replace(op, `"displayName":"run-7"`, `"displayName":"`+display+`"`, 1)
		return strings.Replace(op, "2026-01-02T03:04:05Z", created, 1)
	}
	page1 := `{"operations":[` + named("batches/3", "other", "2026-01-03T00:00:00Z") + `,` + named("batches/1", "run-7", "2026-01-01T00:00:00Z") + `],"nextPageToken":"p2"}`
	page2 := `{"operations":[` + named("batches/2", "run-7", "2026-01-02T00:00:00Z") + `]}`
	s := newWireServer(t, wireReply{Body: page1}, wireReply{Body: page2})
	b, err := newProvider(t, s).FindBatch(context.Background(), "run-7")
	require.NoError(t, err)
	require.NotNil(t, b)
	assert.Equal(t, "batches/2", b.ID, "the most recent one")
	got := s.Requests()
	require.Len(t, got, 2)
	assert.Equal(t, "/v1beta/batches", got[0].Path)

	s = newWireServer(t, wireReply{Body: page1}, wireReply{Body: page2})
	b, err = newProvider(t, s).FindBatch(context.Background(), "run-8")
	require.NoError(t, err)
	assert.Nil(t, b)

	s = newWireServer(t, apiError(403, "PERMISSION_DENIED", "denied"))
	_, err = newProvider(t, s).FindBatch(context.Background(), "run-7")
	assert.ErrorIs(t, err, provider.ErrAuth)
}

// TestBatchResultMatchesGenerate checks that a batch result is what
// Generate returns for the same reply: the same response mapping and the
// same error classification.
func TestBatchResultMatchesGenerate(t *testing.T) {
	tests := []struct {
		name    string
		reply   wireReply
		rpcCode int // the item error's google.rpc code, for an error reply
		message string
	}{
		{name: "text", reply: wireReply{Body: textReply(`{"a":1}`, "STOP")}},
		{name: "truncated", reply: wireReply{Body: textReply(`{"a":`, "MAX_TOKENS")}},
		{name: "call", reply: wireReply{Body: callReply("submit_result", `{"a":1}`)}},
		{name: "safety", reply: wireReply{Body: textReply("", "SAFETY")}},
		{name: "blocked prompt", reply: wireReply{Body: `{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":3,"totalTokenCount":3}}`}},
		{name: "rate limited", reply: apiError(429, "RESOURCE_EXHAUSTED", "Quota exceeded."), rpcCode: 8, message: "Quota exceeded."},
		{name: "schema rejected", reply: apiError(400, "INVALID_ARGUMENT", "response_json_schema: too deep"), rpcCode: 3, message: "response_json_schema: too deep"},
		{name: "invalid", reply: apiError(400, "INVALID_ARGUMENT", "contents: empty"), rpcCode: 3, message: "contents: empty"},
		{name: "auth", reply: apiError(403, "PERMISSION_DENIED", "denied"), rpcCode: 7, message: "denied"},
		{name: "overloaded", reply: apiError(503, "UNAVAILABLE", "overloaded"), rpcCode: 14, message: "overloaded"},
		{name: "internal", reply: apiError(500, "INTERNAL", "internal"), rpcCode: 13, message: "internal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, tt.reply)
			want, wantErr := newProvider(t, s).Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("Hi.")}})

			item := inlinedReply("r", tt.reply.Body)
			if tt.rpcCode != 0 {
				item = inlinedError("r", tt.rpcCode, tt.message)
			}
			s = newWireServer(t, wireReply{Body: operation("batches/1", "BATCH_STATE_SUCCEEDED", inlinedOutput(item))})
			results, end := collect(newProvider(t, s).BatchResults(context.Background(), "batches/1"))
			require.NoError(t, end)
			require.Len(t, results, 1)
			got := results[0]
			assert.Equal(t, "r", got.ID)
			assert.Equal(t, want, got.Response)
			if wantErr == nil {
				assert.NoError(t, got.Err)
				return
			}
			var we, ge *provider.Error
			require.ErrorAs(t, wantErr, &we)
			require.ErrorAs(t, got.Err, &ge)
			we.Err, ge.Err = nil, nil // the SDK's error beside Generate's
			assert.Equal(t, we, ge)
		})
	}
}

func FuzzBatchResult(f *testing.F) {
	f.Add([]byte(inlinedReply("a", textReply("hi", "STOP"))), []byte(operation("batches/1", "BATCH_STATE_RUNNING", "")))
	f.Add([]byte(inlinedError("a", 3, "bad")), []byte(`{"error":{"code":8,"message":"x"},"metadata":{"batchStats":{"requestCount":"x"}}}`))
	f.Add([]byte(`{"metadata":{}}`), []byte(`{"metadata":{"batchStats":{"requestCount":-3}}}`))
	f.Add([]byte(`{"response":{"candidates":[null]},"metadata":{"key":"a"}}`), []byte(`null`))
	f.Fuzz(func(t *testing.T, item, op []byte) {
		for _, state := range []genai.JobState{genai.JobStateSucceeded, genai.JobStateExpired, genai.JobStateFailed} {
			b := gemini.BatchOf(&genai.BatchJob{Name: "batches/1", State: state}, op)
			assert.True(t, b.Status.Done())
			assert.GreaterOrEqual(t, b.Counts.Total, 0)
			var in genai.InlinedResponse
			if json.Unmarshal(item, &in) != nil {
				continue
			}
			r, err := gemini.ResultOf(state, &in)
			if err != nil {
				assert.Empty(t, r.ID)
				continue
			}
			assert.NotEmpty(t, r.ID)
			assert.True(t, (r.Response == nil) != (r.Err == nil), "a reply or an error: %+v", r)
		}
	})
}
