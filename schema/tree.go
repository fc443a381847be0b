package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/agentio/agentio/internal/jsonobj"
)

// Limits on schema documents. They keep Parse's time, memory and recursion
// bounded whatever the input.
const (
	// maxSchemaBytes is the largest schema document Parse accepts.
	maxSchemaBytes = 8 << 20
	// maxSchemaDepth is the deepest nesting of JSON arrays and objects a
	// schema document may have.
	maxSchemaDepth = 256
)

// jkind is the kind of a JSON value in a decoded schema document.
type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

// A jnode is a JSON value that keeps the order of object members, so that
// schema locations, lint warnings and property order follow the author's
// document.
type jnode struct {
	kind jkind
	b    bool
	s    string // a string's value or a number's literal
	arr  []*jnode
	keys []string // object member names, in document order
	vals []*jnode // object member values, parallel to keys
	dups []string // object member names that occurred more than once
}

// get returns the value of the member named key, or nil.
func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != jObject {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// set replaces the value of the member named key, appending it when absent.
func (n *jnode) set(key string, v *jnode) {
	for i, k := range n.keys {
		if k == key {
			n.vals[i] = v
			return
		}
	}
	n.keys = append(n.keys, key)
	n.vals = append(n.vals, v)
}

// del removes the member named key, if present.
func (n *jnode) del(key string) {
	for i, k := range n.keys {
		if k == key {
			n.keys = append(n.keys[:i:i], n.keys[i+1:]...)
			n.vals = append(n.vals[:i:i], n.vals[i+1:]...)
			return
		}
	}
}

// has reports whether n is an object with a member named key.
func (n *jnode) has(key string) bool { return n.get(key) != nil }

// str returns the value of the member named key when it is a string.
func (n *jnode) str(key string) (string, bool) {
	if v := n.get(key); v != nil && v.kind == jString {
		return v.s, true
	}
	return "", false
}

// obj returns the value of the member named key when it is an object, or
// nil.
func (n *jnode) obj(key string) *jnode {
	if v := n.get(key); v != nil && v.kind == jObject {
		return v
	}
	return nil
}

// list returns the elements of the member named key when it is an array.
func (n *jnode) list(key string) ([]*jnode, bool) {
	if v := n.get(key); v != nil && v.kind == jArray {
		return v.arr, true
	}
	return nil, false
}

// isString reports whether n is the string s.
func (n *jnode) isString(s string) bool { return n != nil && n.kind == jString && n.s == s }

// isFalse reports whether n is false.
func (n *jnode) isFalse() bool { return n != nil && n.kind == jBool && !n.b }

// rename renames the member from to to in place, keeping its position; to
// must not be a member already.
func (n *jnode) rename(from, to string) {
	for i, k := range n.keys {
		if k == from {
			n.keys[i] = to
			return
		}
	}
}

// clone returns a copy of n whose members and elements may be added,
// replaced or removed without changing n; the values are shared.
func (n *jnode) clone() *jnode {
	c := *n
	c.arr = slices.Clone(n.arr)
	c.keys = slices.Clone(n.keys)
	c.vals = slices.Clone(n.vals)
	c.dups = slices.Clone(n.dups)
	return &c
}

// deepCopy returns a copy of the whole tree under n, sharing nothing with
// it.
func (n *jnode) deepCopy() *jnode {
	c := n.clone()
	for i, e := range c.arr {
		c.arr[i] = e.deepCopy()
	}
	for i, v := range c.vals {
		c.vals[i] = v.deepCopy()
	}
	return c
}

// equal reports whether n and m are the same JSON value: member order is
// ignored, numbers are compared by their literal.
func (n *jnode) equal(m *jnode) bool {
	if n.kind != m.kind {
		return false
	}
	switch n.kind {
	case jBool:
		return n.b == m.b
	case jNumber, jString:
		return n.s == m.s
	case jArray:
		if len(n.arr) != len(m.arr) {
			return false
		}
		for i, e := range n.arr {
			if !e.equal(m.arr[i]) {
				return false
			}
		}
		return true
	case jObject:
		if len(n.keys) != len(m.keys) {
			return false
		}
		for i, k := range n.keys {
			w := m.get(k)
			if w == nil || !n.vals[i].equal(w) {
				return false
			}
		}
		return true
	}
	return true // null
}

// resolveRef returns the value the local reference ref ("#", "#/$defs/a")
// points to in the document n, or nil: for a reference into another
// document, an anchor ("#foo") or a pointer that leads nowhere.
func (n *jnode) resolveRef(ref string) *jnode {
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
		tok = unescapeRefToken(tok)
		switch cur.kind {
		case jObject:
			if cur = cur.get(tok); cur == nil {
				return nil
			}
		case jArray:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.arr) {
				return nil
			}
			cur = cur.arr[i]
		default:
			return nil
		}
	}
	return cur
}

