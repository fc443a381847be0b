package schema_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"

	"github.com/agentio/agentio/schema"
)

type zkv struct {
	k string
	v any
}
type zobj []zkv

func zenc(b *strings.Builder, v any) {
	switch x := v.(type) {
	case zobj:
		b.WriteByte('{')
		for i, p := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(p.k)
			b.Write(k)
			b.WriteByte(':')
			zenc(b, p.v)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			zenc(b, e)
		}
		b.WriteByte(']')
	default:
		j, err := json.Marshal(x)
		if err != nil {
			panic(err)
		}
		b.Write(j)
	}
}

func zstr(v any) string {
	var b strings.Builder
	zenc(&b, v)
	return b.String()
}

var zNames = []string{"a", "b", "z", "A", "0x", "a/b", "~", "~1", "it's", "a b", "é", strings.Repeat("k", 70), "", "$x", "a.b", "long" + strings.Repeat("é/~", 30), "n\nl"}

type zgen struct {
	r      *rand.Rand
	draft7 bool
	minRef int // in-place $refs go to defs from this index on (no cycles)
}

// under generates a subschema applied to a part of the value: any $ref.
func (g *zgen) under(depth int) any {
	save := g.minRef
	g.minRef = 0
	defer func() { g.minRef = save }()
	return g.schema(depth)
}

func (g *zgen) ref() (string, bool) {
	if g.minRef >= 4 {
		return "", false
	}
	return "#/$defs/d" + strconv.Itoa(g.minRef+g.r.IntN(4-g.minRef)), true
}

func (g *zgen) name() string { return zNames[g.r.IntN(len(zNames))] }

func (g *zgen) names(n int) []string {
	var out []string
	for range n {
		k := g.name()
		dup := false
		for _, o := range out {
			dup = dup || o == k
		}
		if !dup {
			out = append(out, k)
		}
	}
	return out
}

