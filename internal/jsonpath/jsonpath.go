package jsonpath

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Kind is what a [Step] selects.
type Kind uint8

// The kinds of step.
const (
	// KindKey is one member of an object, by name.
	KindKey Kind = iota
	// KindIndex is one element of an array, by index.
	KindIndex
	// KindAll is every element of an array or member of an object.
	KindAll
)

// A Step is one step of a path.
type Step struct {
	Kind  Kind
	Key   string // for KindKey
	Index int    // for KindIndex, never negative
}

// Key returns the step to the member named k.
func Key(k string) Step { return Step{Kind: KindKey, Key: k} }

// Index returns the step to element i.
func Index(i int) Step { return Step{Kind: KindIndex, Index: i} }

// A Path is a location, root first; the empty Path is the root.
type Path []Step

// String returns p as [Format] writes it.
func (p Path) String() string { return Format(p) }

// Format writes p: "$", "$.issues[0].severity", "$['a$b']".
func Format(p Path) string {
	b := make([]byte, 0, 16*len(p)+1)
	b = append(b, '$')
	for _, s := range p {
		b = AppendStep(b, s)
	}
	return string(b)
}

// AppendStep appends s as Format writes it to b.
func AppendStep(b []byte, s Step) []byte {
	switch s.Kind {
	case KindIndex:
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(s.Index), 10)
		return append(b, ']')
	case KindAll:
		return append(b, "[*]"...)
	}
	return AppendKey(b, s.Key)
}

