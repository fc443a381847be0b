package jsonpath_test

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/internal/jsonpath"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		path    jsonpath.Path
		want    string
		pointer string
	}{
		{nil, "$", ""},
		{jsonpath.Path{jsonpath.Key("issues"), jsonpath.Index(0), jsonpath.Key("severity")}, "$.issues[0].severity", "/issues/0/severity"},
		{jsonpath.Path{jsonpath.Key("a$b")}, "$.a$b", "/a$b"},
		{jsonpath.Path{jsonpath.Key("$defs"), jsonpath.Key("item")}, "$.$defs.item", "/$defs/item"},
		{jsonpath.Path{jsonpath.Key("a.b")}, "$['a.b']", "/a.b"},
		{jsonpath.Path{jsonpath.Key("due-date")}, "$['due-date']", "/due-date"},
		{jsonpath.Path{jsonpath.Key("")}, "$['']", "/"},
		{jsonpath.Path{jsonpath.Key("2nd")}, "$['2nd']", "/2nd"},
		{jsonpath.Path{jsonpath.Key("it's")}, `$['it\'s']`, "/it's"},
		{jsonpath.Path{jsonpath.Key(`a\b`)}, `$['a\\b']`, `/a\b`},
		{jsonpath.Path{jsonpath.Key("line\nbreak")}, `$['line\nbreak']`, "/line\nbreak"},
		{jsonpath.Path{jsonpath.Key("tab\there\r")}, `$['tab\there\r']`, "/tab\there\r"},
		{jsonpath.Path{jsonpath.Key("bell\x07")}, `$['bell\u0007']`, "/bell\x07"},
		{jsonpath.Path{jsonpath.Key("bad\xffutf8")}, `$['bad\xffutf8']`, "/bad\xffutf8"},
		{jsonpath.Path{jsonpath.Key("a/b~c")}, "$['a/b~c']", "/a~1b~0c"},
		{jsonpath.Path{jsonpath.Key("[0]")}, "$['[0]']", "/[0]"},
		{jsonpath.Path{jsonpath.Key("héllo")}, "$['héllo']", "/héllo"},
		{jsonpath.Path{{Kind: jsonpath.KindAll}, jsonpath.Key("x")}, "$[*].x", "/*/x"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, jsonpath.Format(tt.path))
			assert.Equal(t, tt.want, tt.path.String())
			assert.Equal(t, tt.pointer, jsonpath.Pointer(tt.path))
			got, err := jsonpath.Parse(tt.want, true)
			require.NoError(t, err)
			assert.Equal(t, tt.path, got)
		})
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want jsonpath.Path
	}{
		{"$.due-date", jsonpath.Path{jsonpath.Key("due-date")}},
		{`$["double \"quoted\""]`, jsonpath.Path{jsonpath.Key(`double "quoted"`)}},
		{`$['\u00e9\/']`, jsonpath.Path{jsonpath.Key("é/")}},
		{"$[10][0]", jsonpath.Path{jsonpath.Index(10), jsonpath.Index(0)}},
	}
	for _, tt := range tests {
		got, err := jsonpath.Parse(tt.in, false)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
	bad := map[string]int{
		"":                        0,
		"issues":                  0,
		"$.":                      2,
		"$..a":                    2,
		"$[":                      1,
		"$[01]":                   2,
		"$[-1]":                   2,
		"$[1":                     2,
		"$['a'":                   5,
		"$['a":                    2,
		`$['\q']`:                 3,
		`$['\x4']`:                3,
		`$['\u12']`:               3,
		"$a":                      1,
		"$[*]":                    2, // not a pattern
		"$['a']x":                 6,
		"$[99999999999999999999]": 2,
	}
	for in, at := range bad {
		_, err := jsonpath.Parse(in, false)
		var pe *jsonpath.Error
		if assert.True(t, errors.As(err, &pe), "%q parsed", in) {
			assert.Equal(t, at, pe.Offset, "%q: %v", in, err)
			assert.Equal(t, in, pe.Path)
		}
	}
	_, err := jsonpath.Parse("$[*", true)
	assert.Error(t, err)
}

func TestTokens(t *testing.T) {
	for _, k := range []string{"", "plain", "a/b", "~", "~1", "/~0/"} {
		assert.Equal(t, k, jsonpath.UnescapeToken(jsonpath.EscapeToken(k)))
	}
	assert.Equal(t, "a~1b~0", jsonpath.EscapeToken("a/b~"))
}

