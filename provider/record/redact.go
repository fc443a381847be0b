package record

import (
	"errors"
	"strings"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/provider"
)

// Redacted is what redaction writes in place of a secret or a redacted
// field.
const Redacted = "[REDACTED]"

// redactor blanks the named fields of a request tree and replaces the
// secrets in every string written. It is immutable once built.
type redactor struct {
	fields  []jsonpath.Path
	secrets *strings.Replacer
	list    []string
}

func (r *redactor) scrub(s string) string {
	if r.secrets == nil {
		return s
	}
	return r.secrets.Replace(s)
}

// request returns the redacted copy of a request tree (from decodeTree):
// the named fields replaced by [Redacted], then the secrets in every
// string, object keys included.
func (r *redactor) request(tree any) any {
	for _, p := range r.fields {
		tree = blank(tree, p)
	}
	return r.strings(tree)
}

// blank replaces the values at p (which may hold [*] steps) in t.
func blank(t any, p jsonpath.Path) any {
	if len(p) == 0 {
		return Redacted
	}
	step, rest := p[0], p[1:]
	switch v := t.(type) {
	case map[string]any:
		switch step.Kind {
		case jsonpath.KindKey:
			if x, ok := v[step.Key]; ok {
				v[step.Key] = blank(x, rest)
			}
		case jsonpath.KindAll:
			for k, x := range v {
				v[k] = blank(x, rest)
			}
		}
	case []any:
		switch step.Kind {
		case jsonpath.KindIndex:
			if step.Index < len(v) {
				v[step.Index] = blank(v[step.Index], rest)
			}
		case jsonpath.KindAll:
			for i, x := range v {
				v[i] = blank(x, rest)
			}
		}
	}
	return t
}

// strings replaces the secrets in every string of t, keys included.
func (r *redactor) strings(t any) any {
	if r.secrets == nil {
		return t
	}
	switch v := t.(type) {
	case string:
		return r.scrub(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[r.scrub(k)] = r.strings(x)
		}
		return out
	case []any:
		for i, x := range v {
			v[i] = r.strings(x)
		}
	}
	return t
}

func (r *redactor) response(w *wireResponse) {
	if w == nil {
		return
	}
	w.Text, w.Refusal, w.RawStopReason, w.Model = r.scrub(w.Text), r.scrub(w.Refusal), r.scrub(w.RawStopReason), r.scrub(w.Model)
	w.StopReason = provider.StopReason(r.scrub(string(w.StopReason)))
	r.calls(w.ToolCalls)
}

func (r *redactor) calls(calls []wireToolCall) {
	for i := range calls {
		c := &calls[i]
		c.ID, c.Name, c.Arguments = r.scrub(c.ID), r.scrub(c.Name), r.scrub(c.Arguments)
	}
}

func (r *redactor) chunk(w *wireChunk) {
	w.Text = r.scrub(w.Text)
	if d := w.ToolCall; d != nil {
		d.ID, d.Name, d.Arguments = r.scrub(d.ID), r.scrub(d.Name), r.scrub(d.Arguments)
	}
	r.response(w.Response)
}

func (r *redactor) error(w *wireError) {
	if w == nil {
		return
	}
	w.Message = r.scrub(w.Message)
	if w.Provider != nil {
		// A copy: the *provider.Error is the caller's too.
		c := *w.Provider
		p := &c
		w.Provider = p
		p.Provider, p.Code, p.Message, p.RequestID = r.scrub(p.Provider), r.scrub(p.Code), r.scrub(p.Message), r.scrub(p.RequestID)
		if p.Err != nil {
			p.Err = errors.New(r.scrub(p.Err.Error())) // what is recorded of it is its text
		}
		p.Kind = provider.ErrorKind(r.scrub(string(p.Kind)))
	}
}

// stream replaces the secrets a stream's pieces carry between them: one
// cut across two or more chunks of the text, or of one tool call's
// arguments, which no chunk holds whole. The piece where a secret begins
// gets [Redacted] in its place and the pieces it runs on into lose the
// rest of it, so the pieces still join to the reply's scrubbed text and
// their number is unchanged.
func (r *redactor) stream(chunks []wireChunk) {
	if len(r.list) == 0 {
		return
	}
	text := make([]*string, 0, len(chunks))
	args := map[int][]*string{}
	for i := range chunks {
		text = append(text, &chunks[i].Text)
		if d := chunks[i].ToolCall; d != nil {
			args[d.Index] = append(args[d.Index], &d.Arguments)
		}
	}
	r.across(text)
	for _, pieces := range args {
		r.across(pieces)
	}
}

// across replaces, one at a time and leftmost first, each secret found in
// the pieces joined (see [redactor.stream]).
func (r *redactor) across(pieces []*string) {
	for {
		var b strings.Builder
		for _, p := range pieces {
			b.WriteString(*p)
		}
		joined := b.String()
		at, n := -1, 0
		for _, s := range r.list { // longest first
			if i := strings.Index(joined, s); i >= 0 && (at < 0 || i < at) {
				at, n = i, len(s)
			}
		}
		if at < 0 {
			return
		}
		off := 0
		for _, p := range pieces {
			start, end := off, off+len(*p)
			off = end
			lo, hi := max(start, at), min(end, at+n)
			if lo >= hi {
				continue
			}
			repl := ""
			if lo == at {
				repl = Redacted
			}
			*p = (*p)[:lo-start] + repl + (*p)[hi-start:]
		}
		if strings.Contains(Redacted, joined[at:at+n]) {
			return // a secret inside the marker itself: replacing again would not end
		}
	}
}
