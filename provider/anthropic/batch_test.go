package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/anthropic"
)

// batchBody is a Message Batches API batch object.
func batchBody(id, status, counts string) string {
	if counts == "" {
		counts = `{"processing":2,"succeeded":0,"errored":0,"canceled":0,"expired":0}`
	}
	return `{"id":"` + id + `","type":"message_batch","processing_status":"` + status + `","request_counts":` + counts + `,` +
		`"ended_at":null,"created_at":"2026-01-02T03:04:05Z","expires_at":"2026-01-03T03:04:05Z","archived_at":null,` +
		`"cancel_initiated_at":null,"results_url":null}`
}

// resultJSONL is a results line.
func resultJSONL(customID, result string) string {
	return `{"custom_id":"` + customID + `","result":` + result + "}\n"
}

func succeeded(message string) string { return `{"type":"succeeded","message":` + message + `}` }
func errored(body string) string      { return `{"type":"errored","error":` + body + `}` }

// batchRequests are the requests of the wire tests.
func batchRequests() []provider.BatchRequest {
	return []provider.BatchRequest{
		{ID: "req-1", Request: &provider.Request{System: "Be brief.", Messages: []provider.Message{provider.UserMessage("One?")}, MaxTokens: 50}},
		{ID: "req_2", Request: &provider.Request{Messages: []provider.Message{provider.UserMessage("Two?")},
			Output: &provider.OutputSpec{Name: "r", Schema: json.RawMessage(`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}}`)}}},
	}
}

// generateBody returns the body Generate sends for req.
func generateBody(t *testing.T, req *provider.Request) string {
	t.Helper()
	s := newWireServer(t, wireReply{Body: textMessage("ok", "end_turn")})
	_, err := newProvider(t, s).Generate(context.Background(), req)
	require.NoError(t, err)
	return string(s.Requests()[0].Body)
}

func TestSubmitBatch(t *testing.T) {
	s := newWireServer(t, wireReply{Body: batchBody("msgbatch_1", "in_progress", "")})
	p := newProvider(t, s)
	reqs := batchRequests()
	b, err := p.SubmitBatch(context.Background(), "run-7", reqs)
	require.NoError(t, err)
	assert.Equal(t, &provider.Batch{ID: "msgbatch_1", Status: provider.BatchInProgress, RawStatus: "in_progress",
		Counts:    provider.BatchCounts{Total: 2, Processing: 2},
		CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ExpiresAt: time.Date(2026, 1, 3, 3, 4, 5, 0, time.UTC)}, b)

	got := s.Requests()
	require.Len(t, got, 1)
	assert.Equal(t, "POST", got[0].Method)
	assert.Equal(t, "/v1/messages/batches", got[0].Path)
	var body struct {
		Requests []json.RawMessage `json:"requests"`
	}
	require.NoError(t, json.Unmarshal(got[0].Body, &body))
	require.Len(t, body.Requests, len(reqs))
	total := len(`{"requests":[]}`) - 1
	for i, r := range reqs {
		var e struct {
			CustomID string          `json:"custom_id"`
			Params   json.RawMessage `json:"params"`
		}
		require.NoError(t, json.Unmarshal(body.Requests[i], &e))
		assert.Equal(t, r.ID, e.CustomID)
		assert.JSONEq(t, generateBody(t, r.Request), string(e.Params), "params are what Generate sends")
		size, err := p.BatchRequestSize(r)
		require.NoError(t, err)
		assert.Equal(t, len(body.Requests[i])+1, size, "the entry and its comma")
		total += size
	}
	assert.Equal(t, len(got[0].Body), total, "the sizes add up to the body")
	assert.NotContains(t, string(got[0].Body), "run-7", "the API has nowhere to keep the key")
}

