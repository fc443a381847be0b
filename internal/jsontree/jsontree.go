package jsontree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/internal/jsonraw"
)

// A Kind is the kind of a JSON value.
type Kind uint8

// The kinds of JSON value.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// A Node is a JSON value that keeps the order of object members.
type Node struct {
	Kind   Kind
	Bool   bool     // a boolean's value
	Text   string   // a string's value or a number's literal
	Items  []*Node  // an array's elements
	Keys   []string // an object's member names, in document order
	Values []*Node  // an object's member values, parallel to Keys
	Dups   []string // member names that occurred more than once (the last is kept)
}

// Get returns the value of the member named key, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for i, k := range n.Keys {
		if k == key {
			return n.Values[i]
		}
	}
	return nil
}

// Set replaces the value of the member named key, appending it when absent.
func (n *Node) Set(key string, v *Node) {
	for i, k := range n.Keys {
		if k == key {
			n.Values[i] = v
			return
		}
	}
	n.Keys = append(n.Keys, key)
	n.Values = append(n.Values, v)
}

// Del removes the member named key, if present.
func (n *Node) Del(key string) {
	for i, k := range n.Keys {
		if k == key {
			n.Keys = append(n.Keys[:i:i], n.Keys[i+1:]...)
			n.Values = append(n.Values[:i:i], n.Values[i+1:]...)
			return
		}
	}
}

// Has reports whether n is an object with a member named key.
func (n *Node) Has(key string) bool { return n.Get(key) != nil }

// StringMember returns the value of the member named key when it is a
// string.
func (n *Node) StringMember(key string) (string, bool) {
	if v := n.Get(key); v != nil && v.Kind == String {
		return v.Text, true
	}
	return "", false
}

// ObjectMember returns the value of the member named key when it is an
// object, or nil.
func (n *Node) ObjectMember(key string) *Node {
	if v := n.Get(key); v != nil && v.Kind == Object {
		return v
	}
	return nil
}

// ArrayMember returns the elements of the member named key when it is an
// array.
func (n *Node) ArrayMember(key string) ([]*Node, bool) {
	if v := n.Get(key); v != nil && v.Kind == Array {
		return v.Items, true
	}
	return nil, false
}

// IsString reports whether n is the string s.
func (n *Node) IsString(s string) bool { return n != nil && n.Kind == String && n.Text == s }

// IsFalse reports whether n is false.
func (n *Node) IsFalse() bool { return n != nil && n.Kind == Bool && !n.Bool }

// Rename renames the member from to to in place, keeping its position; to
// must not be a member already.
func (n *Node) Rename(from, to string) {
	for i, k := range n.Keys {
		if k == from {
			n.Keys[i] = to
			return
		}
	}
}

// Clone returns a copy of n whose members and elements may be added,
// replaced or removed without changing n; the values are shared.
func (n *Node) Clone() *Node {
	c := *n
	c.Items = slices.Clone(n.Items)
	c.Keys = slices.Clone(n.Keys)
	c.Values = slices.Clone(n.Values)
	c.Dups = slices.Clone(n.Dups)
	return &c
}

// DeepCopy returns a copy of the whole tree under n, sharing nothing with
// it.
func (n *Node) DeepCopy() *Node {
	c := n.Clone()
	for i, e := range c.Items {
		c.Items[i] = e.DeepCopy()
	}
	for i, v := range c.Values {
		c.Values[i] = v.DeepCopy()
	}
	return c
}

// Equal reports whether n and m are the same JSON value: member order is
// ignored, numbers are compared by their literal.
func (n *Node) Equal(m *Node) bool {
	if n.Kind != m.Kind {
		return false
	}
	switch n.Kind {
	case Bool:
		return n.Bool == m.Bool
	case Number, String:
		return n.Text == m.Text
	case Array:
		if len(n.Items) != len(m.Items) {
			return false
		}
		for i, e := range n.Items {
			if !e.Equal(m.Items[i]) {
				return false
			}
		}
		return true
	case Object:
		if len(n.Keys) != len(m.Keys) {
			return false
		}
		for i, k := range n.Keys {
			w := m.Get(k)
			if w == nil || !n.Values[i].Equal(w) {
				return false
			}
		}
		return true
	}
	return true // null
}

// ResolveRef returns the value the local reference ref ("#", "#/$defs/a")
// points to in the document n, or nil: for a reference into another
// document, an anchor ("#foo") or a pointer that leads nowhere.
func (n *Node) ResolveRef(ref string) *Node {
	ptr, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	if ptr == "" {
		return n
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil // an anchor
	}
	cur := n
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = UnescapeRefToken(tok)
		switch cur.Kind {
		case Object:
			if cur = cur.Get(tok); cur == nil {
				return nil
			}
		case Array:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.Items) {
				return nil
			}
			cur = cur.Items[i]
		default:
			return nil
		}
	}
	return cur
}

