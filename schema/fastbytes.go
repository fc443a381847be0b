package schema

import (
	"bytes"
	"encoding/json"
	"math"
	"unicode/utf8"

	"github.com/agentio/agentio/internal/jsonvalue"
)

// The fast path over bytes: [Schema.ValidateJSON] first checks the
// document's bytes against the nodes of the fast path without decoding
// them, so a valid document costs one scan and no allocation (a part
// checked by several subschemas, under allOf or anyOf, is scanned once by
// each). The scan answers valid only when it has read every byte and
// found the document to be one JSON value. Whatever it is unsure of (a
// key written with escapes or given twice, which encoding/json would read
// with its own rules; a document nested too deeply; a number beyond
// float64) it leaves undecided, and an invalid or undecided document is
// decoded and checked as [Schema.Decode] does, so the violations, and a
// syntax error, are exactly those of the authority path.

// A byteRun is one check of a document's bytes.
type byteRun struct {
	p     *fastProgram
	src   []byte
	limit int // how deeply arrays and objects may nest
	depth int // subschema applications, bounded like fastRun's
	memo  map[byteMemoKey]byteMemo
	keys  [][]byte // the keys of the objects being read, a stack
}

type byteMemoKey struct {
	n   *fastNode
	pos int
}

type byteMemo struct {
	end int
	v   verdict
}

// checkBytes returns the verdict of the document src, whose arrays and
// objects may nest limit levels deep.
func (p *fastProgram) checkBytes(src []byte, limit int) verdict {
	r, _ := p.runs.Get().(*byteRun)
	if r == nil {
		r = &byteRun{p: p}
	}
	r.src, r.limit, r.depth = src, limit, 0
	defer func() {
		r.src = nil
		clear(r.keys[:cap(r.keys)])
		r.keys = r.keys[:0]
		clear(r.memo)
		p.runs.Put(r)
	}()
	end, v := r.eval(r.space(0), p.root, 0)
	if v != valid {
		return v
	}
	if r.space(end) != len(src) {
		return undecided // not one JSON value: Decode says why
	}
	return valid
}

func (r *byteRun) space(pos int) int {
	for pos < len(r.src) {
		switch r.src[pos] {
		case ' ', '\t', '\n', '\r':
			pos++
		default:
			return pos
		}
	}
	return pos
}

// eval checks the value at pos (no space before it) against n, at nesting
// level, and returns the offset just after it. The offset is only
// meaningful when the verdict is valid.
func (r *byteRun) eval(pos int, n *fastNode, level int) (int, verdict) {
	if r.depth >= maxDiagnoseDepth {
		return 0, undecided
	}
	r.depth++
	end, v := r.apply(pos, n, level)
	r.depth--
	return end, v
}

func (r *byteRun) apply(pos int, n *fastNode, level int) (int, verdict) {
	for n.refOnly {
		n = n.ref
	}
	switch {
	case n.never:
		return 0, invalid
	case n.slow:
		return r.slow(pos, n, level)
	case n.memo && pos < len(r.src) && (r.src[pos] == '{' || r.src[pos] == '['):
		key := byteMemoKey{n, pos}
		if m, ok := r.memo[key]; ok {
			return m.end, m.v
		}
		end, v := r.node(pos, n, level)
		if r.memo == nil {
			r.memo = map[byteMemoKey]byteMemo{}
		}
		r.memo[key] = byteMemo{end, v}
		return end, v
	}
	return r.node(pos, n, level)
}

// slow decodes the value at pos and judges it by the diagnostic pass.
func (r *byteRun) slow(pos int, n *fastNode, level int) (int, verdict) {
	end, ok := r.skip(pos, level)
	if !ok {
		return 0, undecided
	}
	v, err := jsonvalue.Decode(r.src[pos:end])
	if err != nil {
		return 0, undecided
	}
	fr := fastRun{p: r.p, depth: r.depth}
	return end, fr.slow(v, n)
}

// decoded decodes the value at pos..end, for a keyword that compares
// whole values (an enum of objects, uniqueItems of arrays).
func (r *byteRun) decoded(pos, end int) (any, bool) {
	v, err := jsonvalue.Decode(r.src[pos:end])
	return v, err == nil
}

// node checks the value at pos against n's keywords, then its in-place
// applicators, each of which reads the value again.
func (r *byteRun) node(pos int, n *fastNode, level int) (int, verdict) {
	out := valid
	if n.ref != nil {
		_, v := r.eval(pos, n.ref, level)
		if v == invalid {
			return 0, invalid
		}
		out = and(out, v)
	}
	end, v := r.own(pos, n, level)
	if out = and(out, v); out == invalid {
		return 0, invalid
	}
	if n.applies {
		out = and(out, n.inPlace(func(sub *fastNode) verdict {
			_, v := r.eval(pos, sub, level)
			return v
		}))
	}
	if out != valid {
		return 0, out
	}
	return end, valid // own read the whole value: end is where it ends
}

