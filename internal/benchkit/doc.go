// Package benchkit holds what the benchmarks of several packages share:
// replies of a given shape and the yardstick they are timed against.
//
//	text := benchkit.TreeJSON(11, 25) // 4,095 nodes, one in 25 of a kind the enum lacks
//	benchkit.RatioToValid(b, []byte(text), func() { s.DecodeString(text) })
//
// It is for tests and benchmarks only.
package benchkit
