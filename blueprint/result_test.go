package blueprint_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
)

func TestResultJSON(t *testing.T) {
	data, err := blueprint.NewDataResult(json.RawMessage(` {"n": 12345678901234567890, "b": [1]} `))
	require.NoError(t, err)
	tests := []struct {
		name string
		r    *blueprint.Result
		want string
	}{
		{name: "text", r: blueprint.NewTextResult("found 3 issues"), want: `{"result_text":"found 3 issues","result_data":null}`},
		{name: "empty text", r: blueprint.NewTextResult(""), want: `{"result_text":"","result_data":null}`},
		{name: "zero value", r: &blueprint.Result{}, want: `{"result_text":"","result_data":null}`},
		{name: "data keeps digits and order", r: data, want: `{"result_text":null,"result_data":{"n":12345678901234567890,"b":[1]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.r)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got), "byte for byte: JSONEq would miss the key order and the digits")
			var back blueprint.Result
			require.NoError(t, json.Unmarshal(got, &back))
			assert.Equal(t, tt.r.Structured(), back.Structured())
			assert.Equal(t, tt.r.Text(), back.Text())
		})
	}
	assert.Contains(t, string(data.Data()), "12345678901234567890")
}

func TestResultAccessors(t *testing.T) {
	r, err := blueprint.NewDataResult(json.RawMessage(`{"summary":"ok"}`))
	require.NoError(t, err)
	assert.True(t, r.Structured())
	assert.Equal(t, "", r.Text())
	var v struct{ Summary string }
	require.NoError(t, r.Decode(&v))
	assert.Equal(t, "ok", v.Summary)

	d := r.Data()
	d[0] = 'X'
	assert.JSONEq(t, `{"summary":"ok"}`, string(r.Data()), "Data returns a copy")

	tr := blueprint.NewTextResult("hi")
	assert.False(t, tr.Structured())
	assert.Nil(t, tr.Data())
	assert.Error(t, tr.Decode(&v))
	assert.Error(t, r.Decode(&struct{ Summary int }{}))
}

func TestResultErrors(t *testing.T) {
	for name, data := range map[string]string{
		"not JSON": `{"a":`,
		"two":      `{} {}`,
		"null":     `null`,
		"empty":    ``,
	} {
		t.Run("data "+name, func(t *testing.T) {
			_, err := blueprint.NewDataResult(json.RawMessage(data))
			assert.Error(t, err)
		})
	}
	for name, doc := range map[string]string{
		"both":    `{"result_text":"a","result_data":{}}`,
		"neither": `{"result_text":null,"result_data":null}`,
		"absent":  `{}`,
		"bad":     `[]`,
	} {
		t.Run("unmarshal "+name, func(t *testing.T) {
			var r blueprint.Result
			assert.Error(t, json.Unmarshal([]byte(doc), &r))
		})
	}
}

func TestResultEvent(t *testing.T) {
	r, err := blueprint.NewDataResult(json.RawMessage(`{"entities":[{"name":"Ada Lovelace","type":"person"}]}`))
	require.NoError(t, err)
	at := time.Date(2026, 1, 18, 11, 30, 0, 0, time.FixedZone("CET", 3600))
	ev := blueprint.ResultEvent{SessionID: "ses_abc123", Timestamp: at, Result: r}
	got, err := json.Marshal(ev)
	require.NoError(t, err)
	assert.Equal(t, `{"event_type":"result","session_id":"ses_abc123","timestamp":"2026-01-18T10:30:00Z","result_text":null,"result_data":{"entities":[{"name":"Ada Lovelace","type":"person"}]}}`, string(got))

	var back blueprint.ResultEvent
	require.NoError(t, json.Unmarshal(got, &back))
	assert.Equal(t, "ses_abc123", back.SessionID)
	assert.True(t, at.Equal(back.Timestamp))
	assert.True(t, back.Result.Structured())

	got, err = json.Marshal(blueprint.ResultEvent{SessionID: "s", Timestamp: at.Add(time.Millisecond)})
	require.NoError(t, err)
	assert.Contains(t, string(got), `"timestamp":"2026-01-18T10:30:00.001Z","result_text":"","result_data":null`)

	assert.Error(t, json.Unmarshal([]byte(`{"event_type":"status","session_id":"s","result_text":"x"}`), &back))
	assert.Error(t, json.Unmarshal([]byte(`{"event_type":"result","result_text":"x","result_data":[1]}`), &back))
	assert.Error(t, json.Unmarshal([]byte(`{"event_type":"result","timestamp":"yesterday","result_text":"x"}`), &back))
}

func TestNewEnforcedResult(t *testing.T) {
	_, err := blueprint.NewEnforcedResult(nil)
	assert.Error(t, err)
	_, err = blueprint.NewEnforcedResult(&enforce.Result{Text: "no json"})
	assert.Error(t, err, "a failed run has no JSON")
	er := &enforce.Result{JSON: json.RawMessage(`{"ok":true}`), Usage: provider.Usage{TotalTokens: 9}}
	r, err := blueprint.NewEnforcedResult(er)
	require.NoError(t, err)
	assert.Same(t, er, r.Enforcement())
	assert.Equal(t, 9, r.Usage().TotalTokens)
	assert.JSONEq(t, `{"ok":true}`, string(r.Data()))
}
