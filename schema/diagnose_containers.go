package schema

import (
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentio/agentio/internal/jsonpath"
)

// This file holds the diagnostic pass's keywords of arrays and objects:
// the items and members it descends into, and the counts, names and
// dependencies it checks (see diagnosis).

// array appends to out every way arr violates the array keywords of s,
// descending into its items, and notes in anns the items s evaluated.
func (d *diagnosis) array(arr []any, s *jsonschema.Schema, at *jsonpath.Chain, out *[]finding, anns *annotations) {
	// The leading items have a schema each (draft-07: an "items" array;
	// 2020-12: "prefixItems"); the rest share one ("additionalItems" after
	// a draft-07 "items" array, else "items").
	prefix, rest, restKw := s.PrefixItems, s.Items, "items"
	if d.c.draft == draft7 {
		prefix = s.ItemsArray
		if prefix != nil {
			rest, restKw = s.AdditionalItems, "additionalItems"
		}
	}
	n := d.node(s)
	for i := range prefix {
		if i >= len(arr) {
			break
		}
		d.item(arr[i], n.prefix[i], at, "", i, out)
	}
	anns.endIndex = max(anns.endIndex, min(len(prefix), len(arr)))
	if rest != nil {
		anns.allItems = true
		from := len(prefix)
		switch {
		case from >= len(arr): // no item beyond the prefix
		case d.isFalse(rest):
			d.add(out, at.Index(from), s, restKw, "unexpected item: the array may have at most "+plural(from, "item"))
		default:
			for i := from; i < len(arr); i++ {
				d.item(arr[i], n.rest, at, "", i, out)
			}
		}
	}
	nContains := 0
	if s.Contains != nil {
		for i, e := range arr {
			if _, ok, _ := d.ok(e, s.Contains, at.Index(i), nil); ok {
				nContains++
				if d.c.unevaluated {
					anns.noteIndex(i)
				}
			}
		}
		f := n.containsFailures(nContains)
		if f&failContains != 0 {
			d.add(out, at, s, "contains", "the array must contain an item that matches "+d.describe(s.Contains))
		}
		if f&failMinContains != 0 {
			d.add(out, at, s, "minContains", "the array has "+plural(nContains, "item")+" matching "+d.describe(s.Contains)+", fewer than the minimum of "+strconv.Itoa(*s.MinContains))
		}
		if f&failMaxContains != 0 {
			d.add(out, at, s, "maxContains", "the array has "+plural(nContains, "item")+" matching "+d.describe(s.Contains)+", more than the maximum of "+strconv.Itoa(*s.MaxContains))
		}
	}
	f := n.itemsFailures(len(arr))
	if f&failMinItems != 0 {
		d.add(out, at, s, "minItems", "the array has "+plural(len(arr), "item")+", fewer than the minimum of "+strconv.Itoa(*s.MinItems))
	}
	if f&failMaxItems != 0 {
		d.add(out, at, s, "maxItems", "the array has "+plural(len(arr), "item")+", more than the maximum of "+strconv.Itoa(*s.MaxItems))
	}
	if s.UniqueItems && len(arr) > 1 {
		repeats(arr, func(i, j int) bool {
			d.add(out, at.Index(i), s, "uniqueItems", "items must be unique, but this item equals item "+strconv.Itoa(j)+": "+repr(arr[i]))
			return true
		})
	}
	if s.UnevaluatedItems != nil && !anns.allItems {
		for i := anns.endIndex; i < len(arr); i++ {
			if anns.indexes[i] {
				continue
			}
			if d.isFalse(s.UnevaluatedItems) {
				d.add(out, at.Index(i), s, "unevaluatedItems", "unexpected item "+repr(arr[i])+": no schema allows an item at this position")
				continue
			}
			d.eval(arr[i], s.UnevaluatedItems, at.Index(i), out, nil)
		}
		anns.allItems = true
	}
}

