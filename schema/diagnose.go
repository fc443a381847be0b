package schema

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentio/agentio/internal/jsonpath"
)

// maxDiagnoseDepth bounds the nesting of subschema applications the
// diagnostic pass and the fast path follow for a value that does not nest;
// each level the value may nest adds as many as the document has
// subschemas (see compiled.applicationBound), up to maxApplications in
// all, which keeps the recursion within a goroutine's stack. Deeper, the
// pass reports that it stopped.
const (
	maxDiagnoseDepth = 4000
	maxApplications  = 1 << 17
)

// A finding is a violation as the pass builds it, with what an anyOf or
// oneOf summary needs to know about it.
type finding struct {
	at       *jsonpath.Chain
	keyword  string
	schema   string // JSON Pointer of the keyword in the schema
	message  string
	expected []string // for a type, const or enum mismatch: what is accepted; shared, read-only
	pointer  string   // at as a JSON Pointer, once dedupe has built it
}

// annotations records which items and properties a schema evaluated, for
// unevaluatedItems and unevaluatedProperties (the rules of jsonschema-go's
// annotations type).
type annotations struct {
	allItems      bool
	endIndex      int
	indexes       map[int]bool
	allProperties bool
	properties    map[string]bool
}

func (a *annotations) merge(b *annotations) {
	if a == nil || b == nil {
		return
	}
	a.allItems = a.allItems || b.allItems
	a.endIndex = max(a.endIndex, b.endIndex)
	for i := range b.indexes {
		a.noteIndex(i)
	}
	a.allProperties = a.allProperties || b.allProperties
	for p := range b.properties {
		a.noteProperty(p)
	}
}

func (a *annotations) noteIndex(i int) {
	if a.indexes == nil {
		a.indexes = map[int]bool{}
	}
	a.indexes[i] = true
}

func (a *annotations) noteProperty(p string) {
	if a.properties == nil {
		a.properties = map[string]bool{}
	}
	a.properties[p] = true
}

// diagnosis is the state of one diagnostic pass. It walks the compiled
// schema the way jsonschema-go's validator does, but records every failure
// instead of returning at the first, and keeps going below failures.
type diagnosis struct {
	c       *compiled
	stack   []*jsonschema.Schema // dynamic scope, for $dynamicRef
	depth   int
	formats bool // assert "format" (ParseOptions.AssertFormat)
	// fast, when not nil, is a run of the document's fast path: a part of
	// the value it finds valid has no violations to list, and is skipped.
	// One run serves the whole pass, so each part is judged once.
	fast *fastRun
	// known, when not nil, holds verdicts the fast path gave while the
	// value was decoded (see decodeRun.known): a part found there is not
	// judged again.
	known *memoTable
	// links holds the places item builds, a block at a time.
	links jsonpath.Links
	// memo keeps what eval found, by part of the value and subschema,
	// when the document has alternatives (fast.p.alternatives).
	memo map[diagnosisKey]diagnosed
	// kw is the last keyword pointer written (see keywordPointer): the
	// violations of many rows are often of one keyword.
	kw struct {
		s                *jsonschema.Schema
		keyword, pointer string
	}
}

// diagnosisKey names a subschema applied to a part of the value.
type diagnosisKey struct {
	s *jsonschema.Schema
	part
}

// diagnose returns every violation of v, which must be a plain decoded
// JSON value (see plainValue), asserting "format" when the schema was
// parsed with [ParseOptions.AssertFormat].
func (c *compiled) diagnose(v any) []finding {
	return c.diagnoseKnown(v, nil)
}

// diagnoseKnown is diagnose, with verdicts of parts of v the fast path
// already gave (nil: none).
func (c *compiled) diagnoseKnown(v any, known *memoTable) []finding {
	d := c.newDiagnosis(c.assertFormats, true)
	if d.fast != nil {
		d.known = known
	}
	return d.run(v)
}

// diagnoseWith is diagnose, asserting "format" or not; with shortcuts,
// it skips what the fast path finds valid and judges each part of the
// value once per subschema. Without, it is the pass the shortcuts are
// tested against.
func (c *compiled) diagnoseWith(v any, formats, shortcuts bool) []finding {
	return c.newDiagnosis(formats, shortcuts).run(v)
}

// run lists every violation of v against the document's root, and ends
// the pass.
func (d *diagnosis) run(v any) []finding {
	defer d.done()
	var out []finding
	d.eval(v, d.c.root, nil, &out, nil)
	return dedupe(out)
}

