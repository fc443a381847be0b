package blueprint_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/internal/golden"
	"github.com/agentio/agentio/provider/providertest"
)

// goldenCase is what the golden file of one example agent is rendered from.
type goldenCase struct {
	good   map[string]any // valid parameters
	bad    map[string]any // invalid parameters
	output string         // a valid model output ("" for a free-text agent)
	text   string         // a free-text reply
}

var goldenCases = map[string]goldenCase{
	"security-scanner": {
		good:   map[string]any{"prompt": "Scan the repository for security issues."},
		bad:    map[string]any{"prompt": ""},
		output: `{"issues":[{"severity":"high","description":"SQL injection vulnerability"},{"severity":"medium","description":"Missing rate limiting"}],"summary":"Found 2 security issues requiring attention"}`,
	},
	"summarizer": {
		good:   map[string]any{"prompt": "Summarise the attached design notes."},
		bad:    map[string]any{"text": "no prompt given"},
		output: `{"summary":"The notes propose one parser for all inputs.","key_points":["one parser","fewer bugs"]}`,
	},
	"pr-reviewer": {
		good:   map[string]any{"prompt": "Review pull request 42."},
		bad:    map[string]any{"prompt": 42},
		output: `{"verdict":"approve","comments":[],"summary":"LGTM, no issues found"}`,
	},
	"parametric-agent": {
		good: map[string]any{"prompt": "Create content about this topic.", "topic": "Machine Learning in Healthcare",
			"format": "bullet_points", "max_words": 300},
		bad:  map[string]any{"topic": "AI", "format": "invalid", "max_words": 10, "audience": "doctors"},
		text: "- Earlier diagnosis from imaging\n- Fewer missed drug interactions",
	},
	"data-extractor": {
		good:   map[string]any{"prompt": "Extract the entities:\nJohn Smith joined Acme Corp in May."},
		bad:    map[string]any{},
		output: `{"entities":[{"name":"John Smith","type":"person"},{"name":"Acme Corp","type":"organization"}]}`,
	},
	"code-analyzer": {
		good:   map[string]any{"prompt": "Analyze the codebase structure"},
		bad:    map[string]any{"prompt": []string{"not", "a", "string"}},
		output: `{"scan_complete":true,"vulnerabilities":[]}`,
	},
}

// TestGolden renders, for each example agent, the blueprint as marshalled,
// the effective parameters schema, the prompts of a run, the error of bad
// parameters, and the result event and callback of a run, and compares
// them with testdata/<name>.golden.
func TestGolden(t *testing.T) {
	for _, name := range exampleAgents {
		t.Run(name, func(t *testing.T) {
			gc, ok := goldenCases[name]
			require.True(t, ok, "no golden case for %s", name)
			got := renderGolden(t, loadAgent(t, name), gc)
			golden.Check(t, name, got)
		})
	}
}

func renderGolden(t *testing.T, bp *blueprint.Blueprint, gc goldenCase) string {
	t.Helper()
	var b strings.Builder
	section := func(title string) { fmt.Fprintf(&b, "\n== %s\n", title) }
	b.WriteString("# " + bp.Name() + " (" + string(bp.Type()) + ")\n")

	section("blueprint, as json.Marshal writes it back")
	b.WriteString(indentJSON(t, bp))

	section("parameters schema validated against")
	b.WriteString(indentJSON(t, bp.EffectiveParametersSchema()))

	ctx := context.Background()
	res, err := blueprint.ResolveOutputSchema(ctx, bp, blueprint.RunSpec{}, nil)
	require.NoError(t, err)
	section("resolution")
	fmt.Fprintf(&b, "source: %q\noptions: %s", res.Source, indentJSON(t, res.Options))

	section("system prompt")
	sys, err := bp.SystemPrompt(res)
	require.NoError(t, err)
	b.WriteString(sys + "\n")

	section("user prompt")
	require.NoError(t, bp.ValidateParameters(gc.good))
	prompt, err := bp.Prompt(gc.good)
	require.NoError(t, err)
	b.WriteString(prompt + "\n")

	section("bad parameters")
	perr := bp.ValidateParameters(gc.bad)
	require.Error(t, perr)
	b.WriteString(perr.Error() + "\n")
	b.WriteString(indentJSON(t, perr))

	reply := gc.output
	if reply == "" {
		reply = gc.text
	}
	p := providertest.New(providertest.Text(reply))
	r, err := blueprint.Run(ctx, bp, p, gc.good, blueprint.RunSpec{}, blueprint.WithEnforceOptions(enforce.WithMode(enforce.ModeSystem)))
	require.NoError(t, err)
	require.Equal(t, sys, p.Requests()[0].System, "Run sends the same system prompt")

	section("result event")
	b.WriteString(indentJSON(t, blueprint.ResultEvent{SessionID: "ses_abc123", Timestamp: time.Date(2026, 1, 18, 10, 30, 0, 0, time.UTC), Result: r}))

	section("callback")
	b.WriteString(blueprint.Callback("ses_child123", "completed", r) + "\n")

	if gc.output != "" {
		section("output validation failure")
		p := providertest.New(providertest.Text("I could not finish."), providertest.Text("Still nothing."))
		_, err := blueprint.Run(ctx, bp, p, gc.good, blueprint.RunSpec{Options: blueprint.OutputOptions{MaxRetries: ptr(1)}})
		require.Error(t, err)
		b.WriteString(indentJSON(t, err))
	}
	return b.String()
}

func indentJSON(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(v))
	return buf.String()
}
