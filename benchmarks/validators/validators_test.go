package validators

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	googlejs "github.com/google/jsonschema-go/jsonschema"
	kaptinlin "github.com/kaptinlin/jsonschema"
	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xeipuuv/gojsonschema"

	"github.com/agentio/agentio/schema"
)

// A validator compiles a schema and returns a check of JSON bytes.
type validator struct {
	name    string
	compile func(schema []byte) (check func(doc []byte) bool, err error)
}

var validators = []validator{
	{"agentio", func(src []byte) (func([]byte) bool, error) {
		s, err := schema.Parse(src)
		if err != nil {
			return nil, err
		}
		return func(doc []byte) bool {
			vs, err := s.ValidateJSON(doc)
			return err == nil && len(vs) == 0
		}, nil
	}},
	// agentio.Decode also returns the decoded value, as the checks of
	// jsonschema-go and santhosh-tekuri build one to validate it.
	{"agentio.Decode", func(src []byte) (func([]byte) bool, error) {
		s, err := schema.Parse(src)
		if err != nil {
			return nil, err
		}
		return func(doc []byte) bool {
			_, vs, err := s.Decode(doc)
			return err == nil && len(vs) == 0
		}, nil
	}},
	{"jsonschema-go", func(src []byte) (func([]byte) bool, error) {
		var js googlejs.Schema
		if err := json.Unmarshal(src, &js); err != nil {
			return nil, err
		}
		rs, err := js.Resolve(nil)
		if err != nil {
			return nil, err
		}
		return func(doc []byte) bool {
			var v any
			return json.Unmarshal(doc, &v) == nil && rs.Validate(v) == nil
		}, nil
	}},
	{"santhosh-tekuri", func(src []byte) (func([]byte) bool, error) {
		doc, err := santhosh.UnmarshalJSON(bytes.NewReader(src))
		if err != nil {
			return nil, err
		}
		c := santhosh.NewCompiler()
		if err := c.AddResource("file:///schema.json", doc); err != nil {
			return nil, err
		}
		s, err := c.Compile("file:///schema.json")
		if err != nil {
			return nil, err
		}
		return func(b []byte) bool {
			v, err := santhosh.UnmarshalJSON(bytes.NewReader(b))
			return err == nil && s.Validate(v) == nil
		}, nil
	}},
	{"kaptinlin", func(src []byte) (func([]byte) bool, error) {
		s, err := kaptinlin.NewCompiler().Compile(src)
		if err != nil {
			return nil, err
		}
		return func(doc []byte) bool { return s.ValidateJSON(doc).IsValid() }, nil
	}},
	{"gojsonschema", func(src []byte) (func([]byte) bool, error) {
		s, err := gojsonschema.NewSchema(gojsonschema.NewBytesLoader(src))
		if err != nil {
			return nil, err
		}
		return func(doc []byte) bool {
			r, err := s.Validate(gojsonschema.NewBytesLoader(doc))
			return err == nil && r.Valid()
		}, nil
	}},
}

// compileAll compiles src with every validator; a validator that refuses
// it (or panics on it) has a nil check.
func compileAll(src []byte) []func([]byte) bool {
	checks := make([]func([]byte) bool, len(validators))
	for i, v := range validators {
		func() {
			defer func() { _ = recover() }() // a peer's panic is its refusal
			checks[i], _ = v.compile(src)
		}()
	}
	return checks
}

// safe runs check, reading a panic as "invalid".
func safe(check func([]byte) bool, doc []byte) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return check(doc)
}

// reviewSchema is the code-review output of enforce's benchmarks.
const reviewSchema = `{"type":"object","required":["findings","counts","summary"],"properties":{
  "findings":{"type":"array","items":{"type":"object","required":["severity","file","line"],"properties":{
    "severity":{"type":"string","enum":["blocker","major","minor"]},"file":{"type":"string"},"line":{"type":"integer","minimum":1}}}},
  "counts":{"type":"object","required":["blocker","major","minor"],"properties":{
    "blocker":{"type":"integer","minimum":0},"major":{"type":"integer","minimum":0},"minor":{"type":"integer","minimum":0}}},
  "summary":{"type":"string","maxLength":500}}}`

