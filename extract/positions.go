package extract

import (
	"math/bits"
	"strings"
)

// This file holds the scanner's positions, each with the ordered table of
// the rules tried there: at the start of a value ([valueRules]), at an
// object key ([keyRules]), between the items of a container
// ([betweenRules]), in the blanks between tokens ([blankRules]) and at a
// bare word, a value in a container that no quote or bracket starts
// ([wordRules]). Each
// entry names the kinds of fix its rule may record and the method that
// applies it, which lives in the rules_*.go file of its family (the
// containers' and the plain JSON number's, which are JSON's own forms, in
// repair.go). At each
// position the scanner tries the entries whose first bytes match the
// text, in the table's order, through an index from a byte to those
// entries built once, at init, and only read after.
//
// An entry is applied by a switch on its place in the table, which calls
// its method directly: called through the table's function value, a
// method would make the repairer, and the finder holding it, escape to
// the heap, one allocation per call. TestRuleTablesApply holds each
// switch to its table.

// A valueRule is an entry of [valueRules] or [keyRules]: a form a value or
// a key may take, and the method that reads it. read reports whether the
// rule applied (when not, it read nothing, and the next entry is tried)
// and, if so, whether it read a value.
type valueRule struct {
	kinds   []FixKind // the kinds of fix the rule may record; none for JSON's own forms
	starts  string    // the bytes the form may start with; "" for any byte
	topOnly bool      // tried only for a whole reply (roleTop)
	read    func(r *repairer, where role) (ok, applied bool)
}

// valueRules are the rules tried at the start of a value, in order; the
// first that applies reads it. A whole reply that none before reads is a
// bare reply, a value inside a container a bare word.
var valueRules [10]valueRule

// The entries of [valueRules], by their place.
const (
	valueObject = iota
	valueArray
	valueDoubleQuoted
	valueSingleQuoted
	valueBacktick
	valueSmartQuoted
	valueEscapedJSON
	valueTuple
	valueBareReply
	valueBareWord
)

// keyRules are the rules tried at an object key, in order.
var keyRules [6]valueRule

// The entries of [keyRules], by their place.
const (
	keyDoubleQuoted = iota
	keySingleQuoted
	keyBacktick
	keySmartQuoted
	keyEscapedJSON
	keyUnquoted
)

// A betweenRule is an entry of [betweenRules]: what may stand before the
// next item of a container, and the method that reads it. read reports
// whether the rule applied and, if so, whether it closed the container;
// a rule that applied without closing it leaves reading to go on. The
// arguments are those of [repairer.between].
type betweenRule struct {
	kinds  []FixKind
	starts string
	read   func(r *repairer, closer byte, count int, comma *int) (closed, applied bool)
}

// betweenRules are the rules tried between the items of a container,
// after blanks and before the end of the text ([repairer.leftOpen]), in
// order. A byte none applies to starts the next item.
var betweenRules [5]betweenRule

// The entries of [betweenRules], by their place.
const (
	betweenEarlyBrace = iota
	betweenClosingBracket
	betweenMismatchedBracket
	betweenComma
	betweenEllipsis
)

// A wordRule is an entry of [wordRules]: a form a bare word may take, and
// the method that reads it. Most forms are told by the word's first token
// (see [bareToken]), read once for them all: holds says which classes of
// bytes that token may hold for the form to apply, and an entry is tried
// only when it holds no others. read reports whether the rule applied
// and, if so, whether it read a value.
type wordRule struct {
	kinds  []FixKind
	starts string    // the bytes the word may start with
	token  bool      // the rule reads the first token, and holds applies
	holds  wordClass // the classes of bytes the first token may hold
	read   func(r *repairer, where role, w *bareToken) (ok, applied bool)
}

// wordRules are the forms of a bare word, in order: the rules tried at a
// value in a container where no rule of [valueRules] before the bare-word
// entry applies.
var wordRules [7]wordRule

// The entries of [wordRules], by their place.
const (
	wordRegexp = iota
	wordCall
	wordNumber
	wordDigitSeparators
	wordLiteral
	wordNearNumber
	wordUnquoted
)

// A blankRule is an entry of [blankRules]: something that may stand
// between tokens besides JSON's whitespace, and the method that drops it.
// skip reports whether the rule applied.
type blankRule struct {
	kinds  []FixKind
	starts string
	skip   func(r *repairer) bool
}

// blankRules are the rules tried in the blanks between tokens, after
// JSON's own whitespace, in order.
var blankRules [3]blankRule

