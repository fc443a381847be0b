package schema

import (
	"bytes"
	"encoding/json"
	"hash/maphash"

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
	seen  []int32  // scratch space of repeated
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
		if len(r.memo) > maxKeptMemo {
			r.memo = nil
		} else {
			clear(r.memo)
		}
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
// level, and returns the offset just after it. The offset is meaningful
// when the verdict is valid, and when it is invalid and not 0: the value
// was then read to its end, so a caller that reads on need not read it
// again (which would make a failure deep in a nested value cost the
// square of its depth).
func (r *byteRun) eval(pos int, n *fastNode, level int) (int, verdict) {
	if r.depth >= r.p.c.maxApplications {
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

// node checks the value at pos against n's $ref and in-place applicators,
// each of which reads the value again, then its own keywords.
func (r *byteRun) node(pos int, n *fastNode, level int) (int, verdict) {
	out, end := valid, 0 // end: where the value ends, once a read found it
	if n.ref != nil {
		e, v := r.eval(pos, n.ref, level)
		if v == invalid {
			return e, invalid
		}
		if out = and(out, v); v == valid {
			end = e
		}
	}
	if n.applies {
		if out = and(out, n.inPlace(func(sub *fastNode) verdict {
			e, v := r.eval(pos, sub, level)
			if v != undecided && e != 0 {
				end = e
			}
			return v
		})); out == invalid {
			return end, invalid
		}
	}
	if n.own || end == 0 {
		// The value is read again only for keywords of n's own, or to find
		// where it ends: a node that is a $ref and nothing else costs no
		// second read of its value.
		e, v := r.own(pos, n, level)
		if out = and(out, v); out == invalid {
			return e, invalid
		}
		end = e
	}
	if out != valid {
		return 0, out
	}
	return end, valid
}

// own checks the value at pos against n's own keywords (not its in-place
// applicators) in one scan, and returns the offset after the value.
func (r *byteRun) own(pos int, n *fastNode, level int) (int, verdict) {
	if pos >= len(r.src) {
		return 0, undecided
	}
	switch c := r.src[pos]; {
	case c == '{':
		if !n.allows(tObject) {
			return 0, invalid
		}
		return r.object(pos, n, level)
	case c == '[':
		if !n.allows(tArray) {
			return 0, invalid
		}
		return r.array(pos, n, level)
	case c == '"':
		return r.str(pos, n)
	case c == 't' || c == 'f' || c == 'n':
		word, val := "null", any(nil)
		switch c {
		case 't':
			word, val = "true", true
		case 'f':
			word, val = "false", false
		}
		end := pos + len(word)
		if end > len(r.src) || string(r.src[pos:end]) != word {
			return 0, undecided
		}
		bit, _ := typeOf(val)
		if !n.allows(bit) {
			return end, invalid
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
	x, ok := jsonvalue.ParseNumber(r.src[pos:end])
	if !ok {
		return 0, undecided // beyond float64: Decode reports it
	}
	if !n.allows(numberType(x)) || n.numberFailures(x) != 0 {
		return end, invalid
	}
	return end, n.enumConst(x)
}

// str checks the string at pos against n.
func (r *byteRun) str(pos int, n *fastNode) (int, verdict) {
	end, plain, ok := jsonvalue.ScanString(r.src, pos)
	if !ok {
		return 0, undecided
	}
	if !n.allows(tString) {
		return end, invalid
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
	return end, stringVerdict(n, raw)
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
			var more bool
			if pos, more, ok = r.next(end, closing); !ok || !more {
				return pos, ok
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

// next reads from the end of an item or member to the next one: more is
// false when closing ends the array or object, pos is then just after it;
// ok is false when neither a comma nor closing comes.
func (r *byteRun) next(end int, closing byte) (pos int, more, ok bool) {
	pos = r.space(end)
	switch {
	case pos >= len(r.src):
		return 0, false, false
	case r.src[pos] == closing:
		return pos + 1, false, true
	case r.src[pos] == ',':
		return r.space(pos + 1), true, true
	}
	return 0, false, false
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

// member checks the item or member at pos against n (nil: only skips it)
// as part of an array or object already found invalid (or to be found so:
// out), and returns its end and the container's verdict so far. Once the
// container is invalid, the rest is only read, to find where it ends.
func (r *byteRun) member(pos int, n *fastNode, level int, out verdict) (int, verdict) {
	if out == invalid {
		n = nil
	}
	end, v := r.value(pos, n, level)
	if v == invalid && end == 0 {
		// The value failed before its end: read it to its end.
		if end, v = r.value(pos, nil, level); v == valid {
			v = invalid
		}
	}
	if v == undecided {
		return 0, undecided
	}
	return end, and(out, v)
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
			end, v := r.member(pos, n.item(count), level+1, out)
			if v == undecided {
				return 0, undecided
			}
			if n.contains != nil && out != invalid {
				switch _, cv := r.eval(pos, n.contains, level+1); cv {
				case valid:
					matched++
				case undecided:
					return 0, undecided
				}
			}
			out = v
			count++
			var more, ok bool
			if pos, more, ok = r.next(end, ']'); !ok {
				return 0, undecided
			} else if !more {
				break
			}
		}
	}
	if out == invalid || n.containsFailures(matched) != 0 || n.itemsFailures(count) != 0 {
		return pos, invalid
	}
	if n.unique && count > 1 {
		out = and(out, r.unique(start, pos, count))
	}
	if n.enum != nil || n.cnst != nil {
		out = and(out, r.whole(start, pos, n))
	}
	if out == invalid {
		return pos, invalid
	}
	return pos, out
}

// unique applies uniqueItems to the array at start..end, of count items,
// already read: a short array of plain strings, or of numbers, without
// decoding it; any other is decoded.
func (r *byteRun) unique(start, end, count int) verdict {
	var spans [shortArray][2]int
	items := spans[:0]
	if count > shortArray {
		items = nil
	}
	strs := r.src[r.space(start+1)] == '"'
	for pos := r.space(start + 1); items != nil && pos < end-1; {
		var e int
		var ok bool
		switch c := r.src[pos]; {
		case c == '"' && strs:
			var plain bool
			if e, plain, ok = jsonvalue.ScanString(r.src, pos); !plain {
				ok = false
			}
		case (c == '-' || c >= '0' && c <= '9') && !strs:
			e, ok = jsonvalue.ScanNumber(r.src, pos)
		}
		if !ok {
			items = nil // not plain strings only or numbers only
			break
		}
		items = append(items, [2]int{pos, e})
		pos = r.space(e)
		if pos < end && r.src[pos] == ',' {
			pos = r.space(pos + 1)
		}
	}
	if items != nil {
		numbersOK := true
		i, _ := firstRepeat(len(items), func(i, j int) bool {
			a, b := r.src[items[i][0]:items[i][1]], r.src[items[j][0]:items[j][1]]
			if strs {
				return bytes.Equal(a, b)
			}
			x, okx := jsonvalue.ParseNumber(a)
			y, oky := jsonvalue.ParseNumber(b)
			numbersOK = numbersOK && okx && oky
			return x == y
		})
		switch {
		case !numbersOK:
			return undecided
		case i >= 0:
			return invalid
		}
		return valid
	}
	v, ok := r.decoded(start, end)
	if !ok {
		return undecided
	}
	return unique(v.([]any))
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
			var sub *fastNode
			prop := n.propertyBytes(key)
			if prop != nil {
				sub = prop.node
			}
			var v verdict
			if end, v = r.member(pos, sub, level+1, out); v == undecided {
				return 0, undecided
			}
			if v != invalid {
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
				switch {
				case v == undecided:
					return 0, undecided
				case v == valid && prop != nil && prop.required:
					required++
				}
			}
			out = v
			var more bool
			if pos, more, ok = r.next(end, '}'); !ok {
				return 0, undecided
			} else if !more {
				break
			}
		}
	}
	keys := r.keys[base:]
	if r.repeated(keys) {
		// encoding/json keeps a repeated name's last value: the verdicts
		// of the others do not count. Decode judges the object.
		return 0, undecided
	}
	has := func(name string) bool { return hasKey(keys, name) }
	if out == invalid || n.propertiesFailures(len(keys)) != 0 || !n.complete(has, required) {
		return pos, invalid
	}
	for _, d := range n.dependentSchemas {
		if hasKey(keys, d.name) {
			if _, v := r.eval(start, d.node, level); v == invalid {
				return pos, invalid
			} else {
				out = and(out, v)
			}
		}
	}
	if n.enum != nil || n.cnst != nil {
		out = and(out, r.whole(start, pos, n))
	}
	if out == invalid {
		return pos, invalid
	}
	return pos, out
}

// repeated reports whether a name repeats among keys, in time linear in
// their number: a few are compared pairwise, more through a table of
// their hashes (r.seen, reused).
func (r *byteRun) repeated(keys [][]byte) bool {
	if len(keys) <= 16 {
		for i := 1; i < len(keys); i++ {
			for j := range i {
				if bytes.Equal(keys[i], keys[j]) {
					return true
				}
			}
		}
		return false
	}
	size := 32
	for size < 2*len(keys) {
		size <<= 1
	}
	if cap(r.seen) < size {
		r.seen = make([]int32, size)
	}
	table, mask := r.seen[:size], size-1
	clear(table)
	for k, key := range keys {
		i := int(maphash.Bytes(r.p.seed, key)) & mask
		for ; table[i] != 0; i = (i + 1) & mask {
			if bytes.Equal(keys[table[i]-1], key) {
				return true
			}
		}
		table[i] = int32(k + 1)
	}
	return false
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
