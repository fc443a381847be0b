package extract

import (
	"cmp"
	"slices"
	"unicode"
	"unicode/utf8"
)

// A tier is a rank of where a value was found; lower is better.
type tier int

const (
	tierJSONFence tier = iota
	tierOtherFence
	tierWhole // a whole reply that is a broken string
	tierScan
)

// A failure is a place that looked like JSON but did not parse.
type failure struct {
	start int // where the value starts
	limit int // how far repair may read
	stop  int // where strict parsing stopped
	tier  tier
	quiet bool // a bare word: repaired if it can be, never described
}

// finder holds the state of one search, and the memory the next search
// reuses. It is used by one goroutine. The lists it returns, and the
// buffers it writes, are its scratch's, overwritten by the next search:
// nothing returned to a caller may point into them (see [Extractor]).
type finder struct {
	scratch
	text         string
	cfg          config
	segs         []span // visible text: outside reasoning blocks
	unterminated bool   // the text ends inside a leading reasoning block
	fences       []fence
	failures     []failure // fenced blocks and whole replies that did not parse
	scanFail     failure   // the scan failure to describe, if hasScanFail
	hasScanFail  bool
	sideBySide   bool // the reply is several values side by side (see several)
	fragments    int  // how many candidates at the end of find's list are fragments
	// known is an object or array the whole-text check read whole and
	// found followed by more text ({...} and a note): the scan takes it
	// without reading its bytes again (see scanRegion).
	known attempt
	// repairLeft is how many more bytes the search's repairs may read,
	// each reading counted from where it starts to how far it got: the
	// scan read those bytes once already (see [rereadAllowance]).
	repairLeft int
	// once says the scratch serves this call only: a repaired value may
	// take the repairer's output buffer rather than a copy of it (see
	// [finder.repaired]).
	once bool
}

// start prepares f for a search of text, keeping its memory: its
// scratch and its lists of segments, fences and failures, emptied.
func (f *finder) start(text string, cfg config) {
	if f.once {
		// A finder of one search starts as its zero value, but for its
		// scratch (see [finder.again]): there is nothing to tidy, and
		// rewriting the whole finder costs a small reply a tenth of
		// its time.
		f.text, f.cfg = text, cfg
	} else {
		*f = finder{
			scratch:  f.scratch,
			segs:     f.segs[:0],
			fences:   f.fences[:0],
			failures: f.failures[:0],
			text:     text,
			cfg:      cfg,
			once:     f.once,
		}
	}
	f.repairLeft = rereadAllowance(text)
	f.rep.off = cfg.rulesOff
	f.rep.rereadLeft = rereadAllowance(text)
	// A quoteScan is told from another by the length of the text it
	// searched: one left by another text would be taken for this one's.
	f.rep.stops = quoteScans{}
}

// find returns the candidates best first, in the scratch's list (see
// [finder]). When first is set it stops at the first strategy that
// yields a value, since only the best one is wanted.
func (f *finder) find(first bool) []Candidate {
	f.found = f.search(first)
	return f.found
}

