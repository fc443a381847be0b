package enforce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/schema"
)

var reviewReplies = []string{
	`{"a":1}`, " {\"a\":1} \n", "\ufeff{\"a\":1}", "\n\n{\n  \"a\": 1\n}\n", `{"a":"x"}`, `{"a":1} {"a":2}`, "```json\n{\"a\":1}\n```",
	`[{"a":1}]`, `{"a":1,"a":2}`, `{"a":"1"}`, `{"a":1.0}`, `{"a":1,}`, `{"a":1`, `{}`, `{"b":{"a":1}}`, `Here: {"a":1}`, `{"a":1}` + "\f",
	`{"a":"{\"a\":1}"}`, `{"a": 2}`, `{"a":1}` + " \t\r\n ", "\u00a0{\"a\":1}", `{"a":1e0}`,
}

func TestReviewEnforceDump(t *testing.T) {
	out := os.Getenv("REVIEW_DUMP")
	if out == "" {
		t.Skip()
	}
	var b strings.Builder
	s, _ := schema.Parse([]byte(`{"type":"object","required":["a"],"properties":{"a":{"type":"integer"}}}`))
	optsets := map[string][]enforce.Option{
		"plain": nil, "repair": {enforce.WithRepair()}, "strict": {enforce.WithStrictJSONOnly()}, "lenient": {enforce.WithLenient()},
		"noextract": {enforce.WithoutExtraction()}, "last": {enforce.WithPreferLast()}, "tool": {enforce.WithMode(enforce.ModeTool)},
	}
	for _, name := range []string{"plain", "repair", "strict", "lenient", "noextract", "last", "tool"} {
		for _, fail := range []bool{false, true} {
			for _, reply := range reviewReplies {
				calls := 0
				var seen []string
				v := func(_ context.Context, _ enforce.Attempt, val any) []schema.Violation {
					calls++
					j, _ := json.Marshal(val)
					seen = append(seen, string(j))
					if fail {
						return []schema.Violation{{Path: "$", Message: "no"}}
					}
					return nil
				}
				opts := append(append([]enforce.Option{}, optsets[name]...), enforce.WithValidator(v))
				e, err := enforce.New(s, opts...)
				if err != nil {
					fmt.Fprintf(&b, "%s: %v\n", name, err)
					continue
				}
				var vd enforce.Verdict
				if name == "tool" {
					vd = e.Check(context.Background(), enforce.State{}, &provider.Response{ToolCalls: []provider.ToolCall{
						{ID: "1", Name: enforce.ToolName, Arguments: json.RawMessage(reply)},
						{ID: "2", Name: enforce.ToolName, Arguments: json.RawMessage(`{"a":7}`)}}})
				} else {
					vd = e.CheckText(context.Background(), enforce.State{}, reply)
				}
				fmt.Fprintf(&b, "%s fail=%v %q: ok=%v json=%s outcome=%v viol=%v calls=%d seen=%v\n", name, fail, reply, vd.OK, vd.JSON, vd.Outcome, vd.Violations, calls, seen)
			}
		}
	}
	os.WriteFile(out, []byte(b.String()), 0o644)
}
