package schema

import (
	"unsafe"
)

// The fast path: at Parse, each subschema becomes a node holding
// its keywords in the form the check reads directly (bounds, a set of type
// bits, properties with their nodes, a pattern compiled once), and a
// decoded value is checked against the nodes in one walk that allocates
// nothing. It decides validity only: an invalid value then gets its
// violations from the diagnostic pass, which reads the same nodes. Each
// keyword's rule is written once, in keywords.go; the walk here applies
// them to a decoded value, and two other front-ends to a document: one
// over its bytes (fastbytes.go), one that checks it as it decodes it
// (fastdecode.go), each giving the walk's verdict for the value the
// document holds.
//
// Every path is linear in its input: a node that may reach one subschema
// of a part of the value by two ways keeps its verdicts per part (memo),
// and the diagnostic pass keeps every verdict it asks for, starting from
// those the decoder gave while it read the document (decodeRun.known).
//
// A subschema whose keywords it does not cover (unevaluatedItems,
// unevaluatedProperties) is a slow node: its part of the value is judged by
// the diagnostic pass, which agrees with jsonschema-go. A document whose
// $dynamicRef follows the dynamic scope, or parsed with
// [ParseOptions.AssertFormat], has no fast path: every check takes the
// authority path, through jsonschema-go.
//
// FuzzFastPath holds the fast path to the authority path: the same verdict
// and the same violations, in the same order, for every value.

// A fastRun is one check of a value.
type fastRun struct {
	p     *fastProgram
	depth int
	memo  memoTable
	// all: verdicts are kept for every node, not only memo nodes, for the
	// diagnostic pass, which asks of each part it descends into: an array,
	// and a part more than shallowMemo applications below where a question
	// started, is judged once, so a deep or branching value costs time
	// linear in its size, while the objects of a shallow one (most replies:
	// records in an array) are judged again rather than through a map.
	all bool
}

func isArray(v any) bool {
	_, ok := v.([]any)
	return ok
}

// shallowMemo: see fastRun.all.
const shallowMemo = 4

// maxKeptMemo is how many verdicts a run's memo may hold and still be kept
// for the next run: clearing a map costs its size, which a small check
// after a large one pays, and a map dropped is allocated again by the next
// large one. 64K verdicts (a few MB) keep deep and wide values from
// allocating while a clear stays in the tens of microseconds.
const maxKeptMemo = 1 << 16

// reset readies r for another check, keeping its memo's space.
func (r *fastRun) reset() {
	r.memo.reset()
	r.depth = 0
}

// A part is an array or object of a value, known by its address and
// length. Memos keyed by a part are valid as long as the value is not
// modified.
type part struct {
	ptr uintptr
	len int
}

// partOf returns the part v is, when v is an array or object that holds
// something; scalars and empty arrays and objects are cheap to check
// again and have none (a nil map and a nil slice, both at address 0,
// would otherwise be one part).
func partOf(v any) (part, bool) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) > 0 {
			return part{uintptr(*(*unsafe.Pointer)(unsafe.Pointer(&x))), len(x)}, true // a map is a pointer; reflect is slower
		}
	case []any:
		if len(x) > 0 {
			return part{uintptr(unsafe.Pointer(unsafe.SliceData(x))), len(x)}, true // reflect would box the slice
		}
	}
	return part{}, false
}

// memoKey names a node applied to a part of the value.
type memoKey struct {
	n *fastNode
	part
}

// check returns the verdict of v against the document's root. A run that
// may keep verdicts comes from p's pool, so that its memo is allocated
// once, not per check.
func (p *fastProgram) check(v any) verdict {
	if !p.memos {
		r := fastRun{p: p}
		return r.eval(v, p.root)
	}
	r, _ := p.valueRuns.Get().(*fastRun)
	if r == nil {
		r = &fastRun{p: p}
	}
	got := r.eval(v, p.root)
	r.reset()
	p.valueRuns.Put(r)
	return got
}

// eval returns the verdict of v against n.
func (r *fastRun) eval(v any, n *fastNode) verdict {
	if r.depth >= r.p.c.maxApplications {
		return undecided
	}
	r.depth++
	got := r.apply(v, n)
	r.depth--
	return got
}

