package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentio/agentio/internal/jsonraw"
)

// agentFieldOrder is the order fmt gives agent.json's known top-level
// fields; other fields follow in the author's order.
var agentFieldOrder = []string{
	"name", "description", "type", "tags", "system_prompt",
	"parameters_schema", "output_schema", "default_output_schema", "default_output_schema_options",
	"invariants", "contradictions",
}

func cmdFmt(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("fmt", stderr)
	write := fs.Bool("w", false, "write the formatted files back")
	diff := fs.Bool("d", false, "print a diff of what formatting would change")
	list := fs.Bool("l", false, "list the files whose formatting differs")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return &usageError{"fmt needs at least one file or directory"}
	}
	var files []string
	for _, p := range fs.Args() {
		found, err := lintFiles(p)
		if err != nil {
			return err
		}
		files = append(files, found...)
	}
	unformatted := 0
	failed := false
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		out, err := format(name, data)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			failed = true
			continue
		}
		if bytes.Equal(out, data) {
			continue
		}
		unformatted++
		if *list {
			fmt.Fprintln(stdout, name)
		}
		if *diff {
			fmt.Fprint(stdout, unifiedDiff(name, data, out))
		}
		if *write {
			info, err := os.Stat(name)
			if err != nil {
				return err
			}
			if err := os.WriteFile(name, out, info.Mode().Perm()); err != nil {
				return err
			}
		}
	}
	switch {
	case failed:
		return &exitError{2}
	case unformatted > 0 && !*write:
		if !*list && !*diff {
			fmt.Fprintf(stderr, "%d of %d files are not formatted (agentio fmt -d shows how, -w fixes them)\n", unformatted, len(files))
		}
		return &exitError{1}
	}
	return nil
}

// format returns the canonical form of a JSON file: two-space indent, the
// author's key order (agent.json's known fields first, in
// agentFieldOrder), the author's number and string literals, one final
// newline.
func format(name string, data []byte) ([]byte, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		if se, ok := err.(*json.SyntaxError); ok {
			line, col := lineCol(data, int(se.Offset))
			return nil, fmt.Errorf("%d:%d: not valid JSON: %v", line, col, se)
		}
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	if filepath.Base(name) == "agent.json" {
		if members, err := jsonraw.Members(data); err == nil {
			slices.SortStableFunc(members, func(a, b jsonraw.Member) int {
				return fieldRank(a.Key) - fieldRank(b.Key)
			})
			data = jsonraw.Encode(members)
		}
	}
	var b bytes.Buffer
	if err := json.Indent(&b, bytes.TrimSpace(data), "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

func fieldRank(key string) int {
	if i := slices.Index(agentFieldOrder, key); i >= 0 {
		return i
	}
	return len(agentFieldOrder)
}

func lineCol(data []byte, off int) (int, int) {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

// unifiedDiff returns a unified diff of a and b, line by line, with three
// lines of context: enough to show what fmt changes. It is a plain
// longest-common-subsequence diff, quadratic in the number of lines, which
// suits files of the size agent.json and schemas have.
func unifiedDiff(name string, a, b []byte) string {
	x := strings.SplitAfter(string(a), "\n")
	y := strings.SplitAfter(string(b), "\n")
	if len(x) > 0 && x[len(x)-1] == "" {
		x = x[:len(x)-1]
	}
	if len(y) > 0 && y[len(y)-1] == "" {
		y = y[:len(y)-1]
	}
	if len(x)*len(y) > 25_000_000 {
		return fmt.Sprintf("--- %s\n+++ %s (formatted)\n@@ the file is too large to diff line by line @@\n", name, name)
	}
	// lcs[i][j] is the length of the common subsequence of x[i:], y[j:].
	lcs := make([][]int32, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		kind byte // ' ', '-', '+'
		text string
		ai   int // line in a (0-based) of this op, or of the next a line
		bi   int
	}
	var ops []op
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, op{' ', x[i], i, j})
			i, j = i+1, j+1
		case j < len(y) && (i == len(x) || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, op{'+', y[j], i, j})
			j++
		default:
			ops = append(ops, op{'-', x[i], i, j})
			i++
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s (formatted)\n", name, name)
	const ctx = 3
	for k := 0; k < len(ops); {
		if ops[k].kind == ' ' {
			k++
			continue
		}
		start := max(k-ctx, 0)
		end := k
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run-end > 2*ctx || run == len(ops) {
				end = min(end+ctx, len(ops))
				break
			}
			end = run
		}
		var na, nb int
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				na++
			}
			if o.kind != '-' {
				nb++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", ops[start].ai+1, na, ops[start].bi+1, nb)
		for _, o := range ops[start:end] {
			out.WriteByte(o.kind)
			out.WriteString(o.text)
			if !strings.HasSuffix(o.text, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		k = end
	}
	return out.String()
}
