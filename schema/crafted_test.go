package schema_test

// Crafted cases at the edges of the fast path's readers (repeated names at
// 2 to 65 keys, around the size where a table finds them; patterns the
// step matcher takes, on unicode and invalid UTF-8; uniqueItems at 15 to 40
// items with 1, 1.0, 1e0, -0 and 0; enum and const of containers;
// dependencies; propertyNames; $ref chains and draft-07 siblings;
// whitespace and a BOM), each held to the authority by sameAsAuthority,
// sameOnBytes and sameOnDecode.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentio/agentio/schema"
)

func keysObj(n int, dup bool) string {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		k := fmt.Sprintf("k%d", i)
		if dup && i == n-1 {
			k = "k0"
		}
		v := "1"
		if dup && i == n-1 {
			v = `"x"`
		}
		fmt.Fprintf(&b, "%q:%s", k, v)
	}
	b.WriteString("}")
	return b.String()
}

type craftedCase struct{ s, in string }

func craftedCases() []craftedCase {
	cases := []craftedCase{}
	for _, n := range []int{2, 15, 16, 17, 18, 33, 64, 65} {
		for _, sch := range []string{`{"type":"object","additionalProperties":{"type":"integer"}}`, `{"properties":{"k0":{"type":"integer"}}}`, `{"additionalProperties":{"type":"string"}}`} {
			cases = append(cases, craftedCase{sch, keysObj(n, true)}, craftedCase{sch, keysObj(n, false)})
		}
	}
	pats := []string{`^[a-z]+x$`, `^.{2}$`, `^[^a-z]+$`, `^\d+$`, `^\w+$`, `^\s*$`, `^\s+$`, `^\pL+$`, `^\p{Greek}{2,3}$`, `^abc$`, `^abc`, `^a+$`, `^[\x{FFFD}]$`, `^.$`, `^.+$`, `^(?s).+$`, `^[^\n]+$`, `^\S+$`, `^\D{2}$`, `^é{2}$`, `^[é-ü]+$`, `^a{0}b$`, `^\x{1F600}$`, `^[a-z]{2,}$`, `^\z`, `\Aab\z`, `^ab\z`, `^a\.b$`, `^\$\d+$`}
	strs := []string{"", "a", "ab", "abx", "é", "éé", "a\n", "ab\n", "\n", "\xff", "\xff\xfe", "a\xffb", "\xed\xa0\x80", "\xf0\x9f\x98", "😀", "😀😀", "ΑΒ", "ΑΒΓ", "123", "١٢٣", " \t", "\u00a0", "\u2028", "abc", "abcd", "b", "a.b", "$12", "\uFFFD", "a b"}
	for _, p := range pats {
		for _, extra := range []string{"", `,"minLength":2`, `,"maxLength":1`} {
			pj, _ := json.Marshal(p)
			sch := `{"type":"string","pattern":` + string(pj) + extra + `}`
			for _, s := range strs {
				sj, _ := json.Marshal(s)
				raw := `"` + s + `"` // raw bytes, may be invalid UTF-8
				if strings.ContainsAny(s, "\n\t\"\\") || strings.ContainsRune(s, 0x2028) {
					raw = string(sj)
				}
				cases = append(cases, craftedCase{sch, string(sj)}, craftedCase{sch, raw})
			}
		}
	}
	// propertyNames with patterns
	for _, p := range pats {
		pj, _ := json.Marshal(p)
		sch := `{"propertyNames":{"pattern":` + string(pj) + `},"patternProperties":{` + string(pj) + `:{"type":"integer"}}}`
		for _, s := range strs {
			sj, _ := json.Marshal(s)
			cases = append(cases, craftedCase{sch, `{` + string(sj) + `:1}`}, craftedCase{sch, `{` + string(sj) + `:"x"}`}, craftedCase{sch, `{"` + s + `":1}`})
		}
	}
	// uniqueItems
	nums := []string{"1", "1.0", "1e0", "-0", "0", "0.0", "1E0", "10e-1", "100e-2", "-0.0", "0e5"}
	for _, n := range []int{2, 15, 16, 17, 18, 40} {
		for _, a := range nums {
			for _, b := range nums {
				items := make([]string, n)
				for i := range items {
					items[i] = fmt.Sprint(i + 2)
				}
				items[0] = a
				items[n-1] = b
				arr := "[" + strings.Join(items, ",") + "]"
				cases = append(cases, craftedCase{`{"uniqueItems":true}`, arr})
				items2 := make([]string, n)
				for i := range items2 {
					items2[i] = fmt.Sprintf(`{"a":%d}`, i+2)
				}
				items2[0] = `{"a":` + a + `}`
				items2[n-1] = `{"a":` + b + `}`
				cases = append(cases, craftedCase{`{"uniqueItems":true}`, "[" + strings.Join(items2, ",") + "]"})
				cases = append(cases, craftedCase{`{"uniqueItems":true,"items":{"type":"array"}}`, "[[" + a + "],[" + b + "]]"})
			}
		}
	}
	for _, n := range []int{15, 16, 17, 18} {
		items := make([]string, n)
		for i := range items {
			items[i] = fmt.Sprintf(`"s%d"`, i)
		}
		items[n-1] = `"s\u0030"`
		cases = append(cases, craftedCase{`{"uniqueItems":true}`, "[" + strings.Join(items, ",") + "]"})
		items[n-1] = `"s0"`
		cases = append(cases, craftedCase{`{"uniqueItems":true}`, "[" + strings.Join(items, ",") + "]"})
		items[n-1] = `1`
		cases = append(cases, craftedCase{`{"uniqueItems":true}`, "[" + strings.Join(items, ",") + "]"})
	}
	// enum of objects, const of arrays
	for _, sch := range []string{`{"enum":[{"a":1,"b":[1,2]},{"a":"x"},[1,2],1,"s",null]}`, `{"const":[1,{"a":[0]},"x"]}`, `{"const":{"a":1,"a2":2}}`, `{"enum":[0,-0.0,[0],{"z":0}]}`} {
		for _, in := range []string{`{"a":1,"b":[1,2]}`, `{"b":[1.0,2e0],"a":1.0}`, `{"a":1,"b":[2,1]}`, `{"a":1,"b":[1,2],"c":0}`, `[1,2]`, `[1.0,2]`, `[2,1]`, `1`, `1.0`, `"s"`, `null`, `[1,{"a":[0]},"x"]`, `[1,{"a":[-0]},"x"]`, `[1,{"a":[0.0]},"x"]`, `[1,{"a":[0]},"x",1]`, `{"a":1,"a2":2}`, `{"a2":2,"a":1}`, `{"a":1,"a2":2,"a":1}`, `{"a":1,"a":1}`, `{"a":"x"}`, `{"a":"x","a":"x"}`, `{"a":1,"b":[1,2],"a":1}`, `{"a":0,"a":1,"b":[1,2]}`, `[0]`, `[-0]`, `{"z":-0}`, `-0`, `0.0`, `{"a":"\u0078"}`, `{"\u0061":"x"}`} {
			cases = append(cases, craftedCase{sch, in})
		}
	}
	// dependentRequired, dependencies, propertyNames, draft-07 ref siblings, ref chains
	deps := []string{
		`{"dependentRequired":{"a":["b","c"]}}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","dependencies":{"a":["b"],"b":{"required":["c"]}}}`,
		`{"dependentSchemas":{"a":{"properties":{"b":{"type":"string"}}}}}`,
		`{"propertyNames":{"maxLength":2}}`,
		`{"propertyNames":{"enum":["a","b"]}}`,
		`{"propertyNames":{"const":"a"}}`,
		`{"propertyNames":false}`,
		`{"required":["a","b"],"properties":{"a":{}}}`,
		`{"required":["a","a"]}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"x":{"type":"object","required":["b"]}},"$ref":"#/definitions/x","required":["a"]}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"x":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/x","type":"integer"}}}`,
		`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/c"},"c":{"type":"object","required":["b"]}},"$ref":"#/$defs/a"}`,
		`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/c"},"c":{"type":"object","required":["b"]}},"$ref":"#/$defs/a","required":["a"]}`,
		`{"$defs":{"t":{"$ref":"#/$defs/u"},"u":{"type":"object","properties":{"a":{"$ref":"#/$defs/t"},"b":{"type":"integer"}}}},"$ref":"#/$defs/t"}`,
		`{"minProperties":2,"maxProperties":2}`,
		`{"properties":{"a":{"type":"integer"}},"additionalProperties":false}`,
	}
	for _, sch := range deps {
		for _, in := range []string{`{}`, `{"a":1}`, `{"a":1,"b":2}`, `{"a":1,"b":"x","c":3}`, `{"a":1,"a":2}`, `{"a":"x","b":1}`, `{"b":1,"c":1}`, `{"abc":1}`, `{"a":{"a":{"b":1}},"b":1}`, `{"a":{"a":{"b":"x"}},"b":1}`, `{"a":1,"b":2,"a":3}`, `{"b":1,"b":2}`, `{"a":{"b":1,"b":"x"},"b":1}`, `{"a":"s","a":1}`, `{"c":1,"c":1,"c":1}`, `1`, `[]`} {
			cases = append(cases, craftedCase{sch, in})
		}
	}
	// whitespace, BOM
	for _, in := range []string{" {} ", "\ufeff{}", "{}\n", "\t[1]\r\n", "[1] x", "[1],", "\"\\ud800\"", "\"\\udc00x\"", "\"a\\u0000\""} {
		cases = append(cases, craftedCase{`{"type":["object","array","string"],"minLength":2,"pattern":"^.{2}$"}`, in})
	}
	return cases
}

// TestCraftedAgreement holds Validate, ValidateJSON and Decode to the
// authority on the crafted cases.
func TestCraftedAgreement(t *testing.T) {
	cases := craftedCases()
	fails := 0
	for i, cs := range cases {
		s, err := schema.Parse([]byte(cs.s))
		if err != nil {
			t.Logf("parse %s: %v", cs.s, err)
			continue
		}
		name := fmt.Sprintf("#%d %s on %q", i, cs.s, cs.in)
		ok := true
		var v any
		if json.Unmarshal([]byte(cs.in), &v) == nil {
			ok = sameAsAuthority(t, s, v, name) && ok
		}
		ok = sameOnBytes(t, s, []byte(cs.in), name) && ok
		ok = sameOnDecode(t, s, []byte(cs.in), name) && ok
		if !ok {
			fails++
			if fails > 40 {
				t.Fatal("too many")
			}
		}
	}
	t.Logf("%d cases", len(cases))
}
