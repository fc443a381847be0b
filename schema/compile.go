package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/internal/jsontree"
	"github.com/agentio/agentio/internal/schematree"
)

// A Loader returns the schema document at uri (without fragment), for a
// $ref that points outside the schema being parsed. [ParseWith] calls it at
// most once per URI, on the caller's goroutine, and never after it returns.
// The loader decides what may be read (an embedded file system, a fixed
// map); this package never fetches anything itself. An error fails the
// parse with [ErrRemoteRef].
type Loader func(uri string) ([]byte, error)

// ParseOptions configures [ParseWith]. A nil *ParseOptions and the zero
// value mean the defaults.
type ParseOptions struct {
	// Loader supplies documents for remote $refs (http, https, file or a
	// relative reference). Nil, the default, refuses every remote $ref
	// with [ErrRemoteRef]: nothing is ever fetched.
	Loader Loader
	// MaxDepth is how deeply a value may nest for [Schema.Validate]: a
	// value with arrays or objects nested more levels below its root gets
	// one violation (keyword "maxDepth") at the first such place and is not
	// validated further. 0 means [DefaultMaxDepth]; negative is an error
	// matching [ErrInvalidOption].
	MaxDepth int
	// AssertFormat makes "format" an assertion, as the draft 2020-12
	// format-assertion vocabulary does, for the formats this package
	// knows: date-time, date, time, duration, email, hostname, ipv4, ipv6,
	// uri, uri-reference, iri, iri-reference, uuid, uri-template,
	// json-pointer, relative-json-pointer and regex (RE2 syntax). Other
	// format values stay annotations. False, the default, treats every
	// format as an annotation, as jsonschema-go does. See "Formats" in the
	// package documentation for how the verdict is reached.
	AssertFormat bool
}

// sinfo is what the diagnostic pass needs to know about one subschema,
// computed once at compile time (the same facts jsonschema-go computes but
// does not export).
type sinfo struct {
	doc       string         // URI of the document holding it; "" for the root document
	loc       jsonpath.Path  // location in that document
	pointer   string         // loc as a JSON Pointer, after doc and '#' for a loaded document
	src       *jsontree.Node // its source
	base      *jsonschema.Schema
	uri       *url.URL // set for a document root or a schema with an $id
	anchors   map[string]anchor
	ref       *jsonschema.Schema // $ref target
	dynRef    *jsonschema.Schema // $dynamicRef target when it acts lexically
	dynAnchor string             // $dynamicRef anchor when it acts dynamically
	pattern   *regexp.Regexp
	patterns  []patternProp // patternProperties in author order
	propOrder []string      // properties names in author order
	isFalse   bool          // written as the boolean schema false

	view atomic.Pointer[view] // what Coerce needs of it, computed on first use

	enumOnce    sync.Once // enumAllowed and enumList, computed on first use
	enumAllowed []string  // each member of enum as a message shows it
	enumList    string    // the members as one list, for a message
}

// enumText returns the members of enum, the enum of the subschema in
// describes, as a message shows them, one by one and as a list; computed
// once, read-only.
func (in *sinfo) enumText(enum []any) (allowed []string, list string) {
	in.enumOnce.Do(func() {
		in.enumAllowed = make([]string, len(enum))
		for i, e := range enum {
			in.enumAllowed[i] = repr(e)
		}
		in.enumList = listValues(enum)
	})
	return in.enumAllowed, in.enumList
}

type anchor struct {
	s       *jsonschema.Schema
	dynamic bool
}

type patternProp struct {
	key string
	re  *regexp.Regexp
	s   *jsonschema.Schema
}

// schemaPointer returns the JSON Pointer of the subschema, prefixed with
// its document's URI and '#' when it comes from a loaded document.
func (in *sinfo) schemaPointer() string { return in.pointer }

func schemaPointer(doc string, loc jsonpath.Path) string {
	if doc == "" {
		return jsonpath.Pointer(loc)
	}
	return doc + "#" + jsonpath.Pointer(loc)
}

