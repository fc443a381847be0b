package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// Limits on how much of a value a message shows. The whole value is the
// caller's; messages stay short enough to quote back to a model.
const (
	maxQuoted    = 60 // characters of a string value
	maxRendered  = 80 // characters of a rendered array or object
	maxEnumShown = 12 // enum members listed
)

// quote renders s in single quotes, escaping quotes, backslashes and
// control characters, cut to max characters with "…".
func quote(s string, max int) string {
	var b strings.Builder
	b.Grow(min(len(s), 4*max) + 2)
	quoteTo(&b, s, max)
	return b.String()
}

// reprThen is repr(v) followed by the texts of rest, written in one
// allocation when v is a string (the value of most violations listed).
func reprThen(v any, rest ...string) string {
	x, ok := v.(string)
	if !ok {
		return repr(v) + strings.Join(rest, "")
	}
	size := min(len(x), 4*maxQuoted) + 2
	for _, r := range rest {
		size += len(r)
	}
	var b strings.Builder
	b.Grow(size)
	quoteTo(&b, x, maxQuoted)
	for _, r := range rest {
		b.WriteString(r)
	}
	return b.String()
}

// quoteTo writes s to b as quote renders it.
func quoteTo(b *strings.Builder, s string, max int) {
	b.WriteByte('\'')
	n := 0
	for _, r := range s {
		if n == max {
			b.WriteString("…")
			break
		}
		n++
		switch r {
		case '\'', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
}

// repr renders a decoded JSON value for a message: strings in single
// quotes, numbers, true/false/null, arrays and objects as compact JSON cut
// short.
func repr(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return quote(x, maxQuoted)
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return formatFloat(x)
	case json.Number:
		return x.String()
	case []any:
		var parts []string
		n := 2
		for _, e := range x {
			p := repr(e)
			n += len(p) + 2
			if n > maxRendered {
				parts = append(parts, "…")
				break
			}
			parts = append(parts, p)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		n := 2
		for _, k := range keys {
			p := quote(k, 30) + ": " + repr(x[k])
			n += len(p) + 2
			if n > maxRendered {
				parts = append(parts, "…")
				break
			}
			parts = append(parts, p)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	if r, ok := asRat(v); ok {
		return r.RatString()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "<value>"
	}
	s := string(b)
	if len(s) > maxRendered {
		s = s[:maxRendered] + "…"
	}
	return s
}

// jsonRepr renders a scalar the way JSON writes it ("5", "\"5\"", "true");
// the type message quotes the value as the model wrote it.
func jsonRepr(v any) string {
	switch x := v.(type) {
	case string:
		r := []rune(x)
		if len(r) > maxQuoted {
			x = string(r[:maxQuoted]) + "…"
		}
		b, _ := json.Marshal(x)
		return string(b)
	case nil, bool, float64, json.Number:
		return repr(x)
	}
	return ""
}

func formatFloat(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// asRat converts a number of any Go numeric kind to a big.Rat.
func asRat(v any) (*big.Rat, bool) {
	switch v.(type) {
	case nil, bool, string, []any, map[string]any:
		return nil, false // no number: nothing to allocate
	}
	r := new(big.Rat)
	switch x := v.(type) {
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, false
		}
		return r.SetFloat64(x), true
	case float32:
		return asRat(float64(x))
	case int:
		return r.SetInt64(int64(x)), true
	case int8:
		return r.SetInt64(int64(x)), true
	case int16:
		return r.SetInt64(int64(x)), true
	case int32:
		return r.SetInt64(int64(x)), true
	case int64:
		return r.SetInt64(x), true
	case uint:
		return r.SetUint64(uint64(x)), true
	case uint8:
		return r.SetUint64(uint64(x)), true
	case uint16:
		return r.SetUint64(uint64(x)), true
	case uint32:
		return r.SetUint64(uint64(x)), true
	case uint64:
		return r.SetUint64(x), true
	case json.Number:
		if _, ok := r.SetString(x.String()); ok {
			return r, true
		}
	}
	return nil, false
}

// plural returns "1 item" or "2 items" ("1 property", "2 properties").
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "y") {
		return strconv.Itoa(n) + " " + strings.TrimSuffix(word, "y") + "ies"
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// listValues renders values as "['a', 'b']", cut after maxEnumShown.
func listValues(vs []any) string {
	parts := make([]string, 0, min(len(vs), maxEnumShown+1))
	for i, v := range vs {
		if i == maxEnumShown {
			parts = append(parts, "… ("+strconv.Itoa(len(vs)-i)+" more)")
			break
		}
		parts = append(parts, repr(v))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// orList joins words as "a", "a or b", "a, b or c".
func orList(words []string) string { return joinList(words, " or ") }

// andList joins words as "a", "a and b", "a, b and c".
func andList(words []string) string { return joinList(words, " and ") }

func joinList(words []string, last string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + last + words[len(words)-1]
}

// cleanAuthorityMessage turns jsonschema-go's error text into a message:
// the innermost cause without its "validating <schema>:" wrappers.
func cleanAuthorityMessage(msg string) string {
	for {
		i := strings.Index(msg, "validating ")
		if i != 0 {
			break
		}
		j := strings.Index(msg, ": ")
		if j < 0 {
			break
		}
		msg = msg[j+2:]
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return msg
}