// The entries of [blankRules], by their place.
const (
	blankLineComment = iota
	blankBlockComment
	blankOddSpace
)

// The indexes from a byte to the entries of each table that may start
// with it, as bit sets of the entries' positions, and the bytes
// [repairer.skipBlanks] may skip or drop from. They are built at init
// from the tables and only read after.
var (
	valueAt    [256]uint16
	keyAt      [256]uint8
	betweenAt  [256]uint8
	blankAt    [256]uint8
	wordAt     [256]uint8
	blankStart [256]bool
)

// The tables name methods that read values, which read the tables: they
// are filled here rather than where they are declared, where Go would
// see an initialization cycle.
func init() {
	quoted := []FixKind{FixStringEscape, FixMissingQuote, FixConcatenation, FixTruncated}
	quotedAnd := func(k FixKind) []FixKind { return append([]FixKind{k}, quoted...) }
	doubleQuoted := valueRule{quoted, `"`, false, (*repairer).doubleQuoted}
	singleQuoted := valueRule{quotedAnd(FixSingleQuote), "'", false, (*repairer).singleQuoted}
	backtick := valueRule{quotedAnd(FixSmartQuote), "`", false, (*repairer).backtick}
	smartQuoted := valueRule{quotedAnd(FixSmartQuote), "\xe2", false, (*repairer).smartQuoted}
	escapedJSON := valueRule{[]FixKind{FixEscapedJSON, FixStringEscape, FixTruncated, FixWrapper, FixTrailingComma}, `\`, false, (*repairer).escapedJSON}
	valueRules = [...]valueRule{
		valueObject:       {nil, "{", false, (*repairer).openObject},
		valueArray:        {nil, "[", false, (*repairer).openArray},
		valueDoubleQuoted: doubleQuoted,
		valueSingleQuoted: singleQuoted,
		valueBacktick:     backtick,
		valueSmartQuoted:  smartQuoted,
		valueEscapedJSON:  escapedJSON,
		valueTuple:        {[]FixKind{FixBracket}, "(", false, (*repairer).tuple},
		valueBareReply:    {[]FixKind{FixPythonLiteral, FixNonFinite, FixNumber, FixUnquotedString, FixWrapper, FixTrailingComma}, "", true, (*repairer).bareReply},
		valueBareWord:     {[]FixKind{FixPythonLiteral, FixNonFinite, FixNumber, FixUnquotedString, FixMissingQuote, FixWrapper}, "", false, (*repairer).bareWord},
	}
	keyRules = [...]valueRule{
		keyDoubleQuoted: doubleQuoted,
		keySingleQuoted: singleQuoted,
		keyBacktick:     backtick,
		keySmartQuoted:  smartQuoted,
		keyEscapedJSON:  escapedJSON,
		keyUnquoted:     {[]FixKind{FixUnquotedKey, FixMissingQuote}, "", false, (*repairer).unquotedKey},
	}
	betweenRules = [...]betweenRule{
		betweenEarlyBrace:        {[]FixKind{FixBracket}, "}", (*repairer).earlyBrace},
		betweenClosingBracket:    {[]FixKind{FixTrailingComma}, "}]", (*repairer).closingBracket},
		betweenMismatchedBracket: {[]FixKind{FixBracket, FixTrailingComma}, "}]", (*repairer).mismatchedBracket},
		betweenComma:             {[]FixKind{FixTrailingComma}, ",", (*repairer).comma},
		betweenEllipsis:          {[]FixKind{FixEllipsis}, ".\xe2", (*repairer).ellipsis},
	}
	blankRules = [...]blankRule{
		blankLineComment:  {[]FixKind{FixComment}, "/#", (*repairer).lineComment},
		blankBlockComment: {[]FixKind{FixComment}, "/", (*repairer).blockComment},
		blankOddSpace:     {[]FixKind{FixWhitespace}, oddSpaceStarts, (*repairer).oddSpace},
	}
	// A literal's letters, and the bytes a name may start with.
	const literalStarts, nameStarts = "tfnTFNuIi+-", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_.$"
	const numberStarts, nearNumberStarts = "-0123456789", "+-.0123456789"
	wordRules = [...]wordRule{
		wordRegexp:          {[]FixKind{FixUnquotedString}, "/", false, 0, (*repairer).regexpWord},
		wordCall:            {[]FixKind{FixWrapper}, nameStarts, true, anyClass, (*repairer).callWord},
		wordNumber:          {nil, numberStarts, true, numeric, (*repairer).plainNumber},
		wordDigitSeparators: {[]FixKind{FixNumber}, numberStarts, true, numeric | classUnderscore, (*repairer).digitSeparators},
		wordLiteral:         {[]FixKind{FixPythonLiteral, FixNonFinite}, literalStarts, true, classLetter | classExp | classSign, (*repairer).literalWord},
		wordNearNumber:      {[]FixKind{FixNumber}, nearNumberStarts, true, numeric, (*repairer).nearNumber},
		wordUnquoted:        {[]FixKind{FixUnquotedString, FixMissingQuote}, unquotedStarts, true, anyClass, (*repairer).unquotedWord},
	}
	for i, e := range valueRules {
		index(valueAt[:], e.starts, uint16(1)<<i)
	}
	for i, e := range keyRules {
		index(keyAt[:], e.starts, uint8(1)<<i)
	}
	for i, e := range betweenRules {
		index(betweenAt[:], e.starts, uint8(1)<<i)
	}
	for i, e := range blankRules {
		index(blankAt[:], e.starts, uint8(1)<<i)
	}
	for i, e := range wordRules {
		index(wordAt[:], e.starts, uint8(1)<<i)
	}
	for c := range blankStart {
		blankStart[c] = isSpace(byte(c)) || blankAt[c] != 0
	}
}

// oddSpaceStarts lists the bytes the space characters of [isOddSpace]
// start with in UTF-8: C2 (U+00A0), E1 (U+1680, U+180E), E2 (U+2000 to
// U+205F), E3 (U+3000) and EF (U+FEFF).
const oddSpaceStarts = "\xc2\xe1\xe2\xe3\xef"

// unquotedStarts lists the bytes an unquoted string may start with: all
// but control characters, the delimiters that end a value, and the '/' and
// '#' of comments.
var unquotedStarts = func() string {
	b := make([]byte, 0, 0x100)
	for c := 0x20; c < 0x100; c++ {
		if strings.IndexByte(unquotedNever, byte(c)) < 0 {
			b = append(b, byte(c))
		}
	}
	return string(b)
}()

// unquotedNever lists the printable bytes no unquoted string starts with.
const unquotedNever = ",:}]/#"

// index adds bit to at[c] for each byte c of starts, or for every byte
// when starts is "".
func index[T uint8 | uint16](at []T, starts string, bit T) {
	if starts == "" {
		for c := range at {
			at[c] |= bit
		}
		return
	}
	for i := 0; i < len(starts); i++ {
		at[starts[i]] |= bit
	}
}

// value repairs one value at r.pos (after blanks), by the first rule of
// [valueRules] that applies there.
func (r *repairer) value(where role) bool {
	r.skipBlanks()
	return r.valueHere(where)
}

// valueHere is [repairer.value] where the blanks were skipped: skipping
// them again, where skipping stopped, would drop nothing.
func (r *repairer) valueHere(where role) bool {
	if r.eof() {
		return false
	}
	for m := valueAt[r.text[r.pos]]; m != 0; m &= m - 1 {
		i := bits.TrailingZeros16(m)
		if valueRules[i].topOnly && where != roleTop {
			continue
		}
		if ok, applied := r.valueRule(i, where); applied {
			return ok
		}
	}
	return false
}

// valueRule applies entry i of [valueRules].
func (r *repairer) valueRule(i int, where role) (ok, applied bool) {
	switch i {
	case valueObject:
		return r.openObject(where)
	case valueArray:
		return r.openArray(where)
	case valueDoubleQuoted:
		return r.doubleQuoted(where)
	case valueSingleQuoted:
		return r.singleQuoted(where)
	case valueBacktick:
		return r.backtick(where)
	case valueSmartQuoted:
		return r.smartQuoted(where)
	case valueEscapedJSON:
		return r.escapedJSON(where)
	case valueTuple:
		return r.tuple(where)
	case valueBareReply:
		return r.bareReply(where)
	case valueBareWord:
		return r.bareWord(where)
	}
	return false, false
}

// key repairs an object key at r.pos, by the first rule of [keyRules]
// that applies there: a string in any quotes, or a bare word.
func (r *repairer) key() bool {
	for m := keyAt[r.text[r.pos]]; m != 0; m &= m - 1 {
		if ok, applied := r.keyRule(bits.TrailingZeros8(m)); applied {
			return ok
		}
	}
	return false
}

// keyRule applies entry i of [keyRules].
func (r *repairer) keyRule(i int) (ok, applied bool) {
	switch i {
	case keyDoubleQuoted:
		return r.doubleQuoted(roleKey)
	case keySingleQuoted:
		return r.singleQuoted(roleKey)
	case keyBacktick:
		return r.backtick(roleKey)
	case keySmartQuoted:
		return r.smartQuoted(roleKey)
	case keyEscapedJSON:
		return r.escapedJSON(roleKey)
	case keyUnquoted:
		return r.unquotedKey(roleKey)
	}
	return false, false
}

// between reads what may stand before the next item of the innermost open
// container, which closes with closer ('}' for an object, ']' for an
// array): blanks, then the rules of [betweenRules], until one closes the
// container or none applies, or the end of the text, which leaves the
// container open ([repairer.leftOpen]). count is the number of items read
// so far; *comma is the offset of a comma not yet followed by an item
// (-1 when there is none), kept up to date. It reports true when the
// container is closed (by its bracket, by another one, or because the
// text ended); otherwise r.pos is at the start of the next item.
func (r *repairer) between(closer byte, count int, comma *int) bool {
	r.roomy()
next:
	for {
		r.skipBlanks()
		if r.eof() {
			r.leftOpen(closer, *comma)
			return true
		}
		for m := betweenAt[r.text[r.pos]]; m != 0; m &= m - 1 {
			if closed, applied := r.betweenRule(bits.TrailingZeros8(m), closer, count, comma); closed {
				return true
			} else if applied {
				continue next
			}
		}
		return false
	}
}

// betweenRule applies entry i of [betweenRules].
func (r *repairer) betweenRule(i int, closer byte, count int, comma *int) (closed, applied bool) {
	switch i {
	case betweenEarlyBrace:
		return r.earlyBrace(closer, count, comma)
	case betweenClosingBracket:
		return r.closingBracket(closer, count, comma)
	case betweenMismatchedBracket:
		return r.mismatchedBracket(closer, count, comma)
	case betweenComma:
		return r.comma(closer, count, comma)
	case betweenEllipsis:
		return r.ellipsis(closer, count, comma)
	}
	return false, false
}

// skipBlanks skips whitespace, then the blanks of [blankRules] (comments
// and the space characters JSON does not allow), recording what it
// dropped.
func (r *repairer) skipBlanks() {
	// Small enough to be inlined: most calls stand before a token.
	if r.pos < len(r.text) && !blankStart[r.text[r.pos]] {
		return
	}
	r.skipBlanksAt()
}

// skipBlanksAt is [repairer.skipBlanks] past its first test.
func (r *repairer) skipBlanksAt() {
next:
	for !r.eof() {
		c := r.text[r.pos]
		if isSpace(c) {
			// A run of blanks is skipped at once.
			j := r.pos + 1
			for j < len(r.text) && isSpace(r.text[j]) {
				j++
			}
			r.pos = j
			continue
		}
		for m := blankAt[c]; m != 0; m &= m - 1 {
			if r.blankRule(bits.TrailingZeros8(m)) {
				continue next
			}
		}
		return
	}
}

// blankRule applies entry i of [blankRules].
func (r *repairer) blankRule(i int) bool {
	switch i {
	case blankLineComment:
		return r.lineComment()
	case blankBlockComment:
		return r.blockComment()
	case blankOddSpace:
		return r.oddSpace()
	}
	return false
}

// word repairs a bare word at r.pos, a value in a container, by the first
// rule of [wordRules] that applies there. The word's first token is read
// once, for every rule that reads it, and a rule whose form cannot hold
// the token's bytes is not tried.
func (r *repairer) word(where role) bool {
	var w bareToken
	for m := wordAt[r.text[r.pos]]; m != 0; m &= m - 1 {
		i := bits.TrailingZeros8(m)
		if e := &wordRules[i]; e.token {
			if !w.read {
				r.readToken(&w)
			}
			if w.classes&^e.holds != 0 {
				continue
			}
		}
		if ok, applied := r.wordRule(i, where, &w); applied {
			return ok
		}
	}
	return false
}

// wordRule applies entry i of [wordRules] to the word whose first token
// is w (read, unless the entry reads none).
func (r *repairer) wordRule(i int, where role, w *bareToken) (ok, applied bool) {
	switch i {
	case wordRegexp:
		return r.regexpWord(where, w)
	case wordCall:
		return r.callWord(where, w)
	case wordNumber:
		return r.plainNumber(where, w)
	case wordDigitSeparators:
		return r.digitSeparators(where, w)
	case wordLiteral:
		return r.literalWord(where, w)
	case wordNearNumber:
		return r.nearNumber(where, w)
	case wordUnquoted:
		return r.unquotedWord(where, w)
	}
	return false, false
}