// compiled holds everything compile derives from a document.
type compiled struct {
	draft draft
	// maxApplications bounds the nesting of subschema applications a
	// check follows (see applicationBound).
	maxApplications int
	root            *jsonschema.Schema
	infos           map[*jsonschema.Schema]*sinfo
	uris            map[string]*jsonschema.Schema // resolved URI -> schema
	docs            map[string][]byte             // loaded document URI -> normalised bytes
	order           []*jsonschema.Schema          // every subschema, documents in load order
	loader          Loader
	warnings        []Warning
	// dialectSource is the document dialect conversions start from when
	// Parse had to read it differently from its author's bytes (see
	// readRealWorld); nil means the author's bytes.
	dialectSource []byte
	// assertFormats is ParseOptions.AssertFormat, when some subschema
	// names a format this package knows.
	assertFormats bool
	// unevaluated: some subschema has unevaluatedItems or
	// unevaluatedProperties, so the diagnostic pass must record which
	// items and properties each subschema evaluated.
	unevaluated bool
	// fast is the fast path, built on first use by fastProgram; nil when
	// the document has none.
	fastOnce sync.Once
	fast     *fastProgram
	// decodeRuns keeps the decodeRuns of Schema.Decode, whose stacks a
	// long array would otherwise grow again on every call.
	decodeRuns sync.Pool
	// dynamic reports that some subschema has a $dynamicRef to an anchor,
	// whose target depends on the path by which it is reached (one to a
	// pointer resolves like $ref).
	dynamic bool
}

// prepare decodes, normalises and checks one schema document, returning the
// normalised tree and whether normalising changed its meaning's form (a
// draft-04 document rewritten). docURI is "" for the document being parsed.
// A $schema naming a custom meta-schema is looked up through loader (see
// customDialect).
func prepare(data []byte, docURI string, loader Loader) (tree *jsontree.Node, d draft, warnings []Warning, rewritten bool, err error) {
	if len(data) > maxSchemaBytes {
		return nil, 0, nil, false, &InvalidSchemaError{Path: "$", Reason: fmt.Sprintf("schema is %d bytes, more than the limit of %d", len(data), maxSchemaBytes), Err: ErrLimit}
	}
	tree, err = decodeTree(data, schematree.MaxDepth)
	if err != nil {
		return nil, 0, nil, false, err
	}
	d, dl, ierr := detectDraft(tree)
	if ierr != nil {
		sv := tree.Get("$schema")
		meta, ok := customDialect(sv.Text, loader)
		if !ok {
			return nil, 0, nil, false, ierr
		}
		dl = meta
		d = draft2020
		if dl != dialect2020 {
			d = draft7
		}
		warnings = append(warnings, Warning{Path: "$", Keyword: "$schema",
			Message: "$schema names the custom meta-schema " + quote(sv.Text, 80) + ", written in " + d.String() +
				": the schema is read under " + d.String() + " rules, and the meta-schema's own keywords and $vocabulary are not applied"})
	}
	if dl == dialect4 {
		rewriteDraft4(tree)
		rewritten = true
	}
	if tree.Kind == jsontree.Object {
		switch {
		case d == draft7:
			tree.Set("$schema", &jsontree.Node{Kind: jsontree.String, Text: draft7URI})
		case dl != dialectNone:
			tree.Set("$schema", &jsontree.Node{Kind: jsontree.String, Text: draft2020URI})
		}
		if dl == dialectNone || dl == dialect2019 {
			if _, mixed := formsDraft(tree); mixed {
				warnings = append(warnings, Warning{Path: "$", Keyword: "$schema",
					Message: "the schema mixes draft-07 forms (array items, additionalItems, dependencies) with draft 2020-12 keywords; it is read as draft 2020-12 and the draft-07 forms are ignored"})
			}
		}
	}
	ierr, lint := checkDocument(tree, d)
	if ierr != nil {
		return nil, 0, nil, false, ierr
	}
	warnings = append(warnings, lint...)
	if docURI != "" {
		for i := range warnings {
			warnings[i].Path = docURI + "#" + warnings[i].Path
		}
	}
	return tree, d, warnings, rewritten, nil
}

// unmarshalTree turns a normalised tree into a jsonschema.Schema.
func unmarshalTree(tree *jsontree.Node) (*jsonschema.Schema, []byte, error) {
	dropCaseVariants(tree)
	norm := tree.AppendJSON(nil)
	var s jsonschema.Schema
	if err := json.Unmarshal(norm, &s); err != nil {
		return nil, nil, &InvalidSchemaError{Path: "$", Reason: err.Error(), Err: err}
	}
	return &s, norm, nil
}

