package extract

import (
	"strings"
)

// This file holds the repair rules of numbers in a form JSON lacks (.5,
// 2., +1, 1e, 1_000) and of tokens that start like a number but are none.

// numberLike reports a token that starts like a number but is not one
// JSON or repair can read (0789, 0.0.1, a UUID): a code or an
// identifier, kept as text.
func numberLike(tok string) bool {
	t := strings.TrimPrefix(tok, "-")
	return t != "" && isDigit(t[0])
}

// isNumberByte reports a byte a JSON number may hold.
func isNumberByte(c byte) bool {
	return isDigit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// digitSeparators reads a number written with _ between digits (1_000,
// 1_234.5_6) and writes it without them, recording the fix. It does not
// apply, having written nothing, to anything else.
func (r *repairer) digitSeparators(_ role, w *bareToken) (ok, applied bool) {
	if w.classes&classUnderscore == 0 {
		return false, false
	}
	start, tok := w.start, r.text[w.start:w.end]
	for i := 0; i < len(tok); i++ {
		if tok[i] != '_' {
			continue
		}
		if i == 0 || i == len(tok)-1 || !isDigit(tok[i-1]) || !isDigit(tok[i+1]) {
			return false, false
		}
	}
	at := len(r.written)
	r.written = room(r.written, len(tok))
	for i := 0; i < len(tok); i++ {
		if tok[i] != '_' {
			r.written = append(r.written, tok[i])
		}
	}
	plain := stringView(r.written[at:])
	if end, ok := scanNumber(plain, 0); !ok || end != len(plain) {
		r.written = r.written[:at]
		return false, false
	}
	r.fixes.push(noteDigitSeparators, start, len(tok), at)
	r.out = append(r.out, plain...)
	r.pos = w.end
	return true, true
}

// nearNumber reads a number in a form JSON lacks (+1, .5, 2., 1e, a lone
// minus) and writes it in JSON's ([number]).
func (r *repairer) nearNumber(_ role, w *bareToken) (ok, applied bool) {
	tok := r.text[w.start:w.end]
	var num numberForm
	if !number(tok, &num) {
		return false, false
	}
	r.pos = w.end
	r.writeNumber(w.start, tok, &num)
	return true, true
}

// isDigit reports an ASCII digit.
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// A numberForm is a number as [number] reads it: its JSON form is made of
// parts of the token, so that reading one allocates nothing.
type numberForm struct {
	changed bool   // the JSON form differs from the token
	neg     bool   // a minus sign
	intPart string // the integer digits, "" for 0
	frac    string // the fraction's digits; "" with no point
	hasFrac bool   // a point, followed by digits or not (2.)
	exp     string // the exponent after its 'e', sign included; "" for none
}

// appendJSON appends the number's JSON form to dst.
func (n *numberForm) appendJSON(dst []byte) []byte {
	if n.neg {
		dst = append(dst, '-')
	}
	if n.intPart == "" {
		dst = append(dst, '0')
	}
	dst = append(dst, n.intPart...)
	if n.hasFrac {
		dst = append(dst, '.')
		if n.frac == "" {
			dst = append(dst, '0')
		}
		dst = append(dst, n.frac...)
	}
	if n.exp != "" {
		dst = append(dst, 'e')
		dst = append(dst, n.exp...)
	}
	return dst
}

// writeNumber writes the number num, read from tok at offset start, to
// the output, recording a fix when its form changed.
func (r *repairer) writeNumber(start int, tok string, num *numberForm) {
	if !num.changed {
		r.out = append(r.out, tok...)
		return
	}
	at := len(r.written)
	r.record(noteNumber, start, len(tok))
	r.written = num.appendJSON(room(r.written, len(tok)+2))
	r.out = append(r.out, r.written[at:]...)
}

// number reads tok as a number, JSON or a near miss (+1, .5, 1., 1e, a lone
// minus), into n, whose changed says whether its JSON form differs from
// tok. It reports false for anything else, leaving n in no useful state.
func number(tok string, n *numberForm) bool {
	*n = numberForm{}
	if tok == "" {
		return false
	}
	if tok[0] == '-' || tok[0] >= '0' && tok[0] <= '9' {
		if end, ok := scanNumber(tok, 0); ok && end == len(tok) {
			return true
		}
	}
	i := 0
	if tok[0] == '+' || tok[0] == '-' {
		n.neg = tok[0] == '-'
		i++
	}
	intStart := i
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	n.intPart = tok[intStart:i]
	if i < len(tok) && tok[i] == '.' {
		n.hasFrac = true
		i++
		fs := i
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
		n.frac = tok[fs:i]
	}
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		if n.intPart == "" && n.frac == "" {
			return false
		}
		i++
		es := i
		if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
			i++
		}
		ds := i
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
		if i > ds {
			n.exp = tok[es:i]
		}
	}
	if i != len(tok) {
		return false
	}
	if n.intPart == "" && n.frac == "" {
		if tok != "-" {
			return false
		}
		*n = numberForm{changed: true}
		return true // a lone minus: 0
	}
	if len(n.intPart) > 1 && n.intPart[0] == '0' {
		// Leading zeros (0789) mark an identifier or a code, not a number:
		// the caller keeps the text as a string.
		return false
	}
	n.changed = true
	return true
}
