package crosscheck_test

import (
	"fmt"
	"log"

	"github.com/agentio/agentio/crosscheck"
)

// Two reviewers rate the same line differently: the disagreement is
// reported as data, with what each of them said and where.
func ExampleRules_Contradictions() {
	rs, err := crosscheck.Compile(crosscheck.Rule{
		Name:    "severity",
		Items:   "$.findings[*]",
		Key:     []string{"file", "line"},
		Compare: []string{"severity"},
	})
	if err != nil {
		log.Fatal(err)
	}
	security := map[string]any{"findings": []any{
		map[string]any{"file": "auth.go", "line": 42.0, "severity": "high"},
	}}
	style := map[string]any{"findings": []any{
		map[string]any{"file": "main.go", "line": 7.0, "severity": "low"},
		map[string]any{"file": "auth.go", "line": 42.0, "severity": "low"},
	}}
	for _, c := range rs.Contradictions(
		crosscheck.Output{Name: "security", Value: security},
		crosscheck.Output{Name: "style", Value: style},
	) {
		fmt.Println(c.Kind, c.Key["file"], c.Field)
		for _, cl := range c.Claims {
			fmt.Println(" ", cl.Output, cl.Path, cl.Value)
		}
	}
	// Output:
	// conflict auth.go severity
	//   security $.findings[0] high
	//   style $.findings[1] low
}

// Annotate hands the contradictions to the next agent as part of its
// input; it never stops a run.
func ExampleAnnotate() {
	in := map[string]any{"diff": "..."}
	out := crosscheck.Annotate(in, nil)
	fmt.Println(len(in), len(out), out[crosscheck.AnnotationKey])
	// Output:
	// 1 2 []
}

// An invariant states what a schema cannot: here, that the counts agree
// with the findings listed.
func ExampleInvariants_Check() {
	is, err := crosscheck.CompileInvariants(crosscheck.Invariant{
		Kind: crosscheck.CountEquals, Counts: "$.counts", Items: "$.findings[*]", Field: "severity",
	})
	if err != nil {
		log.Fatal(err)
	}
	output := map[string]any{
		"counts": map[string]any{"high": 2.0, "low": 1.0},
		"findings": []any{
			map[string]any{"severity": "high"},
			map[string]any{"severity": "low"},
		},
	}
	for _, v := range is.Check(output) {
		fmt.Println(v.Path)
	}
	// Output:
	// $.counts.high
}

// Normalize is the comparison quotes are checked with: case, white space,
// quotation marks and dashes do not count.
func ExampleNormalize() {
	fmt.Println(crosscheck.Normalize("“Late   delivery” — a 2% FEE") == crosscheck.Normalize(`"late delivery" - a 2% fee`))
	fmt.Printf("%q\n", crosscheck.QuoteParts("the supplier shall … within 30 days"))
	// Output:
	// true
	// ["the supplier shall" "within 30 days"]
}
