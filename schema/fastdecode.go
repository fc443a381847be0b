package schema

import "github.com/agentio/agentio/internal/jsonvalue"

// A decodeRun decodes a document and checks it against the fast path in the
// same pass, which is how [Schema.Decode] reads: an array or object whose
// node is fused is built by the run itself, each item or member decoded
// and checked against its own node as it is read, so that no property is
// looked up in a map afterwards; any other value is decoded whole and
// judged by the value walk of fastRun, whose verdict the run's is, for the
// same document, in every case (FuzzFastPath holds the two together).
//
// A decodeRun is kept in its document's pool between calls; it is used by
// one goroutine at a time.
type decodeRun struct {
	fastRun
	d    jsonvalue.Decoder
	keys []string  // members being read, a stack
	vals []any     // their values, and items being read
	gots []verdict // their verdicts
	// known holds, for each array or object found invalid, the verdicts
	// of its items and members that are arrays or objects under nodes
	// that are not shallow, by node and part: what the diagnostic pass
	// asks of each part it descends into, answered without judging the
	// part again (see diagnosis.known).
	known memoTable
	// dropped holds the members of objects that repeat a name, the values
	// the last one replaced among them: no longer in the document, they
	// would be freed while it is still being read, and their memory given
	// to a later array or object, which the verdicts known and memo keep
	// by address would then name. They are kept until the decode's
	// verdicts are no longer read (see done).
	dropped []any
}

// check decodes src and returns its value and verdict. An error means that
// the fast decoder does not read src: decode it whole for the error, or the
// value encoding/json gives.
func (r *decodeRun) check(p *fastProgram, src string) (any, verdict, error) {
	r.fastRun.p = p
	r.known.reset()
	r.d.Start(src)
	v, got, err := r.value(p.root)
	if ferr := r.d.Finish(); err == nil {
		err = ferr
	}
	clear(r.keys[:cap(r.keys)]) // let the values go
	clear(r.vals[:cap(r.vals)])
	r.keys, r.vals, r.gots = r.keys[:0], r.vals[:0], r.gots[:0]
	r.reset()
	return v, got, err
}

// done lets go of the values check kept for its verdicts (dropped), and
// of the verdicts (known), once they are no longer read.
func (r *decodeRun) done() {
	clear(r.dropped)
	r.dropped = r.dropped[:0]
	r.known.reset()
}

// value decodes the value that comes next and judges it against n (nil:
// no schema applies to it).
func (r *decodeRun) value(n *fastNode) (any, verdict, error) {
	if n == nil {
		v, err := r.d.Value()
		return v, valid, err
	}
	for n.refOnly {
		n = n.ref
	}
	if n.ref != nil && !n.own && !n.applies && !n.slow && r.depth < r.p.c.maxApplications {
		// A $ref and nothing else: its target judges the value, read as the
		// target reads it (a recursive schema's tree is built by the run),
		// one application deeper, as eval counts it.
		r.depth++
		v, got, err := r.value(n.ref)
		r.depth--
		return v, got, err
	}
	c := r.d.Peek()
	if (c == '{' || c == '[') && n.fused && r.depth < r.p.c.maxApplications {
		r.depth++ // as eval does
		var v any
		var got verdict
		var err error
		if c == '{' {
			v, got, err = r.object(n)
		} else {
			v, got, err = r.array(n)
		}
		r.depth--
		return v, got, err
	}
	var v any
	var err error
	if c == '"' && (n.enumAny != nil || n.leaf()) {
		var str string
		if str, err = r.d.String(); err != nil {
			return nil, undecided, err
		}
		// A member of the enum is the schema's own string, boxed once at
		// Parse: enum-valued strings, common in replies, cost nothing.
		// (Boxed only when it is not one: a string put in v allocates.)
		if i := enumIndex(n, str); i >= 0 {
			v = n.enumAny[i]
		} else {
			v = str
		}
		if n.leaf() && r.depth < r.p.c.maxApplications {
			// A string under a node of keywords alone: judged as read,
			// without the walk of eval (the same rules: stringVerdict).
			return v, stringVerdict(n, str), nil
		}
	} else if v, err = r.d.Value(); err != nil {
		return nil, undecided, err
	}
	return v, r.eval(v, n), nil
}