// apply is eval within the depth bound.
func (r *fastRun) apply(v any, n *fastNode) verdict {
	for n.refOnly {
		n = n.ref
	}
	if n.never {
		return invalid
	}
	if n.slow {
		return r.slow(v, n)
	}
	if n.memo || r.all {
		if pt, ok := partOf(v); ok && (n.memo || r.depth > shallowMemo || isArray(v)) {
			key := memoKey{n, pt}
			if got, seen := r.memo.get(key); seen {
				return got
			}
			got := r.node(v, n)
			r.memo.put(key, got)
			return got
		}
	}
	return r.node(v, n)
}

// slow judges v against a node the fast path does not cover with the
// diagnostic pass.
func (r *fastRun) slow(v any, n *fastNode) verdict {
	if !isPlain(v, r.depth) {
		return undecided
	}
	d := &diagnosis{c: r.p.c, depth: r.depth}
	var out []finding
	d.eval(v, n.s, nil, &out, nil)
	if len(out) > 0 {
		return invalid
	}
	return valid
}

// and combines verdicts: invalid wins over undecided, which wins over
// valid.
func and(a, b verdict) verdict {
	switch {
	case a == invalid || b == invalid:
		return invalid
	case a == undecided || b == undecided:
		return undecided
	}
	return valid
}

// node checks n's own keywords, then its applicators.
func (r *fastRun) node(v any, n *fastNode) verdict {
	out := valid
	if n.ref != nil {
		if out = r.eval(v, n.ref); out == invalid {
			return invalid
		}
	}
	bit, plain := typeOf(v)
	switch {
	case !plain:
		return undecided
	case !n.allows(bit):
		return invalid
	}
	if x, isStr := v.(string); isStr {
		if got := stringVerdict(n, x); got != valid {
			return got
		}
	} else {
		if x, isNum := v.(float64); isNum && n.numberFailures(x) != 0 {
			return invalid
		}
		if got := n.enumConst(v); got != valid {
			return got
		}
	}
	if n.applies {
		if out = and(out, n.inPlace(func(sub *fastNode) verdict { return r.eval(v, sub) })); out == invalid {
			return invalid
		}
	}
	switch x := v.(type) {
	case []any:
		if n.arrays {
			out = and(out, r.array(x, n))
		}
	case map[string]any:
		if n.objects {
			out = and(out, r.object(x, n))
		}
	}
	return out
}

// name applies propertyNames' node n to a member's name: through eval,
// or, when n has no subschema to apply (most have only string keywords),
// by its string rules, without boxing the name.
func (r *fastRun) name(k string, n *fastNode) verdict {
	if n.slow || n.never || n.refOnly || n.ref != nil || n.applies {
		return r.eval(k, n)
	}
	return stringVerdict(n, k)
}

// inPlace applies n's in-place applicators (allOf, anyOf, oneOf, not,
// if/then/else) to a value, each subschema judged by eval, and combines
// their verdicts.
func (n *fastNode) inPlace(eval func(*fastNode) verdict) verdict {
	out := valid
	for _, sub := range n.allOf {
		if out = and(out, eval(sub)); out == invalid {
			return invalid
		}
	}
	if n.anyOf != nil {
		some := invalid
		for _, sub := range n.anyOf {
			got := eval(sub)
			if got == valid {
				some = valid
				break
			}
			if got == undecided {
				some = undecided
			}
		}
		if out = and(out, some); out == invalid {
			return invalid
		}
	}
	if n.oneOf != nil {
		matched, unsure := 0, false
		for _, sub := range n.oneOf {
			switch eval(sub) {
			case valid:
				matched++
			case undecided:
				unsure = true
			}
		}
		switch {
		case unsure:
			out = and(out, undecided)
		case matched != 1:
			return invalid
		}
	}
	if n.not != nil {
		switch eval(n.not) {
		case valid:
			return invalid
		case undecided:
			out = and(out, undecided)
		}
	}
	if n.ifs != nil {
		var branch *fastNode
		switch eval(n.ifs) {
		case valid:
			branch = n.then
		case invalid:
			branch = n.els
		default:
			out = and(out, undecided)
		}
		if branch != nil {
			out = and(out, eval(branch))
		}
	}
	return out
}