// newDiagnosis starts a diagnostic pass (see diagnoseWith).
func (c *compiled) newDiagnosis(formats, shortcuts bool) *diagnosis {
	d := &diagnosis{c: c, formats: formats}
	if p := c.fastProgram(); p != nil && !formats && shortcuts {
		// A run from the program's pool: its memo's space is kept.
		d.fast, _ = p.valueRuns.Get().(*fastRun)
		if d.fast == nil {
			d.fast = &fastRun{p: p}
		}
		d.fast.all = true
	}
	return d
}

// done returns the pass's fast run to its program's pool.
func (d *diagnosis) done() {
	if r := d.fast; r != nil {
		r.all = false
		r.reset()
		r.p.valueRuns.Put(r)
		d.fast = nil
	}
	d.known = nil
}

func (d *diagnosis) add(out *[]finding, at *jsonpath.Chain, s *jsonschema.Schema, keyword, msg string) {
	*out = append(*out, finding{at: at, keyword: keyword, schema: d.keywordPointer(s, keyword), message: msg})
}

// keywordPointer returns the JSON Pointer, in the schema, of keyword in s
// (of s itself for "false" and "").
func (d *diagnosis) keywordPointer(s *jsonschema.Schema, keyword string) string {
	if d.kw.s == s && d.kw.keyword == keyword {
		return d.kw.pointer
	}
	p := d.c.infos[s].schemaPointer()
	if keyword != "false" && keyword != "" {
		p += "/" + jsonpath.EscapeToken(keyword)
	}
	d.kw.s, d.kw.keyword, d.kw.pointer = s, keyword, p
	return p
}

func (d *diagnosis) isFalse(s *jsonschema.Schema) bool { return s != nil && d.c.infos[s].isFalse }

// ok reports whether v satisfies s, collecting s's annotations into anns
// when it does; it also returns the violations and s's annotations.
func (d *diagnosis) ok(v any, s *jsonschema.Schema, at *jsonpath.Chain, anns *annotations) ([]finding, bool, *annotations) {
	var out []finding
	local := &annotations{}
	d.eval(v, s, at, &out, local)
	if len(out) == 0 {
		anns.merge(local)
	}
	return out, len(out) == 0, local
}

// eval appends to out every way v violates s. Whatever the outcome, the
// items and properties s evaluated are merged into callerAnns: when s
// fails, the caller fails too, and marking them keeps unevaluated* from
// repeating a complaint already made.
func (d *diagnosis) eval(v any, s *jsonschema.Schema, at *jsonpath.Chain, out *[]finding, callerAnns *annotations) {
	if d.depth >= d.c.maxApplications {
		d.add(out, at, s, "", "the value or the schema nests too deeply to check further")
		return
	}
	if callerAnns == nil && d.passes(v, s) {
		// No caller needs what s evaluates: a part of the value the fast
		// path finds valid has nothing to report.
		return
	}
	d.evalChecked(v, s, at, out, callerAnns)
}

// passes reports whether the fast path finds v valid against s.
func (d *diagnosis) passes(v any, s *jsonschema.Schema) bool {
	if d.fast == nil {
		return false
	}
	return d.passesNode(v, d.fast.p.nodes[s])
}

// passesNode is passes, given s's node.
func (d *diagnosis) passesNode(v any, n *fastNode) bool {
	if d.fast == nil || n == nil || n.slow {
		return false
	}
	if d.known != nil {
		if pt, ok := partOf(v); ok {
			if got, seen := d.known.get(memoKey{n, pt}); seen {
				return got == valid
			}
		}
	}
	return d.fast.eval(v, n) == valid
}

// item evaluates the item or member v of the array or object at parent,
// found at step, against the subschema of n; its place is only built when
// it has something to report.
func (d *diagnosis) item(v any, n *fastNode, parent *jsonpath.Chain, key string, index int, out *[]finding) {
	if d.passesNode(v, n) {
		return
	}
	s := n.s
	var at *jsonpath.Chain
	if index < 0 {
		at = d.links.Key(parent, key)
	} else {
		at = d.links.Index(parent, index)
	}
	if d.depth >= d.c.maxApplications {
		d.add(out, at, s, "", "the value or the schema nests too deeply to check further")
		return
	}
	d.evalChecked(v, s, at, out, nil)
}

