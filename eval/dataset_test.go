package eval_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/eval"
)

func TestReadDataset(t *testing.T) {
	in := `{"id": "a", "schema": {"type": "object"}, "prompt": "p", "expected": {"x": 1}}

{"id": "b", "blueprint": "agents/x", "parameters": {"diff": "d"}, "invariants": [{"kind": "unique_by", "items": "$.items[*]", "key": ["id"]}]}
`
	cases, err := eval.ReadDataset(strings.NewReader(in))
	require.NoError(t, err)
	require.Len(t, cases, 2)
	assert.Equal(t, "a", cases[0].ID)
	assert.JSONEq(t, `{"type": "object"}`, string(cases[0].Schema))
	assert.Equal(t, "p", cases[0].Prompt)
	assert.JSONEq(t, `{"x": 1}`, string(cases[0].Expected))
	assert.Equal(t, "agents/x", cases[1].Blueprint, "kept as written")
	assert.Equal(t, map[string]any{"diff": "d"}, cases[1].Parameters)
	require.Len(t, cases[1].Invariants, 1)
	assert.Equal(t, "unique_by", cases[1].Invariants[0].Kind)
	assert.Nil(t, cases[1].Expected)

	cases, err = eval.ReadDataset(strings.NewReader(""))
	require.NoError(t, err)
	assert.Empty(t, cases)
}

func TestReadDatasetErrors(t *testing.T) {
	const ok = `{"id": "ok", "schema": {}, "prompt": "p"}` + "\n"
	tests := []struct {
		name  string
		in    string
		line  int
		field string
	}{
		{"not json", ok + "{", 2, ""},
		{"not an object", `[1]`, 1, ""},
		{"null line", `null`, 1, ""},
		{"missing id", `{"schema": {}, "prompt": "p"}`, 1, "id"},
		{"id not a string", `{"id": 3, "schema": {}, "prompt": "p"}`, 1, "id"},
		{"duplicate id", ok + "\n" + ok, 3, "id"},
		{"no contract", `{"id": "a", "prompt": "p"}`, 1, "schema"},
		{"both contracts", `{"id": "a", "schema": {}, "blueprint": "x", "prompt": "p"}`, 1, "blueprint"},
		{"no input", `{"id": "a", "schema": {}}`, 1, "prompt"},
		{"bad schema", `{"id": "a", "schema": {"type": "strin"}, "prompt": "p"}`, 1, "schema"},
		{"schema not an object", `{"id": "a", "schema": 5, "prompt": "p"}`, 1, "schema"},
		{"parameters not an object", `{"id": "a", "schema": {}, "parameters": [1]}`, 1, "parameters"},
		{"inline schema without a prompt", `{"id": "a", "schema": {}, "parameters": {"x": 1}}`, 1, "prompt"},
		{"prompt not a string", `{"id": "a", "schema": {}, "prompt": 1}`, 1, "prompt"},
		{"bad invariant kind", `{"id": "a", "schema": {}, "prompt": "p", "invariants": [{"kind": "nope"}]}`, 1, "invariants"},
		{"unknown invariant member", `{"id": "a", "schema": {}, "prompt": "p", "invariants": [{"kind": "unique_by", "x": 1}]}`, 1, "invariants"},
		{"unknown member", `{"id": "a", "schema": {}, "prompt": "p", "expect": 1}`, 1, "expect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cases, err := eval.ReadDataset(strings.NewReader(tt.in))
			require.Error(t, err)
			assert.Nil(t, cases)
			assert.ErrorIs(t, err, eval.ErrDataset)
			var de *eval.DatasetError
			require.True(t, errors.As(err, &de), "%T", err)
			assert.Equal(t, tt.line, de.Line)
			assert.Equal(t, tt.field, de.Field)
			assert.Contains(t, err.Error(), "line ")
			assert.NotContains(t, err.Error(), "schema: schema:", "a prefix said twice")
		})
	}
}

func TestLoadDataset(t *testing.T) {
	cases, err := eval.LoadDataset("testdata/cases.jsonl")
	require.NoError(t, err)
	require.Len(t, cases, 2)
	assert.Equal(t, filepath.Join("testdata", "agents", "ticket"), cases[1].Blueprint)

	_, err = eval.LoadDataset("testdata/missing.jsonl")
	assert.Error(t, err)
}

func FuzzReadDataset(f *testing.F) {
	f.Add(`{"id": "a", "schema": {"type": "object"}, "prompt": "p"}`)
	f.Add(`{"id": "b", "blueprint": "x", "parameters": {"a": [1]}, "expected": null}` + "\n\n" + `{"id": "b"}`)
	f.Add(`{"id": "c", "schema": {}, "prompt": "p", "invariants": [{"kind": "unique_by", "items": "$[*]", "key": ["k"]}]}`)
	f.Add("[\n{")
	f.Fuzz(func(t *testing.T, in string) {
		cases, err := eval.ReadDataset(strings.NewReader(in))
		if err != nil {
			var de *eval.DatasetError
			if !errors.As(err, &de) || de.Line < 1 {
				t.Fatalf("error %v is not a DatasetError with a line", err)
			}
			if cases != nil {
				t.Fatal("cases beside an error")
			}
			return
		}
		ids := map[string]bool{}
		for _, c := range cases {
			if c.ID == "" || ids[c.ID] {
				t.Fatalf("empty or repeated id %q", c.ID)
			}
			ids[c.ID] = true
			if (c.Schema == nil) == (c.Blueprint == "") {
				t.Fatalf("case %q: not exactly one contract", c.ID)
			}
			if p, _ := c.Parameters["prompt"].(string); c.Schema != nil && c.Prompt == "" && p == "" {
				t.Fatalf("case %q: inline schema without a prompt", c.ID)
			}
			if c.Prompt == "" && len(c.Parameters) == 0 {
				t.Fatalf("case %q: no input", c.ID)
			}
		}
	})
}
