package ollama

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
)

func TestErrorMessage(t *testing.T) {
	tests := []struct {
		name, body, want string
		ok               bool
	}{
		{name: "ollama shape", body: `{"error":"model not found"}`, want: "model not found", ok: true},
		{name: "plain text", body: " 502 Bad Gateway \n", want: "502 Bad Gateway"},
		{name: "other JSON", body: `{"detail":"x"}`, want: `{"detail":"x"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := errorMessage([]byte(tt.body))
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.ok, ok)
		})
	}
}

// FuzzResponse: any reply body is a Response or a *provider.Error, never
// a panic, and an error message stays bounded.
func FuzzResponse(f *testing.F) {
	f.Add(`{"model":"m","message":{"role":"assistant","content":"{}"},"done":true,"done_reason":"stop"}`)
	f.Add(`{"message":{"tool_calls":[{"function":{"name":"f","arguments":null}}]},"done_reason":"length"}`)
	f.Add(`{"error":"boom"}`)
	f.Add("not json")
	f.Fuzz(func(t *testing.T, body string) {
		resp, err := response([]byte(body))
		if err != nil {
			var pe *provider.Error
			require.ErrorAs(t, err, &pe)
			if utf8.ValidString(body) {
				assert.LessOrEqual(t, utf8.RuneCountInString(pe.Message), len(body)+maxErrorText+40)
			}
			return
		}
		require.NotNil(t, resp)
		for _, c := range resp.ToolCalls {
			assert.NotEmpty(t, c.ID)
			assert.NotEmpty(t, c.Arguments)
		}
	})
}
