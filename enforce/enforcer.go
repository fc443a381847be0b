package enforce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// An Enforcer holds a schema and options, ready to enforce them on replies
// one at a time: the step-wise API for orchestrators whose attempts run as
// separate jobs. [Enforcer.Start] builds the first request (or
// [Enforcer.EnrichPrompt] the prompt alone), [Enforcer.Check] judges a
// reply and says what to send next, and a [State] carries the run between
// calls, across processes if need be. [Run] is this same loop in one call.
//
// An Enforcer is immutable after [New] and safe for concurrent use; each run
// has its own State.
type Enforcer struct {
	s            *schema.Schema
	cfg          config
	instructions string
	schemaText   string // the schema as prompt and system modes show it
	objectRoot   bool   // the schema admits only objects
	extractOpts  extractOptions
	dialects     sync.Map // dialect name → *prepared, filled on first use
}

// New returns an Enforcer for s with opts. It fails with an error matching
// [ErrInvalidOption] for a bad option value, or [ErrInvalidRequest] when s
// is nil.
func New(s *schema.Schema, opts ...Option) (*Enforcer, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: nil schema", ErrInvalidRequest)
	}
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if cfg.lenient {
		if _, _, err := s.Coerce(nil, cfg.coercions...); err != nil {
			return nil, fmt.Errorf("%w: WithLenient: %w", ErrInvalidOption, err)
		}
	}
	text := displaySchema(s.JSON(), s.Minified())
	return &Enforcer{
		s:            s,
		cfg:          cfg,
		instructions: renderInstructions(text),
		schemaText:   text,
		objectRoot:   slices.Equal(s.Types(), []string{"object"}),
		extractOpts:  newExtractOptions(cfg),
	}, nil
}

// Schema returns the schema the Enforcer enforces.
func (e *Enforcer) Schema() *schema.Schema { return e.s }

// A Request is what a run asks the model: a prompt, optionally after a
// system prompt and an earlier conversation. The enforcement loop adds the
// schema according to the mode; the caller's request is not modified.
type Request struct {
	// System is the system prompt; empty means none.
	System string
	// Prompt is the user's prompt, sent as the last user message. It may be
	// empty when Messages ends with the user's turn.
	Prompt string
	// Messages is an earlier conversation, oldest first, sent before Prompt.
	Messages []provider.Message
	// MaxTokens caps each reply's length in tokens; 0 means the provider's
	// default.
	MaxTokens int
}

// A State is where a run stands between attempts: what [Enforcer.Check]
// needs to judge the next reply. It is plain data that encodes to JSON, so a
// run can be resumed in another process. The zero State is a run that has
// not started, in the Enforcer's mode ([ModePrompt] for [ModeAuto]).
type State struct {
	// Attempts is the number of calls made so far.
	Attempts int `json:"attempts"`
	// Reasks is the number of re-asks made so far.
	Reasks int `json:"reasks"`
	// Usage is the token usage so far.
	Usage provider.Usage `json:"usage"`
	// Mode is the mode in use, resolved by [Enforcer.Start].
	Mode Mode `json:"mode,omitempty"`
	// Dialect is the provider's schema dialect (provider.Capabilities.Dialect).
	Dialect string `json:"dialect,omitempty"`
	// MaxTokens is the MaxTokens to send, raised after a truncated reply
	// under [WithRaiseMaxTokens]; 0 means the provider's default.
	MaxTokens int `json:"max_tokens,omitempty"`
}

// mode returns the mode a check uses for st.
func (e *Enforcer) mode(st State) Mode {
	switch {
	case st.Mode != "" && st.Mode != ModeAuto:
		return st.Mode
	case e.cfg.mode != ModeAuto:
		return e.cfg.mode
	default:
		return ModePrompt
	}
}

