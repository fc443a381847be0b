package schema

import (
	"hash/maphash"
	"regexp"
	"slices"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// The nodes of the fast path (see fast.go), built once by Parse from the
// compiled schema: a node holds a subschema's keywords in the form the
// checks read directly, and the rules of keywords.go apply to it.

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
	info *sinfo // what compile found of s; nil for a subschema it did not list
	slow bool   // judged by the diagnostic pass
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
	// shallow: each part of a value this node reads (its properties,
	// additional properties and items) is judged by a node with no parts
	// of its own, so judging the value again costs a walk of its members
	// alone. Decode keeps no verdict of such a value for the diagnostic
	// pass, which judges it again (see decodeRun.keep).
	shallow bool

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
	authorOrder        []int32 // props's indexes in the order the schema writes them
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

// leaf reports whether n judges a value by its own keywords alone: no
// $ref, no applicator, no memo, not slow, not false. eval of a scalar
// under such a node comes down to the keyword rules.
func (n *fastNode) leaf() bool {
	return n.ref == nil && !n.applies && !n.memo && !n.slow && !n.never
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
			n.shallow = n.isShallow()
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
	n.info = in
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
		n.authorOrder = make([]int32, 0, len(n.props))
		if in.propOrder == nil {
			for i := range n.props {
				n.authorOrder = append(n.authorOrder, int32(i))
			}
		}
		for _, name := range in.propOrder {
			if i, ok := slices.BinarySearchFunc(n.props, name, func(p fastProp, name string) int { return cmpString(p.name, name) }); ok {
				n.authorOrder = append(n.authorOrder, int32(i))
			}
		}
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

// property returns the property name declares, or nil.
func (n *fastNode) property(name string) *fastProp { return propertyOf(n, name) }

// hasParts reports whether n judges parts of a value with nodes of their
// own, or may (a $ref, an applicator, a slow node).
func (n *fastNode) hasParts() bool {
	return n.props != nil || n.additional != nil || n.prefix != nil || n.rest != nil || n.patterns != nil ||
		n.propertyNames != nil || n.dependentSchemas != nil || n.contains != nil || n.applies || n.ref != nil || n.slow
}

// isShallow computes shallow (see fastNode), once every node is built.
func (n *fastNode) isShallow() bool {
	for n.refOnly {
		n = n.ref
	}
	if n.slow || n.applies || n.ref != nil || n.patterns != nil || n.propertyNames != nil || n.dependentSchemas != nil || n.contains != nil {
		return false
	}
	leaf := func(m *fastNode) bool {
		if m == nil {
			return true
		}
		for m.refOnly {
			m = m.ref
		}
		return !m.hasParts()
	}
	for _, pr := range n.props {
		if !leaf(pr.node) {
			return false
		}
	}
	for _, m := range n.prefix {
		if !leaf(m) {
			return false
		}
	}
	return leaf(n.additional) && leaf(n.rest)
}

// item returns the node of an array's i-th item (prefixItems, then items),
// or nil when none applies.
func (n *fastNode) item(i int) *fastNode {
	if i < len(n.prefix) {
		return n.prefix[i]
	}
	return n.rest
}

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
