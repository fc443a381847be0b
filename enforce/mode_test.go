package enforce_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

var (
	toolCaps   = provider.Capabilities{Tools: true, ForcedTool: true}
	nativeCaps = provider.Capabilities{NativeSchema: true, Tools: true, ForcedTool: true}
)

func TestModeAuto(t *testing.T) {
	s := parse(t, reviewSchema)
	tests := []struct {
		name string
		caps provider.Capabilities
		want enforce.Mode
	}{
		{"text only", provider.Capabilities{}, enforce.ModePrompt},
		{"json mode only", provider.Capabilities{JSONMode: true}, enforce.ModePrompt},
		{"tools without forcing", provider.Capabilities{Tools: true}, enforce.ModePrompt},
		{"forced tools", toolCaps, enforce.ModeTool},
		{"native schema", nativeCaps, enforce.ModeNative},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := enforce.New(s)
			require.NoError(t, err)
			_, st, err := e.Start(enforce.Request{Prompt: "Review."}, tt.caps)
			require.NoError(t, err)
			assert.Equal(t, tt.want, st.Mode)
		})
	}
}

func TestToolMode(t *testing.T) {
	s := parse(t, reviewSchema)

	t.Run("with the call", func(t *testing.T) {
		p := providertest.New(providertest.CallTool(enforce.ToolName, validReview))
		res, err := enforce.Run(ctx, provider.WithCapabilities(p, toolCaps), enforce.Request{System: "sys", Prompt: "Review."}, s)
		require.NoError(t, err)
		assert.Equal(t, enforce.ModeTool, res.Mode)
		assert.Equal(t, validReview, string(res.JSON))
		assert.Equal(t, validReview, res.Text)

		sent := p.Requests()[0]
		require.Len(t, sent.Tools, 1)
		tool := sent.Tools[0]
		assert.Equal(t, enforce.ToolName, tool.Name)
		assert.JSONEq(t, reviewSchema, string(tool.InputSchema), "an object root is sent as is")
		assert.Equal(t, provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: enforce.ToolName}, sent.ToolChoice)
		assert.True(t, strings.HasPrefix(sent.System, "sys\n\n## Output (required)"))
		assert.Equal(t, "Review.", sent.Messages[0].Content, "the prompt carries no schema")
		assert.Nil(t, sent.Output)
	})

	t.Run("without the call", func(t *testing.T) {
		p := providertest.New(providertest.Text("Here is my review: "+validReview), providertest.CallTool(enforce.ToolName, validReview))
		res, err := enforce.Run(ctx, provider.WithCapabilities(p, toolCaps), enforce.Request{Prompt: "Review."}, s)
		require.NoError(t, err)
		first := res.Attempts[0]
		assert.Equal(t, enforce.OutcomeNoToolCall, first.Outcome)
		require.Len(t, first.Violations, 1)
		assert.Equal(t, "did not call submit_result", first.Violations[0].Message)
		second := p.Requests()[1]
		require.Len(t, second.Messages, 3)
		assert.Equal(t, provider.RoleAssistant, second.Messages[1].Role)
		assert.Equal(t, provider.RoleUser, second.Messages[2].Role)
		assert.Contains(t, second.Messages[2].Content, "You did not call the submit_result tool.")
	})

	t.Run("without the call, exhausted", func(t *testing.T) {
		p := providertest.New(providertest.Text("no"), providertest.Text("no"))
		_, err := enforce.Run(ctx, provider.WithCapabilities(p, toolCaps), enforce.Request{Prompt: "Review."}, s, enforce.WithMaxRetries(1))
		var ve *enforce.ValidationError
		require.ErrorAs(t, err, &ve)
		assert.Equal(t, "did not call submit_result", ve.Violations[0].Message)
	})

	t.Run("invalid input answered with an error tool result", func(t *testing.T) {
		p := providertest.New(
			providertest.Reply{Text: "Submitting.", ToolCalls: []provider.ToolCall{
				{ID: "call_a", Name: enforce.ToolName, Arguments: json.RawMessage(invalidReview)},
				{ID: "call_b", Name: "search", Arguments: json.RawMessage(`{}`)},
			}},
			providertest.CallTool(enforce.ToolName, validReview),
		)
		res, err := enforce.Run(ctx, provider.WithCapabilities(p, toolCaps), enforce.Request{Prompt: "Review."}, s)
		require.NoError(t, err)
		assert.Equal(t, enforce.OutcomeInvalid, res.Attempts[0].Outcome)
		msgs := p.Requests()[1].Messages
		require.Len(t, msgs, 4, "prompt, assistant call, two tool results")
		assert.Equal(t, provider.RoleAssistant, msgs[1].Role)
		assert.Len(t, msgs[1].ToolCalls, 2)
		reask := msgs[2]
		assert.Equal(t, provider.RoleTool, reask.Role)
		assert.Equal(t, "call_a", reask.ToolCallID)
		assert.True(t, reask.IsError)
		for _, path := range invalidReviewPaths {
			assert.Contains(t, reask.Content, "- "+path+": ")
		}
		assert.Contains(t, reask.Content, invalidReview)
		assert.Contains(t, reask.Content, "Call submit_result again")
		other := msgs[3]
		assert.Equal(t, "call_b", other.ToolCallID)
		assert.True(t, other.IsError)
		assert.Contains(t, other.Content, "Unknown tool search")
	})

	t.Run("the re-ask answers the submit_result call, wherever it stands", func(t *testing.T) {
		for _, opts := range [][]enforce.Option{nil, {enforce.WithLenient()}} {
			p := providertest.New(
				providertest.Reply{ToolCalls: []provider.ToolCall{
					{ID: "call_a", Name: "search", Arguments: json.RawMessage(`{}`)},
					{ID: "call_b", Name: enforce.ToolName, Arguments: json.RawMessage(invalidReview)},
				}},
				providertest.CallTool(enforce.ToolName, validReview),
			)
			_, err := enforce.Run(ctx, provider.WithCapabilities(p, toolCaps), enforce.Request{Prompt: "Review."}, s, opts...)
			require.NoError(t, err)
			msgs := p.Requests()[1].Messages
			require.Len(t, msgs, 4)
			var reask provider.Message
			for _, m := range msgs[2:] {
				if strings.Contains(m.Content, invalidReviewPaths[0]) {
					reask = m
				}
			}
			assert.Equal(t, "call_b", reask.ToolCallID, "the violations go to the call that submitted")
		}
	})

	t.Run("tools without forcing use required choice", func(t *testing.T) {
		p := providertest.New(providertest.CallTool(enforce.ToolName, validReview))
		_, err := enforce.Run(ctx, provider.WithCapabilities(p, provider.Capabilities{Tools: true}), enforce.Request{Prompt: "Review."}, s,
			enforce.WithMode(enforce.ModeTool))
		require.NoError(t, err)
		assert.Equal(t, provider.ToolChoice{Mode: provider.ToolChoiceRequired}, p.Requests()[0].ToolChoice)
	})
}

