package extract_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentio/agentio/extract"
)

// fuzzSeeds are replies of every shape the package meets.
var fuzzSeeds = []string{
	``,
	`{}`,
	`[1, 2, 3]`,
	`"just a string"`,
	"see ```json\n{\"a\": 1}\n```",
	"```\n[true]\n``` and ```json\n{\"b\": null}\n```",
	"```json\n{\"cut\": \"off",
	`Use {curly} braces; the answer is {"ok": true} or [1]`,
	`<think>maybe {"draft": 1}</think>{"final": 2}`,
	`<thinking>no closing tag {"x": 1}`,
	`reasoning</think>{"a": 1}`,
	`{"a": 1,}`,
	`{'a': 'b', c: True, d: None, e: NaN}`,
	`{"a": "line one
line two"}`,
	`{"k": "v"alue", "n": 01, "m": .5, "p": +1}`,
	`[1, 2, ...]`,
	`{"a": [1, 2, {"b": "trunc`,
	`{"a": /* c */ 1 // d
}`,
	"{“a”: ‘b’}",
	`{\"key\": \"value\"}`,
	`{"a":2]`,
	`[[[[[[[[[[`,
	`{"a": "\u12`,
	"\x00{\"a\":\"\xff\"}",
	`callback({"a": (1, 2)});`,
	`"a" + 'b' + ` + "`c´",
	`{"a": 1}, "b": 2}`,
	`[{"k":1}},{"k":2}]`,
	`["hello,"world", "x" y"]`,
	"0789",
	`{"a" true, "b": 1_000}`,
}

func FuzzJSON(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, opts := range [][]extract.Option{
			nil,
			{extract.WithPreferLast()},
			{extract.WithObjectsOnly()},
			{extract.WithStrictJSONOnly()},
		} {
			cands := extract.Candidates(text, opts...)
			for _, c := range cands {
				checkCandidate(t, text, c)
				if c.Source == extract.SourceRepaired || len(c.Fixes) > 0 {
					t.Fatalf("repaired candidate without WithRepair: %+v", c)
				}
			}
			got, err := extract.JSON(text, opts...)
			if err != nil {
				if !errors.Is(err, extract.ErrNoJSON) && !errors.Is(err, extract.ErrNonJSONText) {
					t.Fatalf("unexpected error %v", err)
				}
				if errors.Is(err, extract.ErrNoJSON) && len(cands) > 0 {
					t.Fatalf("ErrNoJSON but %d candidates", len(cands))
				}
				var re *extract.ReplyError
				if !errors.As(err, &re) || re.Description == "" {
					t.Fatalf("error without a description: %v", err)
				}
				continue
			}
			if len(cands) == 0 || !bytes.Equal(got.JSON, cands[0].JSON) || got.Start != cands[0].Start {
				t.Fatalf("JSON and Candidates disagree: %+v vs %d candidates", got, len(cands))
			}
		}
		if trimmed := strings.TrimSpace(text); json.Valid([]byte(trimmed)) {
			got, err := extract.JSON(text)
			if err != nil || got.Source != extract.SourceWhole || string(got.JSON) != trimmed {
				t.Fatalf("valid JSON not taken whole: %+v, %v", got, err)
			}
		}
	})
}

func FuzzRepair(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		cands := extract.Candidates(text, extract.WithRepair())
		for _, c := range cands {
			checkCandidate(t, text, c)
			if c.Source != extract.SourceRepaired {
				continue
			}
			if len(c.Fixes) == 0 {
				t.Fatalf("repaired candidate without fixes: %+v", c)
			}
			// Repair is idempotent: its output parses, so it is taken whole
			// and never touched again.
			again, err := extract.JSON(string(c.JSON), extract.WithRepair())
			if err != nil || again.Source != extract.SourceWhole || !bytes.Equal(again.JSON, c.JSON) || len(again.Fixes) != 0 {
				t.Fatalf("repairing %q again gave %+v, %v", c.JSON, again, err)
			}
		}
		got, err := extract.JSON(text, extract.WithRepair())
		if err == nil {
			checkCandidate(t, text, got)
		} else if !errors.Is(err, extract.ErrNoJSON) {
			t.Fatalf("unexpected error %v", err)
		}
		// An Extractor that searched another reply of the same length
		// first (the text backwards: what a search remembers of a text,
		// it tells by the length) finds what the package functions find.
		var x extract.Extractor
		x.Candidates(reversed(text), extract.WithRepair())
		if xc := x.Candidates(text, extract.WithRepair()); !reflect.DeepEqual(xc, cands) {
			t.Fatalf("an Extractor found %+v, Candidates %+v", xc, cands)
		}
		if xgot, xerr := x.JSON(text, extract.WithRepair()); !reflect.DeepEqual(xgot, got) || fmt.Sprint(xerr) != fmt.Sprint(err) {
			t.Fatalf("an Extractor gave %+v, %v; JSON %+v, %v", xgot, xerr, got, err)
		}
		// A validator is handed valid JSON only, and what it settles is a
		// candidate like any other.
		valid := func(v json.RawMessage) bool {
			if !json.Valid(v) {
				t.Fatalf("validator handed %q", v)
			}
			return len(v)%2 == 0
		}
		if vc, err := extract.JSON(text, extract.WithRepair(), extract.WithAccept(valid)); err == nil {
			checkCandidate(t, text, vc)
		} else if !errors.Is(err, extract.ErrNoJSON) {
			t.Fatalf("unexpected error %v", err)
		}
		if trimmed := strings.TrimSpace(text); json.Valid([]byte(trimmed)) {
			if err != nil || got.Source != extract.SourceWhole || string(got.JSON) != trimmed || len(got.Fixes) != 0 {
				t.Fatalf("repair touched valid JSON: %+v, %v", got, err)
			}
		}
	})
}

// reversed returns s's bytes in reverse order.
func reversed(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

// checkCandidate checks the properties every candidate has.
func checkCandidate(t *testing.T, text string, c extract.Candidate) {
	t.Helper()
	if !json.Valid(c.JSON) {
		t.Fatalf("candidate is not valid JSON: %q (from %q)", c.JSON, text)
	}
	if c.Start < 0 || c.Start > c.End || c.End > len(text) {
		t.Fatalf("span [%d,%d) outside the input of %d bytes", c.Start, c.End, len(text))
	}
	if c.Source != extract.SourceRepaired && string(c.JSON) != text[c.Start:c.End] {
		t.Fatalf("candidate %q is not the input's bytes %q", c.JSON, text[c.Start:c.End])
	}
	for _, f := range c.Fixes {
		if f.Offset < 0 || f.Offset+len(f.Before) > len(text) || text[f.Offset:f.Offset+len(f.Before)] != f.Before {
			t.Fatalf("fix %+v: its Before is not the input's text at its offset (%q)", f, text)
		}
		if f.Before == f.After || f.Detail == "" {
			t.Fatalf("fix %+v changes nothing or says nothing", f)
		}
		if utf8.ValidString(text) && !utf8.ValidString(f.Detail) {
			t.Fatalf("fix %+v: its detail splits a character of valid input", f)
		}
	}
}
