package enforce

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/agentio/agentio/internal/jsonraw"
	"github.com/agentio/agentio/schema/dialect"
)

// wrapKey is the property that holds a non-object root in [ModeTool], whose
// tool input must be an object.
const wrapKey = "result"

// A prepared is the schema prepared for one provider dialect: what native and
// tool modes send, and how to map the output back.
type prepared struct {
	conv        *dialect.Conversion
	note        string          // why the dialect could not be applied, if it could not
	output      json.RawMessage // the native output schema
	strict      bool            // output may be sent strict
	tool        json.RawMessage // the submit_result input schema: an object root
	toolWrapped bool            // tool wraps a non-object output as {"result": ...}
	outputText  func() string   // output as re-asks show it (indentSchema), built on first use
	toolText    func() string   // tool as re-asks show it (indentSchema), built on first use
}

// dialect returns the schema prepared for the named dialect, converting it
// on first use. An unknown dialect falls back to the schema as written, with
// a note that attempts carry.
func (e *Enforcer) dialect(name string) *prepared {
	if d, ok := e.dialects.Load(name); ok {
		return d.(*prepared)
	}
	d := e.prepare(name)
	actual, _ := e.dialects.LoadOrStore(name, d)
	return actual.(*prepared)
}

func (e *Enforcer) prepare(name string) *prepared {
	d := &prepared{}
	conv, err := dialect.Convert(e.s, dialect.Dialect(name))
	if err != nil {
		d.note = fmt.Sprintf("schema dialect %q not applied (%v): the schema was sent as written", name, err)
		conv = &dialect.Conversion{Dialect: dialect.Passthrough, Schema: e.s.Minified()}
	}
	d.conv = conv
	d.output = conv.Schema
	d.strict = conv.Strict
	d.tool = conv.Schema
	if !conv.Wrapped && !e.objectRoot {
		if w, err := wrapRoot(conv.Schema); err == nil {
			d.tool, d.toolWrapped = w, true
		}
	}
	d.outputText = sync.OnceValue(func() string { return indentSchema(d.output) })
	d.toolText = sync.OnceValue(func() string { return indentSchema(d.tool) })
	return d
}

// hoisted are the root keywords a wrapped schema keeps at its new root:
// definitions that "#/..." references point into, and the dialect URI.
var hoisted = map[string]bool{"$defs": true, "definitions": true, "$schema": true}

// wrapRoot returns {"type":"object","properties":{"result":S},"required":
// ["result"],"additionalProperties":false} for the schema s, with s's
// definitions (and $schema) moved to the new root so that its "#/$defs/..."
// references still resolve. Key order is kept; a boolean schema is wrapped
// whole.
func wrapRoot(s []byte) ([]byte, error) {
	inner := json.RawMessage(s)
	var moved []jsonraw.Member
	members, err := jsonraw.Members(s)
	switch {
	case errors.Is(err, jsonraw.ErrNotObject): // true or false: kept whole
	case err != nil:
		return nil, err
	default:
		kept := members[:0]
		for _, m := range members {
			if hoisted[m.Key] {
				moved = append(moved, m)
			} else {
				kept = append(kept, m)
			}
		}
		inner = jsonraw.Encode(kept)
	}
	root := []jsonraw.Member{
		{Key: "type", Value: json.RawMessage(`"object"`)},
		{Key: "properties", Value: jsonraw.Encode([]jsonraw.Member{{Key: wrapKey, Value: inner}})},
		{Key: "required", Value: json.RawMessage(`["` + wrapKey + `"]`)},
		{Key: "additionalProperties", Value: json.RawMessage(`false`)},
	}
	return jsonraw.Encode(append(root, moved...)), nil
}