// enumConst applies enum and const to a value: undecided when it is not
// plain (holds a Go type json.Unmarshal does not give), which the fast
// path leaves to the authority.
func (n *fastNode) enumConst(v any) verdict {
	if n.enum == nil && n.cnst == nil {
		return valid
	}
	if _, isStr := v.(string); !isStr && !isPlain(v, 0) {
		return undecided
	}
	if !n.inEnum(v) || !n.isConst(v) {
		return invalid
	}
	return valid
}

func (r *fastRun) array(a []any, n *fastNode) verdict {
	out := valid
	for i, sub := range n.prefix {
		if i >= len(a) {
			break
		}
		if out = and(out, r.eval(a[i], sub)); out == invalid {
			return invalid
		}
	}
	if n.rest != nil {
		for i := len(n.prefix); i < len(a); i++ {
			if out = and(out, r.eval(a[i], n.rest)); out == invalid {
				return invalid
			}
		}
	}
	if n.contains != nil {
		count := 0
		for _, e := range a {
			switch r.eval(e, n.contains) {
			case valid:
				count++
			case undecided:
				return undecided
			}
		}
		if n.containsFailures(count) != 0 {
			return invalid
		}
	}
	if n.itemsFailures(len(a)) != 0 {
		return invalid
	}
	if n.unique && len(a) > 1 {
		out = and(out, unique(a))
	}
	return out
}

// unique applies uniqueItems to an array: undecided when it is not plain.
func unique(a []any) verdict {
	if !isPlain(a, 0) {
		return undecided
	}
	got := valid
	repeats(a, func(int, int) bool {
		got = invalid
		return false
	})
	return got
}

func (r *fastRun) object(m map[string]any, n *fastNode) verdict {
	out := valid
	required := 0 // the required properties present
	closed := n.additional != nil && n.additional.never && n.patterns == nil
	if n.patterns == nil && (n.additional == nil || closed) && len(n.props) <= 2*len(m)+4 {
		// No more declared properties than members, or a few more: look
		// each property up, cheaper than walking the object's map.
		present := 0
		for _, p := range n.props {
			val, ok := m[p.name]
			if !ok {
				continue
			}
			present++
			if p.required {
				required++
			}
			if out = and(out, r.eval(val, p.node)); out == invalid {
				return invalid
			}
		}
		if closed && present < len(m) {
			return invalid // a member no property declares
		}
	} else {
		// One pass over the members: their property, the patterns they
		// match, additionalProperties for the others.
		for k, val := range m {
			prop := n.property(k)
			declared := prop != nil
			if declared && prop.required {
				required++
			}
			if declared {
				if out = and(out, r.eval(val, prop.node)); out == invalid {
					return invalid
				}
			}
			matched := false
			for _, pp := range n.patterns {
				if pp.re.MatchString(k) {
					matched = true
					if out = and(out, r.eval(val, pp.node)); out == invalid {
						return invalid
					}
				}
			}
			if n.additional != nil && !declared && !matched {
				if out = and(out, r.eval(val, n.additional)); out == invalid {
					return invalid
				}
			}
		}
	}
	if n.propertyNames != nil {
		for k := range m {
			if out = and(out, r.name(k, n.propertyNames)); out == invalid {
				return invalid
			}
		}
	}
	if !n.membersPresent(m, required) {
		return invalid
	}
	for _, d := range n.dependentSchemas {
		if _, ok := m[d.name]; ok {
			if out = and(out, r.eval(m, d.node)); out == invalid {
				return invalid
			}
		}
	}
	return out
}

// membersPresent applies minProperties, maxProperties, required and
// dependentRequired to m, in which the reader found requiredSeen of the
// required properties n declares.
func (n *fastNode) membersPresent(m map[string]any, requiredSeen int) bool {
	return n.propertiesFailures(len(m)) == 0 && n.complete(func(name string) bool {
		_, ok := m[name]
		return ok
	}, requiredSeen)
}
