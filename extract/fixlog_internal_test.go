package extract

import (
	"strconv"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFixLog: records pushed into a fixLog, across chunks of every size,
// come back as pushed, lengths replaced too long for a record included,
// and truncating keeps those before the cut.
func TestFixLog(t *testing.T) {
	var l fixLog
	const n = 70000
	before := func(i int) int {
		if i%1000 == 7 {
			return longBefore + i // kept aside
		}
		return i
	}
	for i := range n {
		l.push(noteNumber, i, before(i), 2*i)
	}
	require.Equal(t, n, l.len())
	for i := range n {
		rec := l.at(i)
		require.Equal(t, i, rec.offset(), "record %d", i)
		assert.Equal(t, before(i), l.before(i))
		assert.Equal(t, noteNumber, rec.note())
		assert.Equal(t, 2*i, rec.afterAt())
	}
	l.truncate(1007)
	l.push(noteLineComment, 5, 3, 9) // at 1007, where a long one was
	assert.Equal(t, 1008, l.len())
	assert.Equal(t, 1006, l.at(1006).offset())
	assert.Equal(t, 3, l.before(1007))
	assert.Equal(t, noteLineComment, l.at(1007).note())
	assert.Len(t, l.chunks, 5+(n-992+1023)/1024, "chunks of 32, 64, ..., 512, then of 1024")
}

// TestByteText: the text of a one-byte fix is that byte, for every byte.
func TestByteText(t *testing.T) {
	for c := range 256 {
		require.Equal(t, string([]byte{byte(c)}), byteText(byte(c)), "byte %#x", c)
	}
}

// TestDetailCacheShares: fixes alike share one detail while fewer than
// recentDetails others were described since; past that it is written
// anew.
func TestDetailCacheShares(t *testing.T) {
	var c detailCache
	describe := func(i int) string {
		w := strconv.Itoa(i) + "."
		return c.describe(noteNumber, w, w+"0")
	}
	first := make([]string, recentDetails)
	for i := range first {
		first[i] = describe(i)
	}
	for range 3 {
		for i := range first {
			d := describe(i)
			require.Equal(t, "rewrote the number "+strconv.Itoa(i)+". as "+strconv.Itoa(i)+".0", d)
			assert.Same(t, unsafe.StringData(first[i]), unsafe.StringData(d), "detail %d", i)
		}
	}
	describe(recentDetails) // the oldest, 0's, makes room for it
	assert.NotSame(t, unsafe.StringData(first[0]), unsafe.StringData(describe(0)))
	assert.Same(t, unsafe.StringData(first[2]), unsafe.StringData(describe(2)))
}
