// Package readme keeps the repository's README.md honest. It has no code:
// its tests compile and run every Go snippet the README shows (each marked
// `<!-- snippet: NAME -->` there and `// snippet: NAME` ... `// end snippet`
// in a test file), and fail when the README and the tested code drift apart.
package readme