// own checks the value at pos against n's own keywords (not its in-place
// applicators) in one scan, and returns the offset after the value.
func (r *byteRun) own(pos int, n *fastNode, level int) (int, verdict) {
	if pos >= len(r.src) {
		return 0, undecided
	}
	switch c := r.src[pos]; {
	case c == '{':
		if n.types != 0 && n.types&tObject == 0 {
			return 0, invalid
		}
		return r.object(pos, n, level)
	case c == '[':
		if n.types != 0 && n.types&tArray == 0 {
			return 0, invalid
		}
		return r.array(pos, n, level)
	case c == '"':
		if n.types != 0 && n.types&tString == 0 {
			return 0, invalid
		}
		return r.str(pos, n)
	case c == 't' || c == 'f' || c == 'n':
		word, bit, val := "null", tNull, any(nil)
		switch c {
		case 't':
			word, bit, val = "true", tBoolean, true
		case 'f':
			word, bit, val = "false", tBoolean, false
		}
		end := pos + len(word)
		if end > len(r.src) || string(r.src[pos:end]) != word {
			return 0, undecided
		}
		if n.types != 0 && n.types&bit == 0 {
			return 0, invalid
		}
		return end, n.enumConst(val)
	case c == '-' || c >= '0' && c <= '9':
		return r.number(pos, n)
	}
	return 0, undecided
}

func (r *byteRun) number(pos int, n *fastNode) (int, verdict) {
	end, ok := jsonvalue.ScanNumber(r.src, pos)
	if !ok {
		return 0, undecided
	}
	if n.types != 0 && n.types&(tNumber|tInteger) == 0 {
		return 0, invalid
	}
	x, ok := jsonvalue.ParseNumber(r.src[pos:end])
	if !ok {
		return 0, undecided // beyond float64: Decode reports it
	}
	if n.types != 0 && n.types&tNumber == 0 {
		if _, f := math.Modf(x); f != 0 {
			return 0, invalid // a number where only integers are allowed
		}
	}
	if n.numeric && !n.checkNumber(x) {
		return 0, invalid
	}
	if n.enum == nil && n.cnst == nil {
		return end, valid
	}
	return end, n.enumConst(x)
}

// str checks the string at pos against n.
func (r *byteRun) str(pos int, n *fastNode) (int, verdict) {
	end, plain, ok := jsonvalue.ScanString(r.src, pos)
	if !ok {
		return 0, undecided
	}
	if !n.strings && n.enum == nil && n.cnst == nil {
		return end, valid
	}
	raw := r.src[pos+1 : end-1]
	if !plain {
		var s string
		if json.Unmarshal(r.src[pos:end], &s) != nil {
			return 0, undecided
		}
		raw = []byte(s)
	}
	if n.minLength != nil || n.maxLength != nil {
		count := utf8.RuneCount(raw)
		if n.minLength != nil && count < *n.minLength || n.maxLength != nil && count > *n.maxLength {
			return 0, invalid
		}
	}
	if n.pattern != nil && !n.pattern.Match(raw) {
		return 0, invalid
	}
	if n.enumSet != nil {
		if _, ok := n.enumSet[string(raw)]; !ok {
			return 0, invalid
		}
	} else if n.enum != nil {
		found := false
		for _, e := range n.enum {
			if s, isStr := e.(string); isStr && s == string(raw) {
				found = true
				break
			}
		}
		if !found {
			return 0, invalid
		}
	}
	if n.cnst != nil {
		if s, isStr := (*n.cnst).(string); !isStr || s != string(raw) {
			return 0, invalid
		}
	}
	return end, valid
}

