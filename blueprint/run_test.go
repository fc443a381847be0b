package blueprint_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

const validScan = `{"issues":[{"severity":"high","description":"SQL injection in the login handler"}],"summary":"One serious issue."}`

func TestRunStructured(t *testing.T) {
	bp := loadAgent(t, "security-scanner")
	p := providertest.New(
		providertest.Reply{Text: `{"issues":[{"severity":"critical","description":"x"}]}`, Usage: provider.Usage{InputTokens: 10, OutputTokens: 5}},
		providertest.Reply{Text: "Here you go:\n```json\n" + validScan + "\n```", Usage: provider.Usage{InputTokens: 20, OutputTokens: 7}},
	)
	r, err := blueprint.Run(context.Background(), bp, p, map[string]any{"prompt": "Scan src/."}, blueprint.RunSpec{})
	require.NoError(t, err)
	assert.True(t, r.Structured())
	assert.JSONEq(t, validScan, string(r.Data()))
	assert.Equal(t, 42, r.Usage().TotalTokens)
	require.NotNil(t, r.Enforcement())
	assert.Len(t, r.Enforcement().Attempts, 2)

	reqs := p.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, bp.Instructions(), reqs[0].System)
	require.NotEmpty(t, reqs[0].Messages)
	assert.True(t, strings.HasPrefix(reqs[0].Messages[0].Content, "Scan src/."), "the user prompt comes first")
	assert.Contains(t, reqs[0].Messages[0].Content, `"enum": ["high", "medium", "low"]`, "the schema as its author wrote it")
	last := reqs[1].Messages[len(reqs[1].Messages)-1].Content
	assert.Contains(t, last, "'critical' is not one of ['high', 'medium', 'low']", "the re-ask lists every violation")
	assert.Contains(t, last, "'summary' is a required property")
}

// TestRunLenient: validation_mode "lenient" coerces a near miss ("High"
// for "high", "Summary" for "summary") instead of paying for a re-ask, and
// the coercions are reported.
func TestRunLenient(t *testing.T) {
	bp := loadAgent(t, "security-scanner")
	p := providertest.New(providertest.Text(`{"issues":[{"severity":"High","description":"SQL injection in the login handler"}],"Summary":"One serious issue."}`))
	lenient := blueprint.RunSpec{Options: blueprint.OutputOptions{ValidationMode: blueprint.ValidationLenient}}
	r, err := blueprint.Run(context.Background(), bp, p, map[string]any{"prompt": "Scan src/."}, lenient)
	require.NoError(t, err)
	assert.JSONEq(t, validScan, string(r.Data()))
	require.NotNil(t, r.Enforcement())
	assert.Len(t, r.Enforcement().Attempts, 1, "no re-ask")
	require.Len(t, r.Enforcement().Coercions, 2)
	assert.Equal(t, "$.issues[0].severity", r.Enforcement().Coercions[1].Path)

	// Strict, the same reply is re-asked.
	p = providertest.New(providertest.Text(`{"issues":[{"severity":"High","description":"x"}],"summary":"s"}`), providertest.Text(validScan))
	r, err = blueprint.Run(context.Background(), bp, p, map[string]any{"prompt": "Scan src/."}, blueprint.RunSpec{})
	require.NoError(t, err)
	assert.Len(t, r.Enforcement().Attempts, 2)
}

func TestRunText(t *testing.T) {
	bp := loadAgent(t, "parametric-agent")
	p := providertest.New(providertest.Reply{Text: "- point one\n- point two", Usage: provider.Usage{InputTokens: 3, OutputTokens: 4}})
	params := map[string]any{"prompt": "Create content about this topic.", "max_words": 300, "format": "bullet_points", "topic": "Machine Learning in Healthcare"}
	r, err := blueprint.Run(context.Background(), bp, p, params, blueprint.RunSpec{})
	require.NoError(t, err)
	assert.False(t, r.Structured())
	assert.Equal(t, "- point one\n- point two", r.Text())
	assert.Equal(t, 7, r.Usage().TotalTokens)
	assert.Nil(t, r.Enforcement())

	reqs := p.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, bp.Instructions(), reqs[0].System)
	assert.Equal(t, "<inputs>\ntopic: Machine Learning in Healthcare\nformat: bullet_points\nmax_words: 300\n</inputs>\n\nCreate content about this topic.",
		reqs[0].Messages[0].Content, "lines in the schema's property order")
}

