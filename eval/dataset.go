package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentio/agentio/crosscheck"
	"github.com/agentio/agentio/internal/clip"
	"github.com/agentio/agentio/schema"
)

// A Case is one line of a dataset: what to ask and what to ask for. Either
// Schema or Blueprint names the output contract; either Prompt or
// Parameters (or both) is the input. A Case read by [ReadDataset] has been
// checked: its schema and invariants compile. It is a plain value; Run
// does not modify it.
type Case struct {
	// ID names the case in results; unique within a dataset.
	ID string `json:"id"`
	// Schema is the case's inline output schema, nil when Blueprint is set.
	Schema json.RawMessage `json:"schema,omitempty"`
	// Blueprint is the path of an agent.json (or its directory). In a
	// dataset file it is relative to that file; [LoadDataset] resolves it,
	// [ReadDataset] keeps it as written.
	Blueprint string `json:"blueprint,omitempty"`
	// Prompt is the user prompt.
	Prompt string `json:"prompt,omitempty"`
	// Parameters are the run's structured inputs: a blueprint's parameters,
	// or for an inline schema rendered into an <inputs> block before the
	// prompt.
	Parameters map[string]any `json:"parameters,omitempty"`
	// Expected, when not nil, is the output the case expects; a valid
	// output agrees with it when the two are equal as JSON values.
	Expected json.RawMessage `json:"expected,omitempty"`
	// Invariants are crosscheck invariants the output must keep, declared
	// as an agent.json declares them; a violation is re-asked like a
	// schema violation.
	Invariants []crosscheck.Invariant `json:"invariants,omitempty"`
}

// ErrDataset is matched (errors.Is) by every [*DatasetError].
var ErrDataset = errors.New("eval: invalid dataset")

// A DatasetError reports a dataset line that cannot be used: it does not
// parse, or a field is missing, of the wrong type or does not compile.
type DatasetError struct {
	// Line is the 1-based line number in the dataset.
	Line int
	// Field is the member at fault ("schema", "id", ...), "" when the line
	// as a whole is (not a JSON object).
	Field string
	// Reason says what is wrong.
	Reason string
	// Err is the underlying error, if any.
	Err error
}

// Error returns "eval: invalid dataset: line N: field: reason".
func (e *DatasetError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%v: line %d: %s", ErrDataset, e.Line, e.Reason)
	}
	return fmt.Sprintf("%v: line %d: %s: %s", ErrDataset, e.Line, e.Field, e.Reason)
}

// Unwrap returns ErrDataset and the underlying error.
func (e *DatasetError) Unwrap() []error { return []error{ErrDataset, e.Err} }

// maxLine bounds one dataset line (a case with a large schema or expected
// value).
const maxLine = 16 << 20

// ReadDataset reads a JSONL dataset: one JSON object per line, blank lines
// skipped. Each case needs an "id" (unique), exactly one of "schema" (an
// inline JSON Schema, which must compile) and "blueprint" (a path), and a
// "prompt" or "parameters" (an object; with an inline schema the prompt may
// be its "prompt" member, the others are rendered into an <inputs> block
// before it); "expected" is any JSON value and
// "invariants" an array of crosscheck invariants, which must compile.
// Unknown members are errors. The first bad line is returned as a
// [*DatasetError] naming the line and the field; no cases come beside it.
// An empty dataset is not an error. Blueprint paths are kept as written:
// [LoadDataset] resolves them against the dataset's directory.
func ReadDataset(r io.Reader) ([]Case, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var cases []Case
	seen := map[string]int{}
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		c, err := parseCase(text, line)
		if err != nil {
			return nil, err
		}
		if first, dup := seen[c.ID]; dup {
			return nil, &DatasetError{Line: line, Field: "id", Reason: fmt.Sprintf("%q repeats line %d", c.ID, first)}
		}
		seen[c.ID] = line
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, &DatasetError{Line: line + 1, Reason: err.Error(), Err: err}
	}
	return cases, nil
}

// LoadDataset reads the dataset file at path with [ReadDataset] and makes
// each relative Blueprint path relative to the file's directory. It returns
// the file system's error for a file it cannot open.
func LoadDataset(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cases, err := ReadDataset(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	dir := filepath.Dir(path)
	for i := range cases {
		if b := cases[i].Blueprint; b != "" && !filepath.IsAbs(b) {
			cases[i].Blueprint = filepath.Join(dir, b)
		}
	}
	return cases, nil
}

// parseCase decodes and checks one line.
func parseCase(text []byte, line int) (Case, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(text, &raw); err != nil || raw == nil {
		reason := "not a JSON object"
		if err != nil {
			reason += ": " + cut(err.Error())
		}
		return Case{}, &DatasetError{Line: line, Reason: reason, Err: err}
	}
	bad := func(field, reason string, err error) error {
		return &DatasetError{Line: line, Field: field, Reason: reason, Err: err}
	}
	var c Case
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		v := raw[k]
		var err error
		switch k {
		case "id":
			err = json.Unmarshal(v, &c.ID)
		case "schema":
			c.Schema = v
		case "blueprint":
			err = json.Unmarshal(v, &c.Blueprint)
		case "prompt":
			err = json.Unmarshal(v, &c.Prompt)
		case "parameters":
			if !bytes.HasPrefix(v, []byte("{")) {
				return c, bad(k, "must be an object", nil)
			}
			err = json.Unmarshal(v, &c.Parameters)
		case "expected":
			c.Expected = v
		case "invariants":
			dec := json.NewDecoder(bytes.NewReader(v))
			dec.DisallowUnknownFields()
			err = dec.Decode(&c.Invariants)
		default:
			return c, bad(k, "unknown member", nil)
		}
		if err != nil {
			return c, bad(k, "wrong type: "+cut(err.Error()), err)
		}
	}
	switch {
	case c.ID == "":
		return c, bad("id", "missing or empty", nil)
	case c.Schema == nil && c.Blueprint == "":
		return c, bad("schema", `one of "schema" and "blueprint" is required`, nil)
	case c.Schema != nil && c.Blueprint != "":
		return c, bad("blueprint", `"schema" and "blueprint" exclude each other`, nil)
	case c.Prompt == "" && len(c.Parameters) == 0:
		return c, bad("prompt", `one of "prompt" and "parameters" is required`, nil)
	case c.Schema != nil && c.Prompt == "":
		if p, ok := c.Parameters["prompt"].(string); !ok || p == "" {
			return c, bad("prompt", `a case with an inline schema needs "prompt" or a "prompt" parameter`, nil)
		}
	}
	if c.Schema != nil {
		if _, err := schema.Parse(c.Schema); err != nil {
			// The field names the schema already: drop the package's own
			// "schema: " so that the message does not say it twice.
			return c, bad("schema", cut(strings.TrimPrefix(err.Error(), "schema: ")), err)
		}
	}
	if c.Invariants != nil {
		if _, err := crosscheck.CompileInvariants(c.Invariants...); err != nil {
			return c, bad("invariants", cut(err.Error()), err)
		}
	}
	return c, nil
}

// cut shortens s for an error message, on a rune boundary.
func cut(s string) string { return clip.Ellipsis(s, 200) }
