package crosscheck

import (
	"strings"
	"sync"
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
func Normalize(s string) string { return normalize(s, nil) }

// normalize is [Normalize]; with joins non-nil it also records in joins
// the offsets, in the result, of the '"' written for an apostrophe and the
// '-' written for a hyphen: the marks that may join two parts of one word
// ("can't", "non-refundable"), which a closing quotation mark or a dash
// does not.
func normalize(s string, joins *bitset) string {
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
		if joins != nil && (isApostrophe(r) || isHyphen(r)) {
			joins.set(b.Len())
		}
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

// isApostrophe reports whether r is written as an apostrophe ("can't",
// "doesn’t"), among the quotation marks [Normalize] writes '"'.
func isApostrophe(r rune) bool {
	switch r {
	case '\'', '’', '‛', '＇':
		return true
	}
	return false
}

// isHyphen reports whether r is a hyphen ("non-refundable"), among the
// dashes [Normalize] writes '-'; dashes set between words ("safe—unless")
// are not.
func isHyphen(r rune) bool {
	switch r {
	case '-', '‐', '‑', '﹣', '－':
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

// A corpus is a normalised text prepared for quotes: the text and where
// in it an apostrophe or a hyphen joins a word. Building it takes time
// linear in the text. A corpus is safe for concurrent use.
type corpus struct {
	text  string
	joins bitset

	mu    sync.Mutex
	first map[string]int // first whole match of a part from the start, or -1
}

func newCorpus(text string) *corpus {
	c := &corpus{}
	c.text = normalize(text, &c.joins)
	return c
}

// A bitset is a set of small non-negative integers; the zero value is
// empty.
type bitset []uint64

func (b *bitset) set(i int) {
	for len(*b) <= i/64 {
		*b = append(*b, 0)
	}
	(*b)[i/64] |= 1 << (i % 64)
}

func (b bitset) has(i int) bool { return i >= 0 && i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

// A miss says why a quote's parts are not found: which part, as the
// quote writes it, and how.
type miss struct {
	part string
	kind missKind
	// word is, for missInsideWord, the first longer word the part was
	// found in.
	word string
}

type missKind int

const (
	missAbsent     missKind = iota // the part does not occur at all
	missInsideWord                 // it occurs only inside longer words
	missOrder                      // it occurs as whole words, only before the parts quoted ahead of it
)

// find reports whether parts occur in c in order, without overlapping,
// each as a whole match (at word boundaries, [corpus.boundary]); when they
// do not, the miss says which part could not be placed and why.
//
// Parts are placed greedily, each at its first whole match after the
// previous one, which finds an order whenever one exists. Each part is
// looked for from where the previous one ended, never going back in the
// text ([corpus.indexWhole]), so that placing every part takes time linear
// in the text plus the quote, whatever the parts are: a part repeated, or
// found at many places inside words, costs no more.
// The first part's place is remembered ([corpus.firstWhole]). Only the
// part that cannot be placed is then looked for in the whole text, once,
// to say why.
func (c *corpus) find(parts []part) (m miss, ok bool) {
	at := 0
	for i, p := range parts {
		var j int
		if i == 0 {
			j = c.firstWhole(p.norm)
		} else {
			j = c.indexWhole(p.norm, at)
		}
		if j < 0 {
			return c.why(p), false
		}
		at = j + len(p.norm)
	}
	return miss{}, true
}

// firstWhole is c.indexWhole(p, 0), remembered: every quote's first part
// is looked for from the start, and a model that repeats a quote (or
// quotes the same words in many fields, or attempts) pays for it once.
func (c *corpus) firstWhole(p string) int {
	c.mu.Lock()
	j, ok := c.first[p]
	c.mu.Unlock()
	if ok {
		return j
	}
	j = c.indexWhole(p, 0)
	c.mu.Lock()
	if c.first == nil {
		c.first = map[string]int{}
	}
	c.first[p] = j
	c.mu.Unlock()
	return j
}

// why says why part p has no whole match after some offset of c.
func (c *corpus) why(p part) miss {
	if c.indexWhole(p.norm, 0) >= 0 {
		return miss{part: p.raw, kind: missOrder}
	}
	i := strings.Index(c.text, p.norm)
	if i < 0 {
		return miss{part: p.raw, kind: missAbsent}
	}
	start, end := i, i+len(p.norm)
	for !c.boundary(start) {
		_, size := utf8.DecodeLastRuneInString(c.text[:start])
		start -= size
	}
	for !c.boundary(end) {
		_, size := utf8.DecodeRuneInString(c.text[end:])
		end += size
	}
	return miss{part: p.raw, kind: missInsideWord, word: c.text[start:end]}
}

// indexWhole returns the offset of the first whole match of p in c.text at
// or after from, or -1, in time linear in len(c.text)-from plus len(p).
// The first match is found by [strings.Index]; when it is not whole, the
// search goes on with the Knuth-Morris-Pratt automaton, which reads each
// byte once and passes over a match that is not whole without going back
// (restarting the search one character on would compare the part again
// at every overlapping place: "aaa" in a long run of "a").
func (c *corpus) indexWhole(p string, from int) int {
	if p == "" || from > len(c.text) {
		return -1
	}
	j := strings.Index(c.text[from:], p)
	if j < 0 {
		return -1
	}
	if c.whole(from+j, len(p)) {
		return from + j
	}
	fail := make([]int, len(p)) // fail[i]: the longest proper border of p[:i+1]
	for i, k := 1, 0; i < len(p); i++ {
		for k > 0 && p[i] != p[k] {
			k = fail[k-1]
		}
		if p[i] == p[k] {
			k++
		}
		fail[i] = k
	}
	// Go on just past the match that was not whole, in the state the
	// automaton would be in there.
	k := fail[len(p)-1]
	for i := from + j + len(p); i < len(c.text); i++ {
		for k > 0 && c.text[i] != p[k] {
			k = fail[k-1]
		}
		if c.text[i] == p[k] {
			k++
		}
		if k == len(p) {
			if start := i + 1 - len(p); c.whole(start, len(p)) {
				return start
			}
			k = fail[k-1]
		}
	}
	return -1
}
