// Package layout keeps the repository's package graph in the shape
// DESIGN.md draws. It has no code: its tests read every Go file's imports
// and fail when
//
//   - a nested library module imports an internal/ package of another
//     module (tests included), which would break it the day the two are
//     released apart; the example programs, which nobody imports, may use
//     the root's test helpers;
//   - an internal/ package imports a package of ours outside the tree it
//     serves: the root's internal/ packages import only other internal/
//     packages, and X/internal/ packages import only packages under X.
package layout
