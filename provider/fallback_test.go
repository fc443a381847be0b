package provider_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
)

func TestFallback(t *testing.T) {
	schemaRejected := &provider.Error{Kind: provider.ErrSchemaRejected, StatusCode: 400}
	auth := &provider.Error{Kind: provider.ErrAuth, StatusCode: 401}
	reset := &provider.Error{Kind: provider.ErrOther, Message: "connection reset"}
	tests := []struct {
		name     string
		opts     *provider.FallbackOptions
		first    providertest.Reply
		second   providertest.Reply
		want     string // Response.Provider, "" for an error
		wantErr  error
		calls    [2]int
		fellFrom []int
	}{
		{name: "the first answers", first: providertest.Text("a"), second: providertest.Text("b"), want: "0", calls: [2]int{1, 0}},
		{name: "rate limited: the next answers", first: providertest.Failed(rateLimited(0)), second: providertest.Text("b"), want: "1", calls: [2]int{1, 1}, fellFrom: []int{0}},
		{name: "overloaded: the next answers", first: providertest.Failed(overloaded), second: providertest.Text("b"), want: "1", calls: [2]int{1, 1}, fellFrom: []int{0}},
		{name: "schema rejected: the next answers", first: providertest.Failed(schemaRejected), second: providertest.Text("b"), want: "1", calls: [2]int{1, 1}, fellFrom: []int{0}},
		{name: "auth: returned at once", first: providertest.Failed(auth), second: providertest.Text("b"), wantErr: provider.ErrAuth, calls: [2]int{1, 0}},
		{name: "a network failure is not a named kind", first: providertest.Failed(reset), second: providertest.Text("b"), wantErr: provider.ErrOther, calls: [2]int{1, 0}},
		{
			name: "kinds named by the caller", opts: &provider.FallbackOptions{On: []provider.ErrorKind{provider.ErrOther}, Names: []string{"primary", "backup"}},
			first: providertest.Failed(reset), second: providertest.Text("b"), want: "backup", calls: [2]int{1, 1}, fellFrom: []int{0},
		},
		{
			name: "overloaded, not named by the caller", opts: &provider.FallbackOptions{On: []provider.ErrorKind{provider.ErrOther}},
			first: providertest.Failed(overloaded), second: providertest.Text("b"), wantErr: provider.ErrOverloaded, calls: [2]int{1, 0},
		},
		{name: "both fail: the last error", first: providertest.Failed(overloaded), second: providertest.Failed(rateLimited(0)), wantErr: provider.ErrRateLimited, calls: [2]int{1, 1}, fellFrom: []int{0}},
	}
	for _, tt := range tests {
		for _, streamed := range []bool{false, true} {
			name := tt.name
			if streamed {
				name += ", streamed"
			}
			t.Run(name, func(t *testing.T) {
				a, b := providertest.New(tt.first), providertest.New(tt.second)
				var o provider.FallbackOptions
				if tt.opts != nil {
					o = *tt.opts
				}
				var fell []int
				o.OnFallback = func(_ context.Context, from int, err error) {
					assert.Error(t, err)
					fell = append(fell, from)
				}
				p, err := provider.Fallback([]provider.Provider{a, b}, &o)
				require.NoError(t, err)
				var resp *provider.Response
				if streamed {
					resp, err = provider.Collect(p.(provider.Streamer).Stream(context.Background(), &provider.Request{}))
				} else {
					resp, err = p.Generate(context.Background(), &provider.Request{})
				}
				if tt.wantErr != nil {
					assert.ErrorIs(t, err, tt.wantErr)
					assert.Nil(t, resp)
				} else {
					require.NoError(t, err)
					assert.Equal(t, tt.want, resp.Provider)
				}
				assert.Equal(t, tt.calls, [2]int{len(a.Requests()), len(b.Requests())})
				assert.Equal(t, tt.fellFrom, fell)
			})
		}
	}
}

