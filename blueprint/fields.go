package blueprint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentio/agentio/internal/jsonraw"
)

// objectFields splits a JSON object into its members in document order. A
// key that occurs twice is an error: which value wins differs between JSON
// readers, so a blueprint must not depend on it. The values alias data.
func objectFields(data []byte) ([]jsonraw.Member, error) {
	fields, err := jsonraw.Members(data)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(fields))
	for _, f := range fields {
		if seen[f.Key] {
			return nil, fmt.Errorf("duplicate key %q", cut(f.Key))
		}
		seen[f.Key] = true
	}
	return fields, nil
}

// objectProblem says in words what objectFields found wrong, for a
// [FieldError]'s Reason.
func objectProblem(err error) string {
	var se *jsonraw.SyntaxError
	switch {
	case errors.As(err, &se):
		return se.Reason
	case errors.Is(err, jsonraw.ErrNotObject):
		return "not a JSON object"
	}
	return err.Error() // the duplicate key
}

// isNull reports whether raw is the JSON literal null.
func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}
