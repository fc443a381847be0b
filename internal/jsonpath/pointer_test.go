package jsonpath_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentio/agentio/internal/jsonpath"
)

// pointerReference is Pointer written the plain way (a strings.Builder
// and EscapeToken), the reference the sized-buffer form is held to.
func pointerReference(p jsonpath.Path) string {
	var b strings.Builder
	for _, s := range p {
		b.WriteByte('/')
		switch s.Kind {
		case jsonpath.KindIndex:
			b.WriteString(strconv.Itoa(s.Index))
		case jsonpath.KindAll:
			b.WriteByte('*')
		default:
			b.WriteString(jsonpath.EscapeToken(s.Key))
		}
	}
	return b.String()
}

// TestPointerAsReference holds Pointer to pointerReference on the root,
// empty keys, every escape (~ and / alone, together, doubled, next to
// what looks like an escape already), multi-byte and invalid UTF-8 keys,
// large and zero indexes, KindAll, a key step with an Index set, and
// random paths over those pieces, some deeper than 32 steps; a Chain's
// Pointer and String against Pointer and Format of its Path; and escaped
// keys round-trip through UnescapeToken.
func TestPointerAsReference(t *testing.T) {
	keys := []string{"", "it's", "a\nb", "a.b", "~", "/", "~/", "/~", "~~", "//", "~0", "~1", "~01", "a~1b", "a/b~c", "é/ü~", "bad\xff/utf8", "x", "*", "0", "-", strings.Repeat("~/", 40)}
	idx := []int{0, 1, 9, 10, 123456, math.MaxInt32, math.MaxInt}
	fixed := []jsonpath.Path{nil, {}, {jsonpath.Key("")}, {jsonpath.Key(""), jsonpath.Key("")},
		{{Kind: jsonpath.KindAll}}, {{Kind: jsonpath.KindAll, Key: "a/b"}}, {{Kind: jsonpath.KindKey, Key: "k", Index: 7}},
		{{Kind: jsonpath.KindIndex, Key: "ignored", Index: 3}}}
	for _, k := range keys {
		fixed = append(fixed, jsonpath.Path{jsonpath.Key(k)})
		assert.Equal(t, k, jsonpath.UnescapeToken(jsonpath.EscapeToken(k)), "%q", k)
	}
	for _, i := range idx {
		fixed = append(fixed, jsonpath.Path{jsonpath.Index(i)})
	}
	for _, p := range fixed {
		assert.Equal(t, pointerReference(p), jsonpath.Pointer(p), "%#v", p)
	}
	assert.Equal(t, "", jsonpath.Pointer(nil))
	assert.Equal(t, "/", jsonpath.Pointer(jsonpath.Path{jsonpath.Key("")}))
	assert.Equal(t, "/~0~1/~1~0/*/12", jsonpath.Pointer(jsonpath.Path{jsonpath.Key("~/"), jsonpath.Key("/~"), {Kind: jsonpath.KindAll}, jsonpath.Index(12)}))
	rng := rand.New(rand.NewPCG(38, 38))
	for range 20000 {
		n := rng.IntN(12)
		if rng.IntN(8) == 0 {
			n = 30 + rng.IntN(10) // past the links a Chain renders without allocating
		}
		p := make(jsonpath.Path, n)
		for i := range p {
			switch rng.IntN(4) {
			case 0:
				p[i] = jsonpath.Index(idx[rng.IntN(len(idx))])
			case 1:
				p[i] = jsonpath.Step{Kind: jsonpath.KindAll}
			default:
				var b strings.Builder
				for range rng.IntN(4) {
					b.WriteString(keys[rng.IntN(len(keys))])
				}
				p[i] = jsonpath.Key(b.String())
			}
		}
		if !assert.Equal(t, pointerReference(p), jsonpath.Pointer(p), "%#v", p) {
			return
		}
		var c *jsonpath.Chain
		for _, s := range p {
			switch s.Kind {
			case jsonpath.KindIndex:
				c = c.Index(s.Index)
			case jsonpath.KindKey:
				c = c.Key(s.Key)
			}
		}
		assert.Equal(t, pointerReference(c.Path()), c.Pointer())
		assert.Equal(t, jsonpath.Format(c.Path()), c.String())
	}
}
