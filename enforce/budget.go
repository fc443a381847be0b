package enforce

import (
	"fmt"

	"github.com/agentio/agentio/provider"
)

// bytesPerToken is the size of a token assumed by the token budget. Common
// tokenizers average about 4 bytes a token on English prose and nearer 3 on
// JSON and code; 3 errs towards counting too many, so that the budget holds.
const bytesPerToken = 3

// perMessageTokens is the framing overhead estimated per message.
const perMessageTokens = 4

// estimateInput estimates the input tokens of r from its size.
func estimateInput(r *provider.Request) int {
	n := len(r.System)
	for _, m := range r.Messages {
		n += len(m.Content) + perMessageTokens*bytesPerToken
		for _, tc := range m.ToolCalls {
			n += len(tc.ID) + len(tc.Name) + len(tc.Arguments)
		}
	}
	if r.Output != nil {
		n += len(r.Output.Name) + len(r.Output.Schema)
	}
	for _, t := range r.Tools {
		n += len(t.Name) + len(t.Description) + len(t.InputSchema)
	}
	return (n + bytesPerToken - 1) / bytesPerToken
}

// withinBudget returns the request to send within the token budget: r, or
// a copy with MaxTokens lowered to what the budget leaves after r's
// estimated input. It fails with ErrTokenBudget when r's input alone does
// not fit.
func (e *Enforcer) withinBudget(st State, r *provider.Request) (*provider.Request, error) {
	if e.cfg.tokenBudget == 0 {
		return r, nil
	}
	left := e.cfg.tokenBudget - tokens(st.Usage)
	in := estimateInput(r)
	if in >= left {
		return nil, fmt.Errorf("%w: attempt %d needs about %d input tokens, %d of %d left", ErrTokenBudget, st.Attempts+1, in, max(left, 0), e.cfg.tokenBudget)
	}
	if room := left - in; r.MaxTokens == 0 || r.MaxTokens > room {
		c := *r
		c.MaxTokens = room
		return &c, nil
	}
	return r, nil
}
