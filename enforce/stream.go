package enforce

import (
	"context"
	"encoding/json"

	"github.com/agentio/agentio/extract"
	"github.com/agentio/agentio/internal/jsonvalue"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

// A Partial is the value a model is writing, as far as it is complete: a
// snapshot taken while the reply streams in (see [WithPartials]). It is
// never the result: the model may still change its mind, and only what
// [Run] returns says whether the output is valid.
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

// run streams each attempt's reply from p, which is a
// [provider.Streamer], giving partials to the functions of [WithPartials].
func (e *Enforcer) stream(ctx context.Context, p provider.Streamer, req Request) (*Result, error) {
	give := func(part Partial) {
		for _, fn := range e.cfg.partials {
			fn(part)
		}
	}
	return e.loop(ctx, p, req, func(ctx context.Context, call *provider.Request, st State) (*provider.Response, *stopped, error) {
		return e.streamAttempt(ctx, p, call, st, give)
	})
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
// checks parts as they complete and gives partials to give.
func (e *Enforcer) streamAttempt(ctx context.Context, p provider.Streamer, call *provider.Request, st State, give func(Partial)) (resp *provider.Response, early *stopped, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	mode := e.mode(st)
	var d *prepared
	if mode == ModeNative || mode == ModeTool {
		d = e.dialect(st.Dialect)
	}
	t := e.newTracker(mode, d, st.Attempts+1)
	var col provider.Collector
	toolCall := -1 // index of the submit_result call, once named
	for ch, err := range p.Stream(ctx, call) {
		if err != nil {
			return nil, nil, err
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
				wrappedIn: t.wrappedIn(), call: max(toolCall, 0)}, nil
		}
		if part, ok := t.partial(); ok {
			give(part)
		}
	}
	return col.Response(), nil, nil
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

func (e *Enforcer) newTracker(mode Mode, d *prepared, attempt int) *tracker {
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
	v, err := jsonvalue.Decode(t.r.Text()[ev.Start:ev.End])
	if err != nil {
		return false // a number beyond float64: the final check reports it
	}
	if vs := t.cur.Check(v); len(vs) > 0 {
		t.violations = vs
		return true
	}
	for _, fn := range t.e.cfg.partChecks {
		if vs := fn(t.cur.Path(), v); len(vs) > 0 {
			t.violations = vs
			return true
		}
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
	v, err := jsonvalue.Decode(raw)
	if err != nil {
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
