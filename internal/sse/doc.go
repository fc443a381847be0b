// Package sse reads server-sent events (the text/event-stream format of
// the HTML standard) from a streamed body, with a bound on a line's and an
// event's size. The Chat Completions adapter reads its streams with it.
package sse