func TestToolModeWrapsNonObjectRoot(t *testing.T) {
	s := parse(t, `{"$defs":{"tag":{"type":"string","minLength":1}},"type":"array","items":{"$ref":"#/$defs/tag"}}`)

	p := providertest.New(
		providertest.CallTool(enforce.ToolName, `{"result": ["a", ""]}`),
		providertest.CallTool(enforce.ToolName, `{"result": ["a", "b"]}`),
	)
	res, err := enforce.Run(ctx, provider.WithCapabilities(p, toolCaps), enforce.Request{Prompt: "Tags?"}, s)
	require.NoError(t, err)
	assert.Equal(t, `["a", "b"]`, string(res.JSON), "unwrapped, the model's own bytes")
	assert.Equal(t, []any{"a", "b"}, res.Value)
	require.Len(t, res.Attempts[1].Changes, 1)
	assert.Equal(t, enforce.ChangeUnwrapped, res.Attempts[1].Changes[0].Kind)

	sent := p.Requests()[0].Tools[0].InputSchema
	assert.Equal(t,
		`{"type":"object","properties":{"result":{"type":"array","items":{"$ref":"#/$defs/tag"}}},"required":["result"],"additionalProperties":false,"$defs":{"tag":{"type":"string","minLength":1}}}`,
		string(sent), "definitions move to the new root, key order kept")

	first := res.Attempts[0]
	assert.Equal(t, "$[1]", first.Violations[0].Path, "violations are reported against the caller's schema")
	reask := lastContent(p.Requests()[1])
	assert.Contains(t, reask, "- $.result[1]: ", "the re-ask points into the value the model wrote")

	t.Run("a bare value is accepted too", func(t *testing.T) {
		p := providertest.New(providertest.CallTool(enforce.ToolName, `["x"]`))
		res, err := enforce.Run(ctx, provider.WithCapabilities(p, toolCaps), enforce.Request{Prompt: "Tags?"}, s)
		require.NoError(t, err)
		assert.Equal(t, `["x"]`, string(res.JSON))
		assert.Empty(t, res.Attempts[0].Changes)
	})
}

