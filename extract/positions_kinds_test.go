package extract

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRuleEntriesNameTheirKinds holds each entry of a position's table to
// the kinds of fix it names (positions.go, doc.go): applied through its
// switch at the samples of TestRuleTablesApply and at a few escaped-JSON
// shapes, each entry that reads no nested value records only kinds it
// names, besides those of the blanks it may skip (comment, whitespace),
// which [blankRules] name. It found the escaped-JSON entry of valueRules
// and keyRules missing truncated (`\"abc`) and string_escape
// (`\"a\qb\"`), which [repairer.escapedStr] records: nothing else reads an
// entry's kinds, so a wrong list survived every other test.
func TestRuleEntriesNameTheirKinds(t *testing.T) {
	fresh := func(text string) *repairer {
		r := &repairer{rereadLeft: rereadAllowance(text)}
		r.reset(text)
		r.pos = 1
		return r
	}
	blanks := []FixKind{FixComment, FixWhitespace}
	// Entries that read nested values, whose fixes are those of other
	// entries too.
	nested := map[int]bool{valueObject: true, valueArray: true, valueTuple: true, valueBareReply: true, valueBareWord: true}
	undeclared := map[string][]FixKind{}
	check := func(name string, kinds []FixKind, fixes []Fix) {
		for _, f := range fixes {
			if !slices.Contains(kinds, f.Kind) && !slices.Contains(blanks, f.Kind) && !slices.Contains(undeclared[name], f.Kind) {
				undeclared[name] = append(undeclared[name], f.Kind)
			}
		}
	}
	samples := append(tableSamples(t), `\"abc`, `\"a\qb\"`, `\"k\": \"v`)
	for _, text := range samples {
		if text == "" {
			continue
		}
		text = "[" + text
		c := text[1]
		for i := range valueRules {
			if nested[i] || valueAt[c]&(1<<i) == 0 {
				continue
			}
			for _, where := range []role{roleTop, roleElement, roleValue} {
				r := fresh(text)
				r.kinds = append(r.kinds, '[')
				if _, applied := r.valueRule(i, where); applied {
					check(fmtEntry("valueRules", i), valueRules[i].kinds, r.fixList())
				}
			}
		}
		for i := range keyRules {
			if keyAt[c]&(1<<i) == 0 {
				continue
			}
			r := fresh(text)
			if _, applied := r.keyRule(i); applied {
				check(fmtEntry("keyRules", i), keyRules[i].kinds, r.fixList())
			}
		}
		for i := range betweenRules {
			if betweenAt[c]&(1<<i) == 0 {
				continue
			}
			r := fresh(text)
			r.kinds = append(r.kinds, '{', '[')
			comma := -1
			if _, applied := r.betweenRule(i, ']', 1, &comma); applied {
				check(fmtEntry("betweenRules", i), betweenRules[i].kinds, r.fixList())
			}
		}
		for i := range blankRules {
			if blankAt[c]&(1<<i) == 0 {
				continue
			}
			r := fresh(text)
			if r.blankRule(i) {
				check(fmtEntry("blankRules", i), blankRules[i].kinds, r.fixList())
			}
		}
		for i := range wordRules {
			if i == wordCall || wordAt[c]&(1<<i) == 0 {
				continue // a call reads a nested value
			}
			for _, where := range []role{roleElement, roleValue} {
				r := fresh(text)
				r.kinds = append(r.kinds, '[')
				var w bareToken
				r.readToken(&w)
				if _, applied := r.wordRule(i, where, &w); applied {
					check(fmtEntry("wordRules", i), wordRules[i].kinds, r.fixList())
				}
			}
		}
	}
	assert.Empty(t, undeclared, "kinds of fix recorded by an entry that does not name them")
}

func fmtEntry(table string, i int) string { return table + "[" + string(rune('0'+i)) + "]" }

// TestUnquotedKeyAtAnyByte: the unquoted-key entry of keyRules
// may start with any byte. A mutation giving it only ASCII letters,
// digits, '_' and '$' as first bytes survived every test before this one.
func TestUnquotedKeyAtAnyByte(t *testing.T) {
	for text, want := range map[string]string{
		`{ключ: 1}`:        `{"ключ":1}`,
		`{@type: "x"}`:     `{"@type":"x"}`,
		`{"a": 1, -b: 2}`:  `{"a":1,"-b":2}`,
		`{"a": 1, <c>: 3}`: `{"a":1,"<c>":3}`,
	} {
		c, err := JSON(text, WithRepair())
		if assert.NoError(t, err, text) {
			assert.Equal(t, want, string(c.JSON), text)
			assert.Equal(t, []FixKind{FixUnquotedKey}, fixKinds(c.Fixes), text)
		}
	}
}

func fixKinds(fixes []Fix) []FixKind {
	var kinds []FixKind
	for _, f := range fixes {
		kinds = append(kinds, f.Kind)
	}
	return kinds
}
