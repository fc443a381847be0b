package schema

import (
	"math"
	"slices"
	"unicode/utf8"
)

// The rules of the assertion keywords, each written once, over a
// subschema's node (see fastNode): the fast path applies them to a decoded
// value (fast.go), to a document's bytes (fastbytes.go) and to a document
// as it decodes it (fastdecode.go); the diagnostic pass (diagnose.go)
// applies the same rules and says which failed and why. The front ends
// differ only in how they read a value: a rule takes what it needs (a
// type bit, a number, a count, a name test), never the value's form.
//
// A rule that can fail in more than one way returns the set of keywords
// that failed, so the diagnostic pass reports each and the fast path
// needs only to know that the set is empty.

// A failure is a set of keywords a value fails, one bit each.
type failure uint16

const (
	failMultipleOf failure = 1 << iota
	failMinimum
	failMaximum
	failExclusiveMinimum
	failExclusiveMaximum
	failMinLength
	failMaxLength
	failPattern
	failMinItems
	failMaxItems
	failContains // no item matches contains, and minContains does not allow none
	failMinContains
	failMaxContains
	failMinProperties
	failMaxProperties
)

// typeOf returns the type bit of a plain decoded value (a whole number is
// an integer, as jsonschema-go says); ok is false for any other Go value.
func typeOf(v any) (bit uint8, ok bool) {
	switch x := v.(type) {
	case nil:
		return tNull, true
	case bool:
		return tBoolean, true
	case string:
		return tString, true
	case float64:
		return numberType(x), true
	case []any:
		return tArray, true
	case map[string]any:
		return tObject, true
	}
	return 0, false
}

// numberType returns tInteger for a whole number, else tNumber.
func numberType(x float64) uint8 {
	if _, f := math.Modf(x); f == 0 {
		return tInteger
	}
	return tNumber
}

// allows applies "type": whether n admits a value of the type bit. A
// number's bit is tInteger or tNumber (see numberType); "number" admits
// both (build sets tInteger beside it).
func (n *fastNode) allows(bit uint8) bool { return n.types == 0 || n.types&bit != 0 }

// inEnum applies "enum" to a plain value.
func (n *fastNode) inEnum(v any) bool {
	if n.enum == nil {
		return true
	}
	if str, ok := v.(string); ok {
		return enumIndex(n, str) >= 0 // a string equals only a string
	}
	return slices.ContainsFunc(n.enum, func(e any) bool { return equal(e, v) })
}

// enumIndex returns the index in n.enumStrs of a string enum allows, held
// as a string or as the bytes of one, or -1.
func enumIndex[T ~string | ~[]byte](n *fastNode, str T) int {
	if n.enumSet == nil {
		for i, e := range n.enumStrs {
			if e == string(str) {
				return i
			}
		}
		return -1
	}
	if i, ok := n.enumSet[string(str)]; ok {
		return i
	}
	return -1
}

// stringVerdict applies n's own keywords to a string, held as a string or
// as the bytes of one: type, the string keywords, enum and const (a string
// equals only a string).
func stringVerdict[T ~string | ~[]byte](n *fastNode, s T) verdict {
	if !n.allows(tString) || stringFailures(n, s) != 0 {
		return invalid
	}
	if n.enum != nil && enumIndex(n, s) < 0 {
		return invalid
	}
	if n.cnst != nil {
		if c, ok := (*n.cnst).(string); !ok || c != string(s) {
			return invalid
		}
	}
	return valid
}

// isConst applies "const" to a plain value.
func (n *fastNode) isConst(v any) bool { return n.cnst == nil || equal(*n.cnst, v) }

// numberFailures applies the numeric keywords to x as jsonschema-go does:
// bounds compared exactly (two float64 values compare as their rationals
// do), multipleOf by the remainder of a float64 division.
func (n *fastNode) numberFailures(x float64) failure {
	if !n.numeric {
		return 0
	}
	var f failure
	if n.multipleOf != nil {
		if _, frac := math.Modf(x / *n.multipleOf); frac != 0 {
			f |= failMultipleOf
		}
	}
	if n.minimum != nil && x < *n.minimum {
		f |= failMinimum
	}
	if n.maximum != nil && x > *n.maximum {
		f |= failMaximum
	}
	if n.exclusiveMin != nil && x <= *n.exclusiveMin {
		f |= failExclusiveMinimum
	}
	if n.exclusiveMax != nil && x >= *n.exclusiveMax {
		f |= failExclusiveMaximum
	}
	return f
}

// stringFailures applies minLength, maxLength (counted in characters) and
// pattern to a string, held as a string or as the bytes of one.
func stringFailures[T ~string | ~[]byte](n *fastNode, s T) failure {
	if !n.strings {
		return 0
	}
	var f failure
	if n.minLength != nil || n.maxLength != nil {
		// A string of b bytes holds from ⌈b/4⌉ to b characters: they are
		// counted only when a bound falls within that range.
		least, most := (len(s)+utf8.UTFMax-1)/utf8.UTFMax, len(s)
		if n.minLength != nil && least < *n.minLength || n.maxLength != nil && most > *n.maxLength {
			f = bounds(n.minLength, n.maxLength, runeCount(s), failMinLength, failMaxLength)
		}
	}
	if n.pattern != nil && !match(n.pattern, s) {
		f |= failPattern
	}
	return f
}

