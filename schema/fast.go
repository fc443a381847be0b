package schema

import (
	"math"
	"reflect"
	"regexp"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// The fast path: at Parse, each subschema becomes a node holding
// its keywords in the form the check reads directly (bounds, a set of type
// bits, properties with their nodes, a pattern compiled once), and a
// decoded value is checked against the nodes in one walk that allocates
// nothing. It decides validity only: an invalid value then gets its
// violations from the diagnostic pass, exactly as before. Two front-ends
// read the same nodes: one over a document's bytes (fastbytes.go), one
// that checks a document as it decodes it (fastdecode.go), each giving
// the walk's verdict for the value the document holds.
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
	memo     bool // has anyOf or oneOf: verdicts are kept per value
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
	pattern              *regexp.Regexp

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
	// runs keeps the scratch space of checkBytes between calls.
	runs sync.Pool
}

// fastProgram returns c's fast path, built by its first call (Parse
// makes it); nil when c has none (see the comment at the top of this
// file).
func (c *compiled) fastProgram() *fastProgram {
	c.fastOnce.Do(func() {
		if c.dynamic || c.assertFormats {
			return
		}
		p := &fastProgram{c: c, nodes: make(map[*jsonschema.Schema]*fastNode, len(c.order))}
		for _, s := range c.order {
			p.nodes[s] = &fastNode{s: s}
		}
		for _, s := range c.order {
			p.build(p.nodes[s])
			p.alternatives = p.alternatives || p.nodes[s].memo
		}
		p.root = p.nodes[c.root]
		if p.root != nil {
			c.fast = p
		}
	})
	return c.fast
}

// node returns the node of s; s is always one of c.order.
func (p *fastProgram) node(s *jsonschema.Schema) *fastNode {
	if s == nil {
		return nil
	}
	n := p.nodes[s]
	if n == nil {
		// A subschema compile did not list: judge it the slow way.
		n = &fastNode{s: s, slow: true}
		p.nodes[s] = n
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
	if in == nil || s.UnevaluatedItems != nil || s.UnevaluatedProperties != nil || s.DynamicRef != "" && in.dynRef == nil {
		n.slow = true
		return
	}
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
	n.minLength, n.maxLength, n.pattern = s.MinLength, s.MaxLength, in.pattern
	n.strings = s.MinLength != nil || s.MaxLength != nil || in.pattern != nil

	n.allOf = append(n.allOf, p.nodeList(s.AllOf)...)
	n.anyOf, n.oneOf = p.nodeList(s.AnyOf), p.nodeList(s.OneOf)
	n.memo = len(n.anyOf) > 0 || len(n.oneOf) > 0
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
	n.fused = !n.refOnly && n.ref == nil && !n.applies && n.enum == nil && n.cnst == nil &&
		n.patterns == nil && n.propertyNames == nil && n.dependentSchemas == nil && n.contains == nil && !n.unique
	n.objects = n.props != nil || n.patterns != nil || n.additional != nil || n.propertyNames != nil ||
		n.minProps != nil || n.maxProps != nil || n.required != nil || n.requiredProps > 0 || n.dependentRequired != nil || n.dependentSchemas != nil
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
		return part{reflect.ValueOf(x).Pointer(), len(x)}, true
	}
	return part{}, false
}

// memoKey names a node applied to a part of the value.
type memoKey struct {
	n *fastNode
	part
}

// check returns the verdict of v against the document's root.
func (p *fastProgram) check(v any) verdict {
	r := fastRun{p: p}
	return r.eval(v, p.root)
}

