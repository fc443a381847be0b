package crosscheck

import (
	"index/suffixarray"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Normalize returns s as quote_in_input compares it: lower case, every run
// of white space one space and none at either end, every quotation mark
// (straight, curly, low, angle, prime-like) '"', every dash and minus '-',
// the ellipsis character "...", and invisible characters (zero-width
// spaces and joiners, soft hyphens, byte order marks) dropped. It does not
// apply Unicode normalisation forms: a precomposed é and e followed by a
// combining accent stay different. It runs in time linear in len(s), and
// invalid UTF-8 is kept byte for byte.
func Normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false // a space is pending
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			flushSpace(&b, &space)
			b.WriteByte(s[i])
			i++
			continue
		}
		i += size
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case isInvisible(r):
			continue
		}
		flushSpace(&b, &space)
		switch {
		case isQuote(r):
			b.WriteByte('"')
		case isDash(r):
			b.WriteByte('-')
		case r == '…':
			b.WriteString("...")
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

func flushSpace(b *strings.Builder, space *bool) {
	if *space {
		b.WriteByte(' ')
		*space = false
	}
}

func isInvisible(r rune) bool {
	switch r {
	case '\u00ad', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff':
		return true
	}
	return false
}

func isQuote(r rune) bool {
	switch r {
	case '"', '\'', '`', '´', '‘', '’', '‚', '‛', '“', '”', '„', '‟', '«', '»', '‹', '›', '′', '″', '＂', '＇', '「', '」', '『', '』':
		return true
	}
	return false
}

func isDash(r rune) bool {
	switch r {
	case '-', '‐', '‑', '‒', '–', '—', '―', '−', '⁃', '﹘', '﹣', '－', '⸺', '⸻':
		return true
	}
	return false
}

// QuoteParts splits a quote at its ellipses ("...", "…", and either in
// square brackets) into the parts that must occur in the inputs, in order,
// each normalised by [Normalize]. Empty parts are dropped: a quote that is
// only an ellipsis, or blank, has none.
func QuoteParts(quote string) []string {
	var out []string
	for _, p := range quoteParts(quote) {
		out = append(out, p.norm)
	}
	return out
}

// A part is one part of a quote, normalised and as written.
type part struct{ norm, raw string }

func quoteParts(quote string) []part {
	r := strings.NewReplacer("[...]", "...", "[…]", "...", "…", "...")
	var parts []part
	for raw := range strings.SplitSeq(r.Replace(quote), "...") {
		n := Normalize(raw)
		// An ellipsis can also hide in what normalising brings together.
		for _, np := range strings.Split(strings.ReplaceAll(n, "[...]", "..."), "...") {
			if np = strings.Trim(np, " "); np != "" {
				parts = append(parts, part{norm: np, raw: strings.TrimSpace(raw)})
			}
		}
	}
	return parts
}

// A corpus is a normalised text indexed for substring search: building it
// takes time linear in the text, and looking up a part of length m takes
// O(m log n) plus the number of its occurrences.
type corpus struct {
	text  string
	index *suffixarray.Index
}

func newCorpus(text string) *corpus {
	t := Normalize(text)
	return &corpus{text: t, index: suffixarray.New([]byte(t))}
}

// lookupSome is how many occurrences of a part find takes from the index
// at first; only when none of them is a whole match does it list them all.
const lookupSome = 16

// occurs reports whether p occurs in c as a whole match: starting and
// ending at word boundaries ([boundary]).
func (c *corpus) occurs(p string) bool {
	at := c.index.Lookup([]byte(p), lookupSome)
	for _, i := range at {
		if whole(c.text, i, len(p)) {
			return true
		}
	}
	if len(at) < lookupSome {
		return false
	}
	for _, i := range c.index.Lookup([]byte(p), -1) {
		if whole(c.text, i, len(p)) {
			return true
		}
	}
	return false
}

// indexWhole returns the offset of the first whole match of p in c.text at
// or after from, or -1.
func (c *corpus) indexWhole(p string, from int) int {
	for from <= len(c.text) {
		j := strings.Index(c.text[from:], p)
		if j < 0 {
			return -1
		}
		if whole(c.text, from+j, len(p)) {
			return from + j
		}
		_, size := utf8.DecodeRuneInString(c.text[from+j:])
		from += j + max(size, 1)
	}
	return -1
}

// find reports whether parts occur in c in order, without overlapping,
// each as a whole match (at word boundaries). When they do not, missing is
// the shortest part that does not occur at all, or, when every part occurs
// but not in this order, the first one out of order (and order is true),
// as the quote writes it.
//
// The index answers whether each part occurs at all; the order is then
// found by scanning the text forward from one part to the next, which
// takes at most one pass over the text whatever the parts are (listing
// every occurrence of a common part instead would cost as many as there
// are).
func (c *corpus) find(parts []part) (missing string, order bool, ok bool) {
	short := -1
	for i, p := range parts {
		if !c.occurs(p.norm) && (short < 0 || len(p.norm) < len(parts[short].norm)) {
			short = i
		}
	}
	if short >= 0 {
		return parts[short].raw, false, false
	}
	if len(parts) == 1 {
		return "", false, true
	}
	at := 0
	for _, p := range parts {
		j := c.indexWhole(p.norm, at)
		if j < 0 {
			return p.raw, true, false
		}
		at = j + len(p.norm)
	}
	return "", false, true
}
