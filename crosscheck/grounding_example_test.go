package crosscheck_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/agentio/agentio/crosscheck"
)

// A summary must quote its contract, cite tickets it was given and fill in
// real answers: the fabricated quote, the invented ticket and the "TBD"
// are each reported with their path.
func ExampleInvariants_CheckGrounded() {
	is, err := crosscheck.CompileInvariants(
		crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.findings[*].evidence", Parameter: "contract"},
		crosscheck.Invariant{Kind: crosscheck.ValueInInput, Refs: "$.findings[*].ticket", Targets: "$.tickets[*]"},
		crosscheck.Invariant{Kind: crosscheck.NotPlaceholder, Values: "$.owner"},
	)
	if err != nil {
		log.Fatal(err)
	}
	g, err := is.Grounds(crosscheck.Inputs{
		Parameters: map[string]any{
			"contract": "The supplier shall deliver within 30 days. Late delivery incurs a 2% fee per week.",
			"tickets":  []any{"T-1", "T-2"},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	output := map[string]any{
		"owner": "TBD",
		"findings": []any{
			map[string]any{"evidence": "late   delivery incurs a 2% fee", "ticket": "T-1"},
			map[string]any{"evidence": "penalties are waived in December", "ticket": "T-9"},
		},
	}
	for _, v := range is.CheckGrounded(output, g) {
		fmt.Println(v.Path)
	}
	// Output:
	// $.findings[1].evidence
	// $.findings[1].ticket
	// $.owner
}

// Grounds checks, before any output, that the inputs hold what the
// invariants read: here the contract was not given, a configuration error
// rather than a fault of the model's answer.
func ExampleInvariants_Grounds() {
	is, err := crosscheck.CompileInvariants(
		crosscheck.Invariant{Name: "evidence", Kind: crosscheck.QuoteInInput, Values: "$.evidence", Parameter: "contract"},
	)
	if err != nil {
		log.Fatal(err)
	}
	_, err = is.Grounds(crosscheck.Inputs{Text: "Review it.", Parameters: map[string]any{"prompt": "Review it."}})
	fmt.Println(errors.Is(err, crosscheck.ErrMissingInput))
	fmt.Println(err)
	// Output:
	// true
	// crosscheck: invariant "evidence" reads parameter "contract", which is not among the inputs
}

// CheckPart judges one part of an output as it streams in, so a fabricated
// quote can stop a reply before the rest of it arrives.
func ExampleInvariants_CheckPart() {
	is, err := crosscheck.CompileInvariants(
		crosscheck.Invariant{Kind: crosscheck.QuoteInInput, Values: "$.quotes[*]"},
	)
	if err != nil {
		log.Fatal(err)
	}
	g := crosscheck.NewGrounds(crosscheck.Inputs{Text: "Revenue grew 12% in the third quarter."})
	fmt.Println(len(is.CheckPart("$.quotes[0]", "revenue grew 12%", g)))
	fmt.Println(len(is.CheckPart("$.quotes[1]", "revenue fell", g)))
	fmt.Println(len(is.CheckPart("$.title", "revenue fell", g)))
	// Output:
	// 0
	// 1
	// 0
}
