package blueprint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// A field is one member of a JSON object, its value kept as raw bytes.
type field struct {
	key string
	raw json.RawMessage
}

var errNotObject = errors.New("not a JSON object")

// objectFields splits a JSON object into its members in document order. A
// key that occurs twice is an error: which value wins differs between JSON
// readers, so a blueprint must not depend on it.
func objectFields(data []byte) ([]field, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errNotObject
	}
	var fields []field
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errNotObject
		}
		if seen[key] {
			return nil, fmt.Errorf("duplicate key %q", cut(key))
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		fields = append(fields, field{key: key, raw: raw})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the top-level object")
	}
	return fields, nil
}

// isNull reports whether raw is the JSON literal null.
func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}
