package registry_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/registry"
	"github.com/agentio/agentio/registry/registrytest"
)

// TestRegistryConformance runs the registrytest suite on the registries of
// this package (package sqlregistry runs it on SQLite and PostgreSQL).
func TestRegistryConformance(t *testing.T) {
	t.Run("memory", func(t *testing.T) {
		registrytest.Run(t, func(t *testing.T) registry.Registry { return registry.NewMemory() })
	})
	t.Run("dir", func(t *testing.T) {
		registrytest.Run(t, func(t *testing.T) registry.Registry {
			r, err := registry.NewDir(t.TempDir(), nil)
			require.NoError(t, err)
			return r
		})
	})
}