func TestNativeMode(t *testing.T) {
	s := parse(t, reviewSchema)

	t.Run("invalid JSON anyway", func(t *testing.T) {
		p := providertest.New(providertest.Text(`{"findings": [`), providertest.Text(invalidReview), providertest.Text(validReview))
		caps := nativeCaps
		caps.StrictSchema = true
		res, err := enforce.Run(ctx, provider.WithCapabilities(p, caps), enforce.Request{Prompt: "Review."}, s)
		require.NoError(t, err)
		assert.Equal(t, enforce.ModeNative, res.Mode)
		assert.Equal(t, []enforce.Outcome{enforce.OutcomeNoJSON, enforce.OutcomeInvalid, enforce.OutcomeValid},
			[]enforce.Outcome{res.Attempts[0].Outcome, res.Attempts[1].Outcome, res.Attempts[2].Outcome})
		reqs := p.Requests()
		require.NotNil(t, reqs[0].Output)
		assert.Equal(t, "result", reqs[0].Output.Name)
		assert.JSONEq(t, reviewSchema, string(reqs[0].Output.Schema))
		assert.False(t, reqs[0].Output.Strict, "a passthrough conversion is not strict")
		assert.Equal(t, "Review.", reqs[0].Messages[0].Content, "the prompt carries no schema")
		assert.Contains(t, lastContent(reqs[2]), "- $.summary: 'summary' is a required property")
		assert.NotNil(t, reqs[2].Output, "every attempt keeps the output spec")
	})

	t.Run("unknown dialect sends the schema as written", func(t *testing.T) {
		caps := nativeCaps
		caps.Dialect = "klingon"
		p := providertest.New(providertest.Text(validReview))
		res, err := enforce.Run(ctx, provider.WithCapabilities(p, caps), enforce.Request{Prompt: "Review."}, s)
		require.NoError(t, err)
		assert.JSONEq(t, reviewSchema, string(p.Requests()[0].Output.Schema))
		require.NotEmpty(t, res.Attempts[0].Notes)
		assert.Contains(t, res.Attempts[0].Notes[0], `schema dialect "klingon" not applied`)
	})

	t.Run("schema rejected falls back to prompt mode", func(t *testing.T) {
		rejected := &provider.Error{Kind: provider.ErrSchemaRejected, StatusCode: 400, Message: "invalid schema"}
		p := providertest.New(providertest.Failed(rejected), providertest.Text(invalidReview), providertest.Text(validReview))
		res, err := enforce.Run(ctx, provider.WithCapabilities(p, nativeCaps), enforce.Request{Prompt: "Review."}, s, enforce.WithMaxRetries(1))
		require.NoError(t, err)
		assert.Equal(t, enforce.ModePrompt, res.Mode)
		require.Len(t, res.Attempts, 3, "the rejected call is not counted as a re-ask")
		assert.Equal(t, enforce.OutcomeSchemaRejected, res.Attempts[0].Outcome)
		assert.Equal(t, enforce.ModeNative, res.Attempts[0].Mode)
		assert.Equal(t, enforce.ModePrompt, res.Attempts[1].Mode)
		second := p.Requests()[1]
		assert.Nil(t, second.Output)
		assert.Contains(t, second.Messages[0].Content, "## Output format (required)")
	})

	t.Run("schema rejected without fallback", func(t *testing.T) {
		rejected := &provider.Error{Kind: provider.ErrSchemaRejected, StatusCode: 400}
		p := providertest.New(providertest.Failed(rejected), providertest.Text(validReview))
		res, err := enforce.Run(ctx, provider.WithCapabilities(p, nativeCaps), enforce.Request{Prompt: "Review."}, s, enforce.WithoutSchemaFallback())
		require.ErrorIs(t, err, provider.ErrSchemaRejected)
		assert.Len(t, res.Attempts, 1)
		assert.Len(t, p.Requests(), 1)
	})
}

