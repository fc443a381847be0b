package openai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openai"
)

// batchBody is a Batch API batch object.
func batchBody(id, status, extra string) string {
	if extra != "" {
		extra = "," + extra
	}
	return `{"id":"` + id + `","object":"batch","endpoint":"/v1/chat/completions","input_file_id":"file-in",` +
		`"completion_window":"24h","status":"` + status + `","created_at":1700000000,"expires_at":1700086400,` +
		`"request_counts":{"total":3,"completed":1,"failed":1}` + extra + `}`
}

// fileBody is a Files API file object.
const fileBody = `{"id":"file-in","object":"file","bytes":100,"created_at":1700000000,"filename":"agentio-batch.jsonl","purpose":"batch","status":"processed"}`

// resultJSONL is an output or error file line.
func resultJSONL(customID string, status int, body string) string {
	return `{"id":"batch_req_` + customID + `","custom_id":"` + customID + `","response":{"status_code":` +
		jsonInt(status) + `,"request_id":"req_` + customID + `","body":` + body + `},"error":null}` + "\n"
}

func jsonInt(n int) string { b, _ := json.Marshal(n); return string(b) }

// batchRequests are the requests of the wire tests.
func batchRequests() []provider.BatchRequest {
	return []provider.BatchRequest{
		{ID: "req-1", Request: &provider.Request{System: "Be brief.", Messages: []provider.Message{provider.UserMessage("One?")}, MaxTokens: 50}},
		{ID: "req-2", Request: &provider.Request{Messages: []provider.Message{provider.UserMessage("Two?")},
			Output: &provider.OutputSpec{Name: "r", Schema: json.RawMessage(`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}}`), Strict: true}}},
	}
}

// uploaded returns the purpose and the file of a multipart upload.
func uploaded(t *testing.T, r wireRequest) (purpose string, file []byte) {
	t.Helper()
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	require.NoError(t, err)
	mr := multipart.NewReader(bytes.NewReader(r.Body), params["boundary"])
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return purpose, file
		}
		require.NoError(t, err)
		b, err := io.ReadAll(part)
		require.NoError(t, err)
		switch part.FormName() {
		case "purpose":
			purpose = string(b)
		case "file":
			file = b
		}
	}
}

func TestSubmitBatch(t *testing.T) {
	for _, api := range []openai.API{openai.APIChatCompletions, openai.APIResponses} {
		t.Run(string(api), func(t *testing.T) {
			s := newWireServer(t, wireReply{Body: fileBody}, wireReply{Body: batchBody("batch_1", "validating", `"metadata":{"agentio_batch_key":"run-7"}`)})
			p := newOfficial(t, s, api)
			reqs := batchRequests()

			b, err := p.SubmitBatch(context.Background(), "run-7", reqs)
			require.NoError(t, err)
			assert.Equal(t, &provider.Batch{ID: "batch_1", Status: provider.BatchInProgress, RawStatus: "validating",
				Counts:    provider.BatchCounts{Total: 3, Processing: 1, Succeeded: 1, Failed: 1},
				CreatedAt: time.Unix(1700000000, 0).UTC(), ExpiresAt: time.Unix(1700086400, 0).UTC()}, b)

			got := s.Requests()
			require.Len(t, got, 2)
			assert.Equal(t, "/v1/files", got[0].Path)
			purpose, file := uploaded(t, got[0])
			assert.Equal(t, "batch", purpose)
			endpoint := "/v1/chat/completions"
			if api == openai.APIResponses {
				endpoint = "/v1/responses"
			}
			assert.Equal(t, "/v1/batches", got[1].Path)
			assert.JSONEq(t, `{"completion_window":"24h","endpoint":"`+endpoint+`","input_file_id":"file-in",
				"metadata":{"agentio_batch_key":"run-7"}}`, string(got[1].Body))

			// Each line is what Generate sends for its request, and its
			// size is what BatchRequestSize says.
			lines := strings.SplitAfter(string(file), "\n")
			require.Len(t, lines, len(reqs)+1)
			assert.Empty(t, lines[len(reqs)])
			for i, r := range reqs {
				var l struct {
					CustomID string          `json:"custom_id"`
					Method   string          `json:"method"`
					URL      string          `json:"url"`
					Body     json.RawMessage `json:"body"`
				}
				require.NoError(t, json.Unmarshal([]byte(lines[i]), &l))
				assert.Equal(t, r.ID, l.CustomID)
				assert.Equal(t, "POST", l.Method)
				assert.Equal(t, endpoint, l.URL)
				assert.JSONEq(t, generateBody(t, api, r.Request), string(l.Body))
				size, err := p.BatchRequestSize(r)
				require.NoError(t, err)
				assert.Equal(t, len(lines[i]), size, "request %s", r.ID)
			}
		})
	}
}

