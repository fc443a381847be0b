package schema

import (
	"strconv"
	"strings"
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

// jsonPath renders the location JSONPath style: "$", "$.issues[0].severity",
// "$['odd key']".
func (p segments) jsonPath() string {
	var b strings.Builder
	b.WriteByte('$')
	for _, s := range p {
		s.appendPath(&b)
	}
	return b.String()
}

// pointer renders the location as a JSON Pointer: "", "/issues/0/severity".
func (p segments) pointer() string {
	var b strings.Builder
	for _, s := range p {
		s.appendPointer(&b)
	}
	return b.String()
}

func (s segment) appendPath(b *strings.Builder) {
	if !s.isKey {
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(s.index))
		b.WriteByte(']')
		return
	}
	if isPlainName(s.key) {
		b.WriteByte('.')
		b.WriteString(s.key)
		return
	}
	b.WriteString("['")
	for _, r := range s.key {
		switch r {
		case '\'', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString("']")
}

func (s segment) appendPointer(b *strings.Builder) {
	b.WriteByte('/')
	if !s.isKey {
		b.WriteString(strconv.Itoa(s.index))
		return
	}
	b.WriteString(escapePointer(s.key))
}

// The escapes of a JSON Pointer reference token (RFC 6901). A Replacer is
// immutable and safe for concurrent use.
var (
	pointerEscaper   = strings.NewReplacer("~", "~0", "/", "~1")
	pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

// escapePointer escapes a JSON Pointer reference token (RFC 6901).
func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return pointerEscaper.Replace(s)
}

// unescapePointer decodes the ~1 and ~0 escapes of a JSON Pointer
// reference token.
func unescapePointer(tok string) string {
	if !strings.Contains(tok, "~") {
		return tok
	}
	return pointerUnescaper.Replace(tok)
}

// unescapeRefToken decodes one reference token of a $ref's fragment: the
// percent-encoding of the URI fragment (a malformed escape stays as it is),
// then the ~1 and ~0 escapes of the JSON Pointer.
func unescapeRefToken(tok string) string {
	if strings.Contains(tok, "%") {
		var b strings.Builder
		for i := 0; i < len(tok); i++ {
			if tok[i] == '%' && i+2 < len(tok) {
				if n, err := strconv.ParseUint(tok[i+1:i+3], 16, 8); err == nil {
					b.WriteByte(byte(n))
					i += 2
					continue
				}
			}
			b.WriteByte(tok[i])
		}
		tok = b.String()
	}
	return unescapePointer(tok)
}

// isPlainName reports whether key can follow a dot in a JSONPath: ASCII
// letters, digits, '_' and '$', not starting with a digit.
func isPlainName(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '$':
		case c >= '0' && c <= '9':
			if i == 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

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