// review returns a valid review of about size bytes.
func review(size int) []byte {
	var b strings.Builder
	b.WriteString(`{"findings":[`)
	n := 0
	for b.Len() < size-120 {
		if n > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"severity":%q,"file":"internal/pkg%03d/file_%d.go","line":%d}`, []string{"blocker", "major", "minor"}[n%3], n%997, n, n+1)
		n++
	}
	fmt.Fprintf(&b, `],"counts":{"blocker":%d,"major":%d,"minor":%d},"summary":"%d findings"}`, (n+2)/3, (n+1)/3, n/3, n)
	return []byte(b.String())
}

// scanSchema and scan are the security-scan result of the schema
// package's benchmarks (definitions, $ref, enums, patterns, bounds, closed
// objects) and a valid instance of about 11 KB.
const scanSchema = `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
  "required": ["scanner", "summary", "vulnerabilities"], "additionalProperties": false,
  "properties": {"scanner": {"type": "string", "minLength": 1}, "summary": {"type": "string", "maxLength": 2000},
    "score": {"type": "number", "minimum": 0, "maximum": 10},
    "vulnerabilities": {"type": "array", "maxItems": 500, "items": {"$ref": "#/definitions/vulnerability"}}},
  "definitions": {"vulnerability": {"type": "object", "required": ["id", "severity", "description"], "additionalProperties": false,
    "properties": {"id": {"type": "string", "pattern": "^VULN-[0-9]{4}$"}, "severity": {"type": "string", "enum": ["low", "medium", "high", "critical"]},
      "description": {"type": "string", "minLength": 10}, "cvss": {"type": ["number", "null"], "minimum": 0, "maximum": 10},
      "affected_files": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}, "fixed": {"type": "boolean"}}}}}`

func scan() []byte {
	var vs []string
	for i := range 36 {
		vs = append(vs, fmt.Sprintf(`{"id":"VULN-%04d","severity":%q,"description":"Unsanitised input reaches a shell command in handler %d.","cvss":%d.5,"affected_files":["cmd/server/main.go","internal/handler/h%d.go"],"fixed":%v}`,
			i, []string{"low", "medium", "high", "critical"}[i%4], i, i%10, i, i%2 == 0))
	}
	return []byte(`{"scanner":"agentio-bench","summary":"` + strings.Repeat("Findings from the scan. ", 20) + `","score":7.5,"vulnerabilities":[` + strings.Join(vs, ",") + `]}`)
}

// BenchmarkReply validates valid replies with each validator, json.Valid
// beside them: the 11 KB security scan of the schema package's benchmarks,
// and code reviews of 100 KB (enforce's BenchmarkCheck) and 1 MB. ns/op
// and MB/s compare within a reply.
func BenchmarkReply(b *testing.B) {
	type reply struct {
		name   string
		schema string
		doc    []byte
	}
	for _, rp := range []reply{
		{"scan_11KB", scanSchema, scan()},
		{"review_100KB", reviewSchema, review(100 << 10)},
		{"review_1MB", reviewSchema, review(1 << 20)},
	} {
		doc, name := rp.doc, rp.name
		b.Run(name+"/json.Valid", func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				json.Valid(doc)
			}
		})
		for _, v := range validators {
			b.Run(name+"/"+v.name, func(b *testing.B) {
				check, err := v.compile([]byte(rp.schema))
				require.NoError(b, err)
				require.True(b, check(doc), "the reply must be valid")
				b.SetBytes(int64(len(doc)))
				b.ReportAllocs()
				for b.Loop() {
					check(doc)
				}
			})
		}
	}
}

// A corpusCase is one labelled-valid instance of the corpus with the
// checks of every validator for its schema.
type corpusCase struct {
	id     string
	doc    []byte
	checks []func([]byte) bool
}

// corpus reads the real-world corpus and returns its labelled-valid
// instances, each with its schema compiled by every validator.
func corpus(tb testing.TB) []corpusCase {
	tb.Helper()
	path := filepath.Join("..", "..", "..", "shared", "corpora", "schema_tests.sample.jsonl")
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		msg := "the corpus is not here (looked for " + path + "): it comes with the project's shared data, beside the repository"
		if os.Getenv("AGENTIO_CONFORMANCE") == "required" {
			tb.Fatal(msg + "; AGENTIO_CONFORMANCE=required makes this a failure")
		}
		tb.Skip(msg + "; set AGENTIO_CONFORMANCE=required to make this a failure")
	}
	require.NoError(tb, err)
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var rec struct {
			ID     string          `json:"id"`
			Schema json.RawMessage `json:"schema"`
			Tests  []struct {
				Data  json.RawMessage `json:"data"`
				Valid bool            `json:"valid"`
			} `json:"tests"`
		}
		require.NoError(tb, json.Unmarshal(sc.Bytes(), &rec))
		checks := compileAll(rec.Schema)
		for i, tc := range rec.Tests {
			if tc.Valid {
				out = append(out, corpusCase{fmt.Sprintf("%s[%d]", rec.ID, i), tc.Data, checks})
			}
		}
	}
	require.NoError(tb, sc.Err())
	return out
}

// TestPeersCorpus compares verdicts on the corpus's labelled-valid
// instances: for each peer, on every instance whose schema both it and
// agentio compile, the verdicts must be the same, but for the differences
// listed with their reasons in testdata/peer-disagreements.tsv (each of
// which must still occur). jsonschema-go, applied here to documents as
// they are written, is only counted: where it reads a document as written
// (the root module's TestCorpusAgreement says which), agentio agrees with
// it on every instance.
func TestPeersCorpus(t *testing.T) {
	if raceBuild {
		t.Skip("compiles the corpus five times: run it without -race (go test -run Peers)")
	}
	cases := corpus(t)
	listed := readListed(t)
	seen := map[string]bool{}
	for i, v := range validators[1:] {
		i++
		both, differ := 0, 0
		for _, c := range cases {
			if c.checks[0] == nil || c.checks[i] == nil {
				continue
			}
			both++
			ours, theirs := safe(c.checks[0], c.doc), safe(c.checks[i], c.doc)
			if ours == theirs {
				continue
			}
			differ++
			if v.name == "jsonschema-go" {
				continue
			}
			key := c.id + "\t" + v.name
			seen[key] = true
			assert.Contains(t, listed, key, "%s: %s says valid=%v, agentio %v, and it is not listed: %.300s", c.id, v.name, theirs, ours, c.doc)
		}
		t.Logf("%s: %d instances both compile, verdicts differ on %d", v.name, both, differ)
	}
	for key := range listed {
		assert.True(t, seen[key], "%q is listed in testdata/peer-disagreements.tsv but agrees now: remove it", key)
	}
}

// readListed reads testdata/peer-disagreements.tsv into "id\tpeer" keys.
func readListed(t *testing.T) map[string]bool {
	data, err := os.ReadFile(filepath.Join("testdata", "peer-disagreements.tsv"))
	require.NoError(t, err)
	out := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		require.Len(t, f, 3, "want id, peer, reason: %q", line)
		require.NotEmpty(t, f[2], "no reason: %q", line)
		out[f[0]+"\t"+f[1]] = true
	}
	return out
}

// BenchmarkCorpus validates every labelled-valid instance of the corpus
// whose schema all the validators compile (one op is the whole set), each
// validator on the same bytes.
func BenchmarkCorpus(b *testing.B) {
	all := corpus(b)
	var cases []corpusCase
	size := 0
	for _, c := range all {
		if !slicesAll(c.checks) {
			continue
		}
		cases = append(cases, c)
		size += len(c.doc)
	}
	b.Logf("%d of the corpus's %d valid instances have a schema every validator compiles (%d bytes)", len(cases), len(all), size)
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, c := range cases {
				json.Valid(c.doc)
			}
		}
	})
	for i, v := range validators {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range cases {
					safe(c.checks[i], c.doc)
				}
			}
		})
	}
}

// BenchmarkCorpusRatio measures the corpus benchmark's target as ratios:
// each iteration validates the set with agentio's ValidateJSON and then
// with one peer, so that the shared machine's drift falls on both alike.
// It reports x-agentio, the peer's summed time over agentio's. It leans
// against agentio: each of its passes follows a peer's, whose garbage
// (tens of megabytes) the collector is still marking and which has
// evicted the documents from the caches, where BenchmarkCorpus runs each
// validator alone.
func BenchmarkCorpusRatio(b *testing.B) {
	var cases []corpusCase
	for _, c := range corpus(b) {
		if slicesAll(c.checks) {
			cases = append(cases, c)
		}
	}
	run := func(i int) time.Duration {
		start := time.Now()
		for _, c := range cases {
			safe(c.checks[i], c.doc)
		}
		return time.Since(start)
	}
	for i, v := range validators {
		if i == 0 {
			continue
		}
		b.Run(v.name, func(b *testing.B) {
			var ours, theirs time.Duration
			for b.Loop() {
				ours += run(0)
				theirs += run(i)
			}
			b.ReportMetric(float64(theirs)/float64(ours), "x-agentio")
		})
	}
}

func slicesAll(checks []func([]byte) bool) bool {
	for _, c := range checks {
		if c == nil {
			return false
		}
	}
	return true
}