// dropCaseVariants removes from each schema object of tree the members
// whose key is a keyword spelt in another case ("TYPE", "anyof"). JSON
// Schema's keywords are case-sensitive: such a member is no keyword, and
// Parse warns that it is ignored. But encoding/json, decoding the document
// into jsonschema-go's Schema, matches names to fields ignoring case, and
// would apply it. A member spelt exactly is kept.
func dropCaseVariants(tree *jsontree.Node) {
	schematree.Visit(tree, func(n *jsontree.Node) {
		if n.Kind != jsontree.Object {
			return
		}
		for i := 0; i < len(n.Keys); i++ {
			if k := n.Keys[i]; !decodedKeywords[k] && foldsToKeyword(k) {
				n.Del(k)
				i--
			}
		}
	})
}

// decodedKeywords are the member names jsonschema-go's Schema decodes into
// its fields; built once from its type, never modified.
var decodedKeywords = func() map[string]bool {
	out := map[string]bool{"type": true, "items": true, "dependencies": true}
	t := reflect.TypeFor[jsonschema.Schema]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out[name] = true
		}
	}
	return out
}()

// foldsToKeyword reports whether k equals a keyword jsonschema-go decodes
// but for case, as encoding/json compares names.
func foldsToKeyword(k string) bool {
	for kw := range decodedKeywords {
		if strings.EqualFold(k, kw) {
			return true
		}
	}
	return false
}

// compileDocument builds the compiled form of the root document.
func compileDocument(data []byte, loader Loader) (*compiled, error) {
	tree, d, warnings, rewritten, err := prepare(data, "", loader)
	if err != nil {
		return nil, err
	}
	var dialectSource []byte
	if read := readRealWorld(tree, d); len(read) > 0 || rewritten {
		warnings = append(warnings, read...)
		dialectSource = tree.AppendJSON(nil)
	}
	root, _, err := unmarshalTree(tree)
	if err != nil {
		return nil, err
	}
	c := &compiled{
		draft:    d,
		root:     root,
		infos:    map[*jsonschema.Schema]*sinfo{},
		uris:     map[string]*jsonschema.Schema{},
		docs:     map[string][]byte{},
		loader:   loader,
		warnings: warnings,

		dialectSource: dialectSource,
	}
	if err := c.addDocument(root, tree, "", &url.URL{}); err != nil {
		return nil, err
	}
	if err := c.checkCycles(); err != nil {
		return nil, err
	}
	c.unevaluated = slices.ContainsFunc(c.order, func(s *jsonschema.Schema) bool {
		return s.UnevaluatedItems != nil || s.UnevaluatedProperties != nil
	})
	return c, nil
}

// addDocument registers the subschemas of one document, resolves their
// identifiers, then their references (loading remote documents as needed).
func (c *compiled) addDocument(root *jsonschema.Schema, tree *jsontree.Node, docURI string, base *url.URL) error {
	var all []*jsonschema.Schema
	var walk func(s *jsonschema.Schema, src *jsontree.Node, loc jsonpath.Path)
	walk = func(s *jsonschema.Schema, src *jsontree.Node, loc jsonpath.Path) {
		in := &sinfo{doc: docURI, loc: loc, pointer: schemaPointer(docURI, loc), src: src, isFalse: src != nil && src.Kind == jsontree.Bool && !src.Bool}
		c.infos[s] = in
		c.order = append(c.order, s)
		all = append(all, s)
		if s.Pattern != "" {
			in.pattern, _ = regexp.Compile(s.Pattern) // checked by checkDocument
		}
		if src != nil {
			if pp := src.Get("patternProperties"); pp != nil {
				for _, k := range pp.Keys {
					if ps, ok := s.PatternProperties[k]; ok {
						re, _ := regexp.Compile(k)
						in.patterns = append(in.patterns, patternProp{key: k, re: re, s: ps})
					}
				}
			}
			if p := src.Get("properties"); p != nil {
				in.propOrder = append([]string(nil), p.Keys...)
			}
		}
		eachChild(s, src, func(child *jsonschema.Schema, csrc *jsontree.Node, steps ...jsonpath.Step) {
			cl := make(jsonpath.Path, len(loc), len(loc)+len(steps))
			copy(cl, loc)
			walk(child, csrc, append(cl, steps...))
		})
	}
	walk(root, tree, nil)
	if err := c.resolveIDs(root, base); err != nil {
		return err
	}
	for _, s := range all {
		if err := c.resolveRefs(s); err != nil {
			return err
		}
	}
	return nil
}

