package extract

import (
	"slices"
	"unsafe"
)

// An Extractor finds JSON in replies as [JSON] and [Candidates] do, with
// the same options and the same results, and keeps the memory one search
// needs for the next: the repairer's output, its record of fixes and the
// texts they wrote, the parsers' stacks and the lists a search builds. A
// program that extracts from many replies keeps one Extractor per
// goroutine and calls its methods instead of the package functions;
// repairing a reply of a size it has seen before, it then allocates
// little beyond what it returns (see [Extractor.JSON]).
//
// The zero value is ready to use. An Extractor must not be copied after
// first use, and is used by one goroutine at a time: its methods must
// not run concurrently. A method called from a func given to
// [WithAccept] for one of the Extractor's own calls works as the package
// function does, without the Extractor's memory. The package functions,
// which use a fresh Extractor per call, are safe for concurrent use.
//
// What its methods return belongs to the caller: no candidate, value,
// fix or list shares memory with the Extractor, so that results held
// stay as they were when it is used again. Between calls it holds no
// reference to a reply or a result.
//
// Between calls it keeps its buffers while they hold at most 8 MiB in
// all, which serves replies of a megabyte or so; after a call that needed
// more, it drops its largest buffers until the rest fit. So an Extractor
// kept for the life of a server holds at most 8 MiB however large a reply
// it once read, and a reply that needs more costs what it costs the
// package functions.
type Extractor struct {
	f finder // the search, and its memory
	// cfg holds the options of a call. Options are funcs that are handed
	// a *config, which therefore lives on the heap: a config of its own
	// keeps the Extractor from going there with it.
	cfg *config
	// once says this Extractor serves one call: its buffers may be handed
	// to the results and nothing is tidied for a next call.
	once bool
	// busy is set during a call: a call made inside it (from a WithAccept
	// func) runs on a fresh Extractor.
	busy bool
}

// keepMax is how many bytes of buffers an [Extractor] keeps between
// calls: what repairing a reply of 1 MiB needs with a fix every few
// bytes (the fix log alone is 16 bytes a fix).
const keepMax = 8 << 20

// scratch is the memory of one search that the next one reuses: buffers
// the repairer and the validators write, and the lists a search builds
// (see [finder.find]). Its zero value is ready to use.
type scratch struct {
	v   validator
	rep repairer
	// Spans of text: the values the scan found, the repaired fences'.
	// (The fences' lists and the regions between them, short, are the
	// search's own, on the stack.)
	scanned, covered []span
	// Candidates by where they were found, and the ranked list.
	repairedJSON, repairedOther, repairedWhole, repairedScan []Candidate
	fragments, found                                         []Candidate
}

// JSON returns the best JSON value in text, as [JSON] does with the same
// options, and the same errors.
//
// The candidate it returns is the caller's. Once its buffers are as
// large as a reply needs (after it repaired that reply, or a longer one
// of the same shape), repairing the reply without [WithAccept], the
// Extractor allocates only what the candidate holds: its JSON, its list
// of fixes, one string with the texts of those fixes when any is longer
// than a byte, and the detail of each fix written from its texts (a
// [FixPythonLiteral], [FixNumber], ...), which fixes alike share. When
// the reply holds several broken values that repair alike well (two
// broken json fences, two broken values in its prose), each is repaired
// and costs as much, since which one is returned is known only after. A
// value found without repair costs its copy alone.
func (x *Extractor) JSON(text string, opts ...Option) (Candidate, error) {
	if x.busy {
		return JSON(text, opts...)
	}
	if err := x.configure(text, opts); err != nil {
		return Candidate{}, err
	}
	x.start(text)
	defer x.finish()
	return x.f.json()
}

