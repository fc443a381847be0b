package schema_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
	"github.com/agentio/agentio/schema/registrytest"
)

// TestRegistryConformance runs the registrytest suite on the registries of
// this package (package sqlregistry runs it on SQLite and PostgreSQL).
func TestRegistryConformance(t *testing.T) {
	t.Run("memory", func(t *testing.T) {
		registrytest.Run(t, func(t *testing.T) schema.Registry { return schema.NewMemoryRegistry() })
	})
	t.Run("dir", func(t *testing.T) {
		registrytest.Run(t, func(t *testing.T) schema.Registry {
			r, err := schema.NewDirRegistry(t.TempDir(), nil)
			require.NoError(t, err)
			return r
		})
	})
}