// object appends to out every way obj violates the object keywords of s
// (whose facts are in), descending into its members, and notes in anns
// the members s evaluated.
func (d *diagnosis) object(obj map[string]any, s *jsonschema.Schema, in *sinfo, at *jsonpath.Chain, out *[]finding, anns *annotations) {
	// The members in sorted order, and which of them a keyword evaluated:
	// only what the keywords present need.
	var keys []string
	if len(in.patterns) > 0 || s.PropertyNames != nil || s.UnevaluatedProperties != nil {
		keys = make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
	}
	var evaluated map[string]bool // without patterns, additionalProperties asks Properties
	if len(in.patterns) > 0 || d.c.unevaluated {
		evaluated = map[string]bool{}
	}
	n := d.node(s)
	for _, i := range n.authorOrder {
		p := &n.props[i]
		val, present := obj[p.name]
		if !present {
			continue
		}
		d.item(val, p.node, at, p.name, -1, out)
		if evaluated != nil {
			evaluated[p.name] = true
		}
	}
	for _, pp := range in.patterns {
		for _, k := range keys {
			if pp.re.MatchString(k) {
				d.eval(obj[k], pp.s, at.Key(k), out, nil)
				evaluated[k] = true
			}
		}
	}
	if ap := s.AdditionalProperties; ap != nil {
		for _, k := range additional(obj, s.Properties, evaluated, len(in.patterns) > 0) {
			if d.isFalse(ap) {
				d.add(out, at.Key(k), s, "additionalProperties", "additional property "+quote(k, maxQuoted)+" is not allowed"+d.allowedHint(s))
			} else {
				d.eval(obj[k], ap, at.Key(k), out, nil)
			}
			if evaluated != nil {
				evaluated[k] = true
			}
		}
	}
	if d.c.unevaluated {
		for k := range evaluated {
			anns.noteProperty(k)
		}
	}
	if s.PropertyNames != nil {
		for _, k := range keys {
			fs, ok, _ := d.ok(k, s.PropertyNames, at.Key(k), nil)
			if ok {
				continue
			}
			for _, f := range fs {
				d.add(out, at.Key(k), s, "propertyNames", "property name "+quote(k, maxQuoted)+" is not allowed: "+f.message)
			}
		}
	}
	f := n.propertiesFailures(len(obj))
	if f&failMinProperties != 0 {
		d.add(out, at, s, "minProperties", "the object has "+plural(len(obj), "property")+", fewer than the minimum of "+strconv.Itoa(*s.MinProperties))
	}
	if f&failMaxProperties != 0 {
		d.add(out, at, s, "maxProperties", "the object has "+plural(len(obj), "property")+", more than the maximum of "+strconv.Itoa(*s.MaxProperties))
	}
	dependentKw := "dependentRequired"
	if d.c.draft == draft7 {
		dependentKw = "dependencies"
	}
	n.missing(func(name string) bool {
		_, ok := obj[name]
		return ok
	}, -1, func(name, because string) bool {
		if because == "" {
			d.add(out, at.Key(name), s, "required", quote(name, maxQuoted)+" is a required property")
		} else {
			d.add(out, at.Key(name), s, dependentKw, quote(name, maxQuoted)+" is required when "+quote(because, maxQuoted)+" is present")
		}
		return true
	})
	for _, dep := range n.dependentSchemas {
		if _, ok := obj[dep.name]; ok {
			d.eval(obj, dep.node.s, at, out, anns)
		}
	}
	if s.UnevaluatedProperties != nil && !anns.allProperties {
		for _, k := range keys {
			if anns.properties[k] {
				continue
			}
			if d.isFalse(s.UnevaluatedProperties) {
				d.add(out, at.Key(k), s, "unevaluatedProperties", "additional property "+quote(k, maxQuoted)+" is not allowed"+d.allowedHint(s))
				continue
			}
			d.eval(obj[k], s.UnevaluatedProperties, at.Key(k), out, nil)
		}
		anns.allProperties = true
	}
}

// allowedHint lists the properties s declares, for a message about one it
// does not.
func (d *diagnosis) allowedHint(s *jsonschema.Schema) string {
	names := d.c.infos[s].propOrder
	if len(names) == 0 || len(names) > maxEnumShown {
		return ""
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quote(n, 40)
	}
	return " (allowed: " + strings.Join(q, ", ") + ")"
}

// additional returns, sorted, the names of obj that additionalProperties
// applies to: neither declared in props nor, when patterns is set, marked
// in evaluated by a pattern.
func additional(obj map[string]any, props map[string]*jsonschema.Schema, evaluated map[string]bool, patterns bool) []string {
	var names []string
	for k := range obj {
		if _, declared := props[k]; declared || patterns && evaluated[k] {
			continue
		}
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