// eachChild calls fn for every direct subschema of s with the steps from s
// to it and its source node (nil when unknown).
func eachChild(s *jsonschema.Schema, src *jsontree.Node, fn func(*jsonschema.Schema, *jsontree.Node, ...jsonpath.Step)) {
	key := func(k string) jsonpath.Step { return jsonpath.Key(k) }
	one := func(kw string, c *jsonschema.Schema) {
		if c != nil {
			fn(c, src.Get(kw), key(kw))
		}
	}
	list := func(kw string, cs []*jsonschema.Schema) {
		ls := src.Get(kw)
		for i, c := range cs {
			var cs *jsontree.Node
			if ls != nil && ls.Kind == jsontree.Array && i < len(ls.Items) {
				cs = ls.Items[i]
			}
			fn(c, cs, key(kw), jsonpath.Index(i))
		}
	}
	mapping := func(kw string, m map[string]*jsonschema.Schema) {
		ms := src.Get(kw)
		if ms == nil {
			for k, c := range m {
				fn(c, nil, key(kw), key(k))
			}
			return
		}
		for _, k := range ms.Keys {
			if c, ok := m[k]; ok {
				fn(c, ms.Get(k), key(kw), key(k))
			}
		}
	}
	mapping("$defs", s.Defs)
	mapping("definitions", s.Definitions)
	mapping("properties", s.Properties)
	mapping("patternProperties", s.PatternProperties)
	mapping("dependentSchemas", s.DependentSchemas)
	mapping("dependencies", s.DependencySchemas)
	one("additionalProperties", s.AdditionalProperties)
	one("propertyNames", s.PropertyNames)
	one("unevaluatedProperties", s.UnevaluatedProperties)
	list("prefixItems", s.PrefixItems)
	one("items", s.Items)
	list("items", s.ItemsArray)
	one("additionalItems", s.AdditionalItems)
	one("contains", s.Contains)
	one("unevaluatedItems", s.UnevaluatedItems)
	list("allOf", s.AllOf)
	list("anyOf", s.AnyOf)
	list("oneOf", s.OneOf)
	one("not", s.Not)
	one("if", s.If)
	one("then", s.Then)
	one("else", s.Else)
	one("contentSchema", s.ContentSchema)
}

// resolveIDs assigns base URIs and anchors, as jsonschema-go does.
func (c *compiled) resolveIDs(root *jsonschema.Schema, base *url.URL) error {
	setAnchor := func(bi *sinfo, name string, s *jsonschema.Schema, dynamic bool) error {
		if name == "" {
			return nil
		}
		if _, dup := bi.anchors[name]; dup {
			return c.errAt(s, fmt.Sprintf("duplicate anchor %s", quote(name, 60)), nil)
		}
		if bi.anchors == nil {
			bi.anchors = map[string]anchor{}
		}
		bi.anchors[name] = anchor{s: s, dynamic: dynamic}
		return nil
	}
	var walk func(s, b *jsonschema.Schema) error
	walk = func(s, b *jsonschema.Schema) error {
		in := c.infos[s]
		bi := c.infos[b]
		if s.ID != "" && !(c.draft == draft7 && s.Ref != "") {
			id, err := url.Parse(s.ID)
			if err != nil {
				return c.errAt(s, "$id "+quote(s.ID, 80)+" is not a URI reference", err)
			}
			switch {
			case c.draft == draft2020 && id.Fragment != "":
				return c.errAt(s, "$id "+quote(s.ID, 80)+" must not have a fragment; use $anchor", nil)
			case c.draft == draft7 && id.Fragment != "":
				// Like jsonschema-go, the first of duplicate draft-07
				// anchors wins.
				_ = setAnchor(bi, strings.TrimPrefix(s.ID, "#"), s, false)
			default:
				in.uri = bi.uri.ResolveReference(id)
				if !in.uri.IsAbs() {
					return c.errAt(s, "$id "+quote(s.ID, 80)+" does not resolve to an absolute URI", nil)
				}
				c.uris[in.uri.String()] = s
				b, bi = s, in
			}
		}
		in.base = b
		if c.draft == draft2020 {
			if err := setAnchor(bi, s.Anchor, s, false); err != nil {
				return err
			}
			if err := setAnchor(bi, s.DynamicAnchor, s, true); err != nil {
				return err
			}
		}
		var err error
		eachChild(s, nil, func(child *jsonschema.Schema, _ *jsontree.Node, _ ...jsonpath.Step) {
			if err == nil {
				err = walk(child, b)
			}
		})
		return err
	}
	c.infos[root].uri = base
	c.uris[base.String()] = root
	return walk(root, root)
}