// evalChecked is eval once the fast path had its say.
func (d *diagnosis) evalChecked(v any, s *jsonschema.Schema, at *jsonpath.Chain, out *[]finding, callerAnns *annotations) {
	if d.fast != nil && d.fast.p.alternatives {
		// Under anyOf and oneOf the same part of the value meets the same
		// subschema again and again (each branch, at each level): judge
		// it once at each place (a value built in Go may hold one array
		// in two places).
		if pt, ok := partOf(v); ok {
			key := diagnosisKey{s, pt}
			if m, seen := d.memo[key]; seen && m.at.Equal(at) {
				*out = append(*out, m.findings...)
				callerAnns.merge(m.anns)
				return
			}
			before, anns := len(*out), &annotations{}
			d.body(v, s, at, out, anns)
			callerAnns.merge(anns)
			if d.memo == nil {
				d.memo = map[diagnosisKey]diagnosed{}
			}
			d.memo[key] = diagnosed{at, slices.Clone((*out)[before:]), anns}
			return
		}
	}
	d.body(v, s, at, out, callerAnns)
}

// diagnosed is what eval found for a part of the value and a subschema.
type diagnosed struct {
	at       *jsonpath.Chain
	findings []finding
	anns     *annotations
}

// body is eval, past the depth check and the memo.
func (d *diagnosis) body(v any, s *jsonschema.Schema, at *jsonpath.Chain, out *[]finding, callerAnns *annotations) {
	d.depth++
	d.stack = append(d.stack, s)
	defer func() {
		d.depth--
		d.stack = d.stack[:len(d.stack)-1]
	}()
	n := d.node(s)
	in := n.info
	if in.isFalse {
		d.add(out, at, s, "false", "no value is allowed here")
		return
	}
	if n.refOnly {
		// Draft-07 ignores every keyword beside $ref; like jsonschema-go,
		// pass no annotations up.
		d.eval(v, in.ref, at, out, nil)
		return
	}
	if n.ref != nil && !n.own && !n.applies && !n.slow && (!d.formats || s.Format == "") {
		// A $ref and nothing else (the fast path's nodes do not count an
		// asserted format): its target's findings and annotations are
		// s's. Its caller asked the fast path of s already, which is to
		// ask it of the target.
		if d.depth >= d.c.maxApplications {
			d.add(out, at, in.ref, "", "the value or the schema nests too deeply to check further")
			return
		}
		d.evalChecked(v, in.ref, at, out, callerAnns)
		return
	}
	var anns annotations
	defer callerAnns.merge(&anns)

	if in.ref != nil {
		d.eval(v, in.ref, at, out, &anns)
	}

	typeOK := true
	bit, plain := typeOf(v)
	if !plain {
		// A Go number (coercion asks about json.Number values): its type
		// as jsonType says.
		bit = typeBits[jsonType(v)]
	}
	if !n.allows(bit) {
		typeOK = false
		want := s.Types
		if s.Type != "" {
			want = []string{s.Type}
		}
		msg := "expected " + orList(want) + ", got " + jsonType(v)
		if r := jsonRepr(v); r != "" {
			msg += " " + r
		}
		*out = append(*out, finding{at: at, keyword: "type", schema: d.keywordPointer(s, "type"), message: msg, expected: want})
	}
	if typeOK && !n.inEnum(v) {
		allowed, list := in.enumText(s.Enum)
		*out = append(*out, finding{at: at, keyword: "enum", schema: d.keywordPointer(s, "enum"),
			message: reprThen(v, " is not one of ", list), expected: allowed})
	}
	if typeOK && !n.isConst(v) {
		*out = append(*out, finding{at: at, keyword: "const", schema: d.keywordPointer(s, "const"),
			message: "expected " + repr(*s.Const) + ", got " + repr(v), expected: []string{repr(*s.Const)}})
	}
	if x, isStr := v.(string); isStr {
		d.str(x, stringFailures(n, x), s, at, out)
	} else if x, isNum := numberOf(v); isNum {
		d.numeric(n.numberFailures(x), repr(v), s, at, out)
	}

	if s.DynamicRef != "" {
		target := in.dynRef
		if target == nil {
			for _, f := range d.stack {
				base := d.c.infos[d.c.infos[f].base]
				if a, ok := base.anchors[in.dynAnchor]; ok && a.dynamic {
					target = a.s
					break
				}
			}
		}
		if target == nil {
			d.add(out, at, s, "$dynamicRef", "no schema in scope has the dynamic anchor "+quote(in.dynAnchor, 60))
		} else {
			d.eval(v, target, at, out, &anns)
		}
	}

	for _, sub := range s.AllOf {
		d.eval(v, sub, at, out, &anns)
	}
	if s.AnyOf != nil {
		d.alternatives(v, s, s.AnyOf, "anyOf", at, out, &anns)
	}
	if s.OneOf != nil {
		d.alternatives(v, s, s.OneOf, "oneOf", at, out, &anns)
	}
	if s.Not != nil {
		if _, ok, _ := d.ok(v, s.Not, at, nil); ok {
			d.add(out, at, s, "not", "the value must not match "+d.describe(s.Not))
		}
	}
	if s.If != nil {
		branch := s.Else
		if _, ok, _ := d.ok(v, s.If, at, &anns); ok {
			branch = s.Then
		}
		if branch != nil {
			d.eval(v, branch, at, out, &anns)
		}
	}

	switch x := v.(type) {
	case []any:
		d.array(x, s, at, out, &anns)
	case map[string]any:
		d.object(x, s, in, at, out, &anns)
	}
}