func TestSubmitBatchRefused(t *testing.T) {
	ok := &provider.Request{Messages: []provider.Message{provider.UserMessage("Hi.")}}
	big := &provider.Request{Messages: []provider.Message{provider.UserMessage(strings.Repeat("x", 600))}}
	tests := []struct {
		name string
		reqs []provider.BatchRequest
	}{
		{name: "no requests"},
		{name: "empty ID", reqs: []provider.BatchRequest{{ID: "", Request: ok}}},
		{name: "ID with a space", reqs: []provider.BatchRequest{{ID: "a b", Request: ok}}},
		{name: "ID too long", reqs: []provider.BatchRequest{{ID: strings.Repeat("a", 65), Request: ok}}},
		{name: "repeated ID", reqs: []provider.BatchRequest{{ID: "a", Request: ok}, {ID: "a", Request: ok}}},
		{name: "nil request", reqs: []provider.BatchRequest{{ID: "a"}}},
		{name: "JSON object output", reqs: []provider.BatchRequest{{ID: "a", Request: &provider.Request{Output: &provider.OutputSpec{Format: provider.FormatJSONObject}}}}},
		{name: "too many", reqs: []provider.BatchRequest{{ID: "a", Request: ok}, {ID: "b", Request: ok}, {ID: "c", Request: ok}, {ID: "d", Request: ok}}},
		{name: "too large", reqs: []provider.BatchRequest{{ID: "a", Request: big}, {ID: "b", Request: big}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t)
			p := newProvider(t, s)
			anthropic.SetBatchLimits(p, provider.BatchLimits{MaxRequests: 3, MaxBytes: 1000})
			_, err := p.SubmitBatch(context.Background(), "", tt.reqs)
			assert.ErrorIs(t, err, provider.ErrInvalidRequest)
			assert.Empty(t, s.Requests(), "no HTTP call")
		})
	}
	// A 64-character ID of every allowed character is fine.
	s := newWireServer(t)
	_, err := newProvider(t, s).BatchRequestSize(provider.BatchRequest{ID: "aZ09_-" + strings.Repeat("x", 58), Request: ok})
	assert.NoError(t, err)
}

func TestBatchLimits(t *testing.T) {
	p := newProvider(t, newWireServer(t))
	l := p.BatchLimits()
	assert.Equal(t, 100_000, l.MaxRequests)
	assert.Equal(t, 256_000_000-len(`{"requests":[]}`), l.MaxBytes)
}

func TestBatchStatus(t *testing.T) {
	tests := []struct {
		name   string
		status string
		counts string
		want   provider.BatchStatus
		total  provider.BatchCounts
	}{
		{"in progress", "in_progress", `{"processing":3,"succeeded":1,"errored":0,"canceled":0,"expired":0}`, provider.BatchInProgress, provider.BatchCounts{Total: 4, Processing: 3, Succeeded: 1}},
		{"canceling", "canceling", "", provider.BatchInProgress, provider.BatchCounts{Total: 2, Processing: 2}},
		{"ended", "ended", `{"processing":0,"succeeded":3,"errored":1,"canceled":0,"expired":0}`, provider.BatchEnded, provider.BatchCounts{Total: 4, Succeeded: 3, Failed: 1}},
		{"ended, some expired", "ended", `{"processing":0,"succeeded":3,"errored":0,"canceled":0,"expired":2}`, provider.BatchExpired, provider.BatchCounts{Total: 5, Succeeded: 3, Failed: 2}},
		{"ended, some cancelled", "ended", `{"processing":0,"succeeded":1,"errored":0,"canceled":2,"expired":1}`, provider.BatchCanceled, provider.BatchCounts{Total: 4, Succeeded: 1, Failed: 3}},
		{"unknown status", "paused", "", provider.BatchInProgress, provider.BatchCounts{Total: 2, Processing: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, wireReply{Body: batchBody("msgbatch_1", tt.status, tt.counts)})
			b, err := newProvider(t, s).Batch(context.Background(), "msgbatch_1")
			require.NoError(t, err)
			assert.Equal(t, tt.want, b.Status)
			assert.Equal(t, tt.status, b.RawStatus)
			assert.Equal(t, tt.total, b.Counts)
			assert.NoError(t, b.Err)
			assert.Equal(t, "/v1/messages/batches/msgbatch_1", s.Requests()[0].Path)
		})
	}
}

func TestBatchUnknownID(t *testing.T) {
	notFound := wireReply{Status: http.StatusNotFound, Body: apiError("not_found_error", "Batch not found.")}
	s := newWireServer(t, notFound, notFound, notFound, notFound)
	p := newProvider(t, s)
	_, err := p.Batch(context.Background(), "msgbatch_x")
	assert.ErrorIs(t, err, provider.ErrInvalidRequest)
	for r, err := range p.BatchResults(context.Background(), "msgbatch_x") {
		assert.Empty(t, r.ID)
		assert.ErrorIs(t, err, provider.ErrInvalidRequest)
	}
	assert.ErrorIs(t, p.CancelBatch(context.Background(), "msgbatch_x"), provider.ErrInvalidRequest)
}

