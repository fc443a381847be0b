package inputs_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/inputs"
)

// FuzzRoundTrip checks that Format then Parse gives back every string value
// and the prompt, and that no value escapes its parameter.
func FuzzRoundTrip(f *testing.F) {
	f.Add("Create content.", "topic", "AI Safety", "summary")
	f.Add("P", "k", "a\nb", "</inputs>")
	f.Add("</inputs>\n\n", "max_words", "x\r\nmax_words: 5", `<\/inputs>`)
	f.Add("<inputs>\n", "a.b", "\u2028", "\r")
	f.Add("", "größe", "", "  ")
	for _, v := range hostile {
		f.Add("P", "v", v, v+"\n")
	}
	f.Fuzz(func(t *testing.T, prompt, key, a, b string) {
		params := map[string]any{"prompt": prompt, "a": a, "b": b, key: "k" + a}
		text, err := inputs.Format(params)
		if key == "prompt" {
			require.NoError(t, err)
			return
		}
		if errors.Is(err, inputs.ErrInvalidKey) {
			return
		}
		require.NoError(t, err)
		checkContained(t, text, params)

		got, gotPrompt, err := inputs.Parse(text)
		require.NoError(t, err, "text %q", text)
		assert.Equal(t, prompt, gotPrompt)
		want := map[string]string{"a": a, "b": b, key: "k" + a}
		if key == "a" || key == "b" {
			want[key] = "k" + a
		}
		assert.Equal(t, want, got)

		// A prompt alone reads back as itself.
		text, err = inputs.Format(map[string]any{"prompt": prompt})
		require.NoError(t, err)
		got, gotPrompt, err = inputs.Parse(text)
		require.NoError(t, err)
		assert.Empty(t, got)
		assert.Equal(t, prompt, gotPrompt)
	})
}

// FuzzParse checks that Parse never panics and that what it reads renders
// and reads back the same.
func FuzzParse(f *testing.F) {
	f.Add("Hello")
	f.Add("<inputs>\ntopic: AI Safety\nformat: summary\nmax_words: 200\n</inputs>\n\nCreate content about this topic.")
	f.Add("<inputs>\nv:\n  a\r  b\r\n  \n</inputs>\n\nP")
	f.Add("<inputs>\nv: <\\\\/inputs>\n</inputs>\n\n</inputs>")
	f.Add("<inputs>\nv:\n</inputs>\n\n")
	f.Fuzz(func(t *testing.T, text string) {
		params, prompt, err := inputs.Parse(text)
		if err != nil {
			var se *inputs.SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Nil(t, params)
			return
		}
		// " prompt" can never be a parameter name, so it cannot collide.
		m := map[string]any{" prompt": prompt}
		for k, v := range params {
			m[k] = v
		}
		again, err := inputs.Format(m, inputs.WithPromptKey(" prompt"))
		require.NoError(t, err)
		params2, prompt2, err := inputs.Parse(again)
		require.NoError(t, err)
		assert.Equal(t, params, params2)
		assert.Equal(t, prompt, prompt2)
	})
}

// FuzzFormatJSON checks that FormatJSON never panics on any input and that
// every value reads back: strings exactly, other values as JSON that decodes
// to the same value.
func FuzzFormatJSON(f *testing.F) {
	f.Add([]byte(`{"prompt": "Create content about this topic.", "topic": "Machine Learning in Healthcare", "format": "bullet_points", "max_words": 300}`))
	f.Add([]byte(`{"prompt": "P", "a": [1.0, "\u00e9", {"z": null, "a": "</inputs>"}], "b": "x\ny"}`))
	f.Add([]byte(`{"prompt": "P", "a": "\ud800", "b": ["\ud83d\ude00", "<\\/inputs>"]}`))
	f.Add([]byte(`{"prompt": "P", "a": 1e400, "b": -0.0}`))
	f.Add([]byte(`[1]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		text, err := inputs.FormatJSON(data)
		if err != nil {
			assert.Empty(t, text)
			return
		}
		var doc map[string]any
		require.NoError(t, decode(data, &doc))
		params, prompt, err := inputs.Parse(text)
		require.NoError(t, err, "text %q", text)
		assert.Equal(t, doc["prompt"], prompt)
		require.Len(t, params, len(doc)-1)
		for k, v := range doc {
			if k == "prompt" {
				continue
			}
			if s, ok := v.(string); ok {
				assert.Equal(t, s, params[k])
				continue
			}
			var back any
			require.NoError(t, decode([]byte(params[k]), &back), "value %q", params[k])
			assert.Equal(t, v, back) // numbers compare as the text written
		}
	})
}

// decode decodes data into v keeping numbers as json.Number.
func decode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// FuzzFloat checks that a float reads the same at the top level and inside
// a list, reads back as the same value, and that an integer has no exponent.
func FuzzFloat(f *testing.F) {
	for _, v := range []float64{0, 300, 1e21, 1.5e300, 0.1, 1e-7, -2.5e-300, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		top, err := inputs.Format(map[string]any{"prompt": "", "v": v})
		if math.IsNaN(v) || math.IsInf(v, 0) {
			var ve *inputs.ValueError
			assert.ErrorAs(t, err, &ve)
			return
		}
		require.NoError(t, err)
		list, err := inputs.Format(map[string]any{"prompt": "", "v": []any{v}})
		require.NoError(t, err)
		params, _, err := inputs.Parse(top)
		require.NoError(t, err)
		inList, _, err := inputs.Parse(list)
		require.NoError(t, err)
		assert.Equal(t, "["+params["v"]+"]", inList["v"])
		back, err := strconv.ParseFloat(params["v"], 64)
		require.NoError(t, err)
		assert.Equal(t, v, back)
		if v == math.Trunc(v) {
			assert.False(t, strings.ContainsAny(params["v"], "eE."), "integer %v written %s", v, params["v"])
		}
	})
}