// generateBody returns the body Generate sends for req.
func generateBody(t *testing.T, api openai.API, req *provider.Request) string {
	t.Helper()
	reply := textReply("ok", "stop")
	if api == openai.APIResponses {
		reply = responsesReply("completed", "", responsesText("ok"))
	}
	s := newWireServer(t, wireReply{Body: reply})
	_, err := newOfficial(t, s, api).Generate(context.Background(), req)
	require.NoError(t, err)
	return string(s.Requests()[0].Body)
}

func TestSubmitBatchWithoutKey(t *testing.T) {
	s := newWireServer(t, wireReply{Body: fileBody}, wireReply{Body: batchBody("batch_1", "validating", "")})
	p := newOfficial(t, s, openai.APIChatCompletions)
	_, err := p.SubmitBatch(context.Background(), "", batchRequests()[:1])
	require.NoError(t, err)
	assert.NotContains(t, s.Requests()[1].JSON(t), "metadata")
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
		{name: "negative max tokens", reqs: []provider.BatchRequest{{ID: "a", Request: &provider.Request{MaxTokens: -1}}}},
		{name: "unmappable request", reqs: []provider.BatchRequest{{ID: "a", Request: &provider.Request{Messages: []provider.Message{{Role: "robot"}}}}}},
		{name: "too many", reqs: []provider.BatchRequest{{ID: "a", Request: ok}, {ID: "b", Request: ok}, {ID: "c", Request: ok}, {ID: "d", Request: ok}}},
		{name: "too large", reqs: []provider.BatchRequest{{ID: "a", Request: big}, {ID: "b", Request: big}}},
		{name: "key too long", key: strings.Repeat("k", 513), reqs: []provider.BatchRequest{{ID: "a", Request: ok}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t)
			p := newOfficial(t, s, openai.APIChatCompletions)
			openai.SetBatchLimits(p, provider.BatchLimits{MaxRequests: 3, MaxBytes: 1000})
			_, err := p.SubmitBatch(context.Background(), tt.key, tt.reqs)
			assert.ErrorIs(t, err, provider.ErrInvalidRequest)
			assert.Empty(t, s.Requests(), "no HTTP call")
		})
	}
}

func TestBatchLimits(t *testing.T) {
	s := newWireServer(t)
	p := newOfficial(t, s, openai.APIChatCompletions)
	assert.Equal(t, provider.BatchLimits{MaxRequests: 50_000, MaxBytes: 200_000_000}, p.BatchLimits())
	_, err := p.BatchRequestSize(provider.BatchRequest{ID: "a"})
	assert.ErrorIs(t, err, provider.ErrInvalidRequest)
}

func TestSubmitBatchCreateFails(t *testing.T) {
	s := newWireServer(t, wireReply{Body: fileBody},
		wireReply{Status: http.StatusTooManyRequests, Body: apiError("Enqueued token limit reached", "invalid_request_error", "", "token_limit_exceeded")},
		wireReply{Body: `{"id":"file-in","object":"file","deleted":true}`})
	p := newOfficial(t, s, openai.APIChatCompletions)
	_, err := p.SubmitBatch(context.Background(), "k", batchRequests())
	assert.ErrorIs(t, err, provider.ErrRateLimited)
	got := s.Requests()
	require.Len(t, got, 3)
	assert.Equal(t, "DELETE", got[2].Method)
	assert.Equal(t, "/v1/files/file-in", got[2].Path, "the orphaned input file is deleted")
}

