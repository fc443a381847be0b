package crosscheck

import (
	"unicode"
	"unicode/utf8"
)

// isWordRune reports whether r belongs to a word: a letter, a digit, or a
// mark combined with one.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// spaceless are the scripts written without spaces between words, whose
// characters each stand alone for quoting: a quote may start or end at any
// of them, though not inside one (between a letter and its marks).
var spaceless = []*unicode.RangeTable{
	unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao,
	unicode.Khmer, unicode.Myanmar, unicode.Tibetan,
}

// isSpaceless reports whether r is of a script written without spaces.
// Every such script lies at U+0E00 (Thai) or above.
func isSpaceless(r rune) bool { return r >= 0x0e00 && unicode.IsOneOf(spaceless, r) }

// extends reports whether r belongs to the character before it: a
// combining mark, or Thai's and Lao's SARA AM, which Unicode's grapheme
// rules attach as a spacing mark though it is a letter.
func extends(r rune) bool { return unicode.IsMark(r) || r == '\u0e33' || r == '\u0eb3' }

// boundary reports whether byte offset i of c.text is a word boundary: the
// start or end of the text, a side that is not part of a word, or a side
// in a script written without spaces. There is none inside a word of
// letters and digits ("unsafe", "Q3"), before a mark (inside a character,
// "é" written e and U+0301, Thai "ไม่"), on either side of the separator of
// a number ("1,300", "3.25", "10.2.1"), of an apostrophe inside a word
// ("can't"), or of a hyphen between letters ("non-refundable"). An
// apostrophe after one or two letters that start a word marks an elision
// ("l'homme", "d'accord", "qu'il"), and one before a final "s" a
// possessive ("the Supplier's") or a shortened "is" ("it's"): both are
// boundaries, as a dash set between words ("safe—unless") is.
func (c *corpus) boundary(i int) bool {
	text := c.text
	if i <= 0 || i >= len(text) {
		return true
	}
	before, _ := utf8.DecodeLastRuneInString(text[:i])
	after, _ := utf8.DecodeRuneInString(text[i:])
	if extends(after) {
		return false
	}
	if c.joined(i - 1) {
		return false
	}
	if c.joined(i) {
		return false
	}
	if !isWordRune(before) || !isWordRune(after) {
		return true
	}
	return isSpaceless(before) || isSpaceless(after)
}

// joined reports whether the byte at offset j of c.text is a separator
// inside a word: a '.' or ',' between digits, an apostrophe between
// letters or digits (not after an elision), a hyphen between letters.
func (c *corpus) joined(j int) bool {
	text := c.text
	if j <= 0 || j >= len(text)-1 {
		return false
	}
	sep := text[j]
	if sep != '.' && sep != ',' && !(c.joins.has(j) && (sep == '"' || sep == '-')) {
		return false
	}
	prev, _ := utf8.DecodeLastRuneInString(text[:j])
	next, _ := utf8.DecodeRuneInString(text[j+1:])
	digits := unicode.IsDigit(prev) && unicode.IsDigit(next)
	letters := (unicode.IsLetter(prev) || unicode.IsMark(prev)) && unicode.IsLetter(next) && !isSpaceless(prev) && !isSpaceless(next)
	switch sep {
	case '.', ',':
		return digits
	case '-':
		return letters
	default: // an apostrophe
		return digits || letters && !c.elision(j) && !c.possessive(j)
	}
}

// possessive reports whether the apostrophe at offset j of c.text is
// followed by an "s" that ends the word: a possessive ("the Supplier's")
// or "is" and "has" shortened ("it's"), where the word before stands
// alone, unlike the "n't" of a negation.
func (c *corpus) possessive(j int) bool {
	if j+2 > len(c.text) || c.text[j+1] != 's' {
		return false
	}
	if j+2 == len(c.text) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(c.text[j+2:])
	return !isWordRune(r)
}

// elision reports whether the apostrophe at offset j of c.text follows a
// word of one or two letters ("l'", "qu'").
func (c *corpus) elision(j int) bool {
	n := 0
	for k := j; k > 0; {
		r, size := utf8.DecodeLastRuneInString(c.text[:k])
		if !isWordRune(r) {
			break
		}
		if n++; n > 2 {
			return false
		}
		k -= size
	}
	return true
}

// whole reports whether c.text[i:i+n] starts and ends at word boundaries.
func (c *corpus) whole(i, n int) bool { return c.boundary(i) && c.boundary(i+n) }

// quoteLength is the length of a quote's parts in characters as a reader
// counts them, spaces not counted: what [Invariant].MinQuoteLength is held
// against. A letter with its marks is one character ("é", Thai "ม่"); a
// Chinese or Japanese character, or a Korean syllable, counts two, for it
// carries about as much as a short word ("违约", "breach", counts four).
func quoteLength(parts []part) int {
	n := 0
	for _, p := range parts {
		for _, r := range p.norm {
			switch {
			case unicode.IsSpace(r) || extends(r):
			case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
				n += 2
			default:
				n++
			}
		}
	}
	return n
}