func TestRunFailures(t *testing.T) {
	scanner := loadAgent(t, "security-scanner")
	analyzer := loadAgent(t, "code-analyzer") // max_retries 3
	plain := loadAgent(t, "parametric-agent")
	proc, err := blueprint.Parse([]byte(`{"name":"script","type":"procedural"}`))
	require.NoError(t, err)
	inline := mustSchema(t, `{"type":"object","properties":{}}`)
	prompt := map[string]any{"prompt": "Go."}
	bad := providertest.Reply{Text: "no json here"}

	tests := []struct {
		name    string
		bp      *blueprint.Blueprint
		params  map[string]any
		spec    blueprint.RunSpec
		opts    []blueprint.Option
		replies []providertest.Reply
		calls   int   // provider calls expected
		is      error // errors.Is target
		check   func(t *testing.T, err error)
	}{
		{name: "parameters", bp: plain, params: map[string]any{"prompt": "Go.", "topic": "t", "format": "poem"}, calls: 0,
			check: func(t *testing.T, err error) {
				var pe *blueprint.ParameterError
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, "$.format", pe.Violations[0].Path)
			}},
		{name: "procedural", bp: proc, params: prompt, is: blueprint.ErrNotAutonomous},
		{name: "inline and name", bp: scanner, params: prompt, spec: blueprint.RunSpec{Inline: inline, Name: "x"}, is: blueprint.ErrSchemaConflict},
		{name: "unknown name", bp: scanner, params: prompt, spec: blueprint.RunSpec{Name: "x"}, opts: []blueprint.Option{blueprint.WithRegistry(mapRegistry{})}, is: blueprint.ErrSchemaNotFound},
		{name: "nil registry option", bp: scanner, params: prompt, opts: []blueprint.Option{blueprint.WithRegistry(nil)}, is: blueprint.ErrInvalidOption},
		{name: "nil option", bp: scanner, params: prompt, opts: []blueprint.Option{nil}, is: blueprint.ErrInvalidOption},
		{name: "bad max tokens", bp: scanner, params: prompt, opts: []blueprint.Option{blueprint.WithMaxTokens(0)}, is: blueprint.ErrInvalidOption},
		{name: "bad enforce option", bp: scanner, params: prompt, opts: []blueprint.Option{blueprint.WithEnforceOptions(enforce.WithMaxRetries(-1))}, is: enforce.ErrInvalidOption},
		{name: "library default: 2 retries", bp: scanner, params: prompt, replies: []providertest.Reply{bad, bad, bad}, calls: 3, is: enforce.ErrNoJSON,
			check: func(t *testing.T, err error) {
				data, jerr := json.Marshal(err)
				require.NoError(t, jerr)
				assert.JSONEq(t, `{"error":"OutputSchemaValidationError","message":"Output validation failed after 2 retries",
					"errors":[{"path":"$","message":"No JSON output found but output_schema requires structured output"}]}`, string(data))
			}},
		{name: "blueprint default: 3 retries", bp: analyzer, params: prompt, replies: []providertest.Reply{bad, bad, bad, bad}, calls: 4, is: enforce.ErrNoJSON},
		{name: "run option: 1 retry", bp: analyzer, params: prompt, spec: blueprint.RunSpec{Options: blueprint.OutputOptions{MaxRetries: ptr(1)}},
			replies: []providertest.Reply{{Text: `{"scan_complete":"yes","vulnerabilities":[]}`}, {Text: `{"scan_complete":true}`}}, calls: 2,
			check: func(t *testing.T, err error) {
				var ve *enforce.ValidationError
				require.ErrorAs(t, err, &ve)
				data, jerr := json.Marshal(ve)
				require.NoError(t, jerr)
				assert.JSONEq(t, `{"error":"OutputSchemaValidationError","message":"Output validation failed after 1 retry",
					"errors":[{"path":"$.vulnerabilities","message":"'vulnerabilities' is a required property"}]}`, string(data))
			}},
		{name: "enforce option wins over run option", bp: analyzer, params: prompt, spec: blueprint.RunSpec{Options: blueprint.OutputOptions{MaxRetries: ptr(3)}},
			opts: []blueprint.Option{blueprint.WithEnforceOptions(enforce.WithMaxRetries(0))}, replies: []providertest.Reply{bad}, calls: 1, is: enforce.ErrNoJSON},
		{name: "strict_json_only", bp: scanner, params: prompt, spec: blueprint.RunSpec{Options: blueprint.OutputOptions{StrictJSONOnly: ptr(true), MaxRetries: ptr(0)}},
			replies: []providertest.Reply{{Text: "Here: " + validScan}}, calls: 1, is: enforce.ErrNonJSONText},
		{name: "extract_json off", bp: scanner, params: prompt, spec: blueprint.RunSpec{Options: blueprint.OutputOptions{ExtractJSON: ptr(false), MaxRetries: ptr(0)}},
			replies: []providertest.Reply{{Text: "Here: " + validScan}}, calls: 1,
			check: func(t *testing.T, err error) {
				var ve *enforce.ValidationError
				require.ErrorAs(t, err, &ve)
			}},
		{name: "refusal, structured", bp: scanner, params: prompt, replies: []providertest.Reply{{Refusal: "I can't help with that."}}, calls: 1, is: enforce.ErrRefused},
		{name: "refusal, text", bp: plain, params: map[string]any{"prompt": "Go.", "topic": "t", "format": "essay"}, replies: []providertest.Reply{{Refusal: "No."}}, calls: 1, is: enforce.ErrRefused},
		{name: "content filter, text", bp: plain, params: map[string]any{"prompt": "Go.", "topic": "t", "format": "essay"}, replies: []providertest.Reply{{StopReason: provider.StopContentFilter}}, calls: 1, is: enforce.ErrRefused},
		{name: "provider error, text", bp: plain, params: map[string]any{"prompt": "Go.", "topic": "t", "format": "essay"},
			replies: []providertest.Reply{{Err: &provider.Error{Kind: provider.ErrRateLimited, StatusCode: 429}}}, calls: 1, is: provider.ErrRateLimited},
		{name: "provider error, structured", bp: scanner, params: prompt,
			replies: []providertest.Reply{{Err: &provider.Error{Kind: provider.ErrOverloaded, StatusCode: 529}}}, calls: 1, is: provider.ErrOverloaded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := providertest.New(tt.replies...)
			r, err := blueprint.Run(context.Background(), tt.bp, p, tt.params, tt.spec, tt.opts...)
			require.Error(t, err)
			assert.Nil(t, r)
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
			if tt.check != nil {
				tt.check(t, err)
			}
			assert.Len(t, p.Requests(), tt.calls)

			// Prepare fails where Run fails before its call; otherwise its
			// Enforcer and Request make the calls Run made, to the same end.
			e, req, perr := blueprint.Prepare(context.Background(), tt.bp, tt.params, tt.spec, tt.opts...)
			if tt.calls == 0 {
				require.Error(t, perr)
				if tt.is != nil {
					assert.ErrorIs(t, perr, tt.is)
				}
				return
			}
			if errors.Is(perr, blueprint.ErrNoOutputSchema) {
				return // a free-text run: one call, nothing to enforce
			}
			require.NoError(t, perr)
			q := providertest.New(tt.replies...)
			_, qerr := e.Run(context.Background(), q, req)
			require.Error(t, qerr)
			assert.Equal(t, err.Error(), qerr.Error())
			assert.Equal(t, p.Requests(), q.Requests())
		})
	}
}

