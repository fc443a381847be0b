package schema

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/agentio/agentio/internal/suggest"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/internal/jsontree"
	"github.com/agentio/agentio/internal/schematree"
)

// A Warning is a lint finding in a schema that compiled: a keyword the
// validator does not know (often a typo such as "minLenght"), one the
// schema's draft ignores, a key written twice, a required property that
// additionalProperties false forbids. Warnings never stop a schema from
// compiling.
type Warning struct {
	// Path locates the keyword in the schema, JSONPath style
	// ("$.properties.name.minLenght").
	Path string `json:"path"`
	// Keyword is the keyword concerned.
	Keyword string `json:"keyword"`
	// Message says what is wrong and, for a likely typo, what was meant.
	Message string `json:"message"`
}

// String returns "<path>: <message>".
func (w Warning) String() string { return w.Path + ": " + w.Message }

// draft7Only and draft2020Only are keywords one draft ignores.
var (
	draft7Only    = map[string]string{"additionalItems": "items (after prefixItems)", "dependencies": "dependentRequired or dependentSchemas"}
	draft2020Only = map[string]string{"prefixItems": "array-form items", "dependentRequired": "dependencies", "dependentSchemas": "dependencies"}
)

// valueKeywords maps the other validation keywords to their value check.
var valueKeywords = map[string]func(*jsontree.Node) string{
	"$id": checkString, "$schema": checkString, "$ref": checkString, "$dynamicRef": checkString,
	"$anchor": checkAnchor, "$dynamicAnchor": checkAnchor,
	"type": checkType, "enum": checkArray, "const": func(*jsontree.Node) string { return "" },
	"required":          checkStringSet,
	"dependentRequired": checkDependentRequired,
	"minLength":         checkCount, "maxLength": checkCount, "minItems": checkCount, "maxItems": checkCount,
	"minProperties": checkCount, "maxProperties": checkCount, "minContains": checkCount, "maxContains": checkCount,
	"minimum": checkNumber, "maximum": checkNumber, "exclusiveMinimum": checkNumber, "exclusiveMaximum": checkNumber,
	"multipleOf":  checkMultipleOf,
	"pattern":     checkPattern,
	"uniqueItems": checkBool,
}

var simpleTypes = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// checker checks a schema document against its draft's meta-schema rules
// and collects lint warnings. It stops at the first error.
type checker struct {
	draft    draft
	path     jsonpath.Path
	err      *InvalidSchemaError
	warnings []Warning
}

func (c *checker) fail(reason string) {
	if c.err == nil {
		c.err = &InvalidSchemaError{Path: jsonpath.Format(c.path), Reason: reason}
	}
}

func (c *checker) warn(keyword, msg string) {
	c.warnings = append(c.warnings, Warning{Path: jsonpath.Format(c.path), Keyword: keyword, Message: msg})
}

// checkDocument checks root, a whole schema document, compiled under d.
func checkDocument(root *jsontree.Node, d draft) (*InvalidSchemaError, []Warning) {
	c := &checker{draft: d}
	c.schema(root)
	return c.err, c.warnings
}

func (c *checker) schema(n *jsontree.Node) {
	if c.err != nil {
		return
	}
	if n.Kind == jsontree.Bool {
		return
	}
	if n.Kind != jsontree.Object {
		c.fail("a schema must be an object or a boolean, not " + describeNode(n))
		return
	}
	c.duplicates(n)
	for i, k := range n.Keys {
		if c.err != nil {
			return
		}
		v := n.Values[i]
		c.path = append(c.path, jsonpath.Key(k))
		c.keyword(n, k, v)
		c.path = c.path[:len(c.path)-1]
	}
	c.unsatisfiable(n)
}

// duplicates warns about member names an object repeats.
func (c *checker) duplicates(n *jsontree.Node) {
	for _, k := range n.Dups {
		c.path = append(c.path, jsonpath.Key(k))
		c.warn(k, quote(k, 60)+" appears more than once; only the last one counts")
		c.path = c.path[:len(c.path)-1]
	}
}

// unsatisfiable warns about required properties that additionalProperties
// false forbids: no object can then be valid.
func (c *checker) unsatisfiable(n *jsontree.Node) {
	ap, req := n.Get("additionalProperties"), n.Get("required")
	if ap == nil || ap.Kind != jsontree.Bool || ap.Bool || req == nil || req.Kind != jsontree.Array || n.Get("patternProperties") != nil {
		return
	}
	props := n.Get("properties")
	c.path = append(c.path, jsonpath.Key("required"))
	for _, r := range req.Items {
		if r.Kind == jsontree.String && props.Get(r.Text) == nil {
			c.warn("required", quote(r.Text, 60)+" is required but not declared in properties, and additionalProperties is false: no object can be valid")
		}
	}
	c.path = c.path[:len(c.path)-1]
}

