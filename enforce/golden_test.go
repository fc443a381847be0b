package enforce_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/internal/golden"
	"github.com/agentio/agentio/provider"
)

func TestGoldenInstructions(t *testing.T) {
	e, err := enforce.New(parse(t, reviewSchema))
	require.NoError(t, err)
	golden.Check(t, "instructions", e.Instructions())
	golden.Check(t, "enrich_system", e.EnrichSystem("You review code."))
	assert.Equal(t, e.Instructions(), e.EnrichPrompt("  "), "a blank prompt gets the instructions alone")
	assert.Equal(t, "Review.\n\n"+e.Instructions(), e.EnrichPrompt("Review.\n"))
}

func TestInstructionsMinifyLargeSchema(t *testing.T) {
	var props []string
	for i := range 60 {
		props = append(props, fmt.Sprintf("\n    \"field_%02d\": {\"type\": \"string\", \"description\": \"the field number %d\"}", i, i))
	}
	src := "{\n  \"type\": \"object\",\n  \"properties\": {" + strings.Join(props, ",") + "\n  }\n}"
	require.Greater(t, len(src), 2048)
	s := parse(t, src)
	e, err := enforce.New(s)
	require.NoError(t, err)
	assert.Contains(t, e.Instructions(), string(s.Minified()))
	assert.Equal(t, 1, strings.Count(e.Instructions(), `"field_00"`), "the schema appears once")
}

func TestGoldenReasks(t *testing.T) {
	review := parse(t, reviewSchema)
	tags := parse(t, `{"type":"array","items":{"type":"string","minLength":1}}`)
	var long strings.Builder
	long.WriteString("[")
	for i := range 60 {
		if i > 0 {
			long.WriteString(", ")
		}
		fmt.Fprintf(&long, "%d", i*1000003)
	}
	long.WriteString("]")
	longText := "Let me think about this at length. " + strings.Repeat("The quick brown fox jumps over the lazy dog. ", 100) + "\n" + long.String()

	tests := []struct {
		name string
		mode enforce.Mode
		resp *provider.Response
		s    string
	}{
		{"reask_invalid", enforce.ModePrompt, &provider.Response{Text: "Here you go:\n" + invalidReview}, reviewSchema},
		{"reask_no_json", enforce.ModePrompt, &provider.Response{Text: "I found no issues."}, reviewSchema},
		{"reask_truncated", enforce.ModePrompt, &provider.Response{Text: validReview[:30], StopReason: provider.StopLength}, reviewSchema},
		{"reask_no_tool_call", enforce.ModeTool, &provider.Response{Text: validReview}, reviewSchema},
		{"reask_tool_invalid", enforce.ModeTool, &provider.Response{ToolCalls: []provider.ToolCall{{ID: "c1", Name: enforce.ToolName, Arguments: []byte(`{"result": ["ok", ""]}`)}}}, "tags"},
		{"reask_long", enforce.ModePrompt, &provider.Response{Text: longText}, "strings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := review
			switch tt.s {
			case "tags":
				s = tags
			case "strings":
				s = parse(t, `{"type":"array","items":{"type":"string"}}`)
			}
			e, err := enforce.New(s, enforce.WithMode(tt.mode))
			require.NoError(t, err)
			v := e.Check(ctx, enforce.State{}, tt.resp)
			require.True(t, v.Retry, "%+v", v)
			golden.Check(t, tt.name, v.Reask)
		})
	}
}

func TestGoldenValidationError(t *testing.T) {
	s := parse(t, reviewSchema)
	tests := []struct {
		name  string
		reply string
	}{
		{"error_invalid", invalidReview},
		{"error_no_json", "I found no issues."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := enforce.New(s, enforce.WithMaxRetries(1))
			require.NoError(t, err)
			v := e.CheckText(ctx, enforce.State{}, tt.reply)
			require.True(t, v.Retry)
			v = e.CheckText(ctx, v.State, tt.reply)
			require.False(t, v.Retry)
			var ve *enforce.ValidationError
			require.ErrorAs(t, v.Err, &ve)
			data, err := json.MarshalIndent(ve, "", "  ")
			require.NoError(t, err)
			golden.Check(t, tt.name, ve.Error()+"\n\n"+string(data)+"\n")
		})
	}
}

func TestValidationErrorText(t *testing.T) {
	many := &enforce.ValidationError{Retries: 3}
	for i := range 5 {
		many.Violations = append(many.Violations, violation(fmt.Sprintf("$.f%d", i), "bad"))
	}
	tests := []struct {
		name string
		err  *enforce.ValidationError
		want string
	}{
		{"no violations", &enforce.ValidationError{}, "output validation failed after 0 retries"},
		{"one retry", &enforce.ValidationError{Retries: 1, Violations: violations("$.a", "is wrong")}, "output validation failed after 1 retry: $.a: is wrong"},
		{"cut after three", many, "output validation failed after 3 retries: $.f0: bad; $.f1: bad; $.f2: bad (and 2 more)"},
		{"long message cut", &enforce.ValidationError{Violations: violations("$", strings.Repeat("é", 150))}, "output validation failed after 0 retries: $: " + strings.Repeat("é", 100) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.err.Error())
		})
	}
}
