package enforce_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider/providertest"
)

func TestOptionsFromEnv(t *testing.T) {
	tests := []struct {
		name      string
		retries   string
		extract   string
		wantErr   string
		wantCalls int
		fenced    bool // whether a fenced reply is accepted
	}{
		{name: "unset", wantCalls: 3, fenced: true},
		{name: "retries", retries: "0", wantCalls: 1, fenced: true},
		{name: "retries with spaces", retries: " 1 ", wantCalls: 2, fenced: true},
		{name: "extraction off", extract: "false", wantCalls: 3, fenced: false},
		{name: "extraction on", extract: "1", wantCalls: 3, fenced: true},
		{name: "negative retries", retries: "-1", wantErr: `enforce: invalid option: SCHEMA_ENFORCEMENT_MAX_RETRIES="-1": want a non-negative integer`},
		{name: "word retries", retries: "two", wantErr: `enforce: invalid option: SCHEMA_ENFORCEMENT_MAX_RETRIES="two": want a non-negative integer`},
		{name: "bad bool", extract: "sometimes", wantErr: `enforce: invalid option: SCHEMA_ENFORCEMENT_EXTRACT_JSON="sometimes": want true or false`},
	}
	s := parse(t, reviewSchema)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(enforce.EnvMaxRetries, tt.retries)
			t.Setenv(enforce.EnvExtractJSON, tt.extract)
			opts, err := enforce.OptionsFromEnv()
			if tt.wantErr != "" {
				require.ErrorIs(t, err, enforce.ErrInvalidOption)
				assert.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)

			p := providertest.New(providertest.Text("no"), providertest.Text("no"), providertest.Text("no"), providertest.Text("no"))
			_, err = enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, opts...)
			require.Error(t, err)
			assert.Len(t, p.Requests(), tt.wantCalls)

			fenced := providertest.New(providertest.Text("```json\n" + validReview + "\n```"))
			_, err = enforce.Run(ctx, fenced, enforce.Request{Prompt: "Review."}, s, append(opts, enforce.WithMaxRetries(0))...)
			assert.Equal(t, tt.fenced, err == nil, "%v", err)
		})
	}
}