func (g *zgen) schema(depth int) any {
	r := g.r
	if r.IntN(12) == 0 {
		return r.IntN(2) == 0
	}
	var o zobj
	add := func(k string, v any) { o = append(o, zkv{k, v}) }
	if ref, ok := g.ref(); ok && r.IntN(3) == 0 {
		add("$ref", ref)
		if r.IntN(2) == 0 {
			return o // a $ref alone
		}
	}
	if !g.draft7 && r.IntN(10) == 0 {
		add("$dynamicRef", "#meta")
	}
	n := 1 + r.IntN(4)
	if depth <= 0 {
		n = 1 + r.IntN(2)
	}
	for range n {
		switch k := r.IntN(26); {
		case k == 0:
			types := []string{"string", "number", "integer", "object", "array", "boolean", "null"}
			if r.IntN(3) == 0 {
				add("type", []any{types[r.IntN(7)], types[r.IntN(7)]})
			} else {
				add("type", types[r.IntN(7)])
			}
		case k == 1:
			add("enum", []any{"a", 1.0, nil, "abc"}[:1+r.IntN(4)])
		case k == 2:
			add("const", []any{"a", 1.0, nil, true}[r.IntN(4)])
		case k == 3:
			add("minLength", 2)
			if r.IntN(2) == 0 {
				add("maxLength", 3)
			}
		case k == 4:
			add("pattern", []string{"^a", "b$", "^[a-z]+$"}[r.IntN(3)])
		case k == 5:
			add("format", []string{"email", "date", "ipv4", "uuid"}[r.IntN(4)])
		case k == 6:
			add("minimum", 1)
			if r.IntN(2) == 0 {
				add("multipleOf", 2)
			}
		case k == 7:
			add("maximum", 5)
			add("exclusiveMinimum", -1)
		case k == 8 && depth > 0:
			props := zobj{}
			for _, name := range g.names(1 + r.IntN(4)) {
				props = append(props, zkv{name, g.under(depth - 1)})
			}
			add("properties", props)
			if r.IntN(2) == 0 {
				var req []any
				for _, p := range props {
					if r.IntN(2) == 0 {
						req = append(req, p.k)
					}
				}
				if r.IntN(3) == 0 {
					req = append(req, g.name())
				}
				if req != nil {
					add("required", req)
				}
			}
		case k == 9:
			if r.IntN(2) == 0 {
				add("additionalProperties", false)
			} else if depth > 0 {
				add("additionalProperties", g.under(depth-1))
			}
		case k == 10 && depth > 0:
			add("patternProperties", zobj{{"^a", g.under(depth - 1)}})
		case k == 11:
			add("propertyNames", zobj{{"maxLength", 3}})
		case k == 12 && depth > 0:
			if g.draft7 {
				if r.IntN(2) == 0 {
					add("items", []any{g.under(depth - 1), g.under(depth - 1)})
					if r.IntN(2) == 0 {
						add("additionalItems", g.under(depth-1))
					}
				} else {
					add("items", g.under(depth-1))
				}
			} else {
				if r.IntN(2) == 0 {
					add("prefixItems", []any{g.under(depth - 1), g.under(depth - 1)})
				}
				if r.IntN(2) == 0 {
					add("items", g.under(depth-1))
				}
			}
		case k == 13 && depth > 0:
			add("contains", g.under(depth-1))
			if r.IntN(2) == 0 {
				add("minContains", 2)
			}
			if r.IntN(2) == 0 {
				add("maxContains", 1)
			}
		case k == 14:
			add("uniqueItems", true)
		case k == 15:
			add("minItems", 2)
			add("maxProperties", 2)
		case k == 16 && depth > 0:
			kw := []string{"allOf", "anyOf", "oneOf"}[r.IntN(3)]
			var subs []any
			for range 1 + r.IntN(3) {
				subs = append(subs, g.schema(depth-1))
			}
			add(kw, subs)
		case k == 17 && depth > 0:
			add("not", g.schema(depth-1))
		case k == 18 && depth > 0:
			add("if", g.schema(depth-1))
			if r.IntN(3) > 0 {
				add("then", g.schema(depth-1))
			}
			if r.IntN(2) == 0 {
				add("else", g.schema(depth-1))
			}
		case k == 19 && depth > 0:
			if g.draft7 {
				add("dependencies", zobj{{g.name(), []any{g.name()}}, {g.name() + "2", g.schema(depth - 1)}})
			} else {
				add("dependentRequired", zobj{{g.name(), []any{g.name()}}})
				add("dependentSchemas", zobj{{g.name(), g.schema(depth - 1)}})
			}
		case k == 20 && !g.draft7:
			if r.IntN(2) == 0 {
				add("unevaluatedProperties", false)
			} else if depth > 0 {
				add("unevaluatedProperties", g.under(depth-1))
			}
		case k == 21 && !g.draft7:
			if r.IntN(2) == 0 {
				add("unevaluatedItems", false)
			} else if depth > 0 {
				add("unevaluatedItems", g.under(depth-1))
			}
		case k == 22:
			if ref, ok := g.ref(); ok {
				add("$ref", ref)
			}
		case k == 23:
			add("minProperties", 1)
			add("maxItems", 2)
		case k == 24:
			add("$comment", "x")
		case k == 25 && depth > 0:
			add("additionalProperties", zobj{{"$ref", "#/$defs/d" + strconv.Itoa(r.IntN(4))}})
			if r.IntN(2) == 0 {
				add("items", zobj{{"$ref", "#/$defs/d" + strconv.Itoa(r.IntN(4))}})
			}
		}
	}
	return dedupKeys(o)
}

// dedupKeys keeps the first of repeated keywords.
func dedupKeys(o zobj) zobj {
	var out zobj
	seen := map[string]bool{}
	for _, p := range o {
		if !seen[p.k] {
			seen[p.k] = true
			out = append(out, p)
		}
	}
	return out
}

func (g *zgen) document() string {
	root := zobj{}
	if g.draft7 {
		root = append(root, zkv{"$schema", "http://json-schema.org/draft-07/schema#"})
	} else {
		root = append(root, zkv{"$schema", "https://json-schema.org/draft/2020-12/schema"})
	}
	defs := zobj{}
	for i := range 4 {
		g.minRef = i + 1
		d := g.schema(2)
		if o, ok := d.(zobj); ok && i == 3 && !g.draft7 {
			d = append(zobj{{"$dynamicAnchor", "meta"}}, o...)
		}
		defs = append(defs, zkv{"d" + strconv.Itoa(i), d})
	}
	g.minRef = 0
	root = append(root, zkv{"$defs", defs})
	if o, ok := g.schema(3).(zobj); ok {
		root = append(root, dedupKeys(o)...)
	}
	return zstr(dedupKeys(root))
}