func (c *checker) keyword(parent *jsontree.Node, k string, v *jsontree.Node) {
	if c.draft == draft7 && parent.Get("$ref") != nil && ignoredBesideRef(k) {
		c.warn(k, k+" is ignored beside $ref under draft-07; wrap both in allOf to apply them")
	}
	if shape := schematree.ShapeOf(k); shape != 0 {
		c.subschemas(k, shape, v)
		return
	}
	if check, ok := valueKeywords[k]; ok {
		if reason := check(v); reason != "" {
			c.fail(k + " " + reason)
		}
		return
	}
	if schematree.IsAnnotation(k) {
		if (k == "title" || k == "description" || k == "$comment" || k == "format") && v.Kind != jsontree.String {
			c.fail(k + " must be a string, not " + describeNode(v))
		}
		if k == "examples" && v.Kind != jsontree.Array {
			c.fail("examples must be an array, not " + describeNode(v))
		}
		return
	}
	if strings.HasPrefix(k, "x-") {
		return // a vendor extension
	}
	msg := "unknown keyword " + quote(k, 60) + " is ignored"
	if s := suggestKeyword(k); s != "" {
		msg += " (did you mean " + quote(s, 60) + "?)"
	}
	c.warn(k, msg)
}

func (c *checker) subschemas(k string, shape schematree.Shape, v *jsontree.Node) {
	if c.draft == draft2020 {
		if alt, ok := draft7Only[k]; ok {
			c.warn(k, k+" is a draft-07 keyword and is ignored under draft 2020-12; use "+alt)
		}
	} else if alt, ok := draft2020Only[k]; ok {
		c.warn(k, k+" is a draft 2020-12 keyword and is ignored under draft-07; use "+alt)
	}
	switch shape {
	case schematree.Schema:
		c.schema(v)
	case schematree.Items:
		if v.Kind == jsontree.Array {
			if c.draft == draft2020 {
				c.fail("items must be a schema under draft 2020-12; for a tuple use prefixItems")
				return
			}
			c.list(k, v)
			return
		}
		c.schema(v)
	case schematree.List:
		if v.Kind != jsontree.Array {
			c.fail(k + " must be an array of schemas, not " + describeNode(v))
			return
		}
		if len(v.Items) == 0 && k != "prefixItems" {
			c.fail(k + " must not be empty")
			return
		}
		c.list(k, v)
	case schematree.Map, schematree.Dependencies:
		if v.Kind != jsontree.Object {
			c.fail(k + " must be an object, not " + describeNode(v))
			return
		}
		c.duplicates(v)
		for i, name := range v.Keys {
			e := v.Values[i]
			c.path = append(c.path, jsonpath.Key(name))
			switch {
			case k == "patternProperties":
				if _, err := regexp.Compile(name); err != nil {
					c.fail("patternProperties key " + quote(name, 60) + " is not a regular expression Go supports: " + regexpReason(err))
				}
				c.schema(e)
			case shape == schematree.Dependencies && e.Kind == jsontree.Array:
				if r := checkStringSet(e); r != "" {
					c.fail("dependencies " + r)
				}
			default:
				c.schema(e)
			}
			c.path = c.path[:len(c.path)-1]
			if c.err != nil {
				return
			}
		}
	}
}

func (c *checker) list(k string, v *jsontree.Node) {
	for i, e := range v.Items {
		c.path = append(c.path, jsonpath.Index(i))
		c.schema(e)
		c.path = c.path[:len(c.path)-1]
		if c.err != nil {
			return
		}
	}
}

// ignoredBesideRef reports whether draft-07 ignores keyword k beside $ref
// in a way that changes validation.
func ignoredBesideRef(k string) bool {
	switch k {
	case "$ref", "$id", "$schema", "$defs", "definitions", "$comment":
		return false
	}
	return !schematree.IsAnnotation(k)
}

func checkString(n *jsontree.Node) string {
	if n.Kind != jsontree.String {
		return "must be a string, not " + describeNode(n)
	}
	return ""
}

var anchorRE = regexp.MustCompile(`^[A-Za-z_][-A-Za-z0-9._]*$`)

func checkAnchor(n *jsontree.Node) string {
	if r := checkString(n); r != "" {
		return r
	}
	if !anchorRE.MatchString(n.Text) {
		return "must be a plain name (a letter or '_' followed by letters, digits, '-', '_' or '.'), not " + quote(n.Text, 60)
	}
	return ""
}

func checkBool(n *jsontree.Node) string {
	if n.Kind != jsontree.Bool {
		return "must be a boolean, not " + describeNode(n)
	}
	return ""
}

