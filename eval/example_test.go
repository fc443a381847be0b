package eval_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentio/agentio/eval"
	"github.com/agentio/agentio/provider/providertest"
)

func ExampleReadDataset() {
	dataset := `{"id": "sum", "schema": {"type": "object", "required": ["total"]}, "prompt": "Add 2 and 3.", "expected": {"total": 5}}
{"id": "bad", "schema": {"type": "strin"}, "prompt": "x"}`
	_, err := eval.ReadDataset(strings.NewReader(dataset))
	var de *eval.DatasetError
	if errors.As(err, &de) {
		fmt.Printf("line %d, field %q\n", de.Line, de.Field)
	}
	cases, _ := eval.ReadDataset(strings.NewReader(strings.Split(dataset, "\n")[0]))
	fmt.Println(len(cases), cases[0].ID, string(cases[0].Expected))
	// Output:
	// line 2, field "schema"
	// 1 sum {"total": 5}
}

func ExampleRun() {
	cases := []eval.Case{{
		ID:       "sum",
		Schema:   []byte(`{"type": "object", "properties": {"total": {"type": "integer"}}, "required": ["total"]}`),
		Prompt:   "Add 2 and 3.",
		Expected: []byte(`{"total": 5}`),
	}}
	// A model that gets it right at once, and one that needs a re-ask.
	a := providertest.New(providertest.Text(`{"total": 5}`))
	b := providertest.New(providertest.Text(`{"total": "five"}`), providertest.Text(`{"total": 5}`))
	report, err := eval.Run(context.Background(), cases, []eval.Target{{Name: "model-a", Provider: a}, {Name: "model-b", Provider: b}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range report.Targets {
		fmt.Printf("%s: valid first %.0f%%, valid %.0f%%, calls/valid %.1f, agreement %.0f%%, violations %v\n",
			t.Name, 100*t.ValidFirstRate, 100*t.ValidRate, t.CallsPerValid, 100*t.AgreementRate, t.Violations)
	}
	// Output:
	// model-a: valid first 100%, valid 100%, calls/valid 1.0, agreement 100%, violations map[]
	// model-b: valid first 0%, valid 100%, calls/valid 2.0, agreement 100%, violations map[type $.total:1]
}

func ExampleCompare() {
	// report builds a report of n runs of "model-a", first valid on the
	// first call, the others after one re-ask.
	report := func(first, n int) *eval.Report {
		results := make([]eval.CaseResult, n)
		for i := range results {
			results[i] = eval.CaseResult{Case: fmt.Sprint(i), Target: "model-a", Valid: true, ValidFirst: i < first, Calls: 1}
			if i >= first {
				results[i].Calls, results[i].Reasks = 2, 1
			}
		}
		return eval.NewReport(results)
	}
	baseline := report(460, 500) // 92%
	// 91%, 80%, and 85% on a sample of 20 cases: within chance.
	for _, current := range []*eval.Report{report(455, 500), report(400, 500), report(17, 20)} {
		v, err := eval.Compare(baseline, current, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("regressed:", v.Regressed)
		for _, r := range v.Targets[0].Reasons {
			fmt.Println("-", r)
		}
	}
	// Output:
	// regressed: false
	// regressed: true
	// - valid on first call fell: 80.0% of 500 cases against 92.0% of 500, difference -12.0 points (95% interval -16.4 to -7.6)
	// - calls per valid output rose: 1.20 (600 calls, 500 valid) against 1.08 (540 calls, 500 valid); valid outputs per call 83.3% against 92.6%, difference -9.3 points (95% interval -13.1 to -5.4)
	// regressed: false
}

func ExampleReport_HTML() {
	report := eval.NewReport([]eval.CaseResult{
		{Case: "sum", Target: "model-a", Valid: true, ValidFirst: true, Calls: 1},
		{Case: "sum", Target: "model-b", Valid: true, Reasks: 1, Calls: 2,
			Violations: []eval.AttemptViolation{{Attempt: 1, Keyword: "type", Path: "$.total"}}},
	})
	var page strings.Builder
	if err := report.HTML(&page); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.SplitN(page.String(), "\n", 2)[0])
	for _, line := range strings.Split(page.String(), "\n") {
		if strings.Contains(line, `data-metric="calls_per_valid"`) && strings.HasPrefix(line, "<td") {
			fmt.Println(line)
		}
	}
	// Output:
	// <!DOCTYPE html>
	// <td class="n" data-target="model-a" data-metric="calls_per_valid" data-value="1">1.00</td>
	// <td class="n" data-target="model-b" data-metric="calls_per_valid" data-value="2">2.00</td>
}

// HTMLWith adds the comparison with a baseline to the page, and leaves out
// latency for a run replayed from recordings.
func ExampleReport_HTMLWith() {
	report := func(first int) *eval.Report {
		results := make([]eval.CaseResult, 200)
		for i := range results {
			results[i] = eval.CaseResult{Case: fmt.Sprint(i), Target: "model-a", Valid: true, ValidFirst: i < first, Calls: 1}
		}
		return eval.NewReport(results)
	}
	baseline, current := report(184), report(150) // 92%, 75%
	v, err := eval.Compare(baseline, current, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	var page strings.Builder
	if err := current.HTMLWith(&page, &eval.HTMLOptions{OmitLatency: true, Comparison: &v}); err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(page.String(), "\n") {
		if strings.HasPrefix(line, "<h2>Against") || strings.Contains(line, `class="bad">regressed`) {
			fmt.Println(line)
		}
	}
	fmt.Println(strings.Contains(page.String(), "Slowest runs"))
	// Output:
	// <h2>Against the baseline</h2>
	// <td class="bad">regressed</td>
	// false
}