func (g *zgen) value(depth int) any {
	r := g.r
	k := r.IntN(10)
	if depth <= 0 && k >= 7 {
		k = r.IntN(7)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return []any{0.0, 1.0, 2.5, -3.0, 10.0, 100.0, 4.0}[r.IntN(7)]
	case 3, 4:
		return []string{"", "a", "abc", "ab@c.de", "not-email", "2020-01-01", "1.2.3.4", "b", strings.Repeat("x", 80)}[r.IntN(9)]
	case 5, 6:
		return []any{"a", 1.0, nil, true}[r.IntN(4)]
	case 7:
		var arr []any
		for range r.IntN(5) {
			arr = append(arr, g.value(depth-1))
		}
		if arr == nil {
			arr = []any{}
		}
		return arr
	default:
		o := zobj{}
		for _, n := range g.names(r.IntN(5)) {
			o = append(o, zkv{n, g.value(depth - 1)})
		}
		return o
	}
}

func zplain(v any) any {
	switch x := v.(type) {
	case zobj:
		m := map[string]any{}
		for _, p := range x {
			m[p.k] = zplain(p.v)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = zplain(e)
		}
		return out
	}
	return v
}

func zcall(f func() any) (out any) {
	defer func() {
		if p := recover(); p != nil {
			out = fmt.Sprintf("PANIC %v", p)
		}
	}()
	return f()
}

// TestDiffDump writes, to $AGENTIO_DIFF_OUT, the violations every entry
// point reports for generated schemas and instances (draft-07 and 2020-12;
// parsed, with AssertFormat, with MaxDepth 2, and built in Go), and
// counts where Validate, ValidateJSON, Decode and DecodeString disagree.
// It is a differential test: run it in two checkouts and diff the files,
//
//	AGENTIO_DIFF_OUT=/tmp/new.txt AGENTIO_DIFF_N=4000 AGENTIO_DIFF_SEED=1 go test ./schema -run TestDiffDump$
//
// (AGENTIO_DIFF_N schemas, 12 instances each). Skipped without
// AGENTIO_DIFF_OUT.
func TestDiffDump(t *testing.T) {
	outPath := os.Getenv("AGENTIO_DIFF_OUT")
	if outPath == "" {
		t.Skip("AGENTIO_DIFF_OUT not set")
	}
	nSchemas, _ := strconv.Atoi(os.Getenv("AGENTIO_DIFF_N"))
	if nSchemas == 0 {
		nSchemas = 300
	}
	seed, _ := strconv.Atoi(os.Getenv("AGENTIO_DIFF_SEED"))
	w := diffOut(t, outPath)
	g := &zgen{r: rand.New(rand.NewPCG(uint64(seed), 38))}
	disagree := 0
	for i := range nSchemas {
		g.draft7 = i%3 == 0
		doc := g.document()
		var insts []string
		for range 12 {
			insts = append(insts, zstr(g.value(4)))
		}
		fmt.Fprintf(w, "S%d %s\n", i, doc)
		type variant struct {
			name string
			mk   func() (*schema.Schema, error)
		}
		variants := []variant{
			{"parse", func() (*schema.Schema, error) { return schema.Parse([]byte(doc)) }},
			{"format", func() (*schema.Schema, error) {
				return schema.ParseWith([]byte(doc), &schema.ParseOptions{AssertFormat: true})
			}},
			{"depth2", func() (*schema.Schema, error) {
				return schema.ParseWith([]byte(doc), &schema.ParseOptions{MaxDepth: 2})
			}},
			{"go", func() (*schema.Schema, error) {
				var js jsonschema.Schema
				if err := json.Unmarshal([]byte(doc), &js); err != nil {
					return nil, err
				}
				return schema.New(&js)
			}},
		}
		for _, vr := range variants {
			s, err := vr.mk()
			if err != nil {
				fmt.Fprintf(w, "S%d %s ERR %v\n", i, vr.name, err)
				continue
			}
			for j, inst := range insts {
				res := zcall(func() any {
					var v any
					if err := json.Unmarshal([]byte(inst), &v); err != nil {
						panic(err)
					}
					a := s.Validate(v)
					b, errb := s.ValidateJSON([]byte(inst))
					_, c, errc := s.Decode([]byte(inst))
					_, d, errd := s.DecodeString(inst)
					ja, _ := json.Marshal(a)
					jb, _ := json.Marshal(b)
					jc, _ := json.Marshal(c)
					jd, _ := json.Marshal(d)
					if string(ja) != string(jb) || string(ja) != string(jc) || string(ja) != string(jd) || errb != nil || errc != nil || errd != nil {
						disagree++
						return fmt.Sprintf("DISAGREE V=%s VJ=%s D=%s DS=%s %v %v %v", ja, jb, jc, jd, errb, errc, errd)
					}
					return string(ja)
				})
				fmt.Fprintf(w, "S%d %s I%d %s => %v\n", i, vr.name, j, inst, res)
			}
		}
	}
	assert.Zero(t, disagree, "disagreements between entry points (DISAGREE in %s)", outPath)
}

