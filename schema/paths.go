package schema

import (
	"github.com/agentio/agentio/internal/jsonpath"
)

// A segment is one step of a location: an object member or an array index.
type segment struct {
	key   string
	index int
	isKey bool
}

// segments is a location as a list of steps, root first.
type segments []segment

func (p *segments) push(s segment) { *p = append(*p, s) }
func (p *segments) pop()           { *p = (*p)[:len(*p)-1] }

// jsonPath renders the location in agentio's one path syntax
// (internal/jsonpath): "$", "$.issues[0].severity", "$['odd key']".
func (p segments) jsonPath() string {
	b := make([]byte, 0, 16*len(p)+1)
	b = append(b, '$')
	for _, s := range p {
		b = jsonpath.AppendStep(b, s.step())
	}
	return string(b)
}

// pointer renders the location as a JSON Pointer: "", "/issues/0/severity".
func (p segments) pointer() string {
	path := make(jsonpath.Path, len(p))
	for i, s := range p {
		path[i] = s.step()
	}
	return jsonpath.Pointer(path)
}

// step returns s as a step of internal/jsonpath.
func (s segment) step() jsonpath.Step {
	if s.isKey {
		return jsonpath.Key(s.key)
	}
	return jsonpath.Index(s.index)
}

// escapePointer escapes a JSON Pointer reference token (RFC 6901).
func escapePointer(s string) string { return jsonpath.EscapeToken(s) }

// unescapePointer decodes the ~1 and ~0 escapes of a JSON Pointer
// reference token.
func unescapePointer(tok string) string { return jsonpath.UnescapeToken(tok) }

// An ipath is a location built while a pass descends (the diagnostic pass
// through an instance, the dialect conversion through a schema): a linked
// list from the innermost step to the root, nil being the root, so that
// descending costs no allocation until a location is rendered.
type ipath struct {
	parent *ipath
	seg    segment
}

func (p *ipath) key(k string) *ipath { return &ipath{parent: p, seg: segment{key: k, isKey: true}} }
func (p *ipath) index(i int) *ipath  { return &ipath{parent: p, seg: segment{index: i}} }

// depth returns the number of steps from the root to p.
func (p *ipath) depth() int {
	n := 0
	for q := p; q != nil; q = q.parent {
		n++
	}
	return n
}

// segments returns the steps from the root to p.
func (p *ipath) segments() segments {
	n := p.depth()
	out := make(segments, n)
	for q := p; q != nil; q = q.parent {
		n--
		out[n] = q.seg
	}
	return out
}
