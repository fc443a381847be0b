package inputs

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentio/agentio/internal/jsonraw"
)

// appendEntry appends the parameter line(s) of key and v, each ending in
// "\n". It returns a [*ValueError] when v has no JSON form.
func appendEntry(dst []byte, key string, v any) ([]byte, error) {
	switch v := v.(type) {
	case string:
		return appendString(dst, key, v), nil
	case nil:
		return appendLine(dst, key, "null"), nil
	case bool:
		return appendLine(dst, key, strconv.FormatBool(v)), nil
	case float64:
		return appendFloatEntry(dst, key, v, 64)
	case float32:
		return appendFloatEntry(dst, key, float64(v), 32)
	case int:
		return appendLine(dst, key, strconv.FormatInt(int64(v), 10)), nil
	case int64:
		return appendLine(dst, key, strconv.FormatInt(v, 10)), nil
	case int32:
		return appendLine(dst, key, strconv.FormatInt(int64(v), 10)), nil
	case int16:
		return appendLine(dst, key, strconv.FormatInt(int64(v), 10)), nil
	case int8:
		return appendLine(dst, key, strconv.FormatInt(int64(v), 10)), nil
	case uint:
		return appendLine(dst, key, strconv.FormatUint(uint64(v), 10)), nil
	case uint64:
		return appendLine(dst, key, strconv.FormatUint(v, 10)), nil
	case uint32:
		return appendLine(dst, key, strconv.FormatUint(uint64(v), 10)), nil
	case uint16:
		return appendLine(dst, key, strconv.FormatUint(uint64(v), 10)), nil
	case uint8:
		return appendLine(dst, key, strconv.FormatUint(uint64(v), 10)), nil
	case json.Number:
		num, err := numberText(v)
		if err != nil {
			return dst, &ValueError{Key: key, Err: err}
		}
		return appendLine(dst, key, num), nil
	case json.RawMessage:
		raw := bytes.TrimSpace(v)
		if !json.Valid(raw) {
			return dst, &ValueError{Key: key, Err: errors.New("invalid json.RawMessage")}
		}
		return appendRaw(dst, key, raw, false)
	case []any, map[string]any:
		n := len(dst)
		dst = append(dst, key...)
		dst = append(dst, ": "...)
		start := len(dst)
		var err error
		if dst, err = appendPyValue(dst, v, 0); err != nil {
			return dst[:n], &ValueError{Key: key, Err: err}
		}
		return append(escapeJSONTags(dst, start), '\n'), nil
	}
	raw, err := marshal(v)
	if err != nil {
		return dst, &ValueError{Key: key, Err: err}
	}
	return appendRaw(dst, key, raw, true)
}

// maxDepth bounds the nesting appendPyValue follows, as encoding/json's
// decoder bounds what it reads; deeper (or cyclic) values are an error.
const maxDepth = 10000

// errTooDeep is the cause in a [*ValueError] for a value nested deeper
// than maxDepth, which is how a cyclic map or slice shows.
var errTooDeep = errors.New("value nested too deep (or cyclic)")

// appendPyValue appends v, a value as encoding/json decodes JSON into any,
// in the spacing and escaping of appendPython, without the detour through
// encoding/json: map keys sorted, a json.Number as written, a float as
// appendFloat writes it. Other Go types inside take the detour.
func appendPyValue(dst []byte, v any, depth int) ([]byte, error) {
	if depth > maxDepth {
		return dst, errTooDeep
	}
	switch v := v.(type) {
	case string:
		return appendPyGoString(dst, v), nil
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, v), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return dst, &json.UnsupportedValueError{Str: strconv.FormatFloat(v, 'g', -1, 64)}
		}
		return appendFloat(dst, v, 64), nil
	case int:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case json.Number:
		num, err := numberText(v)
		return append(dst, num...), err
	case []any:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			var err error
			if dst, err = appendPyValue(dst, e, depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendPyGoString(dst, k)
			dst = append(dst, ": "...)
			var err error
			if dst, err = appendPyValue(dst, v[k], depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	}
	raw, err := marshal(v)
	if err != nil {
		return dst, err
	}
	return appendPython(dst, raw, true), nil
}

// appendPyGoString appends the Go string s as appendPyString writes a JSON
// string; an invalid UTF-8 byte becomes U+FFFD, as encoding/json writes it.
func appendPyGoString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		if c := s[i]; c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		dst = appendPyRune(dst, r)
		i += n
	}
	return append(dst, '"')
}