func TestBatchResultsNotDone(t *testing.T) {
	s := newWireServer(t, wireReply{Body: batchBody("msgbatch_1", "canceling", "")})
	n := 0
	for r, err := range newProvider(t, s).BatchResults(context.Background(), "msgbatch_1") {
		n++
		assert.Empty(t, r.ID)
		assert.ErrorIs(t, err, provider.ErrBatchNotDone)
	}
	assert.Equal(t, 1, n)
	assert.Len(t, s.Requests(), 1, "nothing downloaded")
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
	results := resultJSONL("req-1", succeeded(textMessage(`{"a":1}`, "end_turn"))) +
		"\n" +
		resultJSONL("req-2", succeeded(toolMessage("toolu_1", "submit_result", `{"a":2}`))) +
		resultJSONL("req-3", errored(apiError("rate_limit_error", "Number of request tokens has exceeded your rate limit."))) +
		resultJSONL("req-4", errored(apiError("invalid_request_error", "output_config.format.schema: unsupported keyword"))) +
		resultJSONL("req-5", `{"type":"expired"}`) +
		resultJSONL("req-6", `{"type":"canceled"}`) +
		resultJSONL("req-7", errored(apiError("overloaded_error", "Overloaded")))
	s := newWireServer(t,
		wireReply{Body: batchBody("msgbatch_1", "ended", `{"processing":0,"succeeded":2,"errored":3,"canceled":1,"expired":1}`)},
		wireReply{Body: results, Header: map[string]string{"Content-Type": "application/binary"}},
	)
	got, end := collect(newProvider(t, s).BatchResults(context.Background(), "msgbatch_1"))
	require.NoError(t, end)
	require.Len(t, got, 7)
	require.NoError(t, got[0].Err)
	assert.Equal(t, "req-1", got[0].ID)
	assert.Equal(t, `{"a":1}`, got[0].Response.Text)
	assert.Equal(t, provider.Usage{InputTokens: 65, OutputTokens: 20, TotalTokens: 85, CachedInputTokens: 10}, got[0].Response.Usage)
	require.NoError(t, got[1].Err)
	assert.Equal(t, provider.StopToolUse, got[1].Response.StopReason)
	assert.Equal(t, []provider.ToolCall{{ID: "toolu_1", Name: "submit_result", Arguments: json.RawMessage(`{"a":2}`)}}, got[1].Response.ToolCalls)
	for i, kind := range []provider.ErrorKind{provider.ErrRateLimited, provider.ErrSchemaRejected, provider.ErrExpired, provider.ErrCanceled, provider.ErrOverloaded} {
		assert.Nil(t, got[2+i].Response)
		assert.ErrorIs(t, got[2+i].Err, kind, got[2+i].ID)
	}
	var pe *provider.Error
	require.ErrorAs(t, got[2].Err, &pe)
	assert.Equal(t, &provider.Error{Kind: provider.ErrRateLimited, Provider: "anthropic", StatusCode: 429, Code: "rate_limit_error",
		Message: "Number of request tokens has exceeded your rate limit.", RequestID: "req_body"}, pe)

	reqs := s.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "/v1/messages/batches/msgbatch_1/results", reqs[1].Path)
}

func TestBatchResultsDownloadCut(t *testing.T) {
	line1 := resultJSONL("req-1", succeeded(textMessage("one", "end_turn")))
	line2 := resultJSONL("req-2", succeeded(textMessage("two", "end_turn")))
	s := newWireServer(t,
		wireReply{Body: batchBody("msgbatch_1", "ended", `{"processing":0,"succeeded":3,"errored":0,"canceled":0,"expired":0}`)},
		wireReply{Parts: []string{line1, line2, line1[:20]}, Cut: true},
	)
	got, end := collect(newProvider(t, s).BatchResults(context.Background(), "msgbatch_1"))
	require.Len(t, got, 2, "the results before the cut are kept")
	assert.Equal(t, "two", got[1].Response.Text)
	require.Error(t, end)
}

