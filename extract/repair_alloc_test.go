package extract_test

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/extract"
)

// allocated returns the bytes run allocates.
func allocated(run func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	run()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestRepairAllocatesForTheValueNotTheText: repairing a broken value of
// 5 KB allocates about as much whether megabytes of prose follow it or
// none: the output buffer is sized for the value, not for the rest of the
// text (an 8 MB reply cost 9.6 MB for a 5 KB value, against 0.2 MB).
func TestRepairAllocatesForTheValueNotTheText(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates megabytes")
	}
	val := "{'items': [" + strings.Repeat("{'a': True, 'b': None}, ", 250) + "]}"
	repair := func(text string) func() {
		return func() {
			c, err := extract.JSON(text, extract.WithRepair())
			require.NoError(t, err)
			require.Equal(t, extract.SourceRepaired, c.Source)
		}
	}
	alone := allocated(repair("Answer:\n" + val))
	for _, prose := range []int{1 << 20, 8 << 20} {
		text := "Answer:\n" + val + "\n\n" + strings.Repeat("Some prose words here. ", prose/23)
		got := allocated(repair(text))
		assert.LessOrEqual(t, got, 2*alone+64<<10, "%d bytes of prose after the value: %d bytes allocated, %d without", prose, got, alone)
	}
}
