// Package sqlident holds what agentio's SQL stores (batch/sqlstore and
// registry/sqlregistry) share in writing their statements: the check and
// quoting of a table name their options give, and the placeholders of the
// engines they speak.
package sqlident

import (
	"fmt"
	"regexp"
	"strings"
)

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$`)

// Valid reports whether name is an SQL identifier (letters, digits and '_',
// not starting with a digit), optionally qualified by a schema
// ("schema.table"), of at most max bytes.
func Valid(name string, max int) bool {
	return len(name) <= max && identifier.MatchString(name)
}

// Quote returns a name Valid accepts with each of its parts double-quoted.
func Quote(name string) string {
	parts := strings.Split(name, ".")
	for i, p := range parts {
		parts[i] = `"` + p + `"`
	}
	return strings.Join(parts, ".")
}

// Placeholders returns the writer of the i-th parameter's placeholder
// (from 1) for an engine: "?" for "sqlite" (and ""), "$i" for "postgres".
// ok is false for any other engine.
func Placeholders(engine string) (ph func(i int) string, ok bool) {
	switch engine {
	case "sqlite", "":
		return func(int) string { return "?" }, true
	case "postgres":
		return func(i int) string { return fmt.Sprintf("$%d", i) }, true
	}
	return nil, false
}