// Candidates returns every JSON value found in text, best first, as
// [Candidates] does with the same options. The list and every candidate
// in it are the caller's.
func (x *Extractor) Candidates(text string, opts ...Option) []Candidate {
	if x.busy {
		return Candidates(text, opts...)
	}
	if x.configure(text, opts) != nil {
		return nil
	}
	x.start(text)
	defer x.finish()
	cs := x.f.find(false)
	if len(cs) == 0 {
		return nil
	}
	if x.once {
		return cs // the list is no longer the Extractor's
	}
	return slices.Clone(cs)
}

// configure applies the options of a call over text, and reports a bad
// one or a text too large.
func (x *Extractor) configure(text string, opts []Option) error {
	if x.cfg == nil {
		x.cfg = new(config)
	}
	x.cfg.set(opts)
	err := x.cfg.check(text)
	if err != nil {
		*x.cfg = config{}
	}
	return err
}

// start starts the search of a call, over text, with the call's options.
func (x *Extractor) start(text string) {
	x.busy = true
	x.f.once = x.once
	x.f.start(text, *x.cfg)
}

// finish ends a call: it forgets the reply and the results, and drops
// buffers past [keepMax].
func (x *Extractor) finish() {
	x.busy = false
	if x.once {
		return
	}
	*x.cfg = config{}
	x.f.text, x.f.cfg = "", config{}
	s := &x.f.scratch
	s.truncate()
	// The lists held the results: clear them whole, since a later search
	// of the call may have left fewer than an earlier one.
	for _, l := range s.candidateLists() {
		clear((*l)[:cap(*l)])
	}
	s.rep.reset("")
	s.rep.fixes.long = nil
	x.trim()
}

// truncate empties the scratch's lists, keeping their memory.
func (s *scratch) truncate() {
	s.scanned, s.covered = s.scanned[:0], s.covered[:0]
	for _, l := range s.candidateLists() {
		*l = (*l)[:0]
	}
}

// candidateLists returns the scratch's lists of candidates.
func (s *scratch) candidateLists() [6]*[]Candidate {
	return [6]*[]Candidate{
		&s.repairedJSON, &s.repairedOther, &s.repairedWhole, &s.repairedScan, &s.fragments, &s.found,
	}
}

// trim drops the largest of the Extractor's buffers until the rest hold
// at most [keepMax] bytes.
func (x *Extractor) trim() {
	var sizes [numBuffers]int
	total := 0
	for i := range sizes {
		sizes[i] = x.buffer(i, false)
		total += sizes[i]
	}
	for total > keepMax {
		big := 0
		for i := range sizes {
			if sizes[i] > sizes[big] {
				big = i
			}
		}
		x.buffer(big, true)
		total -= sizes[big]
		sizes[big] = 0
	}
}

// numBuffers is how many buffers [Extractor.buffer] knows.
const numBuffers = 17

// buffer returns the bytes the i-th of the Extractor's buffers holds,
// and drops it when drop is set.
func (x *Extractor) buffer(i int, drop bool) int {
	f, s, r := &x.f, &x.f.scratch, &x.f.rep
	switch i {
	case 0:
		return sized(&r.out, drop)
	case 1:
		return sized(&r.written, drop)
	case 2:
		n := r.fixes.bytes()
		if drop {
			r.fixes = fixLog{}
		}
		return n
	case 3:
		return sized(&r.kinds, drop)
	case 4:
		return sized(&r.v.stack, drop)
	case 5:
		return sized(&s.v.stack, drop)
	case 6:
		return sized(&f.segs, drop)
	case 7:
		return sized(&f.fences, drop)
	case 8:
		return sized(&f.failures, drop)
	case 9:
		return sized(&s.scanned, drop)
	case 10:
		return sized(&s.covered, drop)
	}
	lists := s.candidateLists()
	return sized(lists[i-11], drop)
}

// sized returns the bytes the array of *p holds, and drops it when drop
// is set.
func sized[T any](p *[]T, drop bool) int {
	n := bytesOf(*p)
	if drop {
		*p = nil
	}
	return n
}

// bytesOf returns the bytes s's array holds.
func bytesOf[T any](s []T) int {
	var zero T
	return cap(s) * int(unsafe.Sizeof(zero))
}
