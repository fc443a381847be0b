package enforce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/internal/benchkit"
	"github.com/agentio/agentio/provider"
)

// A replyShape is a schema and a reply of about 100 KB that fills it, in a
// form unlike the review of BenchmarkCheck.
type replyShape struct {
	name   string
	schema string
	// reply returns the reply's JSON; bad makes some of it invalid.
	reply func(bad bool) string
}

var replyShapes = []replyShape{
	{
		// Many small records, each with a patterned string, an enum and
		// numeric bounds: a table extracted from a document.
		name: "records",
		schema: `{"type":"object","required":["rows"],"properties":{"rows":{"type":"array","items":{
			"type":"object","required":["id","status","score"],"additionalProperties":false,"properties":{
			"id":{"type":"string","pattern":"^[A-Z]{3}-[0-9]{4}$"},
			"status":{"enum":["open","closed","pending"]},
			"score":{"type":"integer","minimum":0,"maximum":100},
			"note":{"type":"string","maxLength":40}}}}}}`,
		reply: func(bad bool) string {
			var b strings.Builder
			b.WriteString(`{"rows":[`)
			for i := 0; b.Len() < 100<<10; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				id := fmt.Sprintf("ABC-%04d", i%10000)
				if bad && i%10 == 0 {
					id = fmt.Sprintf("abc-%d", i)
				}
				fmt.Fprintf(&b, `{"id":%q,"status":%q,"score":%d,"note":"row %d"}`, id, [...]string{"open", "closed", "pending"}[i%3], i%101, i)
			}
			b.WriteString("]}")
			return b.String()
		},
	},
	{
		// A tree nested a dozen levels through a recursive $ref.
		name:   "deep",
		schema: benchkit.TreeSchema,
		reply: func(bad bool) string {
			if bad {
				return benchkit.TreeJSON(11, 25)
			}
			return benchkit.TreeJSON(11, 0)
		},
	},
	{
		// A few long strings: sections of a written report.
		name: "long strings",
		schema: `{"type":"object","required":["sections"],"properties":{"sections":{"type":"array","items":{
			"type":"object","required":["title","body"],"properties":{
			"title":{"type":"string","minLength":1,"maxLength":80},
			"body":{"type":"string","minLength":100,"maxLength":20000}}}}}}`,
		reply: func(bad bool) string {
			body := strings.Repeat("The quarterly figures show steady growth in every region we serve. ", 150)
			var b strings.Builder
			b.WriteString(`{"sections":[`)
			for i := range 10 {
				if i > 0 {
					b.WriteByte(',')
				}
				text := body
				if bad && i%3 == 0 {
					text = "too short"
				}
				fmt.Fprintf(&b, `{"title":"Section %d","body":%q}`, i, text)
			}
			b.WriteString("]}")
			return b.String()
		},
	},
	{
		// Wide objects: each record declares a hundred fields.
		name: "wide",
		schema: func() string {
			props := make([]string, 100)
			for i := range props {
				props[i] = fmt.Sprintf(`"field%03d":{"type":"integer","minimum":0}`, i)
			}
			return `{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{` + strings.Join(props, ",") + `}}}`
		}(),
		reply: func(bad bool) string {
			var b strings.Builder
			b.WriteByte('[')
			for r := 0; b.Len() < 100<<10; r++ {
				if r > 0 {
					b.WriteByte(',')
				}
				b.WriteByte('{')
				for i := range 100 {
					if i > 0 {
						b.WriteByte(',')
					}
					v := i + r
					if bad && i == 50 && r%2 == 0 {
						v = -1
					}
					fmt.Fprintf(&b, `"field%03d":%d`, i, v)
				}
				b.WriteByte('}')
			}
			b.WriteByte(']')
			return b.String()
		},
	},
}

// BenchmarkCheckShapes measures one attempt's overhead (Check, everything
// but the provider call) on 100 KB replies of several shapes, valid and
// invalid, as a ratio to json.Valid on the same bytes timed in the same
// iterations (x-json.Valid; see BenchmarkCheckRatio for which way it
// leans): the targets of BenchmarkCheck, 3x valid and 5x invalid, hold on
// replies unlike its review.
func BenchmarkCheckShapes(b *testing.B) {
	for _, sh := range replyShapes {
		s := parse(b, sh.schema)
		e, err := enforce.New(s)
		if err != nil {
			b.Fatal(err)
		}
		for _, bad := range []bool{false, true} {
			text := sh.reply(bad)
			data := []byte(text)
			if !json.Valid(data) {
				b.Fatalf("%s: not JSON", sh.name)
			}
			resp := &provider.Response{Text: text, StopReason: provider.StopEnd}
			if v := e.Check(context.Background(), enforce.State{}, resp); v.OK == bad {
				b.Fatalf("%s: unexpected verdict %s %v", sh.name, v.Outcome, v.Violations)
			}
			name := sh.name + "/valid"
			if bad {
				name = sh.name + "/invalid"
			}
			b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
				benchkit.RatioToValid(b, data, func() { e.Check(context.Background(), enforce.State{}, resp) })
			})
			if bad {
				continue
			}
			// The floor of any Check that returns the value: allocating
			// it, and nothing else.
			var decoded any
			if err := json.Unmarshal(data, &decoded); err != nil {
				b.Fatal(err)
			}
			b.Run(strings.ReplaceAll(sh.name, " ", "_")+"/value_floor", func(b *testing.B) {
				benchkit.RatioToValid(b, data, func() { sink = copyValue(decoded) })
			})
			// The copy kept live would make every later collection mark
			// it: the shapes measured after it would pay for it.
			sink = nil
		}
	}
}
