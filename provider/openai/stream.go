package openai

import (
	"context"
	"fmt"
	"iter"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"

	"github.com/agentio/agentio/provider"
)

// Stream makes the Provider a [provider.Streamer]: it sends req with
// streaming on and yields the reply as it arrives, the text and each tool
// call's arguments piece by piece, then the whole [provider.Response]
// (usage included: Chat Completions requests it with stream_options). API
// failures, before or during the reply, end the sequence with the
// *provider.Error that Generate would return. Leaving the range loop closes
// the connection.
func (p *Provider) Stream(ctx context.Context, req *provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		if req == nil {
			yield(provider.Chunk{}, invalid("nil request"))
			return
		}
		if req.MaxTokens < 0 {
			yield(provider.Chunk{}, invalid(fmt.Sprintf("negative max tokens %d", req.MaxTokens)))
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var rec recorder
		opts := append(append([]option.RequestOption(nil), p.opts...), option.WithMiddleware(rec.middleware))
		if p.api == APIResponses {
			p.streamResponses(ctx, req, &rec, opts, yield)
		} else {
			p.streamChat(ctx, req, &rec, opts, yield)
		}
	}
}

// streamChat streams from the Chat Completions API.
func (p *Provider) streamChat(ctx context.Context, req *provider.Request, rec *recorder, opts []option.RequestOption, yield func(provider.Chunk, error) bool) {
	params, err := p.chatParams(req)
	if err != nil {
		yield(provider.Chunk{}, err)
		return
	}
	params.StreamOptions.IncludeUsage = param.NewOpt(true)
	stream := p.client.Chat.Completions.NewStreaming(ctx, params, opts...)
	defer stream.Close()
	var acc sdk.ChatCompletionAccumulator
	for stream.Next() {
		chunk := stream.Current()
		acc.AddChunk(chunk)
		if len(chunk.Choices) == 0 {
			continue // the usage chunk
		}
		delta := chunk.Choices[0].Delta
		if delta.Content != "" && !yield(provider.Chunk{Text: delta.Content}, nil) {
			return
		}
		for _, tc := range delta.ToolCalls {
			d := &provider.ToolCallDelta{Index: int(tc.Index), ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments}
			if !yield(provider.Chunk{ToolCall: d}, nil) {
				return
			}
		}
	}
	if err := stream.Err(); err != nil {
		yield(provider.Chunk{}, classify(err, rec))
		return
	}
	if len(acc.Choices) == 0 {
		return // the stream ended before any choice: cut off
	}
	resp, err := chatResponse(&acc.ChatCompletion)
	if err != nil {
		yield(provider.Chunk{}, err)
		return
	}
	if acc.Choices[0].FinishReason == "" {
		return // no finish reason: the stream was cut off
	}
	yield(provider.Chunk{Response: resp}, nil)
}

// streamResponses streams from the Responses API: output text deltas,
// function call items and their argument deltas, and the final response.
func (p *Provider) streamResponses(ctx context.Context, req *provider.Request, rec *recorder, opts []option.RequestOption, yield func(provider.Chunk, error) bool) {
	params, err := p.responsesParams(req)
	if err != nil {
		yield(provider.Chunk{}, err)
		return
	}
	stream := p.client.Responses.NewStreaming(ctx, params, opts...)
	defer stream.Close()
	calls := map[int64]int{} // output index → tool call index
	for stream.Next() {
		ev := stream.Current()
		var c provider.Chunk
		switch ev.Type {
		case "response.output_text.delta":
			c.Text = ev.Delta
		case "response.output_item.added":
			if ev.Item.Type != "function_call" {
				continue
			}
			i := len(calls)
			calls[ev.OutputIndex] = i
			c.ToolCall = &provider.ToolCallDelta{Index: i, ID: ev.Item.CallID, Name: ev.Item.Name, Arguments: ev.Item.Arguments.OfString}
		case "response.function_call_arguments.delta":
			i, ok := calls[ev.OutputIndex]
			if !ok {
				continue
			}
			c.ToolCall = &provider.ToolCallDelta{Index: i, Arguments: ev.Delta}
		case "response.completed", "response.incomplete", "response.failed":
			c.Response = responsesResponse(&ev.Response)
		case "error":
			yield(provider.Chunk{}, &provider.Error{Kind: kindOf(0, "", ev.Message), Provider: Name, Code: ev.Code, Message: ev.Message})
			return
		default:
			continue
		}
		if c.Text == "" && c.ToolCall == nil && c.Response == nil {
			continue
		}
		if !yield(c, nil) || c.Response != nil {
			return
		}
	}
	if err := stream.Err(); err != nil {
		yield(provider.Chunk{}, classify(err, rec))
	}
}
