// Package registrytest checks that a [registry.Registry] implementation
// behaves as the interface documents, as testing/fstest does for file
// systems. Every registry of this module runs it; so can yours:
//
//	func TestRegistry(t *testing.T) {
//		registrytest.Run(t, func(t *testing.T) registry.Registry { return newMyRegistry(t) })
//	}
//
// When the registry is a [registry.ConditionalRegistry], its conditional
// writes are checked too.
package registrytest
