package mcpagentio

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentio/agentio/enforce"
)

// PartialMetaKey is the key, in the _meta of a progress notification sent
// by an [AgentTool] or [TaskTool], of the value the model is writing:
//
//	{"attempt": 1, "value": {...}, "open": ["$", "$.findings"]}
//
// value is the output so far, as [enforce.Partial] holds it (its complete
// parts, the open objects and arrays closed), and open the paths still
// being written. It is never the result: the tool's result says whether
// the output is valid.
const PartialMetaKey = "com.github.agentio/partial"

// A progress sends a tool call's progress to the client that asked for it
// with a progress token: a notification for each attempt the loop judged
// and, when the provider streams, for each part of the output completed.
// The notifications are best effort: one the session fails to send is
// dropped, and the call goes on.
//
// It keeps no context: each report is sent under the context of the call
// that makes it (the attempt hook's, or the tool call's for partials).
type progress struct {
	session *mcp.ServerSession
	token   any
	mu      sync.Mutex
	n       int // notifications sent
}

// newProgress returns the progress of the call req, or nil when its client
// asked for none (no progress token).
func newProgress(req *mcp.CallToolRequest) *progress {
	if req == nil || req.Params == nil || req.Session == nil {
		return nil
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	return &progress{session: req.Session, token: token}
}

// send sends one notification, numbered after the last.
func (pr *progress) send(ctx context.Context, msg string, meta mcp.Meta) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.n++
	_ = pr.session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: pr.token, Progress: float64(pr.n), Message: msg, Meta: meta,
	})
}

// attempt reports an attempt the loop judged: "attempt 1: invalid,
// stopped early: 1 violation, first $.severity: ...".
func (pr *progress) attempt(ctx context.Context, a enforce.Attempt) {
	msg := fmt.Sprintf("attempt %d: %s", a.Number, a.Outcome)
	if a.StoppedEarly {
		msg += ", stopped early"
	}
	switch n := len(a.Violations); n {
	case 0:
	case 1:
		msg += fmt.Sprintf(": 1 violation, %s", a.Violations[0])
	default:
		msg += fmt.Sprintf(": %d violations, first %s", n, a.Violations[0])
	}
	pr.send(ctx, msg, nil)
}

// partial reports the output so far: "attempt 1: writing $.findings[2]",
// with the value under [PartialMetaKey], under ctx, the tool call's.
func (pr *progress) partial(ctx context.Context, part enforce.Partial) {
	open := "$"
	if len(part.Open) > 0 {
		open = part.Open[len(part.Open)-1]
	}
	pr.send(ctx, fmt.Sprintf("attempt %d: writing %s", part.Attempt, open), mcp.Meta{
		PartialMetaKey: partialMeta{Attempt: part.Attempt, Value: part.JSON, Open: part.Open},
	})
}

// partialMeta is the value of [PartialMetaKey].
type partialMeta struct {
	Attempt int             `json:"attempt"`
	Value   json.RawMessage `json:"value"`
	Open    []string        `json:"open"`
}

// options returns the enforce options that report a call's progress: the
// attempt hook, and the partials of its output under ctx, the call's.
func (pr *progress) options(ctx context.Context) []enforce.Option {
	return []enforce.Option{
		enforce.WithAttemptHook(pr.attempt),
		enforce.WithPartials(func(part enforce.Partial) { pr.partial(ctx, part) }),
	}
}
