package enforce

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"

	"github.com/agentio/agentio/extract"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// ErrStopped matches the error of a streamed run that the caller stopped by
// leaving the range loop over [Streaming.Partials] before the run ended.
var ErrStopped = errors.New("enforce: stream stopped by the caller")

// A Partial is the value a model is writing, as far as it is complete: a
// snapshot taken while the reply streams in. It is never the result: the
// model may still change its mind, and only [Streaming.Result] says whether
// the output is valid.
type Partial struct {
	// Attempt is the attempt the value belongs to, from 1. A partial of a
	// later attempt replaces every earlier one: the earlier attempt failed
	// and was re-asked.
	Attempt int
	// JSON is the value so far: its complete members and elements, with
	// its open objects and arrays closed. A string still being written is
	// left out until it is complete.
	JSON json.RawMessage
	// Value is JSON decoded.
	Value any
	// Open lists the paths of the objects and arrays still being written,
	// from the root down ("$", "$.findings", "$.findings[3]"). Every other
	// part of Value is complete and will not change in this attempt.
	Open []string
}

// Stream runs the loop of [Run] over a provider that streams its replies
// ([provider.Streamer]; any other provider is called with Generate and
// gives no partials): the same modes, options, failure classes and
// re-asks, with the reply read as it arrives.
//
// While the reply streams in, every part of the value that completes (a
// string, a number, an object, an array) is checked at once against the
// parts of the schema that certainly apply to it (see schema.Cursor). When
// a complete part can no longer become valid (a wrong enum value, a type
// mismatch, a property the schema forbids, an item too many), the stream is
// stopped and the model re-asked at once; the stopped attempt counts as an
// attempt (Attempt.StoppedEarly). Parts are checked this way when the value
// is the model's whole answer: in native and tool modes, and in prompt and
// system modes when the value begins the reply or a fenced block; not
// under [WithLenient], whose coercions may still mend a part; and not in
// native or tool mode when the provider's dialect rewrites values (OpenAI's
// strict mode, which constrains the output to the schema anyway). Whatever
// was checked early, the complete output gets the full validation of Run
// before it is returned.
//
// The loop runs as [Streaming.Partials] is iterated, on the caller's
// goroutine, or within [Streaming.Result]. Validators and hooks run on that
// goroutine.
func Stream(ctx context.Context, p provider.Provider, req Request, s *schema.Schema, opts ...Option) *Streaming {
	e, err := New(s, opts...)
	if err != nil {
		return &Streaming{err: err, done: true}
	}
	return e.Stream(ctx, p, req)
}

// Stream is [Stream] with the Enforcer's schema and options.
func (e *Enforcer) Stream(ctx context.Context, p provider.Provider, req Request) *Streaming {
	if p == nil {
		return &Streaming{err: fmt.Errorf("%w: nil provider", ErrInvalidRequest), done: true}
	}
	return &Streaming{e: e, ctx: ctx, p: p, req: req}
}

// A Streaming is a run started by [Stream]: iterate its partial values with
// [Streaming.Partials], then read the outcome with [Streaming.Result]. It
// is used by one goroutine.
type Streaming struct {
	e    *Enforcer
	ctx  context.Context
	p    provider.Provider
	req  Request
	ran  bool // the loop was started
	done bool
	res  *Result
	err  error
}

// Partials runs the loop and yields the value being written each time a
// part of it completes. Partials of a re-asked attempt follow those of the
// failed one, with a higher Attempt. When the loop ends, so does the
// sequence; [Streaming.Result] then has the outcome.
//
// Leaving the range loop early stops the run: the reply being streamed is
// abandoned, and Result returns an error matching [ErrStopped]. The
// sequence runs the loop once; iterating it again yields nothing.
func (s *Streaming) Partials() iter.Seq[Partial] {
	return func(yield func(Partial) bool) {
		if s.ran || s.done {
			return
		}
		s.run(yield)
	}
}

// Result returns the outcome of the run, as [Run] returns it. When
// [Streaming.Partials] was not iterated, Result runs the loop itself,
// discarding the partial values.
func (s *Streaming) Result() (*Result, error) {
	if !s.ran && !s.done {
		s.run(func(Partial) bool { return true })
	}
	return s.res, s.err
}