// FuzzRoundTrip checks that every path of keys and indices reads back as
// itself, whatever its keys hold, and that Parse never panics.
func FuzzRoundTrip(f *testing.F) {
	for _, k := range []string{"a", "a$b", "a.b", "it's", "line\nbreak", "\xff", "[*]", `\`, "", "$", "'", `"`, "]", "\x00"} {
		f.Add(k, 3, "$['x']")
	}
	f.Fuzz(func(t *testing.T, key string, index int, text string) {
		if index < 0 {
			index = -index
		}
		if index < 0 {
			index = 0
		}
		p := jsonpath.Path{jsonpath.Key(key), jsonpath.Index(index), jsonpath.Key(key + key)}
		s := jsonpath.Format(p)
		got, err := jsonpath.Parse(s, false)
		require.NoError(t, err, "%q", s)
		assert.Equal(t, p, got, "%q", s)

		// Whatever parses, formats to a path that parses to the same.
		if q, err := jsonpath.Parse(text, true); err == nil {
			r, err := jsonpath.Parse(jsonpath.Format(q), true)
			require.NoError(t, err)
			assert.Equal(t, q, r)
		}
	})
}

func TestChain(t *testing.T) {
	var root *jsonpath.Chain
	assert.Equal(t, 0, root.Len())
	assert.Equal(t, "$", root.String())
	assert.Equal(t, "", root.Pointer())
	c := root.Key("issues").Index(2).Key("a/b")
	assert.Equal(t, 3, c.Len())
	assert.Equal(t, jsonpath.Path{jsonpath.Key("issues"), jsonpath.Index(2), jsonpath.Key("a/b")}, c.Path())
	assert.Equal(t, "$.issues[2]['a/b']", c.String())
	assert.Equal(t, "/issues/2/a~1b", c.Pointer())
	// A chain is shared, not changed, by the steps below it.
	d := c.Key("x")
	assert.Equal(t, 3, c.Len())
	assert.Equal(t, "$.issues[2]['a/b'].x", d.String())
}

// TestChainAppend holds the Append forms to String and Pointer and to the
// Path they stand for, over generated chains deeper than the links kept on
// the stack, with names that need escapes.
func TestChainAppend(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 8))
	names := []string{"a", "children", "a/b", "m~n", "it's", "x.y", "", "ключ", "\x01", "k9"}
	for range 400 {
		var c *jsonpath.Chain
		for range rng.IntN(45) {
			if rng.IntN(2) == 0 {
				c = c.Index(rng.IntN(150))
				continue
			}
			c = c.Key(names[rng.IntN(len(names))])
		}
		path := c.Path()
		s := string(c.AppendString([]byte("prefix")))
		p := string(c.AppendPointer([]byte("prefix")))
		require.Equal(t, "prefix"+jsonpath.Format(path), s)
		require.Equal(t, "prefix"+jsonpath.Pointer(path), p)
		require.Equal(t, s[len("prefix"):], c.String())
		require.Equal(t, p[len("prefix"):], c.Pointer())
	}
}

func TestChainEqual(t *testing.T) {
	var root *jsonpath.Chain
	a := root.Key("a").Index(2)
	for _, tc := range []struct {
		x, y *jsonpath.Chain
		want bool
	}{
		{root, root, true},
		{a, a, true},
		{a, root.Key("a").Index(2), true},
		{a, root.Key("a").Index(3), false},
		{a, root.Key("b").Index(2), false},
		{a, root.Key("a"), false},
		{root.Key("a"), a, false},
		{root, a, false},
		{root.Index(0), root.Key("0"), false},
	} {
		assert.Equal(t, tc.want, tc.x.Equal(tc.y), "%v = %v", tc.x, tc.y)
	}
}

// TestLinks holds the chains Links hands out, across several blocks, to
// those Chain builds: the same paths, each chain unchanged by the ones
// built after it.
func TestLinks(t *testing.T) {
	var l jsonpath.Links
	var want, got []*jsonpath.Chain
	var w, g *jsonpath.Chain
	for i := range 300 {
		if i%3 == 0 {
			w, g = w.Key("k"+strconv.Itoa(i)), l.Key(g, "k"+strconv.Itoa(i))
		} else {
			w, g = w.Index(i), l.Index(g, i)
		}
		if i%50 == 49 {
			w, g = nil, nil // a new root: chains of several lengths share blocks
		}
		want, got = append(want, w), append(got, g)
	}
	for i := range want {
		assert.True(t, want[i].Equal(got[i]), "chain %d", i)
		assert.Equal(t, want[i].String(), got[i].String(), "chain %d", i)
		assert.Equal(t, want[i].Len(), got[i].Len(), "chain %d", i)
	}
}