// AppendKey appends the step to the member named k to b: ".k" when k is a
// plain name, else "['k']" with the escapes Parse reads.
func AppendKey(b []byte, k string) []byte {
	if plain(k) {
		b = append(b, '.')
		return append(b, k...)
	}
	b = append(b, "['"...)
	for i := 0; i < len(k); {
		r, size := utf8.DecodeRuneInString(k[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b = append(b, `\x`...)
			b = append(b, hex[k[i]>>4], hex[k[i]&0xf])
		case r == '\'' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r < 0x20 || r == 0x7f:
			b = append(b, `\u00`...)
			b = append(b, hex[r>>4], hex[r&0xf])
		default:
			b = append(b, k[i:i+size]...)
		}
		i += size
	}
	return append(b, "']"...)
}

const hex = "0123456789abcdef"

// plain reports whether k can follow a dot: ASCII letters, digits, '_'
// and '$', not starting with a digit.
func plain(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
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

// An Error is a path that does not parse: what was wanted, and where.
type Error struct {
	Path   string
	Offset int // byte offset in Path
	Reason string
}

// Error returns "invalid path <path> at byte <offset>: <reason>".
func (e *Error) Error() string {
	return fmt.Sprintf("invalid path %q at byte %d: %s", e.Path, e.Offset, e.Reason)
}

// Parse reads a path. "[*]" steps are read only when patterns is true (a
// crosscheck rule); a location has none. The error is an [*Error].
func Parse(s string, patterns bool) (Path, error) {
	bad := func(at int, why string) error { return &Error{Path: s, Offset: at, Reason: why} }
	if !strings.HasPrefix(s, "$") {
		return nil, bad(0, "a path starts with $")
	}
	var p Path
	i := 1
	for i < len(s) {
		switch s[i] {
		case '.':
			j := i + 1
			for j < len(s) && nameByte(s[j]) {
				j++
			}
			if j == i+1 {
				return nil, bad(i+1, "a member name after '.' (letters, digits, '_', '$', '-'; quote others as ['name'])")
			}
			p = append(p, Key(s[i+1:j]))
			i = j
		case '[':
			if i+1 >= len(s) {
				return nil, bad(i, "an unclosed [")
			}
			switch c := s[i+1]; {
			case c == '*' && patterns:
				if i+2 >= len(s) || s[i+2] != ']' {
					return nil, bad(i+2, "] after *")
				}
				p = append(p, Step{Kind: KindAll})
				i += 3
			case c == '\'' || c == '"':
				key, end, err := unquote(s, i+1)
				if err != nil {
					return nil, err
				}
				if end >= len(s) || s[end] != ']' {
					return nil, bad(end, "] after a quoted member name")
				}
				p = append(p, Key(key))
				i = end + 1
			case c >= '0' && c <= '9':
				j := i + 1
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
				n, err := strconv.Atoi(s[i+1 : j])
				if err != nil || j >= len(s) || s[j] != ']' || (j-i > 2 && s[i+1] == '0') {
					return nil, bad(i+1, "an index (a non-negative integer, no leading zero) closed by ]")
				}
				p = append(p, Index(n))
				i = j + 1
			case patterns:
				return nil, bad(i+1, "an index, * or a quoted name after [")
			default:
				return nil, bad(i+1, "an index or a quoted name after [")
			}
		default:
			return nil, bad(i, "'.' or '[' between steps")
		}
	}
	return p, nil
}

// nameByte reports whether c may stand in a dotted name as Parse reads it.
func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c == '-'
}

// unquote reads the quoted name whose quote is s[i] and returns it and the
// offset after its closing quote.
func unquote(s string, i int) (string, int, error) {
	q := s[i]
	var b []byte
	for j := i + 1; j < len(s); j++ {
		c := s[j]
		switch {
		case c == q:
			return string(b), j + 1, nil
		case c != '\\':
			b = append(b, c)
			continue
		}
		if j+1 >= len(s) {
			break
		}
		j++
		switch e := s[j]; e {
		case '\'', '"', '\\', '/':
			b = append(b, e)
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'x':
			n, ok := hexValue(s, j+1, 2)
			if !ok {
				return "", 0, &Error{Path: s, Offset: j - 1, Reason: `\x takes two hex digits`}
			}
			b = append(b, byte(n))
			j += 2
		case 'u':
			n, ok := hexValue(s, j+1, 4)
			if !ok {
				return "", 0, &Error{Path: s, Offset: j - 1, Reason: `\u takes four hex digits`}
			}
			b = utf8.AppendRune(b, rune(n))
			j += 4
		default:
			return "", 0, &Error{Path: s, Offset: j - 1, Reason: fmt.Sprintf(`unknown escape \%c`, e)}
		}
	}
	return "", 0, &Error{Path: s, Offset: i, Reason: "an unclosed quoted member name"}
}

// hexValue reads n hex digits at s[i:].
func hexValue(s string, i, n int) (uint64, bool) {
	if i+n > len(s) {
		return 0, false
	}
	v, err := strconv.ParseUint(s[i:i+n], 16, 32)
	return v, err == nil
}

// Pointer returns p as a JSON Pointer (RFC 6901): "/issues/0/severity",
// "" for the root. A KindAll step is written "*".
func Pointer(p Path) string {
	if len(p) == 0 {
		return ""
	}
	size := 0
	for _, s := range p {
		size += 1 + len(s.Key) + 4
	}
	b := make([]byte, 0, size)
	for _, s := range p {
		b = append(b, '/')
		switch s.Kind {
		case KindIndex:
			b = strconv.AppendInt(b, int64(s.Index), 10)
		case KindAll:
			b = append(b, '*')
		default:
			b = appendToken(b, s.Key)
		}
	}
	return string(b)
}

// appendToken appends k escaped as EscapeToken escapes it to b.
func appendToken(b []byte, k string) []byte {
	for i := 0; i < len(k); i++ {
		switch k[i] {
		case '~':
			b = append(b, "~0"...)
		case '/':
			b = append(b, "~1"...)
		default:
			b = append(b, k[i])
		}
	}
	return b
}

// EscapeToken escapes a member name as a JSON Pointer reference token:
// "~" as "~0", "/" as "~1".
func EscapeToken(k string) string {
	if !strings.ContainsAny(k, "~/") {
		return k
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}

// UnescapeToken decodes the "~1" and "~0" escapes of a JSON Pointer
// reference token.
func UnescapeToken(tok string) string {
	if !strings.Contains(tok, "~") {
		return tok
	}
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
}

// A Chain is a path built while a walk descends (through an instance, a
// schema document): a linked list from the innermost step to the root,
// the nil *Chain being the root, so that descending costs one small
// allocation a step and nothing is rendered until asked. A Chain is
// immutable and may be shared.
type Chain struct {
	parent *Chain
	step   Step
	len    int // steps from the root, this one included
}

// Key returns the chain one member named k below c.
func (c *Chain) Key(k string) *Chain { return &Chain{parent: c, step: Key(k), len: c.Len() + 1} }

// Index returns the chain one element i below c.
func (c *Chain) Index(i int) *Chain { return &Chain{parent: c, step: Index(i), len: c.Len() + 1} }

// Links hands out chains from blocks it allocates a few dozen at a time,
// for a walk that builds many: one allocation per block, not per step.
// Its zero value is ready to use. A chain it returned stays valid for as
// long as it is referenced; Links is not safe for concurrent use.
type Links struct {
	block []Chain
}

// linksBlock is how many chains a block of Links holds.
const linksBlock = 64

// Key returns the chain one member named k below c, as [Chain.Key].
func (l *Links) Key(c *Chain, k string) *Chain {
	return l.next(Chain{parent: c, step: Key(k), len: c.Len() + 1})
}

// Index returns the chain one element i below c, as [Chain.Index].
func (l *Links) Index(c *Chain, i int) *Chain {
	return l.next(Chain{parent: c, step: Index(i), len: c.Len() + 1})
}

func (l *Links) next(c Chain) *Chain {
	if len(l.block) == cap(l.block) {
		l.block = make([]Chain, 0, linksBlock)
	}
	l.block = append(l.block, c)
	return &l.block[len(l.block)-1]
}

// Equal reports whether c and d lead to the same place.
func (c *Chain) Equal(d *Chain) bool {
	if c.Len() != d.Len() {
		return false
	}
	for c != nil && d != nil {
		if c == d {
			return true
		}
		if c.step != d.step {
			return false
		}
		c, d = c.parent, d.parent
	}
	return c == d
}

// Len returns the number of steps from the root to c, in constant time.
func (c *Chain) Len() int {
	if c == nil {
		return 0
	}
	return c.len
}

// Path returns the steps from the root to c.
func (c *Chain) Path() Path {
	n := c.Len()
	out := make(Path, n)
	for q := c; q != nil; q = q.parent {
		n--
		out[n] = q.step
	}
	return out
}

// String returns c's path as [Format] writes it.
func (c *Chain) String() string {
	return string(c.AppendString(make([]byte, 0, c.textSize(1))))
}

// AppendString appends c's path as [Format] writes it to b and returns
// the extended buffer.
func (c *Chain) AppendString(b []byte) []byte {
	var buf [32]*Chain
	b = append(b, '$')
	for _, q := range c.links(buf[:0]) {
		b = AppendStep(b, q.step)
	}
	return b
}

// Pointer returns c's path as a JSON Pointer.
func (c *Chain) Pointer() string {
	if c == nil {
		return ""
	}
	return string(c.AppendPointer(make([]byte, 0, c.textSize(0))))
}

// AppendPointer appends c's path as a JSON Pointer to b and returns the
// extended buffer.
func (c *Chain) AppendPointer(b []byte) []byte {
	var buf [32]*Chain
	for _, q := range c.links(buf[:0]) {
		b = append(b, '/')
		switch q.step.Kind {
		case KindIndex:
			b = strconv.AppendInt(b, int64(q.step.Index), 10)
		case KindAll:
			b = append(b, '*')
		default:
			b = appendToken(b, q.step.Key)
		}
	}
	return b
}

// textSize is room for c's path, plus extra bytes.
func (c *Chain) textSize(extra int) int {
	size := extra
	for q := c; q != nil; q = q.parent {
		size += 4 + len(q.step.Key) // .k, or [i] of a few digits
	}
	return size
}

// links returns the links of c from the root's child to c, in buf when it
// has room.
func (c *Chain) links(buf []*Chain) []*Chain {
	n := c.Len()
	if cap(buf) < n {
		buf = make([]*Chain, n)
	}
	buf = buf[:n]
	for q := c; q != nil; q = q.parent {
		n--
		buf[n] = q
	}
	return buf
}

// PointerOf returns path, written in this syntax, as a JSON Pointer (RFC 6901): "$.a['b/c'][0]" is
// "/a/b~1c/0". ok is false when path does not parse.
func PointerOf(path string) (string, bool) {
	p, err := Parse(path, false)
	if err != nil {
		return "", false
	}
	return Pointer(p), true
}
