package extract

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ruleCaseTexts returns the replies of testdata/repair_rules.json and the
// kinds of fix their cases expect.
func ruleCaseTexts(t *testing.T) (texts []string, kinds map[FixKind]bool) {
	t.Helper()
	data, err := os.ReadFile("testdata/repair_rules.json")
	require.NoError(t, err)
	var cases []struct {
		Text  string      `json:"text"`
		Fixes [][3]string `json:"fixes"`
	}
	require.NoError(t, json.Unmarshal(data, &cases))
	kinds = map[FixKind]bool{}
	for _, c := range cases {
		texts = append(texts, c.Text)
		for _, f := range c.Fixes {
			kinds[FixKind(f[0])] = true
		}
	}
	return texts, kinds
}

// recordedElsewhere names the kinds of fix no entry of a position's table
// records, with where they are recorded instead.
var recordedElsewhere = map[FixKind]string{
	FixMissingComma: "object and array, when an item follows another with no comma between",
	FixMissingColon: "object, when a value follows a key with no colon between",
	FixMissingValue: "object, when a ',' or '}' follows a key",
	FixDanglingKey:  "object, when the text ends after a key",
}

// TestRuleTablesCoverKinds: every kind of fix of [RepairRules] is recorded
// by an entry of a position's table or where recordedElsewhere says, every
// entry's kinds are kinds of [RepairRules], and every kind has a case in
// testdata/repair_rules.json.
func TestRuleTablesCoverKinds(t *testing.T) {
	inTables := map[FixKind]bool{}
	var entryKinds [][]FixKind
	for _, e := range valueRules {
		entryKinds = append(entryKinds, e.kinds)
	}
	for _, e := range keyRules {
		entryKinds = append(entryKinds, e.kinds)
	}
	for _, e := range betweenRules {
		entryKinds = append(entryKinds, e.kinds)
	}
	for _, e := range blankRules {
		entryKinds = append(entryKinds, e.kinds)
	}
	var wordKinds []FixKind
	for _, e := range wordRules {
		entryKinds = append(entryKinds, e.kinds)
		for _, k := range e.kinds {
			if !slices.Contains(wordKinds, k) {
				wordKinds = append(wordKinds, k)
			}
		}
	}
	assert.ElementsMatch(t, wordKinds, valueRules[valueBareWord].kinds, "the bare-word entry of valueRules names the kinds of its word rules")
	for _, kinds := range entryKinds {
		for _, k := range kinds {
			assert.GreaterOrEqual(t, ruleIndex(k), 0, "an entry's kind %q is a rule of RepairRules", k)
			inTables[k] = true
		}
	}
	_, cased := ruleCaseTexts(t)
	for _, rule := range RepairRules() {
		_, elsewhere := recordedElsewhere[rule.Kind]
		assert.True(t, inTables[rule.Kind] || elsewhere, "%q is applied by an entry of a position's table, or named in recordedElsewhere", rule.Kind)
		assert.False(t, inTables[rule.Kind] && elsewhere, "%q is in a table: recordedElsewhere need not name it", rule.Kind)
		assert.True(t, cased[rule.Kind], "%q has a case in testdata/repair_rules.json", rule.Kind)
	}
}

// TestRuleTablesNameRules: each entry's method is defined in the file of
// its rule's family, rules_*.go; the entries for JSON's own forms, which
// record no fix, in repair.go beside the object and array readers.
func TestRuleTablesNameRules(t *testing.T) {
	check := func(fn any, kinds []FixKind) {
		f := runtime.FuncForPC(reflect.ValueOf(fn).Pointer())
		file, _ := f.FileLine(f.Entry())
		name := f.Name()[strings.LastIndexByte(f.Name(), '.')+1:]
		if len(kinds) == 0 {
			assert.Equal(t, "repair.go", filepath.Base(file), name)
			return
		}
		assert.True(t, strings.HasPrefix(filepath.Base(file), "rules_"), "%s is in %s", name, file)
	}
	for _, e := range valueRules {
		check(e.read, e.kinds)
	}
	for _, e := range keyRules {
		check(e.read, e.kinds)
	}
	for _, e := range betweenRules {
		check(e.read, e.kinds)
	}
	for _, e := range blankRules {
		check(e.skip, e.kinds)
	}
	for _, e := range wordRules {
		check(e.read, e.kinds)
	}
}

