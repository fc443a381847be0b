package extract

// maxDepth bounds the nesting of arrays and objects, as encoding/json does:
// deeper values are rejected rather than risking unbounded memory.
const maxDepth = 10000

// validator checks JSON syntax (RFC 8259, as encoding/json.Valid accepts it)
// without building values. Its stack is reused across calls; a validator is
// used by one goroutine.
type validator struct {
	stack []byte // open containers: '{' or '['
}

// isSpace reports JSON insignificant whitespace.
func isSpace(c byte) bool { return spaces[c] }

// spaces marks JSON insignificant whitespace (a read-only table): one
// load, where four comparisons would run for every byte that is not a
// space.
var spaces = [256]bool{' ': true, '\n': true, '\r': true, '\t': true}

// strPlain marks bytes that need no attention inside a JSON string (a
// read-only table).
var strPlain = func() (t [256]bool) {
	for i := 0x20; i < 256; i++ {
		t[i] = true
	}
	t['"'] = false
	t['\\'] = false
	return t
}()

// value checks that one JSON value starts at s[i] (no leading whitespace).
// It returns the offset just past the value and true, or the offset of the
// first byte that cannot continue a valid value (len(s) when the text ends
// too early) and false.
func (v *validator) value(s string, i int) (int, bool) {
	v.stack = v.stack[:0]
	n := len(s)
	for {
		// A value is expected at i.
		if i >= n {
			return n, false
		}
		if c := s[i]; c == '{' || c == '[' {
			if len(v.stack) >= maxDepth {
				return i, false
			}
			closer := byte('}')
			if c == '[' {
				closer = ']'
			}
			i++
			for i < n && isSpace(s[i]) {
				i++
			}
			if i >= n || s[i] != closer {
				v.stack = append(v.stack, c)
				if c == '{' {
					j, ok := v.key(s, i)
					if !ok {
						return j, false
					}
					i = j
				}
				continue // a value is expected at i again
			}
			i++ // an empty container
		} else {
			j, ok := scanScalar(s, i)
			if !ok {
				return j, false
			}
			i = j
		}
		// A value ended at i: close containers or move to the next element.
		for {
			if len(v.stack) == 0 {
				return i, true
			}
			for i < n && isSpace(s[i]) {
				i++
			}
			if i >= n {
				return n, false
			}
			top := v.stack[len(v.stack)-1]
			c := s[i]
			if c == ',' {
				i++
				for i < n && isSpace(s[i]) {
					i++
				}
				if top == '{' {
					j, ok := v.key(s, i)
					if !ok {
						return j, false
					}
					i = j
				}
				break
			}
			if (top == '{' && c == '}') || (top == '[' && c == ']') {
				v.stack = v.stack[:len(v.stack)-1]
				i++
				continue
			}
			return i, false
		}
		for i < n && isSpace(s[i]) {
			i++
		}
	}
}

// key checks `"name" :` followed by optional whitespace, starting at s[i];
// it returns the offset of the member's value.
func (v *validator) key(s string, i int) (int, bool) {
	n := len(s)
	if i >= n || s[i] != '"' {
		return i, false
	}
	i, ok := scanString(s, i)
	if !ok {
		return i, false
	}
	for i < n && isSpace(s[i]) {
		i++
	}
	if i >= n || s[i] != ':' {
		return i, false
	}
	i++
	for i < n && isSpace(s[i]) {
		i++
	}
	return i, true
}

// scanScalar checks the string, number, true, false or null at s[i]. It
// returns the offset just past it and true, or the offset of the first byte
// that cannot continue it and false.
func scanScalar(s string, i int) (int, bool) {
	switch c := s[i]; {
	case c == '"':
		return scanString(s, i)
	case c == '-' || (c >= '0' && c <= '9'):
		return scanNumber(s, i)
	case c == 't':
		return scanWord(s, i, "true")
	case c == 'f':
		return scanWord(s, i, "false")
	case c == 'n':
		return scanWord(s, i, "null")
	}
	return i, false
}

// scanString checks the string starting with the quote at s[i].
func scanString(s string, i int) (int, bool) {
	n := len(s)
	i++
	for i < n {
		c := s[i]
		if strPlain[c] {
			i++
			continue
		}
		switch {
		case c == '"':
			return i + 1, true
		case c == '\\':
			if i+1 >= n {
				return n, false
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= n {
						return n, false
					}
					if !isHex(s[i+k]) {
						return i + k, false
					}
				}
				i += 6
			default:
				return i + 1, false
			}
		default: // control character
			return i, false
		}
	}
	return n, false
}

// isHex reports an ASCII hexadecimal digit.
func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// scanNumber checks the number starting at s[i].
func scanNumber(s string, i int) (int, bool) {
	n := len(s)
	if s[i] == '-' {
		i++
	}
	if i >= n {
		return n, false
	}
	switch {
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return i, false
	}
	if i < n && s[i] == '.' {
		var ok bool
		if i, ok = scanDigits(s, i+1); !ok {
			return i, false
		}
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		return scanDigits(s, i)
	}
	return i, true
}

// scanDigits checks the one or more digits starting at s[i] (a fraction
// or an exponent).
func scanDigits(s string, i int) (int, bool) {
	n := len(s)
	if i >= n {
		return n, false
	}
	if s[i] < '0' || s[i] > '9' {
		return i, false
	}
	for i < n && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i, true
}

// scanWord checks the literal word at s[i].
func scanWord(s string, i int, word string) (int, bool) {
	for k := 0; k < len(word); k++ {
		if i+k >= len(s) {
			return len(s), false
		}
		if s[i+k] != word[k] {
			return i + k, false
		}
	}
	return i + len(word), true
}
