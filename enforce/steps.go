package enforce

import "github.com/agentio/agentio/provider"

// NextRequest returns the request of the attempt after the failed verdict
// v, built the way [Run] builds it: v.Next(sent) under [WithFullHistory],
// v.Next(first) otherwise. first is the run's first request (from
// [Enforcer.Start]) and sent the request of the attempt v judged. Neither is
// modified; the result shares their unchanged parts, so treat all three as
// read-only. Send the result through [Enforcer.WithinBudget].
func (e *Enforcer) NextRequest(v Verdict, first, sent *provider.Request) *provider.Request {
	if e.cfg.fullHistory {
		return v.Next(sent)
	}
	return v.Next(first)
}

// WithinBudget returns the request to send as attempt st.Attempts+1: next,
// or under [WithTokenBudget] a copy of it with MaxTokens lowered to what
// the budget leaves after next's estimated input, as [Run] does before
// every call. last is the verdict on the attempt before (the zero Verdict
// for the first attempt).
//
// When next's input alone does not fit, it returns the error Run ends
// with: for the first attempt an error matching [ErrTokenBudget]; after a
// failed attempt a [*ValidationError] carrying last's violations and
// output, matching ErrTokenBudget and last's cause, whose Attempts are nil
// (the caller keeps its own records). It is safe for concurrent use.
func (e *Enforcer) WithinBudget(st State, last Verdict, next *provider.Request) (*provider.Request, error) {
	sent, err := e.withinBudget(st, next)
	if err != nil {
		return nil, e.stopped(&Result{}, st, last, err)
	}
	return sent, nil
}
