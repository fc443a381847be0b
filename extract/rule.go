package extract

import (
	"fmt"
	"slices"
)

// A RepairRule describes one rule of repair, named by the kind of fix it
// records: what it recognises in a reply, what it writes instead, and
// whether some of its readings are guesses. [RepairRules] lists them all
// and [WithoutRepairRule] turns one off.
type RepairRule struct {
	// Kind is the kind of fix the rule records, and its name.
	Kind FixKind
	// Recognises says what text the rule repairs.
	Recognises string
	// Writes says what the rule writes in its place.
	Writes string
	// MayChangeMeaning is true for a rule that, at some shapes, reads text
	// with two plausible readings (where a string ends, whether a bracket
	// closes the whole value, whether a bare word is a value). Such a
	// reading is a guess: it is applied only when the caller's validator
	// ([WithAccept]) accepts it and not the other, never without one.
	MayChangeMeaning bool
}

// repairRules is the table of repair rules, one per kind of fix, in the
// order of the kinds' declarations.
var repairRules = [...]RepairRule{
	{FixTrailingComma, "a comma with no member or element after it (or before it)", "nothing", false},
	{FixMissingComma, "two members or elements with no comma between them", "a comma", false},
	{FixMissingColon, "a key and its value with no colon between them ({\"a\" 1}, {a 'b'})", "a colon", false},
	{FixComment, "a //, # or /* */ comment", "nothing", false},
	{FixSingleQuote, "a string in single quotes", "the string in double quotes", false},
	{FixSmartQuote, "a string in typographic quotes or backticks", "the string in double quotes", false},
	{FixUnquotedKey, "a key without quotes", "the key quoted", false},
	{FixUnquotedString, "a bare word, phrase or regular expression standing for a string; a reply in plain words", "the text quoted", true},
	{FixMissingQuote, "a string's missing opening or closing quote", "the quote, where the string ends", true},
	{FixEscapedJSON, "a value written as escaped JSON text (\\\"key\\\")", "the value unescaped", false},
	{FixPythonLiteral, "True, False, None, TRUE, Null, undefined", "true, false or null", true},
	{FixStringEscape, "raw control characters, unescaped quotes, invalid escapes and raw backslashes inside a string", "their JSON escapes", true},
	{FixNonFinite, "NaN, Infinity, -Infinity", "null", false},
	{FixNumber, "numbers in a form JSON lacks (+1, .5, 2., 1e, 1_000, a lone minus)", "the number in JSON's form", true},
	{FixEllipsis, "a ... or … placeholder for omitted items", "nothing", false},
	{FixMissingValue, "a key without a value before a ',' or '}'", "null", true},
	{FixDanglingKey, "a key the text ends after, with no value", "nothing: the key is dropped", false},
	{FixBracket, "a missing, mismatched, stray or early closing bracket; a tuple; values separated by commas", "the bracket that closes the container", true},
	{FixWhitespace, "a space character JSON does not allow between tokens", "nothing", false},
	{FixWrapper, "a function call around a value (callback(...), ObjectId(\"...\")) or a final ';'", "the value alone", false},
	{FixConcatenation, "strings joined with + (\"a\" + \"b\")", "one string", false},
	{FixTruncated, "a string, array or object the text ends inside", "its closing quote or brackets", false},
}

// RepairRules returns the rules [WithRepair] applies, one per kind of fix,
// as a new slice the caller owns.
func RepairRules() []RepairRule { return slices.Clone(repairRules[:]) }

// ruleIndex returns the position of kind in repairRules, or -1.
func ruleIndex(kind FixKind) int {
	for i, r := range repairRules {
		if r.Kind == kind {
			return i
		}
	}
	return -1
}

// WithoutRepairRule turns off the repair rules of the given kinds: under
// [WithRepair], a value that needs a fix of one of them is not repaired
// (it yields no candidate, as text repair cannot read). Other rules still
// apply. A kind that names no rule of [RepairRules] makes the call return
// an error matching [ErrInvalidOption].
func WithoutRepairRule(kinds ...FixKind) Option {
	return func(c *config) error {
		for _, k := range kinds {
			i := ruleIndex(k)
			if i < 0 {
				return fmt.Errorf("%w: WithoutRepairRule(%q): no such repair rule", ErrInvalidOption, k)
			}
			c.rulesOff |= 1 << i
		}
		return nil
	}
}

// ruleSet is a set of repair rules, by their index in repairRules.
type ruleSet uint32

// refused reports whether a fix the repairer kept is of a rule turned
// off.
func (r *repairer) refused() bool {
	if r.off == 0 {
		return false
	}
	for i := range r.fixes.len() {
		if r.off&(1<<ruleIndex(r.fixKind(i))) != 0 {
			return true
		}
	}
	return false
}
