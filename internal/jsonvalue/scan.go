package jsonvalue

import (
	"strconv"
	"unicode/utf8"
)

// Text is what the scanners read: a document as a string (the Decoder's
// copy) or as the caller's bytes (package schema's check of a document
// without decoding it).
type Text interface{ ~string | ~[]byte }

// ScanNumber returns the end of the JSON number at pos, by JSON's grammar;
// ok is false when there is none.
func ScanNumber[T Text](src T, pos int) (end int, ok bool) {
	digits := func(p int) int {
		for p < len(src) && src[p] >= '0' && src[p] <= '9' {
			p++
		}
		return p
	}
	if pos < len(src) && src[pos] == '-' {
		pos++
	}
	switch {
	case pos < len(src) && src[pos] == '0':
		pos++
	case pos < len(src) && src[pos] >= '1' && src[pos] <= '9':
		pos = digits(pos)
	default:
		return 0, false
	}
	if pos < len(src) && src[pos] == '.' {
		p := digits(pos + 1)
		if p == pos+1 {
			return 0, false
		}
		pos = p
	}
	if pos < len(src) && (src[pos] == 'e' || src[pos] == 'E') {
		pos++
		if pos < len(src) && (src[pos] == '+' || src[pos] == '-') {
			pos++
		}
		p := digits(pos)
		if p == pos {
			return 0, false
		}
		pos = p
	}
	return pos, true
}

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// ParseNumber converts a JSON number that [ScanNumber] accepted as
// strconv.ParseFloat does; ok is false beyond float64's range. Numbers of
// at most 15 significant digits and an exponent of at most 22, most of
// those a model writes, are converted without strconv: the product or
// quotient of two exact float64 values is correctly rounded.
func ParseNumber[T Text](b T) (float64, bool) {
	neg := b[0] == '-'
	i := 0
	if neg {
		i++
	}
	var mant uint64
	nd, exp := 0, 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		if mant != 0 || b[i] != '0' {
			nd++
		}
		mant = mant*10 + uint64(b[i]-'0')
	}
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			if mant != 0 || b[i] != '0' {
				nd++
			}
			mant = mant*10 + uint64(b[i]-'0')
			exp--
		}
	}
	if i < len(b) { // the exponent
		i++
		eneg := false
		if b[i] == '+' || b[i] == '-' {
			eneg = b[i] == '-'
			i++
		}
		e := 0
		for ; i < len(b); i++ {
			if e > 10000 {
				return slowFloat(b)
			}
			e = e*10 + int(b[i]-'0')
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if nd > 15 {
		return slowFloat(b)
	}
	f := float64(mant)
	switch {
	case exp == 0:
	case exp > 0 && exp <= 22:
		f *= pow10[exp]
	case exp < 0 && exp >= -22:
		f /= pow10[-exp]
	default:
		return slowFloat(b)
	}
	if neg {
		f = -f
	}
	return f, true
}

func slowFloat[T Text](b T) (float64, bool) {
	f, err := strconv.ParseFloat(string(b), 64)
	return f, err == nil
}

// ScanString returns the end of the JSON string at pos (just after its
// closing quote) and whether it is plain: without escapes and in valid
// UTF-8, so that the bytes between its quotes are its value. ok is false
// for a string that is not JSON.
func ScanString[T Text](src T, pos int) (end int, plain, ok bool) {
	plain = true
	for i := pos + 1; i < len(src); {
		// Skip the bytes that need no care, a few at a time.
		for i+4 <= len(src) && !special[src[i]] && !special[src[i+1]] && !special[src[i+2]] && !special[src[i+3]] {
			i += 4
		}
		for i < len(src) && !special[src[i]] {
			i++
		}
		if i >= len(src) {
			break
		}
		switch c := src[i]; {
		case c == '"':
			return i + 1, plain, true
		case c == '\\':
			if i+1 >= len(src) {
				return 0, false, false
			}
			switch src[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(src) || !isHex(src[i+2]) || !isHex(src[i+3]) || !isHex(src[i+4]) || !isHex(src[i+5]) {
					return 0, false, false
				}
				i += 6
			default:
				return 0, false, false
			}
			plain = false
		case c < 0x20:
			return 0, false, false
		default:
			r, size := utf8.DecodeRuneInString(string(src[i:min(i+utf8.UTFMax, len(src))]))
			if r == utf8.RuneError && size == 1 {
				plain = false
			}
			i += size
		}
	}
	return 0, false, false
}

// special marks the bytes a string's scan must look at: the closing quote,
// a backslash, control characters and the bytes of multi-byte UTF-8.
var special = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf
	}
	return t
}()

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