// kindName names the kind of n for messages.
func (n *jnode) kindName() string {
	switch n.kind {
	case jNull:
		return "null"
	case jBool:
		return "boolean"
	case jNumber:
		return "number"
	case jString:
		return "string"
	case jArray:
		return "array"
	default:
		return "object"
	}
}

// appendJSON appends n as compact JSON, member order kept.
func (n *jnode) appendJSON(buf []byte) []byte {
	switch n.kind {
	case jNull:
		return append(buf, "null"...)
	case jBool:
		return strconv.AppendBool(buf, n.b)
	case jNumber:
		return append(buf, n.s...)
	case jString:
		return jsonobj.AppendString(buf, n.s)
	case jArray:
		buf = append(buf, '[')
		for i, e := range n.arr {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = e.appendJSON(buf)
		}
		return append(buf, ']')
	default:
		buf = append(buf, '{')
		for i, k := range n.keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = jsonobj.AppendString(buf, k)
			buf = append(buf, ':')
			buf = n.vals[i].appendJSON(buf)
		}
		return append(buf, '}')
	}
}

// errTooDeep is returned by decodeTree for documents nested deeper than
// maxSchemaDepth.
var errTooDeep = errors.New("too deep")

// decodeTree decodes one JSON document into a jnode tree. It fails on
// malformed JSON, on trailing data and on nesting deeper than maxDepth; the
// error's path says where decoding stopped.
func decodeTree(data []byte, maxDepth int) (*jnode, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var path segments
	n, err := decodeValue(d, &path, 0, maxDepth)
	if err != nil {
		reason := treeReason(err, maxDepth)
		if !errors.Is(err, errTooDeep) {
			reason += fmt.Sprintf(" (at byte %d)", d.InputOffset())
		}
		return nil, &InvalidSchemaError{Path: path.jsonPath(), Reason: reason, Err: treeErr(err)}
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, &InvalidSchemaError{Path: "$", Reason: "unexpected data after the top-level value", Err: ErrSyntax}
	}
	return n, nil
}

func treeReason(err error, maxDepth int) string {
	switch {
	case errors.Is(err, errTooDeep):
		return fmt.Sprintf("nested more than %d levels deep", maxDepth)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "malformed JSON: unexpected end of input"
	}
	return "malformed JSON: " + strings.TrimPrefix(err.Error(), "json: ")
}

func treeErr(err error) error {
	if errors.Is(err, errTooDeep) {
		return ErrLimit
	}
	return fmt.Errorf("%w: %w", ErrSyntax, err)
}

func decodeValue(d *json.Decoder, path *segments, depth, maxDepth int) (*jnode, error) {
	tok, err := d.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &jnode{kind: jNull}, nil
	case bool:
		return &jnode{kind: jBool, b: t}, nil
	case json.Number:
		return &jnode{kind: jNumber, s: string(t)}, nil
	case string:
		return &jnode{kind: jString, s: t}, nil
	case json.Delim:
		if depth >= maxDepth {
			return nil, errTooDeep
		}
		if t == '[' {
			n := &jnode{kind: jArray}
			for i := 0; d.More(); i++ {
				path.push(segment{index: i})
				e, err := decodeValue(d, path, depth+1, maxDepth)
				if err != nil {
					return nil, err
				}
				path.pop()
				n.arr = append(n.arr, e)
			}
			if _, err := d.Token(); err != nil {
				return nil, err
			}
			return n, nil
		}
		n := &jnode{kind: jObject}
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
			path.push(segment{key: key, isKey: true})
			v, err := decodeValue(d, path, depth+1, maxDepth)
			if err != nil {
				return nil, err
			}
			path.pop()
			if i, ok := seen[key]; ok {
				// encoding/json keeps the last duplicate; so do we.
				n.vals[i] = v
				n.dups = append(n.dups, key)
				continue
			}
			seen[key] = len(n.keys)
			n.keys = append(n.keys, key)
			n.vals = append(n.vals, v)
		}
		if _, err := d.Token(); err != nil {
			return nil, err
		}
		return n, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}
