// Package enforcetest checks a provider adapter under the enforcement loop:
// that a streamed run ends as a whole one does, and that a reply wrong
// early is stopped and re-asked. The Streamer contract alone is checked by
// package providertest; these checks add what only the loop shows.
package enforcetest
