package gemini

import (
	"context"
	"fmt"
	"iter"

	"google.golang.org/genai"

	"github.com/agentio/agentio/provider"
)

var _ provider.Streamer = (*Provider)(nil)

// Stream makes the Provider a [provider.Streamer]: it sends req, built as
// Generate builds it, to streamGenerateContent (server-sent events) and
// yields the reply as it arrives: each text part as a text chunk (thought
// parts left out), each functionCall part, which the API sends whole, as
// one [provider.ToolCallDelta] with the call's id, name and arguments, then
// the whole [provider.Response], equal to what Generate returns for the
// same reply (finish reason, refusal, usage of the last event). A stream
// that ends without a finish reason or a blocked prompt was cut off: the
// sequence then ends without a Response and without an error. A connection
// dropped mid-stream is a network failure, an error of kind other matching
// io.ErrUnexpectedEOF, whoever built the client.
//
// A request the adapter cannot map, and API failures, before the reply (an
// HTTP error status) or during it (an error object in the stream), end the
// sequence with the error Generate would return; a cancelled ctx ends it
// with an error matching ctx's. Leaving the range loop closes the
// connection. Stream may be called concurrently; req is not modified.
func (p *Provider) Stream(ctx context.Context, req *provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		contents, cfg, err := p.prepare(req)
		if err != nil {
			yield(provider.Chunk{}, err)
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		next, stop := iter.Pull2(p.stream(ctx, contents, cfg))
		defer stop()
		var acc accumulator
		for {
			out, err, ok := pull(next)
			if !ok {
				break
			}
			if err != nil {
				yield(provider.Chunk{}, classify(err, withSchema(cfg)))
				return
			}
			for _, c := range acc.add(out) {
				if !yield(c, nil) {
					return
				}
			}
		}
		switch {
		case acc.done:
			yield(provider.Chunk{Response: response(acc.reply())}, nil)
		case ctx.Err() != nil:
			yield(provider.Chunk{}, classify(ctx.Err(), withSchema(cfg)))
		}
	}
}

// stream calls the SDK. Its GenerateContentStream sends the request when
// called, so the call is made in the sequence, where [pull] catches a
// panic of the SDK's (see Provider.generate).
func (p *Provider) stream(ctx context.Context, contents []*genai.Content, cfg *genai.GenerateContentConfig) iter.Seq2[*genai.GenerateContentResponse, error] {
	return func(yield func(*genai.GenerateContentResponse, error) bool) {
		for out, err := range p.client.Models.GenerateContentStream(ctx, p.model, contents, cfg) {
			if !yield(out, err) {
				return
			}
		}
	}
}

// pull calls next, turning a panic of the SDK's into an error that ends
// the stream.
func pull(next func() (*genai.GenerateContentResponse, error, bool)) (out *genai.GenerateContentResponse, err error, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			out, err, ok = nil, fmt.Errorf("%w: %v", errSDKPanic, r), true
		}
	}()
	return next()
}

// An accumulator joins the streamed responses into the one that
// generateContent would have sent: the first candidate's parts in order,
// the last finish reason, prompt feedback, usage and model version.
type accumulator struct {
	resp    genai.GenerateContentResponse
	cand    genai.Candidate
	content genai.Content
	seen    bool // a candidate came
	calls   int  // function calls so far
	done    bool // a finish reason or a blocked prompt came
}

// add takes the next streamed response and returns the chunks it brings.
func (a *accumulator) add(out *genai.GenerateContentResponse) []provider.Chunk {
	if out == nil {
		return nil
	}
	if out.ModelVersion != "" {
		a.resp.ModelVersion = out.ModelVersion
	}
	if out.UsageMetadata != nil {
		a.resp.UsageMetadata = out.UsageMetadata
	}
	if fb := out.PromptFeedback; fb != nil {
		a.resp.PromptFeedback = fb
		a.done = a.done || fb.BlockReason != ""
	}
	if len(out.Candidates) == 0 || out.Candidates[0] == nil {
		return nil
	}
	c := out.Candidates[0]
	a.seen = true
	if c.FinishReason != "" {
		a.cand.FinishReason = c.FinishReason
		a.done = true
	}
	if c.FinishMessage != "" {
		a.cand.FinishMessage = c.FinishMessage
	}
	if c.Content == nil {
		return nil
	}
	var chunks []provider.Chunk
	for _, part := range c.Content.Parts {
		if part == nil {
			continue
		}
		a.content.Parts = append(a.content.Parts, part)
		switch {
		case part.Thought:
		case part.FunctionCall != nil:
			tc := toolCall(part, a.calls)
			chunks = append(chunks, provider.Chunk{ToolCall: &provider.ToolCallDelta{Index: a.calls, ID: tc.ID, Name: tc.Name, Arguments: string(tc.Arguments)}})
			a.calls++
		case part.Text != "":
			chunks = append(chunks, provider.Chunk{Text: part.Text})
		}
	}
	return chunks
}

// reply returns the joined response.
func (a *accumulator) reply() *genai.GenerateContentResponse {
	resp := a.resp
	if a.seen {
		cand := a.cand
		content := a.content
		cand.Content = &content
		resp.Candidates = []*genai.Candidate{&cand}
	}
	return &resp
}
