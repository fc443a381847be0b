package blueprint_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/enforce"
)

func TestEffectiveOptionsEnforceOptions(t *testing.T) {
	_, err := blueprint.EffectiveOptions{ValidationMode: blueprint.ValidationLenient}.EnforceOptions()
	assert.ErrorIs(t, err, blueprint.ErrLenientUnsupported)
	_, err = blueprint.EffectiveOptions{ValidationMode: "other"}.EnforceOptions()
	assert.ErrorIs(t, err, enforce.ErrInvalidOption)
	opts, err := blueprint.DefaultOptions().EnforceOptions()
	require.NoError(t, err)
	_, err = enforce.New(mustSchema(t, `{"type":"object","properties":{}}`), opts...)
	assert.NoError(t, err)
	var none blueprint.Resolution
	_, err = none.Enforcer()
	assert.ErrorIs(t, err, enforce.ErrInvalidRequest, "no schema, no enforcer")
}
