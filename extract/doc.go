// Package extract finds the JSON value in a model's reply: the whole text, a
// fenced block, or a balanced value found by one scan of the prose, and, only
// when asked, repairs a value that does not parse. Start with [JSON];
// [Candidates] lists every value found, best first.
//
//	c, err := extract.JSON(reply)
//	if errors.Is(err, extract.ErrNoJSON) {
//		var re *extract.ReplyError
//		errors.As(err, &re)
//		reask(re.Description) // e.g. `no JSON value found; the reply began with "I'm sorry..."`
//	}
//	use(c.JSON)
//
// # Strategies
//
// Reasoning blocks (<think>...</think>, <thinking>...</thinking>) are skipped
// first: a block is text between an opening and a closing tag; a reply that
// starts with an opening tag never closed ends inside its reasoning; a
// closing tag with no opening tag before it ends a reasoning block that
// started the reply. A reply that parses as JSON as a whole is taken as it
// stands, tags or not.
//
// Then, in order, the first strategy that finds a value wins:
//
//  1. the whole text, less blanks and reasoning blocks ([SourceWhole]);
//  2. fenced blocks labelled json (also JSON, jsonc, json5, ...), then other
//     fenced blocks ([SourceFence]); a block the reply ends inside runs to the
//     end of the text. A block may hold a value and then a note: the value is
//     taken and the note scanned. A json block that opens with '{' or '['
//     but does not parse is the model's broken answer: it is not searched
//     for smaller values, only repaired (with [WithRepair]);
//  3. a scan of the remaining prose for '{' and '[' ([SourceScan]). From each
//     one it reads a JSON value with a full parser, so braces and brackets
//     inside strings cannot derail it. A value that parses is a candidate; one
//     that does not is a failed attempt, and the scan resumes where parsing
//     stopped, so values that begin before that point (fragments of the
//     broken one) are not candidates. Values after it may be: without repair,
//     the [1, 2] of {"a": 'x', "b": [1, 2]} is found. With [WithRepair] the
//     broken value is repaired whole and such fragments rank after it.
//
// Among the values one strategy finds, the first wins, or the last with
// [WithPreferLast]. The whole text and fenced blocks may hold any JSON value,
// the scan finds objects and arrays; [WithObjectsOnly] accepts objects alone.
//
// # Strict mode
//
// [WithStrictJSONOnly] requires the reply to be the JSON value alone:
// otherwise [JSON] returns an error matching [ErrNonJSONText] that quotes the
// text around the value. Blanks and reasoning blocks are allowed, and so is
// a reply that is exactly one fenced block labelled json or unlabelled: the
// fence is formatting, not prose, and asking again would cost a model call
// to learn nothing.
//
// # Repair
//
// [WithRepair] turns on repair, off by default. Text that parses is never
// changed: repair runs on the values that failed to parse (a json fence
// first, then other fences, then failed attempts of the scan), and a
// repaired candidate ranks after every value that parsed as it stood. It
// fixes trailing, leading and missing commas, missing colons, comments (//,
// # and /* */), single and typographic quotes, unquoted keys and bare-word
// strings, Python and JavaScript literals, NaN and Infinity (to null), raw
// newlines, tabs and quotes inside strings, invalid escapes, numbers in forms
// JSON lacks, "..." placeholders, mismatched brackets, escaped JSON
// (\"key\": ...), and truncated replies: open strings, arrays and objects are
// closed and a key left without a value is dropped. Each change is a [Fix]
// with its kind and byte offset; [Candidate.Truncated] tells a value closed
// at the end of a cut-off reply. Text that repair cannot read as one value
// (prose in braces, say) yields no candidate.
//
// Where the test suites of other repair tools disagree, extract chooses:
// a key left without a value at the end of a cut-off reply is dropped
// ({"a":1,"b": gives {"a":1}), one followed by a comma or a closing brace
// gets null; of several values the first (or last) is returned, never an
// array of them; a quote inside a string ends it only when what follows can
// follow a string; digits with leading zeros (0789) stay text; and a reply
// that is a bare word (True, None, 0789) is prose, not a value to repair.
//
// # Errors
//
// [JSON] returns a [*ReplyError] matching [ErrNoJSON] or [ErrNonJSONText],
// whose Description is written for the model: what the reply began with, or
// where and why the value it wrote does not parse. [ErrTooLarge] and
// [ErrInvalidOption] come wrapped with the values at fault.
//
// # Limits
//
// Extraction is linear in the input: a fixed number of passes, a scan that
// resumes where each broken value stopped parsing, and repair that reads
// each broken value once. Memory is bounded by the candidates' own bytes:
// no candidate copies more than its span. Inputs longer than
// [DefaultMaxSize] (or [WithMaxSize]) are refused, and nesting deeper than
// 10000 levels does not parse, as in encoding/json.
//
// All functions are safe for concurrent use; nothing is shared between calls.
package extract
