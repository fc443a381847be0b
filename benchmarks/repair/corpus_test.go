package repair

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/kaptinlin/jsonrepair"

	"github.com/agentio/agentio/extract"
)

// corpusFile is where the shared repair corpus lies, from this module's
// directory: ../shared/corpora beside the repository's root.
var corpusFile = filepath.Join("..", "..", "..", "shared", "corpora", "repair.jsonl")

// envRequired names the environment variable that makes a missing corpus
// a failure (AGENTIO_CONFORMANCE=required), as in the root module's tests.
const envRequired = "AGENTIO_CONFORMANCE"

// corpusCase is one record of repair.jsonl, as far as judging needs it.
type corpusCase struct {
	ID            string          `json:"id"`
	Source        string          `json:"source"`
	Input         string          `json:"input"`
	InputB64      string          `json:"input_b64"`
	Expected      json.RawMessage `json:"expected"`
	ExpectFailure bool            `json:"expect_failure"`
	Category      string          `json:"category"`
	Consensus     int             `json:"consensus"`
	Options       json.RawMessage `json:"options"`
}

// loadCorpus reads the corpus, leaving out the cases that need a schema
// or a target type, or ends t when the corpus is not there: it skips, or
// fails with AGENTIO_CONFORMANCE=required.
func loadCorpus(t *testing.T) []corpusCase {
	t.Helper()
	f, err := os.Open(corpusFile)
	if os.IsNotExist(err) {
		abs, _ := filepath.Abs(corpusFile)
		msg := fmt.Sprintf("the corpus repair.jsonl is not here (looked in %s): it comes with the project's shared data, beside the repository", abs)
		if os.Getenv(envRequired) == "required" {
			t.Fatalf("%s; %s=required makes this a failure", msg, envRequired)
		}
		t.Skipf("%s; set %s=required to make this a failure", msg, envRequired)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		if len(c.Options) > 0 && string(c.Options) != "null" {
			continue // needs a schema or a target type
		}
		if c.InputB64 != "" {
			b, err := base64.StdEncoding.DecodeString(c.InputB64)
			if err != nil {
				t.Fatalf("%s: %v", c.ID, err)
			}
			c.Input = string(b)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// A verdict is how one repairer did on one case.
type verdict struct {
	pass  bool // the expected value, or an error where one is expected
	wrong bool // a value returned, and not the expected one
}

// judge judges a repairer's answer (out, err) to c.
func judge(c corpusCase, out []byte, err error) verdict {
	if c.ExpectFailure {
		return verdict{pass: err != nil, wrong: err == nil}
	}
	if err != nil {
		return verdict{}
	}
	var want, have any
	if json.Unmarshal(c.Expected, &want) != nil || json.Unmarshal(out, &have) != nil || !reflect.DeepEqual(want, have) {
		return verdict{wrong: true}
	}
	return verdict{pass: true}
}

// repairers are the two measured, each answering a reply with JSON or an
// error.
var repairers = []struct {
	name   string
	repair func(string) ([]byte, error)
}{
	{"agentio", func(s string) ([]byte, error) {
		c, err := extract.JSON(s, extract.WithRepair())
		return c.JSON, err
	}},
	{"kaptinlin", func(s string) ([]byte, error) {
		out, err := jsonrepair.Repair(s)
		return []byte(out), err
	}},
}

// tally counts one repairer's verdicts over a group of cases.
type tally struct{ pass, wrong, total int }

func (t *tally) add(v verdict) {
	t.total++
	if v.pass {
		t.pass++
	}
	if v.wrong {
		t.wrong++
	}
}

func (t tally) share() float64 { return 100 * float64(t.pass) / float64(max(t.total, 1)) }

// TestCorpusSideBySide runs agentio's repair and kaptinlin/jsonrepair over
// every case of the corpus and logs, per category, per source suite, for
// the cases three or more reference repairers agree on and for all, each
// one's pass rate and its count of wrong values.
func TestCorpusSideBySide(t *testing.T) {
	cases := loadCorpus(t)
	groups := map[string][]tally{} // group -> one tally per repairer
	add := func(group string, i int, v verdict) {
		g := groups[group]
		if g == nil {
			g = make([]tally, len(repairers))
			groups[group] = g
		}
		g[i].add(v)
	}
	for _, c := range cases {
		for i, r := range repairers {
			out, err := r.repair(c.Input)
			v := judge(c, out, err)
			add(c.Category, i, v)
			add("suite "+c.Source, i, v)
			add("~all", i, v)
			if c.Consensus >= 3 {
				add("~agreed (consensus>=3)", i, v)
			}
		}
	}
	names := make([]string, 0, len(groups))
	for k := range groups {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "| %-38s | %4s |", "group", "n")
	for _, r := range repairers {
		fmt.Fprintf(&b, " %9s %% | %9s wrong |", r.name, r.name)
	}
	b.WriteString("\n|---|---:|")
	for range repairers {
		b.WriteString("---:|---:|")
	}
	b.WriteByte('\n')
	for _, k := range names {
		g := groups[k]
		fmt.Fprintf(&b, "| %-38s | %4d |", strings.TrimPrefix(k, "~"), g[0].total)
		for _, tl := range g {
			fmt.Fprintf(&b, " %10.1f%% | %15d |", tl.share(), tl.wrong)
		}
		b.WriteByte('\n')
	}
	t.Logf("repair over repair.jsonl (%d cases), agentio's extract.JSON with WithRepair beside kaptinlin/jsonrepair.Repair:\n%s", len(cases), b.String())
	if w := groups["~all"][0].wrong; w > maxWrong {
		t.Errorf("agentio returns %d wrong values, more than %d", w, maxWrong)
	}
}

// maxWrong is the most wrong values agentio may return over the corpus.
const maxWrong = 99