// TestDiffDumpDeep writes, to $AGENTIO_DIFF_OUT, the violations of values
// nesting 30 to 110 levels, with long (> 64 bytes) and escaped keys, from
// Validate, ValidateJSON and Decode: as TestDiffDump, to diff between two
// checkouts.
func TestDiffDumpDeep(t *testing.T) {
	outPath := os.Getenv("AGENTIO_DIFF_OUT")
	if outPath == "" {
		t.Skip("AGENTIO_DIFF_OUT not set")
	}
	w := diffOut(t, outPath)
	long := strings.Repeat("k", 70)
	esc := "long" + strings.Repeat("é/~", 30)
	docs := []string{
		`{"$defs":{"t":{"type":["object","integer"],"additionalProperties":{"$ref":"#/$defs/t"},"properties":{"` + long + `":{"$ref":"#/$defs/t"},"a/b":{"$ref":"#/$defs/t"},"arr":{"type":"array","items":{"$ref":"#/$defs/t"}}}}},"$ref":"#/$defs/t"}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"t":{"type":["object","integer"],"additionalProperties":{"$ref":"#/definitions/t"},"properties":{"` + long + `":{"$ref":"#/definitions/t"},"arr":{"type":"array","items":[{"$ref":"#/definitions/t"}],"additionalItems":{"$ref":"#/definitions/t"}}}}},"$ref":"#/definitions/t"}`,
		`{"$defs":{"t":{"type":["object","integer"],"properties":{"x":{"$ref":"#/$defs/u"}},"unevaluatedProperties":{"$ref":"#/$defs/t"}},"u":{"$ref":"#/$defs/t"}},"$ref":"#/$defs/t"}`,
		`{"$defs":{"t":{"anyOf":[{"type":"integer"},{"type":"array","prefixItems":[{"$ref":"#/$defs/t"}],"items":{"$ref":"#/$defs/t"}}]}},"$ref":"#/$defs/t"}`,
	}
	r := rand.New(rand.NewPCG(7, 38))
	keys := []string{long, esc, "a/b", "arr", "x", "~", "", "it's"}
	for di, doc := range docs {
		for oi, opts := range []*schema.ParseOptions{nil, {MaxDepth: 300}, {MaxDepth: 40}} {
			s, err := schema.ParseWith([]byte(doc), opts)
			if err != nil {
				fmt.Fprintf(w, "D%d ERR %v\n", di, err)
				continue
			}
			for k := range 200 {
				depth := 30 + r.IntN(80)
				var v any = []any{"leaf", 1.0}[r.IntN(2)]
				for range depth {
					if r.IntN(3) == 0 {
						arr := []any{1.0}
						if r.IntN(2) == 0 {
							arr = append(arr, "bad")
						}
						v = append(arr, v)
					} else {
						m := map[string]any{keys[r.IntN(len(keys))]: v}
						if r.IntN(3) == 0 {
							m[keys[r.IntN(len(keys))]] = "bad"
						}
						v = m
					}
				}
				data, _ := json.Marshal(v)
				res := zcall(func() any {
					a := s.Validate(zplain(v))
					b, _ := s.ValidateJSON(data)
					_, c, _ := s.Decode(data)
					ja, _ := json.Marshal(a)
					jb, _ := json.Marshal(b)
					jc, _ := json.Marshal(c)
					return string(ja) + " | " + string(jb) + " | " + string(jc)
				})
				fmt.Fprintf(w, "D%d O%d K%d %v\n", di, oi, k, res)
			}
		}
	}
}

// diffOut creates the dump file at path, written through the returned
// writer and flushed and closed when the test ends.
func diffOut(t *testing.T, path string) *bufio.Writer {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	t.Cleanup(func() {
		if err := w.Flush(); err != nil {
			t.Error(err)
		}
		if err := f.Close(); err != nil {
			t.Error(err)
		}
	})
	return w
}
