package jsontree_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/internal/jsontree"
)

func TestDecode(t *testing.T) {
	n, err := jsontree.Decode([]byte(`{"b": 1, "a": [true, null, "x"], "b": 2.50}`), 8)
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "a"}, n.Keys, "order kept; a duplicate keeps its first place")
	assert.Equal(t, []string{"b"}, n.Dups)
	assert.Equal(t, "2.50", n.Get("b").Text, "the last duplicate wins, its literal kept")
	assert.Equal(t, `{"b":2.50,"a":[true,null,"x"]}`, string(n.AppendJSON(nil)))

	tests := []struct {
		in       string
		path     jsonpath.Path
		tooDeep  bool
		trailing bool
	}{
		{`{"a": [1, }`, jsonpath.Path{jsonpath.Key("a"), jsonpath.Index(1)}, false, false},
		{`[[[1]]]`, jsonpath.Path{jsonpath.Index(0), jsonpath.Index(0)}, true, false},
		{`{} {}`, nil, false, true},
		{``, nil, false, false},
	}
	for _, tt := range tests {
		_, err := jsontree.Decode([]byte(tt.in), 2)
		var de *jsontree.DecodeError
		require.True(t, errors.As(err, &de), "%q", tt.in)
		assert.Equal(t, tt.path, de.Path, "%q", tt.in)
		assert.Equal(t, tt.tooDeep, errors.Is(err, jsontree.ErrTooDeep), "%q", tt.in)
		assert.Equal(t, tt.trailing, de.Trailing, "%q", tt.in)
		assert.True(t, strings.HasPrefix(err.Error(), jsonpath.Format(tt.path)+": "), err.Error())
	}
}

func TestNode(t *testing.T) {
	a, err := jsontree.Decode([]byte(`{"$defs": {"a/b": {"x": [1, {"y": "z"}]}}, "k": "v"}`), 16)
	require.NoError(t, err)
	b, err := jsontree.Decode([]byte(`{"k": "v", "$defs": {"a/b": {"x": [1, {"y": "z"}]}}}`), 16)
	require.NoError(t, err)
	assert.True(t, a.Equal(b), "member order is ignored")
	assert.Equal(t, "z", a.ResolveRef("#/$defs/a~1b/x/1/y").Text)
	assert.Equal(t, "z", a.ResolveRef("#/%24defs/a~1b/x/1/y").Text, "percent-encoded")
	assert.Same(t, a, a.ResolveRef("#"))
	assert.Nil(t, a.ResolveRef("#anchor"))
	assert.Nil(t, a.ResolveRef("other.json#/k"))
	assert.Nil(t, a.ResolveRef("#/$defs/a~1b/x/9"))

	c := a.DeepCopy()
	c.ObjectMember("$defs").Rename("a/b", "c")
	c.Set("k", &jsontree.Node{Kind: jsontree.Number, Text: "1"})
	c.Del("$defs")
	assert.Equal(t, `{"k":1}`, string(c.AppendJSON(nil)))
	assert.True(t, a.Equal(b), "a deep copy shares nothing")
	s, ok := a.StringMember("k")
	assert.True(t, ok)
	assert.Equal(t, "v", s)
	_, ok = a.ArrayMember("k")
	assert.False(t, ok)
	assert.Equal(t, "object", a.KindName())
}
