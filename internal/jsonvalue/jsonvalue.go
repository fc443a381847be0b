package jsonvalue

import (
	"encoding/json"
	"errors"
)

// MaxDepth is the deepest nesting Decode reads itself; deeper documents are
// left to encoding/json, which has its own limit.
const MaxDepth = 10000

// errFallback marks input the fast decoder leaves to encoding/json: a syntax
// error (whose message encoding/json words), a number out of range, or a
// document nested too deeply.
var errFallback = errors.New("jsonvalue: not decoded")

// Decode returns the value data holds, exactly as json.Unmarshal into an any
// returns it: map[string]any, []any, string, float64, bool or nil, the last
// of a repeated key winning, invalid UTF-8 replaced by U+FFFD. Its errors
// are json.Unmarshal's. It copies data once: the strings of the value share
// that copy, so the value does not alias data.
func Decode(data []byte) (any, error) {
	var d Decoder
	return d.Decode(data)
}

// A Decoder decodes JSON documents as [Decode] does, keeping its scratch
// space between calls. The zero Decoder is ready to use; it is not safe for
// concurrent use.
//
// Besides whole documents, it reads one in parts, for a caller that builds
// some of the value itself: [Decoder.Start], then [Decoder.Peek],
// [Decoder.Value], [Decoder.String], [Decoder.Open], [Decoder.Key] and
// [Decoder.Next] as the document's grammar asks, then [Decoder.Finish].
// Any error of these means that the fast decoder does not read the
// document (a syntax error, a number out of range, nesting beyond
// [MaxDepth]): decode it whole, whose error is json.Unmarshal's.
type Decoder struct {
	src     string // the document
	pos     int
	depth   int
	deepest int
	keys    []string // object members and array items being read, a stack
	vals    []any
}

// Deepest returns how deeply the arrays and objects of the last document
// decoded nest (0 for a scalar, 1 for a flat array), or -1 when the last
// document was left to encoding/json.
func (d *Decoder) Deepest() int { return d.deepest }

// Decode is [Decode] with d's scratch space.
func (d *Decoder) Decode(data []byte) (any, error) {
	return d.decode(string(data), data)
}

// DecodeString is [Decoder.Decode] for a document held in a string, which
// it does not copy: the strings of the value share src's memory.
func (d *Decoder) DecodeString(src string) (any, error) {
	return d.decode(src, nil)
}

// decode decodes src; data, if not nil, holds the same bytes, for
// encoding/json.
func (d *Decoder) decode(src string, data []byte) (any, error) {
	d.Start(src)
	v, err := d.value()
	if err == nil {
		err = d.Finish()
	} else {
		d.Finish()
	}
	if err != nil {
		d.deepest = -1
		if data == nil {
			data = []byte(src)
		}
		var out any
		if uerr := json.Unmarshal(data, &out); uerr != nil {
			return nil, uerr
		}
		// encoding/json read what the fast decoder left to it.
		return out, nil
	}
	return v, nil
}

// Start begins reading src in parts.
func (d *Decoder) Start(src string) {
	d.src, d.pos, d.depth, d.deepest = src, 0, 0, 0
	d.keys, d.vals = d.keys[:0], d.vals[:0]
}

// Finish ends reading a document in parts, letting go of it, and returns
// an error if anything but whitespace follows its value.
func (d *Decoder) Finish() error {
	d.space()
	var err error
	if d.pos != len(d.src) {
		err = errFallback
	}
	d.src = ""
	clear(d.vals[:cap(d.vals)]) // let the values go
	clear(d.keys[:cap(d.keys)])
	return err
}

// Peek returns the first byte of the value that comes next, after
// whitespace ('{', '[', '"', a digit...), or 0 at the end of the document.
func (d *Decoder) Peek() byte {
	d.space()
	if d.pos >= len(d.src) {
		return 0
	}
	return d.src[d.pos]
}

// Value decodes the value that comes next.
func (d *Decoder) Value() (any, error) { return d.value() }

// String decodes the string that comes next, which [Decoder.Peek] has
// found ('"'), without boxing it in an any.
func (d *Decoder) String() (string, error) { return d.str() }

// Open enters the object or array whose first byte [Decoder.Peek] has
// just returned. An empty one is read whole: Open then reports true.
func (d *Decoder) Open() (empty bool, err error) {
	if d.depth++; d.depth > MaxDepth {
		return false, errFallback
	}
	d.deepest = max(d.deepest, d.depth)
	closer := byte('}')
	if d.src[d.pos] == '[' {
		closer = ']'
	}
	d.pos++
	d.space()
	if d.pos < len(d.src) && d.src[d.pos] == closer {
		d.pos++
		d.depth--
		return true, nil
	}
	return false, nil
}

