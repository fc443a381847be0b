package suggest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentio/agentio/internal/suggest"
)

func TestClosest(t *testing.T) {
	known := []string{"minLength", "maxLength", "string", "system_prompt"}
	tests := map[string]string{
		"minLenght":    "minLength", // a transposition
		"MINLENGTH":    "minLength", // case is ignored
		"strin":        "string",
		"system_promt": "system_prompt",
		"zzz":          "",
		"":             "",
	}
	for in, want := range tests {
		assert.Equal(t, want, suggest.Closest(in, known), in)
	}
	assert.Equal(t, "", suggest.Closest("ab", []string{"xy"}), "short names need a closer match")
}
