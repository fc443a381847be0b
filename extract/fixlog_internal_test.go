package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFixLog: records pushed into a fixLog, across chunks of every size,
// come back as pushed, and truncating keeps those before the cut.
func TestFixLog(t *testing.T) {
	var l fixLog
	const n = 70000
	for i := range n {
		l.push(fixRecord{offset: i, packed: i<<8 | int(noteNumber), afterAt: 2 * i})
	}
	require.Equal(t, n, l.len())
	for i := range n {
		rec := l.at(i)
		require.Equal(t, i, rec.offset, "record %d", i)
		assert.Equal(t, i, rec.before())
		assert.Equal(t, noteNumber, rec.note())
		assert.Equal(t, 2*i, rec.afterAt)
	}
	l.truncate(1000)
	l.push(fixRecord{offset: -1})
	assert.Equal(t, 1001, l.len())
	assert.Equal(t, 999, l.at(999).offset)
	assert.Equal(t, -1, l.at(1000).offset)
	assert.Len(t, l.chunks, 5+(n-992+1023)/1024, "chunks of 32, 64, ..., 512, then of 1024")
}
