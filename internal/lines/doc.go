// Package lines reads a streamed body line by line with a bound on a
// line's length, so that a server sending one endless line cannot make its
// reader buffer without limit. The streaming adapters read NDJSON with it,
// and server-sent events through package internal/sse.
package lines