// numberOf returns the number v holds, as a float64: the pass compares
// numbers as the authority does, which reads them as float64 values.
func numberOf(v any) (float64, bool) {
	if x, ok := v.(float64); ok {
		return x, true
	}
	if r, ok := asRat(v); ok {
		x, _ := r.Float64()
		return x, true
	}
	return 0, false
}

// node returns the node of s, whose rules the pass applies.
func (d *diagnosis) node(s *jsonschema.Schema) *fastNode { return d.c.program().nodes[s] }

// numeric reports the numeric keywords a number (num, as written) fails.
func (d *diagnosis) numeric(f failure, num string, s *jsonschema.Schema, at *jsonpath.Chain, out *[]finding) {
	if f&failMultipleOf != 0 {
		d.add(out, at, s, "multipleOf", num+" is not a multiple of "+formatFloat(*s.MultipleOf))
	}
	if f&failMinimum != 0 {
		d.add(out, at, s, "minimum", num+" is less than the minimum of "+formatFloat(*s.Minimum))
	}
	if f&failMaximum != 0 {
		d.add(out, at, s, "maximum", num+" is greater than the maximum of "+formatFloat(*s.Maximum))
	}
	if f&failExclusiveMinimum != 0 {
		d.add(out, at, s, "exclusiveMinimum", num+" must be greater than "+formatFloat(*s.ExclusiveMinimum))
	}
	if f&failExclusiveMaximum != 0 {
		d.add(out, at, s, "exclusiveMaximum", num+" must be less than "+formatFloat(*s.ExclusiveMaximum))
	}
}

// str reports the string keywords str fails, and format when the pass
// asserts it.
func (d *diagnosis) str(str string, f failure, s *jsonschema.Schema, at *jsonpath.Chain, out *[]finding) {
	if f&(failMinLength|failMaxLength) != 0 {
		n := utf8.RuneCountInString(str)
		if f&failMinLength != 0 {
			d.add(out, at, s, "minLength", quote(str, maxQuoted)+" is too short: "+plural(n, "character")+", at least "+strconv.Itoa(*s.MinLength)+" required")
		}
		if f&failMaxLength != 0 {
			d.add(out, at, s, "maxLength", quote(str, maxQuoted)+" is too long: "+plural(n, "character")+", at most "+strconv.Itoa(*s.MaxLength)+" allowed")
		}
	}
	if f&failPattern != 0 {
		d.add(out, at, s, "pattern", quote(str, maxQuoted)+" does not match the pattern "+quote(s.Pattern, maxQuoted))
	}
	if d.formats && s.Format != "" {
		if f, ok := formats[s.Format]; ok && !f.valid(str) {
			d.add(out, at, s, "format", quote(str, maxQuoted)+" is not "+f.what+" (format "+quote(s.Format, maxQuoted)+")")
		}
	}
}

