package einoagentio_test

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/require"

	agentschema "github.com/agentio/agentio/schema"
)

// A scripted reply of the test model: the message, or the error, and,
// when chunks is set, the pieces a stream sends.
type reply struct {
	msg    *schema.Message
	err    error
	chunks []string
}

// scriptedModel is an Eino chat model (a model.ToolCallingChatModel) that
// answers from a script and records each call. Its streams send each
// chunk through an Eino pipe and notice when the reader closes early.
type scriptedModel struct {
	mu      *sync.Mutex
	replies *[]reply
	calls   *[]call
	tools   []*schema.ToolInfo // bound by WithTools
}

type call struct {
	input  []*schema.Message
	opts   *model.Options
	tools  []*schema.ToolInfo
	closed bool // a stream whose reader was closed before its end
}

func newModel(replies ...reply) *scriptedModel {
	return &scriptedModel{mu: new(sync.Mutex), replies: &replies, calls: new([]call)}
}

func (m *scriptedModel) next(input []*schema.Message, opts []model.Option) (reply, int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	*m.calls = append(*m.calls, call{input: input, opts: model.GetCommonOptions(nil, opts...), tools: m.tools})
	if len(*m.replies) == 0 {
		return reply{err: errors.New("no scripted reply left")}, len(*m.calls) - 1
	}
	r := (*m.replies)[0]
	*m.replies = (*m.replies)[1:]
	return r, len(*m.calls) - 1
}

func (m *scriptedModel) Generate(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	r, _ := m.next(input, opts)
	if r.err != nil {
		return nil, r.err
	}
	return r.msg, nil
}

func (m *scriptedModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	r, i := m.next(input, opts)
	if r.err != nil {
		return nil, r.err
	}
	sr, sw := schema.Pipe[*schema.Message](0)
	go func() {
		defer sw.Close()
		for _, c := range r.chunks {
			if closed := sw.Send(schema.AssistantMessage(c, nil), nil); closed {
				m.mu.Lock()
				(*m.calls)[i].closed = true
				m.mu.Unlock()
				return
			}
		}
		last := &schema.Message{Role: schema.Assistant, ResponseMeta: r.msg.ResponseMeta}
		sw.Send(last, nil)
	}()
	return sr, nil
}

func (m *scriptedModel) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	bound := *m
	bound.tools = tools
	return &bound, nil
}

func (m *scriptedModel) recorded() []call {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]call(nil), *m.calls...)
}

// text is a reply that ended, with usage.
func text(s string) reply {
	msg := schema.AssistantMessage(s, nil)
	msg.ResponseMeta = &schema.ResponseMeta{FinishReason: "stop", Usage: &schema.TokenUsage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}}
	return reply{msg: msg}
}

// streamed is a reply streamed in the pieces given.
func streamed(chunks ...string) reply {
	r := text("")
	r.chunks = chunks
	return r
}

// drain reads a stream to its end.
func drain[T any](t *testing.T, sr *schema.StreamReader[T]) []T {
	t.Helper()
	defer sr.Close()
	var out []T
	for {
		v, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			return out
		}
		require.NoError(t, err)
		out = append(out, v)
	}
}

func parse(t *testing.T, src string) *agentschema.Schema {
	t.Helper()
	s, err := agentschema.Parse([]byte(src))
	require.NoError(t, err)
	return s
}

const reviewSchema = `{"type":"object","required":["severity","summary"],"additionalProperties":false,
	"properties":{"severity":{"enum":["low","high"]},"summary":{"type":"string","minLength":3}}}`

const (
	wrongReview = `{"severity":"urgent","summary":"no"}`
	validReview = `{"severity":"high","summary":"a nil dereference"}`
)

const (
	timeout = 5e9 // 5 s
	tick    = 1e7 // 10 ms
)
