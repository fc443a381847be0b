package dialect

import (
	"unicode/utf8"

	"github.com/agentio/agentio/internal/jsontree"
	"github.com/agentio/agentio/internal/schematree"
)

// checkLimits blocks on the sizes over OpenAI's documented limits.
func (c *openaiConverter) checkLimits(root *jsontree.Node) {
	var props, enums, chars int
	schematree.Visit(root, func(o *jsontree.Node) {
		if p := o.ObjectMember("properties"); p != nil {
			props += len(p.Keys)
			for _, k := range p.Keys {
				chars += utf8.RuneCountInString(k)
			}
		}
		for _, k := range []string{"$defs", "definitions"} {
			if d := o.ObjectMember(k); d != nil {
				for _, name := range d.Keys {
					chars += utf8.RuneCountInString(name)
				}
			}
		}
		if list, ok := o.ArrayMember("enum"); ok {
			enums += len(list)
			enumChars := 0
			for _, e := range list {
				if e.Kind == jsontree.String {
					enumChars += utf8.RuneCountInString(e.Text)
				}
			}
			chars += enumChars
			if len(list) > openaiLargeEnum && enumChars > openaiLargeEnumChars {
				c.block(nil, "an enum of %d values totals %d characters (at most %d over %d values)",
					len(list), enumChars, openaiLargeEnumChars, openaiLargeEnum)
			}
		}
		if s, ok := o.StringMember("const"); ok {
			chars += utf8.RuneCountInString(s)
		}
	})
	if props > openaiMaxProperties {
		c.block(nil, "%d object properties (at most %d)", props, openaiMaxProperties)
	}
	if enums > openaiMaxEnumValues {
		c.block(nil, "%d enum values (at most %d)", enums, openaiMaxEnumValues)
	}
	if chars > openaiMaxStringChars {
		c.block(nil, "names and enum/const strings total %d characters (at most %d)", chars, openaiMaxStringChars)
	}
	if d := c.depth(root, root, map[*jsontree.Node]bool{}, map[*jsontree.Node]int{}); d > openaiMaxDepth {
		c.block(nil, "objects nested %d levels deep (at most %d)", d, openaiMaxDepth)
	}
}

// depth returns how many object levels v nests, following references;
// a recursive reference adds nothing.
func (c *openaiConverter) depth(root, v *jsontree.Node, onPath map[*jsontree.Node]bool, memo map[*jsontree.Node]int) int {
	o := objectOrNil(v)
	if o == nil {
		return 0
	}
	if ref, ok := o.StringMember("$ref"); ok {
		to := objectOrNil(root.ResolveRef(ref))
		if to == nil || onPath[to] {
			return 0
		}
		return c.depth(root, to, onPath, memo)
	}
	if d, ok := memo[o]; ok {
		return d
	}
	onPath[o] = true
	best := 0
	consider := func(v *jsontree.Node) {
		if d := c.depth(root, v, onPath, memo); d > best {
			best = d
		}
	}
	if p := o.ObjectMember("properties"); p != nil {
		for _, v := range p.Values {
			consider(v)
		}
	}
	consider(o.Get("items"))
	if branches, ok := o.ArrayMember("anyOf"); ok {
		for _, b := range branches {
			consider(b)
		}
	}
	delete(onPath, o)
	if typeIncludes(o, "object") {
		best++
	}
	memo[o] = best
	return best
}
