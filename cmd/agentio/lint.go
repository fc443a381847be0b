package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agentio/agentio/blueprint"
	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/internal/jsonraw"
	"github.com/agentio/agentio/registry"
	"github.com/agentio/agentio/schema"
	"github.com/agentio/agentio/schema/dialect"
)

// A finding is one problem lint reports.
type finding struct {
	File     string  `json:"file"`
	Line     int     `json:"line"`
	Column   int     `json:"column"`
	Severity string  `json:"severity"`          // "error" or "warning"
	Path     string  `json:"path,omitempty"`    // where in the document, JSONPath style
	Pointer  *string `json:"pointer,omitempty"` // the same, as a JSON Pointer`
	Message  string  `json:"message"`
}

func (f finding) text() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", f.File, f.Line, f.Column, f.Severity, f.Message)
}

// github renders f as a GitHub Actions workflow command.
func (f finding) github() string {
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	prop := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	return fmt.Sprintf("::%s file=%s,line=%d,col=%d::%s", f.Severity, prop.Replace(f.File), f.Line, f.Column, esc.Replace(f.Message))
}

func cmdLint(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("lint", stderr)
	format := fs.String("format", "text", "output format: text, json or github (GitHub Actions annotations)")
	dialectName := fs.String("dialect", "", "also report what this provider dialect (openai, ...) would drop or rewrite")
	registry := fs.String("registry", "", "also check the named schemas of this registry directory")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch *format {
	case "text", "json", "github":
	default:
		return &usageError{fmt.Sprintf("-format %q: use text, json or github", *format)}
	}
	if *dialectName != "" {
		probe, _ := schema.Parse([]byte(`{"type":"object"}`))
		if _, err := dialect.Convert(probe, dialect.Dialect(*dialectName)); errors.Is(err, dialect.ErrUnknown) {
			return &usageError{fmt.Sprintf("-dialect %q: %v", *dialectName, err)}
		}
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	var files []string
	for _, p := range paths {
		found, err := lintFiles(p)
		if err != nil {
			return err
		}
		files = append(files, found...)
	}
	l := &linter{dialect: dialect.Dialect(*dialectName)}
	for _, f := range files {
		if err := l.file(f); err != nil {
			return err
		}
	}
	if *registry != "" {
		if err := l.registry(*registry); err != nil {
			return err
		}
	}
	switch *format {
	case "json":
		list := l.findings
		if list == nil {
			list = []finding{}
		}
		data, err := json.MarshalIndent(list, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", data)
	case "github":
		for _, f := range l.findings {
			fmt.Fprintln(stdout, f.github())
		}
	default:
		for _, f := range l.findings {
			fmt.Fprintln(stdout, f.text())
		}
		fmt.Fprintf(stderr, "%s checked, %s\n", count(len(files), "file"), count(len(l.findings), "finding"))
	}
	if len(l.findings) > 0 {
		return &exitError{1}
	}
	return nil
}

// lintFiles returns the agent.json and *.schema.json files at p: p itself
// when it is a file, else those below it, in lexical order. Hidden
// directories are skipped.
func lintFiles(p string) ([]string, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	var out []string
	err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != p && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if lintable(d.Name()) {
			out = append(out, path)
		}
		return nil
	})
	return out, err
}

func lintable(name string) bool {
	return name == "agent.json" || strings.HasSuffix(name, ".schema.json")
}

type linter struct {
	dialect  dialect.Dialect
	findings []finding
}

func (l *linter) add(file string, data []byte, path, severity, msg string) {
	line, col := 1, 1
	var pointer *string
	if path != "" {
		if off, ok := jsonraw.Locate(data, path); ok {
			line, col = jsonraw.LineCol(data, off)
		}
		if p, ok := jsonpath.PointerOf(path); ok {
			pointer = &p
		}
	}
	l.findings = append(l.findings, finding{File: file, Line: line, Column: col, Severity: severity, Path: path, Pointer: pointer, Message: msg})
}

// file lints one file: a blueprint when it is named agent.json (or holds
// one), else a schema.
func (l *linter) file(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	if filepath.Base(name) == "agent.json" {
		l.blueprint(name, data)
		return nil
	}
	l.schema(name, data, "$", "")
	return nil
}