// Key reads the name of an object's member, and the colon after it.
func (d *Decoder) Key() (string, error) {
	d.space()
	if d.pos >= len(d.src) || d.src[d.pos] != '"' {
		return "", errFallback
	}
	k, err := d.str()
	if err != nil {
		return "", err
	}
	d.space()
	if d.pos >= len(d.src) || d.src[d.pos] != ':' {
		return "", errFallback
	}
	d.pos++
	return k, nil
}

// Next reads what follows a member or an item of the object or array
// entered last: a comma (more is true) or its closing bracket (given),
// which leaves it.
func (d *Decoder) Next(closer byte) (more bool, err error) {
	d.space()
	if d.pos >= len(d.src) {
		return false, errFallback
	}
	c := d.src[d.pos]
	d.pos++
	switch c {
	case ',':
		return true, nil
	case closer:
		d.depth--
		return false, nil
	}
	return false, errFallback
}

func (d *Decoder) space() {
	for d.pos < len(d.src) {
		switch d.src[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *Decoder) value() (any, error) {
	d.space()
	if d.pos >= len(d.src) {
		return nil, errFallback
	}
	switch c := d.src[d.pos]; c {
	case '{':
		return d.object()
	case '[':
		return d.array()
	case '"':
		s, err := d.str()
		if err != nil {
			return nil, err
		}
		return s, nil
	case 't':
		return d.literal("true", true)
	case 'f':
		return d.literal("false", false)
	case 'n':
		return d.literal("null", nil)
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return d.number()
		}
		return nil, errFallback
	}
}

func (d *Decoder) literal(word string, v any) (any, error) {
	if len(d.src)-d.pos < len(word) || d.src[d.pos:d.pos+len(word)] != word {
		return nil, errFallback
	}
	d.pos += len(word)
	return v, nil
}

func (d *Decoder) object() (any, error) {
	empty, err := d.Open()
	if err != nil {
		return nil, err
	}
	if empty {
		return map[string]any{}, nil
	}
	base := len(d.keys)
	for more := true; more; {
		k, err := d.Key() // a string, not boxed: it becomes a map key
		if err != nil {
			return nil, err
		}
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		d.keys = append(d.keys, k)
		d.vals = append(d.vals, v)
		if more, err = d.Next('}'); err != nil {
			return nil, err
		}
	}
	m := make(map[string]any, len(d.keys)-base)
	for i := base; i < len(d.keys); i++ {
		m[d.keys[i]] = d.vals[i]
	}
	d.keys, d.vals = d.keys[:base], d.vals[:base]
	return m, nil
}

func (d *Decoder) array() (any, error) {
	empty, err := d.Open()
	if err != nil {
		return nil, err
	}
	if empty {
		return []any{}, nil
	}
	base := len(d.vals)
	for more := true; more; {
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		d.vals = append(d.vals, v)
		d.keys = append(d.keys, "") // keeps the two stacks level
		if more, err = d.Next(']'); err != nil {
			return nil, err
		}
	}
	a := make([]any, len(d.vals)-base)
	copy(a, d.vals[base:])
	d.keys, d.vals = d.keys[:base], d.vals[:base]
	return a, nil
}

// str reads a string. One without escapes and in valid UTF-8 is a slice of
// the document; any other is unquoted by encoding/json, so that escapes,
// surrogates and invalid bytes read exactly as it reads them.
func (d *Decoder) str() (string, error) {
	end, plain, ok := ScanString(d.src, d.pos)
	if !ok {
		return "", errFallback
	}
	start := d.pos
	d.pos = end
	if plain {
		return d.src[start+1 : end-1], nil
	}
	var s string
	if err := json.Unmarshal([]byte(d.src[start:end]), &s); err != nil {
		return "", errFallback
	}
	return s, nil
}

// number reads a number and converts it as encoding/json does.
func (d *Decoder) number() (any, error) {
	end, ok := ScanNumber(d.src, d.pos)
	if !ok {
		return nil, errFallback
	}
	f, ok := ParseNumber(d.src[d.pos:end])
	if !ok {
		return nil, errFallback // out of range: encoding/json's error
	}
	d.pos = end
	return f, nil
}