func TestBatchStatus(t *testing.T) {
	tests := []struct {
		raw  string
		want provider.BatchStatus
	}{
		{"validating", provider.BatchInProgress},
		{"in_progress", provider.BatchInProgress},
		{"finalizing", provider.BatchInProgress},
		{"cancelling", provider.BatchInProgress},
		{"completed", provider.BatchEnded},
		{"expired", provider.BatchExpired},
		{"cancelled", provider.BatchCanceled},
		{"failed", provider.BatchFailed},
		{"paused_for_maintenance", provider.BatchInProgress},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			s := newWireServer(t, wireReply{Body: batchBody("batch_1", tt.raw, "")})
			b, err := newOfficial(t, s, openai.APIChatCompletions).Batch(context.Background(), "batch_1")
			require.NoError(t, err)
			assert.Equal(t, tt.want, b.Status)
			assert.Equal(t, tt.raw, b.RawStatus)
			assert.Equal(t, "/v1/batches/batch_1", s.Requests()[0].Path)
			if tt.want != provider.BatchFailed {
				assert.NoError(t, b.Err)
			}
		})
	}
}

func TestBatchFailed(t *testing.T) {
	s := newWireServer(t, wireReply{Body: batchBody("batch_1", "failed",
		`"errors":{"object":"list","data":[{"code":"invalid_json_line","message":"This line is not parseable as valid JSON.","param":null,"line":2}]}`)})
	p := newOfficial(t, s, openai.APIChatCompletions)
	b, err := p.Batch(context.Background(), "batch_1")
	require.NoError(t, err)
	assert.Equal(t, provider.BatchFailed, b.Status)
	require.Error(t, b.Err)
	assert.ErrorIs(t, b.Err, provider.ErrInvalidRequest)
	var pe *provider.Error
	require.ErrorAs(t, b.Err, &pe)
	assert.Equal(t, "invalid_json_line", pe.Code)
	assert.Equal(t, "line 2: This line is not parseable as valid JSON.", pe.Message)

	// A failed batch has no results.
	s = newWireServer(t, wireReply{Body: batchBody("batch_1", "failed", "")})
	n := 0
	for _, err := range newOfficial(t, s, openai.APIChatCompletions).BatchResults(context.Background(), "batch_1") {
		require.NoError(t, err)
		n++
	}
	assert.Zero(t, n)
}

func TestBatchUnknownID(t *testing.T) {
	notFound := wireReply{Status: http.StatusNotFound, Body: apiError("No batch found with id 'batch_x'.", "invalid_request_error", "", "")}
	s := newWireServer(t, notFound, notFound, notFound, notFound)
	p := newOfficial(t, s, openai.APIChatCompletions)
	_, err := p.Batch(context.Background(), "batch_x")
	assert.ErrorIs(t, err, provider.ErrInvalidRequest)
	for r, err := range p.BatchResults(context.Background(), "batch_x") {
		assert.Empty(t, r.ID)
		assert.ErrorIs(t, err, provider.ErrInvalidRequest)
	}
	assert.ErrorIs(t, p.CancelBatch(context.Background(), "batch_x"), provider.ErrInvalidRequest)
}

