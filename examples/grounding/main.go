// Command grounding shows answers that are valid against their schema and
// still invented, caught by the grounding invariants of crosscheck. The
// reader agent's first answer quotes a clause the contract does not hold,
// names a ticket it was never given and leaves the owner as "John Doe";
// each is a violation, the re-ask says what to do instead, and the second
// answer quotes the contract (with an ellipsis) and passes. Its "risk" of
// "N/A" is left alone: the schema's enum allows it.
//
//	go run ./examples/grounding
//
// It runs offline against a scripted provider.
package main

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/provider/providertest"
)

//go:embed reader.agent.json
var readerAgent []byte

// contract is the input the answers must quote.
const contract = `7.2 The Supplier shall not be liable for any indirect or consequential loss, including loss of profit, howsoever arising.
7.3 The Supplier's total liability under this Agreement shall not exceed the fees paid in the twelve (12) months before the claim.
8.1 Either party may terminate this Agreement on ninety (90) days' written notice.`

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "grounding:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	reader, err := blueprint.Parse(readerAgent)
	if err != nil {
		return err
	}
	params := map[string]any{
		"prompt":   "Is the supplier's liability capped?",
		"contract": contract,
		"tickets":  []any{"LEGAL-204", "LEGAL-311"},
	}
	p := providertest.New(
		// Schema-valid, and invented: the quote, the ticket and the owner.
		providertest.Text(`{"answer": "Yes, liability is capped at the fees of the last year.",
			"evidence": ["The Supplier's liability is capped at twelve months of fees"],
			"ticket": "LEGAL-999", "owner": "John Doe", "risk": "N/A"}`),
		providertest.Text(`{"answer": "Yes, liability is capped at the fees of the last year.",
			"evidence": ["The Supplier’s total liability … shall not exceed the fees paid in the twelve (12) months before the claim"],
			"ticket": "LEGAL-204", "owner": "Legal team", "risk": "N/A"}`),
	)
	r, err := blueprint.Run(ctx, reader, p, params, blueprint.RunSpec{})
	if err != nil {
		return err
	}
	for _, a := range r.Enforcement().Attempts {
		fmt.Fprintf(w, "attempt %d: %s\n", a.Number, a.Outcome)
		for _, v := range a.Violations {
			fmt.Fprintf(w, "  %s\n", v)
		}
	}
	msgs := p.Requests()[1].Messages
	fmt.Fprintf(w, "\nthe re-ask:\n%s\n", msgs[len(msgs)-1].Content)
	fmt.Fprintf(w, "\nfinal answer:\n%s\n", r.Data())
	return nil
}
