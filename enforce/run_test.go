package enforce_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/extract"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

func TestRunSuccessFirstTry(t *testing.T) {
	s := parse(t, reviewSchema)
	reply := "  " + validReview + "\n"
	p := providertest.New(providertest.Reply{Text: reply, Usage: provider.Usage{InputTokens: 100, OutputTokens: 20}})
	res, err := enforce.Run(ctx, p, enforce.Request{System: "You review code.", Prompt: "Review the diff."}, s)
	require.NoError(t, err)

	assert.Equal(t, validReview, string(res.JSON), "the model's own bytes")
	assert.Equal(t, "one blocker", res.Value.(map[string]any)["summary"])
	assert.Equal(t, reply, res.Text)
	assert.Equal(t, enforce.ModePrompt, res.Mode)
	assert.Equal(t, provider.Usage{InputTokens: 100, OutputTokens: 20, TotalTokens: 120}, res.Usage)
	require.Len(t, res.Attempts, 1)
	a := res.Attempts[0]
	assert.Equal(t, 1, a.Number)
	assert.Equal(t, enforce.OutcomeValid, a.Outcome)
	assert.Equal(t, extract.SourceWhole, a.Source)
	assert.Empty(t, a.Violations)
	assert.NotNil(t, a.Request)
	assert.NotNil(t, a.Response)

	reqs := p.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "You review code.", reqs[0].System)
	require.Len(t, reqs[0].Messages, 1)
	prompt := reqs[0].Messages[0].Content
	assert.True(t, strings.HasPrefix(prompt, "Review the diff.\n\n## Output format (required)"), prompt)
	assert.Contains(t, prompt, `"required": ["findings", "counts", "summary"]`, "a small schema is shown as written")
	assert.Equal(t, reqs[0], a.Request)
}

func TestRunInvalidThenValid(t *testing.T) {
	s := parse(t, reviewSchema)
	p := providertest.New(providertest.Text("Here you go:\n"+invalidReview), providertest.Text(validReview))
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review the diff."}, s)
	require.NoError(t, err)
	assert.JSONEq(t, validReview, string(res.JSON))

	reqs := p.Requests()
	require.Len(t, reqs, 2)
	second := reqs[1]
	require.Len(t, second.Messages, 3, "original prompt, bad reply, re-ask")
	assert.Equal(t, reqs[0].Messages[0], second.Messages[0])
	assert.Equal(t, provider.Message{Role: provider.RoleAssistant, Content: "Here you go:\n" + invalidReview}, second.Messages[1])
	reask := second.Messages[2]
	assert.Equal(t, provider.RoleUser, reask.Role)
	for _, path := range invalidReviewPaths {
		assert.Contains(t, reask.Content, "- "+path+": ")
	}
	assert.Contains(t, reask.Content, invalidReview, "the previous output")
	assert.Contains(t, reask.Content, "## Required schema")
	assert.Contains(t, reask.Content, "Answer with the corrected JSON only")

	require.Len(t, res.Attempts, 2)
	first := res.Attempts[0]
	assert.Equal(t, enforce.OutcomeInvalid, first.Outcome)
	var paths []string
	for _, v := range first.Violations {
		paths = append(paths, v.Path)
	}
	assert.ElementsMatch(t, invalidReviewPaths, paths)
	assert.Equal(t, enforce.OutcomeValid, res.Attempts[1].Outcome)
	assert.Equal(t, 2, res.Attempts[1].Number)
}

func TestRunExhaustion(t *testing.T) {
	s := parse(t, reviewSchema)
	for _, retries := range []int{0, 1, 2, 3} {
		t.Run(fmt.Sprintf("max retries %d", retries), func(t *testing.T) {
			replies := make([]providertest.Reply, retries+2) // one more than may be used
			for i := range replies {
				replies[i] = providertest.Reply{Text: invalidReview, Usage: provider.Usage{InputTokens: 10, OutputTokens: 5}}
			}
			p := providertest.New(replies...)
			res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithMaxRetries(retries))
			var ve *enforce.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Len(t, p.Requests(), retries+1, "exactly max retries + 1 calls")
			assert.Equal(t, 1, p.Remaining())
			assert.Equal(t, retries, ve.Retries)
			require.Len(t, ve.Attempts, retries+1)
			assert.Equal(t, res.Attempts, ve.Attempts)
			reqs := p.Requests()
			for i, a := range ve.Attempts {
				assert.Equal(t, i+1, a.Number)
				assert.Equal(t, enforce.OutcomeInvalid, a.Outcome)
				assert.Len(t, a.Violations, 3)
				assert.Equal(t, invalidReview, string(a.JSON))
				assert.Equal(t, reqs[i], a.Request, "the request of attempt %d", i+1)
				assert.Equal(t, 15, a.Usage.TotalTokens)
			}
			assert.Equal(t, invalidReview, ve.Output)
			assert.Len(t, ve.Violations, 3)
			assert.Equal(t, 15*(retries+1), ve.Usage.TotalTokens)
			assert.Equal(t, ve.Usage, res.Usage)
			assert.Nil(t, res.JSON)
			assert.NotErrorIs(t, err, enforce.ErrNoJSON)
			assert.True(t, strings.HasPrefix(err.Error(), "output validation failed after "), err.Error())
		})
	}
}