func TestPrepare(t *testing.T) {
	plain := loadAgent(t, "parametric-agent")
	_, _, err := blueprint.Prepare(context.Background(), plain, map[string]any{"prompt": "Go.", "topic": "t", "format": "essay"}, blueprint.RunSpec{})
	assert.ErrorIs(t, err, blueprint.ErrNoOutputSchema, "a free-text run has nothing to enforce")

	scanner := loadAgent(t, "security-scanner")
	e, req, err := blueprint.Prepare(context.Background(), scanner, map[string]any{"prompt": "Scan it."}, blueprint.RunSpec{})
	require.NoError(t, err)
	p := providertest.New(providertest.Text(validScan))
	er, err := e.Run(context.Background(), p, req)
	require.NoError(t, err)
	got, err := blueprint.NewEnforcedResult(er)
	require.NoError(t, err)
	q := providertest.New(providertest.Text(validScan))
	want, err := blueprint.Run(context.Background(), scanner, q, map[string]any{"prompt": "Scan it."}, blueprint.RunSpec{})
	require.NoError(t, err)
	assert.Equal(t, want.Data(), got.Data())
	assert.Equal(t, q.Requests(), p.Requests())

	_, _, err = blueprint.Prepare(context.Background(), nil, nil, blueprint.RunSpec{})
	assert.Error(t, err)
}

