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
// first, then other fences, then failed attempts of the scan, and a whole
// reply that is a bare scalar), and a repaired candidate ranks after every
// value that parsed as it stood. One scanner reads each broken value once;
// at each shape below it applies one small rule and records a [Fix]: its
// kind, the byte offset, the text it replaced, what it wrote and a note.
// [Candidate.Truncated] tells a value closed at the end of a cut-off reply.
//
//	shape                                   fix kind
//	{"a": 1,} [, 1]                         trailing_comma
//	[1 2], {"a": 1 "b": 2}                  missing_comma
//	{"a" 1}, {"a" true}                     missing_colon
//	// # /* */ comments                     comment
//	'single', “typographic”, `backtick´     single_quote, smart_quote
//	{a: 1}, {"a": New York}, 1/3, 0789      unquoted_key, unquoted_string
//	{"re": /a+b/gi} (its text)              unquoted_string
//	{"a": "b, "c": 1}, [a", "b"]            missing_quote
//	{\"a\": \"b\"}                          escaped_json
//	True, None, undefined                   python_literal
//	NaN, Infinity                           non_finite (to null)
//	.5, 2., 1e, +1, 1_000                   number
//	raw newlines, "say "hi"", C:\x, "\'"    string_escape
//	[1, 2, ...]                             ellipsis
//	{"a": , "b": 1}                         missing_value
//	[1, 2}, (1, 2), {"a":1}, "b":2}         bracket
//	no-break and zero-width spaces          whitespace
//	callback(...); ObjectId("..")           wrapper
//	"a" + "b"                               concatenation
//	{"a": [1, "b                            truncated (and dangling_key)
//
// Each kind of fix is one rule: [RepairRules] lists them, with what each
// recognises and writes and whether some of its readings are guesses (see
// below), and [WithoutRepairRule] turns rules off by their kind.
//
// In the source, the scanner tries rules from a table at each of five
// positions, in the table's order (positions.go): the start of a value
// (valueRules), an object key (keyRules), between the items of a
// container (betweenRules), the blanks between tokens (blankRules) and a
// bare word in a container (wordRules: a regular expression, a call, a
// JSON number, digit separators, a literal, a number in a form JSON
// lacks, an unquoted string). A bare word's first token is read once,
// its bytes sorted into classes, and only the forms that can hold them
// are tried. Each entry names the kinds of fix its rule records and the
// method that applies it, found in the file of its family:
// rules_quotes.go (the string reader), rules_escapes.go, rules_words.go,
// rules_numbers.go, rules_brackets.go, rules_separators.go,
// rules_blanks.go and rules_wrappers.go. Inside a string, in a whole
// reply that is one bare token, and after a key, the rules are still
// tried inline, in those readers.
//
// A whole reply that is one bare token is read when the token can only
// be a value: a number in a form JSON lacks (2., -.3), undefined, NaN, a
// wrapped value (callback_1(2);) or a token that starts like a number but
// is none (0789, 0.0.1, a UUID), kept as a string. A reply of values
// separated by commas is an array without its brackets.
//
// # Guesses and validators
//
// Repair prefers an error to a guess: a wrong value is worse than none,
// since an error makes the caller ask again and a wrong value may pass a
// loose schema. Where the text has two plausible readings, repair reads
// both and, without a validator, yields no candidate:
//
//   - a quote inside a string that may close it: an odd one before a
//     spaced word (["alpha" beta"]), one after a comma before an element of
//     its own (["hello,"world"]), one before a colon in an array
//     (["key":"value"]) or before a lone literal ({"b": "x" true});
//   - a string the reply ends inside, cut before closing brackets, whose
//     text holds a comma (["hello, world]);
//   - a key with neither colon nor value ({'a', 'b'}, {"a",);
//   - a bracket that would close the whole value while text follows
//     ({"a": [1, 2}, "b": 3}, [{...}}, {...}]);
//   - a reply that is only True, False, None, a lone minus, or plain words
//     (She said: no way): a literal or a string only if a validator wants it;
//   - with repair on, a reply that is only several values side by side
//     ({...}\n{...}): the first, the last, all of them? Unless
//     [WithPreferLast] says which, it is an error.
//
// [WithAccept] hands repair the caller's test, such as validation
// against the expected schema: the reading it accepts wins; when it
// accepts both or neither, the value is still an error. The enforcement
// loop passes its schema this way.
//
// Where the test suites of other repair tools disagree, extract chooses:
// an empty or blank reply is an error (not null, not {}); a reply that is
// only True, False or None is a guess, as above (not the literal, not
// always an error); a key left without a value at the end of a cut-off
// reply is dropped ({"a":1,"b": gives {"a":1}), one followed by a comma or
// a closing brace gets null; a quote inside a string ends it only when
// what follows can follow a string; digits with leading zeros (0789) stay text; a raw line
// break just before a closing quote is layout and is dropped; a string
// holding a backslash that starts no JSON escape (\d, C:\Users) was
// written with raw backslashes, so all of its backslashes are kept, those
// of \n and \t included, as are those of a string that starts with a
// drive (C:\users\u1), while \" and \\ stay escapes.
//
// Measured over the shared corpus of 1,318 cases from public JSON-repair
// test suites (cases needing a schema left out; TestCorpusRepairFigures),
// extraction with repair returns the expected value in 83.8% of all cases
// and 99.7% of the 742 cases three or more reference repairers agree on.
// It returns a value other than the expected one in 96 cases (32 of them
// marked truncated, which the enforcement loop never accepts), and 50 of
// the 60 inputs the suites expect to fail are errors. The categories where
// it stays below 60%, bare words, bare Python literals and values side by
// side, are those whose expected value is a guess without a schema.
// Beside kaptinlin/jsonrepair, run over the same corpus in
// benchmarks/repair, extraction with repair passes at least as many cases
// in every category once the cases argued there are counted: bare replies
// (the rule above), keys left without a value at the end of a cut-off
// reply, escapes RFC 8259 reads otherwise, and values side by side.
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
// each broken value once. Two things make repair read bytes again: a
// string the reply ends inside is read to the end before repair knows
// where it should have ended, then read again up to there; and a broken
// value that starts inside another is read by its own repair. Both are
// counted over the search, each against eight times the reply's size and
// 1 MiB more: past that (a reply built to defeat repair), the string being
// read, or any value left, is not repaired. Memory is bounded by the
// candidates' own bytes: no candidate copies more than its span, and a
// repaired one, which may hold the buffer it was built in, holds at most
// twice its length. Inputs longer than [DefaultMaxSize] (or
// [WithMaxSize]) are refused, and nesting deeper than 10000 levels does
// not parse, as in encoding/json.
//
// # Many replies
//
// Each call of [JSON] or [Candidates] allocates the memory its search
// needs: the repair's output, its record of fixes, the lists of values
// found. An [Extractor] does what they do, with the same options and
// results, and keeps that memory for its next call, up to 8 MiB: a
// program that extracts from many replies keeps one per goroutine, and
// each repair then allocates little beyond the candidate it returns.
//
//	var x extract.Extractor
//	for reply := range replies {
//		c, err := x.JSON(reply, extract.WithRepair())
//		...
//	}
//
// The package functions are safe for concurrent use; nothing is shared
// between their calls. An Extractor is used by one goroutine at a time,
// and what it returns is the caller's.
package extract