// skip returns the end of the value at pos, checking its syntax and its
// nesting, which starts at level.
func (r *byteRun) skip(pos int, level int) (int, bool) {
	if pos >= len(r.src) {
		return 0, false
	}
	switch c := r.src[pos]; {
	case c == '{' || c == '[':
		if level >= r.limit {
			return 0, false
		}
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		pos = r.space(pos + 1)
		if pos < len(r.src) && r.src[pos] == closing {
			return pos + 1, true
		}
		for {
			if c == '{' {
				if pos >= len(r.src) || r.src[pos] != '"' {
					return 0, false
				}
				end, _, ok := jsonvalue.ScanString(r.src, pos)
				if !ok {
					return 0, false
				}
				pos = r.space(end)
				if pos >= len(r.src) || r.src[pos] != ':' {
					return 0, false
				}
				pos = r.space(pos + 1)
			}
			end, ok := r.skip(pos, level+1)
			if !ok {
				return 0, false
			}
			pos = r.space(end)
			if pos >= len(r.src) {
				return 0, false
			}
			switch r.src[pos] {
			case ',':
				pos = r.space(pos + 1)
			case closing:
				return pos + 1, true
			default:
				return 0, false
			}
		}
	case c == '"':
		end, _, ok := jsonvalue.ScanString(r.src, pos)
		return end, ok
	case c == '-' || c >= '0' && c <= '9':
		end, ok := jsonvalue.ScanNumber(r.src, pos)
		if ok {
			_, ok = jsonvalue.ParseNumber(r.src[pos:end]) // beyond float64 is Decode's to report
		}
		return end, ok
	default:
		for _, word := range [...]string{"true", "false", "null"} {
			if end := pos + len(word); end <= len(r.src) && string(r.src[pos:end]) == word {
				return end, true
			}
		}
	}
	return 0, false
}

// value checks the value at pos against n when n is not nil, and only
// skips it otherwise.
func (r *byteRun) value(pos int, n *fastNode, level int) (int, verdict) {
	if n == nil {
		end, ok := r.skip(pos, level)
		if !ok {
			return 0, undecided
		}
		return end, valid
	}
	return r.eval(pos, n, level)
}

func (r *byteRun) array(pos int, n *fastNode, level int) (int, verdict) {
	if level >= r.limit {
		return 0, undecided // too deep: Decode reports where
	}
	start := pos
	out := valid
	count, matched := 0, 0
	pos = r.space(pos + 1)
	if pos < len(r.src) && r.src[pos] == ']' {
		pos++
	} else {
		for {
			var sub *fastNode
			if count < len(n.prefix) {
				sub = n.prefix[count]
			} else {
				sub = n.rest
			}
			end, v := r.value(pos, sub, level+1)
			if v == invalid {
				return 0, invalid
			}
			if v == undecided {
				return 0, undecided
			}
			if n.contains != nil {
				switch _, cv := r.eval(pos, n.contains, level+1); cv {
				case valid:
					matched++
				case undecided:
					return 0, undecided
				}
			}
			count++
			pos = r.space(end)
			if pos >= len(r.src) {
				return 0, undecided
			}
			if r.src[pos] == ']' {
				pos++
				break
			}
			if r.src[pos] != ',' {
				return 0, undecided
			}
			pos = r.space(pos + 1)
		}
	}
	if n.contains != nil && (matched == 0 && (n.minContains == nil || *n.minContains > 0) ||
		n.minContains != nil && matched < *n.minContains || n.maxContains != nil && matched > *n.maxContains) {
		return 0, invalid
	}
	if n.minItems != nil && count < *n.minItems || n.maxItems != nil && count > *n.maxItems {
		return 0, invalid
	}
	if n.unique && count > 1 {
		if v, ok := r.uniqueScalars(start, pos); ok {
			out = and(out, v)
		} else if v, ok := r.decoded(start, pos); ok {
			out = and(out, unique(v.([]any)))
		} else {
			return 0, undecided
		}
	}
	if n.enum != nil || n.cnst != nil {
		out = and(out, r.whole(start, pos, n))
	}
	return pos, out
}

// uniqueScalars decides uniqueItems, without decoding, for an array (at
// start..end, already read) of at most 64 plain strings, or of numbers
// only; ok is false for any other array.
func (r *byteRun) uniqueScalars(start, end int) (v verdict, ok bool) {
	var spans [64][2]int
	items := spans[:0]
	for pos := r.space(start + 1); pos < end-1; {
		var e int
		switch c := r.src[pos]; {
		case c == '"':
			var plain bool
			if e, plain, ok = jsonvalue.ScanString(r.src, pos); !ok || !plain {
				return undecided, false
			}
		case c == '-' || c >= '0' && c <= '9':
			if e, ok = jsonvalue.ScanNumber(r.src, pos); !ok {
				return undecided, false
			}
		default:
			return undecided, false
		}
		if len(items) == len(spans) || len(items) > 0 && r.src[items[0][0]] != r.src[pos] && (r.src[pos] == '"' || r.src[items[0][0]] == '"') {
			return undecided, false // too many, or strings and numbers mixed
		}
		items = append(items, [2]int{pos, e})
		pos = r.space(e)
		if pos < end && r.src[pos] == ',' {
			pos = r.space(pos + 1)
		}
	}
	strs := r.src[items[0][0]] == '"'
	for i := 1; i < len(items); i++ {
		for j := range i {
			a, b := r.src[items[i][0]:items[i][1]], r.src[items[j][0]:items[j][1]]
			if strs {
				if bytes.Equal(a, b) {
					return invalid, true
				}
				continue
			}
			x, okx := jsonvalue.ParseNumber(a)
			y, oky := jsonvalue.ParseNumber(b)
			if !okx || !oky {
				return undecided, false
			}
			if x == y {
				return invalid, true
			}
		}
	}
	return valid, true
}

