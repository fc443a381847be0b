package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

const cursorSchema = `{
	"type": "object",
	"properties": {
		"summary": {"type": "string"},
		"findings": {
			"type": "array",
			"items": {"$ref": "#/$defs/finding"},
			"maxItems": 3
		},
		"pair": {"prefixItems": [{"type": "integer"}, {"type": "string"}], "items": false},
		"meta": {"anyOf": [{"type": "object", "properties": {"n": {"type": "integer"}}}, {"type": "null"}]},
		"tags": {"type": "object", "patternProperties": {"^x-": {"type": "boolean"}}, "additionalProperties": {"type": "string"}}
	},
	"required": ["summary"],
	"additionalProperties": false,
	"$defs": {
		"finding": {
			"type": "object",
			"properties": {
				"severity": {"enum": ["low", "high"]},
				"line": {"type": "integer", "minimum": 1}
			},
			"allOf": [{"required": ["severity"]}]
		}
	}
}`

// step is one move of a cursor: a key, an index, or up.
type step struct {
	key   string
	index int
	up    bool
}

func key(k string) step { return step{key: k, index: -1} }
func index(i int) step  { return step{index: i} }

var up = step{up: true}

func TestCursorCheck(t *testing.T) {
	s, err := schema.Parse([]byte(cursorSchema))
	require.NoError(t, err)
	cases := []struct {
		name  string
		steps []step
		value any
		want  []string // Path: Message prefix
	}{
		{"property ok", []step{key("summary")}, "fine", nil},
		{"property type", []step{key("summary")}, 42.0, []string{"$.summary: expected string, got integer 42"}},
		{"additional property", []step{key("extra")}, "x", []string{"$.extra: additional property 'extra' is not allowed"}},
		{"through ref", []step{key("findings"), index(1), key("severity")}, "critical",
			[]string{"$.findings[1].severity: 'critical' is not one of ['low', 'high']"}},
		{"through ref, minimum", []step{key("findings"), index(0), key("line")}, 0.0,
			[]string{"$.findings[0].line: 0 is less than the minimum of 1"}},
		{"item whole, allOf", []step{key("findings"), index(0)}, map[string]any{"line": 3.0},
			[]string{"$.findings[0].severity: 'severity' is a required property"}},
		{"array whole", []step{key("findings")}, []any{map[string]any{"severity": "low"}, map[string]any{"severity": "low"}, map[string]any{"severity": "low"}, map[string]any{"severity": "low"}},
			[]string{"$.findings: the array has 4 items, more than the maximum of 3"}},
		{"prefix item", []step{key("pair"), index(1)}, 3.0, []string{"$.pair[1]: expected string, got integer 3"}},
		{"item beyond prefix", []step{key("pair"), index(2)}, "x", []string{"$.pair[2]: unexpected item: the array may have at most 2 items"}},
		{"under anyOf: not checked early", []step{key("meta"), key("n")}, "x", nil},
		{"anyOf whole is checked", []step{key("meta")}, "x", []string{"$.meta: expected object or null, got string \"x\""}},
		{"pattern property", []step{key("tags"), key("x-ok")}, "yes", []string{"$.tags['x-ok']: expected boolean, got string \"yes\""}},
		{"additional with a schema", []step{key("tags"), key("plain")}, true, []string{"$.tags.plain: expected string, got boolean true"}},
		{"up and down again", []step{key("summary"), up, key("findings"), index(0), key("severity")}, "low", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := s.Cursor()
			for _, st := range tc.steps {
				switch {
				case st.up:
					c.Up()
				case st.index >= 0:
					c.Index(st.index)
				default:
					c.Key(st.key)
				}
			}
			var got []string
			for _, v := range c.Check(tc.value) {
				got = append(got, v.Path+": "+v.Message)
			}
			require.Len(t, got, len(tc.want), "%q", got)
			for i := range got {
				assert.Contains(t, got[i], tc.want[i])
			}
		})
	}
}

func TestCursorPath(t *testing.T) {
	s, err := schema.Parse([]byte(cursorSchema))
	require.NoError(t, err)
	c := s.Cursor()
	assert.Equal(t, "$", c.Path())
	c.Key("findings")
	c.Index(2)
	c.Key("odd key")
	assert.Equal(t, "$.findings[2]['odd key']", c.Path())
	assert.Equal(t, 3, c.Depth())
	c.Up()
	c.Up()
	c.Up()
	c.Up() // at the root already
	assert.Equal(t, 0, c.Depth())
}

// TestCursorAgreesWithValidate checks, for values of the schema, that a
// part the cursor finds at fault makes the whole value invalid, with the
// same violation.
func TestCursorAgreesWithValidate(t *testing.T) {
	s, err := schema.Parse([]byte(cursorSchema))
	require.NoError(t, err)
	whole := map[string]any{
		"summary":  "s",
		"findings": []any{map[string]any{"severity": "bad", "line": 2.0}},
	}
	c := s.Cursor()
	c.Key("findings")
	c.Index(0)
	c.Key("severity")
	part := c.Check("bad")
	require.Len(t, part, 1)
	assert.Contains(t, s.Validate(whole), part[0])
}

func TestCursorDynamicRefChecksNothing(t *testing.T) {
	s, err := schema.Parse([]byte(`{
		"$dynamicAnchor": "node",
		"type": "object",
		"properties": {"name": {"type": "string"}, "kids": {"type": "array", "items": {"$dynamicRef": "#node"}}}
	}`))
	require.NoError(t, err)
	c := s.Cursor()
	c.Key("name")
	assert.Empty(t, c.Check(1.0))
}

func TestCursorDraft7RefIgnoresSiblings(t *testing.T) {
	s, err := schema.Parse([]byte(`{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"definitions": {"n": {"type": "integer"}},
		"properties": {"a": {"$ref": "#/definitions/n", "type": "string"}}
	}`))
	require.NoError(t, err)
	c := s.Cursor()
	c.Key("a")
	assert.Empty(t, c.Check(3.0), "draft-07 ignores the type beside $ref")
	assert.NotEmpty(t, c.Check("x"))
}

// TestCursorFollowsLexicalDynamicRef: a $dynamicRef that resolves like a
// $ref (no $dynamicAnchor to bind it) certainly applies, and the cursor
// checks through it as it does through $ref.
func TestCursorFollowsLexicalDynamicRef(t *testing.T) {
	s, err := schema.Parse([]byte(`{
		"$defs": {"n": {"type": "integer"}},
		"properties": {"a": {"$dynamicRef": "#/$defs/n"}}
	}`))
	require.NoError(t, err)
	c := s.Cursor()
	c.Key("a")
	vs := c.Check("x")
	require.Len(t, vs, 1)
	assert.Contains(t, s.Validate(map[string]any{"a": "x"}), vs[0])
	assert.Empty(t, c.Check(3.0))
}
