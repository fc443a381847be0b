package enforce

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/agentio/agentio/internal/jsonraw"
	"github.com/agentio/agentio/schema/dialect"
)

// transform is the one place where a candidate's value may change between
// extraction and validation, and every change is recorded in the attempt
// like a repair fix; a later lenient stage (coercing "5" to 5 by the schema,
// say) belongs here. Today it maps output that the provider produced
// against a rewritten schema back to the caller's schema: in ModeTool it
// removes the {"result": ...} wrapper of a non-object root, and in
// ModeNative and ModeTool it undoes the dialect's rewriting
// (dialect.Conversion.Restore). d is nil in the other modes.
//
// raw is the candidate's JSON and v its decoded value; the returned bytes
// are the model's own whenever they still encode the returned value.
// wrappedIn names the property the model's value was unwrapped from, ""
// when it was not.
func (e *Enforcer) transform(mode Mode, d *prepared, raw []byte, v any) (out []byte, value any, changes []Change, wrappedIn string) {
	if d == nil {
		return raw, v, nil, ""
	}
	if mode == ModeTool && d.toolWrapped {
		if inner, innerRaw, ok := member(raw, v, wrapKey); ok {
			raw, v, wrappedIn = innerRaw, inner, wrapKey
			changes = append(changes, Change{Kind: ChangeUnwrapped, Detail: `took the value of the {"` + wrapKey + `": ...} wrapper`})
		}
	}
	if d.conv.Dialect == dialect.Passthrough {
		return raw, v, changes, wrappedIn
	}
	restored := d.conv.Restore(v)
	if reflect.DeepEqual(restored, v) {
		return raw, v, changes, wrappedIn
	}
	kept := false
	if d.conv.Wrapped {
		if inner, innerRaw, ok := member(raw, v, d.conv.WrapKey); ok && reflect.DeepEqual(restored, inner) {
			raw, wrappedIn, kept = innerRaw, d.conv.WrapKey, true
		}
	}
	if !kept {
		if enc, err := json.Marshal(restored); err == nil {
			raw = enc
		}
	}
	changes = append(changes, Change{Kind: ChangeRestored, Detail: fmt.Sprintf("undid the %s dialect's rewriting of the schema", d.conv.Dialect)})
	return raw, restored, changes, wrappedIn
}

// member returns the value of the only property key of the object v (raw
// encoded) and its raw bytes, which alias raw; ok is false when v is not
// such an object. The bytes are found by scanning raw, not decoding it again.
func member(raw []byte, v any, key string) (inner any, innerRaw []byte, ok bool) {
	m, isMap := v.(map[string]any)
	if !isMap || len(m) != 1 {
		return nil, nil, false
	}
	inner, ok = m[key]
	if !ok {
		return nil, nil, false
	}
	members, err := jsonraw.Members(raw)
	if err != nil || len(members) == 0 {
		return nil, nil, false
	}
	// Every member is named key (v has no other); as in v, the last wins.
	return inner, members[len(members)-1].Value, true
}