// resolveRefs resolves the $ref and $dynamicRef of s.
func (c *compiled) resolveRefs(s *jsonschema.Schema) error {
	in := c.infos[s]
	if s.Ref != "" {
		target, _, err := c.resolveRef(s, s.Ref, "$ref")
		if err != nil {
			return err
		}
		in.ref = target
	}
	if s.DynamicRef != "" {
		target, frag, err := c.resolveRef(s, s.DynamicRef, "$dynamicRef")
		if err != nil {
			return err
		}
		if frag != "" {
			in.dynAnchor = frag
			c.dynamic = true // its target depends on the path taken
		} else {
			in.dynRef = target
		}
	}
	return nil
}

func (c *compiled) resolveRef(s *jsonschema.Schema, ref, kw string) (*jsonschema.Schema, string, error) {
	at := func(reason string, err error) error {
		e := c.errAt(s, reason, err)
		e.(*InvalidSchemaError).Path += "." + kw
		return e
	}
	refURI, err := url.Parse(ref)
	if err != nil {
		return nil, "", at(kw+" "+quote(ref, 80)+" is not a URI reference", err)
	}
	base := c.infos[c.infos[s].base]
	refURI = base.uri.ResolveReference(refURI)
	u := *refURI
	u.Fragment = ""
	docKey := u.String()
	target := c.uris[docKey]
	if target == nil {
		target, err = c.load(docKey)
		if err != nil {
			return nil, "", at(kw+" "+quote(ref, 80)+" cannot be resolved: "+strings.TrimPrefix(err.Error(), ErrRemoteRef.Error()+": "), err)
		}
	}
	frag := refURI.Fragment
	if frag != "" && !strings.HasPrefix(frag, "/") {
		a, ok := c.infos[target].anchors[frag]
		if !ok {
			return nil, "", at(kw+" "+quote(ref, 80)+" points nowhere: no anchor "+quote(frag, 60), nil)
		}
		if a.dynamic {
			return a.s, frag, nil
		}
		return a.s, "", nil
	}
	t, reason := c.dereference(target, frag)
	if t == nil {
		return nil, "", at(kw+" "+quote(ref, 80)+" points nowhere: "+reason, nil)
	}
	return t, "", nil
}

// dereference follows a JSON Pointer from s through schema keywords, as
// jsonschema-go does: every step must land on a subschema or a container
// of subschemas.
func (c *compiled) dereference(s *jsonschema.Schema, ptr string) (*jsonschema.Schema, string) {
	if ptr == "" {
		return s, ""
	}
	toks := strings.Split(ptr[1:], "/")
	for i := range toks {
		toks[i] = jsonpath.UnescapeToken(toks[i]) // url.Parse has decoded the %-escapes
	}
	for len(toks) > 0 {
		var next *jsonschema.Schema
		n := 0
		eachChild(s, nil, func(child *jsonschema.Schema, _ *jsontree.Node, steps ...jsonpath.Step) {
			if next != nil || len(steps) > len(toks) {
				return
			}
			for j, st := range steps {
				isKey := st.Kind == jsonpath.KindKey
				if isKey && st.Key != toks[j] || !isKey && strconv.Itoa(st.Index) != toks[j] {
					return
				}
			}
			next, n = child, len(steps)
		})
		if next == nil {
			return nil, "nothing at " + quote(ptr, 80)
		}
		s, toks = next, toks[n:]
	}
	return s, ""
}

// load returns the root of the remote document at uri, loading and
// compiling it on first use.
func (c *compiled) load(uri string) (*jsonschema.Schema, error) {
	if len(c.docs) >= maxDocuments {
		return nil, fmt.Errorf("%w: more than %d documents referenced", ErrLimit, maxDocuments)
	}
	data, err := c.document(uri)
	if err != nil {
		return nil, err
	}
	tree, d, warnings, _, err := prepare(data, uri, c.loader)
	if err == nil {
		for _, w := range hoistRefTargets(tree, d) {
			w.Path = uri + "#" + w.Path
			warnings = append(warnings, w)
		}
	}
	if err != nil {
		var ie *InvalidSchemaError
		if errors.As(err, &ie) {
			return nil, fmt.Errorf("%w: %s at %s: %s", ErrRemoteRef, quote(uri, 80), ie.Path, ie.Reason)
		}
		return nil, err
	}
	if tree.Kind == jsontree.Object && tree.Get("$schema") == nil && c.draft == draft7 {
		tree.Set("$schema", &jsontree.Node{Kind: jsontree.String, Text: draft7URI})
	}
	s, norm, err := unmarshalTree(tree)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrRemoteRef, quote(uri, 80), err)
	}
	c.docs[uri] = norm
	c.warnings = append(c.warnings, warnings...)
	u, _ := url.Parse(uri)
	if err := c.addDocument(s, tree, uri, u); err != nil {
		return nil, err
	}
	return s, nil
}

