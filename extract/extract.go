package extract

import (
	"fmt"
)

// JSON returns the best JSON value in text, the reply of a model.
//
// It tries, in order: the whole text (less surrounding whitespace and
// reasoning blocks); fenced blocks labelled json; other fenced blocks; values
// found by a scan of the prose. The first value found wins, or the last with
// [WithPreferLast]; with [WithAccept], the first value it accepts. With [WithRepair], a value that does not parse is
// repaired when nothing parses as it stands. See the package documentation
// for the details.
//
// When no value is found the error is a [*ReplyError] matching [ErrNoJSON]
// (or [ErrNonJSONText] under [WithStrictJSONOnly]) whose Description can be
// shown to the model. An input longer than the maximum size gives an error
// matching [ErrTooLarge], a bad option one matching [ErrInvalidOption]. On
// error the Candidate is the zero value. JSON is safe for concurrent use.
//
// JSON allocates afresh the memory its search needs; an [Extractor] kept
// for many replies reuses it.
func JSON(text string, opts ...Option) (Candidate, error) {
	x := Extractor{once: true}
	return x.JSON(text, opts...)
}

// json is [Extractor.JSON], searching with f.
func (f *finder) json() (Candidate, error) {
	cfg := &f.cfg
	cands := f.find(true)
	if len(cands) == 0 {
		return Candidate{}, f.noJSON()
	}
	c := cands[0]
	if f.sideBySide {
		var ok bool
		if c, ok = f.onlyAccepted(); !ok {
			return Candidate{}, f.noJSON()
		}
	}
	if cfg.accept != nil && !cfg.accept(c.JSON) {
		c = f.firstAccepted(c)
	}
	if cfg.strict {
		if err := f.strictCheck(c); err != nil {
			return Candidate{}, err
		}
	}
	return c, nil
}

// Candidates returns every JSON value found in text, best first, in the
// order [JSON] ranks them: the whole text, json fences, other fences, scanned
// values; with [WithRepair], repaired values follow the ones that parse, and
// values found inside a repaired one (its fragments) come last. Each
// candidate's bytes are a copy of its span that no other candidate can
// reach (copies may share one allocation, each capped at its own length).
// [WithStrictJSONOnly] does not filter the list.
//
// Candidates returns nil when nothing is found, when the input is longer than
// the maximum size, or when an option is bad; call [JSON] to learn why.
// Candidates is safe for concurrent use.
//
// Candidates allocates afresh the memory its search needs; an
// [Extractor] kept for many replies reuses it.
func Candidates(text string, opts ...Option) []Candidate {
	x := Extractor{once: true}
	return x.Candidates(text, opts...)
}

// check reports a bad option or an input that is too large.
func (c *config) check(text string) error {
	if c.err != nil {
		return c.err
	}
	if len(text) > c.maxSize {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(text), c.maxSize)
	}
	return nil
}

// again starts g as a second search of f's text, with f's options,
// for after f's: g takes f's scratch, the candidates f found included
// (see [finder.reclaim]), but not its segments, fences and failures,
// which describe f's search to the caller (see [finder.strictCheck],
// [finder.noJSON]).
func (f *finder) again(g *finder) {
	g.scratch, g.once = f.scratch, f.once
	g.start(f.text, f.cfg)
}

// reclaim takes back the scratch that g, started by [finder.again],
// took and may have grown.
func (f *finder) reclaim(g *finder) { f.scratch = g.scratch }

// firstAccepted returns the best candidate the caller's validator accepts,
// in the order of [Candidates], leaving out the fragments of repaired
// values; it returns best when there is none.
func (f *finder) firstAccepted(best Candidate) Candidate {
	var g finder
	f.again(&g)
	defer f.reclaim(&g)
	all := g.find(false)
	for _, c := range all[:len(all)-g.fragments] {
		if f.cfg.accept(c.JSON) {
			return c
		}
	}
	return best
}

// onlyAccepted returns the one value of a reply made of values side by side
// that the caller's validator accepts; with no validator, or when none or
// several are accepted, it reports false.
func (f *finder) onlyAccepted() (Candidate, bool) {
	if f.cfg.accept == nil {
		return Candidate{}, false
	}
	var found Candidate
	n := 0
	var g finder
	f.again(&g)
	defer f.reclaim(&g)
	for _, c := range g.find(false) {
		if c.Source == SourceScan && f.cfg.accept(c.JSON) {
			found = c
			n++
		}
	}
	return found, n == 1
}
