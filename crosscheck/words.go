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
// of them.
var spaceless = []*unicode.RangeTable{
	unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao,
	unicode.Khmer, unicode.Myanmar, unicode.Tibetan,
}

// isSpaceless reports whether r is of a script written without spaces.
func isSpaceless(r rune) bool { return unicode.IsOneOf(spaceless, r) }

// boundary reports whether byte offset i of text is a word boundary: the
// start or end of text, a side that is not part of a word, or a side in a
// script written without spaces. Inside a word of letters or digits
// ("unsafe", "300") there is none.
func boundary(text string, i int) bool {
	if i <= 0 || i >= len(text) {
		return true
	}
	before, _ := utf8.DecodeLastRuneInString(text[:i])
	after, _ := utf8.DecodeRuneInString(text[i:])
	if !isWordRune(before) || !isWordRune(after) {
		return true
	}
	return isSpaceless(before) || isSpaceless(after)
}

// whole reports whether text[i:i+n] starts and ends at word boundaries.
func whole(text string, i, n int) bool { return boundary(text, i) && boundary(text, i+n) }

// quoteLength is the length of a quote's parts in characters, spaces not
// counted: what [Invariant].MinQuoteLength is held against.
func quoteLength(parts []part) int {
	n := 0
	for _, p := range parts {
		for _, r := range p.norm {
			if !unicode.IsSpace(r) {
				n++
			}
		}
	}
	return n
}
