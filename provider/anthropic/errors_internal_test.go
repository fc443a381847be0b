package anthropic

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/agentio/agentio/provider"
)

func TestKindOf(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		errType string
		message string
		want    provider.ErrorKind
	}{
		{name: "output format schema", status: 400, errType: "invalid_request_error", message: "output_config.format.schema: property 'pattern' is not supported", want: provider.ErrSchemaRejected},
		{name: "tool input schema", status: 400, errType: "invalid_request_error", message: "tools.0.custom.input_schema: JSON schema is invalid", want: provider.ErrSchemaRejected},
		{name: "grammar too large", status: 400, errType: "invalid_request_error", message: "The compiled grammar is too large", want: provider.ErrSchemaRejected},
		{name: "model without structured outputs", status: 400, errType: "invalid_request_error", message: "output_format: Extra inputs are not permitted", want: provider.ErrSchemaRejected},
		{name: "prompt too long", status: 400, errType: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum", want: provider.ErrInvalidRequest},
		{name: "overloaded by type", status: 529, errType: "overloaded_error", message: "Overloaded", want: provider.ErrOverloaded},
		{name: "rate limit by type", status: 429, errType: "rate_limit_error", message: "slow down", want: provider.ErrRateLimited},
		{name: "request too large", status: 413, errType: "request_too_large", message: "Request exceeds the maximum size", want: provider.ErrInvalidRequest},
		{name: "api error", status: 500, errType: "api_error", message: "Internal server error", want: provider.ErrOverloaded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, kindOf(tt.status, tt.errType, tt.message))
		})
	}
}

// FuzzBodyMessage: any error body yields a bounded message without a
// panic.
func FuzzBodyMessage(f *testing.F) {
	f.Add(`{"type":"error","error":{"type":"invalid_request_error","message":"bad"}}`)
	f.Add(`{"message":"x"}`)
	f.Add(`{"error":"x"}`)
	f.Add("plain")
	f.Fuzz(func(t *testing.T, body string) {
		msg, _ := bodyMessage(body)
		if !utf8.ValidString(body) {
			return
		}
		assert.LessOrEqual(t, utf8.RuneCountInString(msg), len(body)+1)
	})
}