// tableSamples returns texts to apply the rules at: the rule cases' replies
// from every offset, and each byte an entry may start with followed by
// shapes the rules read.
func tableSamples(t *testing.T) []string {
	texts, _ := ruleCaseTexts(t)
	var samples []string
	for _, text := range texts {
		for i := range len(text) {
			samples = append(samples, text[i:])
		}
	}
	tails := []string{"", "a\": 1}", "'x', 2]", "..]", "\"b, c]", "\" + \"d\"", "x(1)", `\"k\": 1}`,
		"*c*/ 1", "/ c\n1", "}", ", 2]", "\u00a0 1", "“q”", "` x", "…, 1]", "1, 2)", "rue,",
		"_000]", ".5e3}", "nf, 1]", "Infinity]", "inf}", "(2)]", "a/b/g]", "1_2.5, 3]",
		"(-1)]", "_0e5]"}
	for c := range 256 {
		for _, tail := range tails {
			samples = append(samples, string([]byte{byte(c)})+tail)
		}
	}
	return samples
}

// applied is what applying a rule left in a repairer.
type applied struct {
	ok, applied bool
	pos         int
	out         string
	fixes       []Fix
	guesses     int
}

// state returns what applying a rule that reported ok and done left in r.
func state(r *repairer, ok, done bool) applied {
	return applied{ok, done, r.pos, string(r.out), r.fixList(), r.guesses}
}

// TestRuleTablesApply: the switch that applies an entry of each table
// calls the entry's own method: from every sample, for each entry that may
// start there, the switch and the table's function value leave the same
// result.
func TestRuleTablesApply(t *testing.T) {
	fresh := func(text string, pos int) *repairer {
		r := &repairer{rereadLeft: rereadAllowance(text)}
		r.reset(text)
		r.pos = pos
		return r
	}
	for _, text := range tableSamples(t) {
		text = "[" + text
		if len(text) == 1 {
			continue
		}
		c := text[1]
		for i := range valueRules {
			if valueAt[c]&(1<<i) == 0 {
				continue
			}
			for _, where := range []role{roleTop, roleElement, roleKey, roleValue} {
				a, b := fresh(text, 1), fresh(text, 1)
				a.kinds, b.kinds = append(a.kinds, '['), append(b.kinds, '[')
				ok, done := valueRules[i].read(a, where)
				ok2, done2 := b.valueRule(i, where)
				require.Equal(t, state(a, ok, done), state(b, ok2, done2), "valueRules[%d] at %q", i, text)
			}
		}
		for i := range keyRules {
			if keyAt[c]&(1<<i) == 0 {
				continue
			}
			a, b := fresh(text, 1), fresh(text, 1)
			ok, done := keyRules[i].read(a, roleKey)
			ok2, done2 := b.keyRule(i)
			require.Equal(t, state(a, ok, done), state(b, ok2, done2), "keyRules[%d] at %q", i, text)
		}
		for i := range betweenRules {
			if betweenAt[c]&(1<<i) == 0 {
				continue
			}
			for _, closer := range []byte{'}', ']'} {
				for _, count := range []int{0, 1} {
					a, b := fresh(text, 1), fresh(text, 1)
					a.kinds, b.kinds = append(a.kinds, '{', '['), append(b.kinds, '{', '[')
					a.early, b.early = 1, 1
					ca, cb := -1, -1
					closed, done := betweenRules[i].read(a, closer, count, &ca)
					closed2, done2 := b.betweenRule(i, closer, count, &cb)
					require.Equal(t, state(a, closed, done), state(b, closed2, done2), "betweenRules[%d] at %q", i, text)
					require.Equal(t, ca, cb)
				}
			}
		}
		for i := range blankRules {
			if blankAt[c]&(1<<i) == 0 {
				continue
			}
			a, b := fresh(text, 1), fresh(text, 1)
			done, done2 := blankRules[i].skip(a), b.blankRule(i)
			require.Equal(t, state(a, true, done), state(b, true, done2), "blankRules[%d] at %q", i, text)
		}
		for i := range wordRules {
			if wordAt[c]&(1<<i) == 0 {
				continue
			}
			for _, where := range []role{roleElement, roleValue} {
				a, b := fresh(text, 1), fresh(text, 1)
				a.kinds, b.kinds = append(a.kinds, '['), append(b.kinds, '[')
				var wa, wb bareToken
				a.readToken(&wa)
				b.readToken(&wb)
				ok, done := wordRules[i].read(a, where, &wa)
				ok2, done2 := b.wordRule(i, where, &wb)
				require.Equal(t, state(a, ok, done), state(b, ok2, done2), "wordRules[%d] at %q", i, text)
			}
		}
	}
}

