package blueprint_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/internal/golden"
)

// TestErrorsGolden renders the text and JSON of every error the package
// builds, for review in testdata/errors.golden.
func TestErrorsGolden(t *testing.T) {
	var b strings.Builder
	add := func(title string, err error) {
		require.Error(t, err, title)
		b.WriteString("== " + title + "\n" + err.Error() + "\n")
		if m, ok := err.(json.Marshaler); ok {
			data, jerr := m.MarshalJSON()
			require.NoError(t, jerr)
			b.WriteString(string(data) + "\n")
		}
		b.WriteString("\n")
	}
	firstField := func(err error) error {
		var fe *blueprint.FieldError
		require.ErrorAs(t, err, &fe)
		return fe
	}

	_, err := blueprint.Parse([]byte(`{"name":"a","output_schema":{"type":"object","properties":{"n":{"type":"integer","minimum":"zero"}}}}`))
	add("output schema does not compile", firstField(err))
	_, err = blueprint.Parse([]byte(`{"name":"a","default_output_schema":{"type":"array"}}`))
	add("output schema not an object", firstField(err))
	_, err = blueprint.Parse([]byte(`{"name":"my agent","type":"reactive","default_output_schema_options":{"max_retries":-1,"retry":2}}`))
	add("several bad fields", err)
	_, err = blueprint.Parse([]byte(`{"name":"a","parameters_schema":false}`))
	add("parameters schema cannot take a prompt", firstField(err))
	_, err = blueprint.LoadDir(filepath.Join("testdata", "broken"))
	add("LoadDir", err)

	ctx := context.Background()
	_, err = blueprint.ResolveOutputSchema(ctx, nil, blueprint.RunSpec{Name: "nonexistent-schema"}, mapRegistry{})
	var nf *blueprint.SchemaNotFoundError
	require.ErrorAs(t, err, &nf)
	add("schema not found", nf)
	_, err = blueprint.ResolveOutputSchema(ctx, nil, blueprint.RunSpec{Inline: mustSchema(t, `{}`), Name: "x"}, nil)
	add("inline and name", err)
	_, err = blueprint.ResolveOutputSchema(ctx, nil, blueprint.RunSpec{Options: blueprint.OutputOptions{MaxRetries: ptr(-2)}}, nil)
	add("bad run option", err)

	err = loadAgent(t, "parametric-agent").ValidateParameters(map[string]any{"prompt": "p", "topic": 3, "format": "poem"})
	var pe *blueprint.ParameterError
	require.True(t, errors.As(err, &pe))
	add("parameters", pe)

	golden.Check(t, "errors", b.String())
}
