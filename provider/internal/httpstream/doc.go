// Package httpstream runs the streamed calls of the adapters written with
// net/http alone (provider/openaicompat, provider/ollama): what their
// Stream methods share around reading their own wire formats. A call's
// context is cancelled and its body closed when the caller stops.
package httpstream