func TestRunTruncatedText(t *testing.T) {
	bp, err := blueprint.Parse([]byte(`{"name":"writer"}`))
	require.NoError(t, err)
	p := providertest.New(providertest.Reply{Text: "Once upon a", StopReason: provider.StopLength})
	r, err := blueprint.Run(context.Background(), bp, p, map[string]any{"prompt": "Tell a story."}, blueprint.RunSpec{}, blueprint.WithMaxTokens(3))
	assert.ErrorIs(t, err, enforce.ErrTruncated)
	require.NotNil(t, r, "the partial text comes back beside the error")
	assert.Equal(t, "Once upon a", r.Text())
	assert.Equal(t, 3, p.Requests()[0].MaxTokens)
}

func TestRunNamedSchema(t *testing.T) {
	named := mustSchema(t, `{"type":"object","required":["files","loc"],"properties":{"files":{"type":"integer"},"loc":{"type":"integer"}}}`)
	reg := mapRegistry{"code-size": named}
	bp := loadAgent(t, "parametric-agent")
	p := providertest.New(providertest.Text(`{"files": 12, "loc": 3400}`))
	r, err := blueprint.Run(context.Background(), bp, p, map[string]any{"prompt": "Count.", "topic": "src", "format": "summary"},
		blueprint.RunSpec{Name: "code-size"}, blueprint.WithRegistry(reg))
	require.NoError(t, err)
	assert.JSONEq(t, `{"files": 12, "loc": 3400}`, string(r.Data()))
}

func TestRunSystemMode(t *testing.T) {
	bp := loadAgent(t, "summarizer")
	p := providertest.New(providertest.Text(`{"summary":"short"}`))
	_, err := blueprint.Run(context.Background(), bp, p, map[string]any{"prompt": "Summarise the report."}, blueprint.RunSpec{},
		blueprint.WithEnforceOptions(enforce.WithMode(enforce.ModeSystem)))
	require.NoError(t, err)
	res, err := blueprint.ResolveOutputSchema(context.Background(), bp, blueprint.RunSpec{}, nil)
	require.NoError(t, err)
	want, err := bp.SystemPrompt(res)
	require.NoError(t, err)
	reqs := p.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, want, reqs[0].System, "Run in system mode sends what SystemPrompt renders")
	assert.Equal(t, "Summarise the report.", reqs[0].Messages[0].Content)
}

func TestRunRequiresBlueprintAndProvider(t *testing.T) {
	bp := loadAgent(t, "summarizer")
	_, err := blueprint.Run(context.Background(), nil, providertest.New(), nil, blueprint.RunSpec{})
	assert.Error(t, err)
	_, err = blueprint.Run(context.Background(), bp, nil, nil, blueprint.RunSpec{})
	assert.Error(t, err)
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range []string{"summarizer", "parametric-agent"} {
		bp := loadAgent(t, name)
		p := providertest.New(providertest.Text(`{"summary":"x"}`))
		_, err := blueprint.Run(ctx, bp, p, map[string]any{"prompt": "Go.", "topic": "t", "format": "essay"}, blueprint.RunSpec{})
		assert.True(t, errors.Is(err, context.Canceled), name)
	}
}

