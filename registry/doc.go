// Package registry stores compiled schemas by name, so that a run can ask
// for its output schema ("code-review-findings") instead of sending it
// inline.
//
// A [Registry] is the interface every store implements: [NewMemory] keeps
// entries in memory, [NewDir] in a folder, one <name>.json file each,
// written atomically; package sqlregistry keeps them in a database/sql
// table, and package registryhttp serves any Registry over HTTP. Each of
// them is also a [ConditionalRegistry], whose writes can be made
// conditional on the version stored.
//
//	r := registry.NewMemory()
//	err := r.Put(ctx, &registry.Entry{Name: "code-review-findings", Schema: s})
//	e, err := r.Get(ctx, "code-review-findings")
//
// # Errors
//
// Get and Delete of an unknown name match [ErrNotFound]; a name
// [Entry.Name] does not allow matches [ErrInvalidName]; a conditional
// write whose version is not the one stored matches [ErrModified]. A file
// of a directory registry that cannot be read as an entry is a
// [*CorruptEntryError].
//
// # Writing a registry
//
// Package registrytest holds the conformance kit every implementation must
// pass: call registrytest.Run from a test with a constructor of fresh,
// empty registries.
package registry
