// Package jsonpos finds where in a JSON document a value is, for messages
// that name a line and column: a schema problem at
// "$.properties.severity.type" is at 7:15 of the file.
package jsonpos

import (
	"strconv"
	"strings"

	"github.com/agentio/agentio/internal/jsonobj"
)

// Locate returns the byte offset of the value at path in data, or of the
// deepest value on the way that exists; ok is false when path does not
// parse or data is not JSON there. path is JSONPath as agentio writes it:
// $, .name, ['name'] and [n].
func Locate(data []byte, path string) (offset int, ok bool) {
	segs, ok := parsePath(path)
	if !ok {
		return 0, false
	}
	i := jsonobj.SkipSpace(data, 0)
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

type segment struct {
	key   string
	index int
	isKey bool
}

func parsePath(p string) ([]segment, bool) {
	if !strings.HasPrefix(p, "$") {
		return nil, false
	}
	var out []segment
	i := 1
	for i < len(p) {
		switch p[i] {
		case '.':
			j := i + 1
			for j < len(p) && p[j] != '.' && p[j] != '[' {
				j++
			}
			out = append(out, segment{key: p[i+1 : j], isKey: true})
			i = j
		case '[':
			if i+1 < len(p) && p[i+1] == '\'' {
				var b strings.Builder
				j := i + 2
				for ; j < len(p) && p[j] != '\''; j++ {
					if p[j] == '\\' && j+1 < len(p) {
						j++
					}
					b.WriteByte(p[j])
				}
				if j+1 >= len(p) || p[j+1] != ']' {
					return nil, false
				}
				out = append(out, segment{key: b.String(), isKey: true})
				i = j + 2
				continue
			}
			j := strings.IndexByte(p[i:], ']')
			if j < 0 {
				return nil, false
			}
			n, err := strconv.Atoi(p[i+1 : i+j])
			if err != nil {
				return nil, false
			}
			out = append(out, segment{index: n})
			i += j + 1
		default:
			return nil, false
		}
	}
	return out, true
}

// child returns the offset of the member or element seg of the value at i.
func child(data []byte, i int, seg segment) (int, bool) {
	if i >= len(data) {
		return 0, false
	}
	switch {
	case data[i] == '{' && seg.isKey:
		j := jsonobj.SkipSpace(data, i+1)
		for j < len(data) && data[j] == '"' {
			end := jsonobj.StringEnd(data, j)
			if end-j < 2 || data[end-1] != '"' {
				return 0, false // not closed
			}
			key, err := strconv.Unquote(string(data[j:end]))
			if err != nil {
				key = string(data[j+1 : end-1]) // an escape Go does not share, or a quote escaped at the end
			}
			j = jsonobj.SkipSpace(data, end)
			if j >= len(data) || data[j] != ':' {
				return 0, false
			}
			j = jsonobj.SkipSpace(data, j+1)
			if key == seg.key {
				return j, true
			}
			j = jsonobj.SkipSpace(data, jsonobj.ValueEnd(data, j))
			if j < len(data) && data[j] == ',' {
				j = jsonobj.SkipSpace(data, j+1)
			}
		}
	case data[i] == '[' && !seg.isKey:
		j := jsonobj.SkipSpace(data, i+1)
		for n := 0; j < len(data) && data[j] != ']'; n++ {
			if n == seg.index {
				return j, true
			}
			j = jsonobj.SkipSpace(data, jsonobj.ValueEnd(data, j))
			if j < len(data) && data[j] == ',' {
				j = jsonobj.SkipSpace(data, j+1)
			}
		}
	}
	return 0, false
}

// Pointer returns path as a JSON Pointer (RFC 6901): "$.a['b/c'][0]" is
// "/a/b~1c/0". ok is false when path does not parse.
func Pointer(path string) (string, bool) {
	segs, ok := parsePath(path)
	if !ok {
		return "", false
	}
	var b strings.Builder
	esc := strings.NewReplacer("~", "~0", "/", "~1")
	for _, s := range segs {
		b.WriteByte('/')
		if s.isKey {
			b.WriteString(esc.Replace(s.key))
		} else {
			b.WriteString(strconv.Itoa(s.index))
		}
	}
	return b.String(), true
}
