package openaicompat_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openaicompat"
)

func TestOutputName(t *testing.T) {
	tests := map[string]string{
		"":                      "output",
		"code_review-2":         "code_review-2",
		"code review!":          "code_review_",
		"résumé":                "r_sum_",
		strings.Repeat("a", 70): strings.Repeat("a", 64),
	}
	for in, want := range tests {
		assert.Equal(t, want, openaicompat.OutputName(in), in)
	}
}

func TestRequestID(t *testing.T) {
	assert.Equal(t, "", openaicompat.RequestID(http.Header{}))
	assert.Equal(t, "a", openaicompat.RequestID(http.Header{"X-Request-Id": {"a"}, "Request-Id": {"b"}}))
	assert.Equal(t, "b", openaicompat.RequestID(http.Header{"Request-Id": {"b"}}))
	assert.Equal(t, "c", openaicompat.RequestID(http.Header{"Openai-Request-Id": {"c"}}))
}

func TestStopReason(t *testing.T) {
	plain := &provider.Response{}
	refused := &provider.Response{Refusal: "no"}
	calls := &provider.Response{ToolCalls: []provider.ToolCall{{Name: "f"}}}
	tests := []struct {
		finish string
		resp   *provider.Response
		want   provider.StopReason
	}{
		{"stop", plain, provider.StopEnd},
		{"stop", refused, provider.StopRefusal},
		{"stop", calls, provider.StopToolUse},
		{"end_turn", plain, provider.StopEnd},
		{"", plain, ""},
		{"", calls, provider.StopToolUse},
		{"length", calls, provider.StopLength},
		{"max_tokens", plain, provider.StopLength},
		{"tool_calls", plain, provider.StopToolUse},
		{"content_filter", plain, provider.StopContentFilter},
		{"recitation", plain, provider.StopOther},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, openaicompat.StopReason(tt.finish, tt.resp), tt.finish)
	}
}