// TestConcurrentRuns shares one Blueprint between goroutines (run with -race).
func TestConcurrentRuns(t *testing.T) {
	bp := loadAgent(t, "security-scanner")
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := providertest.New(providertest.Text(validScan))
			_, errs[i] = blueprint.Run(context.Background(), bp, p, map[string]any{"prompt": "Scan."}, blueprint.RunSpec{})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		assert.NoError(t, err)
	}
}

func TestRunWithPartials(t *testing.T) {
	bp := loadAgent(t, "pr-reviewer")
	const valid = `{"verdict": "approve", "comments": [{"file": "main.go", "line": 3, "message": "ok"}], "summary": "fine"}`
	wrong := `{"verdict": "maybe", "comments": [` + strings.Repeat(`{"file": "a.go", "line": 1, "message": "x"}, `, 50) + `{"file": "a.go", "line": 1, "message": "x"}]}`

	tests := []struct {
		name         string
		replies      []providertest.Reply
		attempts     int
		stoppedEarly bool
	}{
		{"valid reply in pieces", []providertest.Reply{providertest.Chunked(4, valid)}, 1, false},
		{"wrong verdict stopped early", []providertest.Reply{providertest.Chunked(4, wrong), providertest.Chunked(7, valid)}, 2, true},
		{"provider that does not stream", nil, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p provider.Provider
			if tt.replies == nil {
				p = provider.Func(func(context.Context, *provider.Request) (*provider.Response, error) {
					return &provider.Response{Text: valid}, nil
				})
			} else {
				p = providertest.New(tt.replies...)
			}
			var parts, again []enforce.Partial
			r, err := blueprint.Run(context.Background(), bp, p, map[string]any{"prompt": "Review PR 7."}, blueprint.RunSpec{},
				blueprint.WithEnforceOptions(enforce.WithPartials(func(part enforce.Partial) { parts = append(parts, part) })),
				blueprint.WithEnforceOptions(enforce.WithPartials(func(part enforce.Partial) { again = append(again, part) })))
			require.NoError(t, err)
			assert.Equal(t, parts, again, "every function gets every partial")
			assert.JSONEq(t, valid, string(r.Data()))

			// The same run without the option has the same outcome.
			if tt.replies != nil {
				plain, err := blueprint.Run(context.Background(), bp, providertest.New(tt.replies...),
					map[string]any{"prompt": "Review PR 7."}, blueprint.RunSpec{})
				require.NoError(t, err)
				assert.JSONEq(t, string(plain.Data()), string(r.Data()))
			}

			attempts := r.Enforcement().Attempts
			require.Len(t, attempts, tt.attempts)
			assert.Equal(t, tt.stoppedEarly, attempts[0].StoppedEarly)
			if tt.replies == nil {
				assert.Empty(t, parts, "a reply that arrives whole has no partials")
				return
			}
			require.NotEmpty(t, parts)
			last := parts[len(parts)-1]
			assert.Equal(t, tt.attempts, last.Attempt)
			assert.Equal(t, []string{"$"}, last.Open, "a partial is never the whole value")
			assert.Equal(t, "approve", last.Value.(map[string]any)["verdict"])
			if tt.stoppedEarly {
				for _, part := range parts {
					if part.Attempt == 1 {
						assert.NotContains(t, string(part.JSON), `"comments"`, "the wrong reply was stopped at its verdict")
					}
				}
			}
		})
	}
}

func TestRunWithPartialsNil(t *testing.T) {
	bp := loadAgent(t, "pr-reviewer")
	p := providertest.New()
	_, err := blueprint.Run(context.Background(), bp, p, map[string]any{"prompt": "x"}, blueprint.RunSpec{}, blueprint.WithEnforceOptions(enforce.WithPartials(nil)))
	require.ErrorIs(t, err, enforce.ErrInvalidOption)
	assert.Empty(t, p.Requests())
}