func TestNativeModeOpenAIDialect(t *testing.T) {
	caps := provider.Capabilities{NativeSchema: true, StrictSchema: true, Dialect: "openai"}

	t.Run("optional property restored", func(t *testing.T) {
		s := parse(t, `{"type":"object","required":["summary"],"properties":{"summary":{"type":"string"},"note":{"type":"string"}}}`)
		p := providertest.New(providertest.Text(`{"summary": "ok", "note": null}`))
		res, err := enforce.Run(ctx, provider.WithCapabilities(p, caps), enforce.Request{Prompt: "Sum up."}, s)
		require.NoError(t, err)
		assert.JSONEq(t, `{"summary":"ok"}`, string(res.JSON))
		require.Len(t, res.Attempts[0].Changes, 1)
		assert.Equal(t, enforce.ChangeRestored, res.Attempts[0].Changes[0].Kind)
		out := p.Requests()[0].Output
		assert.True(t, out.Strict)
		assert.Contains(t, string(out.Schema), `"additionalProperties":false`)
	})

	t.Run("wrapped root", func(t *testing.T) {
		s := parse(t, `{"type":"array","items":{"type":"integer"}}`)
		p := providertest.New(providertest.Text(`{"value": [1, "2"]}`), providertest.Text(`{"value": [1, 2]}`))
		res, err := enforce.Run(ctx, provider.WithCapabilities(p, caps), enforce.Request{Prompt: "Numbers?"}, s)
		require.NoError(t, err)
		assert.Equal(t, `[1, 2]`, string(res.JSON), "the model's own bytes of the wrapped value")
		assert.Equal(t, "$[1]", res.Attempts[0].Violations[0].Path)
		assert.Contains(t, lastContent(p.Requests()[1]), "- $.value[1]: ", "the re-ask points into what the model wrote")
	})

	t.Run("tool mode uses the dialect's wrapping", func(t *testing.T) {
		s := parse(t, `{"type":"array","items":{"type":"integer"}}`)
		p := providertest.New(providertest.CallTool(enforce.ToolName, `{"value": [3]}`))
		tcaps := provider.Capabilities{Tools: true, ForcedTool: true, StrictSchema: true, Dialect: "openai"}
		res, err := enforce.Run(ctx, provider.WithCapabilities(p, tcaps), enforce.Request{Prompt: "Numbers?"}, s)
		require.NoError(t, err)
		assert.Equal(t, `[3]`, string(res.JSON))
		tool := p.Requests()[0].Tools[0]
		assert.True(t, tool.Strict)
		assert.Contains(t, string(tool.InputSchema), `"value"`)
	})
}

func TestToolModeArgumentsNotJSON(t *testing.T) {
	s := parse(t, reviewSchema)
	p := providertest.New(providertest.CallTool(enforce.ToolName, `{"findings": [`), providertest.CallTool(enforce.ToolName, validReview))
	res, err := enforce.Run(ctx, provider.WithCapabilities(p, toolCaps), enforce.Request{Prompt: "Review."}, s)
	require.NoError(t, err)
	assert.Equal(t, enforce.OutcomeNoJSON, res.Attempts[0].Outcome)
	reask := lastMessage(p.Requests()[1])
	assert.Equal(t, provider.RoleTool, reask.Role)
	assert.Equal(t, "call_1", reask.ToolCallID)
	assert.Contains(t, reask.Content, "## Your previous input\n{\"findings\": [\n")
}

// TestToolModeCutOffBeforeTheCall: a reply cut off at the token limit
// before it called submit_result is a truncation, re-asked for a shorter
// answer, not a missing call.
func TestToolModeCutOffBeforeTheCall(t *testing.T) {
	s := parse(t, reviewSchema)
	p := providertest.New(
		providertest.Truncated("Let me think about every finding in turn: the first"),
		providertest.CallTool(enforce.ToolName, validReview),
	)
	res, err := enforce.Run(ctx, provider.WithCapabilities(p, toolCaps), enforce.Request{Prompt: "Review."}, s)
	require.NoError(t, err)
	require.Len(t, res.Attempts, 2)
	assert.Equal(t, enforce.OutcomeTruncated, res.Attempts[0].Outcome)
	assert.Contains(t, lastContent(p.Requests()[1]), "cut off at the length limit")
}
