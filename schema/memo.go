package schema

import "unsafe"

// A memoTable holds the verdicts of a fastRun by node and part: a hash
// table of open addressing over a power-of-two array, cheaper than a map
// for its 24-byte keys, and emptied in constant time by moving to a new
// generation, so a small check after a large one does not pay for the
// large one's space. The zero value is an empty table.
type memoTable struct {
	slots []memoSlot
	gen   uint32 // a slot of another generation is empty
	n     int    // the verdicts of this generation
}

type memoSlot struct {
	key memoKey
	gen uint32
	got verdict
}

// hash spreads a key over the table: the addresses of nodes and parts are
// aligned, their low bits are zero, so each is multiplied before they are
// mixed.
func (k memoKey) hash() uint64 {
	h := uint64(uintptr(unsafe.Pointer(k.n)))*0x9e3779b97f4a7c15 ^ uint64(k.ptr)*0xc2b2ae3d27d4eb4f ^ uint64(k.len)
	return h ^ h>>31
}

// get returns the verdict kept for k.
func (t *memoTable) get(k memoKey) (verdict, bool) {
	if t.n == 0 {
		return undecided, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := k.hash() & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.gen != t.gen {
			return undecided, false
		}
		if s.key == k {
			return s.got, true
		}
	}
}

// put keeps got for k, which the table does not hold.
func (t *memoTable) put(k memoKey, got verdict) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	i := k.hash() & mask
	for t.slots[i].gen == t.gen {
		i = (i + 1) & mask
	}
	t.slots[i] = memoSlot{key: k, gen: t.gen, got: got}
	t.n++
}

// grow doubles the table (from 64 slots), keeping what it holds.
func (t *memoTable) grow() {
	old, gen := t.slots, t.gen
	t.slots = make([]memoSlot, max(64, 2*len(old)))
	t.gen, t.n = 1, 0
	for _, s := range old {
		if s.gen == gen {
			t.put(s.key, s.got)
		}
	}
}

// len returns how many verdicts the table holds.
func (t *memoTable) len() int { return t.n }

// reset empties the table. It keeps its space up to maxKeptMemo verdicts'
// worth: a table grown beyond that by one large check is dropped.
func (t *memoTable) reset() {
	switch {
	case len(t.slots) > 2*maxKeptMemo:
		*t = memoTable{}
	case t.n > 0:
		t.n = 0
		t.gen++
		if t.gen == 0 { // after 2^32 generations, a slot's may come round again
			clear(t.slots)
			t.gen = 1
		}
	}
}
