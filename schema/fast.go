package schema

import (
	"hash/maphash"
	"reflect"
	"regexp"
	"slices"
	"sync"
	"unsafe"

	"github.com/google/jsonschema-go/jsonschema"
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
// and the diagnostic pass keeps every verdict it asks for.
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

// A verdict is the fast path's answer.
type verdict int8

const (
	undecided verdict = iota // the value holds something the fast path does not read
	valid
	invalid
)

// Type bits, for a node's "type".
const (
	tNull uint8 = 1 << iota
	tBoolean
	tObject
	tArray
	tNumber
	tString
	tInteger
	tNone // a type name no value has: matches nothing
)

var typeBits = map[string]uint8{
	"null": tNull, "boolean": tBoolean, "object": tObject, "array": tArray,
	"number": tNumber, "string": tString, "integer": tInteger,
}

// A fastNode is one subschema as the fast path reads it.
type fastNode struct {
	s    *jsonschema.Schema
	slow bool // judged by the diagnostic pass
	// never: the schema false; only the value's depth is checked.
	never    bool
	ref      *fastNode
	refOnly  bool // draft-07: the keywords beside $ref are ignored
	types    uint8
	enum     []any
	enumStrs []string       // the string members of enum
	enumAny  []any          // the same, each boxed once (see decodeRun.value)
	enumSet  map[string]int // their index, of a long enum
	cnst     *any
	memo     bool // verdicts are kept per part of the value (see build)
	own      bool // has keywords of its own, beside $ref and the in-place applicators
	// fused: an array or object is checked as it is decoded (see
	// decodeRun), as its keywords apply to its items and members one by
	// one (slow and never nodes return early from build, unfused).
	fused bool

	numeric                    bool
	minimum, maximum           *float64
	exclusiveMin, exclusiveMax *float64
	multipleOf                 *float64

	strings              bool
	minLength, maxLength *int
	pattern              *pattern

	applies             bool // has an in-place applicator below
	allOf, anyOf, oneOf []*fastNode
	not, ifs, then, els *fastNode

	arrays                   bool
	prefix                   []*fastNode
	rest                     *fastNode
	minItems, maxItems       *int
	unique                   bool
	contains                 *fastNode
	minContains, maxContains *int

	objects            bool
	props              []fastProp
	slots              []int32 // when props are many: a table of their indexes+1 by name (see property)
	slotShift          uint8
	patterns           []fastPattern
	additional         *fastNode
	propertyNames      *fastNode
	minProps, maxProps *int
	requiredNames      []string // required, as written
	required           []string // the names required that no property declares
	requiredProps      int      // how many properties are required
	dependentRequired  []fastDependent
	dependentSchemas   []fastDependentSchema
}

type fastProp struct {
	name     string
	head     uint64 // name's first 8 bytes (see nameHead)
	node     *fastNode
	required bool // named by the node's required
}

// nameHead packs the first 8 bytes of a name into a word, zeros after a
// shorter one: two names of the same length and head are equal when they
// are no longer than 8 bytes, so a scan of properties compares words, and
// bytes only beyond the eighth.
func nameHead[T ~string | ~[]byte](name T) uint64 {
	var h uint64
	for i := range min(len(name), 8) {
		h |= uint64(name[i]) << (8 * i)
	}
	return h
}

type fastPattern struct {
	re   *regexp.Regexp
	node *fastNode
}

type fastDependent struct {
	name     string
	required []string
}

type fastDependentSchema struct {
	name string
	node *fastNode
}

// A fastProgram is the fast path of one compiled document.
type fastProgram struct {
	c     *compiled
	root  *fastNode
	nodes map[*jsonschema.Schema]*fastNode
	// alternatives: some subschema has anyOf or oneOf.
	alternatives bool
	// seed hashes the names of an object's members (see byteRun.repeated).
	seed maphash.Seed
	// memos: some node keeps verdicts (fastNode.memo).
	memos bool
	// runs keeps the scratch space of checkBytes between calls, valueRuns
	// that of check.
	runs, valueRuns sync.Pool
}

// program returns the nodes of c's subschemas, built by its first call
// (Parse makes it). The diagnostic pass reads its keywords' rules from
// them; the fast path is the program too, where c has one (see
// fastProgram).
func (c *compiled) program() *fastProgram {
	c.fastOnce.Do(func() {
		p := &fastProgram{c: c, nodes: make(map[*jsonschema.Schema]*fastNode, len(c.order)), seed: maphash.MakeSeed()}
		for _, s := range c.order {
			p.nodes[s] = &fastNode{s: s}
		}
		for _, s := range c.order {
			p.build(p.nodes[s])
		}
		for _, n := range p.nodes {
			p.alternatives = p.alternatives || n.anyOf != nil || n.oneOf != nil
			p.memos = p.memos || n.memo
		}
		p.root = p.nodes[c.root]
		c.fast = p
	})
	return c.fast
}

// fastProgram returns c's fast path; nil when c has none (see the comment
// at the top of this file).
func (c *compiled) fastProgram() *fastProgram {
	if p := c.program(); p.root != nil && !c.dynamic && !c.assertFormats {
		return p
	}
	return nil
}

// node returns the node of s; s is always one of c.order.
func (p *fastProgram) node(s *jsonschema.Schema) *fastNode {
	if s == nil {
		return nil
	}
	n := p.nodes[s]
	if n == nil {
		// A subschema compile did not list: the fast path judges it the
		// slow way; its rules are built all the same.
		n = &fastNode{s: s}
		p.nodes[s] = n
		p.build(n)
		n.slow = true
	}
	return n
}

func (p *fastProgram) nodeList(ss []*jsonschema.Schema) []*fastNode {
	if len(ss) == 0 {
		return nil
	}
	out := make([]*fastNode, len(ss))
	for i, s := range ss {
		out[i] = p.node(s)
	}
	return out
}

// build fills n from its subschema.
func (p *fastProgram) build(n *fastNode) {
	s, c := n.s, p.c
	in := c.infos[s]
	if in == nil {
		n.slow = true
		return
	}
	// A node the fast path does not cover is built all the same: the
	// diagnostic pass reads its rules.
	n.slow = s.UnevaluatedItems != nil || s.UnevaluatedProperties != nil || s.DynamicRef != "" && in.dynRef == nil
	if in.isFalse {
		n.never = true
		return
	}
	if in.ref != nil {
		n.ref = p.node(in.ref)
		if c.draft == draft7 {
			n.refOnly = true
			return
		}
	}
	if in.dynRef != nil {
		// A $dynamicRef that resolves lexically acts as a second $ref.
		n.allOf = append(n.allOf, p.node(in.dynRef))
	}
	types := s.Types
	if s.Type != "" {
		types = []string{s.Type}
	}
	for _, t := range types {
		bit, known := typeBits[t]
		if !known {
			bit = tNone // jsonschema-go matches no value to it
		}
		n.types |= bit
	}
	if n.types&tNumber != 0 {
		n.types |= tInteger // a number may be whole
	}
	n.enum, n.cnst = s.Enum, s.Const
	for _, e := range s.Enum {
		if str, ok := e.(string); ok {
			n.enumStrs, n.enumAny = append(n.enumStrs, str), append(n.enumAny, e)
		}
	}
	if len(n.enumStrs) > 8 {
		n.enumSet = make(map[string]int, len(n.enumStrs))
		for i, str := range n.enumStrs {
			if _, seen := n.enumSet[str]; !seen {
				n.enumSet[str] = i
			}
		}
	}
	n.minimum, n.maximum, n.exclusiveMin, n.exclusiveMax, n.multipleOf = s.Minimum, s.Maximum, s.ExclusiveMinimum, s.ExclusiveMaximum, s.MultipleOf
	n.numeric = s.Minimum != nil || s.Maximum != nil || s.ExclusiveMinimum != nil || s.ExclusiveMaximum != nil || s.MultipleOf != nil
	n.minLength, n.maxLength = s.MinLength, s.MaxLength
	if in.pattern != nil {
		n.pattern = newPattern(in.pattern)
	}
	n.strings = s.MinLength != nil || s.MaxLength != nil || in.pattern != nil

	n.allOf = append(n.allOf, p.nodeList(s.AllOf)...)
	n.anyOf, n.oneOf = p.nodeList(s.AnyOf), p.nodeList(s.OneOf)
	n.not, n.ifs, n.then, n.els = p.node(s.Not), p.node(s.If), p.node(s.Then), p.node(s.Else)
	n.applies = n.allOf != nil || n.anyOf != nil || n.oneOf != nil || n.not != nil || n.ifs != nil

	prefix, rest := s.PrefixItems, s.Items
	if c.draft == draft7 {
		prefix = s.ItemsArray
		if prefix != nil {
			rest = s.AdditionalItems
		}
	}
	n.prefix, n.rest = p.nodeList(prefix), p.node(rest)
	n.minItems, n.maxItems, n.unique = s.MinItems, s.MaxItems, s.UniqueItems
	n.contains, n.minContains, n.maxContains = p.node(s.Contains), s.MinContains, s.MaxContains
	n.arrays = n.prefix != nil || n.rest != nil || n.minItems != nil || n.maxItems != nil || n.unique || n.contains != nil

	if len(s.Properties) > 0 {
		for name, sub := range s.Properties {
			n.props = append(n.props, fastProp{name: name, head: nameHead(name), node: p.node(sub)})
		}
		slices.SortFunc(n.props, func(a, b fastProp) int { return cmpString(a.name, b.name) })
		n.indexProps()
	}
	for _, pp := range in.patterns {
		n.patterns = append(n.patterns, fastPattern{pp.re, p.node(pp.s)})
	}
	n.additional, n.propertyNames = p.node(s.AdditionalProperties), p.node(s.PropertyNames)
	n.minProps, n.maxProps = s.MinProperties, s.MaxProperties
	n.requiredNames = s.Required
	for _, name := range s.Required {
		i, declared := slices.BinarySearchFunc(n.props, name, func(p fastProp, name string) int { return cmpString(p.name, name) })
		switch {
		case !declared:
			if !slices.Contains(n.required, name) {
				n.required = append(n.required, name)
			}
		case !n.props[i].required:
			n.props[i].required = true
			n.requiredProps++
		}
	}
	depReq, depSchemas := s.DependentRequired, s.DependentSchemas
	if c.draft == draft7 {
		depReq, depSchemas = s.DependencyStrings, s.DependencySchemas
	}
	for _, k := range sortedKeys(depReq) {
		n.dependentRequired = append(n.dependentRequired, fastDependent{k, depReq[k]})
	}
	for _, k := range sortedKeys(depSchemas) {
		n.dependentSchemas = append(n.dependentSchemas, fastDependentSchema{k, p.node(depSchemas[k])})
	}
	n.fused = !n.slow && !n.refOnly && n.ref == nil && !n.applies && n.enum == nil && n.cnst == nil &&
		n.patterns == nil && n.propertyNames == nil && n.dependentSchemas == nil && n.contains == nil && !n.unique
	n.objects = n.props != nil || n.patterns != nil || n.additional != nil || n.propertyNames != nil ||
		n.minProps != nil || n.maxProps != nil || n.required != nil || n.requiredProps > 0 || n.dependentRequired != nil || n.dependentSchemas != nil
	n.own = n.types != 0 || n.enum != nil || n.cnst != nil || n.numeric || n.strings || n.arrays || n.objects
	// A node that applies more than one subschema to its value may reach
	// one subschema of a part of it by two ways; its verdicts are kept per
	// part, so that each part is judged once per such node, however the
	// schema fans out (nested alternatives, allOf, a $ref beside keywords
	// of its own).
	n.memo = n.applies || n.ref != nil && n.own
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// A fastRun is one check of a value.
type fastRun struct {
	p     *fastProgram
	depth int
	memo  map[memoKey]verdict
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
// for the next run: clearing a map costs its size.
const maxKeptMemo = 1024

// reset readies r for another check, keeping its memo's space.
func (r *fastRun) reset() {
	if len(r.memo) > maxKeptMemo {
		r.memo = nil
	} else {
		clear(r.memo)
	}
	r.depth = 0
}

// A part is an array or object of a value, known by its address and
// length. Memos keyed by a part are valid as long as the value is not
// modified.
type part struct {
	ptr uintptr
	len int
}

// partOf returns the part v is, when v is an array or object; scalars are
// cheap to check again and have none.
func partOf(v any) (part, bool) {
	switch x := v.(type) {
	case map[string]any:
		return part{reflect.ValueOf(x).Pointer(), len(x)}, true
	case []any:
		return part{uintptr(unsafe.Pointer(unsafe.SliceData(x))), len(x)}, true // reflect would box the slice
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
			if got, seen := r.memo[key]; seen {
				return got
			}
			got := r.node(v, n)
			if r.memo == nil {
				r.memo = map[memoKey]verdict{}
			}
			r.memo[key] = got
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

// property returns the property name declares, or nil.
func (n *fastNode) property(name string) *fastProp { return propertyOf(n, name) }

// propertyOf returns the property of n named name, or nil. A few
// properties are scanned; more are found in n.slots, a table addressed by
// a hash of the name's head and length, open, probed in order. Both compare
// words, and bytes only beyond a name's eighth (see nameHead).
func propertyOf[T ~string | ~[]byte](n *fastNode, name T) *fastProp {
	head := nameHead(name)
	if n.slots == nil {
		for i := range n.props {
			if p := &n.props[i]; p.head == head && len(p.name) == len(name) && (len(name) <= 8 || p.name[8:] == string(name[8:])) {
				return p
			}
		}
		return nil
	}
	mask := len(n.slots) - 1
	for i := slotOf(head, len(name), n.slotShift); ; i = (i + 1) & mask {
		k := n.slots[i]
		if k == 0 {
			return nil
		}
		if p := &n.props[k-1]; p.head == head && len(p.name) == len(name) && (len(name) <= 8 || p.name[8:] == string(name[8:])) {
			return p
		}
	}
}

// slotOf returns the first slot, in a table of 64-shift bits, of a name of
// the given head and length.
func slotOf(head uint64, length int, shift uint8) int {
	return int(((head ^ uint64(length)*0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9) >> shift)
}

// indexProps fills n.slots when n has more properties than a scan reads
// quickly: a table at most half full.
func (n *fastNode) indexProps() {
	if len(n.props) <= 8 {
		return
	}
	bits := uint8(1)
	for 1<<bits < 2*len(n.props) {
		bits++
	}
	n.slots, n.slotShift = make([]int32, 1<<bits), 64-bits
	mask := len(n.slots) - 1
	for k := range n.props {
		i := slotOf(n.props[k].head, len(n.props[k].name), n.slotShift)
		for n.slots[i] != 0 {
			i = (i + 1) & mask
		}
		n.slots[i] = int32(k + 1)
	}
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