// UnescapeRefToken decodes one reference token of a $ref's fragment: the
// percent-encoding of the URI fragment (a malformed escape stays as it is),
// then the ~1 and ~0 escapes of the JSON Pointer.
func UnescapeRefToken(tok string) string {
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
	return jsonpath.UnescapeToken(tok)
}

// KindName names the kind of n for messages.
func (n *Node) KindName() string {
	switch n.Kind {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	default:
		return "object"
	}
}

// AppendJSON appends n as compact JSON, member order kept.
func (n *Node) AppendJSON(buf []byte) []byte {
	switch n.Kind {
	case Null:
		return append(buf, "null"...)
	case Bool:
		return strconv.AppendBool(buf, n.Bool)
	case Number:
		return append(buf, n.Text...)
	case String:
		return jsonraw.AppendString(buf, n.Text)
	case Array:
		buf = append(buf, '[')
		for i, e := range n.Items {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = e.AppendJSON(buf)
		}
		return append(buf, ']')
	default:
		buf = append(buf, '{')
		for i, k := range n.Keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = jsonraw.AppendString(buf, k)
			buf = append(buf, ':')
			buf = n.Values[i].AppendJSON(buf)
		}
		return append(buf, '}')
	}
}

// ErrTooDeep is the Err of a [DecodeError] for a document nested deeper
// than the limit given.
var ErrTooDeep = errors.New("jsontree: too deep")

// A DecodeError says where and why [Decode] stopped.
type DecodeError struct {
	Path   jsonpath.Path // where decoding stopped
	Reason string        // "malformed JSON: ...", "nested more than N levels deep", ...
	// Trailing is true when the document is followed by more data.
	Trailing bool
	// Err is ErrTooDeep or the decoder's error.
	Err error
}

// Error returns "<path>: <reason>".
func (e *DecodeError) Error() string { return jsonpath.Format(e.Path) + ": " + e.Reason }

// Unwrap returns Err.
func (e *DecodeError) Unwrap() error { return e.Err }

// Decode decodes one JSON document into a tree. It fails with a
// [*DecodeError] on malformed JSON, on trailing data and on nesting deeper
// than maxDepth.
func Decode(data []byte, maxDepth int) (*Node, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var path jsonpath.Path
	n, err := decodeValue(d, &path, 0, maxDepth)
	if err != nil {
		reason := decodeReason(err, maxDepth)
		if !errors.Is(err, ErrTooDeep) {
			reason += fmt.Sprintf(" (at byte %d)", d.InputOffset())
		}
		return nil, &DecodeError{Path: path, Reason: reason, Err: err}
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, &DecodeError{Reason: "unexpected data after the top-level value", Trailing: true, Err: err}
	}
	return n, nil
}

func decodeReason(err error, maxDepth int) string {
	switch {
	case errors.Is(err, ErrTooDeep):
		return fmt.Sprintf("nested more than %d levels deep", maxDepth)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "malformed JSON: unexpected end of input"
	}
	return "malformed JSON: " + strings.TrimPrefix(err.Error(), "json: ")
}

func decodeValue(d *json.Decoder, path *jsonpath.Path, depth, maxDepth int) (*Node, error) {
	tok, err := d.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &Node{Kind: Null}, nil
	case bool:
		return &Node{Kind: Bool, Bool: t}, nil
	case json.Number:
		return &Node{Kind: Number, Text: string(t)}, nil
	case string:
		return &Node{Kind: String, Text: t}, nil
	case json.Delim:
		if depth >= maxDepth {
			return nil, ErrTooDeep
		}
		if t == '[' {
			n := &Node{Kind: Array}
			for i := 0; d.More(); i++ {
				*path = append(*path, jsonpath.Index(i))
				e, err := decodeValue(d, path, depth+1, maxDepth)
				if err != nil {
					return nil, err
				}
				*path = (*path)[:len(*path)-1]
				n.Items = append(n.Items, e)
			}
			if _, err := d.Token(); err != nil {
				return nil, err
			}
			return n, nil
		}
		n := &Node{Kind: Object}
		seen := map[string]int{}
		for d.More() {
			kt, err := d.Token()
			if err != nil {
				return nil, err
			}
			key, ok := kt.(string)
			if !ok {
				return nil, fmt.Errorf("object key is not a string")
			}
			*path = append(*path, jsonpath.Key(key))
			v, err := decodeValue(d, path, depth+1, maxDepth)
			if err != nil {
				return nil, err
			}
			*path = (*path)[:len(*path)-1]
			if i, ok := seen[key]; ok {
				// encoding/json keeps the last duplicate; so do we.
				n.Values[i] = v
				n.Dups = append(n.Dups, key)
				continue
			}
			seen[key] = len(n.Keys)
			n.Keys = append(n.Keys, key)
			n.Values = append(n.Values, v)
		}
		if _, err := d.Token(); err != nil {
			return nil, err
		}
		return n, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}