// object is fastRun.object of a fused node, over the object that comes
// next.
func (r *decodeRun) object(n *fastNode) (any, verdict, error) {
	if !n.allows(tObject) {
		v, err := r.d.Value()
		return v, invalid, err
	}
	empty, err := r.d.Open()
	if err != nil {
		return nil, undecided, err
	}
	if empty {
		m := map[string]any{}
		if !n.membersPresent(m, 0) {
			return m, invalid, nil
		}
		return m, valid, nil
	}
	// After an invalid member, the rest are judged still, for the
	// diagnostic pass, which asks of each (see keep), but for shallow
	// ones, which it judges again as cheaply: those are only decoded, and
	// their verdict is left undecided.
	out, kbase, vbase, required := valid, len(r.keys), len(r.vals), 0
	for more := true; more; {
		k, err := r.d.Key()
		if err != nil {
			return nil, undecided, err
		}
		sub := n.additional
		if prop := n.property(k); prop != nil {
			sub = prop.node
			if prop.required {
				required++
			}
		}
		judged := out != invalid || sub == nil || !sub.shallow
		if !judged {
			sub = nil
		}
		v, got, err := r.value(sub)
		if err != nil {
			return nil, undecided, err
		}
		if !judged {
			got = undecided
		}
		out = and(out, got)
		r.keys = append(r.keys, k)
		r.vals = append(r.vals, v)
		r.gots = append(r.gots, got)
		if more, err = r.d.Next('}'); err != nil {
			return nil, undecided, err
		}
	}
	keys, vals, gots := r.keys[kbase:], r.vals[vbase:], r.gots[vbase:]
	m := make(map[string]any, len(keys))
	for i, k := range keys {
		m[k] = vals[i]
	}
	if len(m) < len(keys) {
		// A name repeated: the last value won, and the verdicts of the
		// others do not count: the object's are those of the last value of
		// each name, as read (judging the object again would judge each
		// part once more for each such object above it). The values
		// replaced are kept alive while verdicts name their addresses.
		r.dropped = append(r.dropped, vals...)
		last := make(map[string]int, len(m))
		for i, k := range keys {
			last[k] = i
		}
		out, required = valid, 0
		for i, k := range keys {
			if last[k] != i {
				continue
			}
			sub := n.additional
			if prop := n.property(k); prop != nil {
				sub = prop.node
				if prop.required {
					required++
				}
			}
			if gots[i] == undecided && sub != nil {
				gots[i] = r.eval(vals[i], sub) // only decoded, or undecided as read
			}
			out = and(out, gots[i])
		}
	}
	if out == invalid || !n.membersPresent(m, required) {
		out = invalid
	}
	if out == invalid {
		for i, k := range keys {
			sub := n.additional
			if prop := n.property(k); prop != nil {
				sub = prop.node
			}
			r.keep(sub, vals[i], gots[i])
		}
	}
	r.keys, r.vals, r.gots = r.keys[:kbase], r.vals[:vbase], r.gots[:vbase]
	return m, out, nil
}

// keep records the verdict got of v, an item or member of an invalid
// array or object, against n, when v is an array or object: the
// diagnostic pass descends into the invalid one and asks of v.
func (r *decodeRun) keep(n *fastNode, v any, got verdict) {
	if n == nil || got == undecided || n.shallow {
		return
	}
	if pt, ok := partOf(v); ok {
		key := memoKey{n, pt}
		if _, seen := r.known.get(key); !seen {
			r.known.put(key, got)
		}
	}
}

// array is fastRun.array of a fused node, over the array that comes next.
func (r *decodeRun) array(n *fastNode) (any, verdict, error) {
	if !n.allows(tArray) {
		v, err := r.d.Value()
		return v, invalid, err
	}
	empty, err := r.d.Open()
	if err != nil {
		return nil, undecided, err
	}
	out, base := valid, len(r.vals)
	for more := !empty; more; {
		sub := n.item(len(r.vals) - base)
		judged := out != invalid || sub == nil || !sub.shallow // as in object
		if !judged {
			sub = nil
		}
		v, got, err := r.value(sub)
		if err != nil {
			return nil, undecided, err
		}
		if !judged {
			got = undecided
		}
		out = and(out, got)
		r.vals = append(r.vals, v)
		r.gots = append(r.gots, got)
		if more, err = r.d.Next(']'); err != nil {
			return nil, undecided, err
		}
	}
	a := make([]any, len(r.vals)-base)
	copy(a, r.vals[base:])
	if n.itemsFailures(len(a)) != 0 {
		out = invalid
	}
	if out == invalid {
		for i, v := range a {
			r.keep(n.item(i), v, r.gots[base+i])
		}
	}
	r.vals, r.gots = r.vals[:base], r.gots[:base]
	return a, out, nil
}