// alternatives checks anyOf or oneOf. When no alternative matches, it
// reports the violations of the one that came closest, or a summary when
// every alternative rejects the value outright.
func (d *diagnosis) alternatives(v any, s *jsonschema.Schema, subs []*jsonschema.Schema, keyword string, at *jsonpath.Chain, out *[]finding, anns *annotations) {
	branches := make([][]finding, len(subs))
	branchAnns := make([]*annotations, len(subs))
	var matched []int
	for i, sub := range subs {
		var ok bool
		branches[i], ok, branchAnns[i] = d.ok(v, sub, at, anns)
		if ok {
			matched = append(matched, i)
		}
	}
	switch {
	case len(matched) == 1 || len(matched) > 1 && keyword == "anyOf":
		return
	case len(matched) > 1:
		idx := make([]string, len(matched))
		for i, m := range matched {
			idx[i] = strconv.Itoa(m)
		}
		d.add(out, at, s, keyword, "the value matches "+strconv.Itoa(len(matched))+" of the alternatives ("+andList(idx)+") but must match exactly one")
		return
	}
	depth := at.Len()
	best, bestScore := 0, math.MaxInt
	for i, b := range branches {
		score := 0
		for _, f := range b {
			fd := f.at.Len()
			switch {
			case fd == depth && (f.keyword == "type" || f.keyword == "false"):
				score += 1000
			case fd <= depth+1 && (f.keyword == "const" || f.keyword == "enum"):
				score += 100
			case fd == depth+1 && (f.keyword == "required" || f.keyword == "additionalProperties"):
				score += 3
			default:
				score++
			}
		}
		if score < bestScore {
			best, bestScore = i, score
		}
	}
	if bestScore < 100 || bestScore < 1000 && !d.allOutright(branches, depth) {
		*out = append(*out, branches[best]...)
		anns.merge(branchAnns[best])
		return
	}
	// Every alternative rejects the value outright (its type, or all
	// values): say what the alternatives accept.
	var want []string
	outright, values := true, false
	for _, b := range branches {
		found := false
		for _, f := range b {
			if f.expected != nil && f.at.Len() == depth {
				values = values || f.keyword != "type"
				for _, w := range f.expected {
					if !slices.Contains(want, w) {
						want = append(want, w)
					}
				}
				found = true
				break
			}
		}
		outright = outright && found
	}
	msg := "the value matches none of the " + strconv.Itoa(len(subs)) + " alternatives"
	if outright {
		if len(want) > maxEnumShown {
			want = append(want[:maxEnumShown], "… ("+strconv.Itoa(len(want)-maxEnumShown)+" more)")
		}
		msg = "expected " + orList(want) + ", got "
		switch r := jsonRepr(v); {
		case values:
			msg += repr(v)
		case r != "":
			msg += jsonType(v) + " " + r
		default:
			msg += jsonType(v)
		}
	}
	d.add(out, at, s, keyword, msg)
}

// allOutright reports whether every branch rejects the value itself by
// type, const or enum.
func (d *diagnosis) allOutright(branches [][]finding, depth int) bool {
	for _, b := range branches {
		if !slices.ContainsFunc(b, func(f finding) bool { return f.expected != nil && f.at.Len() == depth }) {
			return false
		}
	}
	return true
}

// describe renders a subschema compactly for a message.
func (d *diagnosis) describe(s *jsonschema.Schema) string {
	in := d.c.infos[s]
	if in.src == nil {
		return "the schema at " + quote(in.schemaPointer(), 80)
	}
	b := in.src.AppendJSON(nil)
	if len(b) > maxRendered {
		return "the schema at " + quote(in.schemaPointer(), 80)
	}
	return string(b)
}

// dedupe drops repeated findings (the same complaint reached through two
// subschemas), keeping the first.
func dedupe(fs []finding) []finding {
	if len(fs) < 2 {
		return fs
	}
	pointers := placeTexts(fs, (*jsonpath.Chain).AppendPointer)
	type key struct{ pointer, keyword, message string }
	seen := make(map[key]struct{}, len(fs))
	out := fs[:0]
	for i, f := range fs {
		f.pointer = pointers[i] // kept for violations
		k := key{f.pointer, f.keyword, f.message}
		if _, dup := seen[k]; dup {
			continue
		}
		seen[k] = struct{}{}
		out = append(out, f)
	}
	return out
}

// placeTexts returns the text write gives each finding's place, all
// written into one string: a list of violations costs two allocations
// for its places, not one per violation.
func placeTexts(fs []finding, write func(*jsonpath.Chain, []byte) []byte) []string {
	size := 0
	for i := range fs {
		size += 1 + 12*fs[i].at.Len() // a guess: Len is at hand, the texts' sizes are not
	}
	var sb strings.Builder
	sb.Grow(size)
	ends := make([]int, len(fs))
	var scratch [256]byte
	for i := range fs {
		sb.Write(write(fs[i].at, scratch[:0]))
		ends[i] = sb.Len()
	}
	all := sb.String()
	texts := make([]string, len(fs))
	start := 0
	for i, end := range ends {
		texts[i], start = all[start:end], end
	}
	return texts
}
