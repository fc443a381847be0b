package langchaingoagentio_test

import (
	"context"
	"sync"

	"github.com/tmc/langchaingo/llms"
)

// A scripted reply of the test model: the choice it returns, or the error,
// and, when Chunks is set, the text it streams first.
type reply struct {
	choice *llms.ContentChoice
	err    error
	chunks []string
}

// scriptedModel is an llms.Model that answers from a script and records
// each call's messages and call options, applied as LangChainGo's clients
// apply them. When a call streams, it sends each chunk through the
// StreamingFunc and stops at the first error it returns, as the clients
// do.
type scriptedModel struct {
	mu      sync.Mutex
	replies []reply
	calls   []call
}

type call struct {
	messages []llms.MessageContent
	opts     llms.CallOptions
	ctxErr   error // the call's context error when it returned
}

func (m *scriptedModel) GenerateContent(ctx context.Context, msgs []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	var opts llms.CallOptions
	for _, o := range options {
		o(&opts)
	}
	m.mu.Lock()
	if len(m.replies) == 0 {
		m.mu.Unlock()
		return nil, llms.NewError(llms.ErrCodeUnknown, "scripted", "no scripted reply left")
	}
	r := m.replies[0]
	m.replies = m.replies[1:]
	m.mu.Unlock()
	record := func() {
		m.mu.Lock()
		m.calls = append(m.calls, call{messages: msgs, opts: opts, ctxErr: ctx.Err()})
		m.mu.Unlock()
	}
	defer record()
	if opts.StreamingFunc != nil {
		for _, c := range r.chunks {
			if err := opts.StreamingFunc(ctx, []byte(c)); err != nil {
				return nil, err
			}
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{r.choice}}, nil
}

func (m *scriptedModel) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, options...)
}

func (m *scriptedModel) recorded() []call {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]call(nil), m.calls...)
}

// text is a reply of text that ended.
func text(s string) reply {
	return reply{choice: &llms.ContentChoice{Content: s, StopReason: "stop",
		GenerationInfo: map[string]any{"PromptTokens": 10, "CompletionTokens": 5, "TotalTokens": 15}}}
}

// streamed is a reply streamed in the chunks given, then whole.
func streamed(chunks ...string) reply {
	r := text(joined(chunks))
	r.chunks = chunks
	return r
}

func joined(chunks []string) string {
	s := ""
	for _, c := range chunks {
		s += c
	}
	return s
}

const reviewSchema = `{"type":"object","required":["severity","summary"],"additionalProperties":false,
	"properties":{"severity":{"enum":["low","high"]},"summary":{"type":"string","minLength":3}}}`

const (
	wrongReview = `{"severity":"urgent","summary":"no"}`
	validReview = `{"severity":"high","summary":"a nil dereference"}`
)