func checkArray(n *jsontree.Node) string {
	if n.Kind != jsontree.Array {
		return "must be an array, not " + describeNode(n)
	}
	return ""
}

func checkType(n *jsontree.Node) string {
	one := func(e *jsontree.Node) string {
		if e.Kind != jsontree.String {
			return "must be a type name or an array of them, not " + describeNode(e)
		}
		if !slices.Contains(simpleTypes, e.Text) {
			msg := quote(e.Text, 40) + " is not a JSON Schema type (one of " + strings.Join(simpleTypes, ", ") + ")"
			if s := suggest.Closest(e.Text, simpleTypes); s != "" {
				msg += "; did you mean " + quote(s, 40) + "?"
			}
			return "value " + msg
		}
		return ""
	}
	if n.Kind != jsontree.Array {
		return one(n)
	}
	if len(n.Items) == 0 {
		return "must not be an empty array"
	}
	return checkDistinct(n.Items, one)
}

func checkStringSet(n *jsontree.Node) string {
	if n.Kind != jsontree.Array {
		return "must be an array of strings, not " + describeNode(n)
	}
	return checkDistinct(n.Items, func(e *jsontree.Node) string {
		if e.Kind != jsontree.String {
			return "must be an array of strings, but holds " + describeNode(e)
		}
		return ""
	})
}

// checkDistinct checks the items of an array of strings: the reason of the
// first that each rejects, else the first string listed twice, else "".
func checkDistinct(items []*jsontree.Node, each func(*jsontree.Node) string) string {
	seen := map[string]bool{}
	for _, e := range items {
		if r := each(e); r != "" {
			return r
		}
		if seen[e.Text] {
			return "lists " + quote(e.Text, 60) + " twice"
		}
		seen[e.Text] = true
	}
	return ""
}

func checkDependentRequired(n *jsontree.Node) string {
	if n.Kind != jsontree.Object {
		return "must be an object of string arrays, not " + describeNode(n)
	}
	for i, e := range n.Values {
		if r := checkStringSet(e); r != "" {
			return "[" + quote(n.Keys[i], 60) + "] " + r
		}
	}
	return ""
}

func checkNumber(n *jsontree.Node) string {
	if n.Kind != jsontree.Number {
		return "must be a number, not " + describeNode(n)
	}
	if _, err := strconv.ParseFloat(n.Text, 64); err != nil {
		return "is out of range: " + n.Text
	}
	return ""
}

func checkMultipleOf(n *jsontree.Node) string {
	if r := checkNumber(n); r != "" {
		return r
	}
	if f, _ := strconv.ParseFloat(n.Text, 64); f <= 0 {
		return "must be greater than 0, not " + n.Text
	}
	return ""
}

// checkCount accepts a non-negative integer that jsonschema-go can hold
// (at most 2^31-1); 2.0 counts as an integer.
func checkCount(n *jsontree.Node) string {
	if n.Kind != jsontree.Number {
		return "must be a non-negative integer, not " + describeNode(n)
	}
	f, err := strconv.ParseFloat(n.Text, 64)
	if err != nil || f != math.Trunc(f) {
		return "must be a non-negative integer, not " + n.Text
	}
	if f < 0 {
		return "must be a non-negative integer, not " + n.Text
	}
	if f > math.MaxInt32 {
		return fmt.Sprintf("is too large: %s (at most %d)", n.Text, math.MaxInt32)
	}
	return ""
}

func checkPattern(n *jsontree.Node) string {
	if r := checkString(n); r != "" {
		return r
	}
	if _, err := regexp.Compile(n.Text); err != nil {
		return quote(n.Text, 60) + " is not a regular expression Go supports: " + regexpReason(err)
	}
	return ""
}

// regexpReason shortens a regexp compile error to its cause.
func regexpReason(err error) string {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "error parsing regexp: ")
	return msg
}

// describeNode names a JSON value's kind, with the value when short.
func describeNode(n *jsontree.Node) string {
	switch n.Kind {
	case jsontree.String:
		return "string " + quote(n.Text, 40)
	case jsontree.Number:
		return "number " + n.Text
	case jsontree.Bool:
		return "boolean " + strconv.FormatBool(n.Bool)
	case jsontree.Null:
		return "null"
	}
	return n.KindName()
}

// knownKeywords lists every keyword the checker knows, sorted, for
// suggestions. It is built once and never modified.
var knownKeywords = func() []string {
	out := slices.Clone(schematree.Keywords())
	for k := range valueKeywords {
		out = append(out, k)
	}
	out = append(out, schematree.Annotations()...)
	slices.Sort(out)
	return out
}()

// suggestKeyword returns the known keyword closest to k, if one is close.
func suggestKeyword(k string) string {
	return suggest.Closest(k, knownKeywords)
}