// run runs the loop once, yielding partials.
func (s *Streaming) run(yield func(Partial) bool) {
	s.ran = true
	defer func() { s.done = true }()
	e := s.e
	streamer, streams := s.p.(provider.Streamer)
	stoppedByCaller := false
	s.res, s.err = e.loop(s.ctx, s.p, s.req, func(ctx context.Context, call *provider.Request, st State) (*provider.Response, *stopped, error) {
		if !streams {
			resp, err := s.p.Generate(ctx, call)
			return resp, nil, err
		}
		resp, early, more, err := e.streamAttempt(ctx, streamer, call, st, yield)
		if !more {
			stoppedByCaller = true
			return nil, nil, ErrStopped
		}
		return resp, early, err
	})
	if stoppedByCaller && s.err != nil && !errors.Is(s.err, ErrStopped) {
		s.err = errors.Join(ErrStopped, s.err)
	}
}

// A stopped describes a streamed reply stopped early: the violations of
// the complete part that could not become valid, and where it stood.
type stopped struct {
	violations []schema.Violation // paths in the caller's schema
	at         int                // bytes of the output read
	output     string             // the output so far
	wrappedIn  string             // the property the value was wrapped in, if any
	call       int                // in ModeTool, the index of the submit_result call
}

// streamAttempt streams one attempt's reply, feeding the output (the text,
// or in ModeTool the submit_result call's arguments) to a tracker that
// checks parts as they complete and yields partials. more is false when
// the caller stopped iterating.
func (e *Enforcer) streamAttempt(ctx context.Context, p provider.Streamer, call *provider.Request, st State, yield func(Partial) bool) (resp *provider.Response, early *stopped, more bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	mode := e.mode(st)
	var d *dialect
	if mode == ModeNative || mode == ModeTool {
		d = e.dialect(st.Dialect)
	}
	t := e.newTracker(mode, d, st.Attempts+1)
	var col provider.Collector
	toolCall := -1 // index of the submit_result call, once named
	for ch, err := range p.Stream(ctx, call) {
		if err != nil {
			return nil, nil, true, err
		}
		col.Add(ch)
		piece := ch.Text
		if mode == ModeTool {
			piece = ""
			if tc := ch.ToolCall; tc != nil {
				if toolCall < 0 && tc.Name == ToolName {
					toolCall = tc.Index
				}
				if tc.Index == toolCall {
					piece = tc.Arguments
				}
			}
		}
		if piece == "" {
			continue
		}
		if t.feed(piece) {
			resp := col.Response()
			resp.StopReason, resp.RawStopReason = provider.StopOther, "stopped_early"
			return resp, &stopped{violations: t.violations, at: len(t.r.Text()), output: string(t.r.Text()),
				wrappedIn: t.wrappedIn(), call: max(toolCall, 0)}, true, nil
		}
		if part, ok := t.partial(); ok && !yield(part) {
			return nil, nil, false, nil
		}
	}
	return col.Response(), nil, true, nil
}

// A tracker follows the value of one streamed attempt: it feeds the output
// to an extract.Reader, steps a schema.Cursor along the parts as they
// open and close, checks each complete part, and builds partials.
type tracker struct {
	e       *Enforcer
	attempt int
	r       *extract.Reader
	checks  bool   // parts may be checked early in this attempt
	whole   bool   // the output is the value alone (native and tool modes)
	wrapKey string // the property the model's value is wrapped in, if any

	value      int // the value being followed (its Event.Value), or -1
	checking   bool
	cur        *schema.Cursor
	skip       int // depth below which parts are not followed, or -1
	violations []schema.Violation

	lastSize   int // size of the last partial yielded
	sinceLast  int // bytes read since then
	completed  bool
	partialBuf []byte
}

func (e *Enforcer) newTracker(mode Mode, d *dialect, attempt int) *tracker {
	t := &tracker{e: e, attempt: attempt, value: -1, skip: -1,
		checks: !e.cfg.lenient,
		whole:  mode == ModeNative || mode == ModeTool}
	if d != nil {
		if d.conv.RewritesValues() {
			t.checks = false
		}
		switch {
		case mode == ModeTool && d.toolWrapped:
			t.wrapKey = wrapKey
		case d.conv.Wrapped:
			t.wrapKey = d.conv.WrapKey
		}
	}
	var opts []extract.Option
	if e.objectRoot || t.wrapKey != "" || mode == ModeTool {
		opts = append(opts, extract.WithObjectsOnly())
	}
	t.r = extract.NewReader(opts...)
	return t
}

