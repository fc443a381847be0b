package enforce

import (
	"fmt"

	"github.com/agentio/agentio/provider"
)

// prepareRetry fills v with the next attempt of a run whose attempt a
// failed: a larger MaxTokens after a truncated reply (see
// [WithRaiseMaxTokens]), else the re-ask and the messages that carry it.
func (e *Enforcer) prepareRetry(v *Verdict, a *Attempt, mode Mode, d *prepared, resp *provider.Response, best *checked) {
	st := &v.State
	v.Retry = true
	schemaShown := e.cfg.fullHistory && st.Reasks > 0
	st.Reasks++
	v.MaxTokens = st.MaxTokens
	if a.Outcome == OutcomeTruncated && e.cfg.raiseMaxTokens > 0 {
		if n := raisedMaxTokens(st.MaxTokens, resp.Usage.OutputTokens, e.cfg.raiseMaxTokens); n > 0 {
			st.MaxTokens, v.MaxTokens = n, n
			a.Notes = append(a.Notes, fmt.Sprintf("the next attempt raises max tokens to %d", n))
			return
		}
	}
	r := Reask{Attempt: a.Number, Outcome: a.Outcome, Mode: mode, Violations: a.Violations, Output: cutMiddle(v.Text, reaskOutputCap)}
	if best != nil && a.Outcome == OutcomeInvalid {
		r.Violations = modelPaths(a.Violations, best.wrappedIn)
	}
	if !schemaShown {
		switch mode {
		case ModeNative:
			r.Schema = d.outputText()
		case ModeTool:
			r.Schema = d.toolText()
		default:
			r.Schema = e.schemaText
		}
	}
	v.Reask = e.cfg.reask(r)
	v.Messages = reaskMessages(mode, resp, best, v.Reask)
}

// raisedMaxTokens returns the MaxTokens for a retry after a truncated reply:
// twice the last limit (or twice the reply's output tokens when there was
// none), at most limit; 0 when the last limit already reached it.
func raisedMaxTokens(last, output, limit int) int {
	if last >= limit {
		return 0
	}
	n := 2 * last
	if last == 0 {
		n = 2 * output
	}
	if n <= last || n > limit || n == 0 {
		n = limit
	}
	return n
}

// reaskMessages returns the messages that follow the request for a re-ask:
// the model's reply, then the re-ask as a user message or, in ModeTool, as
// the error result of the submit_result call it answers (other calls get
// an error result of their own, as APIs want every call answered).
func reaskMessages(mode Mode, resp *provider.Response, best *checked, text string) []provider.Message {
	var msgs []provider.Message
	reply := provider.Message{Role: provider.RoleAssistant, Content: resp.Text}
	if mode == ModeTool {
		reply.ToolCalls = append([]provider.ToolCall(nil), resp.ToolCalls...)
	}
	if reply.Content != "" || len(reply.ToolCalls) > 0 {
		msgs = append(msgs, reply)
	}
	answered := -1
	if mode == ModeTool && best != nil {
		answered = best.call
	}
	for i, tc := range reply.ToolCalls {
		if answered < 0 && tc.Name == ToolName {
			answered = i
		}
		msg := provider.Message{Role: provider.RoleTool, ToolCallID: tc.ID, IsError: true}
		switch {
		case i == answered:
			msg.Content = text
		case tc.Name == ToolName:
			msg.Content = "Ignored: only one " + ToolName + " call is used."
		default:
			msg.Content = "Unknown tool " + tc.Name + ": only " + ToolName + " is available."
		}
		msgs = append(msgs, msg)
	}
	if answered < 0 {
		msgs = append(msgs, provider.UserMessage(text))
	}
	return msgs
}
