// Command gen writes the eval example's dataset and recordings: 220 cases
// over five inline schemas (testdata/cases.jsonl), and the replies of two
// scripted targets recorded through eval.Run with provider/record
// (testdata/recordings/model-a and model-b), so that a replay asks exactly
// what was recorded. Run it from the repository root:
//
//	go run ./examples/eval/internal/gen
//
// It is deterministic: the cases come from a fixed seed, and how each
// target answers each case (right at once, a string for a number, an enum
// in the wrong case, prose around the JSON, a missing field, a truncated
// reply, a refusal, a wrong value) is decided per case before the run, so
// that the order in which eval.Run's workers make calls changes nothing.
// The targets are scripts, not models: model-a's plan makes it right on
// the first call about 90% of the time, model-b's about 75% (as drawn:
// 200 and 159 of the 220 cases).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentio/agentio/eval"
	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/record"
)

func main() {
	dir := flag.String("dir", filepath.Join("examples", "eval", "testdata"), "the example's testdata `directory`")
	flag.Parse()
	if err := run(context.Background(), *dir, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// run writes the dataset and the recordings under dir and prints a line
// per target to w.
func run(ctx context.Context, dir string, w io.Writer) error {
	rng := rand.New(rand.NewPCG(28, 2026))
	specs := makeCases(rng, 220)
	if err := writeDataset(filepath.Join(dir, "cases.jsonl"), specs); err != nil {
		return err
	}
	cases, err := eval.LoadDataset(filepath.Join(dir, "cases.jsonl"))
	if err != nil {
		return err
	}
	var targets []eval.Target
	for _, m := range []struct {
		name string
		plan func(*rand.Rand) []behaviour
		seed uint64
	}{{"model-a", planA, 1}, {"model-b", planB, 2}} {
		mrng := rand.New(rand.NewPCG(28, m.seed))
		plans := map[string][]behaviour{}
		for i := range specs {
			plans[specs[i].id] = m.plan(mrng)
		}
		store := filepath.Join(dir, "recordings", m.name)
		if err := os.RemoveAll(store); err != nil {
			return err
		}
		p, err := record.New(scripted(specs, plans), store, record.Record, &record.Options{Model: m.name})
		if err != nil {
			return err
		}
		targets = append(targets, eval.Target{Name: m.name, Provider: p})
	}
	report, err := eval.Run(ctx, cases, targets)
	if err != nil {
		return err
	}
	for _, t := range report.Targets {
		fmt.Fprintf(w, "%s: %d cases, %d valid first, %d valid, %d calls\n", t.Name, t.Cases, t.ValidFirst, t.Valid, t.Calls)
	}
	return nil
}

// A spec is one generated case: its schema kind, prompt, the right answer
// and whether the dataset holds it as the expected value.
type spec struct {
	id       string
	kind     string
	prompt   string
	truth    map[string]any
	expected bool
}

func writeDataset(path string, specs []spec) error {
	var b strings.Builder
	for _, s := range specs {
		line := struct {
			ID       string          `json:"id"`
			Schema   json.RawMessage `json:"schema"`
			Prompt   string          `json:"prompt"`
			Expected any             `json:"expected,omitempty"`
		}{ID: s.id, Schema: json.RawMessage(schemas[s.kind]), Prompt: s.prompt}
		if s.expected {
			line.Expected = s.truth
		}
		data, err := json.Marshal(line)
		if err != nil {
			return err
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// A behaviour is how a scripted target answers one attempt.
type behaviour string

const (
	right     behaviour = "right"      // the right answer, as bare JSON
	prose     behaviour = "prose"      // the right answer in a fence, with prose around it
	wrong     behaviour = "wrong"      // schema-valid, one value wrong
	stringNum behaviour = "string_num" // a number written as a string
	enumCase  behaviour = "enum_case"  // an enum value in the wrong case
	missing   behaviour = "missing"    // a required field left out
	truncated behaviour = "truncated"  // cut off at the token limit
	cutShort  behaviour = "cut_short"  // cut off earlier still
	refusal   behaviour = "refusal"    // the model refuses
)

// planA: right at once about 90% of the time; the rest is fixed by one
// re-ask.
func planA(rng *rand.Rand) []behaviour {
	switch u := rng.Float64(); {
	case u < 0.78:
		return []behaviour{right}
	case u < 0.87:
		return []behaviour{prose}
	case u < 0.90:
		return []behaviour{wrong}
	case u < 0.94:
		return []behaviour{stringNum, right}
	case u < 0.97:
		return []behaviour{enumCase, right}
	default:
		return []behaviour{missing, right}
	}
}

// planB: right at once about 75% of the time, with truncations, some
// wrong values, a few runs no re-ask fixes and an occasional refusal.
func planB(rng *rand.Rand) []behaviour {
	switch u := rng.Float64(); {
	case u < 0.63:
		return []behaviour{right}
	case u < 0.71:
		return []behaviour{prose}
	case u < 0.76:
		return []behaviour{wrong}
	case u < 0.82:
		return []behaviour{stringNum, right}
	case u < 0.86:
		return []behaviour{enumCase, prose}
	case u < 0.90:
		return []behaviour{missing, right}
	case u < 0.945:
		return []behaviour{truncated, right}
	case u < 0.96:
		return []behaviour{truncated, cutShort, prose}
	case u < 0.985:
		return []behaviour{enumCase} // every attempt
	default:
		return []behaviour{refusal}
	}
}

// scripted is the target: it finds the case by its prompt in the first
// message, counts the attempts by the assistant turns, and answers as the
// case's plan says (the last step repeats).
func scripted(specs []spec, plans map[string][]behaviour) provider.Provider {
	return provider.Func(func(_ context.Context, req *provider.Request) (*provider.Response, error) {
		if len(req.Messages) == 0 {
			return nil, fmt.Errorf("gen: a request without messages")
		}
		first := req.Messages[0].Content
		var s *spec
		for i := range specs {
			if strings.Contains(first, specs[i].prompt) && (s == nil || len(specs[i].prompt) > len(s.prompt)) {
				s = &specs[i]
			}
		}
		if s == nil {
			return nil, fmt.Errorf("gen: no case for prompt %.60q", first)
		}
		plan := plans[s.id]
		resp := answer(s, plan[step(s, plan, req.Messages)])
		in := len(req.System)
		for _, m := range req.Messages {
			in += len(m.Content)
		}
		out := len(resp.Text) + len(resp.Refusal)
		resp.Usage = provider.Usage{InputTokens: in / 4, OutputTokens: out/4 + 1, TotalTokens: in/4 + out/4 + 1}
		resp.Model = "scripted"
		return resp, nil
	})
}

// step returns the index in plan of the reply to send: the first step
// when the model has not answered yet, else the step after the one whose
// reply is the last in the conversation (the last step repeats). The
// enforcement loop sends the first request, the last bad reply and the
// re-ask, not every attempt, so the reply must follow from that alone: a
// recording replays one reply per request.
func step(s *spec, plan []behaviour, msgs []provider.Message) int {
	last := ""
	for _, m := range msgs {
		if m.Role == provider.RoleAssistant {
			last = m.Content
		}
	}
	if last == "" {
		return 0
	}
	for k := len(plan) - 1; k >= 0; k-- {
		if answer(s, plan[k]).Text == last {
			return min(k+1, len(plan)-1)
		}
	}
	return len(plan) - 1
}

// answer renders one attempt's reply.
func answer(s *spec, b behaviour) *provider.Response {
	v := clone(s.truth)
	switch b {
	case right, prose, truncated, cutShort:
	case wrong:
		spoil(s.kind, v)
	case stringNum:
		stringify(s.kind, v)
	case enumCase:
		recase(s.kind, v)
	case missing:
		drop(s.kind, v)
	case refusal:
		return &provider.Response{Refusal: "I can't help with extracting personal or financial details.", StopReason: provider.StopRefusal}
	}
	data, _ := json.MarshalIndent(v, "", "  ")
	text := string(data)
	switch b {
	case prose:
		return &provider.Response{Text: "Here is the extracted data:\n\n```json\n" + text + "\n```\n\nLet me know if you need anything else.", StopReason: provider.StopEnd}
	case truncated:
		return &provider.Response{Text: text[:len(text)*3/5], StopReason: provider.StopLength}
	case cutShort:
		return &provider.Response{Text: text[:len(text)*2/5], StopReason: provider.StopLength}
	}
	return &provider.Response{Text: text, StopReason: provider.StopEnd}
}

func clone(m map[string]any) map[string]any {
	data, _ := json.Marshal(m)
	var v map[string]any
	_ = json.Unmarshal(data, &v)
	return v
}

// spoil makes one value wrong and keeps the output schema-valid.
func spoil(kind string, v map[string]any) {
	switch kind {
	case "invoice":
		v["total"] = v["total"].(float64) + 10
	case "ticket":
		v["needs_human"] = !v["needs_human"].(bool)
	case "contact":
		v["company"] = "Unknown"
	case "sentiment":
		if v["label"] == "neutral" {
			v["label"] = "positive"
		} else {
			v["label"] = "neutral"
		}
	case "actions":
		items := v["items"].([]any)
		items[0].(map[string]any)["owner"] = "team"
	}
}

// stringify writes a number as a string where the schema has one, else
// makes the enum mistake.
func stringify(kind string, v map[string]any) {
	switch kind {
	case "invoice":
		v["total"] = fmt.Sprintf("%.2f", v["total"].(float64))
	case "sentiment":
		v["confidence"] = fmt.Sprint(v["confidence"].(float64))
	case "ticket":
		v["needs_human"] = fmt.Sprint(v["needs_human"].(bool))
	default:
		drop(kind, v)
	}
}

// recase writes an enum value in upper or title case.
func recase(kind string, v map[string]any) {
	switch kind {
	case "invoice":
		v["currency"] = strings.ToLower(v["currency"].(string))
	case "ticket":
		s := v["severity"].(string)
		v["severity"] = strings.ToUpper(s[:1]) + s[1:]
	case "sentiment":
		v["label"] = strings.ToUpper(v["label"].(string))
	default:
		drop(kind, v)
	}
}

// drop leaves out a required field.
func drop(kind string, v map[string]any) {
	switch kind {
	case "invoice":
		delete(v, "currency")
	case "ticket":
		delete(v, "component")
	case "contact":
		delete(v, "email")
	case "sentiment":
		delete(v, "confidence")
	case "actions":
		delete(v["items"].([]any)[0].(map[string]any), "owner")
	}
}