// document returns the document at uri: a built-in meta-schema, else what
// the loader returns.
func (c *compiled) document(uri string) ([]byte, error) {
	return loadDocument(c.loader, uri)
}

// loadDocument returns the document at uri: a built-in meta-schema, else
// what loader returns.
func loadDocument(loader Loader, uri string) ([]byte, error) {
	if data, ok := builtinDocument(uri); ok {
		return data, nil
	}
	if loader == nil {
		return nil, fmt.Errorf("%w: no loader configured, so %s is not fetched (see ParseOptions.Loader)", ErrRemoteRef, quote(uri, 80))
	}
	data, err := loader(uri)
	if err != nil {
		return nil, fmt.Errorf("%w: loading %s: %w", ErrRemoteRef, quote(uri, 80), err)
	}
	return data, nil
}

// customDialect reads the meta-schema a root $schema names when it is not
// one of the known drafts: a document the loader (or the built-in
// meta-schemas) supplies, whose own $schema is a known draft. It follows
// one level only, and reports false when the meta-schema cannot be had or
// is not written in a known draft.
func customDialect(uri string, loader Loader) (dialect, bool) {
	u, err := url.Parse(uri)
	if err != nil || !u.IsAbs() {
		return dialectNone, false
	}
	u.Fragment = ""
	data, err := loadDocument(loader, u.String())
	if err != nil {
		return dialectNone, false
	}
	tree, err := decodeTree(data, schematree.MaxDepth)
	if err != nil || tree.Kind != jsontree.Object {
		return dialectNone, false
	}
	sv := tree.Get("$schema")
	if sv == nil || sv.Kind != jsontree.String {
		return dialectNone, false
	}
	dl, ok := parseDialect(sv.Text)
	if !ok || dl == dialect2019 {
		return dialectNone, false
	}
	return dl, true
}

// maxDocuments bounds how many remote documents one schema may pull in.
const maxDocuments = 64

// errAt returns an *InvalidSchemaError located at s.
func (c *compiled) errAt(s *jsonschema.Schema, reason string, err error) error {
	in := c.infos[s]
	p := jsonpath.Format(in.loc)
	if in.doc != "" {
		p = in.doc + "#" + p
	}
	if err == nil {
		err = errors.New(reason)
	}
	return &InvalidSchemaError{Path: p, Reason: reason, Err: err}
}

// checkCycles refuses schemas whose references and in-place applicators
// form a loop that does not descend into the instance: jsonschema-go would
// recurse without end on them.
func (c *compiled) checkCycles() error {
	const (
		white = iota
		grey
		black
	)
	color := map[*jsonschema.Schema]int{}
	dynamic := map[string][]*jsonschema.Schema{}
	for _, s := range c.order {
		if s.DynamicAnchor != "" {
			dynamic[s.DynamicAnchor] = append(dynamic[s.DynamicAnchor], s)
		}
	}
	var visit func(s *jsonschema.Schema) error
	visit = func(s *jsonschema.Schema) error {
		switch color[s] {
		case grey:
			return c.errAt(s, "references loop back to this schema without descending into the value", ErrRefCycle)
		case black:
			return nil
		}
		color[s] = grey
		var err error
		c.inPlace(s, true, dynamic, func(t *jsonschema.Schema) bool {
			err = visit(t)
			return err == nil
		})
		if err != nil {
			return err
		}
		color[s] = black
		return nil
	}
	for _, s := range c.order {
		if err := visit(s); err != nil {
			return err
		}
	}
	return nil
}

// applicationBound returns how deeply subschema applications may nest in a
// check of a value nesting maxDepth levels: at one level of the value, a
// chain of applications meets each subschema at most once (compile refuses
// cycles that do not descend into the value), so as many as the document
// has, and one to descend; maxDiagnoseDepth beside them; at most
// maxApplications in all.
func (c *compiled) applicationBound(maxDepth int) int {
	perLevel := len(c.order) + 1
	if maxDepth >= (maxApplications-maxDiagnoseDepth)/perLevel {
		return maxApplications
	}
	return maxDiagnoseDepth + perLevel*maxDepth
}