// numberText returns n as written by whoever decoded it, after
// encoding/json's syntax check; like encoding/json, it reads "" as 0.
func numberText(n json.Number) (string, error) {
	if n == "" {
		return "0", nil
	}
	if _, err := json.Marshal(n); err != nil {
		return "", err
	}
	return string(n), nil
}

// marshal returns the compact JSON form of v, without encoding/json's HTML
// escaping (appendPython re-escapes strings anyway).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// appendRaw renders the valid JSON value raw as the value of key: a string
// as its decoded text, a list or object in Python's json.dumps spacing, a number or
// literal as written. goNumbers says the numbers came from encoding/json
// (see expandExponent) rather than from the caller.
func appendRaw(dst []byte, key string, raw []byte, goNumbers bool) ([]byte, error) {
	switch raw[0] {
	case '"':
		return appendString(dst, key, jsonraw.Unquote(raw)), nil
	case '[', '{':
		dst = append(dst, key...)
		dst = append(dst, ": "...)
		start := len(dst)
		dst = escapeJSONTags(appendPython(dst, raw, goNumbers), start)
		return append(dst, '\n'), nil
	}
	if goNumbers {
		return appendLine(dst, key, string(expandExponent(raw))), nil
	}
	return appendLine(dst, key, string(raw)), nil
}

// appendLine appends "key: text\n" for a text that holds no line break and
// no tag (a number or a JSON literal).
func appendLine(dst []byte, key, text string) []byte {
	dst = append(dst, key...)
	dst = append(dst, ": "...)
	dst = append(dst, text...)
	return append(dst, '\n')
}

// appendString renders a string raw: "key: value" on one line, or, when the
// value holds a line break, "key:" and every line of the value indented.
// Tags are escaped first (see escapeTags).
func appendString(dst []byte, key, s string) []byte {
	s = escapeTags(s)
	dst = append(dst, key...)
	if !hasBreak(s) {
		dst = append(dst, ": "...)
		dst = append(dst, s...)
		return append(dst, '\n')
	}
	dst = append(dst, ":\n"...)
	dst = append(dst, indent...)
	dst = appendIndented(dst, s)
	return append(dst, '\n')
}

// appendFloatEntry renders a float as encoding/json would, except that an
// integral value is never written in exponent form.
func appendFloatEntry(dst []byte, key string, f float64, bits int) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, &ValueError{Key: key, Err: &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, bits)}}
	}
	dst = append(dst, key...)
	dst = append(dst, ": "...)
	dst = appendFloat(dst, f, bits)
	return append(dst, '\n'), nil
}

// appendFloat formats f like encoding/json (shortest form that reads back
// the same value, exponent form below 1e-6), but writes an integral value in
// full: 300, not 3e+02; 1e21 as 1000000000000000000000.
func appendFloat(dst []byte, f float64, bits int) []byte {
	if f == math.Trunc(f) {
		return strconv.AppendFloat(dst, f, 'f', -1, bits)
	}
	format := byte('f')
	if abs := math.Abs(f); bits == 64 && abs < 1e-6 || bits == 32 && float32(abs) < 1e-6 {
		format = 'e'
	}
	n := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// Like encoding/json: 1e-07 becomes 1e-7.
		if m := len(dst) - n; m >= 4 && dst[len(dst)-4] == 'e' && dst[len(dst)-3] == '-' && dst[len(dst)-2] == '0' {
			dst[len(dst)-2] = dst[len(dst)-1]
			dst = dst[:len(dst)-1]
		}
	}
	return dst
}

// maxExpand bounds expandExponent: float64 exponents stop at 308, so every
// number encoding/json writes from a float is expanded, and a caller's
// json.Number such as 1e+999999 is kept as written rather than grown.
const maxExpand = 310

