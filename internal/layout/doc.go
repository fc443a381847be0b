// Package layout keeps the repository's package graph in the shape the
// root package's doc draws. It has no code: its tests read every Go file's
// imports and fail when
//
//   - an import runs up the layers, which layers_test.go writes once, as
//     data, or a package is in no layer (TestLayers);
//   - the root doc.go's package list or the README's package table leaves
//     out a package, or lists one there is not (TestPackageMap);
//   - a nested library module imports an internal/ package of another
//     module (tests included), which would break it the day the two are
//     released apart; the example programs, which nobody imports, may use
//     the root's test helpers;
//   - an internal/ package imports a package of ours outside the tree it
//     serves: the root's internal/ packages import only other internal/
//     packages, and X/internal/ packages import only packages under X;
//   - the root module depends on more than the standard library,
//     jsonschema-go and, in tests, testify.
package layout
