package readme_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/batch"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// summarySchema is the schema of the README's first snippet.
var summarySchema = []byte(`{
  "type": "object",
  "properties": {
    "title": {"type": "string"},
    "severity": {"enum": ["low", "medium", "high"]},
    "actions": {"type": "array", "items": {"type": "string"}}
  },
  "required": ["title", "severity", "actions"]
}`)

// fakeModel stands in for a host's own client: its first answer misses a
// field, its second is right.
type fakeModel struct{ calls int }

func (m *fakeModel) call(_ context.Context, _ string, msgs []provider.Message) (string, error) {
	m.calls++
	if m.calls == 1 {
		return "Here you go: {\"title\": \"Disk full on db-2\", \"severity\": \"high\"}", nil
	}
	return `{"title": "Disk full on db-2", "severity": "high", "actions": ["grow the volume"]}`, nil
}

func wrap(ctx context.Context, callModel func(context.Context, string, []provider.Message) (string, error)) error {
	// snippet: wrap
	// callModel stands for your existing client call: any SDK, any HTTP client.
	p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
		text, err := callModel(ctx, req.System, req.Messages)
		if err != nil {
			return nil, err
		}
		return &provider.Response{Text: text}, nil
	})

	s, err := schema.Parse(summarySchema) // *schema.InvalidSchemaError says where and why
	if err != nil {
		return err
	}
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Summarise the incident report."}, s)
	var ve *enforce.ValidationError
	if errors.As(err, &ve) { // still invalid after every re-ask: each violation, each attempt
		for _, v := range ve.Violations {
			fmt.Println(v.Path, v.Message)
		}
		return err
	}
	if err != nil {
		return err // the provider failed, the model refused (enforce.ErrRefused), ctx ended
	}
	fmt.Println(string(res.JSON), len(res.Attempts), res.Usage.TotalTokens)
	// end snippet
	return nil
}

func Example_wrap() {
	m := &fakeModel{}
	if err := wrap(context.Background(), m.call); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"title": "Disk full on db-2", "severity": "high", "actions": ["grow the volume"]} 2 0
}

func Example_wrapValidationError() {
	alwaysWrong := func(context.Context, string, []provider.Message) (string, error) {
		return `{"title": "Disk full", "severity": "critical", "actions": []}`, nil
	}
	err := wrap(context.Background(), alwaysWrong)
	fmt.Println(err)
	// Output:
	// $.severity 'critical' is not one of ['low', 'medium', 'high']
	// output validation failed after 2 retries: $.severity: 'critical' is not one of ['low', 'medium', 'high']
}

func typed(ctx context.Context, p provider.Provider) error {
	// snippet: typed
	type Summary struct {
		Title    string   `json:"title"`
		Severity string   `json:"severity" jsonschema:"one of low, medium, high"`
		Actions  []string `json:"actions"`
	}
	summary, res, err := enforce.Typed[Summary](ctx, p, enforce.Request{Prompt: "Summarise the incident report."},
		enforce.WithMaxRetries(1))
	if err != nil {
		return err
	}
	fmt.Println(summary.Title, summary.Severity, len(res.Attempts))
	// end snippet
	return nil
}

func Example_typed() {
	p := providertest.New(
		providertest.Text(`{"title": "Disk full on db-2", "severity": "high"}`),
		providertest.Text(`{"title": "Disk full on db-2", "severity": "high", "actions": ["grow the volume"]}`),
	)
	if err := typed(context.Background(), p); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Disk full on db-2 high 2
}

// Incident is what the service under test in the providertest snippet
// returns.
type Incident struct {
	Title    string   `json:"title"`
	Severity string   `json:"severity"`
	Actions  []string `json:"actions"`
}

// summarize is the service under test: it asks a model for an Incident.
func summarize(ctx context.Context, p provider.Provider, id string) (Incident, error) {
	got, _, err := enforce.Typed[Incident](ctx, p, enforce.Request{Prompt: "Summarise " + id + "."})
	return got, err
}

func TestProvidertestSnippet(t *testing.T) {
	ctx := context.Background()
	// snippet: providertest
	p := providertest.New(
		providertest.Text(`{"title": 42}`), // the first answer has the wrong type
		providertest.Text(`{"title": "Disk full on db-2", "severity": "high", "actions": ["grow the volume"]}`),
	)
	got, err := summarize(ctx, p, "incident #4711")
	require.NoError(t, err)
	assert.Equal(t, "Disk full on db-2", got.Title)

	reqs := p.Requests() // what the code sent: the second request is the re-ask
	require.Len(t, reqs, 2)
	assert.Contains(t, reqs[1].Messages[len(reqs[1].Messages)-1].Content, "$.title")
	// end snippet
}