func TestRunNoJSON(t *testing.T) {
	s := parse(t, reviewSchema)
	p := providertest.New(providertest.Text("I could not find any issues."), providertest.Text("Still nothing to report."))
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithMaxRetries(1))
	require.Error(t, err)
	assert.ErrorIs(t, err, enforce.ErrNoJSON)
	assert.ErrorIs(t, err, extract.ErrNoJSON, "one sentinel, two names")
	assert.Equal(t, "output validation failed after 1 retry: $: No JSON output found but output_schema requires structured output", err.Error())
	require.Len(t, res.Attempts, 2)
	assert.Equal(t, enforce.OutcomeNoJSON, res.Attempts[1].Outcome)
	assert.Contains(t, lastContent(p.Requests()[1]), "I could not find any issues.")
}

func TestRunExampleBeforeAnswer(t *testing.T) {
	s := parse(t, reviewSchema)
	reply := "The format is like {\"findings\": [], \"counts\": {}} where counts has one key per severity.\n\n" +
		"My answer:\n" + validReview + "\nHope this helps {:"
	p := providertest.New(providertest.Text(reply))
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithMaxRetries(0))
	require.NoError(t, err)
	assert.Equal(t, validReview, string(res.JSON))
	assert.Equal(t, extract.SourceScan, res.Attempts[0].Source)
}

func TestRunClosestCandidateReported(t *testing.T) {
	s := parse(t, reviewSchema)
	reply := "Example: {\"x\": 1}\nAnswer: " + invalidReview
	p := providertest.New(providertest.Text(reply))
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithMaxRetries(0))
	require.Error(t, err)
	assert.Equal(t, invalidReview, string(res.Attempts[0].JSON), "the candidate closest to valid is reported")
}

