package jsonpath_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentio/agentio/internal/jsonpath"
)

func TestPointerOf(t *testing.T) {
	p, ok := jsonpath.PointerOf("$.properties['a/b~c'].items[2]")
	assert.True(t, ok)
	assert.Equal(t, "/properties/a~1b~0c/items/2", p)
	p, ok = jsonpath.PointerOf("$")
	assert.True(t, ok)
	assert.Equal(t, "", p)
	_, ok = jsonpath.PointerOf("nope")
	assert.False(t, ok)
}