func TestBatchResultsBadLine(t *testing.T) {
	s := newWireServer(t,
		wireReply{Body: batchBody("msgbatch_1", "ended", `{"processing":0,"succeeded":2,"errored":0,"canceled":0,"expired":0}`)},
		wireReply{Body: resultJSONL("req-1", succeeded(textMessage("one", "end_turn"))) + `{"result":{"type":"succeeded"}}` + "\n"},
	)
	got, end := collect(newProvider(t, s).BatchResults(context.Background(), "msgbatch_1"))
	require.Len(t, got, 1)
	require.Error(t, end)
}

func TestCancelBatch(t *testing.T) {
	s := newWireServer(t, wireReply{Body: batchBody("msgbatch_1", "canceling", "")})
	require.NoError(t, newProvider(t, s).CancelBatch(context.Background(), "msgbatch_1"))
	assert.Equal(t, "POST", s.Requests()[0].Method)
	assert.Equal(t, "/v1/messages/batches/msgbatch_1/cancel", s.Requests()[0].Path)

	// A batch that has ended cannot be cancelled: not an error.
	s = newWireServer(t,
		wireReply{Status: http.StatusBadRequest, Body: apiError("invalid_request_error", "Batch has already ended.")},
		wireReply{Body: batchBody("msgbatch_1", "ended", `{"processing":0,"succeeded":2,"errored":0,"canceled":0,"expired":0}`)})
	require.NoError(t, newProvider(t, s).CancelBatch(context.Background(), "msgbatch_1"))

	s = newWireServer(t, wireReply{Status: 529, Body: apiError("overloaded_error", "Overloaded")})
	assert.ErrorIs(t, newProvider(t, s).CancelBatch(context.Background(), "msgbatch_1"), provider.ErrOverloaded)
}

func TestNotBatchFinder(t *testing.T) {
	var p provider.Provider = newProvider(t, newWireServer(t))
	_, ok := p.(provider.BatchFinder)
	assert.False(t, ok, "message batches keep no key")
	_, ok = p.(provider.Batcher)
	assert.True(t, ok)
}

// TestBatchResultMatchesGenerate checks that a batch result is what
// Generate returns for the same reply: the same message mapping and the
// same error classification.
func TestBatchResultMatchesGenerate(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
	}{
		{"text", 200, textMessage(`{"a":1}`, "end_turn")},
		{"truncated", 200, textMessage(`{"a":`, "max_tokens")},
		{"tool call", 200, toolMessage("toolu_1", "submit_result", `{"a":1}`)},
		{"refusal", 200, textMessage("I can't help with that.", "refusal")},
		{"thinking and text", 200, message(`[{"type":"thinking","thinking":"hm","signature":"s"},{"type":"text","text":"hi"}]`, "end_turn")},
		{"context window", 200, textMessage("x", "model_context_window_exceeded")},
		{"rate limited", 429, apiError("rate_limit_error", "Too many requests.")},
		{"schema rejected", 400, apiError("invalid_request_error", "output_config.format.schema: too complex")},
		{"invalid request", 400, apiError("invalid_request_error", "max_tokens: too large")},
		{"auth", 401, apiError("authentication_error", "invalid x-api-key")},
		{"overloaded", 529, apiError("overloaded_error", "Overloaded")},
		{"api error", 500, apiError("api_error", "Internal server error")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, wireReply{Status: tt.status, Body: tt.body})
			want, wantErr := newProvider(t, s).Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("Hi.")}})

			result := succeeded(tt.body)
			if tt.status != 200 {
				// The results carry the error body; its request id is the
				// one Generate reads from the response header.
				result = errored(strings.Replace(tt.body, "req_body", "req_test", 1))
			}
			got, err := anthropic.ResultOf([]byte(resultJSONL("r", result)))
			require.NoError(t, err)
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

func FuzzResultLine(f *testing.F) {
	f.Add([]byte(resultJSONL("a", succeeded(textMessage("hi", "end_turn")))))
	f.Add([]byte(resultJSONL("a", errored(apiError("invalid_request_error", "bad")))))
	f.Add([]byte(resultJSONL("a", `{"type":"expired"}`)))
	f.Add([]byte(`{"custom_id":"a","result":{"type":"succeeded","message":null}}`))
	f.Add([]byte(`{"custom_id":"","result":{}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := anthropic.ResultOf(line)
		if err != nil {
			assert.Empty(t, r.ID)
			assert.Equal(t, provider.ErrOther, provider.KindOf(err))
			return
		}
		assert.NotEmpty(t, r.ID)
		assert.True(t, (r.Response == nil) != (r.Err == nil), "a reply or an error: %+v", r)
	})
}
