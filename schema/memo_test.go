package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMemoTable(t *testing.T) {
	nodes := make([]fastNode, 3)
	key := func(i int) memoKey {
		return memoKey{&nodes[i%3], part{ptr: uintptr(0x1000 + 16*(i/3)), len: i % 7}}
	}
	var m memoTable
	_, ok := m.get(key(0))
	assert.False(t, ok, "a zero table holds nothing")
	for _, n := range []int{1, 47, 48, 49, 5000} { // around the first growth
		for i := range n {
			m.put(key(i), verdict(1+i%2))
		}
		require.Equal(t, n, m.len())
		for i := range n {
			got, ok := m.get(key(i))
			require.True(t, ok, "key %d of %d", i, n)
			require.Equal(t, verdict(1+i%2), got)
		}
		_, ok := m.get(key(n))
		assert.False(t, ok, "a key never put, after %d", n)
		slots := len(m.slots)
		m.reset()
		assert.Equal(t, 0, m.len())
		assert.Equal(t, slots, len(m.slots), "reset keeps the space")
		_, ok = m.get(key(0))
		assert.False(t, ok, "reset forgets")
	}

	// The generation comes round after 2^32 resets: the slots are cleared.
	m.put(key(1), valid)
	m.gen = ^uint32(0)
	m.slots[0] = memoSlot{key: key(2), gen: m.gen, got: invalid}
	m.n = 1
	m.reset()
	for i := range 3 {
		_, ok := m.get(key(i))
		assert.False(t, ok)
	}
	m.put(key(2), valid)
	got, ok := m.get(key(2))
	assert.True(t, ok)
	assert.Equal(t, valid, got)

	// A table grown past what is kept is dropped.
	for i := range 2*maxKeptMemo + 1 {
		m.put(memoKey{&nodes[0], part{ptr: uintptr(i)}}, valid)
	}
	m.reset()
	assert.Nil(t, m.slots)
}