// whole applies enum and const to the array or object at start..end.
func (r *byteRun) whole(start, end int, n *fastNode) verdict {
	v, ok := r.decoded(start, end)
	if !ok {
		return undecided
	}
	return n.enumConst(v)
}

func (r *byteRun) object(pos int, n *fastNode, level int) (int, verdict) {
	if level >= r.limit {
		return 0, undecided
	}
	start := pos
	base := len(r.keys)
	defer func() { r.keys = r.keys[:base] }()
	out := valid
	required := 0 // the required properties present
	pos = r.space(pos + 1)
	if pos < len(r.src) && r.src[pos] == '}' {
		pos++
	} else {
		for {
			if pos >= len(r.src) || r.src[pos] != '"' {
				return 0, undecided
			}
			keyStart := pos
			end, plain, ok := jsonvalue.ScanString(r.src, pos)
			if !ok || !plain {
				return 0, undecided // a key with escapes: Decode reads it
			}
			key := r.src[pos+1 : end-1]
			for _, k := range r.keys[base:] {
				if bytes.Equal(k, key) {
					return 0, undecided // encoding/json keeps the last value
				}
			}
			r.keys = append(r.keys, key)
			pos = r.space(end)
			if pos >= len(r.src) || r.src[pos] != ':' {
				return 0, undecided
			}
			pos = r.space(pos + 1)
			if n.propertyNames != nil {
				if _, v := r.eval(keyStart, n.propertyNames, level+1); v != valid {
					return 0, v
				}
			}
			var v verdict
			if out != invalid {
				prop := n.propertyBytes(key)
				var sub *fastNode
				if prop != nil {
					sub = prop.node
				}
				if end, v = r.value(pos, sub, level+1); v == valid {
					matched := false
					for _, pp := range n.patterns {
						if pp.re.Match(key) {
							matched = true
							if _, v = r.eval(pos, pp.node, level+1); v != valid {
								break
							}
						}
					}
					if v == valid && n.additional != nil && prop == nil && !matched {
						_, v = r.eval(pos, n.additional, level+1)
					}
				}
				switch {
				case v == undecided:
					return 0, undecided
				case v == invalid:
					out = invalid
				case prop != nil && prop.required:
					required++
				}
			}
			if out == invalid {
				// A member failed: read on only to see that no name
				// repeats, as the value that failed would then not count.
				if end, v = r.value(pos, nil, level+1); v != valid {
					return 0, undecided
				}
			}
			pos = r.space(end)
			if pos >= len(r.src) {
				return 0, undecided
			}
			if r.src[pos] == '}' {
				pos++
				break
			}
			if r.src[pos] != ',' {
				return 0, undecided
			}
			pos = r.space(pos + 1)
		}
	}
	if out == invalid {
		return 0, invalid
	}
	keys := r.keys[base:]
	if n.minProps != nil && len(keys) < *n.minProps || n.maxProps != nil && len(keys) > *n.maxProps {
		return 0, invalid
	}
	if required < n.requiredProps {
		return 0, invalid
	}
	for _, name := range n.required {
		if !hasKey(keys, name) {
			return 0, invalid
		}
	}
	for _, d := range n.dependentRequired {
		if !hasKey(keys, d.name) {
			continue
		}
		for _, name := range d.required {
			if !hasKey(keys, name) {
				return 0, invalid
			}
		}
	}
	for _, d := range n.dependentSchemas {
		if hasKey(keys, d.name) {
			if _, v := r.eval(start, d.node, level); v == invalid {
				return 0, invalid
			} else {
				out = and(out, v)
			}
		}
	}
	if n.enum != nil || n.cnst != nil {
		out = and(out, r.whole(start, pos, n))
	}
	return pos, out
}

func hasKey(keys [][]byte, name string) bool {
	for _, k := range keys {
		if string(k) == name {
			return true
		}
	}
	return false
}

// propertyBytes is [fastNode.property] for a key's bytes.
func (n *fastNode) propertyBytes(name []byte) *fastProp { return propertyOf(n, name) }