// expandExponent rewrites a number that encoding/json wrote in exponent
// form with a '+' exponent (its form for floats of 1e21 and up, all of them
// integral) as plain digits, exactly as appendFloat would: 1e+21 becomes
// 1000000000000000000000. Any other number is returned as is.
func expandExponent(num []byte) []byte {
	e := bytes.IndexAny(num, "eE")
	if e < 0 || e+1 >= len(num) || num[e+1] != '+' {
		return num
	}
	exp, err := strconv.Atoi(string(num[e+2:]))
	if err != nil || exp > maxExpand {
		return num
	}
	mant := num[:e]
	neg := len(mant) > 0 && mant[0] == '-'
	if neg {
		mant = mant[1:]
	}
	intPart, frac := mant, []byte(nil)
	if d := bytes.IndexByte(mant, '.'); d >= 0 {
		intPart, frac = mant[:d], mant[d+1:]
	}
	frac = bytes.TrimRight(frac, "0")
	if len(frac) > exp {
		return num // not integral: keep the exponent form
	}
	out := make([]byte, 0, len(num)+exp)
	if neg {
		out = append(out, '-')
	}
	out = append(out, intPart...)
	out = append(out, frac...)
	for i := len(frac); i < exp; i++ {
		out = append(out, '0')
	}
	// Drop leading zeros a mantissa such as 0.5e+3 would leave.
	digits := out
	if neg {
		digits = out[1:]
	}
	z := 0
	for z < len(digits)-1 && digits[z] == '0' {
		z++
	}
	if z > 0 {
		copy(digits, digits[z:])
		out = out[:len(out)-z]
	}
	return out
}

// appendPython appends the valid JSON text src re-spaced as Python's
// json.dumps writes it with its defaults: ", " between items, ": " after a
// key, no other whitespace, key order and number text kept, and strings
// escaped with ensure_ascii (see appendPyString). goNumbers passes every
// number through expandExponent.
func appendPython(dst, src []byte, goNumbers bool) []byte {
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == '"':
			dst, i = appendPyString(dst, src, i)
		case c == ',':
			dst = append(dst, ", "...)
			i++
		case c == ':':
			dst = append(dst, ": "...)
			i++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '-' || '0' <= c && c <= '9':
			j := i + 1
			for j < len(src) && isNumberByte(src[j]) {
				j++
			}
			if goNumbers {
				dst = append(dst, expandExponent(src[i:j])...)
			} else {
				dst = append(dst, src[i:j]...)
			}
			i = j
		default: // brackets, braces and the letters of true, false, null
			dst = append(dst, c)
			i++
		}
	}
	return dst
}

// isNumberByte reports whether b can continue a JSON number.
func isNumberByte(b byte) bool {
	return '0' <= b && b <= '9' || b == '.' || b == 'e' || b == 'E' || b == '+' || b == '-'
}

// appendPyString appends the valid JSON string that opens at src[i] as
// Python's json.dumps writes it with ensure_ascii=True: quoted; '"' and '\'
// escaped; \n, \r, \t, \b, \f as such; any other character below U+0020 or
// above U+007E as \u followed by four lower-case hex digits, a surrogate
// pair beyond U+FFFF. A lone surrogate escape is kept, as Python keeps it; an
// invalid UTF-8 byte becomes U+FFFD, as encoding/json decodes it. It returns
// dst and the index just past the closing quote.
func appendPyString(dst, src []byte, i int) ([]byte, int) {
	dst = append(dst, '"')
	for i++; src[i] != '"'; { // an escaped quote is consumed by DecodeRune
		var r rune
		r, i = jsonraw.DecodeRune(src, i)
		dst = appendPyRune(dst, r)
	}
	return append(dst, '"'), i + 1
}

// appendPyRune appends r escaped as in appendPyString.
func appendPyRune(dst []byte, r rune) []byte {
	switch r {
	case '"':
		return append(dst, `\"`...)
	case '\\':
		return append(dst, `\\`...)
	case '\n':
		return append(dst, `\n`...)
	case '\r':
		return append(dst, `\r`...)
	case '\t':
		return append(dst, `\t`...)
	case '\b':
		return append(dst, `\b`...)
	case '\f':
		return append(dst, `\f`...)
	}
	if r >= 0x20 && r < 0x7f {
		return append(dst, byte(r))
	}
	if r > 0xffff {
		hi, lo := utf16.EncodeRune(r)
		return appendU(appendU(dst, hi), lo)
	}
	return appendU(dst, r)
}

// appendU appends \u and the four lower-case hex digits of the code unit u.
func appendU(dst []byte, u rune) []byte {
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'u', hex[u>>12&0xf], hex[u>>8&0xf], hex[u>>4&0xf], hex[u&0xf])
}