// eval returns the verdict of v against n.
func (r *fastRun) eval(v any, n *fastNode) verdict {
	if r.depth >= maxDiagnoseDepth {
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
	if n.memo {
		if pt, ok := partOf(v); ok {
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
	switch x := v.(type) {
	case nil:
		if n.types != 0 && n.types&tNull == 0 {
			return invalid
		}
	case bool:
		if n.types != 0 && n.types&tBoolean == 0 {
			return invalid
		}
	case string:
		if n.types != 0 && n.types&tString == 0 {
			return invalid
		}
		if n.strings && !n.checkString(x) {
			return invalid
		}
	case float64:
		if n.types != 0 {
			bit := tNumber
			if _, f := math.Modf(x); f == 0 {
				bit = tInteger
			}
			if n.types&bit == 0 {
				return invalid
			}
		}
		if n.numeric && !n.checkNumber(x) {
			return invalid
		}
	case []any:
		if n.types != 0 && n.types&tArray == 0 {
			return invalid
		}
	case map[string]any:
		if n.types != 0 && n.types&tObject == 0 {
			return invalid
		}
	default:
		return undecided
	}
	if got := n.enumConst(v); got != valid {
		return got
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

// enumConst applies enum and const to a plain value: undecided when a
// member cannot be compared with it.
func (n *fastNode) enumConst(v any) verdict {
	if str, isStr := v.(string); isStr && n.enum != nil {
		// A string equals only a string.
		if n.enumIndex(str) < 0 {
			return invalid
		}
	} else if n.enum != nil {
		found := false
		for _, e := range n.enum {
			same, ok := fastEqual(e, v)
			if !ok {
				return undecided
			}
			if same {
				found = true
				break
			}
		}
		if !found {
			return invalid
		}
	}
	if n.cnst != nil {
		same, ok := fastEqual(*n.cnst, v)
		if !ok {
			return undecided
		}
		if !same {
			return invalid
		}
	}
	return valid
}

// enumIndex returns the index in n.enumStrs of a string enum allows, or
// -1.
func (n *fastNode) enumIndex(str string) int {
	if n.enumSet == nil {
		return slices.Index(n.enumStrs, str)
	}
	if i, ok := n.enumSet[str]; ok {
		return i
	}
	return -1
}

func (n *fastNode) checkString(s string) bool {
	if n.minLength != nil || n.maxLength != nil {
		count := utf8.RuneCountInString(s)
		if n.minLength != nil && count < *n.minLength || n.maxLength != nil && count > *n.maxLength {
			return false
		}
	}
	return n.pattern == nil || n.pattern.MatchString(s)
}

// checkNumber applies the numeric keywords as jsonschema-go does: bounds
// compared exactly (two float64 values compare as their rationals do),
// multipleOf by the remainder of a float64 division.
func (n *fastNode) checkNumber(x float64) bool {
	if n.multipleOf != nil {
		if _, f := math.Modf(x / *n.multipleOf); f != 0 {
			return false
		}
	}
	return (n.minimum == nil || x >= *n.minimum) &&
		(n.maximum == nil || x <= *n.maximum) &&
		(n.exclusiveMin == nil || x > *n.exclusiveMin) &&
		(n.exclusiveMax == nil || x < *n.exclusiveMax)
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
		if count == 0 && (n.minContains == nil || *n.minContains > 0) ||
			n.minContains != nil && count < *n.minContains ||
			n.maxContains != nil && count > *n.maxContains {
			return invalid
		}
	}
	if n.minItems != nil && len(a) < *n.minItems || n.maxItems != nil && len(a) > *n.maxItems {
		return invalid
	}
	if n.unique && len(a) > 1 {
		switch unique(a) {
		case invalid:
			return invalid
		case undecided:
			out = and(out, undecided)
		}
	}
	return out
}

// unique reports whether the items of a differ pairwise.
func unique(a []any) verdict {
	if len(a) > 64 {
		if v, ok := uniqueScalars(a); ok {
			return v
		}
		seen := make(map[string]bool, len(a))
		for _, e := range a {
			k := canonical(e)
			if seen[k] {
				return invalid
			}
			seen[k] = true
		}
		return valid
	}
	if !isPlain(a, 0) {
		return undecided
	}
	for i := 1; i < len(a); i++ {
		for j := range i {
			if equal(a[i], a[j]) {
				return invalid
			}
		}
	}
	return valid
}

// uniqueScalars decides unique for an array of strings only or numbers
// only, by a set of them; ok is false for any other array.
func uniqueScalars(a []any) (v verdict, ok bool) {
	switch a[0].(type) {
	case string:
		seen := make(map[string]bool, len(a))
		for _, e := range a {
			s, isStr := e.(string)
			if !isStr {
				return undecided, false
			}
			if seen[s] {
				return invalid, true
			}
			seen[s] = true
		}
		return valid, true
	case float64:
		seen := make(map[float64]bool, len(a)) // 0 and -0 are one key, as they are one number
		for _, e := range a {
			f, isNum := e.(float64)
			if !isNum {
				return undecided, false
			}
			if seen[f] {
				return invalid, true
			}
			seen[f] = true
		}
		return valid, true
	}
	return undecided, false
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
			if out = and(out, r.eval(k, n.propertyNames)); out == invalid {
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
// dependentRequired to m, of which required declared properties are
// required ones.
func (n *fastNode) membersPresent(m map[string]any, required int) bool {
	if n.minProps != nil && len(m) < *n.minProps || n.maxProps != nil && len(m) > *n.maxProps {
		return false
	}
	if required < n.requiredProps {
		return false
	}
	for _, name := range n.required {
		if _, ok := m[name]; !ok {
			return false
		}
	}
	for _, d := range n.dependentRequired {
		if _, ok := m[d.name]; !ok {
			continue
		}
		for _, name := range d.required {
			if _, ok := m[name]; !ok {
				return false
			}
		}
	}
	return true
}

// fastEqual is equal for the fast path: ok is false when a or b is not
// plain (holds a Go type json.Unmarshal does not give), which the fast
// path leaves to the authority.
func fastEqual(a, b any) (same, ok bool) {
	if !isPlain(a, 0) || !isPlain(b, 0) {
		return false, false
	}
	return equal(a, b), true
}