// runeCount counts the characters of s as utf8.RuneCount does (a byte that
// is not UTF-8 counts as one).
func runeCount[T ~string | ~[]byte](s T) int {
	count := 0
	for i := 0; i < len(s); count++ {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		i += size
	}
	return count
}

// bounds applies a pair of minX and maxX keywords to a count.
func bounds(lo, hi *int, count int, below, above failure) failure {
	var f failure
	if lo != nil && count < *lo {
		f |= below
	}
	if hi != nil && count > *hi {
		f |= above
	}
	return f
}

// itemsFailures applies minItems and maxItems to an array's length.
func (n *fastNode) itemsFailures(count int) failure {
	return bounds(n.minItems, n.maxItems, count, failMinItems, failMaxItems)
}

// containsFailures applies contains, minContains and maxContains, given
// how many items match contains.
func (n *fastNode) containsFailures(matched int) failure {
	if n.contains == nil {
		return 0
	}
	var f failure
	switch {
	case matched == 0 && (n.minContains == nil || *n.minContains > 0):
		f = failContains
	case n.minContains != nil && matched < *n.minContains:
		f = failMinContains
	}
	if n.maxContains != nil && matched > *n.maxContains {
		f |= failMaxContains
	}
	return f
}

// propertiesFailures applies minProperties and maxProperties to an
// object's member count.
func (n *fastNode) propertiesFailures(count int) failure {
	return bounds(n.minProps, n.maxProps, count, failMinProperties, failMaxProperties)
}

// missing applies required and dependentRequired (draft-07: the string
// lists of dependencies) to an object: it calls yield with each name
// required and absent, and the member whose presence requires it ("" for
// required), in the schema's order, until yield returns false. has tells
// whether the object has a member. requiredSeen is how many of the
// required properties n declares the reader already found present, or
// -1: when it found them all, they are not asked for again.
func (n *fastNode) missing(has func(string) bool, requiredSeen int, yield func(name, because string) bool) {
	names := n.requiredNames
	if requiredSeen >= n.requiredProps {
		names = n.required // the declared ones are all there
	}
	for _, name := range names {
		if !has(name) && !yield(name, "") {
			return
		}
	}
	for _, d := range n.dependentRequired {
		if !has(d.name) {
			continue
		}
		for _, name := range d.required {
			if !has(name) && !yield(name, d.name) {
				return
			}
		}
	}
}

// complete reports whether an object has every member required of it (see
// missing).
func (n *fastNode) complete(has func(string) bool, requiredSeen int) bool {
	if requiredSeen >= n.requiredProps && n.required == nil && n.dependentRequired == nil {
		return true
	}
	ok := true
	n.missing(has, requiredSeen, func(string, string) bool {
		ok = false
		return false
	})
	return ok
}

// firstRepeat applies uniqueItems to count items compared pairwise by
// same: it returns the first item equal to an earlier one and the first
// such earlier one, or -1. It is for short arrays; longer ones are
// compared through a set (see repeats).
func firstRepeat(count int, same func(i, j int) bool) (int, int) {
	for i := 1; i < count; i++ {
		for j := range i {
			if same(i, j) {
				return i, j
			}
		}
	}
	return -1, -1
}

// shortArray is the length up to which uniqueItems compares items
// pairwise.
const shortArray = 16

// repeats applies uniqueItems to a plain array: it calls yield with each
// item equal to an earlier one and the first such earlier one, in order,
// until yield returns false. Short arrays are compared pairwise; longer
// ones through a set of their strings or numbers, or of each item's
// canonical form, so the time is linear in the array's size.
func repeats(a []any, yield func(i, j int) bool) {
	if len(a) <= shortArray {
		for i := 1; i < len(a); i++ {
			for j := range i {
				if equal(a[i], a[j]) {
					if !yield(i, j) {
						return
					}
					break
				}
			}
		}
		return
	}
	if repeatsOf[string](a, yield) || repeatsOf[float64](a, yield) {
		return
	}
	first := make(map[string]int, len(a))
	for i, e := range a {
		k := canonical(e)
		if j, seen := first[k]; seen {
			if !yield(i, j) {
				return
			}
			continue
		}
		first[k] = i
	}
}

// repeatsOf is repeats for an array whose items are all of type T (a
// string or a number: 0 and -0 are one key, as they are one number); it
// reports false, having yielded nothing, for any other array.
func repeatsOf[T string | float64](a []any, yield func(i, j int) bool) bool {
	for _, e := range a {
		if _, ok := e.(T); !ok {
			return false
		}
	}
	first := make(map[T]int, len(a))
	for i, e := range a {
		k := e.(T)
		if j, seen := first[k]; seen {
			if !yield(i, j) {
				return true
			}
			continue
		}
		first[k] = i
	}
	return true
}