// TestFallbackStreamAfterFirstChunk: once a chunk is delivered, a
// failure is passed on, not sent to the next provider.
func TestFallbackStreamAfterFirstChunk(t *testing.T) {
	a := providertest.New(providertest.Reply{Chunks: []string{"par"}, Err: overloaded})
	b := providertest.New(providertest.Text("b"))
	p, err := provider.Fallback([]provider.Provider{a, b}, nil)
	require.NoError(t, err)
	chunks, err := providertest.Chunks(p.(provider.Streamer).Stream(context.Background(), &provider.Request{}))
	assert.ErrorIs(t, err, provider.ErrOverloaded)
	require.Len(t, chunks, 1)
	assert.Equal(t, "par", chunks[0].Text)
	assert.Empty(t, b.Requests())
}

// TestFallbackMixedStreaming: a provider that does not stream serves its
// reply as chunks in a chain that streams.
func TestFallbackMixedStreaming(t *testing.T) {
	a := providertest.New(providertest.Failed(overloaded))
	b := provider.Func(func(context.Context, *provider.Request) (*provider.Response, error) {
		return &provider.Response{Text: "whole", StopReason: provider.StopEnd}, nil
	})
	p, err := provider.Fallback([]provider.Provider{a, b}, nil)
	require.NoError(t, err)
	resp, err := provider.Collect(p.(provider.Streamer).Stream(context.Background(), &provider.Request{}))
	require.NoError(t, err)
	assert.Equal(t, "whole", resp.Text)
	assert.Equal(t, "1", resp.Provider)

	only, err := provider.Fallback([]provider.Provider{b}, nil)
	require.NoError(t, err)
	_, streams := only.(provider.Streamer)
	assert.False(t, streams, "no provider streams, nor does the chain")
}

func TestFallbackCapabilities(t *testing.T) {
	openai := provider.Capabilities{NativeSchema: true, StrictSchema: true, JSONMode: true, Tools: true, ForcedTool: true, SchemaWithTools: true, Dialect: "openai"}
	weaker := provider.Capabilities{NativeSchema: true, JSONMode: true, Tools: true, Dialect: "openai"}
	gemini := provider.Capabilities{NativeSchema: true, JSONMode: true, Tools: true, ForcedTool: true, Dialect: "gemini"}
	with := func(c provider.Capabilities) provider.Provider {
		return provider.WithCapabilities(providertest.New(), c)
	}
	tests := []struct {
		name      string
		providers []provider.Provider
		opts      *provider.FallbackOptions
		want      provider.Capabilities
	}{
		{"one", []provider.Provider{with(openai)}, nil, openai},
		{"what both have", []provider.Provider{with(openai), with(weaker)}, nil, provider.Capabilities{NativeSchema: true, JSONMode: true, Tools: true, Dialect: "openai"}},
		{"dialects differ: no schema features", []provider.Provider{with(openai), with(gemini)}, nil, provider.Capabilities{JSONMode: true}},
		{"overridden", []provider.Provider{with(openai), with(gemini)}, &provider.FallbackOptions{Capabilities: &gemini}, gemini},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := provider.Fallback(tt.providers, tt.opts)
			require.NoError(t, err)
			assert.Equal(t, tt.want, p.Capabilities())
		})
	}
}

func TestFallbackInvalidOptions(t *testing.T) {
	p := providertest.New()
	for name, call := range map[string]func() (provider.Provider, error){
		"none": func() (provider.Provider, error) { return provider.Fallback(nil, nil) },
		"nil":  func() (provider.Provider, error) { return provider.Fallback([]provider.Provider{p, nil}, nil) },
		"names short": func() (provider.Provider, error) {
			return provider.Fallback([]provider.Provider{p, p}, &provider.FallbackOptions{Names: []string{"a"}})
		},
	} {
		_, err := call()
		assert.ErrorIs(t, err, provider.ErrInvalidOption, name)
	}
}

// TestFallbackCancelled: an error once ctx has ended is returned, not
// sent to the next provider.
func TestFallbackCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	a := provider.Func(func(context.Context, *provider.Request) (*provider.Response, error) {
		cancel()
		return nil, &provider.Error{Kind: provider.ErrOverloaded, Err: context.Canceled}
	})
	b := providertest.New(providertest.Text("b"))
	p, err := provider.Fallback([]provider.Provider{a, b}, nil)
	require.NoError(t, err)
	_, err = p.Generate(ctx, &provider.Request{})
	assert.True(t, errors.Is(err, context.Canceled))
	assert.Empty(t, b.Requests())
}
