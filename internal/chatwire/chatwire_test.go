package chatwire

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
		assert.Equal(t, want, OutputName(in), in)
	}
}

func TestRequestID(t *testing.T) {
	assert.Equal(t, "", RequestID(http.Header{}))
	assert.Equal(t, "a", RequestID(http.Header{"X-Request-Id": {"a"}, "Request-Id": {"b"}}))
	assert.Equal(t, "b", RequestID(http.Header{"Request-Id": {"b"}}))
	assert.Equal(t, "c", RequestID(http.Header{"Openai-Request-Id": {"c"}}))
}
