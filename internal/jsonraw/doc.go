// Package jsonraw reads and writes JSON text as raw bytes, without decoding
// it: it splits an object into its members in document order, keeping each
// value as the bytes the document holds, writes members back as an object
// in the order given, quotes and unquotes strings, and finds where in a
// document the value at a path is ([Locate], [LineCol]) for messages that
// name a line and column. encoding/json cannot split or write an object
// so: a map loses the key order and the duplicate keys, and
// [json.Decoder.Token] is slow. Start with [Members]:
//
//	members, err := jsonraw.Members([]byte(`{"b": 1, "a": [true]}`))
//	// members[0] is {Key: "b", Value: `1`}, members[1] is {Key: "a", Value: `[true]`}
//	out := jsonraw.Encode(members) // {"b":1,"a":[true]}
//
// The package is shared plumbing of agentio: blueprint reads agent.json
// with it, enforce wraps a schema's root and unwraps the value, inputs
// renders a parameters object, and schema writes its JSON strings with
// [AppendString].
//
// # Duplicate keys
//
// [Members] returns every member, a key given twice included, each in its
// place: what a duplicate means differs between callers (an error for a
// blueprint, the last value for enforce, as encoding/json reads it), so
// each caller applies its own rule.
//
// # Speed
//
// [Members] checks the whole document once with [json.Valid], then splits it
// with a hand-written scan that trusts that check: no [json.Decoder], no
// token values, one allocation per key at most (none for the values, which
// alias the input) and a few for the slice. [Unquote], [DecodeRune] and
// [AppendString] are the string steps of that scan, shared with callers
// that render JSON strings themselves.
//
// # Errors
//
// Data that is not exactly one JSON value gives a [*SyntaxError], which
// wraps encoding/json's *json.SyntaxError (and so its byte offset); a JSON
// value that is not an object gives [ErrNotObject]. Their texts carry the
// "jsonraw: " prefix; callers that show them to users put the words in
// their own error (see [SyntaxError.Reason]).
//
// # Concurrency
//
// The package has no state: every function is safe for concurrent use.
package jsonraw