// A Verdict is the judgement of one reply by [Enforcer.Check].
//
// When OK, JSON and Value are the valid output. Otherwise, when Retry is
// true, send the next attempt ([Verdict.Next] builds it): the conversation
// followed by Messages (the bad reply and the re-ask, whose text is also in
// Reask) and, when MaxTokens is not 0, that MaxTokens. When neither, Err
// says why the run ends: a [*ValidationError] or an error matching
// [ErrRefused].
type Verdict struct {
	// OK reports valid output.
	OK bool
	// JSON is the valid output (see [Result.JSON]).
	JSON json.RawMessage
	// Value is JSON decoded.
	Value any
	// Text is the raw output checked: the reply's text, or the
	// submit_result call's arguments in [ModeTool].
	Text string
	// Outcome says how the attempt ended.
	Outcome Outcome
	// Violations are why the output was rejected.
	Violations []schema.Violation
	// Retry reports that another attempt is allowed and prepared.
	Retry bool
	// Reask is the re-ask text; empty when the retry only raises MaxTokens
	// and resends the same conversation.
	Reask string
	// Messages are the messages to append to the conversation for the next
	// attempt: the model's reply, then the re-ask (a user message, or tool
	// results answering its calls in [ModeTool]).
	Messages []provider.Message
	// MaxTokens, when not 0, is the MaxTokens of the next attempt: the
	// State's, raised after a truncated reply under [WithRaiseMaxTokens].
	MaxTokens int
	// Attempt records this attempt.
	Attempt Attempt
	// State is the run's state after this attempt: pass it to the next Check.
	State State
	// Err is why the run ends, when it does without valid output.
	Err error
}

// Next returns the request of the attempt after v: base followed by
// v.Messages, with MaxTokens raised when v says so. base is the run's first
// request, or with [WithFullHistory] the request of the attempt just
// checked. base is not modified; the new request shares its unchanged
// parts, so treat both as read-only.
func (v Verdict) Next(base *provider.Request) *provider.Request {
	r := *base
	r.Messages = make([]provider.Message, 0, len(base.Messages)+len(v.Messages))
	r.Messages = append(append(r.Messages, base.Messages...), v.Messages...)
	if v.MaxTokens != 0 {
		r.MaxTokens = v.MaxTokens
	}
	return &r
}

// Start resolves the mode against caps (see [ModeAuto]) and returns the
// first request of a run, with the schema added as the mode says, and the
// initial State. It fails with [ErrInvalidRequest] when req has neither a
// prompt nor messages, or the mode needs what caps lacks.
func (e *Enforcer) Start(req Request, caps provider.Capabilities) (*provider.Request, State, error) {
	mode, err := e.cfg.mode.resolve(caps)
	if err != nil {
		return nil, State{}, err
	}
	r, err := e.request(req, mode, caps)
	if err != nil {
		return nil, State{}, err
	}
	return r, State{Mode: mode, Dialect: caps.Dialect, MaxTokens: req.MaxTokens}, nil
}

// request builds the first request of a run in mode.
func (e *Enforcer) request(req Request, mode Mode, caps provider.Capabilities) (*provider.Request, error) {
	if strings.TrimSpace(req.Prompt) == "" && len(req.Messages) == 0 {
		return nil, fmt.Errorf("%w: no prompt and no messages", ErrInvalidRequest)
	}
	r := (&provider.Request{System: req.System, Messages: req.Messages, MaxTokens: req.MaxTokens}).Clone()
	if req.Prompt != "" {
		r.Messages = append(r.Messages, provider.UserMessage(req.Prompt))
	}
	switch mode {
	case ModePrompt:
		if last := len(r.Messages) - 1; r.Messages[last].Role == provider.RoleUser {
			r.Messages[last].Content = e.EnrichPrompt(r.Messages[last].Content)
		} else {
			r.Messages = append(r.Messages, provider.UserMessage(e.instructions))
		}
	case ModeSystem:
		r.System = e.EnrichSystem(r.System)
	case ModeNative:
		d := e.dialect(caps.Dialect)
		r.Output = &provider.OutputSpec{Name: "result", Schema: bytes.Clone(d.output), Strict: caps.StrictSchema && d.strict}
	case ModeTool:
		d := e.dialect(caps.Dialect)
		r.Tools = []provider.Tool{{Name: ToolName, Description: toolDescription, InputSchema: bytes.Clone(d.tool), Strict: caps.StrictSchema && d.strict}}
		r.ToolChoice = provider.ToolChoice{Mode: provider.ToolChoiceRequired}
		if caps.ForcedTool {
			r.ToolChoice = provider.ToolChoice{Mode: provider.ToolChoiceTool, Name: ToolName}
		}
		r.System = appendSection(r.System, toolInstructions)
	}
	return r, nil
}