// schema lints a schema document, or the schema at at inside a blueprint
// (prefix names that field in messages).
func (l *linter) schema(name string, data []byte, at, prefix string) *schema.Schema {
	var src []byte = data
	if at != "$" {
		off, ok := jsonraw.Locate(data, at)
		if !ok {
			return nil
		}
		var raw json.RawMessage
		if json.NewDecoder(strings.NewReader(string(data[off:]))).Decode(&raw) != nil {
			return nil
		}
		src = raw
	}
	s, err := schema.Parse(src)
	if err != nil {
		var ie *schema.InvalidSchemaError
		if errors.As(err, &ie) {
			l.add(name, data, join(at, ie.Path), "error", prefix+ie.Reason)
		} else {
			l.add(name, data, at, "error", prefix+err.Error())
		}
		return nil
	}
	for _, w := range s.Warnings() {
		l.add(name, data, join(at, w.Path), "warning", prefix+w.Message)
	}
	if l.dialect != "" {
		conv, err := dialect.Convert(s, l.dialect)
		switch {
		case err != nil:
			l.add(name, data, at, "warning", fmt.Sprintf("%s%s dialect: %v", prefix, l.dialect, err))
		default:
			for _, c := range conv.Changes {
				l.add(name, data, join(at, c.Path), "warning", fmt.Sprintf("%s%s dialect (%s): %s", prefix, l.dialect, c.Kind, c.Detail))
			}
		}
	}
	return s
}

// join appends a path inside a schema ("$.properties.x") to the path of
// that schema in its file.
func join(at, inner string) string {
	if at == "$" {
		return inner
	}
	if !strings.HasPrefix(inner, "$") {
		return at // a path in another document: point at the schema
	}
	return at + inner[1:]
}

// blueprint lints an agent.json: the blueprint's own rules, then each of
// its schemas with the schema rules.
func (l *linter) blueprint(name string, data []byte) {
	_, err := blueprint.Parse(data)
	if unknown, uerr := blueprint.UnknownFields(data); uerr == nil {
		for _, u := range unknown {
			msg := "unknown field " + strconv.Quote(u.Name) + " is ignored"
			switch {
			case strings.Contains(u.Hint, "."):
				msg += " (did you mean " + strconv.Quote(u.Hint) + "? options go inside default_output_schema_options)"
			case u.Hint != "":
				msg += " (did you mean " + strconv.Quote(u.Hint) + "?)"
			}
			l.add(name, data, jsonpath.Path{jsonpath.Key(u.Name)}.String(), "warning", msg)
		}
	}
	var top map[string]json.RawMessage
	if jerr := json.Unmarshal(data, &top); jerr != nil {
		l.add(name, data, "", "error", "agent.json must hold one JSON object: "+jerr.Error())
		return
	}
	schemaFields := []string{"parameters_schema", "output_schema", "default_output_schema"}
	for _, f := range schemaFields {
		if raw, ok := top[f]; ok && string(raw) != "null" {
			l.schema(name, data, jsonpath.Path{jsonpath.Key(f)}.String(), f+": ")
		}
	}
	if err == nil {
		return
	}
	for _, e := range flatten(err) {
		var fe *blueprint.FieldError
		if !errors.As(e, &fe) {
			l.add(name, data, "", "error", e.Error())
			continue
		}
		var ie *schema.InvalidSchemaError
		if slices.Contains(schemaFields, fe.Field) && errors.As(fe, &ie) {
			continue // reported by the schema pass with its location
		}
		path := "$"
		if fe.Field != "" {
			var p jsonpath.Path // fe.Field is the dotted name of a field
			for _, k := range strings.Split(fe.Field, ".") {
				p = append(p, jsonpath.Key(k))
			}
			path = p.String()
		}
		l.add(name, data, path, "error", strings.TrimPrefix(fe.Error(), "blueprint: "))
	}
}

// flatten returns the errors joined in err.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

// registry checks every named schema of a registry directory.
func (l *linter) registry(dir string) error {
	reg, err := registry.NewDir(dir, nil)
	if err != nil {
		return err
	}
	_, err = reg.List(context.Background())
	for _, e := range flatten(err) {
		if e == nil {
			continue
		}
		var ce *registry.CorruptEntryError
		if errors.As(e, &ce) {
			data, _ := os.ReadFile(ce.Path)
			path, msg := "", strings.TrimPrefix(ce.Err.Error(), "schema: ")
			var ie *schema.InvalidSchemaError
			if errors.As(ce, &ie) {
				path, msg = join("$.schema", ie.Path), ie.Reason
			}
			l.add(ce.Path, data, path, "error", msg)
			continue
		}
		return e
	}
	return nil
}

// count returns "1 file", "2 files", "0 files".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
