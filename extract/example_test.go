package extract_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentio/agentio/extract"
)

func ExampleJSON() {
	reply := "Here is the review:\n```json\n{\"verdict\": \"approve\", \"issues\": []}\n```\nLet me know!"
	c, err := extract.JSON(reply)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(c.JSON))
	fmt.Println(c.Source, c.Start, c.End)
	// Output:
	// {"verdict": "approve", "issues": []}
	// fence 28 64
}

func ExampleJSON_noJSON() {
	_, err := extract.JSON("I'm sorry, I can't review this diff without more context.")
	var re *extract.ReplyError
	if errors.As(err, &re) && errors.Is(err, extract.ErrNoJSON) {
		// The description is written to be shown to the model.
		fmt.Println(re.Description)
	}
	// Output:
	// no JSON value found; the reply began with "I'm sorry, I can't review this diff with..."
}

func ExampleCandidates() {
	reply := `Draft: {"score": 3}. On reflection: {"score": 4}`
	for _, c := range extract.Candidates(reply) {
		fmt.Println(c.Source, string(c.JSON))
	}
	// Output:
	// scan {"score": 3}
	// scan {"score": 4}
}

func ExampleWithPreferLast() {
	reply := `Draft: {"score": 3}. On reflection: {"score": 4}`
	c, _ := extract.JSON(reply, extract.WithPreferLast())
	fmt.Println(string(c.JSON))
	// Output:
	// {"score": 4}
}

func ExampleWithRepair() {
	reply := `{'verdict': 'approve', 'issues': ["naming", "tests",], 'blocking': False, // done
"summary": "Looks good, but`
	c, err := extract.JSON(reply, extract.WithRepair())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(c.JSON))
	for _, f := range c.Fixes {
		fmt.Printf("%d %s: %q -> %q\n", f.Offset, f.Kind, f.Before, f.After)
	}
	fmt.Println("truncated:", c.Truncated())
	// Output:
	// {"verdict":"approve","issues":["naming","tests"],"blocking":false,"summary":"Looks good, but"}
	// 1 single_quote: "'" -> "\""
	// 12 single_quote: "'" -> "\""
	// 23 single_quote: "'" -> "\""
	// 51 trailing_comma: "," -> ""
	// 55 single_quote: "'" -> "\""
	// 67 python_literal: "False" -> "false"
	// 74 comment: "// done" -> ""
	// 109 truncated: "" -> "\""
	// 109 truncated: "" -> "}"
	// truncated: true
}

func ExampleWithAccept() {
	// The caller's schema wants an array; here a stand-in checks the shape.
	isArray := func(v json.RawMessage) bool { return len(v) > 0 && v[0] == '[' }

	// Is ["hello,"world"] one string or two? Repair alone will not guess.
	reply := `["hello,"world"]`
	_, err := extract.JSON(reply, extract.WithRepair())
	fmt.Println(errors.Is(err, extract.ErrNoJSON))

	// A validator that wants two elements settles it.
	two := func(v json.RawMessage) bool {
		var a []string
		return isArray(v) && json.Unmarshal(v, &a) == nil && len(a) == 2
	}
	c, _ := extract.JSON(reply, extract.WithRepair(), extract.WithAccept(two))
	fmt.Println(string(c.JSON))

	// It also ranks the values found: the first one it accepts wins.
	c, _ = extract.JSON(`Draft {"a": 1}; answer [1, 2].`, extract.WithAccept(isArray))
	fmt.Println(string(c.JSON))
	// Output:
	// true
	// ["hello","world"]
	// [1, 2]
}

func ExampleWithStrictJSONOnly() {
	_, err := extract.JSON(`Sure! {"verdict": "approve"}`, extract.WithStrictJSONOnly())
	fmt.Println(errors.Is(err, extract.ErrNonJSONText))
	fmt.Println(err)

	c, err := extract.JSON("```json\n{\"verdict\": \"approve\"}\n```", extract.WithStrictJSONOnly())
	fmt.Println(string(c.JSON), err)
	// Output:
	// true
	// extract: text around the JSON value: the reply must be JSON alone, but text precedes the value at byte 6: "Sure!"
	// {"verdict": "approve"} <nil>
}

func ExampleWithObjectsOnly() {
	reply := `As noted in [1], the result is {"ok": true}.`
	c, _ := extract.JSON(reply)
	fmt.Println(string(c.JSON))
	c, _ = extract.JSON(reply, extract.WithObjectsOnly())
	fmt.Println(string(c.JSON))
	// Output:
	// [1]
	// {"ok": true}
}

func ExampleWithMaxSize() {
	_, err := extract.JSON(`{"a": "a long reply"}`, extract.WithMaxSize(8))
	fmt.Println(errors.Is(err, extract.ErrTooLarge), err)
	// Output:
	// true extract: input too large: 21 bytes, limit 8
}

// A Reader follows a reply as it streams in and reports each part of the
// JSON value as soon as it is complete.
func ExampleReader() {
	r := extract.NewReader()
	for _, chunk := range []string{"Sure:\n```json\n{\"ste", "ps\": [\"plan\", \"bu", "ild\"], \"done\": tr", "ue}\n```"} {
		if _, err := r.WriteString(chunk); err != nil {
			fmt.Println(err)
			return
		}
		for _, e := range r.Events() {
			if e.Kind == extract.EventScalar || e.Kind == extract.EventEnd {
				fmt.Printf("%s %s\n", e.Kind, r.Text()[e.Start:e.End])
			}
		}
		if p, ok := r.Partial(nil); ok {
			fmt.Printf("  so far: %s\n", p)
		}
	}
	// Output:
	//   so far: {}
	// scalar "plan"
	//   so far: {"steps": ["plan"]}
	// scalar "build"
	//   so far: {"steps": ["plan", "build"]}
	// scalar true
	// end {"steps": ["plan", "build"], "done": true}
}

// An Extractor kept for many replies reuses the memory one search needs
// for the next; what it returns is the caller's.
func ExampleExtractor() {
	replies := []string{
		`{"verdict": "approve"}`,
		`Here: {'verdict': 'reject', 'issues': ["tests",],}`,
		`I cannot review this.`,
	}
	var x extract.Extractor // one per goroutine
	var held []extract.Candidate
	for _, reply := range replies {
		c, err := x.JSON(reply, extract.WithRepair())
		if err != nil {
			fmt.Println(err)
			continue
		}
		held = append(held, c)
	}
	for _, c := range held {
		fmt.Println(c.Source, string(c.JSON), len(c.Fixes))
	}
	// Output:
	// extract: no JSON value found in text: no JSON value found; the reply began with "I cannot review this."
	// whole {"verdict": "approve"} 0
	// repaired {"verdict":"reject","issues":["tests"]} 5
}

func ExampleExtractor_JSON() {
	var x extract.Extractor
	for _, reply := range []string{`{"n": 1,}`, `{"n": 2, 'm': None}`} {
		c, err := x.JSON(reply, extract.WithRepair())
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(string(c.JSON), c.Fixes[len(c.Fixes)-1].Detail)
	}
	// Output:
	// {"n":1} removed a trailing comma
	// {"n":2,"m":null} replaced None with null
}

func ExampleExtractor_Candidates() {
	var x extract.Extractor
	for _, reply := range []string{`Draft: {"score": 3}. On reflection: {"score": 4}`, `[1, 2] or [3`} {
		for _, c := range x.Candidates(reply, extract.WithRepair()) {
			fmt.Println(c.Source, string(c.JSON))
		}
	}
	// Output:
	// scan {"score": 3}
	// scan {"score": 4}
	// scan [1, 2]
	// repaired [3]
}