// search is [finder.find], which keeps the list it returns for the next
// search to reuse.
func (f *finder) search(first bool) []Candidate {
	text := f.text
	s := &f.scratch
	s.truncate()
	if c, ok := f.whole(span{0, len(text)}); ok {
		return append(s.found, c)
	}
	f.segs, f.unterminated = visibleSpans(text, f.segs[:0])
	sole, hasSole := f.soleContent()
	if hasSole && sole != (span{0, len(text)}) {
		if c, ok := f.whole(sole); ok {
			return append(s.found, c)
		}
	}
	var list Candidate // a whole reply of values separated by commas, repaired
	hasList := false
	if hasSole {
		// A reply that is one broken string ("abc, 'abc or "\u12) or a bare
		// scalar (True, 2., callback(1);) can only be repaired as a whole:
		// the scan looks for objects and arrays.
		s, e := trimSpan(text, sole)
		if c := text[s]; c == '"' || c == '\'' || smartQuote(text[s:e]) != "" {
			end, _ := f.v.value(text[:e], s)
			f.failures = append(f.failures, failure{start: s, limit: e, stop: end, tier: tierWhole})
		} else if f.cfg.repair && c != '{' && c != '[' {
			f.failures = append(f.failures, failure{start: s, limit: e, stop: s, tier: tierWhole, quiet: true})
		}
		if f.cfg.repair {
			list, hasList = f.list(s, e)
			if !hasList && !f.cfg.preferLast && f.several(s, e) {
				// Values side by side, and nothing else: a draft and its
				// correction, or parts of one answer? With repair on,
				// extract does not guess (see JSON).
				f.sideBySide = true
			}
		}
	}

	// Fenced blocks. Their lists, and the regions between them, are
	// short, so they start on the stack: only a reply of many fences
	// grows one onto the heap.
	var excludeBuf, regionsBuf [8]span
	var fencedBuf [2][4]span
	exclude, jsonFenced, otherFenced := excludeBuf[:0], fencedBuf[0][:0], fencedBuf[1][:0]
	regions := regionsBuf[:0] // the parts of the text the scan reads
	for _, seg := range f.segs {
		f.fences = findFences(text, seg, f.fences)
	}
	// exclude: parts of fences the scan leaves alone, in order.
	for _, fc := range f.fences {
		cs, ce := trimSpan(text, fc.content)
		if cs == ce {
			continue
		}
		end, ok := f.v.value(text[:ce], cs)
		if ok {
			// The block starts with a value; text after it (a second value,
			// a note) is left to the scan.
			if !f.kindOK(text[cs]) {
				continue
			}
			exclude = append(exclude, span{fc.start, end})
			if fc.jsonLabel {
				jsonFenced = append(jsonFenced, span{cs, end})
			} else {
				otherFenced = append(otherFenced, span{cs, end})
			}
			continue
		}
		if text[cs] != '{' && text[cs] != '[' {
			continue // not a JSON container: nothing to repair
		}
		t := tierOtherFence
		if fc.jsonLabel {
			t = tierJSONFence
			// A json block that starts like JSON is the model's answer,
			// broken: values inside it are its fragments, not candidates.
			exclude = append(exclude, span{fc.start, fc.end})
		}
		f.failures = append(f.failures, failure{start: cs, limit: ce, stop: end, tier: t})
	}
	out := f.ranked(s.found, jsonFenced, SourceFence, first)
	if first && len(out) > 0 {
		return out
	}
	out = f.ranked(out, otherFenced, SourceFence, first)
	if first && len(out) > 0 {
		return out
	}

	// The scan of everything outside the fences' values.
	for _, seg := range f.segs {
		pos := seg.start
		for _, x := range exclude {
			if x.start < seg.start || x.end > seg.end {
				continue
			}
			if x.start > pos {
				regions = append(regions, span{pos, x.start})
			}
			pos = x.end
		}
		if pos < seg.end {
			regions = append(regions, span{pos, seg.end})
		}
	}
	// Scanned values that parse, as spans until the end. When only the best
	// is wanted, the first stops the scan and the last is kept alone.
	takeScanned := func(a attempt) bool {
		if first && f.cfg.preferLast {
			s.scanned = append(s.scanned[:0], span{a.start, a.end})
			return true
		}
		s.scanned = append(s.scanned, span{a.start, a.end})
		return !first
	}
	// scannedTo appends the scanned values to out, in preference order.
	scannedTo := func(out []Candidate) []Candidate {
		n := len(out)
		out = f.candidates(out, s.scanned, SourceScan)
		f.ordered(out[n:])
		return out
	}

	if !f.cfg.repair {
		for _, r := range regions {
			more := f.scanRegion(r, func(a attempt) bool {
				if a.ok {
					return takeScanned(a)
				}
				f.noteScanFailure(failure{start: a.start, limit: r.end, stop: a.end, tier: tierScan})
				return true
			})
			if !more {
				break
			}
		}
		return scannedTo(out)
	}

	// With repair: repair the fences that failed, then walk the scan in
	// order, repairing each failed attempt that is not inside a value
	// already repaired; values inside a repaired one are its fragments.
	// s.covered: extents of repaired fence values, in input order.
	for _, fl := range f.failures {
		c, _, ok := f.repair(fl.start, fl.limit)
		if !ok {
			continue
		}
		s.covered = append(s.covered, span{c.Start, c.End})
		switch fl.tier {
		case tierJSONFence:
			s.repairedJSON = append(s.repairedJSON, c)
		case tierOtherFence:
			s.repairedOther = append(s.repairedOther, c)
		default:
			s.repairedWhole = append(s.repairedWhole, c)
		}
	}
	covered := s.covered
	slices.SortFunc(covered, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	ci := 0
	skip := span{-1, -1} // the last scan repair, or the reach of one that gave up
	for _, r := range regions {
		more := f.scanRegion(r, func(a attempt) bool {
			for ci < len(covered) && covered[ci].end <= a.start {
				ci++
			}
			inside := (ci < len(covered) && covered[ci].start <= a.start) ||
				(a.start >= skip.start && a.start < skip.end)
			switch {
			case a.ok && inside:
				if !first {
					s.fragments = append(s.fragments, f.candidate(a.start, a.end, SourceScan))
				}
			case a.ok:
				return takeScanned(a)
			case inside:
				// A broken piece of a value already repaired.
			default:
				f.noteScanFailure(failure{start: a.start, limit: r.end, stop: a.end, tier: tierScan})
				c, reach, ok := f.repair(a.start, r.end)
				skip = span{a.start, reach}
				if ok {
					s.repairedScan = append(s.repairedScan, c)
				}
			}
			return true
		})
		if !more {
			break
		}
	}
	if hasList {
		// The values the scan found are the list's elements.
		out = append(out, list)
		if first {
			return out
		}
	}
	out = scannedTo(out)
	if first && len(out) > 0 {
		return out
	}
	out = append(out, f.ordered(s.repairedJSON)...)
	out = append(out, f.ordered(s.repairedOther)...)
	out = append(out, s.repairedWhole...)
	out = append(out, f.ordered(s.repairedScan)...)
	if first && len(out) > 0 {
		return out
	}
	f.fragments = len(s.fragments)
	return append(out, f.ordered(s.fragments)...)
}

// noteScanFailure keeps the scan failure most worth telling the model about:
// among those that begin like JSON, the one that parsed longest.
func (f *finder) noteScanFailure(fl failure) {
	if !f.looksLikeJSON(fl.start, fl.limit) {
		return
	}
	if !f.hasScanFail || fl.stop-fl.start > f.scanFail.stop-f.scanFail.start {
		f.scanFail, f.hasScanFail = fl, true
	}
}

// whole returns the value filling sp (less surrounding whitespace), if any.
func (f *finder) whole(sp span) (Candidate, bool) {
	s, e := trimSpan(f.text, sp)
	if s == e || !f.kindOK(f.text[s]) {
		return Candidate{}, false
	}
	end, ok := f.v.value(f.text[:e], s)
	if ok && end != e && opener[f.text[s]] {
		f.known = attempt{start: s, end: end, ok: true}
	}
	if !ok || end != e {
		return Candidate{}, false
	}
	return f.candidate(s, e, SourceWhole), true
}

// scanRegion scans r with [validator.scan], except that the value the
// whole-text check read (f.known) is handed to visit without being read
// again, when it lies in r. Only blanks stand before it in r, so it is the
// first attempt the scan would make there.
func (f *finder) scanRegion(r span, visit func(attempt) bool) bool {
	if k := f.known; k.ok && r.start <= k.start && k.end <= r.end {
		if !visit(k) {
			return false
		}
		r.start = k.end
	}
	return f.v.scan(f.text, r, f.cfg.objectsOnly, visit)
}

// soleContent returns the one visible segment holding non-blank text, when
// exactly one does.
func (f *finder) soleContent() (span, bool) {
	var sole span
	n := 0
	for _, seg := range f.segs {
		if s, e := trimSpan(f.text, seg); s < e {
			sole = seg
			n++
		}
	}
	return sole, n == 1
}

// kindOK reports whether a value starting with byte c is acceptable.
func (f *finder) kindOK(c byte) bool {
	return !f.cfg.objectsOnly || c == '{'
}

// candidate copies text[s:e] into a new candidate.
func (f *finder) candidate(s, e int, src Source) Candidate {
	return Candidate{JSON: []byte(f.text[s:e]), Start: s, End: e, Source: src}
}

// candidates appends to dst the spans of text copied into new candidates.
// The copies share one allocation, each capped at its own length, so that
// a caller appending to one cannot reach another.
func (f *finder) candidates(dst []Candidate, spans []span, src Source) []Candidate {
	if len(spans) == 0 {
		return dst
	}
	n := 0
	for _, sp := range spans {
		n += sp.end - sp.start
	}
	buf := make([]byte, 0, n)
	dst = slices.Grow(dst, len(spans))
	for _, sp := range spans {
		off := len(buf)
		buf = append(buf, f.text[sp.start:sp.end]...)
		dst = append(dst, Candidate{JSON: buf[off:len(buf):len(buf)], Start: sp.start, End: sp.end, Source: src})
	}
	return dst
}

// ranked appends to dst, in preference order, the values at spans, of
// one rank, as candidates; when first is set, only the preferred one,
// the only one wanted, is copied.
func (f *finder) ranked(dst []Candidate, spans []span, src Source, first bool) []Candidate {
	if first && len(spans) > 1 {
		i := 0
		if f.cfg.preferLast {
			i = len(spans) - 1
		}
		spans = spans[i : i+1]
	}
	n := len(dst)
	dst = f.candidates(dst, spans, src)
	f.ordered(dst[n:])
	return dst
}

// ordered puts candidates of one rank in preference order, in place.
func (f *finder) ordered(cs []Candidate) []Candidate {
	if f.cfg.preferLast {
		for i, j := 0, len(cs)-1; i < j; i, j = i+1, j-1 {
			cs[i], cs[j] = cs[j], cs[i]
		}
	}
	return cs
}

// repair rebuilds the value starting at start, reading no further than
// limit. It returns the candidate, how far it read (also when it gave up),
// and whether it produced an acceptable value.
//
// A repair that had to choose between two plausible readings (see
// [repairer.guess]) is a guess: it is returned only when the caller's
// validator accepts exactly one of the two readings.
func (f *finder) repair(start, limit int) (Candidate, int, bool) {
	f.rep.alt = false
	end, reach, ok := f.repairOnce(start, limit)
	if f.rep.guesses > 0 {
		return f.settle(start, limit, end, reach, ok)
	}
	if !ok {
		return Candidate{}, reach, false
	}
	return f.repaired(start, end), reach, true
}

// settle reads a guessed repair, the value to end, how far it read and
// whether it is acceptable, the second way and keeps the reading the
// caller's validator alone accepts (see [finder.repair]).
func (f *finder) settle(start, limit, end, reach int, ok bool) (Candidate, int, bool) {
	r := &f.rep
	if f.cfg.accept == nil && reach >= limit {
		// Without a validator the second reading is only read for its
		// reach (below), and this one read to the end.
		return Candidate{}, reach, false
	}
	var c Candidate
	if ok && f.cfg.accept != nil {
		c = f.repaired(start, end) // before the second reading reuses the buffers
	}
	overdrawn := r.overdrawn
	r.alt = true
	altEnd, altReach, altOK := f.repairOnce(start, limit)
	r.alt = false
	if overdrawn || r.overdrawn {
		// A reading cut short by the allowance of bytes read again (see
		// [repairer.reread]) is no reading the validator refused: the
		// guess stays unsettled.
		return Candidate{}, max(reach, altReach), false
	}
	if f.cfg.accept == nil {
		// Both readings' text belongs to the broken value: what the scan
		// finds inside it is a fragment, not a candidate.
		return Candidate{}, max(reach, altReach), false
	}
	ok = ok && f.cfg.accept(c.JSON)
	var alt Candidate
	if altOK {
		alt = f.repaired(start, altEnd)
		altOK = f.cfg.accept(alt.JSON)
	}
	switch {
	case ok && !altOK:
		return c, reach, true
	case altOK && !ok:
		return alt, altReach, true
	}
	return Candidate{}, max(reach, altReach), false
}

// list reads text[s:e], the whole visible reply, as values separated by
// commas: an array whose brackets were left out. It tries only when the
// first value parses and a comma follows it, so a reply that is one
// broken value costs no second reading.
func (f *finder) list(s, e int) (Candidate, bool) {
	i := skipSpaceAndComments(f.text[:e], s)
	if i >= e {
		return Candidate{}, false
	}
	end, ok := f.v.value(f.text[:e], i)
	if !ok {
		return Candidate{}, false
	}
	if end = skipSpaceAndComments(f.text[:e], end); end >= e || f.text[end] != ',' {
		return Candidate{}, false
	}
	r := &f.rep
	r.alt = false
	r.reset(f.text[:e])
	r.pos = s
	if !r.list() || r.guesses > 0 || r.refused() {
		// {"a": 1}, "b": 2}: members after an object closed too early.
		if f.text[i] != '{' || !f.keyAfter(end+1, e) {
			return Candidate{}, false
		}
		r.reset(f.text[:e])
		r.early = end - 1
		out, vend, ok := r.run(i)
		if !ok || vend != e || r.guesses > 0 {
			return Candidate{}, false
		}
		s = i
		_ = out
	}
	out := r.out
	if v, ok := f.v.value(stringView(out), 0); !ok || v != len(out) || !f.kindOK(out[0]) {
		return Candidate{}, false
	}
	return Candidate{JSON: append([]byte(nil), out...), Start: s, End: e, Source: SourceRepaired, Fixes: r.fixList()}, true
}

// keyAfter reports whether a key and its colon, quoted or bare, come
// after blanks from i.
func (f *finder) keyAfter(i, e int) bool {
	i = skipSpaceAndComments(f.text[:e], i)
	if i >= e {
		return false
	}
	if f.text[i] == '"' {
		return quotedKeyAt(f.text[:e], i, nil)
	}
	return bareKeyAt(f.text[:e], i)
}

// several reports whether text[s:e], the whole visible reply, is two or
// more JSON values side by side and nothing else (comments aside).
func (f *finder) several(s, e int) bool {
	n := 0
	for i := skipSpaceAndComments(f.text[:e], s); i < e; i = skipSpaceAndComments(f.text[:e], i) {
		if !opener[f.text[i]] {
			return false
		}
		n++
		end, ok := f.v.value(f.text[:e], i)
		if !ok {
			// A broken value after a whole one ({...}[1, True]) is a
			// value side by side too; one that is the first is not.
			return n >= 2
		}
		i = end
	}
	return n >= 2
}

// repairOnce runs the repairer once from start over text[:limit],
// leaving the value in f.rep's buffers. It returns where the value ends,
// how far reading got, and whether the value is acceptable.
func (f *finder) repairOnce(start, limit int) (end, reach int, ok bool) {
	r := &f.rep
	r.reset(f.text[:limit])
	if f.repairLeft < 0 {
		// The search's repairs have read as much as they may: no more is
		// repaired (see [rereadAllowance]).
		r.overdrawn = true
		return start, start, false
	}
	out, end, ok := r.run(start)
	// The scan read these bytes once; the repair read them again. A reply
	// whose every '{' starts a repair that reads to its end would
	// otherwise cost the square of its size.
	f.repairLeft -= max(r.reach, r.far) - start
	// Without a fix, the "repair" is a value that parses as it stands,
	// which the other strategies report as such.
	ok = ok && len(out) > 0 && f.kindOK(out[0]) && r.fixes.len() > 0
	return end, r.reach, ok
}

// repaired makes the value the repairer just built, spanning
// text[start:end], a candidate.
func (f *finder) repaired(start, end int) Candidate {
	r := &f.rep
	var js []byte
	if f.once && len(r.out) >= cap(r.out)/2 {
		// The buffer, sized from the text, is mostly this value, and
		// no later call reuses it: the candidate takes it rather than a
		// copy, and a later repair of this call sizes a new one.
		js, r.out = r.out[:len(r.out):len(r.out)], nil
	} else {
		js = append([]byte(nil), r.out...)
	}
	c := Candidate{
		JSON:   js,
		Start:  start,
		End:    end,
		Source: SourceRepaired,
		Fixes:  r.fixList(),
	}
	return c
}

// trimSpan returns sp less leading and trailing blanks: Unicode white space
// and byte order marks.
func trimSpan(text string, sp span) (int, int) {
	s, e := sp.start, sp.end
	for s < e {
		if isSpace(text[s]) {
			s++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[s:e])
		if !unicode.IsSpace(r) && r != '\ufeff' {
			break
		}
		s += n
	}
	for e > s {
		if isSpace(text[e-1]) {
			e--
			continue
		}
		r, n := utf8.DecodeLastRuneInString(text[s:e])
		if !unicode.IsSpace(r) && r != '\ufeff' {
			break
		}
		e -= n
	}
	return s, e
}
