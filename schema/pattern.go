package schema

import (
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// A pattern is a compiled "pattern" keyword. Most patterns in schemas are
// simple: anchored at the start, then literals and character classes,
// each repeated a fixed or a bounded number of times
// (^[A-Z]{3}-[0-9]{4}$). Such a pattern is matched by reading the string
// once, one step per piece, with no regular-expression engine; any other
// is matched by re. The two agree on every string (FuzzPattern holds them
// to it).
type pattern struct {
	re *regexp.Regexp
	// steps, when not nil, match the string in order; end: the string
	// must end after the last.
	steps []patternStep
	end   bool
}

// A patternStep matches between min and max runes (max < 0: any number)
// of its class.
type patternStep struct {
	ranges   []rune // pairs of inclusive bounds, as syntax.Regexp.Rune
	min, max int
}

// maxPatternSteps bounds the steps of a simple pattern; a longer one is
// left to re.
const maxPatternSteps = 32

// newPattern compiles re's expression into steps when it is simple.
func newPattern(re *regexp.Regexp) *pattern {
	p := &pattern{re: re}
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return p
	}
	subs := []*syntax.Regexp{tree}
	if tree.Op == syntax.OpConcat {
		subs = tree.Sub
	}
	if len(subs) == 0 || subs[0].Op != syntax.OpBeginText {
		return p // unanchored: found anywhere, which re searches for
	}
	subs = subs[1:]
	if n := len(subs); n > 0 && subs[n-1].Op == syntax.OpEndText {
		p.end, subs = true, subs[:n-1]
	}
	var steps []patternStep
	for _, sub := range subs {
		var ok bool
		if steps, ok = appendSteps(steps, sub); !ok || len(steps) > maxPatternSteps {
			return p
		}
	}
	// Each step takes as many runes as it may, never giving any back: that
	// finds a match whenever there is one only if no rune a step may take
	// beyond its minimum could begin the next step.
	for i, st := range steps {
		if st.min == st.max {
			continue
		}
		if i+1 < len(steps) && (steps[i+1].min == 0 || overlap(st.ranges, steps[i+1].ranges)) {
			return p
		}
	}
	p.steps = steps
	return p
}

// appendSteps appends the steps of one piece of a pattern, if it is a
// literal, a class or a repetition of one rune or class.
func appendSteps(steps []patternStep, re *syntax.Regexp) ([]patternStep, bool) {
	if re.Flags&syntax.FoldCase != 0 {
		return steps, false
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			steps = append(steps, patternStep{ranges: []rune{r, r}, min: 1, max: 1})
		}
		return steps, true
	case syntax.OpCharClass, syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return append(steps, patternStep{ranges: classRanges(re), min: 1, max: 1}), true
	case syntax.OpRepeat, syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		one := re.Sub[0]
		if one.Flags&syntax.FoldCase != 0 || re.Flags&syntax.NonGreedy != 0 {
			return steps, false
		}
		var ranges []rune
		switch {
		case one.Op == syntax.OpLiteral && len(one.Rune) == 1:
			ranges = []rune{one.Rune[0], one.Rune[0]}
		case one.Op == syntax.OpCharClass || one.Op == syntax.OpAnyCharNotNL || one.Op == syntax.OpAnyChar:
			ranges = classRanges(one)
		default:
			return steps, false
		}
		lo, hi := re.Min, re.Max
		switch re.Op {
		case syntax.OpStar:
			lo, hi = 0, -1
		case syntax.OpPlus:
			lo, hi = 1, -1
		case syntax.OpQuest:
			lo, hi = 0, 1
		}
		return append(steps, patternStep{ranges: ranges, min: lo, max: hi}), true
	}
	return steps, false
}

// classRanges returns the ranges of a class, of . (any rune but a
// newline) or of (?s). (any rune).
func classRanges(re *syntax.Regexp) []rune {
	switch re.Op {
	case syntax.OpAnyCharNotNL:
		return []rune{0, '\n' - 1, '\n' + 1, utf8.MaxRune}
	case syntax.OpAnyChar:
		return []rune{0, utf8.MaxRune}
	}
	return re.Rune
}

// overlap reports whether two sets of ranges share a rune.
func overlap(a, b []rune) bool {
	for i := 0; i+1 < len(a); i += 2 {
		for j := 0; j+1 < len(b); j += 2 {
			if a[i] <= b[j+1] && b[j] <= a[i+1] {
				return true
			}
		}
	}
	return false
}

func inRanges(ranges []rune, r rune) bool {
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] <= r && r <= ranges[i+1] {
			return true
		}
	}
	return false
}

// match reports whether s, a string or the bytes of one, matches p.
func match[T ~string | ~[]byte](p *pattern, s T) bool {
	if p.steps == nil {
		switch x := any(s).(type) {
		case string:
			return p.re.MatchString(x)
		case []byte:
			return p.re.Match(x)
		}
		return p.re.MatchString(string(s))
	}
	i := 0
	for _, st := range p.steps {
		count := 0
		for (st.max < 0 || count < st.max) && i < len(s) {
			r, size := rune(s[i]), 1
			if r >= utf8.RuneSelf {
				r, size = utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
			}
			if !inRanges(st.ranges, r) {
				break
			}
			i += size
			count++
		}
		if count < st.min {
			return false
		}
	}
	return !p.end || i == len(s)
}
