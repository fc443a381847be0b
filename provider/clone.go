package provider

import "bytes"

// Clone returns a deep copy of r: no slice or pointer of the copy is shared
// with r, so either may be changed without affecting the other. Clone of a
// nil Request is nil.
func (r *Request) Clone() *Request {
	if r == nil {
		return nil
	}
	c := *r
	if r.Messages != nil {
		c.Messages = make([]Message, len(r.Messages))
		for i, m := range r.Messages {
			c.Messages[i] = m.clone()
		}
	}
	if r.Output != nil {
		o := *r.Output
		o.Schema = bytes.Clone(r.Output.Schema)
		c.Output = &o
	}
	if r.Tools != nil {
		c.Tools = make([]Tool, len(r.Tools))
		for i, t := range r.Tools {
			t.InputSchema = bytes.Clone(t.InputSchema)
			c.Tools[i] = t
		}
	}
	return &c
}

// Clone returns a deep copy of r: no slice of the copy is shared with r.
// Clone of a nil Response is nil.
func (r *Response) Clone() *Response {
	if r == nil {
		return nil
	}
	c := *r
	c.ToolCalls = cloneToolCalls(r.ToolCalls)
	return &c
}

func (m Message) clone() Message {
	m.ToolCalls = cloneToolCalls(m.ToolCalls)
	return m
}

func cloneToolCalls(calls []ToolCall) []ToolCall {
	if calls == nil {
		return nil
	}
	c := make([]ToolCall, len(calls))
	for i, tc := range calls {
		tc.Arguments = bytes.Clone(tc.Arguments)
		c[i] = tc
	}
	return c
}
