package jsonraw

import (
	"strconv"

	"github.com/agentio/agentio/internal/jsonpath"
)

// Locate returns the byte offset of the value at path in data, or of the
// deepest value on the way that exists; ok is false when path does not
// parse or data is not JSON there. path is in agentio's one path syntax
// (internal/jsonpath), for messages that name a line and column.
func Locate(data []byte, path string) (offset int, ok bool) {
	segs, err := jsonpath.Parse(path, false)
	if err != nil {
		return 0, false
	}
	i := SkipSpace(data, 0)
	if i >= len(data) {
		return 0, false
	}
	for _, seg := range segs {
		next, found := child(data, i, seg)
		if !found {
			return i, true
		}
		i = next
	}
	return i, true
}

// LineCol returns the 1-based line and column (in bytes) of offset.
func LineCol(data []byte, offset int) (line, col int) {
	offset = min(max(offset, 0), len(data))
	line, start := 1, 0
	for i := 0; i < offset; i++ {
		if data[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, offset - start + 1
}

// child returns the offset of the member or element seg of the value at i.
func child(data []byte, i int, seg jsonpath.Step) (int, bool) {
	if i >= len(data) {
		return 0, false
	}
	switch {
	case data[i] == '{' && seg.Kind == jsonpath.KindKey:
		j := SkipSpace(data, i+1)
		for j < len(data) && data[j] == '"' {
			end := StringEnd(data, j)
			if end-j < 2 || data[end-1] != '"' {
				return 0, false // not closed
			}
			key, err := strconv.Unquote(string(data[j:end]))
			if err != nil {
				key = string(data[j+1 : end-1]) // an escape Go does not share, or a quote escaped at the end
			}
			j = SkipSpace(data, end)
			if j >= len(data) || data[j] != ':' {
				return 0, false
			}
			j = SkipSpace(data, j+1)
			if key == seg.Key {
				return j, true
			}
			j = SkipSpace(data, ValueEnd(data, j))
			if j < len(data) && data[j] == ',' {
				j = SkipSpace(data, j+1)
			}
		}
	case data[i] == '[' && seg.Kind == jsonpath.KindIndex:
		j := SkipSpace(data, i+1)
		for n := 0; j < len(data) && data[j] != ']'; n++ {
			if n == seg.Index {
				return j, true
			}
			j = SkipSpace(data, ValueEnd(data, j))
			if j < len(data) && data[j] == ',' {
				j = SkipSpace(data, j+1)
			}
		}
	}
	return 0, false
}