func streamSnippet(ctx context.Context, p provider.Provider, s *schema.Schema, show func(any)) error {
	// snippet: stream
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Summarise the incident report."}, s,
		enforce.WithPartials(func(part enforce.Partial) { // the value so far, as each part completes
			show(part.Value) // part.Open lists what is still being written
		}))
	if err != nil { // Run's result: fully validated, re-asked if need be
		return err
	}
	fmt.Println(string(res.JSON), res.Attempts[0].StoppedEarly)
	// end snippet
	return nil
}

func TestStreamSnippet(t *testing.T) {
	s, err := schema.Parse(summarySchema)
	require.NoError(t, err)
	p := providertest.New(
		providertest.Chunked(8, `{"title": "Disk full", "severity": "urgent", "actions": ["grow the volume"]}`),
		providertest.Chunked(8, `{"title": "Disk full", "severity": "high", "actions": ["grow the volume"]}`),
	)
	var shown []any
	require.NoError(t, streamSnippet(context.Background(), p, s, func(v any) { shown = append(shown, v) }))
	assert.NotEmpty(t, shown)
	assert.Less(t, p.Streamed()[0], 10, "the first reply is stopped at its severity")
}

// batchSnippet is the README's batch snippet: items through a Batcher,
// outcomes as they settle, the state in a store.
func batchSnippet(ctx context.Context, b provider.Batcher, e *enforce.Enforcer, items []batch.Item, use func(id string, res *enforce.Result, err error)) error {
	// snippet: batch
	r, err := batch.New(b, batch.NewMemory(nil), batch.WithEnforcer(e), batch.WithPollInterval(0))
	if err != nil {
		return err
	}
	for s, err := range r.Run(ctx, items) { // round 1 in one batch; round k+1 holds only the re-asks
		if err != nil {
			return err // stopped (a crash, ctx): a Runner over the same store resumes
		}
		use(s.ID, s.Result, s.Err) // what enforce.Run would have returned for the item
	}
	// end snippet
	return nil
}

func TestBatchSnippet(t *testing.T) {
	s, err := schema.Parse(summarySchema)
	require.NoError(t, err)
	e, err := enforce.New(s)
	require.NoError(t, err)
	b := providertest.NewBatcher(providertest.Replies(map[string][]providertest.Reply{
		"inc1": {providertest.Text(`{"title": "Disk full", "severity": "high", "actions": ["grow the volume"]}`)},
		"inc2": {providertest.Text(`{"title": "Slow API", "severity": "urgent", "actions": []}`),
			providertest.Text(`{"title": "Slow API", "severity": "medium", "actions": []}`)},
	}), nil)
	items := []batch.Item{{ID: "inc1", Request: enforce.Request{Prompt: "Summarise incident 1."}}, {ID: "inc2", Request: enforce.Request{Prompt: "Summarise incident 2."}}}
	got := map[string]int{}
	require.NoError(t, batchSnippet(context.Background(), b, e, items, func(id string, res *enforce.Result, err error) {
		require.NoError(t, err)
		got[id] = len(res.Attempts)
	}))
	assert.Equal(t, map[string]int{"inc1": 1, "inc2": 2}, got)
	assert.Len(t, b.Submissions(), 2, "one batch per round")
}

// retrySnippet is the README's retries-and-fallbacks snippet: primary
// retried, then backup, then the loop.
func retrySnippet(ctx context.Context, primary, backup provider.Provider, s *schema.Schema) (*enforce.Result, error) {
	// snippet: retry
	p, err := provider.WithRetry(primary, nil) // 429, 5xx, resets: backoff with jitter, Retry-After honoured
	if err != nil {
		return nil, err
	}
	p, err = provider.Fallback([]provider.Provider{p, backup}, &provider.FallbackOptions{Names: []string{"primary", "backup"}})
	if err != nil {
		return nil, err
	}
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Summarise the incident report."}, s)
	if err != nil {
		return res, err
	}
	fmt.Println(res.Attempts[0].Response.Provider) // which provider answered
	// end snippet
	return res, nil
}

func TestRetrySnippet(t *testing.T) {
	s, err := schema.Parse(summarySchema)
	require.NoError(t, err)
	primary := providertest.New(providertest.Failed(&provider.Error{Kind: provider.ErrAuth, StatusCode: 401}))
	backup := providertest.New(providertest.Text(`{"title": "Disk full", "severity": "high", "actions": ["grow the volume"]}`))
	_, err = retrySnippet(context.Background(), primary, backup, s)
	require.ErrorIs(t, err, provider.ErrAuth, "auth is neither retried nor passed to the backup")
	assert.Empty(t, backup.Requests())

	primary = providertest.New(providertest.Failed(&provider.Error{Kind: provider.ErrSchemaRejected, StatusCode: 400}))
	backup = providertest.New(providertest.Text(`{"title": "Disk full", "severity": "high", "actions": ["grow the volume"]}`))
	res, err := retrySnippet(context.Background(), primary, backup, s)
	require.NoError(t, err)
	assert.Equal(t, "backup", res.Attempts[0].Response.Provider)
	assert.Len(t, primary.Requests(), 1, "a rejected schema is not retried")
}
