package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

func TestParseKeepsAuthorBytes(t *testing.T) {
	src := []byte(`{ "type": "object",  "properties": {"b": {}, "a": {}} }`)
	s, err := schema.Parse(src)
	require.NoError(t, err)
	assert.Equal(t, src, s.JSON())
	assert.Equal(t, `{"type":"object","properties":{"b":{},"a":{}}}`, string(s.Minified()))
}