func TestBatchResultsNotDone(t *testing.T) {
	s := newWireServer(t, wireReply{Body: batchBody("batch_1", "in_progress", "")})
	p := newOfficial(t, s, openai.APIChatCompletions)
	n := 0
	for r, err := range p.BatchResults(context.Background(), "batch_1") {
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
	output := resultJSONL("req-1", 200, textReply(`{"a":1}`, "stop")) +
		"\n" + // blank lines are skipped
		resultJSONL("req-2", 200, toolReply("call_1", "submit_result", `{"a":2}`, "tool_calls"))
	errorsFile := resultJSONL("req-3", 429, apiError("Rate limit reached", "requests", "", "rate_limit_exceeded")) +
		resultJSONL("req-4", 400, apiError("Invalid schema for response_format 'r'", "invalid_request_error", "response_format", "")) +
		`{"id":"batch_req_5","custom_id":"req-5","response":null,"error":{"code":"batch_expired","message":"This request could not be executed before the completion window expired."}}` + "\n" +
		`{"id":"batch_req_6","custom_id":"req-6","response":null,"error":{"code":"batch_cancelled","message":"This request was cancelled."}}` + "\n" +
		resultJSONL("req-7", 500, `"upstream failure"`)
	s := newWireServer(t,
		wireReply{Body: batchBody("batch_1", "completed", `"output_file_id":"file-out","error_file_id":"file-err"`)},
		wireReply{Body: output, Header: map[string]string{"Content-Type": "application/octet-stream"}},
		wireReply{Body: errorsFile, Header: map[string]string{"Content-Type": "application/octet-stream"}},
	)
	p := newOfficial(t, s, openai.APIChatCompletions)
	results, end := collect(p.BatchResults(context.Background(), "batch_1"))
	require.NoError(t, end)
	require.Len(t, results, 7)

	assert.Equal(t, "req-1", results[0].ID)
	require.NoError(t, results[0].Err)
	assert.Equal(t, `{"a":1}`, results[0].Response.Text)
	assert.Equal(t, provider.StopEnd, results[0].Response.StopReason)
	assert.Equal(t, 70, results[0].Response.Usage.TotalTokens)
	require.NoError(t, results[1].Err)
	assert.Equal(t, provider.StopToolUse, results[1].Response.StopReason)
	assert.Equal(t, []provider.ToolCall{{ID: "call_1", Name: "submit_result", Arguments: json.RawMessage(`{"a":2}`)}}, results[1].Response.ToolCalls)

	wantKinds := []provider.ErrorKind{provider.ErrRateLimited, provider.ErrSchemaRejected, provider.ErrExpired, provider.ErrCanceled, provider.ErrOverloaded}
	for i, kind := range wantKinds {
		r := results[2+i]
		assert.Nil(t, r.Response, r.ID)
		assert.ErrorIs(t, r.Err, kind, r.ID)
	}
	var pe *provider.Error
	require.ErrorAs(t, results[2].Err, &pe)
	assert.Equal(t, &provider.Error{Kind: provider.ErrRateLimited, Provider: "openai", StatusCode: 429, Code: "rate_limit_exceeded",
		Message: "Rate limit reached", RequestID: "req_req-3"}, pe)
	require.ErrorAs(t, results[6].Err, &pe)
	assert.Equal(t, "upstream failure", pe.Message)

	got := s.Requests()
	require.Len(t, got, 3)
	assert.Equal(t, "/v1/files/file-out/content", got[1].Path)
	assert.Equal(t, "/v1/files/file-err/content", got[2].Path)
}

func TestBatchResultsPartial(t *testing.T) {
	// An expired batch: the requests that ran are in the output file,
	// the others in the error file; a batch without an error file has
	// only the output.
	s := newWireServer(t,
		wireReply{Body: batchBody("batch_1", "expired", `"output_file_id":"file-out"`)},
		wireReply{Body: resultJSONL("req-1", 200, textReply("done", "stop"))},
	)
	results, end := collect(newOfficial(t, s, openai.APIChatCompletions).BatchResults(context.Background(), "batch_1"))
	require.NoError(t, end)
	require.Len(t, results, 1)
	assert.Equal(t, "done", results[0].Response.Text)
}

func TestBatchResultsDownloadCut(t *testing.T) {
	line1 := resultJSONL("req-1", 200, textReply("one", "stop"))
	line2 := resultJSONL("req-2", 200, textReply("two", "stop"))
	s := newWireServer(t,
		wireReply{Body: batchBody("batch_1", "completed", `"output_file_id":"file-out","error_file_id":"file-err"`)},
		wireReply{Parts: []string{line1, line2, line1[:20]}, Cut: true},
	)
	results, end := collect(newOfficial(t, s, openai.APIChatCompletions).BatchResults(context.Background(), "batch_1"))
	require.Len(t, results, 2, "the results before the cut are kept")
	assert.Equal(t, "two", results[1].Response.Text)
	require.Error(t, end)
	assert.Len(t, s.Requests(), 2, "the error file is not downloaded after a failure")
}

func TestBatchResultsBadLine(t *testing.T) {
	s := newWireServer(t,
		wireReply{Body: batchBody("batch_1", "completed", `"output_file_id":"file-out"`)},
		wireReply{Body: resultJSONL("req-1", 200, textReply("one", "stop")) + "not json\n" + resultJSONL("req-2", 200, textReply("two", "stop"))},
	)
	results, end := collect(newOfficial(t, s, openai.APIChatCompletions).BatchResults(context.Background(), "batch_1"))
	require.Len(t, results, 1)
	require.Error(t, end)
}

func TestBatchResultsStopEarly(t *testing.T) {
	s := newWireServer(t,
		wireReply{Body: batchBody("batch_1", "completed", `"output_file_id":"file-out","error_file_id":"file-err"`)},
		wireReply{Body: resultJSONL("req-1", 200, textReply("one", "stop")) + resultJSONL("req-2", 200, textReply("two", "stop"))},
	)
	for r, err := range newOfficial(t, s, openai.APIChatCompletions).BatchResults(context.Background(), "batch_1") {
		require.NoError(t, err)
		assert.Equal(t, "req-1", r.ID)
		break
	}
	assert.Len(t, s.Requests(), 2)
}

func TestCancelBatch(t *testing.T) {
	s := newWireServer(t, wireReply{Body: batchBody("batch_1", "cancelling", "")})
	p := newOfficial(t, s, openai.APIChatCompletions)
	require.NoError(t, p.CancelBatch(context.Background(), "batch_1"))
	assert.Equal(t, "POST", s.Requests()[0].Method)
	assert.Equal(t, "/v1/batches/batch_1/cancel", s.Requests()[0].Path)

	// A batch that is done cannot be cancelled: not an error.
	s = newWireServer(t,
		wireReply{Status: http.StatusConflict, Body: apiError("Cannot cancel a batch with status 'completed'.", "invalid_request_error", "", "")},
		wireReply{Body: batchBody("batch_1", "completed", "")})
	require.NoError(t, newOfficial(t, s, openai.APIChatCompletions).CancelBatch(context.Background(), "batch_1"))

	s = newWireServer(t, wireReply{Status: http.StatusServiceUnavailable, Body: apiError("busy", "server_error", "", "")})
	assert.ErrorIs(t, newOfficial(t, s, openai.APIChatCompletions).CancelBatch(context.Background(), "batch_1"), provider.ErrOverloaded)
}

func TestFindBatch(t *testing.T) {
	withKey := func(id, key string, created int) string {
		b := batchBody(id, "in_progress", `"metadata":{"agentio_batch_key":"`+key+`"}`)
		return strings.Replace(b, `"created_at":1700000000`, `"created_at":`+jsonInt(created), 1)
	}
	page1 := `{"object":"list","data":[` + withKey("batch_3", "other", 300) + `,` + withKey("batch_2", "run-7", 200) + `],"first_id":"batch_3","last_id":"batch_2","has_more":true}`
	page2 := `{"object":"list","data":[` + withKey("batch_1", "run-7", 100) + `,` + batchBody("batch_0", "completed", "") + `],"first_id":"batch_1","last_id":"batch_0","has_more":false}`

	s := newWireServer(t, wireReply{Body: page1}, wireReply{Body: page2})
	p := newOfficial(t, s, openai.APIChatCompletions)
	b, err := p.FindBatch(context.Background(), "run-7")
	require.NoError(t, err)
	require.NotNil(t, b)
	assert.Equal(t, "batch_2", b.ID, "the most recent one")
	got := s.Requests()
	require.Len(t, got, 2)
	assert.Equal(t, "/v1/batches", got[0].Path)

	s = newWireServer(t, wireReply{Body: page1}, wireReply{Body: page2})
	b, err = newOfficial(t, s, openai.APIChatCompletions).FindBatch(context.Background(), "run-8")
	require.NoError(t, err)
	assert.Nil(t, b)

	s = newWireServer(t, wireReply{Status: http.StatusUnauthorized, Body: apiError("bad key", "invalid_request_error", "", "invalid_api_key")})
	_, err = newOfficial(t, s, openai.APIChatCompletions).FindBatch(context.Background(), "run-7")
	assert.ErrorIs(t, err, provider.ErrAuth)
}

// TestBatchResultMatchesGenerate checks that a batch result is what
// Generate returns for the same reply: the same response mapping and the
// same error classification.
func TestBatchResultMatchesGenerate(t *testing.T) {
	tests := []struct {
		name   string
		api    openai.API
		status int
		body   string
	}{
		{"chat text", openai.APIChatCompletions, 200, textReply(`{"a":1}`, "stop")},
		{"chat truncated", openai.APIChatCompletions, 200, textReply(`{"a":`, "length")},
		{"chat tool call", openai.APIChatCompletions, 200, toolReply("call_1", "submit_result", `{"a":1}`, "tool_calls")},
		{"chat refusal", openai.APIChatCompletions, 200, chatReply(`{"role":"assistant","content":null,"refusal":"I can't help with that."}`, "stop")},
		{"chat content filter", openai.APIChatCompletions, 200, textReply("", "content_filter")},
		{"chat no choices", openai.APIChatCompletions, 200, `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[]}`},
		{"responses text", openai.APIResponses, 200, responsesReply("completed", "", responsesText("hi"))},
		{"responses incomplete", openai.APIResponses, 200, responsesReply("incomplete", "max_output_tokens", responsesText("h"))},
		{"responses refusal", openai.APIResponses, 200, responsesReply("completed", "", `[{"type":"message","id":"m","status":"completed","role":"assistant","content":[{"type":"refusal","refusal":"No."}]}]`)},
		{"rate limited", openai.APIChatCompletions, 429, apiError("Rate limit reached", "requests", "", "rate_limit_exceeded")},
		{"schema rejected", openai.APIChatCompletions, 400, apiError("Invalid schema for response_format 'r': 'x' is not valid", "invalid_request_error", "response_format", "")},
		{"invalid request", openai.APIResponses, 400, apiError("Unsupported parameter: 'temperature'", "invalid_request_error", "temperature", "unsupported_parameter")},
		{"auth", openai.APIChatCompletions, 401, apiError("Incorrect API key provided", "invalid_request_error", "", "invalid_api_key")},
		{"overloaded", openai.APIChatCompletions, 503, apiError("The server is overloaded", "server_error", "", "")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newWireServer(t, wireReply{Status: tt.status, Body: tt.body})
			p := newOfficial(t, s, tt.api)
			want, wantErr := p.Generate(context.Background(), &provider.Request{Messages: []provider.Message{provider.UserMessage("Hi.")}})

			line := resultJSONL("r", tt.status, tt.body)
			line = strings.Replace(line, `"request_id":"req_r"`, `"request_id":"req_test"`, 1) // as the wire server's header
			got, err := openai.ResultOf(tt.api, []byte(strings.TrimSpace(line)))
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
	f.Add([]byte(resultJSONL("a", 200, textReply("hi", "stop"))))
	f.Add([]byte(resultJSONL("a", 400, apiError("bad", "invalid_request_error", "response_format", ""))))
	f.Add([]byte(`{"custom_id":"a","response":null,"error":{"code":"batch_expired","message":"x"}}`))
	f.Add([]byte(`{"custom_id":"a","response":{"status_code":200,"body":null}}`))
	f.Add([]byte(`{"custom_id":"","response":{}}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, line []byte) {
		for _, api := range []openai.API{openai.APIChatCompletions, openai.APIResponses} {
			r, err := openai.ResultOf(api, line)
			if err != nil {
				assert.Empty(t, r.ID)
				assert.Equal(t, provider.ErrOther, provider.KindOf(err))
				continue
			}
			assert.NotEmpty(t, r.ID)
			assert.True(t, (r.Response == nil) != (r.Err == nil), "a reply or an error: %+v", r)
		}
	})
}
