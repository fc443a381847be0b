package record

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
)

// keyCorpus are requests over every field of provider.Request, whose
// keys testdata/keys.golden holds.
func keyCorpus() []struct {
	name string
	req  *provider.Request
} {
	return []struct {
		name string
		req  *provider.Request
	}{
		{"empty", &provider.Request{}},
		{"user", &provider.Request{Messages: []provider.Message{provider.UserMessage("What is 6 x 7?")}}},
		{"system", &provider.Request{System: "Be brief.", Messages: []provider.Message{provider.UserMessage("Hi <b>&</b>")}}},
		{"conversation", &provider.Request{Messages: []provider.Message{
			provider.UserMessage("Look it up."),
			{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "search", Arguments: json.RawMessage(`{"q": "go"}`)}, {ID: "c2", Name: "noop"}}},
			{Role: provider.RoleTool, ToolCallID: "c1", Content: "found", IsError: true},
			{Role: provider.RoleAssistant, Content: "Done."},
		}}},
		{"output", &provider.Request{Messages: []provider.Message{provider.UserMessage("x")},
			Output: &provider.OutputSpec{Name: "result", Description: "the result", Schema: json.RawMessage(`{"type": "object"}`), Strict: true}}},
		{"json mode", &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}, Output: &provider.OutputSpec{Format: provider.FormatJSONObject}}},
		{"tools", &provider.Request{Messages: []provider.Message{provider.UserMessage("x")},
			Tools:      []provider.Tool{{Name: "submit_result", Description: "submit", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`), Strict: true}, {Name: "bare"}},
			ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: "submit_result"}}},
		{"required tool", &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}, ToolChoice: provider.ToolChoice{Mode: provider.ToolChoiceRequired}}},
		{"max tokens", &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}, MaxTokens: 4096}},
		{"unicode", &provider.Request{System: "é\u2028\x00", Messages: []provider.Message{provider.UserMessage("日本語 \"quoted\" \\ back")}}},
	}
}

// TestKeysStable: the keys of requests over every field are those
// testdata/keys.golden holds, written when the key was computed from a
// copy of the Request's fields: recordings made then still replay.
func TestKeysStable(t *testing.T) {
	f, err := os.Open("testdata/keys.golden")
	require.NoError(t, err)
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		require.Len(t, parts, 3, sc.Text())
		want[parts[0]+"/"+parts[1]] = parts[2]
	}
	require.NoError(t, sc.Err())
	n := 0
	for _, c := range keyCorpus() {
		for _, model := range []string{"", "gpt-4.1"} {
			r := &recorder{model: model, redact: &redactor{}}
			got, err := r.prepare(c.req)
			require.NoError(t, err)
			assert.Equal(t, want[c.name+"/"+model], got.key, "%s, model %q", c.name, model)
			n++
		}
	}
	assert.Len(t, want, n, "every golden key is checked")
}

// leaves returns the index paths of the leaf fields of t: strings,
// numbers, booleans and raw JSON, through structs, pointers and slices
// (a slice's element is index 0), with their names.
func leaves(t reflect.Type, at []int, name string) (paths [][]int, names []string) {
	switch {
	case t == rawMessageType:
		return [][]int{at}, []string{name}
	case t.Kind() == reflect.Pointer:
		return leaves(t.Elem(), at, name)
	case t.Kind() == reflect.Slice:
		return leaves(t.Elem(), append(append([]int{}, at...), -1), name+"[*]")
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			n, _ := fieldName(f)
			p, ns := leaves(f.Type, append(append([]int{}, at...), i), name+"."+n)
			paths, names = append(paths, p...), append(names, ns...)
		}
		return paths, names
	}
	return [][]int{at}, []string{name}
}

// fill sets every leaf under v to a non-zero value, n making it differ,
// allocating pointers and giving each slice one element.
func fill(v reflect.Value, n int) {
	switch {
	case v.Type() == rawMessageType:
		v.SetBytes([]byte(fmt.Sprintf(`{"n": %d}`, n)))
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0), n)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n)
			}
		}
	case reflect.String:
		v.SetString(fmt.Sprintf("value-%d", n))
	case reflect.Bool:
		v.SetBool(n%2 == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(n))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(n) + 0.5)
	}
}

// leaf returns the value at an index path of leaves under v.
func leaf(v reflect.Value, path []int) reflect.Value {
	for _, i := range path {
		for v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		if i < 0 {
			v = v.Index(0)
		} else {
			v = v.Field(i)
		}
	}
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	return v
}

// TestKeyCoversRequest: changing any field of a provider.Request changes
// its key, unless keyExcluded lists it. A field added to Request (or a type
// it holds) that did not enter the key would let two different requests
// replay one recording: this test fails for it.
func TestKeyCoversRequest(t *testing.T) {
	key := func(req *provider.Request) string {
		r := &recorder{redact: &redactor{}}
		c, err := r.prepare(req)
		require.NoError(t, err)
		return c.key
	}
	paths, names := leaves(reflect.TypeFor[provider.Request](), nil, "$")
	require.NotEmpty(t, paths)
	for i, path := range paths {
		t.Run(names[i], func(t *testing.T) {
			base := &provider.Request{}
			fill(reflect.ValueOf(base).Elem(), 1)
			changed := &provider.Request{}
			fill(reflect.ValueOf(changed).Elem(), 1)
			fill(leaf(reflect.ValueOf(changed).Elem(), path), 2)
			if reason, ok := keyExcluded[strings.TrimSuffix(names[i], "[*]")]; ok {
				assert.Equal(t, key(base), key(changed), "excluded: %s", reason)
				return
			}
			assert.NotEqual(t, key(base), key(changed), "%s does not enter the key", names[i])
		})
	}
}

// TestReplayCoversResponse: every field of a provider.Response comes back
// from a replay as it was recorded. A field added to Response that the
// store files did not keep would replay as zero: this test fails for it.
func TestReplayCoversResponse(t *testing.T) {
	want := &provider.Response{}
	fill(reflect.ValueOf(want).Elem(), 1)
	dir := t.TempDir()
	ctx := context.Background()
	req := &provider.Request{Messages: []provider.Message{provider.UserMessage("x")}}
	rec, err := New(provider.Func(func(context.Context, *provider.Request) (*provider.Response, error) { return want, nil }), dir, Record, nil)
	require.NoError(t, err)
	_, err = rec.Generate(ctx, req)
	require.NoError(t, err)
	rep, err := New(nil, dir, Replay, nil)
	require.NoError(t, err)
	got, err := rep.Generate(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	gotJSON, err := json.Marshal(got)
	require.NoError(t, err)
	assert.JSONEq(t, string(wantJSON), string(gotJSON))
}