func TestRunPreferLast(t *testing.T) {
	s := parse(t, `{"type":"object","required":["v"]}`)
	reply := `Draft: {"v": 1} Final: {"v": 2}`
	tests := []struct {
		name string
		opts []enforce.Option
		want string
	}{
		{"first by default", nil, `{"v": 1}`},
		{"last when preferred", []enforce.Option{enforce.WithPreferLast()}, `{"v": 2}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := enforce.Run(ctx, providertest.New(providertest.Text(reply)), enforce.Request{Prompt: "Go."}, s, tt.opts...)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(res.JSON))
		})
	}
}

func TestRunTruncation(t *testing.T) {
	s := parse(t, reviewSchema)
	cut := validReview[:40]

	t.Run("re-asks for a shorter answer", func(t *testing.T) {
		p := providertest.New(providertest.Truncated(cut), providertest.Text(validReview))
		res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review.", MaxTokens: 50}, s)
		require.NoError(t, err)
		assert.Equal(t, enforce.OutcomeTruncated, res.Attempts[0].Outcome)
		reqs := p.Requests()
		require.Len(t, reqs, 2)
		reask := lastContent(reqs[1])
		assert.Contains(t, reask, "cut off at the length limit")
		assert.Contains(t, reask, "shorter response")
		assert.NotContains(t, reask, "## Validation errors")
		assert.Equal(t, 50, reqs[1].MaxTokens)
	})

	t.Run("ends with ErrTruncated", func(t *testing.T) {
		p := providertest.New(providertest.Truncated(cut), providertest.Truncated(cut))
		res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithMaxRetries(1))
		assert.ErrorIs(t, err, enforce.ErrTruncated)
		var ve *enforce.ValidationError
		require.ErrorAs(t, err, &ve)
		assert.Equal(t, "$", ve.Violations[0].Path)
		assert.Len(t, res.Attempts, 2)
	})

	t.Run("repair closing the cut is not an answer", func(t *testing.T) {
		loose := parse(t, `{"type":"object"}`)
		p := providertest.New(providertest.Truncated(`{"a": [1, 2`), providertest.Text(`{"a": [1, 2, 3]}`))
		res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "List."}, loose, enforce.WithRepair())
		require.NoError(t, err)
		assert.Equal(t, enforce.OutcomeTruncated, res.Attempts[0].Outcome)
		assert.Equal(t, `{"a": [1, 2, 3]}`, string(res.JSON))
	})

	t.Run("complete JSON before the cut is accepted", func(t *testing.T) {
		p := providertest.New(providertest.Truncated(validReview + "\n\nLet me also explain each of the findings in"))
		res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s)
		require.NoError(t, err)
		assert.Equal(t, validReview, string(res.JSON))
		assert.NotEmpty(t, res.Attempts[0].Notes)
	})

	t.Run("raises max tokens instead", func(t *testing.T) {
		p := providertest.New(
			providertest.Reply{Text: cut, StopReason: provider.StopLength, Usage: provider.Usage{OutputTokens: 50}},
			providertest.Reply{Text: cut, StopReason: provider.StopLength, Usage: provider.Usage{OutputTokens: 100}},
			providertest.Reply{Text: cut, StopReason: provider.StopLength, Usage: provider.Usage{OutputTokens: 150}},
			providertest.Text(validReview),
		)
		res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review.", MaxTokens: 50}, s,
			enforce.WithRaiseMaxTokens(150), enforce.WithMaxRetries(3))
		require.NoError(t, err)
		reqs := p.Requests()
		require.Len(t, reqs, 4)
		assert.Equal(t, []int{50, 100, 150, 150}, []int{reqs[0].MaxTokens, reqs[1].MaxTokens, reqs[2].MaxTokens, reqs[3].MaxTokens})
		assert.Equal(t, reqs[0].Messages, reqs[1].Messages, "a raise resends the same conversation")
		assert.Equal(t, reqs[0].Messages, reqs[2].Messages)
		assert.Contains(t, lastContent(reqs[3]), "shorter response", "at the limit, a shorter answer is asked for")
		assert.Len(t, res.Attempts, 4)
	})
}

func TestRunRefusal(t *testing.T) {
	s := parse(t, reviewSchema)
	tests := []struct {
		name  string
		reply providertest.Reply
		want  string
	}{
		{"refusal", providertest.Refused("I can't help with that."), `enforce: model refused to answer: "I can't help with that."`},
		{"content filter", providertest.Reply{StopReason: provider.StopContentFilter}, "enforce: model refused to answer: stopped by the provider's content filter"},
		{"refusal stop with text", providertest.Reply{Text: "No.", StopReason: provider.StopRefusal}, `enforce: model refused to answer: "No."`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := providertest.New(tt.reply, providertest.Text(validReview))
			res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s)
			require.ErrorIs(t, err, enforce.ErrRefused)
			assert.EqualError(t, err, tt.want)
			assert.Len(t, p.Requests(), 1, "a refusal is not retried")
			require.NotNil(t, res)
			require.Len(t, res.Attempts, 1)
			assert.Equal(t, enforce.OutcomeRefused, res.Attempts[0].Outcome)
		})
	}
}

func TestRunProviderError(t *testing.T) {
	s := parse(t, reviewSchema)
	apiErr := &provider.Error{Kind: provider.ErrRateLimited, Provider: "test", StatusCode: 429, Message: "slow down"}
	p := providertest.New(providertest.Failed(apiErr), providertest.Text(validReview))
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s)
	require.ErrorIs(t, err, provider.ErrRateLimited)
	var pe *provider.Error
	require.ErrorAs(t, err, &pe)
	assert.Same(t, apiErr, pe)
	assert.EqualError(t, err, "enforce: attempt 1: test: rate_limited (HTTP 429): slow down")
	assert.Len(t, p.Requests(), 1, "a provider error is not retried")
	require.Len(t, res.Attempts, 1)
	assert.Equal(t, enforce.OutcomeProviderError, res.Attempts[0].Outcome)
	assert.Same(t, apiErr, res.Attempts[0].Err)
	assert.Nil(t, res.Attempts[0].Response)
}

func TestRunCustomValidator(t *testing.T) {
	s := parse(t, reviewSchema)
	// A count-consistency check: counts.blocker must equal the
	// number of blocker findings.
	var seen []int
	blockers := func(_ context.Context, a enforce.Attempt, value any) []schema.Violation {
		seen = append(seen, a.Number)
		v := value.(map[string]any)
		n := 0
		for _, f := range v["findings"].([]any) {
			if f.(map[string]any)["severity"] == "blocker" {
				n++
			}
		}
		if got := v["counts"].(map[string]any)["blocker"].(float64); int(got) != n {
			return []schema.Violation{{
				Path: "$.counts.blocker", Pointer: "/counts/blocker", Keyword: "x-count",
				Message: fmt.Sprintf("is %v but %d findings have severity 'blocker'", got, n),
			}}
		}
		return nil
	}
	wrongCount := strings.Replace(validReview, `"blocker":1`, `"blocker":3`, 1)
	p := providertest.New(providertest.Text(wrongCount), providertest.Text(validReview))
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithValidator(blockers))
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2}, seen, "the validator sees the attempt number")
	assert.Equal(t, validReview, string(res.JSON))
	assert.Equal(t, "$.counts.blocker", res.Attempts[0].Violations[0].Path)
	assert.Contains(t, lastContent(p.Requests()[1]), "- $.counts.blocker: is 3 but 1 findings have severity 'blocker'")

	t.Run("not called on schema-invalid values", func(t *testing.T) {
		called := false
		never := func(context.Context, enforce.Attempt, any) []schema.Violation { called = true; return nil }
		_, err := enforce.Run(ctx, providertest.New(providertest.Text(invalidReview)), enforce.Request{Prompt: "Review."}, s,
			enforce.WithValidator(never), enforce.WithMaxRetries(0))
		require.Error(t, err)
		assert.False(t, called)
	})
}

func TestRunContextCancelled(t *testing.T) {
	s := parse(t, reviewSchema)

	t.Run("between calls", func(t *testing.T) {
		c, cancel := context.WithCancel(ctx)
		defer cancel()
		script := providertest.New(providertest.Text(invalidReview), providertest.Text(validReview))
		p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
			resp, err := script.Generate(ctx, req)
			cancel() // the caller gives up while the first reply is checked
			return resp, err
		})
		res, err := enforce.Run(c, p, enforce.Request{Prompt: "Review."}, s)
		require.ErrorIs(t, err, context.Canceled)
		assert.EqualError(t, err, "enforce: before attempt 2: context canceled")
		assert.Len(t, script.Requests(), 1)
		require.Len(t, res.Attempts, 1)
	})

	t.Run("during a call", func(t *testing.T) {
		c, cancel := context.WithCancel(ctx)
		defer cancel()
		p := provider.Func(func(ctx context.Context, req *provider.Request) (*provider.Response, error) {
			cancel()
			<-ctx.Done()
			return nil, ctx.Err()
		})
		res, err := enforce.Run(c, p, enforce.Request{Prompt: "Review."}, s)
		require.ErrorIs(t, err, context.Canceled)
		require.Len(t, res.Attempts, 1)
		assert.Equal(t, enforce.OutcomeProviderError, res.Attempts[0].Outcome)
	})

	t.Run("before the first call", func(t *testing.T) {
		c, cancel := context.WithCancel(ctx)
		cancel()
		p := providertest.New(providertest.Text(validReview))
		res, err := enforce.Run(c, p, enforce.Request{Prompt: "Review."}, s)
		require.ErrorIs(t, err, context.Canceled)
		assert.Nil(t, res, "no attempt, no result")
		assert.Empty(t, p.Requests())
	})
}

func TestRunConcurrent(t *testing.T) {
	s := parse(t, reviewSchema)
	e, err := enforce.New(s, enforce.WithMaxRetries(1))
	require.NoError(t, err)
	// The shared Enforcer meets providers of every mode, so that its
	// per-dialect schema cache is filled and read concurrently.
	kinds := []struct {
		caps provider.Capabilities
		mode enforce.Mode
		tool bool
	}{
		{provider.Capabilities{}, enforce.ModePrompt, false},
		{provider.Capabilities{NativeSchema: true, StrictSchema: true, Dialect: "openai"}, enforce.ModeNative, false},
		{provider.Capabilities{Tools: true, ForcedTool: true, Dialect: "openai"}, enforce.ModeTool, true},
		{toolCaps, enforce.ModeTool, true},
	}
	const n = 32
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := kinds[i%len(kinds)]
			replies := []providertest.Reply{providertest.Text(invalidReview), providertest.Text(validReview)}
			if k.tool {
				replies = []providertest.Reply{providertest.CallTool(enforce.ToolName, invalidReview), providertest.CallTool(enforce.ToolName, validReview)}
			}
			script := providertest.New(replies...)
			p := provider.WithCapabilities(script, k.caps)
			var res *enforce.Result
			var err error
			if i%2 == 0 {
				res, err = enforce.Run(ctx, p, enforce.Request{Prompt: fmt.Sprint("Review ", i)}, s, enforce.WithMaxRetries(1))
			} else {
				res, err = e.Run(ctx, p, enforce.Request{Prompt: fmt.Sprint("Review ", i)})
			}
			if assert.NoError(t, err) {
				assert.Equal(t, k.mode, res.Mode)
				assert.Len(t, res.Attempts, 2)
				assert.Equal(t, enforce.OutcomeInvalid, res.Attempts[0].Outcome)
				assert.Equal(t, validReview, string(res.JSON))
			}
			reqs := script.Requests()
			if assert.Len(t, reqs, 2) {
				assert.Contains(t, lastContent(reqs[1]), "- $.summary: 'summary' is a required property")
			}
		}()
	}
	wg.Wait()
}

func TestRunHistory(t *testing.T) {
	s := parse(t, reviewSchema)
	history := []provider.Message{
		provider.UserMessage("Here is the diff: ..."),
		{Role: provider.RoleAssistant, Content: "Noted."},
	}
	req := enforce.Request{System: "sys", Messages: history, Prompt: "Now review it."}

	t.Run("sent before the prompt, caller's slice untouched", func(t *testing.T) {
		p := providertest.New(providertest.Text(validReview))
		_, err := enforce.Run(ctx, p, req, s)
		require.NoError(t, err)
		sent := p.Requests()[0].Messages
		require.Len(t, sent, 3)
		assert.Equal(t, history, sent[:2])
		assert.True(t, strings.HasPrefix(sent[2].Content, "Now review it.\n\n## Output format"))
		assert.Equal(t, "Noted.", history[1].Content)
		assert.Len(t, history, 2)
	})

	t.Run("messages ending with the user's turn", func(t *testing.T) {
		p := providertest.New(providertest.Text(validReview))
		_, err := enforce.Run(ctx, p, enforce.Request{Messages: history[:1]}, s)
		require.NoError(t, err)
		sent := p.Requests()[0].Messages
		require.Len(t, sent, 1)
		assert.True(t, strings.HasPrefix(sent[0].Content, "Here is the diff: ...\n\n## Output format"))
		assert.Equal(t, "Here is the diff: ...", history[0].Content)
	})

	t.Run("messages ending with the assistant's turn", func(t *testing.T) {
		p := providertest.New(providertest.Text(validReview))
		_, err := enforce.Run(ctx, p, enforce.Request{Messages: history}, s)
		require.NoError(t, err)
		sent := p.Requests()[0].Messages
		require.Len(t, sent, 3)
		assert.True(t, strings.HasPrefix(sent[2].Content, "## Output format"))
	})

	t.Run("re-asks carry the last failure only", func(t *testing.T) {
		p := providertest.New(providertest.Text("one"), providertest.Text("two"), providertest.Text(validReview))
		_, err := enforce.Run(ctx, p, req, s)
		require.NoError(t, err)
		third := p.Requests()[2].Messages
		require.Len(t, third, 5)
		assert.Equal(t, "two", third[3].Content)
		assert.Contains(t, third[4].Content, "## Required schema")
	})

	t.Run("full history", func(t *testing.T) {
		p := providertest.New(providertest.Text("one"), providertest.Text("two"), providertest.Text(validReview))
		_, err := enforce.Run(ctx, p, req, s, enforce.WithFullHistory())
		require.NoError(t, err)
		third := p.Requests()[2].Messages
		require.Len(t, third, 7)
		assert.Equal(t, "one", third[3].Content)
		assert.Contains(t, third[4].Content, "## Required schema")
		assert.Equal(t, "two", third[5].Content)
		assert.NotContains(t, third[6].Content, "## Required schema", "the schema is shown once")
	})
}

func TestRunSystemMode(t *testing.T) {
	s := parse(t, reviewSchema)
	p := providertest.New(providertest.Text(validReview))
	res, err := enforce.Run(ctx, p, enforce.Request{System: "You review code.", Prompt: "Review."}, s, enforce.WithMode(enforce.ModeSystem))
	require.NoError(t, err)
	assert.Equal(t, enforce.ModeSystem, res.Mode)
	sent := p.Requests()[0]
	assert.True(t, strings.HasPrefix(sent.System, "You review code.\n\n## Output format (required)"))
	assert.Equal(t, "Review.", sent.Messages[0].Content)
}

func TestRunStrictAndExtraction(t *testing.T) {
	s := parse(t, reviewSchema)
	fenced := "Sure!\n```json\n" + validReview + "\n```"
	tests := []struct {
		name    string
		reply   string
		opts    []enforce.Option
		wantErr error
		outcome enforce.Outcome
	}{
		{"extraction finds the fence", fenced, nil, nil, enforce.OutcomeValid},
		{"strict rejects text around", fenced, []enforce.Option{enforce.WithStrictJSONOnly()}, enforce.ErrNonJSONText, enforce.OutcomeNonJSONText},
		{"strict accepts a lone fence", "```json\n" + validReview + "\n```", []enforce.Option{enforce.WithStrictJSONOnly()}, nil, enforce.OutcomeValid},
		{"extraction off rejects a fence", fenced, []enforce.Option{enforce.WithoutExtraction()}, enforce.ErrNoJSON, enforce.OutcomeNoJSON},
		{"extraction off accepts bare JSON", "\n" + validReview + "\n", []enforce.Option{enforce.WithoutExtraction()}, nil, enforce.OutcomeValid},
		{"no repair by default", `{"findings": [], "counts": {"blocker": 0, "major": 0, "minor": 0}, "summary": "ok",}`, nil, enforce.ErrNoJSON, enforce.OutcomeNoJSON},
		{"repair", `{"findings": [], "counts": {"blocker": 0, "major": 0, "minor": 0}, "summary": "ok",}`, []enforce.Option{enforce.WithRepair()}, nil, enforce.OutcomeValid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := append([]enforce.Option{enforce.WithMaxRetries(0)}, tt.opts...)
			res, err := enforce.Run(ctx, providertest.New(providertest.Text(tt.reply)), enforce.Request{Prompt: "Review."}, s, opts...)
			if tt.wantErr != nil {
				assert.ErrorIs(t, err, tt.wantErr)
			} else {
				assert.NoError(t, err)
			}
			require.Len(t, res.Attempts, 1)
			assert.Equal(t, tt.outcome, res.Attempts[0].Outcome)
		})
	}

	t.Run("repair fixes are recorded", func(t *testing.T) {
		res, err := enforce.Run(ctx, providertest.New(providertest.Text(`{"findings": [], "counts": {"blocker": 0, "major": 0, "minor": 0}, "summary": "ok",}`)),
			enforce.Request{Prompt: "Review."}, s, enforce.WithRepair())
		require.NoError(t, err)
		a := res.Attempts[0]
		assert.Equal(t, extract.SourceRepaired, a.Source)
		require.NotEmpty(t, a.Fixes)
		assert.Equal(t, extract.FixTrailingComma, a.Fixes[0].Kind)
		assert.JSONEq(t, `{"findings": [], "counts": {"blocker": 0, "major": 0, "minor": 0}, "summary": "ok"}`, string(res.JSON))
	})
}

func TestRunCustomReask(t *testing.T) {
	s := parse(t, reviewSchema)
	var got enforce.Reask
	reask := func(r enforce.Reask) string {
		got = r
		return "Attempt " + fmt.Sprint(r.Attempt) + " failed.\n" + enforce.DefaultReask(r)
	}
	p := providertest.New(providertest.Text(invalidReview), providertest.Text(validReview))
	_, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithReask(reask))
	require.NoError(t, err)
	assert.Equal(t, 1, got.Attempt)
	assert.Equal(t, enforce.OutcomeInvalid, got.Outcome)
	assert.Len(t, got.Violations, 3)
	assert.Equal(t, invalidReview, got.Output)
	assert.True(t, strings.HasPrefix(lastContent(p.Requests()[1]), "Attempt 1 failed.\nYour previous response did not match"))
}

func TestRunTokenBudget(t *testing.T) {
	s := parse(t, reviewSchema)
	usage := provider.Usage{InputTokens: 400, OutputTokens: 100}

	t.Run("stops before a call that does not fit", func(t *testing.T) {
		p := providertest.New(
			providertest.Reply{Text: invalidReview, Usage: usage},
			providertest.Reply{Text: validReview, Usage: usage},
		)
		res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithTokenBudget(800))
		require.ErrorIs(t, err, enforce.ErrTokenBudget)
		var ve *enforce.ValidationError
		require.ErrorAs(t, err, &ve)
		assert.Equal(t, 0, ve.Retries, "the re-ask was not sent")
		assert.Len(t, ve.Violations, 3)
		assert.Contains(t, err.Error(), "output validation failed after 0 retries (token budget exhausted): ")
		assert.Len(t, p.Requests(), 1)
		assert.Len(t, res.Attempts, 1)
		assert.LessOrEqual(t, p.Requests()[0].MaxTokens, 800)
	})

	t.Run("lowers max tokens to what is left", func(t *testing.T) {
		p := providertest.New(providertest.Reply{Text: validReview, Usage: usage})
		_, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review.", MaxTokens: 100000}, s, enforce.WithTokenBudget(5000))
		require.NoError(t, err)
		sent := p.Requests()[0]
		assert.Less(t, sent.MaxTokens, 5000)
		assert.Greater(t, sent.MaxTokens, 4000)
	})

	t.Run("budget spent ends without a re-ask", func(t *testing.T) {
		p := providertest.New(providertest.Reply{Text: "no json", Usage: provider.Usage{InputTokens: 900, OutputTokens: 200}})
		_, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithTokenBudget(1000))
		require.ErrorIs(t, err, enforce.ErrTokenBudget)
		assert.ErrorIs(t, err, enforce.ErrNoJSON, "the last failure still matches")
		assert.Len(t, p.Requests(), 1)
	})

	t.Run("first call too large", func(t *testing.T) {
		p := providertest.New(providertest.Text(validReview))
		res, err := enforce.Run(ctx, p, enforce.Request{Prompt: strings.Repeat("word ", 1000)}, s, enforce.WithTokenBudget(100))
		require.ErrorIs(t, err, enforce.ErrTokenBudget)
		assert.Nil(t, res)
		assert.Empty(t, p.Requests())
	})
}

func TestRunHooksAndLogger(t *testing.T) {
	s := parse(t, reviewSchema)
	var outcomes []enforce.Outcome
	var numbers []int
	hook := func(_ context.Context, a enforce.Attempt) {
		outcomes = append(outcomes, a.Outcome)
		numbers = append(numbers, a.Number)
		assert.NotNil(t, a.Request)
		assert.Positive(t, a.Duration)
	}
	var logs strings.Builder
	logger := newTestLogger(&logs)
	p := providertest.New(providertest.Text("nothing"), providertest.Text(invalidReview), providertest.Text(validReview))
	_, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Review."}, s, enforce.WithAttemptHook(hook), enforce.WithLogger(logger))
	require.NoError(t, err)
	assert.Equal(t, []enforce.Outcome{enforce.OutcomeNoJSON, enforce.OutcomeInvalid, enforce.OutcomeValid}, outcomes)
	assert.Equal(t, []int{1, 2, 3}, numbers)
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	require.Len(t, lines, 3, "one line per attempt")
	assert.Contains(t, lines[0], "level=DEBUG msg=\"enforce attempt\" attempt=1 mode=prompt outcome=no_json violations=1")
	assert.Contains(t, lines[1], "attempt=2 mode=prompt outcome=invalid violations=3")
	assert.Contains(t, lines[2], "attempt=3 mode=prompt outcome=valid violations=0")
}

func TestRunRejectsBeforeCalling(t *testing.T) {
	s := parse(t, reviewSchema)
	hook := func(context.Context, enforce.Attempt) {}
	tests := []struct {
		name    string
		p       provider.Provider
		req     enforce.Request
		s       *schema.Schema
		opts    []enforce.Option
		wantErr error
		wantMsg string
	}{
		{"negative retries", nil, enforce.Request{Prompt: "x"}, s, []enforce.Option{enforce.WithMaxRetries(-1)}, enforce.ErrInvalidOption, "enforce: invalid option: WithMaxRetries(-1): must not be negative"},
		{"unknown mode", nil, enforce.Request{Prompt: "x"}, s, []enforce.Option{enforce.WithMode("json")}, enforce.ErrInvalidOption, `enforce: invalid option: WithMode("json"): unknown mode`},
		{"nil option", nil, enforce.Request{Prompt: "x"}, s, []enforce.Option{enforce.WithRepair(), nil}, enforce.ErrInvalidOption, "enforce: invalid option: option 1 is nil"},
		{"nil validator", nil, enforce.Request{Prompt: "x"}, s, []enforce.Option{enforce.WithValidator(nil)}, enforce.ErrInvalidOption, "enforce: invalid option: WithValidator(nil)"},
		{"nil hook", nil, enforce.Request{Prompt: "x"}, s, []enforce.Option{enforce.WithAttemptHook(nil), enforce.WithAttemptHook(hook)}, enforce.ErrInvalidOption, "enforce: invalid option: WithAttemptHook(nil)"},
		{"nil reask", nil, enforce.Request{Prompt: "x"}, s, []enforce.Option{enforce.WithReask(nil)}, enforce.ErrInvalidOption, "enforce: invalid option: WithReask(nil)"},
		{"zero raise", nil, enforce.Request{Prompt: "x"}, s, []enforce.Option{enforce.WithRaiseMaxTokens(0)}, enforce.ErrInvalidOption, "enforce: invalid option: WithRaiseMaxTokens(0): must be positive"},
		{"negative budget", nil, enforce.Request{Prompt: "x"}, s, []enforce.Option{enforce.WithTokenBudget(-5)}, enforce.ErrInvalidOption, "enforce: invalid option: WithTokenBudget(-5): must be positive"},
		{"nil schema", nil, enforce.Request{Prompt: "x"}, nil, nil, enforce.ErrInvalidRequest, "enforce: invalid request: nil schema"},
		{"empty request", nil, enforce.Request{System: "only a system prompt"}, s, nil, enforce.ErrInvalidRequest, "enforce: invalid request: no prompt and no messages"},
		{"native without support", nil, enforce.Request{Prompt: "x"}, s, []enforce.Option{enforce.WithMode(enforce.ModeNative)}, enforce.ErrInvalidRequest, "enforce: invalid request: mode native: the provider has no native schema mode"},
		{"tool without support", nil, enforce.Request{Prompt: "x"}, s, []enforce.Option{enforce.WithMode(enforce.ModeTool)}, enforce.ErrInvalidRequest, "enforce: invalid request: mode tool: the provider does not support tools"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := providertest.New(providertest.Text(validReview))
			res, err := enforce.Run(ctx, p, tt.req, tt.s, tt.opts...)
			require.ErrorIs(t, err, tt.wantErr)
			assert.EqualError(t, err, tt.wantMsg)
			assert.Nil(t, res)
			assert.Empty(t, p.Requests(), "no provider call")
		})
	}

	t.Run("nil provider", func(t *testing.T) {
		res, err := enforce.Run(ctx, nil, enforce.Request{Prompt: "x"}, s)
		require.ErrorIs(t, err, enforce.ErrInvalidRequest)
		assert.Nil(t, res)
	})
}

func TestValidationErrorIsAndAs(t *testing.T) {
	err := fmt.Errorf("job 7: %w", &enforce.ValidationError{Retries: 2, Err: enforce.ErrTruncated})
	var ve *enforce.ValidationError
	require.True(t, errors.As(err, &ve))
	assert.ErrorIs(t, err, enforce.ErrTruncated)
	assert.NotErrorIs(t, err, enforce.ErrNoJSON)
}

func TestRunUndecodableNumber(t *testing.T) {
	s := parse(t, `{"type":"object"}`)
	p := providertest.New(providertest.Text(`{"v": 1e400}`), providertest.Text(`{"v": 1e300}`))
	res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Big?"}, s)
	require.NoError(t, err)
	first := res.Attempts[0]
	assert.Equal(t, enforce.OutcomeInvalid, first.Outcome)
	assert.Contains(t, first.Violations[0].Message, "the value cannot be decoded: ")
}

// TestRunRepairSettledBySchema: a broken reply with two plausible repairs
// is settled by the schema, which the loop hands to extraction; without a
// schema that tells them apart, repair makes no guess and the model is
// re-asked.
func TestRunRepairSettledBySchema(t *testing.T) {
	reply := `["hello,"world"]`
	for _, tc := range []struct {
		name, schema, want string
	}{
		{"two strings", `{"type": "array", "items": {"type": "string"}, "minItems": 2}`, `["hello","world"]`},
		{"one string", `{"type": "array", "items": {"type": "string"}, "maxItems": 1}`, `["hello,\"world"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := providertest.New(providertest.Text(reply))
			res, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Words?"}, parse(t, tc.schema), enforce.WithRepair(), enforce.WithMaxRetries(0))
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(res.JSON))
			assert.Equal(t, extract.SourceRepaired, res.Attempts[0].Source)
		})
	}
	p := providertest.New(providertest.Text(reply))
	_, err := enforce.Run(ctx, p, enforce.Request{Prompt: "Words?"}, parse(t, `{"type": "array"}`), enforce.WithRepair(), enforce.WithMaxRetries(0))
	require.Error(t, err, "both readings pass: no guess")
}