// wrappedIn returns the wrapper's key when the value followed is wrapped.
func (t *tracker) wrappedIn() string { return t.wrapKey }

// base is the depth in the output of the value the schema describes.
func (t *tracker) base() int {
	if t.wrapKey != "" {
		return 1
	}
	return 0
}

// feed reads the next piece of the output and reports whether a complete
// part violates the schema (t.violations then says how).
func (t *tracker) feed(piece string) bool {
	if _, err := t.r.WriteString(piece); err != nil {
		t.checking = false // too large: the final check will say so
		return false
	}
	t.sinceLast += len(piece)
	for _, ev := range t.r.Events() {
		if t.event(ev) {
			return true
		}
	}
	return false
}

// event handles one event of the reader; true when a part is at fault.
func (t *tracker) event(ev extract.Event) bool {
	switch ev.Kind {
	case extract.EventStart:
		t.value = ev.Value
		src := t.r.Source(ev)
		t.checking = t.checks && (t.whole || src == extract.SourceWhole || src == extract.SourceFence)
		t.cur = t.e.s.Cursor()
		t.skip = -1
		return false
	case extract.EventEnd, extract.EventAbandon:
		t.cur = nil
		return false
	}
	if t.cur == nil || ev.Value != t.value {
		return false
	}
	b := t.base()
	if ev.Depth < b || t.skip >= 0 && ev.Depth >= t.skip {
		return false
	}
	if ev.Depth == b && b > 0 {
		// The wrapper's member: the value the schema describes, or another
		// member, which the schema knows nothing of.
		if ev.Kind == extract.EventOpen && t.r.Key(ev) != t.wrapKey {
			t.skip = ev.Depth
		}
		return false
	}
	if ev.Depth == b {
		return false // the value itself: the final validation checks it
	}
	switch ev.Kind {
	case extract.EventOpen:
		t.step(ev)
		return false
	case extract.EventScalar:
		t.completed = true
		t.step(ev)
		fault := t.check(ev)
		t.cur.Up()
		return fault
	case extract.EventClose:
		t.completed = true
		fault := t.check(ev)
		t.cur.Up()
		return fault
	}
	return false
}

// step moves the cursor into the part ev is about.
func (t *tracker) step(ev extract.Event) {
	if ev.Index >= 0 {
		t.cur.Index(ev.Index)
	} else {
		t.cur.Key(t.r.Key(ev))
	}
}

// check checks the complete part of ev, at the cursor.
func (t *tracker) check(ev extract.Event) bool {
	if !t.checking {
		return false
	}
	var v any
	if json.Unmarshal(t.r.Text()[ev.Start:ev.End], &v) != nil {
		return false // a number beyond float64: the final check reports it
	}
	if vs := t.cur.Check(v); len(vs) > 0 {
		t.violations = vs
		return true
	}
	return false
}

// partialMax is the size of partial up to which one is built after every
// chunk that completes a part; beyond it, a new one is built only when the
// output has grown by an eighth since the last, which keeps the cost of
// partials linear in the output's length.
const partialMax = 64 << 10

// partial returns the value so far when a part completed since the last
// one and it is time for another.
func (t *tracker) partial() (Partial, bool) {
	if !t.completed || t.cur == nil || !t.r.Reading() {
		return Partial{}, false
	}
	if t.lastSize > partialMax && t.sinceLast < t.lastSize/8 {
		return Partial{}, false
	}
	buf, ok := t.r.Partial(t.partialBuf[:0])
	t.partialBuf = buf
	if !ok {
		return Partial{}, false
	}
	raw := buf
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return Partial{}, false
	}
	open := t.cur.Paths()
	if t.wrapKey != "" {
		inner, innerRaw, ok := member(raw, v, t.wrapKey)
		if !ok {
			return Partial{}, false
		}
		v, raw = inner, innerRaw
	}
	t.completed, t.lastSize, t.sinceLast = false, len(buf), 0
	return Partial{Attempt: t.attempt, JSON: append(json.RawMessage(nil), raw...), Value: v, Open: open}, true
}