// TestRuleTablesIndex: each byte indexes exactly the entries whose first
// bytes hold it, and [repairer.skipBlanks] stops at no byte a blank may
// start with.
func TestRuleTablesIndex(t *testing.T) {
	starts := func(s string, c byte) bool { return s == "" || strings.IndexByte(s, c) >= 0 }
	for c := range 256 {
		b := byte(c)
		for i, e := range valueRules {
			assert.Equal(t, starts(e.starts, b), valueAt[c]&(1<<i) != 0, "valueRules[%d], byte %#x", i, c)
		}
		for i, e := range keyRules {
			assert.Equal(t, starts(e.starts, b), keyAt[c]&(1<<i) != 0, "keyRules[%d], byte %#x", i, c)
		}
		for i, e := range betweenRules {
			assert.Equal(t, starts(e.starts, b), betweenAt[c]&(1<<i) != 0, "betweenRules[%d], byte %#x", i, c)
		}
		for i, e := range wordRules {
			assert.Equal(t, starts(e.starts, b), wordAt[c]&(1<<i) != 0, "wordRules[%d], byte %#x", i, c)
		}
		blank := isSpace(b)
		for i, e := range blankRules {
			assert.Equal(t, starts(e.starts, b), blankAt[c]&(1<<i) != 0, "blankRules[%d], byte %#x", i, c)
			blank = blank || starts(e.starts, b)
		}
		assert.Equal(t, blank, blankStart[c], "blankStart, byte %#x", c)
	}
	assert.True(t, slices.IndexFunc(valueRules[:], func(e valueRule) bool { return e.starts == "" && !e.topOnly }) == len(valueRules)-1,
		"a bare word, which any byte may start, is the last value rule")
}

// TestWordRulesSkipOnlyWhatWouldNotApply: [repairer.word] tries an entry of
// wordRules only at the bytes it may start with and for a first token
// whose bytes its form may hold, so a wrong starts or holds would skip a
// form that applies. From every sample, each entry applied on its own,
// whatever its first byte and the token, applies only where word would
// try it.
func TestWordRulesSkipOnlyWhatWouldNotApply(t *testing.T) {
	eachWordRuleApplied(t, func(i int, text string, w bareToken) {
		assert.True(t, wordAt[text[1]]&(1<<i) != 0, "wordRules[%d] applies at %q, a byte it is not tried at", i, text)
		if wordRules[i].token {
			assert.Zero(t, w.classes&^wordRules[i].holds, "wordRules[%d] applies at %q, whose token holds bytes it is not tried for", i, text)
		}
	})
}

// eachWordRuleApplied calls applied with each entry of wordRules that
// applies to a table sample, as an element or a member's value, after an
// opening bracket, and the sample's first token.
func eachWordRuleApplied(t *testing.T, applied func(i int, text string, w bareToken)) {
	for _, text := range tableSamples(t) {
		text = "[" + text
		if len(text) == 1 {
			continue
		}
		for i := range wordRules {
			for _, where := range []role{roleElement, roleValue} {
				r := &repairer{rereadLeft: rereadAllowance(text)}
				r.reset(text)
				r.pos = 1
				r.kinds = append(r.kinds, '[')
				var w bareToken
				r.readToken(&w)
				if _, ok := r.wordRule(i, where, &w); ok {
					applied(i, text, w)
				}
			}
		}
	}
}

// TestOddSpaceStarts: the odd-space entry of blankRules is tried at the
// first byte of every space character [isOddSpace] reports, in UTF-8.
func TestOddSpaceStarts(t *testing.T) {
	for ch := rune(0); ch <= utf8.MaxRune; ch++ {
		if isOddSpace(ch) {
			b := string(ch)
			assert.True(t, blankAt[b[0]]&(1<<blankOddSpace) != 0, "%U starts with %#x", ch, b[0])
		}
	}
}

// TestTableSamplesApplyEachWordRuleToEveryClassItHolds: a holds narrower
// than its form skips a reading that applies, and
// TestWordRulesSkipOnlyWhatWouldNotApply catches that only at a sample
// whose token holds the class dropped and that the rule reads. So for
// each entry of wordRules that reads the first token, every class of its
// holds is held by the token of some sample the entry applies to: a call
// of a signed number (f(-1)), digit separators with an exponent (1_000e3).
// Without them, dropping classSign from the call's holds or classExp from
// the digit separators' leaves every test of the package passing while
// [f(-1)] and [1_000e3] become strings.
func TestTableSamplesApplyEachWordRuleToEveryClassItHolds(t *testing.T) {
	var shown [len(wordRules)]wordClass
	eachWordRuleApplied(t, func(i int, _ string, w bareToken) { shown[i] |= w.classes })
	for i, e := range wordRules {
		if e.token {
			assert.Zero(t, e.holds&^shown[i], "wordRules[%d] holds classes %07b; the samples it applies to hold %07b", i, e.holds, shown[i])
		}
	}
}
